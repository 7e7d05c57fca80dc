/* Attribute entry points (MPI-4.1 7.7): keyvals and attributes of
 * communicators, datatypes and windows, and the deprecated MPI-1 names.
 * Windows do not exist yet: their keyvals can be made and freed, but every
 * window handle is refused. */
#include "api/check.h"
#include "api/locked.h"
#include "core/api.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"

/* The object an attribute call is about. */
struct target {
    int handle;
    void **list;
    struct tern_comm *errc; /* whose error handler reports (NULL: MPI_COMM_WORLD's) */
};

/* Checks the object handle; the error (if any) is raised already.  *t is
 * set on every path: the compiler cannot tell that an error return is
 * non-zero, and would take the callers' reads of t as uninitialised. */
static int resolve(enum tern_attr_kind kind, int h, const char *fn, struct target *t)
{
    *t = (struct target){.handle = h, .list = NULL, .errc = NULL};
    switch (kind) {
    case TERN_ATTR_COMM: {
        struct tern_comm *c;
        int rc = tern_comm_check(h, fn, "comm", &c);
        if (rc) return rc;
        *t = (struct target){.handle = h, .list = &c->attrs, .errc = c};
        return MPI_SUCCESS;
    }
    case TERN_ATTR_TYPE: {
        struct tern_datatype *dt;
        int rc = tern_dt_check_valid(h, fn, "datatype", &dt);
        if (rc) return tern_err_raise(NULL, rc);
        if (dt->predefined && (rc = tern_attr_note_predefined_type(dt)) != MPI_SUCCESS)
            return tern_err_comm(NULL, rc, "%s: out of memory", fn);
        *t = (struct target){.handle = h, .list = &dt->attrs, .errc = NULL};
        return MPI_SUCCESS;
    }
    case TERN_ATTR_WIN:
        break;
    }
    return tern_err_no_window(fn, h);
}

static int keyval(enum tern_attr_kind kind, struct target *t, int kv, const char *fn,
                  struct tern_keyval **out)
{
    int rc = tern_keyval_lookup(kv, kind, fn, out);
    return rc ? tern_err_raise(t ? t->errc : NULL, rc) : MPI_SUCCESS;
}

static int create_keyval(const char *fn, enum tern_attr_kind kind, tern_attr_copy_fn *copy,
                         tern_attr_delete_fn *del, int *kv, void *extra_state)
{
    int rc;
    if ((rc = tern_check_ptr(NULL, kv, fn, "keyval"))) return rc;
    rc = tern_keyval_create(kind, copy, del, extra_state, kv);
    return rc ? tern_err_comm(NULL, rc, "%s: out of memory for a keyval", fn) : MPI_SUCCESS;
}

static int free_keyval(const char *fn, enum tern_attr_kind kind, int *kv)
{
    struct tern_keyval *k;
    int rc;
    if ((rc = tern_check_ptr(NULL, kv, fn, "keyval")) || (rc = keyval(kind, NULL, *kv, fn, &k)))
        return rc;
    /* Attributes that use it keep it alive (MPI-4.1 7.7.2). */
    tern_keyval_free_handle(k);
    *kv = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static int set_attr(const char *fn, enum tern_attr_kind kind, int h, int kv, void *val)
{
    struct target t;
    struct tern_keyval *k;
    int rc;
    if ((rc = resolve(kind, h, fn, &t)) || (rc = keyval(kind, &t, kv, fn, &k))) return rc;
    rc = tern_attr_set(t.list, t.handle, k, val);
    return rc ? tern_err_raise(t.errc, rc) : MPI_SUCCESS;
}

static int get_attr(const char *fn, enum tern_attr_kind kind, int h, int kv, void *val, int *flag)
{
    struct target t;
    struct tern_keyval *k;
    int rc;
    if ((rc = resolve(kind, h, fn, &t)) ||
        (rc = tern_check_ptr(t.errc, val, fn, "attribute_val")) ||
        (rc = tern_check_ptr(t.errc, flag, fn, "flag")))
        return rc;
    /* The predefined attributes are answered on every communicator (the
     * standard puts them on MPI_COMM_WORLD). */
    if (kind == TERN_ATTR_COMM && tern_keyval_is_predefined_comm(kv)) {
        int *p = tern_attr_predefined_value(kv);
        *flag = p != NULL;
        if (p) *(int **)val = p;
        return MPI_SUCCESS;
    }
    if ((rc = keyval(kind, &t, kv, fn, &k))) return rc;
    void *v;
    *flag = tern_attr_get(t.list, k, &v);
    if (*flag) *(void **)val = v;
    return MPI_SUCCESS;
}

static int delete_attr(const char *fn, enum tern_attr_kind kind, int h, int kv)
{
    struct target t;
    struct tern_keyval *k;
    int rc;
    if ((rc = resolve(kind, h, fn, &t)) || (rc = keyval(kind, &t, kv, fn, &k))) return rc;
    rc = tern_attr_delete(t.list, t.handle, k);
    return rc ? tern_err_raise(t.errc, rc) : MPI_SUCCESS;
}

#define COPY_FN(f) ((tern_attr_copy_fn *)(f))
#define DELETE_FN(f) ((tern_attr_delete_fn *)(f))

/* ---- Communicators ---- */

TERN_WEAK_ALIAS(MPI_Comm_create_keyval)
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    TERN_LOCKED_CALL("MPI_Comm_create_keyval", create_keyval, TERN_ATTR_COMM,
                     COPY_FN(comm_copy_attr_fn), DELETE_FN(comm_delete_attr_fn), comm_keyval,
                     extra_state);
}

TERN_WEAK_ALIAS(MPI_Keyval_create)
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    TERN_LOCKED_CALL("MPI_Keyval_create", create_keyval,
                     TERN_ATTR_COMM, COPY_FN(copy_fn), DELETE_FN(delete_fn), keyval, extra_state);
}

TERN_WEAK_ALIAS(MPI_Comm_free_keyval)
int PMPI_Comm_free_keyval(int *comm_keyval)
{
    TERN_LOCKED_CALL("MPI_Comm_free_keyval", free_keyval, TERN_ATTR_COMM, comm_keyval);
}

TERN_WEAK_ALIAS(MPI_Keyval_free)
int PMPI_Keyval_free(int *keyval)
{
    TERN_LOCKED_CALL("MPI_Keyval_free", free_keyval, TERN_ATTR_COMM, keyval);
}

TERN_WEAK_ALIAS(MPI_Comm_set_attr)
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    TERN_LOCKED_CALL("MPI_Comm_set_attr", set_attr,
                     TERN_ATTR_COMM, comm, comm_keyval, attribute_val);
}

TERN_WEAK_ALIAS(MPI_Attr_put)
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    TERN_LOCKED_CALL("MPI_Attr_put", set_attr, TERN_ATTR_COMM, comm, keyval, attribute_val);
}

TERN_WEAK_ALIAS(MPI_Comm_get_attr)
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    TERN_LOCKED_CALL("MPI_Comm_get_attr", get_attr,
                     TERN_ATTR_COMM, comm, comm_keyval, attribute_val, flag);
}

TERN_WEAK_ALIAS(MPI_Attr_get)
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    TERN_LOCKED_CALL("MPI_Attr_get", get_attr, TERN_ATTR_COMM, comm, keyval, attribute_val, flag);
}

TERN_WEAK_ALIAS(MPI_Comm_delete_attr)
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    TERN_LOCKED_CALL("MPI_Comm_delete_attr", delete_attr, TERN_ATTR_COMM, comm, comm_keyval);
}

TERN_WEAK_ALIAS(MPI_Attr_delete)
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    TERN_LOCKED_CALL("MPI_Attr_delete", delete_attr, TERN_ATTR_COMM, comm, keyval);
}

/* ---- Datatypes ---- */

TERN_WEAK_ALIAS(MPI_Type_create_keyval)
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
    TERN_LOCKED_CALL("MPI_Type_create_keyval", create_keyval, TERN_ATTR_TYPE,
                     COPY_FN(type_copy_attr_fn), DELETE_FN(type_delete_attr_fn), type_keyval,
                     extra_state);
}

TERN_WEAK_ALIAS(MPI_Type_free_keyval)
int PMPI_Type_free_keyval(int *type_keyval)
{
    TERN_LOCKED_CALL("MPI_Type_free_keyval", free_keyval, TERN_ATTR_TYPE, type_keyval);
}

TERN_WEAK_ALIAS(MPI_Type_set_attr)
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    TERN_LOCKED_CALL("MPI_Type_set_attr", set_attr,
                     TERN_ATTR_TYPE, datatype, type_keyval, attribute_val);
}

TERN_WEAK_ALIAS(MPI_Type_get_attr)
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    TERN_LOCKED_CALL("MPI_Type_get_attr", get_attr,
                     TERN_ATTR_TYPE, datatype, type_keyval, attribute_val, flag);
}

TERN_WEAK_ALIAS(MPI_Type_delete_attr)
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    TERN_LOCKED_CALL("MPI_Type_delete_attr", delete_attr, TERN_ATTR_TYPE, datatype, type_keyval);
}

/* ---- Windows ---- */

TERN_WEAK_ALIAS(MPI_Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    TERN_LOCKED_CALL("MPI_Win_create_keyval", create_keyval, TERN_ATTR_WIN,
                     COPY_FN(win_copy_attr_fn), DELETE_FN(win_delete_attr_fn), win_keyval,
                     extra_state);
}

TERN_WEAK_ALIAS(MPI_Win_free_keyval)
int PMPI_Win_free_keyval(int *win_keyval)
{
    TERN_LOCKED_CALL("MPI_Win_free_keyval", free_keyval, TERN_ATTR_WIN, win_keyval);
}

TERN_WEAK_ALIAS(MPI_Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    TERN_LOCKED_CALL("MPI_Win_set_attr", set_attr, TERN_ATTR_WIN, win, win_keyval, attribute_val);
}

TERN_WEAK_ALIAS(MPI_Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    TERN_LOCKED_CALL("MPI_Win_get_attr", get_attr,
                     TERN_ATTR_WIN, win, win_keyval, attribute_val, flag);
}

TERN_WEAK_ALIAS(MPI_Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    TERN_LOCKED_CALL("MPI_Win_delete_attr", delete_attr, TERN_ATTR_WIN, win, win_keyval);
}
