/* The five blocking neighbourhood collectives on Cartesian grids (periodic
 * and not, with dimensions of size 1 and 2 where a neighbour is both the -1
 * and the +1 one), a graph with repeated edges and self-loops, and
 * distributed graphs (adjacent, general, unbalanced degrees).  Every
 * received value names its sender and the sender's block; blocks from
 * MPI_PROC_NULL stay untouched. */
#include <stdlib.h>

#include "topo_util.h"

#define MAXDEG 64
#define UNTOUCHED (-1)

static int rank, size;

/* What a test knows of a topology: my lists, everyone's out-lists, and
 * whether blocks pair up by direction (Cartesian) or by order (graphs). */
struct topo {
    MPI_Comm comm;
    int cart;
    int indeg, outdeg, in[MAXDEG], out[MAXDEG];
    int *all_out; /* size x (MAXDEG + 1): degree, then the list */
    const char *name;
};

static int val(int s, int j, int e) { return s * 10000 + j * 100 + e; }

/* The sender's block index for my in-slot i. */
static int sender_block(const struct topo *t, int i)
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

static void learn(struct topo *t)
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

static void t_allgather(const struct topo *t)
{
    int sbuf[2] = {val(rank, 0, 0), val(rank, 0, 1)}, rbuf[2 * MAXDEG];
    for (int i = 0; i < 2 * MAXDEG; i++) rbuf[i] = UNTOUCHED;
    CHECK_MPI(MPI_Neighbor_allgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, t->comm));
    for (int i = 0; i < t->indeg; i++)
        for (int e = 0; e < 2; e++) {
            int want = t->in[i] == MPI_PROC_NULL ? UNTOUCHED : val(t->in[i], 0, e);
            CHECK(rbuf[2 * i + e] == want, "%s allgather: slot %d[%d]=%d want %d", t->name, i, e,
                  rbuf[2 * i + e], want);
        }
    CHECK(rbuf[2 * t->indeg] == UNTOUCHED, "%s allgather wrote past the end", t->name);
}

static int gcount(int s) { return s % 3 + 1; }

static void t_allgatherv(const struct topo *t)
{
    int sbuf[3], rbuf[5 * MAXDEG], counts[MAXDEG], displs[MAXDEG], pos = 1;
    for (int e = 0; e < gcount(rank); e++) sbuf[e] = val(rank, 0, e);
    for (int i = 0; i < 5 * MAXDEG; i++) rbuf[i] = UNTOUCHED;
    for (int i = t->indeg - 1; i >= 0; i--) { /* blocks in reverse, gaps between */
        counts[i] = t->in[i] == MPI_PROC_NULL ? 2 : gcount(t->in[i]);
        displs[i] = pos;
        pos += counts[i] + 1;
    }
    CHECK_MPI(MPI_Neighbor_allgatherv(sbuf, gcount(rank), MPI_INT, rbuf, counts, displs, MPI_INT,
                                      t->comm));
    int expect[5 * MAXDEG];
    for (int i = 0; i < 5 * MAXDEG; i++) expect[i] = UNTOUCHED;
    for (int i = 0; i < t->indeg; i++)
        if (t->in[i] != MPI_PROC_NULL)
            for (int e = 0; e < counts[i]; e++) expect[displs[i] + e] = val(t->in[i], 0, e);
    for (int i = 0; i < 5 * MAXDEG; i++)
        CHECK(rbuf[i] == expect[i], "%s allgatherv: rbuf[%d]=%d want %d", t->name, i, rbuf[i],
              expect[i]);
}

static void t_alltoall(const struct topo *t)
{
    int sbuf[3 * MAXDEG], rbuf[3 * MAXDEG + 1];
    for (int j = 0; j < t->outdeg; j++)
        for (int e = 0; e < 3; e++) sbuf[3 * j + e] = val(rank, j, e);
    for (int i = 0; i < 3 * MAXDEG + 1; i++) rbuf[i] = UNTOUCHED;
    CHECK_MPI(MPI_Neighbor_alltoall(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, t->comm));
    for (int i = 0; i < t->indeg; i++)
        for (int e = 0; e < 3; e++) {
            int want = t->in[i] == MPI_PROC_NULL ? UNTOUCHED
                                                 : val(t->in[i], sender_block(t, i), e);
            CHECK(rbuf[3 * i + e] == want, "%s alltoall: slot %d[%d]=%d want %d", t->name, i, e,
                  rbuf[3 * i + e], want);
        }
    CHECK(rbuf[3 * t->indeg] == UNTOUCHED, "%s alltoall wrote past the end", t->name);
}

/* Block j of process s in the v and w forms: 0, 2 or 4 ints. */
static int vcount(int s, int j) { return 2 * ((s + 2 * j) % 3); }

/* The receive side of the v and w forms: counts, displacements (blocks in
 * reverse order with gaps), the expected buffer.  Returns the buffer length. */
static int recv_layout(const struct topo *t, int *counts, int *displs, int *expect)
{
    int pos = 1;
    for (int i = t->indeg - 1; i >= 0; i--) {
        counts[i] = t->in[i] == MPI_PROC_NULL ? 2 : vcount(t->in[i], sender_block(t, i));
        displs[i] = pos;
        pos += counts[i] + 1;
    }
    for (int i = 0; i < pos; i++) expect[i] = UNTOUCHED;
    for (int i = 0; i < t->indeg; i++)
        if (t->in[i] != MPI_PROC_NULL)
            for (int e = 0; e < counts[i]; e++)
                expect[displs[i] + e] = val(t->in[i], sender_block(t, i), e);
    return pos;
}

/* The send side: blocks in order from the end of the buffer backwards. */
static void send_layout(const struct topo *t, int *sbuf, int *counts, int *displs)
{
    int pos = 5 * MAXDEG;
    for (int j = 0; j < t->outdeg; j++) {
        counts[j] = vcount(rank, j);
        pos -= counts[j];
        displs[j] = pos;
        for (int e = 0; e < counts[j]; e++) sbuf[pos + e] = val(rank, j, e);
    }
}

static void t_alltoallv(const struct topo *t)
{
    int sbuf[5 * MAXDEG], scounts[MAXDEG], sdispls[MAXDEG];
    int rbuf[6 * MAXDEG], rcounts[MAXDEG], rdispls[MAXDEG], expect[6 * MAXDEG];
    send_layout(t, sbuf, scounts, sdispls);
    int len = recv_layout(t, rcounts, rdispls, expect);
    for (int i = 0; i < len; i++) rbuf[i] = UNTOUCHED;
    CHECK_MPI(MPI_Neighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls,
                                     MPI_INT, t->comm));
    for (int i = 0; i < len; i++)
        CHECK(rbuf[i] == expect[i], "%s alltoallv: rbuf[%d]=%d want %d", t->name, i, rbuf[i],
              expect[i]);
}

/* As alltoallv, but received as pairs of ints where the count allows, and
 * count-0 blocks with MPI_DATATYPE_NULL on both sides. */
static void t_alltoallw(const struct topo *t, MPI_Datatype pair)
{
    int sbuf[5 * MAXDEG], scounts[MAXDEG], sd[MAXDEG];
    int rbuf[6 * MAXDEG], rcounts[MAXDEG], rd[MAXDEG], expect[6 * MAXDEG];
    MPI_Aint sdispls[MAXDEG], rdispls[MAXDEG];
    MPI_Datatype stypes[MAXDEG], rtypes[MAXDEG];
    send_layout(t, sbuf, scounts, sd);
    for (int j = 0; j < t->outdeg; j++) {
        sdispls[j] = (MPI_Aint)sd[j] * (MPI_Aint)sizeof(int);
        stypes[j] = scounts[j] ? MPI_INT : MPI_DATATYPE_NULL;
    }
    int len = recv_layout(t, rcounts, rd, expect);
    for (int i = 0; i < t->indeg; i++) {
        rdispls[i] = (MPI_Aint)rd[i] * (MPI_Aint)sizeof(int);
        rtypes[i] = rcounts[i] ? pair : MPI_DATATYPE_NULL;
        rcounts[i] /= 2;
    }
    for (int i = 0; i < len; i++) rbuf[i] = UNTOUCHED;
    CHECK_MPI(MPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                                     rtypes, t->comm));
    for (int i = 0; i < len; i++)
        CHECK(rbuf[i] == expect[i], "%s alltoallw: rbuf[%d]=%d want %d", t->name, i, rbuf[i],
              expect[i]);
}

static void run_all(MPI_Comm comm, const char *name, MPI_Datatype pair)
{
    if (comm == MPI_COMM_NULL) return;
    struct topo t = {.comm = comm, .name = name};
    learn(&t);
    for (int round = 0; round < 2; round++) { /* twice: nothing left over from the first */
        t_allgather(&t);
        t_allgatherv(&t);
        t_alltoall(&t);
        t_alltoallv(&t);
        t_alltoallw(&t, pair);
    }
    free(t.all_out);
    MPI_Comm_free(&comm);
}

static MPI_Comm cart(int nd, int p0, int p1, int p2, int members)
{
    int dims[3] = {0, 0, 0}, per[3] = {p0, p1, p2};
    CHECK_MPI(MPI_Dims_create(members, nd, dims));
    MPI_Comm c;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, per, 0, &c));
    return c;
}

static void errors(void)
{
    int x[4] = {0, 0, 0, 0};
    MPI_Aint ax[2] = {0, 0};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    EXPECT_ERR(MPI_Neighbor_allgather(x, 1, MPI_INT, x + 1, 1, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_TOPOLOGY, "MPI_Neighbor_allgather");
    EXPECT_ERR(MPI_Neighbor_allgatherv(x, 1, MPI_INT, x + 1, x, x, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_TOPOLOGY, "MPI_Neighbor_allgatherv");
    EXPECT_ERR(MPI_Neighbor_alltoall(x, 1, MPI_INT, x + 1, 1, MPI_INT, MPI_COMM_SELF),
               MPI_ERR_TOPOLOGY, "MPI_Neighbor_alltoall");
    EXPECT_ERR(MPI_Neighbor_alltoallv(x, x, x, MPI_INT, x, x, x, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_TOPOLOGY, "MPI_Neighbor_alltoallv");
    EXPECT_ERR(MPI_Neighbor_alltoallw(x, x, ax, ty, x, x, ax, ty, MPI_COMM_WORLD),
               MPI_ERR_TOPOLOGY, "MPI_Neighbor_alltoallw");
    EXPECT_ERR(MPI_Neighbor_allgather(x, 1, MPI_INT, x + 1, 1, MPI_INT, MPI_COMM_NULL),
               MPI_ERR_COMM, "MPI_Neighbor_allgather");

    MPI_Comm ring;
    int d[1] = {1}, p[1] = {1};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_SELF, 1, d, p, 0, &ring));
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    EXPECT_ERR(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, x, 1, MPI_INT, ring),
               MPI_ERR_BUFFER, "MPI_IN_PLACE");
    EXPECT_ERR(MPI_Neighbor_alltoall(x, -1, MPI_INT, x, 1, MPI_INT, ring), MPI_ERR_COUNT,
               "sendcount");
    EXPECT_ERR(MPI_Neighbor_alltoall(x, 1, MPI_DATATYPE_NULL, x, 1, MPI_INT, ring), MPI_ERR_TYPE,
               "sendtype");
    EXPECT_ERR(MPI_Neighbor_allgatherv(x, 1, MPI_INT, x, NULL, x, MPI_INT, ring), MPI_ERR_ARG,
               "recvcounts");
    int neg[2] = {1, -1};
    EXPECT_ERR(MPI_Neighbor_alltoallv(x, neg, x, MPI_INT, x, x, x, MPI_INT, ring), MPI_ERR_COUNT,
               "sendcounts[1]");
    MPI_Datatype nt[2] = {MPI_INT, MPI_DATATYPE_NULL};
    int ones[2] = {1, 1};
    EXPECT_ERR(MPI_Neighbor_alltoallw(x, ones, ax, nt, x, ones, ax, ty, ring), MPI_ERR_TYPE,
               "sendtypes[1]");
    /* A ring of one: both neighbours are me, by direction. */
    int s2[2] = {10, 20}, r2[2] = {0, 0};
    CHECK_MPI(MPI_Neighbor_alltoall(s2, 1, MPI_INT, r2, 1, MPI_INT, ring));
    CHECK(r2[0] == 20 && r2[1] == 10, "ring of one: got %d %d want 20 10", r2[0], r2[1]);
    MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);

    run_all(cart(1, 0, 0, 0, size), "1-d open", pair);
    run_all(cart(1, 1, 0, 0, size), "1-d ring", pair);
    run_all(cart(2, 1, 1, 0, size), "2-d torus", pair);
    run_all(cart(2, 1, 0, 0, size), "2-d cylinder", pair);
    run_all(cart(3, 1, 0, 1, size), "3-d mixed", pair);
    if (size > 2) run_all(cart(2, 1, 1, 0, size - 1), "2-d torus on part", pair);

    /* Graph: i+1, i-1, i (mod n): repeated edges at small n, self-loops.
     * Neighbourhood collectives need a graph's edges to be symmetric. */
    int *index = malloc(sizeof(int) * (size_t)size), *edges = malloc(sizeof(int) * 3 * (size_t)size);
    for (int i = 0; i < size; i++) {
        index[i] = 3 * (i + 1);
        edges[3 * i] = (i + 1) % size;
        edges[3 * i + 1] = (i + size - 1) % size;
        edges[3 * i + 2] = i;
    }
    MPI_Comm g;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g));
    run_all(g, "graph", pair);
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
    run_all(g, "dist adjacent", pair);

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
    run_all(g, "dist general", pair);

    errors();
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
