/* Argument errors of the collectives under MPI_ERRORS_RETURN: the class is
 * right and the message names the call and the argument.  Every rank makes
 * the same mistake (a local check), so no rank is left waiting. */
#include <string.h>

#include "tern_expect.h"

int main(int argc, char **argv)
{
    int rank, size, a[4] = {0}, b[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    expect(MPI_Bcast(a, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast", "root=");
    expect(MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast", "root=-1");
    expect(MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Bcast", "count=-1");
    expect(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Bcast",
           "datatype");
    expect(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bcast", "buffer");
    expect(MPI_Bcast(a, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Bcast", "comm");
    expect(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bcast",
           "MPI_IN_PLACE");
    expect(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier", "MPI_COMM_NULL");
    expect(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
           "MPI_Allreduce", "op");
    expect(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "MPI_Allreduce", "MPI_IN_PLACE");
    expect(MPI_Reduce(a, b, 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Reduce",
           NULL);
    expect(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size + 3, MPI_COMM_WORLD), MPI_ERR_ROOT,
           "MPI_Reduce", "root=");
    expect(MPI_Allgather(a, -2, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Allgather", "sendcount=-2");
    expect(MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD), MPI_ERR_TYPE,
           "MPI_Allgather", "recvtype");
    expect(MPI_Alltoall(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "MPI_Alltoall", "recvbuf");
    expect(MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, -5, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Gather",
           "root=-5");
    expect(MPI_Scatter(a, 1, MPI_INT, b, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT,
           "MPI_Scatter", "root=");
    expect(MPI_Scan(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Scan",
           "count=-1");
    expect(MPI_Exscan(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Exscan",
           "op");
    expect(MPI_Reduce_scatter_block(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Reduce_scatter_block", "recvcount=-1");
    int counts[64];
    for (int i = 0; i < 64; i++) counts[i] = 1;
    counts[size - 1] = -4;
    expect(MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Reduce_scatter", "recvcounts[");
    expect(MPI_Allgatherv(a, 1, MPI_INT, b, NULL, counts, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG,
           "MPI_Allgatherv", "recvcounts");

    /* The communicator is still usable after all that. */
    a[0] = 1;
    CHECK_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(b[0] == size, "allreduce after errors: %d", b[0]);
    MPI_Finalize();
    return 0;
}
