/* The bodies of the MPI_Info calls (MPI-4.1 chapter 10), MPI_Info_create_env,
 * and the info of communicators (MPI_Comm_set_info / MPI_Comm_get_info) and
 * windows (none exist).  Their entry points, with the lock and the checks
 * of the handles, keys and result pointers, are generated (src/api/gen/
 * bindings_info.c; see tools/gen/gen_bindings.py).
 *
 * Info calls are allowed before MPI_Init and after MPI_Finalize (MPI-4.1
 * 11.4.1); an error then is fatal, as every error outside Init/Finalize. */
#include <string.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/handle_check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/state.h"
#include "api/win_check.h"
#include "rma/win.h"

int tern_chk_info_key(struct tern_comm *c, const char *fn, const char *key)
{
    if (!key) return tern_err_comm(c, MPI_ERR_INFO_KEY, "%s: key is NULL", fn);
    size_t len = strlen(key);
    if (len == 0) return tern_err_comm(c, MPI_ERR_INFO_KEY, "%s: key is empty", fn);
    if (len > MPI_MAX_INFO_KEY)
        return tern_err_comm(c, MPI_ERR_INFO_KEY,
                             "%s: key has %zu characters, more than MPI_MAX_INFO_KEY (%d)", fn, len,
                             MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

static int no_mem(const char *fn)
{
    return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for an info object", fn);
}

/* Gives a new object to the user, or frees it and reports why not. */
static int publish(struct tern_info *info, const char *fn, MPI_Info *out)
{
    if (!info) return no_mem(fn);
    if (tern_info_publish(info, out) != MPI_SUCCESS) {
        tern_info_destroy(info);
        return no_mem(fn);
    }
    return MPI_SUCCESS;
}

int tern_api_info_create(const char *fn, MPI_Info *info)
{
    return publish(tern_info_new(), fn, info);
}

int tern_api_info_dup(const char *fn, struct tern_info *info_o, MPI_Info *newinfo)
{
    return publish(tern_info_dup(info_o), fn, newinfo);
}

int tern_api_info_free(const char *fn, MPI_Info *info, struct tern_info *info_o)
{
    if (*info == MPI_INFO_ENV)
        return tern_err_comm(NULL, MPI_ERR_INFO,
                             "%s: MPI_INFO_ENV is predefined and cannot be freed", fn);
    tern_info_destroy(info_o);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

int tern_api_info_set(const char *fn, struct tern_info *info_o, const char *key, const char *value)
{
    if (!value) return tern_err_comm(NULL, MPI_ERR_INFO_VALUE, "%s: value is NULL", fn);
    size_t len = strlen(value);
    if (len > MPI_MAX_INFO_VAL)
        return tern_err_comm(NULL, MPI_ERR_INFO_VALUE,
                             "%s: the value of key '%s' has %zu characters, more than "
                             "MPI_MAX_INFO_VAL (%d)",
                             fn, key, len, MPI_MAX_INFO_VAL);
    return tern_info_set(info_o, key, value) != MPI_SUCCESS ? no_mem(fn) : MPI_SUCCESS;
}

int tern_api_info_delete(const char *fn, struct tern_info *info_o, const char *key)
{
    if (!tern_info_delete(info_o, key))
        return tern_err_comm(NULL, MPI_ERR_INFO_NOKEY, "%s: key '%s' is not set in info 0x%x", fn,
                             key, (unsigned)info_o->handle);
    return MPI_SUCCESS;
}

int tern_api_info_get(const char *fn, struct tern_info *info_o, const char *key, int valuelen,
                      char *value, int *flag)
{
    int rc;
    if (valuelen < 0)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: valuelen=%d must be >= 0", fn, valuelen);
    if ((rc = tern_check_ptr(NULL, value, fn, "value"))) return rc;
    const char *v = tern_info_find(info_o, key);
    *flag = v != NULL;
    if (!v) return MPI_SUCCESS;
    size_t len = strlen(v), n = len < (size_t)valuelen ? len : (size_t)valuelen;
    memcpy(value, v, n);
    value[n] = 0;
    /* As MPICH: the value is cut to valuelen characters and the cut
     * reported. */
    if (len > n)
        return tern_err_comm(NULL, MPI_ERR_INFO_VALUE,
                             "%s: the value of key '%s' has %zu "
                             "characters, more than valuelen=%d (it was truncated)",
                             fn, key, len, valuelen);
    return MPI_SUCCESS;
}

int tern_api_info_get_valuelen(const char *fn, struct tern_info *info_o, const char *key,
                               int *valuelen, int *flag)
{
    (void)fn;
    const char *v = tern_info_find(info_o, key);
    *flag = v != NULL;
    if (v) *valuelen = (int)strlen(v);
    return MPI_SUCCESS;
}

int tern_api_info_get_string(const char *fn, struct tern_info *info_o, const char *key, int *buflen,
                             char *value, int *flag)
{
    int rc;
    if ((rc = tern_check_ptr(NULL, buflen, fn, "buflen"))) return rc;
    if (*buflen < 0)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: *buflen=%d must be >= 0", fn, *buflen);
    /* With *buflen == 0 the call only asks for the length: value may be NULL. */
    if (*buflen > 0 && (rc = tern_check_ptr(NULL, value, fn, "value"))) return rc;
    const char *v = tern_info_find(info_o, key);
    *flag = v != NULL;
    if (!v) return MPI_SUCCESS;
    size_t len = strlen(v);
    if (*buflen > 0) {
        size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;
        memcpy(value, v, n);
        value[n] = 0;
    }
    *buflen = (int)len + 1;
    return MPI_SUCCESS;
}

int tern_api_info_get_nkeys(const char *fn, struct tern_info *info_o, int *nkeys)
{
    (void)fn;
    *nkeys = info_o->n;
    return MPI_SUCCESS;
}

int tern_api_info_get_nthkey(const char *fn, struct tern_info *info_o, int n, char *key)
{
    if (n < 0 || n >= info_o->n)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: n=%d is not in 0..nkeys-1 (the info has %d "
                             "keys)",
                             fn, n, info_o->n);
    strcpy(key, info_o->ent[n].key); /* keys are at most MPI_MAX_INFO_KEY long */
    return MPI_SUCCESS;
}

int tern_api_info_create_env(const char *fn, int argc, char *argv[], MPI_Info *info)
{
    return publish(tern_info_env_new(argc, argv), fn, info);
}

/* ---- Communicators and windows ---- */

int tern_api_comm_set_info(const char *fn, struct tern_comm *comm_o, struct tern_info *info_o)
{
    (void)fn;
    tern_comm_hints_apply(comm_o, info_o);
    return MPI_SUCCESS;
}

int tern_api_comm_get_info(const char *fn, struct tern_comm *comm_o, MPI_Info *info_used)
{
    return publish(tern_comm_hints_info(comm_o), fn, info_used);
}

TERN_WEAK_ALIAS(MPI_Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    static const char fn[] = "MPI_Win_set_info";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    struct tern_info *io = NULL;
    int rc = tern_check_win(win, fn, &w);
    if (!rc) rc = tern_info_check(info, 0, fn, "info", NULL, &io);
    if (!rc) tern_win_apply_info(w, io);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Win_get_info";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    int rc = tern_check_win(win, fn, &w);
    if (!rc && !info_used) rc = tern_win_err(w, MPI_ERR_ARG, "%s: info_used is NULL", fn);
    if (!rc) rc = publish(tern_win_info(w), fn, info_used);
    tern_unlock();
    return rc;
}
