/* Shared by the neighbourhood collective tests (blocking, nonblocking,
 * persistent): what a test knows of a topology, the values every block
 * carries, the buffer layouts of the v and w forms, and the topologies
 * every form runs on.  Every received value names its sender, the sender's
 * block and a salt (changed between persistent starts); blocks from
 * MPI_PROC_NULL stay UNTOUCHED. */
#ifndef NBR_UTIL_H
#define NBR_UTIL_H

#include <stdlib.h>

#include "topo_util.h"

#define MAXDEG 64
#define UNTOUCHED (-1)
/* Room for the v and w layouts below. */
#define SBUF_LEN (5 * MAXDEG)
#define RBUF_LEN (6 * MAXDEG)

static int rank, size;

/* My lists, everyone's out-lists, and whether blocks pair up by direction
 * (Cartesian) or by order (graphs). */
struct topo {
    MPI_Comm comm;
    int cart;
    int indeg, outdeg, in[MAXDEG], out[MAXDEG];
    int *all_out; /* size x (MAXDEG + 1): degree, then the list */
    const char *name;
};

static inline int val(int salt, int s, int j, int e)
{
    return salt * 1000000 + s * 10000 + j * 100 + e;
}

/* The sender's block index for my in-slot i. */
static inline int sender_block(const struct topo *t, int i)
{
    if (t->cart) return i ^ 1; /* my -1 neighbour sent me its +1 block, and back */
    int s = t->in[i], k = 0;
    for (int a = 0; a < i; a++) k += t->in[a] == s;
    const int *o = t->all_out + s * (MAXDEG + 1);
    for (int j = 0; j < o[0]; j++)
        if (o[1 + j] == rank && k-- == 0) return j;
    CHECK(0, "%s: %d is not an out-neighbour of %d", t->name, rank, s);
    return -1;
}

/* Fills t from the communicator's topology (collective over t->comm). */
static inline void learn(struct topo *t)
{
    int st;
    CHECK_MPI(MPI_Topo_test(t->comm, &st));
    t->cart = st == MPI_CART;
    if (st == MPI_CART) {
        int nd;
        CHECK_MPI(MPI_Cartdim_get(t->comm, &nd));
        for (int d = 0; d < nd; d++)
            CHECK_MPI(MPI_Cart_shift(t->comm, d, 1, &t->in[2 * d], &t->in[2 * d + 1]));
        t->indeg = t->outdeg = 2 * nd;
        for (int i = 0; i < 2 * nd; i++) t->out[i] = t->in[i];
    } else if (st == MPI_GRAPH) {
        CHECK_MPI(MPI_Graph_neighbors_count(t->comm, rank, &t->indeg));
        CHECK_MPI(MPI_Graph_neighbors(t->comm, rank, MAXDEG, t->in));
        t->outdeg = t->indeg;
        for (int i = 0; i < t->indeg; i++) t->out[i] = t->in[i];
    } else {
        int w;
        CHECK_MPI(MPI_Dist_graph_neighbors_count(t->comm, &t->indeg, &t->outdeg, &w));
        CHECK_MPI(MPI_Dist_graph_neighbors(t->comm, MAXDEG, t->in, MPI_UNWEIGHTED, MAXDEG, t->out,
                                           MPI_UNWEIGHTED));
    }
    CHECK(t->indeg <= MAXDEG && t->outdeg <= MAXDEG, "degrees too large for the test");
    int mine[MAXDEG + 1];
    mine[0] = t->outdeg;
    for (int i = 0; i < t->outdeg; i++) mine[1 + i] = t->out[i];
    t->all_out = malloc(sizeof(int) * (size_t)size * (MAXDEG + 1));
    CHECK_MPI(MPI_Allgather(mine, MAXDEG + 1, MPI_INT, t->all_out, MAXDEG + 1, MPI_INT, t->comm));
}

/* Allgatherv: process s sends 1 to 3 ints. */
static inline int gcount(int s) { return s % 3 + 1; }

/* Block j of process s in the v and w forms: 0, 2 or 4 ints. */
static inline int vcount(int s, int j) { return 2 * ((s + 2 * j) % 3); }

/* The receive side of the allgatherv form ('v' = 0: block size gcount of
 * the sender) or of the alltoallv/w forms ('v' = 1: vcount): counts,
 * displacements (blocks in reverse order with gaps, a PROC_NULL slot 2
 * long), the expected buffer.  Returns the buffer length (<= RBUF_LEN). */
static inline int recv_layout(const struct topo *t, int v, int salt, int *counts, int *displs,
                              int *expect)
{
    int pos = 1;
    for (int i = t->indeg - 1; i >= 0; i--) {
        int s = t->in[i];
        counts[i] = s == MPI_PROC_NULL ? 2 : v ? vcount(s, sender_block(t, i)) : gcount(s);
        displs[i] = pos;
        pos += counts[i] + 1;
    }
    for (int i = 0; i < pos; i++) expect[i] = UNTOUCHED;
    for (int i = 0; i < t->indeg; i++)
        if (t->in[i] != MPI_PROC_NULL)
            for (int e = 0; e < counts[i]; e++)
                expect[displs[i] + e] = val(salt, t->in[i], v ? sender_block(t, i) : 0, e);
    return pos;
}

/* The send side of the alltoallv/w forms: blocks in order from the end of
 * the buffer (SBUF_LEN ints) backwards. */
static inline void send_layout(const struct topo *t, int salt, int *sbuf, int *counts, int *displs)
{
    int pos = SBUF_LEN;
    for (int j = 0; j < t->outdeg; j++) {
        counts[j] = vcount(rank, j);
        pos -= counts[j];
        displs[j] = pos;
        for (int e = 0; e < counts[j]; e++) sbuf[pos + e] = val(salt, rank, j, e);
    }
}

/* ---- One call of a neighbourhood collective, in any of its forms ---- */

enum nbr_kind {
    NBR_ALLGATHER,
    NBR_ALLGATHERV,
    NBR_ALLTOALL,
    NBR_ALLTOALLV,
    NBR_ALLTOALLW,
    NBR_KINDS
};
enum nbr_form { NBR_BLOCKING, NBR_NONBLOCKING, NBR_PERSISTENT };

static const char *const nbr_kind_name[NBR_KINDS] = {"allgather", "allgatherv", "alltoall",
                                                     "alltoallv", "alltoallw"};

/* Two ints: the w form receives its blocks as pairs. */
static MPI_Datatype nbr_pair = MPI_DATATYPE_NULL;

/* The arguments and buffers of one call; they stay put while a
 * nonblocking or persistent request uses them. */
struct nbr_op {
    const struct topo *t;
    enum nbr_kind kind;
    int sbuf[SBUF_LEN], rbuf[RBUF_LEN], expect[RBUF_LEN], len;
    int scounts[MAXDEG], sdispls[MAXDEG], rcounts[MAXDEG], rdispls[MAXDEG];
    MPI_Aint sbd[MAXDEG], rbd[MAXDEG];
    MPI_Datatype stypes[MAXDEG], rtypes[MAXDEG];
    MPI_Request req;
    int null_request; /* pass NULL for the request (error tests) */
};

/* Arguments, send data and expectation for 'salt'; the receive buffer is
 * UNTOUCHED, as far as 'len' (one past the last block where blocks are
 * packed, so a write past the end shows).  The counts and displacements do
 * not depend on the salt, so a persistent call can be refilled. */
static inline void nbr_fill(struct nbr_op *op, const struct topo *t, enum nbr_kind kind, int salt)
{
    op->t = t;
    op->kind = kind;
    op->null_request = 0;
    for (int i = 0; i < RBUF_LEN; i++) op->expect[i] = op->rbuf[i] = UNTOUCHED;
    switch (kind) {
    case NBR_ALLGATHER:
    case NBR_ALLTOALL: {
        int n = kind == NBR_ALLGATHER ? 2 : 3, blocks = kind == NBR_ALLGATHER ? 1 : t->outdeg;
        for (int j = 0; j < blocks; j++)
            for (int e = 0; e < n; e++) op->sbuf[n * j + e] = val(salt, rank, j, e);
        for (int i = 0; i < t->indeg; i++)
            for (int e = 0; e < n && t->in[i] != MPI_PROC_NULL; e++)
                op->expect[n * i + e] =
                    val(salt, t->in[i], kind == NBR_ALLGATHER ? 0 : sender_block(t, i), e);
        op->len = n * t->indeg + 1;
        break;
    }
    case NBR_ALLGATHERV:
        for (int e = 0; e < gcount(rank); e++) op->sbuf[e] = val(salt, rank, 0, e);
        op->len = recv_layout(t, 0, salt, op->rcounts, op->rdispls, op->expect);
        break;
    case NBR_ALLTOALLV:
    case NBR_ALLTOALLW:
        send_layout(t, salt, op->sbuf, op->scounts, op->sdispls);
        op->len = recv_layout(t, 1, salt, op->rcounts, op->rdispls, op->expect);
        if (kind == NBR_ALLTOALLV) break;
        /* Sent as ints, received as pairs where the count allows; count-0
         * blocks name MPI_DATATYPE_NULL on both sides. */
        for (int j = 0; j < t->outdeg; j++) {
            op->sbd[j] = (MPI_Aint)op->sdispls[j] * (MPI_Aint)sizeof(int);
            op->stypes[j] = op->scounts[j] ? MPI_INT : MPI_DATATYPE_NULL;
        }
        for (int i = 0; i < t->indeg; i++) {
            op->rbd[i] = (MPI_Aint)op->rdispls[i] * (MPI_Aint)sizeof(int);
            op->rtypes[i] = op->rcounts[i] ? nbr_pair : MPI_DATATYPE_NULL;
            op->rcounts[i] /= 2;
        }
        break;
    default: break;
    }
}

/* Calls the collective of op in 'form' (info: for the persistent form);
 * returns what the call returned.  The request goes to op->req. */
static inline int nbr_call(struct nbr_op *op, enum nbr_form form, MPI_Info info)
{
    const int *sb = op->sbuf, *sc = op->scounts, *sd = op->sdispls;
    const int *rc = op->rcounts, *rd = op->rdispls;
    int *rb = op->rbuf;
    const MPI_Aint *sbd = op->sbd, *rbd = op->rbd;
    const MPI_Datatype *st = op->stypes, *rt = op->rtypes, I = MPI_INT;
    MPI_Comm c = op->t->comm;
    MPI_Request *r = op->null_request ? NULL : &op->req;
    int gc = gcount(rank);
    switch (op->kind) {
    case NBR_ALLGATHER:
        if (form == NBR_BLOCKING) return MPI_Neighbor_allgather(sb, 2, I, rb, 2, I, c);
        if (form == NBR_NONBLOCKING) return MPI_Ineighbor_allgather(sb, 2, I, rb, 2, I, c, r);
        return MPI_Neighbor_allgather_init(sb, 2, I, rb, 2, I, c, info, r);
    case NBR_ALLGATHERV:
        if (form == NBR_BLOCKING) return MPI_Neighbor_allgatherv(sb, gc, I, rb, rc, rd, I, c);
        if (form == NBR_NONBLOCKING)
            return MPI_Ineighbor_allgatherv(sb, gc, I, rb, rc, rd, I, c, r);
        return MPI_Neighbor_allgatherv_init(sb, gc, I, rb, rc, rd, I, c, info, r);
    case NBR_ALLTOALL:
        if (form == NBR_BLOCKING) return MPI_Neighbor_alltoall(sb, 3, I, rb, 3, I, c);
        if (form == NBR_NONBLOCKING) return MPI_Ineighbor_alltoall(sb, 3, I, rb, 3, I, c, r);
        return MPI_Neighbor_alltoall_init(sb, 3, I, rb, 3, I, c, info, r);
    case NBR_ALLTOALLV:
        if (form == NBR_BLOCKING) return MPI_Neighbor_alltoallv(sb, sc, sd, I, rb, rc, rd, I, c);
        if (form == NBR_NONBLOCKING)
            return MPI_Ineighbor_alltoallv(sb, sc, sd, I, rb, rc, rd, I, c, r);
        return MPI_Neighbor_alltoallv_init(sb, sc, sd, I, rb, rc, rd, I, c, info, r);
    case NBR_ALLTOALLW:
        if (form == NBR_BLOCKING)
            return MPI_Neighbor_alltoallw(sb, sc, sbd, st, rb, rc, rbd, rt, c);
        if (form == NBR_NONBLOCKING)
            return MPI_Ineighbor_alltoallw(sb, sc, sbd, st, rb, rc, rbd, rt, c, r);
        return MPI_Neighbor_alltoallw_init(sb, sc, sbd, st, rb, rc, rbd, rt, c, info, r);
    default: return MPI_ERR_INTERN;
    }
}

/* The receive buffer holds what nbr_fill expected. */
static inline void nbr_check(const struct nbr_op *op, const char *how)
{
    for (int i = 0; i < op->len; i++)
        CHECK(op->rbuf[i] == op->expect[i], "%s %s %s: rbuf[%d]=%d want %d", op->t->name, how,
              nbr_kind_name[op->kind], i, op->rbuf[i], op->expect[i]);
}

static inline void nbr_init(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &nbr_pair));
    CHECK_MPI(MPI_Type_commit(&nbr_pair));
}

static inline MPI_Comm nbr_cart(int nd, const int *dims_in, const int *per, int members)
{
    int dims[3] = {0, 0, 0};
    for (int d = 0; d < nd; d++) dims[d] = dims_in ? dims_in[d] : 0;
    CHECK_MPI(MPI_Dims_create(members, nd, dims));
    MPI_Comm c;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, per, 0, &c));
    return c;
}

/* Runs 'run' on every test topology (at ranks that belong to it), then
 * frees it: Cartesian grids periodic and not, with dimensions of size 1 and
 * 2 (where a neighbour is both the -1 and the +1 one) and a grid over part
 * of the ranks; a graph with repeated edges and self-loops; distributed
 * graphs, adjacent and general with unbalanced degrees. */
static inline void nbr_for_each_topology(void (*run)(MPI_Comm comm, const char *name))
{
    struct {
        int nd, dims[3], per[3], members;
        const char *name;
    } carts[] = {
        {1, {0}, {0}, size, "1-d open"},
        {1, {0}, {1}, size, "1-d ring"},
        {2, {0, 0}, {1, 1}, size, "2-d torus"},
        {2, {0, 0}, {1, 0}, size, "2-d cylinder"},
        {3, {0, 0, 0}, {1, 0, 1}, size, "3-d mixed"},
        {2, {1, 0}, {1, 1}, size, "1 x n torus"},
        {2, {0, 1}, {0, 0}, size, "n x 1 open"},
        {2, {2, 0}, {1, 0}, size - size % 2, "2 x n/2 cylinder"},
        {2, {0, 0}, {1, 1}, size - 1, "2-d torus on part"},
    };
    for (size_t k = 0; k < sizeof carts / sizeof carts[0]; k++) {
        if (carts[k].members < 1) continue;
        MPI_Comm c = nbr_cart(carts[k].nd, carts[k].dims, carts[k].per, carts[k].members);
        if (c == MPI_COMM_NULL) continue;
        run(c, carts[k].name);
        MPI_Comm_free(&c);
    }

    /* Graph: i+1, i-1, i (mod n): repeated edges at small n, self-loops.
     * Neighbourhood collectives need a graph's edges to be symmetric. */
    int *index = malloc(sizeof(int) * (size_t)size),
        *edges = malloc(sizeof(int) * 3 * (size_t)size);
    for (int i = 0; i < size; i++) {
        index[i] = 3 * (i + 1);
        edges[3 * i] = (i + 1) % size;
        edges[3 * i + 1] = (i + size - 1) % size;
        edges[3 * i + 2] = i;
    }
    MPI_Comm g;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g));
    run(g, "graph");
    MPI_Comm_free(&g);
    free(index);
    free(edges);

    /* Distributed graph, adjacent: r -> r+1, r -> 2r+1, r -> r. */
    int in[3 * 8], out[3], n = 0;
    for (int s = 0; s < size; s++) {
        int o[3] = {(s + 1) % size, (2 * s + 1) % size, s};
        for (int k = 0; k < 3; k++)
            if (o[k] == rank) in[n++] = s;
        if (s == rank)
            for (int k = 0; k < 3; k++) out[k] = o[k];
    }
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, in, MPI_UNWEIGHTED, 3, out,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    run(g, "dist adjacent");
    MPI_Comm_free(&g);

    /* Distributed graph, general, unbalanced: r -> every rank below r,
     * named by the destinations. */
    int srcs[8], degs[8], dsts[8], m = 0;
    for (int s = rank + 1; s < size; s++) {
        srcs[m] = s;
        degs[m] = 1;
        dsts[m++] = rank;
    }
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, m, srcs, degs, dsts, MPI_UNWEIGHTED,
                                    MPI_INFO_NULL, 0, &g));
    run(g, "dist general");
    MPI_Comm_free(&g);
}

#endif
