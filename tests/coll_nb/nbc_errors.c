/* Argument errors of the nonblocking and persistent collectives under
 * MPI_ERRORS_RETURN: the same classes and messages as the blocking forms,
 * naming the call; MPI_Cancel of a collective and MPI_Start of an active
 * one are refused.  A refused call takes no part in collective matching:
 * valid collectives afterwards still pair up. */
#include "tern_expect.h"

#define W MPI_COMM_WORLD

int main(int argc, char **argv)
{
    int rank, size, a[4] = {0}, b[4] = {0};
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(W, &rank);
    MPI_Comm_size(W, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN));

    expect(MPI_Ibcast(a, 1, MPI_INT, size, W, &rq), MPI_ERR_ROOT, "MPI_Ibcast", "root=");
    expect(MPI_Bcast_init(a, 1, MPI_INT, -1, W, MPI_INFO_NULL, &rq), MPI_ERR_ROOT, "MPI_Bcast_init",
           "root=-1");
    expect(MPI_Ibcast(a, -1, MPI_INT, 0, W, &rq), MPI_ERR_COUNT, "MPI_Ibcast", "count=-1");
    expect(MPI_Ibcast(a, 1, MPI_DATATYPE_NULL, 0, W, &rq), MPI_ERR_TYPE, "MPI_Ibcast", "datatype");
    expect(MPI_Ibcast(a, 1, MPI_INT, 0, MPI_COMM_NULL, &rq), MPI_ERR_COMM, "MPI_Ibcast", "comm");
    expect(MPI_Ibcast(a, 1, MPI_INT, 0, W, NULL), MPI_ERR_ARG, "MPI_Ibcast", "request");
    expect(MPI_Ibarrier(MPI_COMM_NULL, &rq), MPI_ERR_COMM, "MPI_Ibarrier", "MPI_COMM_NULL");
    expect(MPI_Barrier_init(W, MPI_INFO_NULL, NULL), MPI_ERR_ARG, "MPI_Barrier_init", "request");
    expect(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_OP_NULL, W, &rq), MPI_ERR_OP, "MPI_Iallreduce",
           "op");
    expect(MPI_Allreduce_init(a, a, 1, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &rq), MPI_ERR_BUFFER,
           "MPI_Allreduce_init", "MPI_IN_PLACE");
    expect(MPI_Ireduce(a, b, 1, MPI_DOUBLE, MPI_BAND, 0, W, &rq), MPI_ERR_OP, "MPI_Ireduce", NULL);
    expect(MPI_Reduce_init(a, b, 1, MPI_INT, MPI_SUM, size + 3, W, MPI_INFO_NULL, &rq),
           MPI_ERR_ROOT, "MPI_Reduce_init", "root=");
    expect(MPI_Iallgather(a, -2, MPI_INT, b, 1, MPI_INT, W, &rq), MPI_ERR_COUNT, "MPI_Iallgather",
           "sendcount=-2");
    expect(MPI_Ialltoall(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, W, &rq), MPI_ERR_BUFFER,
           "MPI_Ialltoall", "recvbuf");
    expect(MPI_Igather(a, 1, MPI_INT, b, 1, MPI_INT, -5, W, &rq), MPI_ERR_ROOT, "MPI_Igather",
           "root=-5");
    expect(MPI_Scatter_init(a, 1, MPI_INT, b, 1, MPI_INT, size, W, MPI_INFO_NULL, &rq),
           MPI_ERR_ROOT, "MPI_Scatter_init", "root=");
    expect(MPI_Iscan(a, b, -1, MPI_INT, MPI_SUM, W, &rq), MPI_ERR_COUNT, "MPI_Iscan", "count=-1");
    expect(MPI_Exscan_init(a, b, 1, MPI_INT, MPI_OP_NULL, W, MPI_INFO_NULL, &rq), MPI_ERR_OP,
           "MPI_Exscan_init", "op");
    expect(MPI_Ireduce_scatter_block(a, b, -1, MPI_INT, MPI_SUM, W, &rq), MPI_ERR_COUNT,
           "MPI_Ireduce_scatter_block", "recvcount=-1");
    expect(MPI_Ireduce_scatter(a, b, NULL, MPI_INT, MPI_SUM, W, &rq), MPI_ERR_ARG,
           "MPI_Ireduce_scatter", "recvcounts");
    expect(MPI_Ialltoallw(a, NULL, NULL, NULL, b, NULL, NULL, NULL, W, &rq), MPI_ERR_ARG,
           "MPI_Ialltoallw", "sendcounts");
    expect(MPI_Iallgatherv(a, 1, MPI_INT, b, NULL, NULL, MPI_INT, W, &rq), MPI_ERR_ARG,
           "MPI_Iallgatherv", "recvcounts");
    expect(MPI_Alltoallv_init(MPI_IN_PLACE, NULL, NULL, MPI_INT, b, NULL, NULL, MPI_INT, W,
                              MPI_INFO_NULL, &rq),
           MPI_ERR_ARG, "MPI_Alltoallv_init", "recvcounts");
    /* Scatterv: MPI_IN_PLACE as the receive buffer away from the root. */
    if (size > 1) {
        int cnt[64] = {0}, dsp[64] = {0};
        expect(MPI_Iscatterv(a, cnt, dsp, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, (rank + 1) % size, W,
                             &rq),
               MPI_ERR_BUFFER, "MPI_Iscatterv", "recvbuf");
    }
    CHECK(rq == MPI_REQUEST_NULL, "a refused call set the request");

    /* Cancel of an active collective: refused; the operation completes. */
    int in = rank + 1, out = 0;
    CHECK_MPI(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, W, &rq));
    expect(MPI_Cancel(&rq), MPI_ERR_REQUEST, "MPI_Cancel", "collective");
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(out == size * (size + 1) / 2, "iallreduce after refused cancel: %d", out);

    /* Start of an active persistent collective: refused; it still completes. */
    CHECK_MPI(MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_MAX, W, MPI_INFO_NULL, &rq));
    CHECK_MPI(MPI_Start(&rq));
    expect(MPI_Start(&rq), MPI_ERR_REQUEST, "MPI_Start", "already active");
    expect(MPI_Cancel(&rq), MPI_ERR_REQUEST, "MPI_Cancel", "collective");
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(out == size, "persistent allreduce max: %d", out);
    CHECK_MPI(MPI_Request_free(&rq));

    /* Matching is intact after all the refused calls. */
    int x[2] = {rank, -rank}, y[2] = {-1, -1};
    CHECK_MPI(MPI_Iallreduce(x, y, 2, MPI_INT, MPI_MIN, W, &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(y[0] == 0 && y[1] == -(size - 1), "iallreduce min: %d %d", y[0], y[1]);
    MPI_Finalize();
    return 0;
}
