/* Completing requests, between two ranks.
 *  1. 16 Irecvs with different tags (eager and rendezvous sizes), the
 *     sender sends in a shuffled order; completed with Waitany, Waitsome,
 *     Testany, Testsome and Testall polling loops, and Waitall with
 *     MPI_STATUSES_IGNORE: indices, statuses and data checked, every handle
 *     becomes MPI_REQUEST_NULL, and the calls on all-null arrays answer
 *     MPI_UNDEFINED / flag true.
 *  2. 10,000 outstanding 8-byte messages: sent before any receive is
 *     posted, then the reverse (10,000 receives posted first).
 *  3. MPI_Cancel of a receive that never matches (Test_cancelled true) and
 *     of one that has matched (false, data there).  (Cancelling sends:
 *     cancel_send.c.)
 *  4. MPI_Request_free of active sends (eager and rendezvous): the data
 *     still arrives and the program finishes.
 *  5. MPI_Request_get_status leaves the request usable.
 *  6. MPI_Wait/MPI_Test on MPI_REQUEST_NULL give an empty status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

#define NR 16
#define NMANY 10000

static int rank, peer;
static size_t big;

static void tok_send(int tag) { CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD)); }
static void tok_recv(int tag)
{
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static size_t msg_size(int i) { return i % 4 == 3 ? big + (size_t)i : 8 + 16 * (size_t)i; }

static void check_empty(const MPI_Status *st, const char *what)
{
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE, "%s: empty status source %d, expected MPI_ANY_SOURCE",
          what, st->MPI_SOURCE);
    CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: empty status tag %d, expected MPI_ANY_TAG", what,
          st->MPI_TAG);
    int n = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
    CHECK(n == 0, "%s: empty status count %d", what, n);
    int c = 1;
    CHECK_MPI(MPI_Test_cancelled(st, &c));
    CHECK(!c, "%s: empty status says cancelled", what);
}

enum method { M_WAITANY, M_WAITSOME, M_TESTANY, M_TESTSOME, M_TESTALL, M_WAITALL, M_N };
static const char *method_name[] = {"Waitany",  "Waitsome", "Testany",
                                    "Testsome", "Testall",  "Waitall"};

static void check_one(unsigned char **bufs, const MPI_Status *st, int i, int *seen,
                      const char *what)
{
    CHECK(i >= 0 && i < NR, "%s: index %d out of range", what, i);
    CHECK(!seen[i], "%s: index %d completed twice", what, i);
    seen[i] = 1;
    if (st) {
        int n = -1;
        CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
        CHECK(st->MPI_SOURCE == 0 && st->MPI_TAG == 100 + i && n == (int)msg_size(i),
              "%s: index %d status (source %d, tag %d, %d B), expected (0, %d, %zu)", what, i,
              st->MPI_SOURCE, st->MPI_TAG, n, 100 + i, msg_size(i));
    }
    size_t bad = pu_check_bytes(bufs[i], msg_size(i), 100u + (unsigned)i);
    CHECK(bad == (size_t)-1, "%s: message %d wrong at byte %zu", what, i, bad);
}

static void part_any_order(void)
{
    unsigned char *bufs[NR];
    for (int i = 0; i < NR; i++) bufs[i] = malloc(msg_size(i));
    int order[NR];
    for (int m = 0; m < M_N; m++) {
        const char *what = method_name[m];
        if (rank == 0) {
            /* a shuffled order, different for every method */
            for (int i = 0; i < NR; i++) order[i] = i;
            unsigned x = 12345u + (unsigned)m * 77u;
            for (int i = NR - 1; i > 0; i--) {
                x = x * 1103515245u + 12345u;
                int j = (int)((x >> 16) % (unsigned)(i + 1));
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int i = 0; i < NR; i++) pu_fill_bytes(bufs[i], msg_size(i), 100u + (unsigned)i);
            if (m % 2) tok_recv(1); /* odd methods: all receives are posted first */
            MPI_Request sq[NR];
            for (int k = 0; k < NR; k++) {
                int i = order[k];
                CHECK_MPI(MPI_Isend(bufs[i], (int)msg_size(i), MPI_BYTE, 1, 100 + i, MPI_COMM_WORLD,
                                    &sq[k]));
            }
            CHECK_MPI(MPI_Waitall(NR, sq, MPI_STATUSES_IGNORE));
            for (int k = 0; k < NR; k++)
                CHECK(sq[k] == MPI_REQUEST_NULL, "Waitall left send request %d", k);
            tok_recv(2);
            continue;
        }
        MPI_Request q[NR];
        MPI_Status sts[NR];
        /* a successful multiple-completion call leaves MPI_ERROR alone */
        for (int k = 0; k < NR; k++) sts[k].MPI_ERROR = -1;
        int idx[NR], seen[NR] = {0}, done = 0;
        for (int i = 0; i < NR; i++) memset(bufs[i], 0, msg_size(i));
        for (int i = 0; i < NR; i++)
            CHECK_MPI(
                MPI_Irecv(bufs[i], (int)msg_size(i), MPI_BYTE, 0, 100 + i, MPI_COMM_WORLD, &q[i]));
        if (m % 2) tok_send(1);
        switch (m) {
        case M_WAITANY:
            for (int k = 0; k < NR; k++) {
                int i = -1;
                MPI_Status st;
                CHECK_MPI(MPI_Waitany(NR, q, &i, &st));
                CHECK(i >= 0 && q[i] == MPI_REQUEST_NULL, "Waitany: index %d, handle not freed", i);
                check_one(bufs, &st, i, seen, what);
            }
            break;
        case M_WAITSOME:
            while (done < NR) {
                int out = -1;
                CHECK_MPI(MPI_Waitsome(NR, q, &out, idx, sts));
                CHECK(out >= 1 && out <= NR - done, "Waitsome: outcount %d with %d left", out,
                      NR - done);
                for (int k = 0; k < out; k++) {
                    CHECK(q[idx[k]] == MPI_REQUEST_NULL, "Waitsome: handle %d not freed", idx[k]);
                    CHECK(sts[k].MPI_ERROR == -1, "Waitsome: status %d MPI_ERROR %d", k,
                          sts[k].MPI_ERROR);
                    check_one(bufs, &sts[k], idx[k], seen, what);
                }
                done += out;
            }
            break;
        case M_TESTANY:
            while (done < NR) {
                int i = -1, flag = 0;
                MPI_Status st;
                CHECK_MPI(MPI_Testany(NR, q, &i, &flag, &st));
                if (!flag) {
                    CHECK(i == MPI_UNDEFINED, "Testany: flag false but index %d", i);
                    continue;
                }
                CHECK(i >= 0 && q[i] == MPI_REQUEST_NULL, "Testany: index %d, handle not freed", i);
                check_one(bufs, &st, i, seen, what);
                done++;
            }
            break;
        case M_TESTSOME:
            while (done < NR) {
                int out = -1;
                CHECK_MPI(MPI_Testsome(NR, q, &out, idx, sts));
                CHECK(out >= 0 && out <= NR - done, "Testsome: outcount %d with %d left", out,
                      NR - done);
                for (int k = 0; k < out; k++) {
                    CHECK(q[idx[k]] == MPI_REQUEST_NULL, "Testsome: handle %d not freed", idx[k]);
                    check_one(bufs, &sts[k], idx[k], seen, what);
                }
                done += out;
            }
            break;
        case M_TESTALL: {
            int flag = 0;
            while (!flag) {
                CHECK_MPI(MPI_Testall(NR, q, &flag, sts));
                if (!flag)
                    for (int i = 0; i < NR; i++)
                        CHECK(q[i] != MPI_REQUEST_NULL, "Testall false but freed %d", i);
            }
            for (int i = 0; i < NR; i++) {
                CHECK(q[i] == MPI_REQUEST_NULL, "Testall: handle %d not freed", i);
                check_one(bufs, &sts[i], i, seen, what);
            }
            break;
        }
        case M_WAITALL:
            CHECK_MPI(MPI_Waitall(NR, q, MPI_STATUSES_IGNORE));
            for (int i = 0; i < NR; i++) {
                CHECK(q[i] == MPI_REQUEST_NULL, "Waitall: handle %d not freed", i);
                check_one(bufs, NULL, i, seen, what);
            }
            break;
        }
        /* all-null arrays */
        int i = 0, flag = 0, out = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Waitany(NR, q, &i, &st));
        CHECK(i == MPI_UNDEFINED, "%s: Waitany on all-null requests: index %d", what, i);
        check_empty(&st, "Waitany on all-null requests");
        CHECK_MPI(MPI_Testany(NR, q, &i, &flag, &st));
        CHECK(flag && i == MPI_UNDEFINED, "Testany on all-null: flag %d index %d", flag, i);
        CHECK_MPI(MPI_Waitsome(NR, q, &out, idx, sts));
        CHECK(out == MPI_UNDEFINED, "Waitsome on all-null: outcount %d", out);
        CHECK_MPI(MPI_Testsome(NR, q, &out, idx, sts));
        CHECK(out == MPI_UNDEFINED, "Testsome on all-null: outcount %d", out);
        flag = 0;
        CHECK_MPI(MPI_Testall(NR, q, &flag, sts));
        CHECK(flag, "Testall on all-null: flag false");
        check_empty(&sts[5], "Testall on all-null");
        tok_send(2);
    }
    for (int i = 0; i < NR; i++) free(bufs[i]);
}

static void part_many(void)
{
    long long *v = malloc(sizeof(long long) * NMANY);
    MPI_Request *q = malloc(sizeof(MPI_Request) * NMANY);
    for (int dir = 0; dir < 2; dir++) {
        /* dir 0: all sends before any receive; dir 1: all receives first */
        if (rank == 0) {
            if (dir == 1) tok_recv(3);
            for (int i = 0; i < NMANY; i++) {
                v[i] = (long long)i * 1000003LL + dir;
                CHECK_MPI(
                    MPI_Isend(&v[i], 1, MPI_LONG_LONG, 1, 1000 + i % 100, MPI_COMM_WORLD, &q[i]));
            }
            if (dir == 0) tok_send(3); /* follows the 10,000 messages */
            CHECK_MPI(MPI_Waitall(NMANY, q, MPI_STATUSES_IGNORE));
        } else {
            if (dir == 0) tok_recv(3); /* every message has arrived, none was matched */
            for (int i = 0; i < NMANY; i++) {
                v[i] = -1;
                CHECK_MPI(
                    MPI_Irecv(&v[i], 1, MPI_LONG_LONG, 0, 1000 + i % 100, MPI_COMM_WORLD, &q[i]));
            }
            if (dir == 1) tok_send(3);
            CHECK_MPI(MPI_Waitall(NMANY, q, MPI_STATUSES_IGNORE));
            for (int i = 0; i < NMANY; i++)
                CHECK(v[i] == (long long)i * 1000003LL + dir, "%s: message %d holds %lld",
                      dir ? "receives first" : "sends first", i, v[i]);
        }
    }
    free(v);
    free(q);
}

static void part_cancel(void)
{
    if (rank == 1) {
        int x = -1, y = -1;
        MPI_Request rq;
        MPI_Status st;
        int flag = 1;
        /* never matches */
        CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, 0, 999, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Cancel(&rq));
        CHECK_MPI(MPI_Wait(&rq, &st));
        CHECK(rq == MPI_REQUEST_NULL, "Wait on a cancelled receive did not free it");
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(flag, "Test_cancelled false for a cancelled receive that never matched");
        CHECK(x == -1, "a cancelled receive wrote its buffer");
        /* the same with Test and ANY_SOURCE */
        CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Cancel(&rq));
        flag = 0;
        while (!flag) CHECK_MPI(MPI_Test(&rq, &flag, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(flag, "Test_cancelled false for a cancelled ANY_SOURCE receive");
        /* matched before the cancel: the cancel fails, the data is there */
        CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &rq));
        tok_send(4);
        flag = 0;
        while (!flag) CHECK_MPI(MPI_Request_get_status(rq, &flag, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Cancel(&rq));
        CHECK_MPI(MPI_Wait(&rq, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(!flag, "Test_cancelled true for a receive that had matched");
        CHECK(y == 4242 && st.MPI_SOURCE == 0 && st.MPI_TAG == 7,
              "matched receive: %d from %d tag %d", y, st.MPI_SOURCE, st.MPI_TAG);
        /* nothing is left: the cancelled receives did not eat a message */
        tok_send(5);
    } else {
        int v = 4242;
        tok_recv(4);
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD));
        tok_recv(5);
    }
}

static void part_request_free(void)
{
    unsigned char *b = malloc(big);
    char small[40];
    if (rank == 0) {
        MPI_Request rq;
        pu_fill_bytes(b, big, 77);
        pu_fill_bytes(small, sizeof small, 78);
        CHECK_MPI(MPI_Isend(b, (int)big, MPI_BYTE, 1, 77, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Request_free(&rq));
        CHECK(rq == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");
        CHECK_MPI(MPI_Isend(small, sizeof small, MPI_BYTE, 1, 78, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Request_free(&rq));
        tok_recv(6); /* the receiver has both: the buffers may go */
    } else {
        pu_sleep_ms(30); /* the sends are freed while still active */
        MPI_Status st;
        memset(b, 0, big);
        CHECK_MPI(MPI_Recv(b, (int)big, MPI_BYTE, 0, 77, MPI_COMM_WORLD, &st));
        CHECK(pu_check_bytes(b, big, 77) == (size_t)-1, "freed rendezvous send: wrong data");
        CHECK_MPI(MPI_Recv(small, sizeof small, MPI_BYTE, 0, 78, MPI_COMM_WORLD, &st));
        CHECK(pu_check_bytes(small, sizeof small, 78) == (size_t)-1,
              "freed eager send: wrong data");
        tok_send(6);
    }
    free(b);
}

static void part_get_status(void)
{
    unsigned char *b = malloc(big);
    MPI_Request rq;
    MPI_Status st, st2;
    int flag = 0;
    if (rank == 1) {
        memset(b, 0, big);
        CHECK_MPI(
            MPI_Irecv(b, (int)big, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Request_get_status(rq, &flag, &st));
        CHECK(!flag, "Request_get_status: complete before anything was sent");
        tok_send(8);
        while (!flag) CHECK_MPI(MPI_Request_get_status(rq, &flag, &st));
        CHECK(rq != MPI_REQUEST_NULL, "Request_get_status freed the request");
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 88, "Request_get_status: source %d tag %d",
              st.MPI_SOURCE, st.MPI_TAG);
        CHECK_MPI(MPI_Request_get_status(rq, &flag, &st));
        CHECK(flag, "Request_get_status: a second call says incomplete");
        memset(&st2, 0, sizeof st2);
        CHECK_MPI(MPI_Wait(&rq, &st2));
        CHECK(rq == MPI_REQUEST_NULL, "Wait after Request_get_status did not free the request");
        int n = -1;
        CHECK_MPI(MPI_Get_count(&st2, MPI_BYTE, &n));
        CHECK(st2.MPI_SOURCE == 0 && st2.MPI_TAG == 88 && n == (int)big,
              "Wait after get_status: (%d, %d, %d)", st2.MPI_SOURCE, st2.MPI_TAG, n);
        CHECK(pu_check_bytes(b, big, 88) == (size_t)-1, "Request_get_status: wrong data");
    } else {
        pu_fill_bytes(b, big, 88);
        tok_recv(8);
        CHECK_MPI(MPI_Isend(b, (int)big, MPI_BYTE, 1, 88, MPI_COMM_WORLD, &rq));
        while (!flag) CHECK_MPI(MPI_Request_get_status(rq, &flag, MPI_STATUS_IGNORE));
        CHECK(rq != MPI_REQUEST_NULL, "Request_get_status freed the send request");
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(rq == MPI_REQUEST_NULL, "Wait did not free the send request");
    }
    /* the null request */
    rq = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Request_get_status(rq, &flag, &st));
    CHECK(flag, "Request_get_status(MPI_REQUEST_NULL): flag false");
    check_empty(&st, "Request_get_status(MPI_REQUEST_NULL)");
    free(b);
}

static void part_null(void)
{
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Status st;
    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Wait(&rq, &st));
    check_empty(&st, "Wait(MPI_REQUEST_NULL)");
    CHECK(rq == MPI_REQUEST_NULL, "Wait changed MPI_REQUEST_NULL");
    int flag = 0;
    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Test(&rq, &flag, &st));
    CHECK(flag, "Test(MPI_REQUEST_NULL): flag false");
    check_empty(&st, "Test(MPI_REQUEST_NULL)");
    CHECK_MPI(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
    int i = 0;
    CHECK_MPI(MPI_Waitany(0, NULL, &i, MPI_STATUS_IGNORE));
    CHECK(i == MPI_UNDEFINED, "Waitany of 0 requests: index %d", i);
}

int main(int argc, char **argv)
{
    rank = pu_init_pair(&argc, &argv);
    peer = 1 - rank;
    big = pu_limits().eager + 5000;

    part_null();
    part_any_order();
    part_many();
    part_cancel();
    part_request_free();
    part_get_status();

    tok_send(99);
    tok_recv(99);
    MPI_Finalize();
    if (rank == 0) printf("requests: ok\n");
    return 0;
}
