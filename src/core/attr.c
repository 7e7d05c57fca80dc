/* Keyvals and attribute lists (see attr.h). */
#include "core/attr.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/errors.h"
#include "core/handle.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/state.h"

struct attr {
    struct attr *next;
    struct tern_keyval *kv;
    void *val;
};

/* Created keyvals have tier-2 handles, so they never equal the predefined
 * keys (tier 1) nor MPI_KEYVAL_INVALID. */
static struct tern_objtab keyval_table = {.kind = TERN_KIND_KEYVAL};

int tern_keyval_create(enum tern_attr_kind kind, tern_attr_copy_fn *copy, tern_attr_delete_fn *del,
                       void *extra_state, int *handle)
{
    struct tern_keyval *kv = calloc(1, sizeof *kv);
    if (!kv) return MPI_ERR_NO_MEM;
    kv->refcount = 1;
    kv->kind = kind;
    kv->copy = copy;
    kv->del = del;
    kv->extra_state = extra_state;
    kv->handle = tern_objtab_insert(&keyval_table, kv);
    if (!kv->handle) {
        free(kv);
        return MPI_ERR_NO_MEM;
    }
    *handle = kv->handle;
    return MPI_SUCCESS;
}

static const char *kind_name(enum tern_attr_kind k)
{
    return k == TERN_ATTR_COMM ? "communicator" : k == TERN_ATTR_TYPE ? "datatype" : "window";
}

int tern_keyval_is_predefined_comm(int h)
{
    switch (h) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM: return 1;
    }
    return 0;
}

static int is_predefined_win(int h)
{
    return h == MPI_WIN_BASE || h == MPI_WIN_SIZE || h == MPI_WIN_DISP_UNIT ||
           h == MPI_WIN_CREATE_FLAVOR || h == MPI_WIN_MODEL;
}

int tern_keyval_lookup(int h, enum tern_attr_kind kind, const char *fn, struct tern_keyval **out)
{
    if (h == MPI_KEYVAL_INVALID)
        return tern_err_make(MPI_ERR_KEYVAL, "%s: keyval is MPI_KEYVAL_INVALID", fn);
    if (tern_keyval_is_predefined_comm(h) || is_predefined_win(h)) {
        enum tern_attr_kind pk = is_predefined_win(h) ? TERN_ATTR_WIN : TERN_ATTR_COMM;
        if (pk != kind)
            return tern_err_make(MPI_ERR_KEYVAL,
                                 "%s: keyval=0x%x is a predefined %s key, not a %s key", fn,
                                 (unsigned)h, kind_name(pk), kind_name(kind));
        return tern_err_make(MPI_ERR_KEYVAL,
                             "%s: keyval=0x%x is a predefined %s key: it cannot be set, "
                             "deleted or freed",
                             fn, (unsigned)h, kind_name(pk));
    }
    struct tern_keyval *kv = tern_objtab_lookup(&keyval_table, h);
    if (!kv)
        return tern_err_make(MPI_ERR_KEYVAL,
                             "%s: keyval=0x%x is not a valid attribute key (never "
                             "created, or freed)",
                             fn, (unsigned)h);
    if (kv->kind != kind)
        return tern_err_make(MPI_ERR_KEYVAL, "%s: keyval=0x%x is a %s key, not a %s key", fn,
                             (unsigned)h, kind_name(kv->kind), kind_name(kind));
    *out = kv;
    return MPI_SUCCESS;
}

static void keyval_release(struct tern_keyval *kv)
{
    if (--kv->refcount > 0) return;
    if (tern_objtab_lookup(&keyval_table, kv->handle) == kv)
        tern_objtab_remove(&keyval_table, kv->handle);
    free(kv);
}

void tern_keyval_free_handle(struct tern_keyval *kv)
{
    if (kv->freed) return;
    kv->freed = 1;
    keyval_release(kv);
}

/* ---- Predefined communicator attributes ----
 * MPI hands them out as pointers to ints that stay valid. */
static int attr_tag_ub = TERN_TAG_UB;
static int attr_host = MPI_PROC_NULL;
static int attr_io = MPI_ANY_SOURCE; /* every rank can do I/O */
static int attr_wtime_is_global = 0;
static int attr_universe_size, attr_appnum, attr_lastusedcode;

/* TERN_UNIVERSE_SIZE, else the processors of the job's hosts (this one's
 * count for each), and never fewer than the job has. */
static int universe_size(void)
{
    long n = tern_param.universe_size;
    if (n <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        n = (cpus > 0 ? cpus : 1) * (tern_g.nhosts > 0 ? tern_g.nhosts : 1);
    }
    if (n < tern_g.world_size) n = tern_g.world_size;
    return n > INT_MAX ? INT_MAX : (int)n;
}

int *tern_attr_predefined_value(int h)
{
    switch (h) {
    case MPI_TAG_UB: return &attr_tag_ub;
    case MPI_HOST: return &attr_host;
    case MPI_IO: return &attr_io;
    case MPI_WTIME_IS_GLOBAL: return &attr_wtime_is_global;
    case MPI_UNIVERSE_SIZE: attr_universe_size = universe_size(); return &attr_universe_size;
    case MPI_APPNUM: attr_appnum = tern_g.appnum; return tern_g.appnum >= 0 ? &attr_appnum : NULL;
    case MPI_LASTUSEDCODE: attr_lastusedcode = tern_err_lastusedcode(); return &attr_lastusedcode;
    }
    return NULL;
}

/* ---- Lists ---- */

static struct attr *find(void *const *list, const struct tern_keyval *kv)
{
    for (struct attr *a = *list; a; a = a->next)
        if (a->kv == kv) return a;
    return NULL;
}

static int call_delete(const struct attr *a, int obj)
{
    if (!a->kv->del) return MPI_SUCCESS;
    return a->kv->del(obj, a->kv->handle, a->val, a->kv->extra_state);
}

static void unlink_attr(void **list, struct attr *a)
{
    struct attr **p = (struct attr **)list;
    while (*p != a) p = &(*p)->next;
    *p = a->next;
    keyval_release(a->kv);
    free(a);
}

int tern_attr_set(void **list, int obj, struct tern_keyval *kv, void *val)
{
    struct attr *a = find(list, kv);
    if (a) {
        /* The old value's delete callback decides: on failure it stays. */
        int rc = call_delete(a, obj);
        if (rc != MPI_SUCCESS) return rc;
        /* The callback may have changed the list (it can call MPI). */
        if ((a = find(list, kv)) != NULL) {
            a->val = val;
            return MPI_SUCCESS;
        }
    }
    a = malloc(sizeof *a);
    if (!a) return tern_err_make(MPI_ERR_NO_MEM, "out of memory for an attribute");
    a->kv = kv;
    a->val = val;
    a->next = *list;
    kv->refcount++;
    *list = a;
    return MPI_SUCCESS;
}

int tern_attr_get(void *const *list, const struct tern_keyval *kv, void **val)
{
    struct attr *a = find(list, kv);
    if (a) *val = a->val;
    return a != NULL;
}

int tern_attr_delete(void **list, int obj, struct tern_keyval *kv)
{
    struct attr *a = find(list, kv);
    if (!a) return MPI_SUCCESS; /* as MPICH: deleting an absent attribute is no error */
    int rc = call_delete(a, obj);
    /* The callback may have changed the list (it can call MPI): look again. */
    if (rc == MPI_SUCCESS && (a = find(list, kv)) != NULL) unlink_attr(list, a);
    return rc;
}

int tern_attr_delete_all(void **list, int obj)
{
    int first = MPI_SUCCESS;
    /* One at a time from the front, so a callback that looks at the other
     * attributes still sees those not yet deleted. */
    while (*list) {
        struct attr *a = *list;
        *list = a->next;
        int rc = call_delete(a, obj);
        if (rc != MPI_SUCCESS && first == MPI_SUCCESS) first = rc;
        keyval_release(a->kv);
        free(a);
    }
    return first;
}

void tern_attr_drop(void **list)
{
    while (*list) {
        struct attr *a = *list;
        *list = a->next;
        keyval_release(a->kv);
        free(a);
    }
}

int tern_attr_copy(void *const *from, int oldobj, void **to, int newobj)
{
    struct attr **tail = (struct attr **)to;
    for (struct attr *a = *from; a; a = a->next) {
        if (!a->kv->copy) continue;
        void *out = NULL;
        int flag = 0;
        int rc = a->kv->copy(oldobj, a->kv->handle, a->kv->extra_state, a->val, &out, &flag);
        if (rc == MPI_SUCCESS && flag) {
            struct attr *n = malloc(sizeof *n);
            if (!n)
                rc = tern_err_make(MPI_ERR_NO_MEM, "out of memory copying attributes");
            else {
                n->kv = a->kv;
                n->val = out;
                n->next = NULL;
                a->kv->refcount++;
                *tail = n;
                tail = &n->next;
            }
        }
        if (rc != MPI_SUCCESS) {
            tern_attr_delete_all(to, newobj);
            return rc;
        }
    }
    return MPI_SUCCESS;
}

/* ---- Object hooks ---- */

int tern_attr_comm_copy(struct tern_comm *old, struct tern_comm *nc)
{
    return tern_attr_copy(&old->attrs, old->handle, &nc->attrs, nc->handle);
}

int tern_attr_comm_free(struct tern_comm *c) { return tern_attr_delete_all(&c->attrs, c->handle); }

void tern_attr_finalize_callbacks(void)
{
    /* MPI-4.1 11.2.4: MPI_COMM_SELF's attributes go first, while MPI is
     * still fully usable; then MPI_COMM_WORLD's (the predefined datatypes'
     * follow: tern_attr_type_finalize_callbacks).  Errors cannot stop
     * MPI_Finalize. */
    tern_attr_delete_all(&tern_comm_self.attrs, MPI_COMM_SELF);
    tern_attr_delete_all(&tern_comm_world.attrs, MPI_COMM_WORLD);
}

static void keyval_drop(void *obj, void *arg)
{
    (void)arg;
    free(obj);
}

void tern_attr_finalize(void)
{
    /* Every attribute is gone by now: what is left are keyvals the user
     * did not free. */
    tern_objtab_foreach(&keyval_table, keyval_drop, NULL);
    tern_objtab_destroy(&keyval_table);
}
