/* Point-to-point errors under MPI_ERRORS_RETURN.
 *  1. Bad arguments: each call returns an error of the right class whose
 *     MPI_Error_string names the call and the bad value.
 *  2. Truncation: a message larger than the receive buffer gives
 *     MPI_ERR_TRUNCATE; the part that fits arrived, nothing after it was
 *     written, MPI_Get_count gives the part; eager and rendezvous sizes,
 *     receive posted first and message first, Wait and Waitall
 *     (MPI_ERR_IN_STATUS), a vector receive type, a zero-count receive.
 *     The sender sees success, and the job goes on normally. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

static int rank, peer, size;

static void tok_send(int tag) { CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD)); }
static void tok_recv(int tag)
{
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* rc must have class 'cls' and its string must contain every given word. */
static void expect_err(int rc, int cls, const char *call, const char *w1, const char *w2)
{
    CHECK(rc != MPI_SUCCESS, "%s returned MPI_SUCCESS, expected class %d", call, cls);
    int c = -1;
    CHECK_MPI(MPI_Error_class(rc, &c));
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_MPI(MPI_Error_string(rc, s, &len));
    CHECK(c == cls, "%s: error class %d, expected %d (message: %s)", call, c, cls, s);
    CHECK(len > 0 && (int)strlen(s) == len, "%s: Error_string length %d for '%s'", call, len, s);
    const char *words[] = {call, w1, w2};
    for (int i = 0; i < 3; i++)
        if (words[i])
            CHECK(strstr(s, words[i]), "%s: the message '%s' does not mention '%s'", call, s,
                  words[i]);
}

static void bad_args(void)
{
    int buf[8] = {0};
    char v[32];
    MPI_Request rq;
    snprintf(v, sizeof v, "dest=%d", size);
    expect_err(MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send", v,
               NULL);
    expect_err(MPI_Send(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send",
               "dest=-5", NULL);
    expect_err(MPI_Isend(buf, 1, MPI_INT, size + 7, 0, MPI_COMM_WORLD, &rq), MPI_ERR_RANK,
               "MPI_Isend", NULL, NULL);
    expect_err(MPI_Ssend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Ssend", NULL,
               NULL);
    snprintf(v, sizeof v, "source=%d", size + 3);
    expect_err(MPI_Recv(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_ERR_RANK, "MPI_Recv", v, NULL);
    expect_err(MPI_Irecv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &rq), MPI_ERR_RANK, "MPI_Irecv",
               NULL, NULL);
    expect_err(MPI_Probe(size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK, "MPI_Probe",
               NULL, NULL);

    expect_err(MPI_Send(buf, 1, MPI_INT, peer, -1, MPI_COMM_WORLD), MPI_ERR_TAG, "MPI_Send",
               "tag=-1", NULL);
    expect_err(MPI_Isend(buf, 1, MPI_INT, peer, -3, MPI_COMM_WORLD, &rq), MPI_ERR_TAG, "MPI_Isend",
               "tag=-3", NULL);
    expect_err(MPI_Recv(buf, 1, MPI_INT, peer, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TAG,
               "MPI_Recv", "tag=-7", NULL);
    int flag;
    expect_err(MPI_Iprobe(peer, -9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE), MPI_ERR_TAG,
               "MPI_Iprobe", "tag=-9", NULL);

    expect_err(MPI_Send(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send",
               "count=-1", NULL);
    expect_err(MPI_Recv(buf, -2, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_ERR_COUNT, "MPI_Recv", "count=-2", NULL);

    expect_err(MPI_Send(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Send",
               "MPI_COMM_NULL", NULL);
    expect_err(MPI_Irecv(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &rq), MPI_ERR_COMM, "MPI_Irecv",
               "MPI_COMM_NULL", NULL);

    expect_err(MPI_Send(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
               "MPI_Send", "datatype", NULL);
    expect_err(MPI_Recv(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_ERR_TYPE, "MPI_Recv", "datatype", NULL);

    expect_err(MPI_Send(NULL, 5, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Send",
               "buf", "count=5");
    expect_err(MPI_Recv(NULL, 3, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_ERR_BUFFER, "MPI_Recv", "buf", NULL);
    expect_err(MPI_Isend(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Isend",
               "request", NULL);

    /* a request handle that was completed and freed, and one never created */
    MPI_Request old;
    CHECK_MPI(MPI_Isend(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq));
    old = rq;
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    snprintf(v, sizeof v, "0x%x", (unsigned)old);
    expect_err(MPI_Wait(&old, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "MPI_Wait", v, NULL);
    MPI_Request junk = (MPI_Request)0x12345678;
    expect_err(MPI_Wait(&junk, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "MPI_Wait", "0x12345678", NULL);
    expect_err(MPI_Test(&junk, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "MPI_Test", NULL, NULL);
    MPI_Request arr[2] = {MPI_REQUEST_NULL, junk};
    int idx;
    expect_err(MPI_Waitany(2, arr, &idx, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "MPI_Waitany",
               "array_of_requests[1]", NULL);
    /* MPI_Start of a request that is not persistent, and of an active one */
    CHECK_MPI(MPI_Irecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq));
    old = rq;
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv_init(buf, 1, MPI_INT, peer, 12345, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Start(&rq));
    expect_err(MPI_Start(&rq), MPI_ERR_REQUEST, "MPI_Start", NULL, NULL);
    CHECK_MPI(MPI_Cancel(&rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&rq));
    /* nothing was sent by the failed calls: anything they sent would come
     * before the peer's message in this exchange */
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, 50, NULL, 0, MPI_BYTE, peer, 50, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    MPI_Status pst;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &pst));
    /* the peer's next message (tag 51) may be there already, nothing else */
    CHECK(!flag || pst.MPI_TAG == 51,
          "a call that failed its argument checks sent a message (tag %d)", pst.MPI_TAG);
    /* the peer may go on only once this side has probed */
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, 51, NULL, 0, MPI_BYTE, peer, 51, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
}

#define GUARDV (-12345)

/* Rank 0 sends 'n' ints (pattern seed) as it is told; rank 1 receives into
 * room for 'cap' ints (+ guard) in the way given and checks. */
enum how { H_RECV_POSTED, H_RECV_UNEXP, H_IRECV_WAIT, H_WAITALL, H_VECTOR };
static const char *how_name[] = {"Recv, posted first", "Recv, message first",
                                 "Issend to Irecv+Wait", "Waitall", "vector"};

static void truncation(int n, int cap, enum how how)
{
    char what[96];
    snprintf(what, sizeof what, "truncation %d ints into %d (%s)", n, cap, how_name[how]);
    int *b = malloc(sizeof(int) * (size_t)(n > 2 * cap + 16 ? n : 2 * cap + 16));
    int tag = 200 + (int)how;
    if (rank == 0) {
        for (int i = 0; i < n; i++) b[i] = pu_int((size_t)i, (unsigned)n);
        if (how != H_RECV_UNEXP) tok_recv(1);
        MPI_Request rq;
        if (how == H_IRECV_WAIT) /* synchronous: truncated, but matched */
            CHECK_MPI(MPI_Issend(b, n, MPI_INT, 1, tag, MPI_COMM_WORLD, &rq));
        else
            CHECK_MPI(MPI_Isend(b, n, MPI_INT, 1, tag, MPI_COMM_WORLD, &rq));
        if (how == H_RECV_UNEXP) tok_send(1);
        MPI_Status st;
        int rc = MPI_Wait(&rq, &st);
        CHECK(rc == MPI_SUCCESS, "%s: the sender got error %d", what, rc);
        if (how == H_WAITALL) CHECK_MPI(MPI_Send(b, 3, MPI_INT, 1, tag + 50, MPI_COMM_WORLD));
        tok_recv(2);
        free(b);
        return;
    }
    int span = how == H_VECTOR ? 2 * cap : cap;
    for (int i = 0; i < span + 16; i++) b[i] = GUARDV;
    MPI_Status st;
    int rc;
    MPI_Datatype vec = MPI_DATATYPE_NULL;
    if (how == H_VECTOR) {
        CHECK_MPI(MPI_Type_vector(cap, 1, 2, MPI_INT, &vec));
        CHECK_MPI(MPI_Type_commit(&vec));
    }
    if (how == H_RECV_UNEXP) {
        tok_recv(1);
        rc = MPI_Recv(b, cap, MPI_INT, 0, tag, MPI_COMM_WORLD, &st);
    } else if (how == H_RECV_POSTED || how == H_IRECV_WAIT || how == H_VECTOR) {
        MPI_Request rq;
        if (how == H_VECTOR)
            CHECK_MPI(MPI_Irecv(b, 1, vec, 0, tag, MPI_COMM_WORLD, &rq));
        else
            CHECK_MPI(MPI_Irecv(b, cap, MPI_INT, 0, tag, MPI_COMM_WORLD, &rq));
        tok_send(1);
        rc = MPI_Wait(&rq, &st);
        CHECK(rq == MPI_REQUEST_NULL, "%s: Wait did not free the failed request", what);
    } else {
        MPI_Request q[2];
        MPI_Status sts[2];
        int small[3];
        CHECK_MPI(MPI_Irecv(b, cap, MPI_INT, 0, tag, MPI_COMM_WORLD, &q[0]));
        CHECK_MPI(MPI_Irecv(small, 3, MPI_INT, 0, tag + 50, MPI_COMM_WORLD, &q[1]));
        tok_send(1);
        rc = MPI_Waitall(2, q, sts);
        CHECK(pu_class(rc) == MPI_ERR_IN_STATUS,
              "%s: Waitall gave class %d, expected MPI_ERR_IN_STATUS", what, pu_class(rc));
        CHECK(q[0] == MPI_REQUEST_NULL && q[1] == MPI_REQUEST_NULL,
              "%s: Waitall did not free the requests", what);
        CHECK(sts[1].MPI_ERROR == MPI_SUCCESS, "%s: the good request has MPI_ERROR %d", what,
              sts[1].MPI_ERROR);
        rc = sts[0].MPI_ERROR;
        st = sts[0];
    }
    CHECK(pu_class(rc) == MPI_ERR_TRUNCATE, "%s: class %d, expected MPI_ERR_TRUNCATE", what,
          pu_class(rc));
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == tag, "%s: status source %d tag %d", what,
          st.MPI_SOURCE, st.MPI_TAG);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == cap, "%s: MPI_Get_count=%d, expected %d", what, count, cap);
    for (int i = 0; i < cap; i++) {
        int got = b[how == H_VECTOR ? 2 * i : i];
        CHECK(got == pu_int((size_t)i, (unsigned)n), "%s: int %d is %d, expected %d", what, i, got,
              pu_int((size_t)i, (unsigned)n));
    }
    if (how == H_VECTOR)
        for (int i = 0; i + 1 < cap; i++)
            CHECK(b[2 * i + 1] == GUARDV, "%s: gap %d was written", what, i);
    for (int i = how == H_VECTOR ? 2 * cap - 1 : cap; i < span + 16; i++)
        CHECK(b[i] == GUARDV, "%s: int %d, past the receive buffer, was written", what, i);
    if (vec != MPI_DATATYPE_NULL) CHECK_MPI(MPI_Type_free(&vec));
    tok_send(2);
    free(b);
}

/* The job goes on: a clean exchange of every size class. */
static void exchange_after(void)
{
    size_t sz[] = {8, 100000, 1 << 20};
    for (int k = 0; k < 3; k++) {
        char *s = malloc(sz[k]), *r = malloc(sz[k]);
        pu_fill_bytes(s, sz[k], 600u + (unsigned)rank);
        MPI_Status st;
        CHECK_MPI(MPI_Sendrecv(s, (int)sz[k], MPI_BYTE, peer, 600, r, (int)sz[k], MPI_BYTE, peer,
                               600, MPI_COMM_WORLD, &st));
        CHECK(pu_check_bytes(r, sz[k], 600u + (unsigned)peer) == (size_t)-1,
              "exchange after errors: %zu B wrong", sz[k]);
        free(s);
        free(r);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "runs on 2 ranks, got %d", size);
    peer = 1 - rank;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    bad_args();

    int big = (1 << 20) / (int)sizeof(int), half = big / 2;
    for (int how = 0; how <= H_VECTOR; how++) {
        truncation(100, 50, (enum how)how);
        truncation(big, half, (enum how)how);
    }
    truncation(big, 0, H_RECV_POSTED);
    truncation(big, 0, H_RECV_UNEXP);
    truncation(10, 0, H_RECV_UNEXP);

    /* a count that is not a whole number of the type */
    if (rank == 0) {
        char c[10] = {0};
        CHECK_MPI(MPI_Send(c, 10, MPI_BYTE, 1, 700, MPI_COMM_WORLD));
    } else {
        int r[5];
        MPI_Status st;
        CHECK_MPI(MPI_Recv(r, 5, MPI_INT, 0, 700, MPI_COMM_WORLD, &st));
        int n = 0;
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
        CHECK(n == MPI_UNDEFINED, "10 bytes as MPI_INT: MPI_Get_count=%d, expected MPI_UNDEFINED",
              n);
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
        CHECK(n == 10, "10 bytes: MPI_Get_count(MPI_BYTE)=%d", n);
    }

    exchange_after();
    MPI_Finalize();
    if (rank == 0) printf("errors: ok\n");
    return 0;
}
