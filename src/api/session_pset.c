/* Process sets of a session (MPI-4.1 11.3.2) and the groups made from them.
 * Tern knows the two the standard requires: "mpi://WORLD" (every process
 * of the job) and "mpi://SELF" (the caller alone).  Their info holds
 * "mpi_size". */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/handle_check.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/session.h"
#include "core/state.h"

enum { PSET_WORLD, PSET_SELF, NPSETS };
static const char *const pset_names[NPSETS] = {"mpi://WORLD", "mpi://SELF"};

static int pset_size(int p) { return p == PSET_WORLD ? tern_g.world_size : 1; }

/* The process set called name (case aside, as the "mpi://" scheme is), or
 * an MPI_ERR_ARG raised on s. */
static int find_pset(struct tern_session *s, const char *fn, const char *name, int *p)
{
    *p = NPSETS; /* none, until found */
    if (!name) return tern_err_session(s, MPI_ERR_ARG, "%s: pset_name is NULL", fn);
    for (*p = 0; *p < NPSETS; ++*p)
        if (strcasecmp(name, pset_names[*p]) == 0) return MPI_SUCCESS;
    return tern_err_session(
        s, MPI_ERR_ARG, "%s: pset_name=\"%.64s\" is not a process set (Tern has \"%s\" and \"%s\")",
        fn, name, pset_names[PSET_WORLD], pset_names[PSET_SELF]);
}

/* The info argument of the queries: none is understood, but it must be
 * MPI_INFO_NULL or a live info. */
static int check_info(struct tern_session *s, const char *fn, MPI_Info info)
{
    if (info == MPI_INFO_NULL || tern_info_get(info)) return MPI_SUCCESS;
    return tern_err_session(s, MPI_ERR_INFO, "%s: info=0x%x is not an info object", fn,
                            (unsigned)info);
}

int tern_api_session_get_num_psets(const char *fn, struct tern_session *session_o, MPI_Info info,
                                   int *npset_names)
{
    int rc;
    if ((rc = check_info(session_o, fn, info))) return rc;
    if ((rc = tern_chk_session_ptr(session_o, npset_names, fn, "npset_names"))) return rc;
    *npset_names = NPSETS;
    return MPI_SUCCESS;
}

/* *pset_len == 0 asks for the length of the name (with its terminating
 * null); otherwise at most *pset_len - 1 characters and a null are stored.
 * Either way *pset_len ends as the name's full length with the null. */
int tern_api_session_get_nth_pset(const char *fn, struct tern_session *session_o, MPI_Info info,
                                  int n, int *pset_len, char *pset_name)
{
    struct tern_session *s = session_o;
    int rc;
    TRY(check_info(s, fn, info));
    if (n < 0 || n >= NPSETS) {
        rc = tern_err_session(s, MPI_ERR_ARG,
                              "%s: n=%d is not in [0, %d): there are %d process sets", fn, n,
                              NPSETS, NPSETS);
        goto out;
    }
    if (!pset_len || *pset_len < 0 || (*pset_len > 0 && !pset_name)) {
        rc = tern_err_session(s, MPI_ERR_ARG, "%s: %s", fn,
                              !pset_len       ? "pset_len is NULL"
                              : *pset_len < 0 ? "*pset_len is negative"
                                              : "pset_name is NULL");
        goto out;
    }
    size_t len = strlen(pset_names[n]);
    if (*pset_len > 0) {
        size_t copy = len < (size_t)*pset_len - 1 ? len : (size_t)*pset_len - 1;
        memcpy(pset_name, pset_names[n], copy);
        pset_name[copy] = 0;
    }
    *pset_len = (int)len + 1;
out:
    return rc;
}

int tern_api_session_get_pset_info(const char *fn, struct tern_session *session_o,
                                   const char *pset_name, MPI_Info *info)
{
    struct tern_session *s = session_o;
    int rc, p;
    TRY(find_pset(s, fn, pset_name, &p));
    TRY(tern_chk_session_ptr(s, info, fn, "info"));
    char size[16];
    snprintf(size, sizeof size, "%d", pset_size(p));
    struct tern_info *ti = tern_info_new();
    if (!ti || tern_info_set(ti, "mpi_size", size) != MPI_SUCCESS ||
        tern_info_publish(ti, info) != MPI_SUCCESS) {
        if (ti) tern_info_destroy(ti);
        rc = tern_err_session(s, MPI_ERR_NO_MEM, "%s: out of memory for an info object", fn);
    }
out:
    return rc;
}

int tern_api_group_from_session_pset(const char *fn, struct tern_session *session_o,
                                     const char *pset_name, MPI_Group *newgroup)
{
    struct tern_session *s = session_o;
    int rc, p;
    TRY(find_pset(s, fn, pset_name, &p));
    TRY(tern_chk_session_ptr(s, newgroup, fn, "newgroup"));
    struct tern_group *g = tern_group_new(pset_size(p));
    if (!g) {
        rc = tern_err_session(s, MPI_ERR_NO_MEM, "%s: out of memory for a group", fn);
        goto out;
    }
    for (int i = 0; i < g->size; i++) g->world[i] = p == PSET_WORLD ? i : tern_g.world_rank;
    tern_group_set_rank(g);
    /* Communicators made from the group derive from the session (their
     * buffered sends may use its buffer). */
    g->session = s;
    tern_session_retain(s);
    if (tern_group_publish(g, newgroup) != MPI_SUCCESS)
        rc = tern_err_session(s, MPI_ERR_NO_MEM, "%s: out of memory for a group handle", fn);
out:
    return rc;
}
