/* Distributed graphs: the adjacent constructor (weighted, unweighted,
 * empty), the general one with edges named by one process, by their
 * sources and by their destinations, Comm_dup, and errors. */
#include <stdlib.h>

#include "topo_util.h"

static int rank, size;

/* The test graph: r -> r+1 and r -> 2r+1 (mod n), weight 100*src + dst. */
#define OUT 2
static int dst_of(int r, int k) { return k == 0 ? (r + 1) % size : (2 * r + 1) % size; }
static int weight(int s, int d) { return 100 * s + d; }

/* How many times s -> d appears in the graph. */
static int mult(int s, int d)
{
    int m = 0;
    for (int k = 0; k < OUT; k++) m += dst_of(s, k) == d;
    return m;
}

/* Checks the lists against the graph, as multisets; weights when asked. */
static void check_lists(MPI_Comm g, int weighted, const char *what)
{
    int indeg, outdeg, w, st;
    CHECK_MPI(MPI_Topo_test(g, &st));
    CHECK(st == MPI_DIST_GRAPH, "%s: Topo_test %d", what, st);
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &w));
    int want_in = 0;
    for (int s = 0; s < size; s++) want_in += mult(s, rank);
    CHECK(indeg == want_in && outdeg == OUT && w == weighted, "%s: counts %d %d %d want %d %d %d",
          what, indeg, outdeg, w, want_in, OUT, weighted);
    int in[2 * OUT * 8 + 1], inw[2 * OUT * 8 + 1], out[OUT], outw[OUT];
    for (int i = 0; i < indeg; i++) inw[i] = -5;
    CHECK_MPI(MPI_Dist_graph_neighbors(g, indeg, in, weighted ? inw : MPI_UNWEIGHTED, outdeg, out,
                                       weighted ? outw : MPI_UNWEIGHTED));
    for (int s = 0; s < size; s++) {
        int seen = 0;
        for (int i = 0; i < indeg; i++) {
            if (in[i] != s) continue;
            seen++;
            if (weighted)
                CHECK(inw[i] == weight(s, rank), "%s: in-weight %d from %d", what, inw[i], s);
        }
        CHECK(seen == mult(s, rank), "%s: %d edges from %d, want %d", what, seen, s, mult(s, rank));
    }
    for (int d = 0; d < size; d++) {
        int seen = 0;
        for (int i = 0; i < outdeg; i++) {
            if (out[i] != d) continue;
            seen++;
            if (weighted)
                CHECK(outw[i] == weight(rank, d), "%s: out-weight %d to %d", what, outw[i], d);
        }
        CHECK(seen == mult(rank, d), "%s: %d edges to %d, want %d", what, seen, d, mult(rank, d));
    }
}

static void adjacent(int weighted)
{
    int in[2 * OUT * 8], inw[2 * OUT * 8], out[OUT], outw[OUT], n = 0;
    for (int s = 0; s < size; s++)
        for (int k = 0; k < OUT; k++)
            if (dst_of(s, k) == rank) {
                inw[n] = weight(s, rank);
                in[n++] = s;
            }
    for (int k = 0; k < OUT; k++) {
        out[k] = dst_of(rank, k);
        outw[k] = weight(rank, out[k]);
    }
    MPI_Comm g;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, in, weighted ? inw : MPI_UNWEIGHTED,
                                             OUT, out, weighted ? outw : MPI_UNWEIGHTED,
                                             MPI_INFO_NULL, 0, &g));
    check_lists(g, weighted, "adjacent");
    /* The adjacent constructor keeps the given order. */
    int gin[2 * OUT * 8], gout[OUT];
    CHECK_MPI(MPI_Dist_graph_neighbors(g, n, gin, MPI_UNWEIGHTED, OUT, gout, MPI_UNWEIGHTED));
    for (int i = 0; i < n; i++) CHECK(gin[i] == in[i], "adjacent: source order");
    for (int i = 0; i < OUT; i++) CHECK(gout[i] == out[i], "adjacent: destination order");
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(g, &dup));
    MPI_Comm_free(&g);
    check_lists(dup, weighted, "adjacent dup");
    MPI_Comm_free(&dup);
}

/* who: 0 = rank 0 names every edge, 1 = each source names its own,
 * 2 = each destination names the edges into it (one source entry each). */
static void general(int who, int weighted)
{
    int n = 0, srcs[8 * OUT], degs[8 * OUT], dsts[8 * OUT], w[8 * OUT], e = 0;
    for (int s = 0; s < size; s++) {
        for (int k = 0; k < OUT; k++) {
            int d = dst_of(s, k);
            int mine = who == 0 ? rank == 0 : who == 1 ? rank == s : rank == d;
            if (!mine) continue;
            srcs[n] = s;
            degs[n++] = 1;
            w[e] = weight(s, d);
            dsts[e++] = d;
        }
    }
    const int *wp = weighted ? (e ? w : MPI_WEIGHTS_EMPTY) : MPI_UNWEIGHTED;
    MPI_Comm g;
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, wp, MPI_INFO_NULL, 1, &g));
    check_lists(g, weighted,
                who == 0   ? "general by 0"
                : who == 1 ? "general by sources"
                           : "general by destinations");
    MPI_Comm_free(&g);
}

static void errors(void)
{
    MPI_Comm g;
    int bad[1] = {size}, zero[1] = {0}, negw[1] = {-3}, one[1] = {1}, x;
    EXPECT_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, bad, MPI_UNWEIGHTED, 0, NULL,
                                              MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g),
               MPI_ERR_RANK, "sources[0]");
    EXPECT_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, -1, zero, MPI_UNWEIGHTED, 0, NULL,
                                              MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g),
               MPI_ERR_ARG, "indegree");
    EXPECT_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 1, zero, negw, 1, zero, one,
                                              MPI_INFO_NULL, 0, &g),
               MPI_ERR_ARG, "sourceweights[0]=-3");
    EXPECT_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 1, zero, one, 1, zero, MPI_UNWEIGHTED,
                                              MPI_INFO_NULL, 0, &g),
               MPI_ERR_ARG, "MPI_UNWEIGHTED");
    EXPECT_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 1, zero, MPI_WEIGHTS_EMPTY, 0, NULL,
                                              MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g),
               MPI_ERR_ARG, "MPI_WEIGHTS_EMPTY");
    EXPECT_ERR(MPI_Dist_graph_create(MPI_COMM_SELF, 1, bad, one, zero, MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &g),
               MPI_ERR_RANK, "sources[0]");
    EXPECT_ERR(MPI_Dist_graph_create(MPI_COMM_SELF, 1, zero, one, bad, MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &g),
               MPI_ERR_RANK, "destinations[0]");
    int neg[1] = {-1};
    EXPECT_ERR(MPI_Dist_graph_create(MPI_COMM_SELF, 1, zero, neg, zero, MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &g),
               MPI_ERR_ARG, "degrees[0]");
    EXPECT_ERR(MPI_Dist_graph_create(MPI_COMM_SELF, -1, zero, one, zero, MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &g),
               MPI_ERR_ARG, "MPI_Dist_graph_create");
    EXPECT_ERR(MPI_Dist_graph_create(MPI_COMM_SELF, 1, zero, one, zero, negw, MPI_INFO_NULL, 0, &g),
               MPI_ERR_ARG, "weights[0]");
    EXPECT_ERR(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &x, &x, &x), MPI_ERR_TOPOLOGY,
               "MPI_Dist_graph_neighbors_count");

    /* An unweighted graph leaves weight arrays alone. */
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 1, zero, MPI_UNWEIGHTED, 1, zero,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    int s = -1, sw = -1, d = -1, dw = -1, w;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &x, &x, &w));
    CHECK(w == 0, "unweighted graph says weighted");
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, &s, &sw, 1, &d, &dw));
    CHECK(s == 0 && d == 0 && sw == -1 && dw == -1, "unweighted neighbours %d %d %d %d", s, sw, d,
          dw);
    EXPECT_ERR(MPI_Graphdims_get(g, &x, &x), MPI_ERR_TOPOLOGY, "MPI_Graphdims_get");
    MPI_Comm_free(&g);

    /* No edges at all, weighted. */
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                             MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
    int i1, o1;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &i1, &o1, &w));
    CHECK(i1 == 0 && o1 == 0 && w == 1, "empty weighted graph: %d %d %d", i1, o1, w);
    MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    for (int weighted = 0; weighted < 2; weighted++) {
        adjacent(weighted);
        for (int who = 0; who < 3; who++) general(who, weighted);
    }
    errors();
    MPI_Finalize();
    return 0;
}
