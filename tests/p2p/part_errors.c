/* Error classes and messages of the partitioned calls, under
 * MPI_ERRORS_RETURN: bad init arguments, wildcards in MPI_Precv_init,
 * MPI_Pready on null/inactive/receive requests, out-of-range and repeated
 * partitions (a rejected MPI_Pready_list sends none of its partitions),
 * MPI_Parrived on the wrong side and out of range, null and inactive
 * requests in MPI_Parrived (flag true, MPI-4.1), and MPI_Cancel and
 * MPI_Request_free of an operation in progress.  Every request made here
 * has its partner (MPI_COMM_SELF pairs), since partitioned requests pair
 * in initialisation order. */
#include "part_util.h"

#define EXPECT(call, cls, fn) pu_expect_class((call), (cls), (fn), #call)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int buf[8] = {0}, rbuf[8] = {0}, flag;
    MPI_Request r = MPI_REQUEST_NULL, s, q;
    MPI_Comm W = MPI_COMM_WORLD, S = MPI_COMM_SELF;
    MPI_Info I = MPI_INFO_NULL;

    /* ---- init arguments: nothing is created ---- */
    EXPECT(MPI_Psend_init(buf, -1, 1, MPI_INT, 0, 0, W, I, &r), MPI_ERR_ARG, "MPI_Psend_init");
    EXPECT(MPI_Precv_init(buf, -3, 1, MPI_INT, 0, 0, W, I, &r), MPI_ERR_ARG, "MPI_Precv_init");
    EXPECT(MPI_Psend_init(buf, 2, -1, MPI_INT, 0, 0, W, I, &r), MPI_ERR_COUNT, "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 2, 1, MPI_DATATYPE_NULL, 0, 0, W, I, &r), MPI_ERR_TYPE,
           "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, size, 0, W, I, &r), MPI_ERR_RANK, "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, MPI_ANY_SOURCE, 0, W, I, &r), MPI_ERR_RANK,
           "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, 0, -5, W, I, &r), MPI_ERR_TAG, "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, 0, 0, MPI_COMM_NULL, I, &r), MPI_ERR_COMM,
           "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, 0, 0, W, (MPI_Info)0x1234, &r), MPI_ERR_INFO,
           "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, 0, 0, W, I, NULL), MPI_ERR_ARG, "MPI_Psend_init");
    EXPECT(MPI_Psend_init(NULL, 2, 1, MPI_INT, 0, 0, W, I, &r), MPI_ERR_BUFFER, "MPI_Psend_init");
    EXPECT(MPI_Psend_init(buf, 1 << 30, (MPI_Count)1 << 40, MPI_INT, 0, 0, W, I, &r), MPI_ERR_COUNT,
           "MPI_Psend_init");
    EXPECT(MPI_Precv_init(rbuf, 2, 1, MPI_INT, MPI_ANY_SOURCE, 0, W, I, &r), MPI_ERR_RANK,
           "MPI_Precv_init");
    EXPECT(MPI_Precv_init(rbuf, 2, 1, MPI_INT, 0, MPI_ANY_TAG, W, I, &r), MPI_ERR_TAG,
           "MPI_Precv_init");
    EXPECT(MPI_Precv_init(rbuf, 2, 1, MPI_INT, size + 1, 0, W, I, &r), MPI_ERR_RANK,
           "MPI_Precv_init");
    CHECK(r == MPI_REQUEST_NULL, "a failed init set *request");

    /* ---- MPI_Pready on what is not an active send ---- */
    EXPECT(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST, "MPI_Pready");
    CHECK_MPI(MPI_Psend_init(buf, 4, 2, MPI_INT, 0, 1, S, I, &s));
    CHECK_MPI(MPI_Precv_init(rbuf, 2, 4, MPI_INT, 0, 1, S, I, &r));
    EXPECT(MPI_Pready(0, s), MPI_ERR_REQUEST, "MPI_Pready");
    EXPECT(MPI_Pready_range(0, 1, s), MPI_ERR_REQUEST, "MPI_Pready_range");
    EXPECT(MPI_Pready_list(1, (const int[]){0}, s), MPI_ERR_REQUEST, "MPI_Pready_list");
    EXPECT(MPI_Pready(0, r), MPI_ERR_REQUEST, "MPI_Pready");
    CHECK_MPI(MPI_Irecv(buf, 1, MPI_INT, 0, 99, S, &q));
    EXPECT(MPI_Pready(0, q), MPI_ERR_REQUEST, "MPI_Pready");
    EXPECT(MPI_Parrived(q, 0, &flag), MPI_ERR_REQUEST, "MPI_Parrived");
    CHECK_MPI(MPI_Cancel(&q));
    CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));

    /* ---- MPI_Parrived on null, inactive, send, out of range ---- */
    flag = 0;
    CHECK_MPI(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag));
    CHECK(flag, "Parrived(MPI_REQUEST_NULL) flag false");
    flag = 0;
    CHECK_MPI(MPI_Parrived(r, 1, &flag));
    CHECK(flag, "Parrived on an inactive request: flag false");
    EXPECT(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST, "MPI_Parrived");
    EXPECT(MPI_Parrived(r, 2, &flag), MPI_ERR_ARG, "MPI_Parrived");
    EXPECT(MPI_Parrived(r, -1, &flag), MPI_ERR_ARG, "MPI_Parrived");
    EXPECT(MPI_Parrived(r, 0, NULL), MPI_ERR_ARG, "MPI_Parrived");

    /* ---- a round with every misuse of MPI_Pready ---- */
    for (int i = 0; i < 8; i++) buf[i] = 100 + i, rbuf[i] = -1;
    MPI_Request both[2] = {s, r};
    CHECK_MPI(MPI_Startall(2, both));
    EXPECT(MPI_Start(&s), MPI_ERR_REQUEST, "MPI_Start");
    EXPECT(MPI_Pready(4, s), MPI_ERR_ARG, "MPI_Pready");
    EXPECT(MPI_Pready(-1, s), MPI_ERR_ARG, "MPI_Pready");
    EXPECT(MPI_Pready_range(2, 1, s), MPI_ERR_ARG, "MPI_Pready_range");
    EXPECT(MPI_Pready_range(0, 4, s), MPI_ERR_ARG, "MPI_Pready_range");
    EXPECT(MPI_Pready_list(-1, (const int[]){0}, s), MPI_ERR_ARG, "MPI_Pready_list");
    EXPECT(MPI_Pready_list(2, NULL, s), MPI_ERR_ARG, "MPI_Pready_list");
    /* Rejected lists send nothing: partitions 0 and 1 stay unready. */
    EXPECT(MPI_Pready_list(3, (const int[]){0, 1, 7}, s), MPI_ERR_ARG, "MPI_Pready_list");
    EXPECT(MPI_Pready_list(3, (const int[]){0, 1, 0}, s), MPI_ERR_ARG, "MPI_Pready_list");
    CHECK_MPI(MPI_Parrived(r, 0, &flag));
    CHECK(!flag && rbuf[0] == -1, "a rejected MPI_Pready_list sent a partition");
    CHECK_MPI(MPI_Pready_list(2, (const int[]){1, 0}, s));
    EXPECT(MPI_Pready(1, s), MPI_ERR_ARG, "MPI_Pready");
    EXPECT(MPI_Pready_range(1, 2, s), MPI_ERR_ARG, "MPI_Pready_range");
    /* Send partitions 0-1 are receive partition 0: it is whole, 1 is not. */
    flag = 0;
    while (!flag) CHECK_MPI(MPI_Parrived(r, 0, &flag));
    CHECK_MPI(MPI_Parrived(r, 1, &flag));
    CHECK(!flag, "receive partition 1 arrived before send partitions 2-3 were ready");
    CHECK(rbuf[0] == 100 && rbuf[3] == 103 && rbuf[4] == -1, "partition 0: %d %d %d", rbuf[0],
          rbuf[3], rbuf[4]);
    /* In progress: neither cancel nor free. */
    EXPECT(MPI_Cancel(&s), MPI_ERR_REQUEST, "MPI_Cancel");
    EXPECT(MPI_Cancel(&r), MPI_ERR_REQUEST, "MPI_Cancel");
    EXPECT(MPI_Request_free(&r), MPI_ERR_REQUEST, "MPI_Request_free");
    EXPECT(MPI_Request_free(&s), MPI_ERR_REQUEST, "MPI_Request_free");
    CHECK(s != MPI_REQUEST_NULL && r != MPI_REQUEST_NULL, "a refused free cleared the handle");
    int test = 1;
    CHECK_MPI(MPI_Test(&r, &test, MPI_STATUS_IGNORE));
    CHECK(!test, "the receive completed with half its data");
    CHECK_MPI(MPI_Pready(3, s));
    CHECK_MPI(MPI_Pready(2, s));
    CHECK_MPI(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 8; i++) CHECK(rbuf[i] == 100 + i, "rbuf[%d]=%d", i, rbuf[i]);
    EXPECT(MPI_Pready(0, s), MPI_ERR_REQUEST, "MPI_Pready");
    CHECK_MPI(MPI_Cancel(&s)); /* inactive: nothing to cancel */
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(s == MPI_REQUEST_NULL && r == MPI_REQUEST_NULL, "free left a handle");
    EXPECT(MPI_Pready(0, s), MPI_ERR_REQUEST, "MPI_Pready");

    /* ---- the receive buffer is smaller than what is sent ---- */
    CHECK_MPI(MPI_Psend_init(buf, 2, 4, MPI_INT, 0, 2, S, I, &s));
    CHECK_MPI(MPI_Precv_init(rbuf, 2, 3, MPI_INT, 0, 2, S, I, &r));
    MPI_Request pair[2] = {s, r};
    CHECK_MPI(MPI_Startall(2, pair));
    CHECK_MPI(MPI_Pready_range(0, 1, s));
    MPI_Status st;
    EXPECT(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE, "");
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("part_errors: OK\n");
    MPI_Finalize();
    return 0;
}
