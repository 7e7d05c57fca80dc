/* Graph topologies: a ring with chords (repeated edges and self-loops at
 * small sizes), a graph smaller than the communicator, queries, Graph_map,
 * Comm_dup, and errors. */
#include <stdlib.h>

#include "topo_util.h"

static int rank, size;

/* Node i: i+1, i-1, and 2i (mod n) — duplicates and self-loops appear at
 * small n, which MPI allows. */
#define DEG 3
static void build(int n, int *index, int *edges)
{
    for (int i = 0; i < n; i++) {
        index[i] = DEG * (i + 1);
        edges[DEG * i] = (i + 1) % n;
        edges[DEG * i + 1] = (i + n - 1) % n;
        edges[DEG * i + 2] = (2 * i) % n;
    }
}

static void check_graph(MPI_Comm g, int n, const int *index, const int *edges)
{
    int st, nn, ne, cnt;
    CHECK_MPI(MPI_Topo_test(g, &st));
    CHECK(st == MPI_GRAPH, "Topo_test %d", st);
    CHECK_MPI(MPI_Graphdims_get(g, &nn, &ne));
    CHECK(nn == n && ne == DEG * n, "Graphdims_get %d %d", nn, ne);
    int *gi = malloc(sizeof(int) * (size_t)n), *ge = malloc(sizeof(int) * (size_t)(DEG * n));
    CHECK_MPI(MPI_Graph_get(g, n, DEG * n, gi, ge));
    for (int i = 0; i < n; i++) CHECK(gi[i] == index[i], "index[%d]=%d", i, gi[i]);
    for (int j = 0; j < DEG * n; j++) CHECK(ge[j] == edges[j], "edges[%d]=%d", j, ge[j]);
    /* Room for fewer entries: only that many are written. */
    int small[2] = {-7, -7};
    CHECK_MPI(MPI_Graph_get(g, 1, 1, small, small + 1));
    CHECK(small[0] == index[0] && small[1] == edges[0], "Graph_get with little room");
    for (int r = 0; r < n; r++) {
        int nb[DEG + 1] = {-9, -9, -9, -9};
        CHECK_MPI(MPI_Graph_neighbors_count(g, r, &cnt));
        CHECK(cnt == DEG, "rank %d has %d neighbours", r, cnt);
        CHECK_MPI(MPI_Graph_neighbors(g, r, DEG + 1, nb));
        for (int k = 0; k < DEG; k++) CHECK(nb[k] == edges[DEG * r + k], "neighbour %d", k);
        CHECK(nb[DEG] == -9, "Graph_neighbors wrote past the count");
    }
    free(gi);
    free(ge);
}

static void errors(void)
{
    MPI_Comm g;
    int x, index[2] = {1, 2}, edges[2] = {0, 0};
    EXPECT_ERR(MPI_Graph_create(MPI_COMM_SELF, 2, index, edges, 0, &g), MPI_ERR_ARG, "nnodes=2");
    EXPECT_ERR(MPI_Graph_create(MPI_COMM_SELF, -1, index, edges, 0, &g), MPI_ERR_ARG, "nnodes");
    edges[0] = 1;
    EXPECT_ERR(MPI_Graph_create(MPI_COMM_SELF, 1, index, edges, 0, &g), MPI_ERR_ARG, "edges[0]=1");
    edges[0] = -1;
    EXPECT_ERR(MPI_Graph_create(MPI_COMM_SELF, 1, index, edges, 0, &g), MPI_ERR_ARG,
               "MPI_Graph_create");
    index[0] = -1;
    EXPECT_ERR(MPI_Graph_create(MPI_COMM_SELF, 1, index, edges, 0, &g), MPI_ERR_ARG, "index[0]");
    EXPECT_ERR(MPI_Graph_create(MPI_COMM_SELF, 1, NULL, edges, 0, &g), MPI_ERR_ARG, "index");
    EXPECT_ERR(MPI_Graph_create(MPI_COMM_SELF, 1, (int[]){0}, NULL, 0, NULL), MPI_ERR_ARG,
               "comm_graph");
    EXPECT_ERR(MPI_Graphdims_get(MPI_COMM_WORLD, &x, &x), MPI_ERR_TOPOLOGY, "MPI_Graphdims_get");
    EXPECT_ERR(MPI_Graph_neighbors(MPI_COMM_WORLD, 0, 1, &x), MPI_ERR_TOPOLOGY,
               "MPI_Graph_neighbors");
    EXPECT_ERR(MPI_Graph_map(MPI_COMM_SELF, 2, (int[]){0, 0}, NULL, &x), MPI_ERR_ARG,
               "MPI_Graph_map");

    CHECK_MPI(MPI_Graph_create(MPI_COMM_SELF, 1, (int[]){1}, (int[]){0}, 0, &g));
    MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
    EXPECT_ERR(MPI_Graph_neighbors_count(g, 1, &x), MPI_ERR_RANK, "rank=1");
    EXPECT_ERR(MPI_Graph_neighbors(g, -1, 1, &x), MPI_ERR_RANK, "MPI_Graph_neighbors");
    EXPECT_ERR(MPI_Cart_coords(g, 0, 1, &x), MPI_ERR_TOPOLOGY, "MPI_Cart_coords");
    EXPECT_ERR(MPI_Dist_graph_neighbors(g, 0, &x, MPI_UNWEIGHTED, 0, &x, MPI_UNWEIGHTED),
               MPI_ERR_TOPOLOGY, "MPI_Dist_graph_neighbors");
    int nb = -1;
    CHECK_MPI(MPI_Graph_neighbors(g, 0, 1, &nb));
    CHECK(nb == 0, "self-loop neighbour %d", nb);
    MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int *index = malloc(sizeof(int) * (size_t)size),
        *edges = malloc(sizeof(int) * DEG * (size_t)size);

    /* Whole communicator, then all but one, then no nodes. */
    for (int n = size; n >= (size > 1 ? size - 1 : size); n--) {
        MPI_Comm g;
        build(n, index, edges);
        CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, &g));
        if (rank >= n) {
            CHECK(g == MPI_COMM_NULL, "rank %d outside a %d-node graph got a communicator", rank,
                  n);
        } else {
            int s, r;
            MPI_Comm_size(g, &s);
            MPI_Comm_rank(g, &r);
            CHECK(s == n && r == rank, "graph comm size %d rank %d", s, r);
            check_graph(g, n, index, edges);
            /* A duplicate answers the same, after the original is gone. */
            MPI_Comm dup;
            CHECK_MPI(MPI_Comm_dup(g, &dup));
            CHECK_MPI(MPI_Comm_free(&g));
            check_graph(dup, n, index, edges);
            MPI_Comm_free(&dup);
        }
        int nr;
        CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &nr));
        CHECK(nr == (rank < n ? rank : MPI_UNDEFINED), "Graph_map gave %d", nr);
    }
    MPI_Comm none;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &none));
    CHECK(none == MPI_COMM_NULL, "a graph of no nodes gave a communicator");

    errors();
    free(index);
    free(edges);
    MPI_Finalize();
    return 0;
}
