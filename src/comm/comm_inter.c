/* Intercommunicators: construction from two groups, and the constructors
 * that start from one (create, merge, dup, split, create with a group).
 *
 * An intercommunicator holds its local group, the remote group (where
 * point-to-point ranks point), and an intracommunicator over the local
 * group for the local steps of its collectives.  Every construction agrees
 * one context id across both groups: each side reduces its candidates to
 * its leader, the leaders swap theirs, and each side broadcasts the larger
 * (tern_ctx_agree with a peer). */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "comm/dyn.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "msg/procs.h"

int tern_intercomm_build(struct tern_errhandler *errh, struct tern_group *local,
                         struct tern_group *remote, uint32_t ctx, struct tern_comm **out)
{
    struct tern_comm *lc, *ic;
    *out = NULL;
    int rc = tern_comm_build(errh, local, ctx + 2, 0, &lc);
    if (rc) return rc;
    rc = tern_comm_build(errh, local, ctx, 1, &ic);
    if (rc) {
        tern_comm_release(lc);
        return rc;
    }
    ic->is_inter = 1;
    tern_group_retain(remote);
    ic->remote_group = remote;
    ic->peer_size = remote->size;
    ic->peer_world = remote->world;
    ic->local_comm = lc;
    *out = ic;
    return MPI_SUCCESS;
}

int tern_groups_low(const struct tern_group *a, const struct tern_group *b)
{
    /* An empty side never reaches here: intercommunicator groups are not
     * empty.  Indices of other jobs' processes differ between processes:
     * the order both sides agree on is their (job, rank). */
    return tern_proc_before(a->world[0], b->world[0]);
}

int tern_inter_is_low(const struct tern_comm *c)
{
    return tern_groups_low(c->group, c->remote_group);
}

/* A group of the given world ranks (this process need not be one). */
static struct tern_group *group_of(const int *world, int n)
{
    struct tern_group *g = tern_group_new(n);
    if (!g) return NULL;
    if (n) memcpy(g->world, world, (size_t)n * sizeof(int));
    tern_group_set_rank(g);
    return g;
}

/* The leaders ('leader' of local, and x->rank of x->comm) swap int arrays;
 * every member of local gets the other side's (*theirs, malloc'ed, *nt
 * entries).  Only the leader's 'mine' is read. */
static int swap_ints(struct tern_comm *local, int leader, const struct tern_ctx_peer *x,
                     const int *mine, int nmine, int **theirs, int *nt)
{
    struct tern_datatype *it = tern_dt_get(MPI_INT);
    int n = 0, rc = MPI_SUCCESS, lead = local->rank == leader;
    *theirs = NULL;
    if (lead)
        rc = tern_sendrecv(&nmine, 1, it, x->rank, x->tag, &n, 1, it, x->rank, x->tag, x->comm,
                           TERN_CTX_COLL, MPI_STATUS_IGNORE);
    if (!rc) rc = tern_coll_bcast(&n, 1, it, leader, local);
    if (rc) return rc;
    int *buf = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (!buf) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate %d ranks", n);
    if (lead)
        rc = tern_sendrecv(mine, (size_t)nmine, it, x->rank, x->tag, buf, (size_t)n, it, x->rank,
                           x->tag, x->comm, TERN_CTX_COLL, MPI_STATUS_IGNORE);
    if (!rc) rc = tern_coll_bcast(buf, (size_t)n, it, leader, local);
    if (rc) {
        free(buf);
        return rc;
    }
    *theirs = buf;
    *nt = n;
    return MPI_SUCCESS;
}

/* The exchanges of constructors that start from an intercommunicator:
 * local leaders are rank 0 of each side. */
static struct tern_ctx_peer inter_peer(struct tern_comm *c)
{
    struct tern_ctx_peer x = {.comm = c, .rank = 0, .tag = TERN_TAG_CTX};
    return x;
}

/* Context ids for a communicator made from intercommunicator c: agreed by
 * both groups. */
static int inter_ctx(struct tern_comm *c, int nids, uint32_t *ctx)
{
    struct tern_ctx_peer x = inter_peer(c);
    return tern_ctx_agree(c->local_comm, c->size, NULL, c->rank, TERN_TAG_CTX, &x, nids, ctx);
}

int tern_groups_overlap(const struct tern_group *a, const struct tern_group *b, int *who)
{
    for (int i = 0; i < a->size; i++)
        for (int j = 0; j < b->size; j++)
            if (a->world[i] == b->world[j]) {
                *who = a->world[i];
                return 1;
            }
    return 0;
}

/* The leaders' swap of tern_dyn_records, by messages on the peer
 * communicator ('arg': the struct tern_ctx_peer). */
static int swap_records(void *arg, const int32_t mine_hdr[2], const void *mine,
                        int32_t theirs_hdr[2], void **theirs)
{
    const struct tern_ctx_peer *x = arg;
    struct tern_datatype *it = tern_dt_get(MPI_INT), *bt = tern_dt_get(MPI_BYTE);
    *theirs = NULL;
    if (tern_sendrecv(mine_hdr, 2, it, x->rank, x->tag, theirs_hdr, 2, it, x->rank, x->tag, x->comm,
                      TERN_CTX_COLL, MPI_STATUS_IGNORE))
        return -1;
    size_t n = (size_t)theirs_hdr[0] * (size_t)theirs_hdr[1];
    if (theirs_hdr[0] < 1 || theirs_hdr[1] < 1 || !(*theirs = malloc(n))) return -1;
    return tern_sendrecv(mine, (size_t)mine_hdr[0] * (size_t)mine_hdr[1], bt, x->rank, x->tag,
                         *theirs, n, bt, x->rank, x->tag, x->comm, TERN_CTX_COLL, MPI_STATUS_IGNORE)
               ? -1
               : 0;
}

static int has_foreign(const struct tern_group *g)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] >= tern_g.world_size) return 1;
    return 0;
}

/* The remote group of an MPI_Intercomm_create.  Indices of other jobs'
 * processes are this process's own (msg/procs.h): when either group or
 * the leaders span jobs, the groups travel as (job, rank, address)
 * records, which also reach a process this one never met. */
static int create_remote(struct tern_comm *local, int local_leader, struct tern_ctx_peer *x,
                         struct tern_group **remote)
{
    int n = local->size, nt = 0, *theirs = NULL, mine = has_foreign(local->group);
    *remote = NULL;
    if (local->rank == local_leader)
        mine |= tern_comm_world_rank(x->comm, x->rank) >= tern_g.world_size;
    int rc = swap_ints(local, local_leader, x, &mine, 1, &theirs, &nt);
    if (rc) return rc;
    int spans = has_foreign(local->group) || (nt > 0 && theirs[0]);
    free(theirs);
    if (spans) {
        int32_t hdr[2];
        void *recs = NULL;
        rc = tern_dyn_records("MPI_Intercomm_create", local, local_leader, MPI_SUCCESS,
                              MPI_ERR_OTHER, swap_records, x, hdr, &recs);
        if (!rc)
            rc = tern_dyn_remote_group("MPI_Intercomm_create", MPI_ERR_OTHER, recs, hdr, remote);
        free(recs);
        return rc;
    }
    rc = swap_ints(local, local_leader, x, local->group->world, n, &theirs, &nt);
    if (rc) return rc;
    *remote = group_of(theirs, nt);
    free(theirs);
    if (!*remote) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate a group of %d", nt);
    return MPI_SUCCESS;
}

int tern_intercomm_create(struct tern_comm *local, int local_leader, struct tern_comm *peer,
                          int remote_leader, int tag, struct tern_comm **out)
{
    int n = local->size, me = (local->rank - local_leader + n) % n;
    uint32_t ctx;
    *out = NULL;
    int *prank = malloc((size_t)n * sizeof(int));
    if (!prank) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate %d ranks", n);
    /* The tree of the agreement is rooted at the local leader. */
    for (int i = 0; i < n; i++) prank[i] = (local_leader + i) % n;
    struct tern_ctx_peer x = {.comm = peer, .rank = remote_leader, .tag = tag};
    int rc = tern_ctx_agree(local, n, prank, me, TERN_TAG_CTX, &x, TERN_INTER_CTX_IDS, &ctx);
    free(prank);
    struct tern_group *remote = NULL;
    if (!rc) rc = create_remote(local, local_leader, &x, &remote);
    if (rc) return rc;
    int w;
    if (remote->size == 0)
        rc = tern_err_make(MPI_ERR_COMM, "MPI_Intercomm_create: the remote group is empty");
    else if (tern_groups_overlap(local->group, remote, &w))
        rc = tern_err_make(MPI_ERR_COMM,
                           "MPI_Intercomm_create: the local and remote groups overlap (world rank "
                           "%d is in both)",
                           w);
    else
        rc = tern_intercomm_build(local->errh, local->group, remote, ctx, out);
    tern_group_release(remote);
    return rc;
}

int tern_intercomm_dup(struct tern_comm *c, struct tern_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = inter_ctx(c, TERN_INTER_CTX_IDS, &ctx);
    if (rc) return rc;
    return tern_intercomm_build(c->errh, c->group, c->remote_group, ctx, out);
}

int tern_intercomm_merge(struct tern_comm *c, int high, struct tern_comm **out)
{
    struct tern_ctx_peer x = inter_peer(c);
    int *theirs = NULL, nt = 0, mine = high != 0;
    uint32_t ctx;
    *out = NULL;
    int rc = swap_ints(c->local_comm, 0, &x, &mine, 1, &theirs, &nt);
    if (rc) return rc;
    int remote_high = nt > 0 ? theirs[0] : mine;
    free(theirs);
    rc = inter_ctx(c, 2, &ctx);
    if (rc) return rc;
    /* The group that passed high = false comes first; with equal values,
     * the group holding the lower world rank at its rank 0 (as MPICH). */
    int first = mine == remote_high ? tern_inter_is_low(c) : !mine;
    struct tern_group *a = first ? c->group : c->remote_group;
    struct tern_group *b = first ? c->remote_group : c->group;
    struct tern_group *g = tern_group_new(a->size + b->size);
    if (!g) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate a group");
    memcpy(g->world, a->world, (size_t)a->size * sizeof(int));
    memcpy(g->world + a->size, b->world, (size_t)b->size * sizeof(int));
    tern_group_set_rank(g);
    rc = tern_comm_build(c->errh, g, ctx, 1, out);
    tern_group_release(g);
    return rc;
}

/* Both sides' new groups are known (either may be empty): every process
 * takes part in the agreement; members of a non-empty local group facing a
 * non-empty remote one get the intercommunicator. */
static int inter_finish(struct tern_comm *c, struct tern_group *local, struct tern_group *remote,
                        struct tern_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = inter_ctx(c, TERN_INTER_CTX_IDS, &ctx);
    if (rc || !local || local->rank == MPI_UNDEFINED || !remote || remote->size == 0) return rc;
    return tern_intercomm_build(c->errh, local, remote, ctx, out);
}

int tern_intercomm_split(struct tern_comm *c, int color, int key, struct tern_comm **out)
{
    int n = c->size, mine[2] = {color, key}, nt = 0, *theirs = NULL, rc, rc2;
    struct tern_group *lg = NULL, *rg = NULL;
    struct tern_ctx_peer x = inter_peer(c);
    struct tern_datatype *it = tern_dt_get(MPI_INT);
    int *all = malloc((size_t)n * 2 * sizeof(int));
    if (!all) return tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory for %d ranks", n);
    rc = tern_coll_allgather(mine, 2, it, all, 2, it, c->local_comm);
    if (!rc) rc = swap_ints(c->local_comm, 0, &x, all, 2 * n, &theirs, &nt);
    if (!rc && color != MPI_UNDEFINED) {
        lg = tern_split_group(all, n, c->group->world, color);
        rg = tern_split_group(theirs, nt / 2, c->remote_group->world, color);
        if (!lg || !rg) rc = tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory");
    }
    free(all);
    free(theirs);
    /* Every rank takes part in the agreement, even after a local failure,
     * so the others do not hang. */
    rc2 = inter_finish(c, rc ? NULL : lg, rg, out);
    if (lg) tern_group_release(lg);
    if (rg) tern_group_release(rg);
    return rc ? rc : rc2;
}

int tern_intercomm_subset(struct tern_comm *c, struct tern_group *g, struct tern_comm **out)
{
    int nt = 0, *theirs = NULL, *mine = malloc((size_t)(g->size > 0 ? g->size : 1) * sizeof(int));
    struct tern_ctx_peer x = inter_peer(c);
    *out = NULL;
    /* Ranks in the local group, not world indices: those of another job's
     * processes differ between the two sides (msg/procs.h). */
    int rc = mine ? tern_group_ranks_in(g, c->group, mine)
                  : tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_create: out of memory");
    if (!rc) rc = swap_ints(c->local_comm, 0, &x, mine, g->size, &theirs, &nt);
    free(mine);
    if (rc) return rc;
    struct tern_group *rg = tern_group_new(nt);
    for (int i = 0; rg && i < nt; i++) rg->world[i] = c->remote_group->world[theirs[i]];
    if (rg) tern_group_set_rank(rg);
    free(theirs);
    if (!rg) rc = tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_create: out of memory");
    int rc2 = inter_finish(c, rc ? NULL : g, rg, out);
    if (rg) tern_group_release(rg);
    return rc ? rc : rc2;
}
