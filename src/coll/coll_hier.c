/* Hierarchical collectives for communicators that span hosts.
 *
 * A communicator's ranks are cut by host into two parts a rank may belong
 * to: its node part (the ranks of c on its host, in c's order) and, for the
 * first rank of c on each host, the leaders (one per host, hosts in the
 * order of their leaders).  Each part is a view: an intracommunicator
 * without a handle, made at c's first hierarchical collective with no
 * message (every rank knows every rank's host), kept until c is destroyed.
 * Its context ids are c's with a high bit set (HIER_*_CTX), so its
 * messages match nothing of c's nor of any other communicator.  The
 * selection layer picks each part's own algorithm: shared memory on the
 * node part, point to point (UCX) among the leaders; neither part spans
 * hosts with company, so neither is hierarchical again.
 *
 * So a broadcast crosses the network once per host instead of once per
 * rank, a reduction leaves each host as one vector, an allgather moves
 * each host's blocks across the network once, and an alltoall of small
 * blocks sends one message per pair of hosts.  The reductions
 * reorder the operands by host: commutative operations only (select.c). */
#include "coll/coll_hier.h"
#include "coll/coll_hier_parts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/op.h"
#include "coll/sched.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

#define HIER_LEADERS_CTX 0x20000000u
#define HIER_NODE_CTX 0x40000000u

static int host_at(const struct tern_comm *c, int r)
{
    return tern_g.host_of[tern_comm_world_rank(c, r)];
}

int tern_coll_hier_usable(const struct tern_comm *c)
{
    if (c->is_inter || c->size < 3 || !tern_g.host_of || tern_g.nhosts < 2) return 0;
    if (c->ctx + TERN_CTX_COLL >= HIER_LEADERS_CTX) return 0;
    unsigned char *seen = calloc((size_t)tern_g.nhosts, 1);
    if (!seen) return 0; /* a choice, not an answer all share: but then nothing works anyway */
    int hosts = 0, shared = 0;
    for (int r = 0; r < c->size; r++) {
        int w = tern_comm_world_rank(c, r);
        if (w < 0 || w >= tern_g.world_size) { /* another job's process: its host is not known */
            hosts = 0;
            break;
        }
        int h = tern_g.host_of[w];
        if (seen[h])
            shared = 1;
        else
            hosts++;
        seen[h] = 1;
    }
    free(seen);
    return hosts >= 2 && shared;
}

/* The view over the ranks of c given by 'ranks' (n of them, this rank one). */
static struct tern_comm *view(struct tern_comm *c, const int *ranks, int n, uint32_t ctx_bit)
{
    struct tern_group *g = tern_group_new(n);
    if (!g) tern_fatal("out of memory for the host parts of a communicator of %d ranks", c->size);
    for (int i = 0; i < n; i++) g->world[i] = tern_comm_world_rank(c, ranks[i]);
    tern_group_set_rank(g);
    struct tern_comm *v = NULL;
    int rc = tern_comm_build(c->errh, g, c->ctx + ctx_bit, 0, &v);
    tern_group_release(g);
    if (rc != MPI_SUCCESS)
        tern_fatal("cannot make the host parts of a communicator: %s", tern_err_text(rc));
    return v;
}

struct tern_coll_hier *tern_coll_hier_of(struct tern_comm *c)
{
    if (c->coll_hier) return c->coll_hier;
    int n = c->size, nh = tern_g.nhosts, mine = host_at(c, c->rank);
    struct tern_coll_hier *h = calloc(1, sizeof *h);
    int *first = malloc((size_t)nh * sizeof *first), *ranks = calloc((size_t)n, sizeof *ranks);
    if (h) {
        h->leader_of = malloc(4 * (size_t)n * sizeof *h->leader_of);
        h->node_rank = h->leader_of ? h->leader_of + n : NULL;
        h->lead_rank = h->leader_of ? h->leader_of + 2 * n : NULL;
        h->nn_of = h->leader_of ? h->leader_of + 3 * n : NULL;
    }
    if (!h || !first || !ranks || !h->leader_of)
        tern_fatal("out of memory for the host parts of a communicator of %d ranks", n);
    for (int i = 0; i < nh; i++) first[i] = -1;
    int nleaders = 0, nnode = 0;
    h->consecutive = 1;
    for (int r = 0; r < n; r++) {
        int hr = host_at(c, r);
        if (first[hr] < 0) {
            h->lead_rank[nleaders] = r;
            h->nn_of[nleaders] = 0;
            first[hr] = nleaders++;
        } else if (r > 0 && h->leader_of[r - 1] != first[hr]) {
            h->consecutive = 0;
        }
        h->leader_of[r] = first[hr];
        h->node_rank[r] = h->nn_of[first[hr]]++;
        if (hr == mine) ranks[nnode++] = r;
    }
    h->nhosts = nleaders;
    h->node = view(c, ranks, nnode, HIER_NODE_CTX);
    if (h->node_rank[c->rank] == 0) h->leaders = view(c, h->lead_rank, nleaders, HIER_LEADERS_CTX);
    free(first);
    free(ranks);
    c->coll_hier = h;
    return h;
}

void tern_coll_hier_release(struct tern_comm *c)
{
    struct tern_coll_hier *h = c->coll_hier;
    c->coll_hier = NULL;
    if (!h) return;
    tern_comm_release(h->node);
    if (h->leaders) tern_comm_release(h->leaders);
    free(h->leader_of);
    free(h);
}

/* Each host reports to its leader (a one-byte reduce, which only the
 * leader waits for), the leaders meet, and each leader lets its host go (a
 * one-byte broadcast): no rank leaves before every rank of every host has
 * come in, and each host synchronises once each way rather than twice. */
int tern_coll_barrier_hier(struct tern_comm *c)
{
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    unsigned char in = 0, all = 0;
    struct tern_datatype *bt = tern_coll_byte();
    int rc = tern_coll_reduce(&in, &all, 1, bt, tern_op_get(MPI_BAND), 0, h->node);
    if (rc == MPI_SUCCESS && h->leaders) rc = tern_coll_barrier(h->leaders);
    if (rc == MPI_SUCCESS) rc = tern_coll_bcast(&all, 1, bt, 0, h->node);
    return rc;
}

/* The leaders' binomial tree rooted at leader 'root': this leader's
 * parent (-1 at the root) and children, the farthest first. */
static int tree_links(const struct tern_comm *leaders, int root, int *parent, int *children)
{
    int n = leaders->size, r = leaders->rank, vr = (r - root + n) % n, mask = 1, nchild = 0;
    *parent = -1;
    while (mask < n && !(vr & mask)) mask <<= 1;
    if (mask < n) *parent = (r - mask + n) % n;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n) children[nchild++] = (r + mask) % n;
    return nchild;
}

/* Receives of pieces posted ahead of the one awaited, and the most pieces
 * a broadcast is cut into: over two simulated hosts (UCX over TCP, 2 ranks
 * each) 4 pieces of 256 KiB took 0.67-0.87x the time of 1 MiB whole in
 * four sittings, but at 4 MiB 16 pieces of 256 KiB swung between 0.5x and
 * 2x and 4 of 1 MiB took 0.99x in one sitting and 1.37x in the next
 * (docs/comparison/hosts/2026-11-28-bcast.md): beyond, the buffer goes
 * whole. */
#define PIECES_AHEAD 2
#define PIECES_MAX 4

/* A large broadcast in pieces of 'per' bytes of the packed data (a count
 * of elements would cut it differently on ranks that name other types): a
 * leader keeps the receives of the next PIECES_AHEAD pieces posted (so that
 * each rendezvous starts as soon as its sender is ready), passes each piece
 * on to its children and broadcasts it on its host while the next one
 * crosses the network.  On the root's host, when the root does not lead
 * it, the whole buffer has reached the leader already ('host_has_it').  A
 * type that is not one contiguous block travels packed, through scratch. */
static int bcast_pieces(void *buf, size_t count, struct tern_datatype *dt, int root, size_t per,
                        int host_has_it, struct tern_comm *c, struct tern_coll_hier *h)
{
    size_t bytes = count * dt->size, npieces = (bytes + per - 1) / per;
    int has_data = host_has_it || c->rank == root;
    struct tern_datatype *bt = tern_coll_byte();
    struct tern_request **reqs = NULL;
    int parent = -1, children[8 * sizeof(int)], nchild = 0, nreq = 0, rc = MPI_SUCCESS;
    void *mem = NULL;
    char *data = (char *)buf + dt->true_lb;
    if (!dt->contig) {
        if (!(data = tern_coll_tmpbuf(bt, bytes, &mem))) return tern_coll_nomem("MPI_Bcast", bytes);
        if (has_data) tern_dt_pack(dt, buf, count, 0, data, bytes);
    }
    if (h->leaders) {
        nchild = tree_links(h->leaders, h->leader_of[root], &parent, children);
        size_t n = npieces * (size_t)(nchild + 1);
        if (!(reqs = calloc(n, sizeof *reqs))) rc = tern_coll_nomem("MPI_Bcast", n * sizeof *reqs);
    }
    /* reqs: the receives, one per piece (from the parent), then the sends. */
    struct tern_request **recvs = reqs, **sends = reqs ? reqs + npieces : NULL;
    for (size_t k = 0; k < PIECES_AHEAD && k < npieces && parent >= 0 && rc == MPI_SUCCESS; k++)
        rc = tern_irecv(data + k * per, bytes - k * per < per ? bytes - k * per : per, bt, parent,
                        TERN_TAG_BCAST, h->leaders, TERN_COLL_CTX, &recvs[k]);
    for (size_t k = 0; k < npieces && rc == MPI_SUCCESS; k++) {
        char *at = data + k * per;
        size_t n = bytes - k * per < per ? bytes - k * per : per, next = k + PIECES_AHEAD;
        if (parent >= 0) {
            rc = tern_wait(recvs[k], MPI_STATUS_IGNORE);
            recvs[k] = NULL;
            if (rc == MPI_SUCCESS && next < npieces)
                rc = tern_irecv(data + next * per,
                                bytes - next * per < per ? bytes - next * per : per, bt, parent,
                                TERN_TAG_BCAST, h->leaders, TERN_COLL_CTX, &recvs[next]);
        }
        for (int i = 0; i < nchild && rc == MPI_SUCCESS; i++)
            rc = tern_isend(at, n, bt, children[i], TERN_TAG_BCAST, h->leaders, TERN_COLL_CTX,
                            TERN_MODE_STANDARD, &sends[nreq++]);
        if (rc == MPI_SUCCESS && !host_has_it) rc = tern_coll_bcast(at, n, bt, 0, h->node);
    }
    int rc2 = reqs ? tern_waitall((int)(npieces + (size_t)nreq), reqs) : MPI_SUCCESS;
    free(reqs);
    if (rc == MPI_SUCCESS && rc2 == MPI_SUCCESS && mem && !has_data)
        tern_dt_unpack(dt, buf, count, 0, data, bytes);
    tern_coll_tmpfree(mem);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* The root's host first when the root does not lead it (its leader needs
 * the data), then the leaders, then every other host from its leader.  A
 * leader's sends to other leaders stay in flight while it serves its host:
 * one after the other, a 64 KiB broadcast over 2 hosts took 200 us instead
 * of binomial's 150.  From twice TERN_HIER_CHUNK to PIECES_MAX times it,
 * in pieces of that size. */
int tern_coll_bcast_hier(void *buf, size_t count, struct tern_datatype *dt, int root,
                         struct tern_comm *c)
{
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int root_host = h->leader_of[root] == h->leader_of[c->rank];
    int root_inside = root_host && h->node_rank[root] != 0;
    struct tern_request *reqs[TERN_COLL_BINOMIAL_SENDS];
    int nreq = 0, rc = MPI_SUCCESS;
    size_t chunk = (size_t)tern_param.hier_chunk;
    if (root_inside) rc = tern_coll_bcast(buf, count, dt, h->node_rank[root], h->node);
    size_t bytes = count * dt->size;
    if (rc == MPI_SUCCESS && chunk && bytes > 2 * chunk && bytes <= PIECES_MAX * chunk)
        return bcast_pieces(buf, count, dt, root, chunk, root_inside, c, h);
    if (rc == MPI_SUCCESS && h->leaders)
        rc = tern_coll_bcast_binomial_start(buf, count, dt, h->leader_of[root], h->leaders, reqs,
                                            &nreq);
    if (rc == MPI_SUCCESS && !root_inside) rc = tern_coll_bcast(buf, count, dt, 0, h->node);
    int rc2 = tern_waitall(nreq, reqs);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* Each host reduces into its leader ('acc', which the leaders then combine
 * in place at the root's leader). */
static int reduce_to_leader(const void *sbuf, void *acc, size_t count, struct tern_datatype *dt,
                            struct tern_op *op, struct tern_coll_hier *h)
{
    int leads = h->leaders != NULL;
    return tern_coll_reduce(leads && sbuf == acc ? MPI_IN_PLACE : sbuf, acc, count, dt, op, 0,
                            h->node);
}

int tern_coll_reduce_hier(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                          struct tern_op *op, int root, struct tern_comm *c)
{
    if (count == 0) return MPI_SUCCESS;
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int me = c->rank, is_root = me == root;
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf; /* only at the root */
    void *acc = rbuf, *mem = NULL;
    /* A leader that is not the root sums its host in scratch. */
    if (h->leaders && !is_root && !(acc = tern_coll_tmpbuf(dt, count, &mem)))
        return tern_coll_nomem("MPI_Reduce", count * dt->size);
    int rc = reduce_to_leader(sbuf, acc, count, dt, op, h);
    int root_leader = h->leader_of[root];
    if (rc == MPI_SUCCESS && h->leaders) {
        int at_root = h->leaders->rank == root_leader;
        rc = tern_coll_reduce(at_root ? MPI_IN_PLACE : acc, acc, count, dt, op, root_leader,
                              h->leaders);
    }
    /* The root's leader hands the result to a root that does not lead. */
    if (rc == MPI_SUCCESS && h->node_rank[root] != 0 && h->leader_of[me] == root_leader) {
        if (is_root)
            rc = tern_recv(rbuf, count, dt, 0, TERN_TAG_REDUCE, h->node, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
        else if (h->leaders)
            rc = tern_send(acc, count, dt, h->node_rank[root], TERN_TAG_REDUCE, h->node,
                           TERN_COLL_CTX);
    }
    tern_coll_tmpfree(mem);
    return rc;
}

int tern_coll_allreduce_hier(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                             struct tern_op *op, struct tern_comm *c)
{
    if (count == 0) return MPI_SUCCESS;
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf;
    int rc = reduce_to_leader(sbuf, rbuf, count, dt, op, h);
    if (rc == MPI_SUCCESS && h->leaders)
        rc = tern_coll_allreduce(MPI_IN_PLACE, rbuf, count, dt, op, h->leaders);
    if (rc == MPI_SUCCESS) rc = tern_coll_bcast(rbuf, count, dt, 0, h->node);
    return rc;
}

/* Each host's blocks go to its leader (a gather in shared memory, packed),
 * the leaders exchange their hosts' blocks (an allgatherv: each host's
 * data crosses the network once, not once per rank), each leader lays the
 * blocks out in rank order, and each host takes the result from its leader
 * (a broadcast in shared memory). */

/* A leader's buffer: its host's blocks, then every host's (n), packed. */
static size_t ag_bytes(const struct tern_coll_hier *h, int n, size_t blk)
{
    return ((size_t)h->node->size + (size_t)n) * blk;
}

void tern_coll_hier_layout(const struct tern_coll_hier *h, size_t blk, int *counts, int *displs)
{
    for (int l = 0, at = 0; l < h->nhosts; l++) {
        counts[l] = (int)((size_t)h->nn_of[l] * blk);
        displs[l] = at;
        at += counts[l];
    }
}

/* Where both forms of an allgather by host start: AG_GO with blk (bytes of
 * a block) set and MPI_IN_PLACE replaced by this rank's block of rbuf;
 * AG_NONE with nothing to move; AG_FLAT where the leaders' counts would
 * pass an int. */
enum { AG_GO, AG_NONE, AG_FLAT };
static int ag_start(const struct tern_comm *c, const void **sbuf, size_t *scount,
                    struct tern_datatype **sdt, void *rbuf, size_t rcount,
                    struct tern_datatype *rdt, size_t *blk)
{
    *blk = rcount * rdt->size;
    if (*blk == 0) return AG_NONE;
    if (*blk * (size_t)c->size > INT_MAX) return AG_FLAT;
    if (*sbuf == MPI_IN_PLACE) {
        *sbuf = tern_coll_elem(rbuf, rdt, (MPI_Aint)((size_t)c->rank * rcount));
        *scount = rcount;
        *sdt = rdt;
    }
    return AG_GO;
}

int tern_coll_allgather_hier(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                             size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    size_t blk;
    int how = ag_start(c, &sbuf, &scount, &sdt, rbuf, rcount, rdt, &blk);
    if (how == AG_NONE) return MPI_SUCCESS;
    if (how == AG_FLAT) return tern_coll_allgather_ring(sbuf, scount, sdt, rbuf, rcount, rdt, c);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int n = c->size, nl = h->leaders ? h->leaders->size : 0;
    struct tern_datatype *bt = tern_coll_byte();
    char *host = NULL, *all = NULL;
    void *mem = NULL;
    int *counts = NULL;
    if (h->leaders) {
        host = tern_coll_tmpbuf(bt, ag_bytes(h, n, blk), &mem);
        counts = malloc(2 * (size_t)nl * sizeof *counts);
        if (!host || !counts) {
            tern_coll_tmpfree(mem);
            free(counts);
            return tern_coll_nomem("MPI_Allgather", ag_bytes(h, n, blk));
        }
        all = host + (size_t)h->node->size * blk;
        tern_coll_hier_layout(h, blk, counts, counts + nl);
    }
    int rc = tern_coll_gather(sbuf, scount, sdt, host, blk, bt, 0, h->node);
    if (rc == MPI_SUCCESS && h->leaders) {
        int *displs = counts + nl;
        rc = tern_coll_allgatherv(host, (size_t)counts[h->leaders->rank], bt, all, counts, displs,
                                  bt, h->leaders);
        for (int r = 0; r < n && rc == MPI_SUCCESS; r++)
            tern_dt_unpack(rdt, tern_coll_elem(rbuf, rdt, (MPI_Aint)((size_t)r * rcount)), rcount,
                           0, all + tern_coll_hier_at(h, displs, r, blk), blk);
    }
    if (rc == MPI_SUCCESS) rc = tern_coll_bcast(rbuf, (size_t)n * rcount, rdt, 0, h->node);
    tern_coll_tmpfree(mem);
    free(counts);
    return rc;
}

/* Each host's blocks go to its leader (a gather in shared memory), which
 * sorts them by destination host; the leaders exchange one message per
 * pair of hosts (an alltoallv), each sorts what it received by
 * destination and source rank and scatters it over its host: hosts^2
 * messages cross the network instead of n^2.  A leader holds its host's
 * blocks three times over, so auto takes this for small blocks only. */

/* A leader's plan and buffers; the arrays follow it in one allocation. */
struct a2a {
    struct tern_coll_hier *h;
    int n, nn, nl;
    size_t blk, row;
    char *got, *out, *in; /* gathered (then to scatter), to send, received */
    int *rank_at;         /* per host, its ranks in node order, from base[l] */
    const int *nn_of;     /* per host, its ranks (h->nn_of) */
    int *base;            /* per host, where its ranks start in rank_at */
    int *counts, *displs; /* the leaders' alltoallv, the same both ways */
};

static size_t a2a_bytes(int n, int nl, size_t host_bytes)
{
    return sizeof(struct a2a) + ((size_t)n + 3 * (size_t)nl) * sizeof(int) + 3 * host_bytes;
}

/* Lays out the plan in mem (a2a_bytes of it) for a leader. */
static struct a2a *a2a_plan(void *mem, struct tern_coll_hier *h, int n, size_t blk)
{
    struct a2a *a = mem;
    int nn = h->node->size, nl = h->leaders->size;
    *a = (struct a2a){.h = h, .n = n, .nn = nn, .nl = nl, .blk = blk, .row = (size_t)n * blk};
    a->rank_at = (int *)(void *)(a + 1);
    a->nn_of = h->nn_of;
    a->base = a->rank_at + n;
    a->counts = a->base + nl;
    a->displs = a->counts + nl;
    /* The blocks are bytes, moved by memcpy and as MPI_BYTE: after the
     * ints, an int's alignment serves them. */
    a->got = (char *)(a->displs + nl);
    a->out = a->got + (size_t)nn * a->row;
    a->in = a->out + (size_t)nn * a->row;
    for (int l = 0, at = 0, b = 0; l < nl; l++) {
        a->base[l] = b;
        b += a->nn_of[l];
        a->counts[l] = (int)((size_t)nn * (size_t)a->nn_of[l] * blk);
        a->displs[l] = at;
        at += a->counts[l];
    }
    for (int r = 0; r < n; r++) a->rank_at[a->base[h->leader_of[r]] + h->node_rank[r]] = r;
    return a;
}

/* To host l: for each of its ranks, the blocks of this host's ranks in order. */
static int a2a_sort_out(void *arg)
{
    struct a2a *a = arg;
    for (int l = 0; l < a->nl; l++)
        for (int dn = 0; dn < a->nn_of[l]; dn++)
            for (int j = 0; j < a->nn; j++)
                memcpy(a->out + a->displs[l] + ((size_t)dn * (size_t)a->nn + (size_t)j) * a->blk,
                       a->got + (size_t)j * a->row + (size_t)a->rank_at[a->base[l] + dn] * a->blk,
                       a->blk);
    return MPI_SUCCESS;
}

/* From host l, for each rank here, the blocks of l's ranks: laid out by
 * rank here, then source rank, to scatter. */
static int a2a_sort_in(void *arg)
{
    struct a2a *a = arg;
    const struct tern_coll_hier *h = a->h;
    for (int dn = 0; dn < a->nn; dn++)
        for (int s = 0; s < a->n; s++) {
            int l = h->leader_of[s];
            memcpy(a->got + (size_t)dn * a->row + (size_t)s * a->blk,
                   a->in + a->displs[l] +
                       ((size_t)dn * (size_t)a->nn_of[l] + (size_t)h->node_rank[s]) * a->blk,
                   a->blk);
        }
    return MPI_SUCCESS;
}

/* Where both forms start, as ag_start: AG_FLAT where a leader's buffers
 * would pass an int's counts. */
static int a2a_start(const struct tern_comm *c, struct tern_coll_hier *h, const void **sbuf,
                     size_t *scount, struct tern_datatype **sdt, void *rbuf, size_t rcount,
                     struct tern_datatype *rdt, size_t *blk)
{
    *blk = rcount * rdt->size;
    if (*blk == 0) return AG_NONE;
    if ((size_t)h->node->size * (size_t)c->size * *blk > INT_MAX) return AG_FLAT;
    /* In place, every block leaves rbuf (the gather) before any arrives
     * (the scatter). */
    if (*sbuf == MPI_IN_PLACE) {
        *sbuf = rbuf;
        *scount = rcount;
        *sdt = rdt;
    }
    return AG_GO;
}

int tern_coll_alltoall_hier(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                            size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int n = c->size;
    size_t blk;
    int how = a2a_start(c, h, &sbuf, &scount, &sdt, rbuf, rcount, rdt, &blk);
    if (how == AG_NONE) return MPI_SUCCESS;
    if (how == AG_FLAT) return tern_coll_alltoall_pairwise(sbuf, scount, sdt, rbuf, rcount, rdt, c);
    struct tern_datatype *bt = tern_coll_byte();
    struct a2a *a = NULL;
    void *mem = NULL;
    if (h->leaders) {
        size_t bytes = a2a_bytes(n, h->leaders->size, (size_t)h->node->size * (size_t)n * blk);
        void *at = tern_coll_tmpbuf(bt, bytes, &mem);
        if (!at) return tern_coll_nomem("MPI_Alltoall", bytes);
        a = a2a_plan(at, h, n, blk);
    }
    int rc = tern_coll_gather(sbuf, (size_t)n * scount, sdt, a ? a->got : NULL, (size_t)n * blk, bt,
                              0, h->node);
    if (rc == MPI_SUCCESS && a) {
        a2a_sort_out(a);
        rc = tern_coll_alltoallv(a->out, a->counts, a->displs, bt, a->in, a->counts, a->displs, bt,
                                 h->leaders);
        if (rc == MPI_SUCCESS) a2a_sort_in(a);
    }
    if (rc == MPI_SUCCESS)
        rc = tern_coll_scatter(a ? a->got : NULL, (size_t)n * blk, bt, rbuf, (size_t)n * rcount,
                               rdt, 0, h->node);
    tern_coll_tmpfree(mem);
    return rc;
}

/* ---- As schedules: the same phases, each over its part ---- */

int tern_coll_hier_phase(struct tern_sched *s, int rc, struct tern_comm *part)
{
    if (rc == MPI_SUCCESS) rc = tern_sched_round(s);
    tern_sched_over(s, part);
    return rc;
}

int tern_nbc_barrier_hier(struct tern_sched *s)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    struct tern_datatype *bt = tern_coll_byte();
    unsigned char *b = tern_sched_buf(s, 2);
    if (!b) return tern_sched_round(s);
    b[0] = b[1] = 0;
    tern_sched_over(s, h->node);
    int rc = tern_nbc_reduce(s, &b[0], &b[1], 1, bt, tern_op_get(MPI_BAND), 0);
    if (h->leaders) {
        rc = tern_coll_hier_phase(s, rc, h->leaders);
        if (rc == MPI_SUCCESS) rc = tern_nbc_barrier(s);
    }
    rc = tern_coll_hier_phase(s, rc, h->node);
    if (rc == MPI_SUCCESS) rc = tern_nbc_bcast(s, &b[1], 1, bt, 0);
    return tern_coll_hier_phase(s, rc, c);
}

int tern_nbc_bcast_hier(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                        int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int root_inside = h->leader_of[root] == h->leader_of[c->rank] && h->node_rank[root] != 0;
    int rc = MPI_SUCCESS;
    tern_sched_over(s, h->node);
    if (root_inside) rc = tern_nbc_bcast(s, buf, count, dt, h->node_rank[root]);
    if (h->leaders) {
        rc = tern_coll_hier_phase(s, rc, h->leaders);
        if (rc == MPI_SUCCESS) rc = tern_nbc_bcast(s, buf, count, dt, h->leader_of[root]);
    }
    rc = tern_coll_hier_phase(s, rc, h->node);
    if (rc == MPI_SUCCESS && !root_inside) rc = tern_nbc_bcast(s, buf, count, dt, 0);
    return tern_coll_hier_phase(s, rc, c);
}

int tern_nbc_reduce_hier(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                         struct tern_datatype *dt, struct tern_op *op, int root)
{
    if (count == 0) return MPI_SUCCESS;
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int is_root = c->rank == root, root_leader = h->leader_of[root], rc;
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf; /* only at the root */
    void *acc = rbuf;
    if (h->leaders && !is_root && !(acc = tern_sched_tmp(s, dt, count))) return tern_sched_round(s);
    tern_sched_over(s, h->node);
    rc = tern_nbc_reduce(s, h->leaders && sbuf == acc ? MPI_IN_PLACE : sbuf, acc, count, dt, op, 0);
    if (h->leaders) {
        rc = tern_coll_hier_phase(s, rc, h->leaders);
        if (rc == MPI_SUCCESS)
            rc = tern_nbc_reduce(s, h->leaders->rank == root_leader ? MPI_IN_PLACE : acc, acc,
                                 count, dt, op, root_leader);
    }
    rc = tern_coll_hier_phase(s, rc, h->node);
    /* The root's leader hands the result to a root that does not lead. */
    if (rc == MPI_SUCCESS && h->node_rank[root] != 0 && h->leader_of[c->rank] == root_leader) {
        if (is_root)
            tern_sched_recv(s, rbuf, count, dt, 0);
        else if (h->leaders)
            tern_sched_send(s, acc, count, dt, h->node_rank[root]);
    }
    return tern_coll_hier_phase(s, rc, c);
}

int tern_nbc_allreduce_hier(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                            struct tern_datatype *dt, struct tern_op *op)
{
    if (count == 0) return MPI_SUCCESS;
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf;
    tern_sched_over(s, h->node);
    int rc = tern_nbc_reduce(s, h->leaders && sbuf == rbuf ? MPI_IN_PLACE : sbuf, rbuf, count, dt,
                             op, 0);
    if (h->leaders) {
        rc = tern_coll_hier_phase(s, rc, h->leaders);
        if (rc == MPI_SUCCESS) rc = tern_nbc_allreduce(s, MPI_IN_PLACE, rbuf, count, dt, op);
    }
    rc = tern_coll_hier_phase(s, rc, h->node);
    if (rc == MPI_SUCCESS) rc = tern_nbc_bcast(s, rbuf, count, dt, 0);
    return tern_coll_hier_phase(s, rc, c);
}

int tern_nbc_allgather_hier(struct tern_sched *s, const void *sbuf, size_t scount,
                            struct tern_datatype *sdt, void *rbuf, size_t rcount,
                            struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    size_t blk;
    int how = ag_start(c, &sbuf, &scount, &sdt, rbuf, rcount, rdt, &blk);
    if (how == AG_NONE) return MPI_SUCCESS;
    if (how == AG_FLAT) return tern_nbc_allgather_ring(s, sbuf, scount, sdt, rbuf, rcount, rdt);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int n = c->size, nl = h->leaders ? h->leaders->size : 0;
    struct tern_datatype *bt = tern_coll_byte();
    char *host = NULL;
    int *counts = NULL;
    if (h->leaders) {
        host = tern_sched_buf(s, ag_bytes(h, n, blk));
        counts = tern_sched_buf(s, 2 * (size_t)nl * sizeof *counts);
        if (!host || !counts) return tern_sched_round(s);
        tern_coll_hier_layout(h, blk, counts, counts + nl);
    }
    tern_sched_over(s, h->node);
    int rc = tern_nbc_gather(s, sbuf, scount, sdt, host, blk, bt, 0);
    if (h->leaders) {
        char *all = host + (size_t)h->node->size * blk;
        int *displs = counts + nl;
        rc = tern_coll_hier_phase(s, rc, h->leaders);
        if (rc == MPI_SUCCESS)
            rc = tern_nbc_allgatherv(s, host, (size_t)counts[h->leaders->rank], bt, all, counts,
                                     displs, bt);
        rc = tern_coll_hier_phase(s, rc, h->node);
        for (int r = 0; r < n && rc == MPI_SUCCESS; r++)
            rc = tern_sched_copy(s, all + tern_coll_hier_at(h, displs, r, blk), blk, bt,
                                 tern_coll_elem(rbuf, rdt, (MPI_Aint)((size_t)r * rcount)), rcount,
                                 rdt);
    }
    rc = tern_coll_hier_phase(s, rc, h->node);
    if (rc == MPI_SUCCESS) rc = tern_nbc_bcast(s, rbuf, (size_t)n * rcount, rdt, 0);
    return tern_coll_hier_phase(s, rc, c);
}

int tern_nbc_alltoall_hier(struct tern_sched *s, const void *sbuf, size_t scount,
                           struct tern_datatype *sdt, void *rbuf, size_t rcount,
                           struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int n = c->size;
    size_t blk;
    int how = a2a_start(c, h, &sbuf, &scount, &sdt, rbuf, rcount, rdt, &blk);
    if (how == AG_NONE) return MPI_SUCCESS;
    if (how == AG_FLAT) return tern_nbc_alltoall_exchange(s, sbuf, scount, sdt, rbuf, rcount, rdt);
    struct tern_datatype *bt = tern_coll_byte();
    struct a2a *a = NULL;
    if (h->leaders) {
        void *at = tern_sched_buf(
            s, a2a_bytes(n, h->leaders->size, (size_t)h->node->size * (size_t)n * blk));
        if (!at) return tern_sched_round(s);
        a = a2a_plan(at, h, n, blk);
    }
    tern_sched_over(s, h->node);
    int rc = tern_nbc_gather(s, sbuf, (size_t)n * scount, sdt, a ? a->got : NULL, (size_t)n * blk,
                             bt, 0);
    if (a) {
        rc = tern_coll_hier_phase(s, rc, h->leaders);
        if (rc == MPI_SUCCESS) rc = tern_sched_callback(s, a2a_sort_out, a);
        if (rc == MPI_SUCCESS) rc = tern_sched_round(s);
        if (rc == MPI_SUCCESS)
            rc = tern_nbc_alltoallv(s, a->out, a->counts, a->displs, bt, a->in, a->counts,
                                    a->displs, bt);
        rc = tern_coll_hier_phase(s, rc, h->node);
        if (rc == MPI_SUCCESS) rc = tern_sched_callback(s, a2a_sort_in, a);
    }
    rc = tern_coll_hier_phase(s, rc, h->node);
    if (rc == MPI_SUCCESS)
        rc = tern_nbc_scatter(s, a ? a->got : NULL, (size_t)n * blk, bt, rbuf, (size_t)n * rcount,
                              rdt, 0);
    return tern_coll_hier_phase(s, rc, c);
}
