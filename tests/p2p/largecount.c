/* The large-count (_c) point-to-point calls move the same data as their int
 * forms; with argument "big", one MPI_Send_c/MPI_Recv_c of 2^31 + 8 bytes
 * (a count no int holds) between ranks 0 and 1. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "tern_test.h"

#define N 37

static int rank, size;

static void fill(int *a, int n, int seed)
{
    for (int i = 0; i < n; i++) a[i] = seed * 1000 + i;
}

static void expect(const int *a, int n, int seed, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(a[i] == seed * 1000 + i, "%s: [%d]=%d, want %d", what, i, a[i], seed * 1000 + i);
}

static void expect_status(const MPI_Status *st, int src, int tag, MPI_Count n)
{
    MPI_Count c = -1;
    int ci = -1;
    CHECK_MPI(MPI_Get_count_c(st, MPI_INT, &c));
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &ci));
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && c == n && ci == n,
          "status source %d tag %d count %ld/%d, want %d %d %ld", st->MPI_SOURCE, st->MPI_TAG,
          (long)c, ci, src, tag, (long)n);
}

/* Rank 0 sends with each mode in both forms, rank 1 receives with the
 * receive calls in both forms; tags tell the messages apart. */
static void modes(void)
{
    int buf[N];
    MPI_Status st;
    MPI_Request rq;
    static char bsbuf[16 * (N * sizeof(int) + MPI_BSEND_OVERHEAD)];
    CHECK_MPI(MPI_Buffer_attach_c(bsbuf, (MPI_Count)sizeof bsbuf));
    int tag = 0;
    if (rank == 0) {
        fill(buf, N, 1);
        CHECK_MPI(MPI_Send_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Ssend_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Bsend_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Isend_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Issend_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Ibsend_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        MPI_Request ps[3];
        CHECK_MPI(MPI_Send_init_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &ps[0]));
        CHECK_MPI(MPI_Ssend_init_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &ps[1]));
        CHECK_MPI(MPI_Bsend_init_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &ps[2]));
        for (int i = 0; i < 3; i++) {
            CHECK_MPI(MPI_Start(&ps[i]));
            CHECK_MPI(MPI_Wait(&ps[i], MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Request_free(&ps[i]));
        }
        /* ready mode: the receiver posted before the barrier */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Rsend_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Irsend_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Rsend_init_c(buf, N, MPI_INT, 1, tag++, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Start(&rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Request_free(&rq));
    } else if (rank == 1) {
        for (int k = 0; k < 10; k++) {
            memset(buf, 0, sizeof buf);
            if (k % 3 == 0) {
                CHECK_MPI(MPI_Recv_c(buf, N, MPI_INT, 0, tag, MPI_COMM_WORLD, &st));
            } else if (k % 3 == 1) {
                CHECK_MPI(MPI_Irecv_c(buf, N, MPI_INT, 0, tag, MPI_COMM_WORLD, &rq));
                CHECK_MPI(MPI_Wait(&rq, &st));
            } else {
                CHECK_MPI(MPI_Recv_init_c(buf, N, MPI_INT, 0, tag, MPI_COMM_WORLD, &rq));
                CHECK_MPI(MPI_Start(&rq));
                CHECK_MPI(MPI_Wait(&rq, &st));
                CHECK_MPI(MPI_Request_free(&rq));
            }
            expect(buf, N, 1, "send modes");
            expect_status(&st, 0, tag, N);
            tag++;
        }
        int rbuf[3][N];
        MPI_Request rr[3];
        for (int k = 0; k < 3; k++)
            CHECK_MPI(MPI_Irecv_c(rbuf[k], N, MPI_INT, 0, tag + k, MPI_COMM_WORLD, &rr[k]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Waitall(3, rr, MPI_STATUSES_IGNORE));
        for (int k = 0; k < 3; k++) expect(rbuf[k], N, 1, "ready modes");
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    void *addr;
    MPI_Count sz;
    CHECK_MPI(MPI_Buffer_detach_c(&addr, &sz));
    CHECK(addr == bsbuf && sz == (MPI_Count)sizeof bsbuf, "detach_c gave %p %ld", addr, (long)sz);
}

/* Matched probes and their receives in both forms. */
static void mprobe(void)
{
    int buf[N];
    if (rank == 0) {
        fill(buf, N, 2);
        CHECK_MPI(MPI_Send(buf, N, MPI_INT, 1, 50, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(buf, N - 1, MPI_INT, 1, 51, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Message m;
        MPI_Status st;
        MPI_Request rq;
        CHECK_MPI(MPI_Mprobe(0, 50, MPI_COMM_WORLD, &m, &st));
        CHECK_MPI(MPI_Mrecv_c(buf, N, MPI_INT, &m, &st));
        expect(buf, N, 2, "Mrecv_c");
        expect_status(&st, 0, 50, N);
        CHECK(m == MPI_MESSAGE_NULL, "message not consumed");
        CHECK_MPI(MPI_Mprobe(0, 51, MPI_COMM_WORLD, &m, &st));
        CHECK_MPI(MPI_Imrecv_c(buf, N, MPI_INT, &m, &rq));
        CHECK_MPI(MPI_Wait(&rq, &st));
        expect(buf, N - 1, 2, "Imrecv_c");
        expect_status(&st, 0, 51, N - 1);
    }
}

/* A ring shift with every sendrecv form; the results must agree. */
static void sendrecv(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int s[N], r[N];
    MPI_Status st;
    MPI_Request rq;
    fill(s, N, rank);
    for (int form = 0; form < 8; form++) {
        memset(r, 0, sizeof r);
        int tag = 60 + form;
        switch (form) {
        case 0:
            CHECK_MPI(MPI_Sendrecv(s, N, MPI_INT, right, tag, r, N, MPI_INT, left, tag,
                                   MPI_COMM_WORLD, &st));
            break;
        case 1:
            CHECK_MPI(MPI_Sendrecv_c(s, N, MPI_INT, right, tag, r, N, MPI_INT, left, tag,
                                     MPI_COMM_WORLD, &st));
            break;
        case 2:
            CHECK_MPI(MPI_Isendrecv(s, N, MPI_INT, right, tag, r, N, MPI_INT, left, tag,
                                    MPI_COMM_WORLD, &rq));
            CHECK_MPI(MPI_Wait(&rq, &st));
            break;
        case 3: {
            CHECK_MPI(MPI_Isendrecv_c(s, N, MPI_INT, right, tag, r, N, MPI_INT, left, tag,
                                      MPI_COMM_WORLD, &rq));
            int flag = 0;
            while (!flag) CHECK_MPI(MPI_Test(&rq, &flag, &st));
            break;
        }
        default:
            memcpy(r, s, sizeof r);
            if (form == 4)
                CHECK_MPI(MPI_Sendrecv_replace(r, N, MPI_INT, right, tag, left, tag, MPI_COMM_WORLD,
                                               &st));
            if (form == 5)
                CHECK_MPI(MPI_Sendrecv_replace_c(r, N, MPI_INT, right, tag, left, tag,
                                                 MPI_COMM_WORLD, &st));
            if (form == 6) {
                CHECK_MPI(MPI_Isendrecv_replace(r, N, MPI_INT, right, tag, left, tag,
                                                MPI_COMM_WORLD, &rq));
                CHECK_MPI(MPI_Wait(&rq, &st));
            }
            if (form == 7) {
                CHECK_MPI(MPI_Isendrecv_replace_c(r, N, MPI_INT, right, tag, left, tag,
                                                  MPI_COMM_WORLD, &rq));
                CHECK_MPI(MPI_Waitall(1, &rq, &st));
            }
        }
        expect(r, N, left, "sendrecv forms");
        expect_status(&st, left, tag, N);
    }
    /* MPI_PROC_NULL on both sides completes at once with an empty status. */
    CHECK_MPI(MPI_Isendrecv(s, N, MPI_INT, MPI_PROC_NULL, 0, r, N, MPI_INT, MPI_PROC_NULL, 0,
                            MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL source %d", st.MPI_SOURCE);
    /* Freed before completion: the library completes and reaps it. */
    CHECK_MPI(
        MPI_Isendrecv(s, N, MPI_INT, right, 70, r, N, MPI_INT, left, 70, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Request_free(&rq));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* Errors name the call. */
    int rc = MPI_Isendrecv_c(s, -1, MPI_INT, right, 0, r, N, MPI_INT, left, 0, MPI_COMM_WORLD, &rq);
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "negative count gave class %d", cls);
    rc = MPI_Send_c(s, (MPI_Count)-5, MPI_INT, right, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "MPI_Send_c negative count gave class %d", cls);
}

/* MPI-4.1 Request_get_status_all/any/some report without freeing. */
static void peek(void)
{
    int a = 0, b = 5, flag = -1, idx = -1, outc = -1, indices[2];
    MPI_Request rq[2];
    MPI_Status st[2];
    CHECK_MPI(MPI_Irecv(&a, 1, MPI_INT, rank, 80, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Request_get_status_any(1, rq, &idx, &flag, &st[0]));
    CHECK(flag == 0 && idx == MPI_UNDEFINED, "any before the send: flag %d index %d", flag, idx);
    CHECK_MPI(MPI_Request_get_status_all(1, rq, &flag, st));
    CHECK(flag == 0, "all before the send: flag %d", flag);
    CHECK_MPI(MPI_Request_get_status_some(1, rq, &outc, indices, st));
    CHECK(outc == 0, "some before the send: %d", outc);
    CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, rank, 80, MPI_COMM_WORLD, &rq[1]));
    flag = 0;
    while (!flag) CHECK_MPI(MPI_Request_get_status_all(2, rq, &flag, st));
    CHECK(st[0].MPI_SOURCE == rank && st[0].MPI_TAG == 80 && a == 5, "all: source %d tag %d a %d",
          st[0].MPI_SOURCE, st[0].MPI_TAG, a);
    CHECK_MPI(MPI_Request_get_status_any(2, rq, &idx, &flag, &st[0]));
    CHECK(flag == 1 && idx == 0 && st[0].MPI_TAG == 80, "any: flag %d index %d", flag, idx);
    CHECK_MPI(MPI_Request_get_status_some(2, rq, &outc, indices, st));
    CHECK(outc == 2 && indices[0] == 0 && indices[1] == 1, "some: %d", outc);
    CHECK(rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL, "the requests were freed");
    CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Request_get_status_some(2, rq, &outc, indices, st));
    CHECK(outc == MPI_UNDEFINED, "some of null requests: %d", outc);
    CHECK_MPI(MPI_Request_get_status_any(2, rq, &idx, &flag, &st[0]));
    CHECK(flag == 1 && idx == MPI_UNDEFINED, "any of null requests: flag %d index %d", flag, idx);
}

/* 2^31 + 8 bytes: the count itself does not fit in an int. */
static void big(void)
{
    const MPI_Count n = ((MPI_Count)1 << 31) + 8;
    if (rank > 1) return;
    unsigned char *b = malloc((size_t)n);
    CHECK(b != NULL, "cannot allocate %ld bytes", (long)n);
    MPI_Status st;
    if (rank == 0) {
        for (MPI_Count i = 0; i < n; i += 4096) b[i] = (unsigned char)(i >> 12);
        b[n - 1] = 0xa5;
        CHECK_MPI(MPI_Send_c(b, n, MPI_BYTE, 1, 9, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Recv_c(b, n, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &st));
        MPI_Count got = 0;
        int gi = 0;
        CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &got));
        CHECK(got == n, "received %ld bytes, want %ld", (long)got, (long)n);
        MPI_Get_count(&st, MPI_BYTE, &gi);
        CHECK(gi == MPI_UNDEFINED, "MPI_Get_count of a count beyond int gave %d", gi);
        for (MPI_Count i = 0; i < n; i += 4096)
            CHECK(b[i] == (unsigned char)(i >> 12), "byte %ld is %d", (long)i, b[i]);
        CHECK(b[n - 1] == 0xa5, "last byte %d", b[n - 1]);
    }
    free(b);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 2, "needs 2 ranks");
    if (argc > 1 && strcmp(argv[1], "big") == 0) {
        big();
    } else {
        modes();
        mprobe();
        sendrecv();
        peek();
    }
    MPI_Finalize();
    if (rank == 0) printf("largecount OK\n");
    return 0;
}
