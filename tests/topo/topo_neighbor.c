/* The five blocking neighbourhood collectives on every topology of
 * nbr_util.h (Cartesian grids with dimensions of size 1 and 2, a graph with
 * repeated edges and self-loops, distributed graphs), and their argument
 * errors. */
#include "nbr_util.h"

static void run(MPI_Comm comm, const char *name)
{
    struct topo t = {.comm = comm, .name = name};
    struct nbr_op op;
    learn(&t);
    for (int round = 0; round < 2; round++) /* twice: nothing left over from the first */
        for (int k = 0; k < NBR_KINDS; k++) {
            nbr_fill(&op, &t, (enum nbr_kind)k, round);
            CHECK_MPI(nbr_call(&op, NBR_BLOCKING, MPI_INFO_NULL));
            nbr_check(&op, "blocking");
        }
    free(t.all_out);
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
    EXPECT_ERR(MPI_Neighbor_alltoallw(x, x, ax, ty, x, x, ax, ty, MPI_COMM_WORLD), MPI_ERR_TOPOLOGY,
               "MPI_Neighbor_alltoallw");
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
    nbr_init();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    nbr_for_each_topology(run);
    errors();
    MPI_Type_free(&nbr_pair);
    MPI_Finalize();
    return 0;
}
