/* Communicators: the two predefined ones, the object built from a group
 * and a context id, reference counting, labels for messages.  Agreeing on
 * a context id takes messages: that is src/comm/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/comm_ctx.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/session.h"
#include "core/state.h"

struct tern_comm tern_comm_world, tern_comm_self;
struct tern_objtab tern_comm_table = {.kind = TERN_KIND_COMM};

static int predefined_comm(const struct tern_comm *c)
{
    return c == &tern_comm_world || c == &tern_comm_self;
}

static int init_predefined(struct tern_comm *c, MPI_Comm h, uint32_t ctx, int size,
                           int first_world_rank, const char *name)
{
    struct tern_group *g = tern_group_new(size);
    if (!g) return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) g->world[i] = first_world_rank + i;
    tern_group_set_rank(g);
    memset(c, 0, sizeof *c);
    c->handle = h;
    c->refcount = 1;
    c->ctx = ctx;
    c->rank = g->rank;
    c->size = size;
    c->group = g;
    c->peer_size = size;
    c->peer_world = g->world;
    c->errh = &tern_errh_fatal;
    c->is_inter = 0;
    snprintf(c->name, sizeof c->name, "%s", name);
    return MPI_SUCCESS;
}

int tern_comms_init(void)
{
    int rc = init_predefined(&tern_comm_world, MPI_COMM_WORLD, 0, tern_g.world_size, 0,
                             "MPI_COMM_WORLD");
    if (rc) return rc;
    rc = init_predefined(&tern_comm_self, MPI_COMM_SELF, 2, 1, tern_g.world_rank, "MPI_COMM_SELF");
    if (rc) return rc;
    tern_ctx_reset();
    return MPI_SUCCESS;
}

/* The parts of a communicator that layers above core own; a handful. */
#define MAX_PART_HOOKS 8
static tern_comm_hook_fn freed_hooks[MAX_PART_HOOKS], destroyed_hooks[MAX_PART_HOOKS];
static int nfreed_hooks, ndestroyed_hooks;

static void add_hook(tern_comm_hook_fn *list, int *n, tern_comm_hook_fn fn)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == fn) return;
    if (*n == MAX_PART_HOOKS)
        tern_fatal("internal error: more than %d communicator hooks", MAX_PART_HOOKS);
    list[(*n)++] = fn;
}

void tern_comm_on_free(tern_comm_hook_fn fn) { add_hook(freed_hooks, &nfreed_hooks, fn); }
void tern_comm_on_destroy(tern_comm_hook_fn fn)
{
    add_hook(destroyed_hooks, &ndestroyed_hooks, fn);
}

static void run_hooks(const tern_comm_hook_fn *list, int n, struct tern_comm *c)
{
    for (int i = 0; i < n; i++) list[i](c);
}

/* An intercommunicator's remote group and local intracommunicator. */
static void intercomm_parts_release(struct tern_comm *c)
{
    if (c->local_comm) tern_comm_release(c->local_comm);
    if (c->remote_group) tern_group_release(c->remote_group);
    c->local_comm = NULL;
    c->remote_group = NULL;
}

static void comm_destroy(struct tern_comm *c)
{
    intercomm_parts_release(c);
    tern_attr_drop(&c->attrs); /* [attr] only a communicator never freed has any left */
    run_hooks(destroyed_hooks, ndestroyed_hooks, c);
    tern_group_release(c->group);
    tern_errh_release(c->errh);
    tern_session_release(c->session);
    c->group = NULL;
    c->errh = NULL;
    free(c);
}

void tern_comm_release(struct tern_comm *c)
{
    if (!c || --c->refcount > 0) return;
    if (predefined_comm(c)) return; /* torn down by tern_comms_finalize */
    if (tern_objtab_lookup(&tern_comm_table, c->handle) == c)
        tern_objtab_remove(&tern_comm_table, c->handle);
    comm_destroy(c);
}

void tern_comm_free_handle(struct tern_comm *c)
{
    run_hooks(freed_hooks, nfreed_hooks, c);
    if (tern_objtab_lookup(&tern_comm_table, c->handle) == c)
        tern_objtab_remove(&tern_comm_table, c->handle);
    tern_comm_release(c);
}

static void comm_drop(void *obj, void *arg)
{
    (void)arg;
    comm_destroy(obj);
}

void tern_comms_finalize(void)
{
    /* Communicators the user did not free (MPI does not require it), then
     * the groups and error handlers left over.  The predefined
     * communicators keep their groups (late error messages may still name
     * ranks) and fall back to the fatal handler. */
    tern_objtab_foreach(&tern_comm_table, comm_drop, NULL);
    tern_objtab_destroy(&tern_comm_table);
    struct tern_comm *pre[2] = {&tern_comm_world, &tern_comm_self};
    for (int i = 0; i < 2; i++) {
        run_hooks(destroyed_hooks, ndestroyed_hooks, pre[i]);
        tern_errh_release(pre[i]->errh);
        pre[i]->errh = &tern_errh_fatal;
    }
    tern_group_finalize();
    tern_errh_finalize();
}

const char *tern_comm_label(const struct tern_comm *c, char *buf, int len)
{
    if (!c) return "MPI_COMM_NULL";
    if (c->name[0]) return c->name;
    snprintf(buf, (size_t)len, "communicator 0x%x", (unsigned)c->handle);
    return buf;
}

int tern_comm_check(MPI_Comm h, const char *fn, const char *argname, struct tern_comm **out)
{
    struct tern_comm *c;
    if (h == MPI_COMM_NULL)
        return tern_err_comm(NULL, MPI_ERR_COMM, "%s: %s is MPI_COMM_NULL", fn, argname);
    c = tern_comm_get(h);
    if (!c)
        return tern_err_comm(NULL, MPI_ERR_COMM, "%s: %s=0x%x is not a valid communicator%s", fn,
                             argname, (unsigned)h, tern_comm_absent_note(h));
    *out = c;
    return MPI_SUCCESS;
}

int tern_comm_build(struct tern_errhandler *errh, struct tern_group *group, uint32_t ctx,
                    int with_handle, struct tern_comm **out)
{
    struct tern_comm *c = calloc(1, sizeof *c);
    if (!c) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate a communicator");
    if (with_handle) {
        c->handle = tern_objtab_insert(&tern_comm_table, c);
        if (!c->handle) {
            free(c);
            return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate a communicator handle");
        }
    }
    c->refcount = 1;
    c->ctx = ctx;
    c->rank = group->rank;
    c->size = group->size;
    group->refcount++;
    c->group = group;
    c->peer_size = group->size;
    c->peer_world = group->world;
    c->errh = errh;
    c->errh->refcount++;
    c->is_inter = 0;
    c->name[0] = 0;
    c->session = group->session;
    tern_session_retain(c->session);
    *out = c;
    return MPI_SUCCESS;
}

/* A communicator made from another derives from the same session (its new
 * group, from a split say, knows none). */
void tern_comm_inherit_session(struct tern_comm *c, const struct tern_comm *parent)
{
    if (c->session || !parent->session) return;
    c->session = parent->session;
    tern_session_retain(c->session);
}

int tern_group_ranks_in(const struct tern_group *g, const struct tern_group *in, int *ranks)
{
    int n = tern_g.nprocs > 0 ? tern_g.nprocs : 1;
    int *map = malloc((size_t)n * sizeof(int));
    if (!map) return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) map[i] = MPI_UNDEFINED;
    for (int i = 0; i < in->size; i++) map[in->world[i]] = i;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < g->size; i++) {
        int w = g->world[i];
        ranks[i] = (w >= 0 && w < n) ? map[w] : MPI_UNDEFINED;
        if (ranks[i] == MPI_UNDEFINED) rc = MPI_ERR_GROUP;
    }
    free(map);
    return rc;
}
