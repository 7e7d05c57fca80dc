/* The bodies of the attribute calls (MPI-4.1 7.7): keyvals and attributes
 * of communicators, datatypes and windows, and the deprecated MPI-1 names.
 * Their entry points, with the init test, the lock and the checks of the
 * object handles, keyvals and result pointers, are generated (src/api/gen/
 * bindings_attr.c; see tools/gen/gen_bindings.py), but for the attributes
 * of windows, written here. */
#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/handle_check.h"
#include "core/api.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "api/win_check.h"
#include "rma/win.h"

int tern_chk_keyval(struct tern_comm *c, const char *fn, int keyval, enum tern_attr_kind kind,
                    struct tern_keyval **out)
{
    int rc = tern_keyval_lookup(keyval, kind, fn, out);
    return rc ? tern_err_raise(c, rc) : MPI_SUCCESS;
}

static int create_keyval(const char *fn, enum tern_attr_kind kind, tern_attr_copy_fn *copy,
                         tern_attr_delete_fn *del, int *kv, void *extra_state)
{
    int rc = tern_keyval_create(kind, copy, del, extra_state, kv);
    return rc ? tern_err_comm(NULL, rc, "%s: out of memory for a keyval", fn) : MPI_SUCCESS;
}

static int free_keyval(int *kv, struct tern_keyval *k)
{
    /* Attributes that use it keep it alive (MPI-4.1 7.7.2); see attr.h for
     * a second free in that time. */
    tern_keyval_free_handle(k);
    *kv = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* The object an attribute call is about: its handle, its attributes and
 * the communicator whose handler reports (NULL: MPI_COMM_WORLD's). */
struct target {
    int handle;
    void **list;
    struct tern_comm *errc;
};

static struct target comm_target(struct tern_comm *c)
{
    return (struct target){.handle = c->handle, .list = &c->attrs, .errc = c};
}

/* A predefined type gets its attribute list on first use. */
static int type_target(const char *fn, struct tern_datatype *dt, struct target *t)
{
    int rc;
    if (dt->predefined && (rc = tern_attr_note_predefined_type(dt)) != MPI_SUCCESS)
        return tern_err_comm(NULL, rc, "%s: out of memory", fn);
    *t = (struct target){.handle = dt->handle, .list = &dt->attrs, .errc = NULL};
    return MPI_SUCCESS;
}

static int set_attr(const char *fn, struct target t, struct tern_keyval *k, void *val)
{
    /* A freed keyval lives on only for the attributes it already has. */
    if (k->freed)
        return tern_err_comm(t.errc, MPI_ERR_KEYVAL,
                             "%s: keyval=0x%x was freed: it takes no new attribute values", fn,
                             (unsigned)k->handle);
    int rc = tern_attr_set(t.list, t.handle, k, val);
    return rc ? tern_err_raise(t.errc, rc) : MPI_SUCCESS;
}

static int get_attr(const char *fn, enum tern_attr_kind kind, struct target t, int kv, void *val,
                    int *flag)
{
    struct tern_keyval *k;
    int rc;
    /* The predefined attributes are answered on every communicator (the
     * standard puts them on MPI_COMM_WORLD). */
    if (kind == TERN_ATTR_COMM && tern_keyval_is_predefined_comm(kv)) {
        int *p = tern_attr_predefined_value(kv);
        *flag = p != NULL;
        if (p) *(int **)val = p;
        return MPI_SUCCESS;
    }
    if ((rc = tern_chk_keyval(t.errc, fn, kv, kind, &k))) return rc;
    void *v;
    *flag = tern_attr_get(t.list, k, &v);
    if (*flag) *(void **)val = v;
    return MPI_SUCCESS;
}

static int delete_attr(struct target t, struct tern_keyval *k)
{
    int rc = tern_attr_delete(t.list, t.handle, k);
    return rc ? tern_err_raise(t.errc, rc) : MPI_SUCCESS;
}

#define COPY_FN(f) ((tern_attr_copy_fn *)(f))
#define DELETE_FN(f) ((tern_attr_delete_fn *)(f))

/* ---- Communicators ---- */

int tern_api_comm_create_keyval(const char *fn, MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                int *comm_keyval, void *extra_state)
{
    return create_keyval(fn, TERN_ATTR_COMM, COPY_FN(comm_copy_attr_fn),
                         DELETE_FN(comm_delete_attr_fn), comm_keyval, extra_state);
}

int tern_api_keyval_create(const char *fn, MPI_Copy_function *copy_fn,
                           MPI_Delete_function *delete_fn, int *keyval, void *extra_state)
{
    return create_keyval(fn, TERN_ATTR_COMM, COPY_FN(copy_fn), DELETE_FN(delete_fn), keyval,
                         extra_state);
}

int tern_api_comm_free_keyval(const char *fn, int *comm_keyval, struct tern_keyval *comm_keyval_o)
{
    (void)fn;
    return free_keyval(comm_keyval, comm_keyval_o);
}

int tern_api_keyval_free(const char *fn, int *keyval, struct tern_keyval *keyval_o)
{
    (void)fn;
    return free_keyval(keyval, keyval_o);
}

int tern_api_comm_set_attr(const char *fn, struct tern_comm *comm_o,
                           struct tern_keyval *comm_keyval_o, void *attribute_val)
{
    return set_attr(fn, comm_target(comm_o), comm_keyval_o, attribute_val);
}

int tern_api_attr_put(const char *fn, struct tern_comm *comm_o, struct tern_keyval *keyval_o,
                      void *attribute_val)
{
    return set_attr(fn, comm_target(comm_o), keyval_o, attribute_val);
}

int tern_api_comm_get_attr(const char *fn, struct tern_comm *comm_o, int comm_keyval,
                           void *attribute_val, int *flag)
{
    return get_attr(fn, TERN_ATTR_COMM, comm_target(comm_o), comm_keyval, attribute_val, flag);
}

int tern_api_attr_get(const char *fn, struct tern_comm *comm_o, int keyval, void *attribute_val,
                      int *flag)
{
    return get_attr(fn, TERN_ATTR_COMM, comm_target(comm_o), keyval, attribute_val, flag);
}

int tern_api_comm_delete_attr(const char *fn, struct tern_comm *comm_o,
                              struct tern_keyval *comm_keyval_o)
{
    (void)fn;
    return delete_attr(comm_target(comm_o), comm_keyval_o);
}

int tern_api_attr_delete(const char *fn, struct tern_comm *comm_o, struct tern_keyval *keyval_o)
{
    (void)fn;
    return delete_attr(comm_target(comm_o), keyval_o);
}

/* ---- Datatypes ---- */

int tern_api_type_create_keyval(const char *fn, MPI_Type_copy_attr_function *type_copy_attr_fn,
                                MPI_Type_delete_attr_function *type_delete_attr_fn,
                                int *type_keyval, void *extra_state)
{
    return create_keyval(fn, TERN_ATTR_TYPE, COPY_FN(type_copy_attr_fn),
                         DELETE_FN(type_delete_attr_fn), type_keyval, extra_state);
}

int tern_api_type_free_keyval(const char *fn, int *type_keyval, struct tern_keyval *type_keyval_o)
{
    (void)fn;
    return free_keyval(type_keyval, type_keyval_o);
}

int tern_api_type_set_attr(const char *fn, struct tern_datatype *datatype_o,
                           struct tern_keyval *type_keyval_o, void *attribute_val)
{
    struct target t = {0};
    int rc = type_target(fn, datatype_o, &t);
    return rc ? rc : set_attr(fn, t, type_keyval_o, attribute_val);
}

int tern_api_type_get_attr(const char *fn, struct tern_datatype *datatype_o, int type_keyval,
                           void *attribute_val, int *flag)
{
    struct target t = {0};
    int rc = type_target(fn, datatype_o, &t);
    return rc ? rc : get_attr(fn, TERN_ATTR_TYPE, t, type_keyval, attribute_val, flag);
}

int tern_api_type_delete_attr(const char *fn, struct tern_datatype *datatype_o,
                              struct tern_keyval *type_keyval_o)
{
    struct target t = {0};
    int rc = type_target(fn, datatype_o, &t);
    return rc ? rc : delete_attr(t, type_keyval_o);
}

/* ---- Windows ---- */

int tern_api_win_create_keyval(const char *fn, MPI_Win_copy_attr_function *win_copy_attr_fn,
                               MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                               void *extra_state)
{
    return create_keyval(fn, TERN_ATTR_WIN, COPY_FN(win_copy_attr_fn),
                         DELETE_FN(win_delete_attr_fn), win_keyval, extra_state);
}

int tern_api_win_free_keyval(const char *fn, int *win_keyval, struct tern_keyval *win_keyval_o)
{
    (void)fn;
    return free_keyval(win_keyval, win_keyval_o);
}

/* The predefined attributes of a window (MPI-4.1 12.2.6): pointers to
 * values the window keeps. */
static int win_predefined(struct tern_win *w, int kv, void *val, int *flag)
{
    static const int model = MPI_WIN_UNIFIED;
    *flag = 1;
    switch (kv) {
    case MPI_WIN_BASE: *(void **)val = w->base; break;
    case MPI_WIN_SIZE: *(MPI_Aint **)val = &w->peer[w->rank].size; break;
    case MPI_WIN_DISP_UNIT: *(int **)val = &w->peer[w->rank].disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: *(int **)val = &w->flavor; break;
    case MPI_WIN_MODEL: *(const int **)val = &model; break;
    default: *flag = 0; return 0;
    }
    return 1;
}

static int win_entry(const char *fn, MPI_Win win, struct tern_win **w, struct target *t)
{
    int rc = tern_check_win(win, fn, w);
    if (!rc) *t = (struct target){.handle = (*w)->handle, .list = &(*w)->attrs, .errc = NULL};
    return rc;
}

/* A keyval error on a window goes to the window's handler. */
static int win_keyval_of(struct tern_win *w, const char *fn, int kv, struct tern_keyval **k)
{
    int rc = tern_keyval_lookup(kv, TERN_ATTR_WIN, fn, k);
    return rc ? tern_win_raise(w, rc) : MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    static const char fn[] = "MPI_Win_set_attr";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    struct target t;
    struct tern_keyval *k;
    int rc = win_entry(fn, win, &w, &t);
    if (!rc) rc = win_keyval_of(w, fn, win_keyval, &k);
    if (!rc && k->freed)
        rc = tern_win_err(w, MPI_ERR_KEYVAL, "%s: keyval=0x%x was freed", fn, (unsigned)win_keyval);
    if (!rc && (rc = tern_attr_set(t.list, t.handle, k, attribute_val))) rc = tern_win_raise(w, rc);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    static const char fn[] = "MPI_Win_get_attr";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    struct target t;
    struct tern_keyval *k;
    int rc = win_entry(fn, win, &w, &t);
    if (!rc && (!attribute_val || !flag))
        rc = tern_win_err(w, MPI_ERR_ARG, "%s: %s is NULL", fn,
                          !attribute_val ? "attribute_val" : "flag");
    if (!rc && !win_predefined(w, win_keyval, attribute_val, flag) &&
        !(rc = win_keyval_of(w, fn, win_keyval, &k))) {
        void *v;
        *flag = tern_attr_get(t.list, k, &v);
        if (*flag) *(void **)attribute_val = v;
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    static const char fn[] = "MPI_Win_delete_attr";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    struct target t;
    struct tern_keyval *k;
    int rc = win_entry(fn, win, &w, &t);
    if (!rc) rc = win_keyval_of(w, fn, win_keyval, &k);
    if (!rc && (rc = tern_attr_delete(t.list, t.handle, k))) rc = tern_win_raise(w, rc);
    tern_unlock();
    return rc;
}
