/* MPI_Info entry points (MPI-4.1 chapter 10), MPI_Info_create_env, and the
 * info of communicators (MPI_Comm_set_info / MPI_Comm_get_info) and windows
 * (none exist).
 *
 * Info calls are allowed before MPI_Init and after MPI_Finalize (MPI-4.1
 * 11.4.1); an error then is fatal, as every error outside Init/Finalize. */
#include <string.h>

#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/state.h"


static int chk_info(MPI_Info h, const char *fn, struct tern_info **out)
{
    return tern_info_check(h, 0, fn, "info", NULL, out);
}

static int chk_key(const char *key, const char *fn)
{
    if (!key) return tern_err_comm(NULL, MPI_ERR_INFO_KEY, "%s: key is NULL", fn);
    size_t len = strlen(key);
    if (len == 0) return tern_err_comm(NULL, MPI_ERR_INFO_KEY, "%s: key is empty", fn);
    if (len > MPI_MAX_INFO_KEY)
        return tern_err_comm(NULL, MPI_ERR_INFO_KEY,
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

TERN_WEAK_ALIAS(MPI_Info_create)
int PMPI_Info_create(MPI_Info *info)
{
    static const char fn[] = "MPI_Info_create";
    int rc;
    tern_lock();
    TRY(tern_check_ptr(NULL, info, fn, "info"));
    rc = publish(tern_info_new(), fn, info);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_dup)
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    static const char fn[] = "MPI_Info_dup";
    struct tern_info *i;
    int rc;
    tern_lock();
    TRY(chk_info(info, fn, &i));
    TRY(tern_check_ptr(NULL, newinfo, fn, "newinfo"));
    rc = publish(tern_info_dup(i), fn, newinfo);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_free)
int PMPI_Info_free(MPI_Info *info)
{
    static const char fn[] = "MPI_Info_free";
    struct tern_info *i;
    int rc;
    tern_lock();
    TRY(tern_check_ptr(NULL, info, fn, "info"));
    TRY(chk_info(*info, fn, &i));
    if (*info == MPI_INFO_ENV) {
        rc = tern_err_comm(NULL, MPI_ERR_INFO, "%s: MPI_INFO_ENV is predefined and cannot be freed",
                           fn);
        goto out;
    }
    tern_info_destroy(i);
    *info = MPI_INFO_NULL;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_set)
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    static const char fn[] = "MPI_Info_set";
    struct tern_info *i;
    int rc;
    tern_lock();
    TRY(chk_info(info, fn, &i));
    TRY(chk_key(key, fn));
    if (!value) {
        rc = tern_err_comm(NULL, MPI_ERR_INFO_VALUE, "%s: value is NULL", fn);
        goto out;
    }
    size_t len = strlen(value);
    if (len > MPI_MAX_INFO_VAL) {
        rc = tern_err_comm(NULL, MPI_ERR_INFO_VALUE,
                           "%s: the value of key '%s' has %zu characters, more than "
                           "MPI_MAX_INFO_VAL (%d)", fn, key, len, MPI_MAX_INFO_VAL);
        goto out;
    }
    if (tern_info_set(i, key, value) != MPI_SUCCESS) rc = no_mem(fn);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_delete)
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    static const char fn[] = "MPI_Info_delete";
    struct tern_info *i;
    int rc;
    tern_lock();
    TRY(chk_info(info, fn, &i));
    TRY(chk_key(key, fn));
    if (!tern_info_delete(i, key))
        rc = tern_err_comm(NULL, MPI_ERR_INFO_NOKEY, "%s: key '%s' is not set in info 0x%x", fn,
                           key, (unsigned)info);
out:
    tern_unlock();
    return rc;
}

/* The lookups' common checks; *val is the value or NULL. */
static int lookup(const char *fn, MPI_Info info, const char *key, const int *flag,
                  const char **val)
{
    struct tern_info *i;
    int rc;
    if ((rc = chk_info(info, fn, &i)) || (rc = chk_key(key, fn)) ||
        (rc = tern_check_ptr(NULL, flag, fn, "flag")))
        return rc;
    *val = tern_info_find(i, key);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Info_get)
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    static const char fn[] = "MPI_Info_get";
    const char *v;
    int rc;
    tern_lock();
    TRY(lookup(fn, info, key, flag, &v));
    if (valuelen < 0) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: valuelen=%d must be >= 0", fn, valuelen);
        goto out;
    }
    TRY(tern_check_ptr(NULL, value, fn, "value"));
    *flag = v != NULL;
    if (!v) goto out;
    size_t len = strlen(v), n = len < (size_t)valuelen ? len : (size_t)valuelen;
    memcpy(value, v, n);
    value[n] = 0;
    /* As MPICH: the value is cut to valuelen characters and the cut
     * reported. */
    if (len > n)
        rc = tern_err_comm(NULL, MPI_ERR_INFO_VALUE, "%s: the value of key '%s' has %zu "
                           "characters, more than valuelen=%d (it was truncated)", fn, key, len,
                           valuelen);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_get_valuelen)
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    static const char fn[] = "MPI_Info_get_valuelen";
    const char *v;
    int rc;
    tern_lock();
    TRY(lookup(fn, info, key, flag, &v));
    TRY(tern_check_ptr(NULL, valuelen, fn, "valuelen"));
    *flag = v != NULL;
    if (v) *valuelen = (int)strlen(v);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_get_string)
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    static const char fn[] = "MPI_Info_get_string";
    const char *v;
    int rc;
    tern_lock();
    TRY(lookup(fn, info, key, flag, &v));
    TRY(tern_check_ptr(NULL, buflen, fn, "buflen"));
    if (*buflen < 0) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: *buflen=%d must be >= 0", fn, *buflen);
        goto out;
    }
    /* With *buflen == 0 the call only asks for the length: value may be NULL. */
    if (*buflen > 0) TRY(tern_check_ptr(NULL, value, fn, "value"));
    *flag = v != NULL;
    if (!v) goto out;
    size_t len = strlen(v);
    if (*buflen > 0) {
        size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;
        memcpy(value, v, n);
        value[n] = 0;
    }
    *buflen = (int)len + 1;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_get_nkeys)
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    static const char fn[] = "MPI_Info_get_nkeys";
    struct tern_info *i;
    int rc;
    tern_lock();
    TRY(chk_info(info, fn, &i));
    TRY(tern_check_ptr(NULL, nkeys, fn, "nkeys"));
    *nkeys = i->n;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_get_nthkey)
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    static const char fn[] = "MPI_Info_get_nthkey";
    struct tern_info *i;
    int rc;
    tern_lock();
    TRY(chk_info(info, fn, &i));
    TRY(tern_check_ptr(NULL, key, fn, "key"));
    if (n < 0 || n >= i->n) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: n=%d is not in 0..nkeys-1 (the info has %d "
                           "keys)", fn, n, i->n);
        goto out;
    }
    strcpy(key, i->ent[n].key); /* keys are at most MPI_MAX_INFO_KEY long */
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Info_create_env)
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    static const char fn[] = "MPI_Info_create_env";
    int rc;
    tern_lock();
    TRY(tern_check_ptr(NULL, info, fn, "info"));
    rc = publish(tern_info_env_new(argc, argv), fn, info);
out:
    tern_unlock();
    return rc;
}

/* ---- Communicators and windows ---- */

TERN_WEAK_ALIAS(MPI_Comm_set_info)
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    static const char fn[] = "MPI_Comm_set_info";
    struct tern_comm *c;
    struct tern_info *i;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_info_check(info, 1, fn, "info", c, &i));
    tern_comm_hints_apply(c, i);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_get_info)
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Comm_get_info";
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_check_ptr(c, info_used, fn, "info_used"));
    rc = publish(tern_comm_hints_info(c), fn, info_used);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    (void)info;
    return tern_err_no_window("MPI_Win_set_info", win);
}

TERN_WEAK_ALIAS(MPI_Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    (void)info_used;
    return tern_err_no_window("MPI_Win_get_info", win);
}
