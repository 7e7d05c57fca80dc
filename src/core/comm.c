/* Communicators: the two predefined ones, construction with context-id
 * agreement, reference counting, labels for messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/select.h"
#include "core/attr.h"
#include "core/comm_internal.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/session.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/bsend.h"
#include "p2p/p2p.h"
#include "topo/topo.h"

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

static void comm_destroy(struct tern_comm *c)
{
    tern_intercomm_parts_release(c);
    tern_attr_drop(&c->attrs); /* [attr] only a communicator never freed has any left */
    tern_topo_free(c->topo);
    tern_group_release(c->group);
    tern_errh_release(c->errh);
    tern_bbuf_drop(&c->bsend); /* a communicator never freed: nothing is buffered by now */
    tern_session_release(c->session);
    tern_coll_sel_free(c);
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
    /* The buffer is the user's memory: it must be free when MPI_Comm_free
     * returns, so the messages in it leave first. */
    tern_bbuf_drop(&c->bsend);
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
        tern_coll_sel_free(pre[i]);
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

/* One round of a blocking agreement: v[0] becomes the largest offer of
 * all participants (and the peer's side), v[1] the smallest. */
static int agree_round(struct tern_comm *parent, int n, const int *prank, int me, int tag,
                       const struct tern_ctx_peer *peer, uint32_t v[2])
{
    struct tern_datatype *bt = tern_dt_get(MPI_BYTE);
    uint32_t in[2];
    int mask, rc;
#define PR(i) (prank ? prank[(i)] : (i))
#define MERGE()                                                                                    \
    do {                                                                                           \
        if (in[0] > v[0]) v[0] = in[0];                                                            \
        if (in[1] < v[1]) v[1] = in[1];                                                            \
    } while (0)
    for (mask = 1; mask < n; mask <<= 1) {
        if (me & mask) {
            rc = tern_send(v, 2 * sizeof *v, bt, PR(me - mask), tag, parent, TERN_CTX_COLL);
            if (rc) return rc;
            rc = tern_recv(v, 2 * sizeof *v, bt, PR(me - mask), tag, parent, TERN_CTX_COLL,
                           MPI_STATUS_IGNORE);
            if (rc) return rc;
            break;
        }
        if (me + mask < n) {
            rc = tern_recv(in, sizeof in, bt, PR(me + mask), tag, parent, TERN_CTX_COLL,
                           MPI_STATUS_IGNORE);
            if (rc) return rc;
            MERGE();
        }
    }
    if (me == 0 && peer) {
        rc = tern_sendrecv(v, 2 * sizeof *v, bt, peer->rank, peer->tag, in, sizeof in, bt,
                           peer->rank, peer->tag, peer->comm, TERN_CTX_COLL, MPI_STATUS_IGNORE);
        if (rc) return rc;
        MERGE();
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (me + mask < n) {
            rc = tern_send(v, 2 * sizeof *v, bt, PR(me + mask), tag, parent, TERN_CTX_COLL);
            if (rc) return rc;
        }
    }
#undef MERGE
#undef PR
    return MPI_SUCCESS;
}

int tern_ctx_agree(struct tern_comm *parent, int n, const int *prank, int me, int tag,
                   const struct tern_ctx_peer *peer, int nids, uint32_t *out)
{
    /* Rounds of offers until all are equal: each offer is the lowest range
     * free here at or above the largest of the last round, so a round in
     * which some offer was lower is followed by one that agrees unless
     * another agreement took that range meanwhile.  A blocking agreement
     * has the highest priority (owner 0): it never waits for another. */
    uint32_t mine, v[2];
    int rc = tern_ctx_hold(0, (uint32_t)nids, 0, &mine);
    if (rc) return rc;
    for (;;) {
        v[0] = v[1] = mine;
        if ((rc = agree_round(parent, n, prank, me, tag, peer, v))) {
            tern_ctx_drop(mine);
            return rc;
        }
        if (v[0] == v[1]) {
            tern_ctx_keep(mine);
            *out = mine;
            return MPI_SUCCESS;
        }
        tern_ctx_drop(mine);
        if ((rc = tern_ctx_hold(v[0], (uint32_t)nids, 0, &mine))) return rc;
    }
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

int tern_comm_create_from(struct tern_comm *parent, struct tern_group *group,
                          struct tern_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = tern_ctx_agree(parent, parent->size, NULL, parent->rank, TERN_TAG_CTX, NULL, 2, &ctx);
    if (rc) return rc;
    if (!group) return MPI_SUCCESS;
    /* new communicators inherit the parent's handler */
    rc = tern_comm_build(parent->errh, group, ctx, 1, out);
    if (rc == MPI_SUCCESS) tern_comm_inherit_session(*out, parent);
    return rc;
}

int tern_comm_create_group(struct tern_comm *parent, struct tern_group *group, int tag,
                           struct tern_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    if (group->rank == MPI_UNDEFINED) return MPI_SUCCESS;
    int *prank = malloc((size_t)group->size * sizeof(int));
    if (!prank) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate %d ranks", group->size);
    int rc = tern_group_ranks_in(group, parent->group, prank);
    if (rc == MPI_SUCCESS)
        rc = tern_ctx_agree(parent, group->size, prank, group->rank, tag, NULL, 2, &ctx);
    free(prank);
    if (rc) return rc;
    rc = tern_comm_build(parent->errh, group, ctx, 1, out);
    if (rc == MPI_SUCCESS) tern_comm_inherit_session(*out, parent);
    return rc;
}

int tern_group_ranks_in(const struct tern_group *g, const struct tern_group *in, int *ranks)
{
    int *map = malloc((size_t)(tern_g.world_size > 0 ? tern_g.world_size : 1) * sizeof(int));
    if (!map) return MPI_ERR_NO_MEM;
    for (int i = 0; i < tern_g.world_size; i++) map[i] = MPI_UNDEFINED;
    for (int i = 0; i < in->size; i++) map[in->world[i]] = i;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < g->size; i++) {
        int w = g->world[i];
        ranks[i] = (w >= 0 && w < tern_g.world_size) ? map[w] : MPI_UNDEFINED;
        if (ranks[i] == MPI_UNDEFINED) rc = MPI_ERR_GROUP;
    }
    free(map);
    return rc;
}
