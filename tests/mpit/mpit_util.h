/* Helpers shared by the MPI_T tests. */
#ifndef TERN_TESTS_MPIT_UTIL_H
#define TERN_TESTS_MPIT_UTIL_H

#include <string.h>

#include "tern_test.h"

/* An MPI_T call must return exactly 'want' (MPI_T calls return classes). */
#define CHECK_T(call, want)                                                                       \
    do {                                                                                          \
        int rc_ = (call);                                                                         \
        CHECK(rc_ == (want), "%s returned %d, expected %s (%d)", #call, rc_, #want, (int)(want)); \
    } while (0)

static inline int cvar_index(const char *name)
{
    int i = -1;
    CHECK_T(MPI_T_cvar_get_index(name, &i), MPI_SUCCESS);
    return i;
}

static inline MPI_T_cvar_handle cvar_handle(const char *name)
{
    MPI_T_cvar_handle h;
    int count = 0;
    CHECK_T(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, &count), MPI_SUCCESS);
    CHECK(count == 1, "%s: count %d", name, count);
    return h;
}

static inline unsigned long long cvar_read_ull(const char *name)
{
    MPI_T_cvar_handle h = cvar_handle(name);
    unsigned long long v = 0;
    CHECK_T(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    return v;
}

static inline int cvar_read_int(const char *name)
{
    MPI_T_cvar_handle h = cvar_handle(name);
    int v = -1;
    CHECK_T(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    return v;
}

static inline int pvar_index(const char *name, int var_class)
{
    int i = -1;
    CHECK_T(MPI_T_pvar_get_index(name, var_class, &i), MPI_SUCCESS);
    return i;
}

static inline MPI_T_pvar_handle pvar_handle(MPI_T_pvar_session s, const char *name, int var_class)
{
    MPI_T_pvar_handle h;
    int count = 0;
    CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index(name, var_class), NULL, &h, &count), MPI_SUCCESS);
    CHECK(count == 1, "%s: count %d", name, count);
    return h;
}

static inline unsigned long long pvar_read(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK_T(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
    return v;
}

#endif
