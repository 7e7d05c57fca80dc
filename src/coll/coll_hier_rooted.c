/* Gather and scatter by host, as schedules (their blocking forms run them:
 * sched_blocking.c).
 *
 * Each host's blocks meet at one rank of it in shared memory (a gather or
 * scatter over its node part): the root on the root's host, the leader on
 * every other.  Between hosts they travel in one message per host, between
 * that leader and the root, where the flat algorithms send one per rank (or
 * per subtree, whose ranks need not share a host).  The root holds the
 * blocks laid out by host (tern_coll_hier_layout) and unpacks or packs them
 * by rank; its messages across hosts share a round with its own host's
 * phase, so both proceed at once. */
#include <limits.h>
#include <mpi.h>

#include "coll/algos.h"
#include "coll/coll_hier.h"
#include "coll/coll_hier_parts.h"
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/sched.h"
#include "core/objects.h"
#include "datatype/datatype.h"

/* One rooted call by host on this rank. */
struct rooted {
    struct tern_comm *c; /* the schedule's communicator (an intercommunicator's local one) */
    struct tern_coll_hier *h;
    int root, is_root;
    int at;       /* the node rank that holds this host's blocks: the root's, else 0 */
    int crosses;  /* a leader of a host without the root: exchanges its host's blocks with it */
    size_t blk;   /* bytes of one block */
    char *blocks; /* this host's blocks at 'at' (within 'all' at the root), else NULL */
    char *all;    /* the root's: every host's blocks */
    int in_user;  /* 'all' is the root's own buffer, whose layout is the same */
    int *counts, *displs; /* the root's: bytes and offset of each host's in 'all' */
};

/* What rooted_plan found: go by host, nothing to do (no data, or the
 * schedule out of memory: see *rc), or the binomial tree (the blocks of all
 * ranks pass what the layout's int offsets hold). */
enum { ROOTED_GO, ROOTED_DONE, ROOTED_FLAT };

/* The plan, with its scratch from the schedule.  At the root a block is
 * (ucount, udt) of 'user', its blocks' buffer (a gather's receive buffer,
 * a scatter's send buffer); elsewhere (ocount, odt), this rank's own: the
 * same bytes on every rank, so every rank decides alike.  Where the root's
 * type is contiguous and every host's ranks follow one another, the blocks
 * move straight from or into 'user'. */
static int rooted_plan(struct rooted *p, struct tern_sched *s, int root, const void *user,
                       size_t ucount, const struct tern_datatype *udt, size_t ocount,
                       const struct tern_datatype *odt, int *rc)
{
    struct tern_comm *c = tern_sched_comm(s);
    int me = c->rank;
    size_t blk = me == root ? ucount * udt->size : ocount * odt->size;
    *rc = MPI_SUCCESS;
    if (blk == 0) return ROOTED_DONE;
    if ((size_t)c->size * blk > INT_MAX) return ROOTED_FLAT;
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int here = h->leader_of[me] == h->leader_of[root];
    *p = (struct rooted){.c = c, .h = h, .root = root, .is_root = me == root, .blk = blk};
    p->at = here ? h->node_rank[root] : 0;
    p->crosses = !here && h->node_rank[me] == 0;
    if (p->is_root) {
        int nh = h->nhosts;
        p->in_user = udt->contig && h->consecutive;
        p->counts = tern_sched_buf(s, 2 * (size_t)nh * sizeof *p->counts);
        p->all =
            p->in_user ? (char *)user + udt->true_lb : tern_sched_buf(s, (size_t)c->size * blk);
        if (!p->counts || !p->all) goto nomem;
        p->displs = p->counts + nh;
        tern_coll_hier_layout(h, blk, p->counts, p->displs);
        p->blocks = p->all + p->displs[h->leader_of[me]];
    } else if (p->crosses) {
        if (!(p->blocks = tern_sched_buf(s, (size_t)h->node->size * blk))) goto nomem;
    }
    return ROOTED_GO;
nomem:
    *rc = tern_sched_round(s);
    return ROOTED_DONE;
}

/* The root's copies between its blocks' buffer (user, count, dt) and
 * 'all', rank by rank: out of 'all' for a gather ('out'), into it for a
 * scatter; rank 'skip' (-1: none) keeps its block where it is. */
static int rooted_copies(struct tern_sched *s, const struct rooted *p, const void *user,
                         size_t count, struct tern_datatype *dt, int out, int skip)
{
    struct tern_datatype *bt = tern_coll_byte();
    int rc = MPI_SUCCESS;
    for (int r = 0; r < p->c->size && rc == MPI_SUCCESS; r++) {
        if (r == skip) continue;
        char *mine = tern_coll_elem(user, dt, (MPI_Aint)((size_t)r * count));
        char *packed = p->all + tern_coll_hier_at(p->h, p->displs, r, p->blk);
        rc = out ? tern_sched_copy(s, packed, p->blk, bt, mine, count, dt)
                 : tern_sched_copy(s, mine, count, dt, packed, p->blk, bt);
    }
    return rc;
}

/* The messages across hosts, in the current round over c: the root's
 * with every other host's leader, or a crossing leader's with the root;
 * toward the root for a gather ('in'), from it for a scatter. */
static void rooted_cross(struct tern_sched *s, const struct rooted *p, int in)
{
    const struct tern_coll_hier *h = p->h;
    struct tern_datatype *bt = tern_coll_byte();
    tern_sched_over(s, p->c);
    if (p->is_root) {
        int mine = h->leader_of[p->root];
        for (int l = 0; l < h->nhosts; l++) {
            if (l == mine) continue;
            if (!in)
                tern_sched_send(s, p->all + p->displs[l], (size_t)p->counts[l], bt,
                                h->lead_rank[l]);
            else
                tern_sched_recv(s, p->all + p->displs[l], (size_t)p->counts[l], bt,
                                h->lead_rank[l]);
        }
    } else if (p->crosses) {
        size_t bytes = (size_t)h->node->size * p->blk;
        if (in)
            tern_sched_send(s, p->blocks, bytes, bt, p->root);
        else
            tern_sched_recv(s, p->blocks, bytes, bt, p->root);
    }
}

int tern_nbc_gather_hier(struct tern_sched *s, const void *sbuf, size_t scount,
                         struct tern_datatype *sdt, void *rbuf, size_t rcount,
                         struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int is_root = c->rank == root, in_place = is_root && sbuf == MPI_IN_PLACE, rc;
    struct rooted p;
    int how = rooted_plan(&p, s, root, rbuf, rcount, rdt, scount, sdt, &rc);
    if (how == ROOTED_FLAT)
        return tern_nbc_gather_binomial(s, sbuf, scount, sdt, rbuf, rcount, rdt, root);
    if (how == ROOTED_DONE) return rc;
    if (in_place && !p.in_user) { /* else the root's block is where the gather puts it */
        sbuf = tern_coll_elem(rbuf, rdt, (MPI_Aint)((size_t)root * rcount));
        scount = rcount;
        sdt = rdt;
    }
    /* The root receives the other hosts' blocks while its host gathers. */
    if (is_root) rooted_cross(s, &p, 1);
    tern_sched_over(s, p.h->node);
    rc = tern_nbc_gather(s, sbuf, scount, sdt, p.blocks, p.blk, tern_coll_byte(), p.at);
    rc = tern_coll_hier_phase(s, rc, c);
    if (p.crosses) rooted_cross(s, &p, 1);
    if (is_root && !p.in_user && rc == MPI_SUCCESS)
        rc = rooted_copies(s, &p, rbuf, rcount, rdt, 1, in_place ? root : -1);
    return tern_coll_hier_phase(s, rc, c);
}

int tern_nbc_scatter_hier(struct tern_sched *s, const void *sbuf, size_t scount,
                          struct tern_datatype *sdt, void *rbuf, size_t rcount,
                          struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int rc;
    struct rooted p;
    int how = rooted_plan(&p, s, root, sbuf, scount, sdt, rcount, rdt, &rc);
    if (how == ROOTED_FLAT)
        return tern_nbc_scatter_binomial(s, sbuf, scount, sdt, rbuf, rcount, rdt, root);
    if (how == ROOTED_DONE) return rc;
    if (p.is_root && !p.in_user)
        rc = tern_coll_hier_phase(s, rooted_copies(s, &p, sbuf, scount, sdt, 0, -1), c);
    /* The root sends the other hosts' blocks while it scatters its own. */
    rooted_cross(s, &p, 0);
    if (p.crosses) rc = tern_coll_hier_phase(s, rc, c);
    tern_sched_over(s, p.h->node);
    if (rc == MPI_SUCCESS)
        rc = tern_nbc_scatter(s, p.blocks, p.blk, tern_coll_byte(), rbuf, rcount, rdt, p.at);
    return tern_coll_hier_phase(s, rc, c);
}
