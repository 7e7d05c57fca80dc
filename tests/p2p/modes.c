/* Send modes between two ranks and to self.
 *  A. Ssend is synchronous: an Issend stays incomplete (MPI_Test false,
 *     repeatedly, for 50 ms, and after the receiver probed the message)
 *     until the receiver posts its receive, which it does only when told
 *     to; a standard Isend of a small message completes on its own.
 *  B. Rsend/Irsend with the receives posted first (zero-byte handshake).
 *  C. Bsend/Ibsend: the user's buffer is reusable at once; too small or no
 *     attached buffer gives MPI_ERR_BUFFER (under MPI_ERRORS_RETURN);
 *     space of pending messages is not reused; Buffer_detach gives back
 *     the buffer and waits for the messages to leave.
 *  D. Persistent Send_init/Ssend_init/Bsend_init/Recv_init started 10
 *     times with Start and Startall, the data changing each round.
 *  E. Sendrecv and Sendrecv_replace (contiguous, rendezvous-sized, and a
 *     stride-2 vector).
 *  F. Sends to self: small Send then Recv, large Isend/Recv/Wait, Ssend
 *     with the Irecv posted first, Issend incomplete until the Recv,
 *     Sendrecv to self, MPI_COMM_SELF. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

static int rank, peer;
static size_t big; /* a rendezvous-sized message (bytes) */

static void tok_send(int tag) { CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD)); }
static void tok_recv(int tag)
{
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void expect_bytes(const void *b, size_t n, unsigned seed, const char *what)
{
    size_t bad = pu_check_bytes(b, n, seed);
    CHECK(bad == (size_t)-1, "%s: %zu-byte message wrong at byte %zu", what, n, bad);
}

static void expect_status(const MPI_Status *st, int src, int tag, int bytes, const char *what)
{
    int n = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && n == bytes,
          "%s: status (source %d, tag %d, %d bytes), expected (%d, %d, %d)", what, st->MPI_SOURCE,
          st->MPI_TAG, n, src, tag, bytes);
}

/* Polls MPI_Test for ms milliseconds; returns whether it completed. */
static int test_for(MPI_Request *rq, int ms, int stop_when_done)
{
    double end = MPI_Wtime() + ms / 1000.0;
    int flag = 0;
    do {
        CHECK_MPI(MPI_Test(rq, &flag, MPI_STATUS_IGNORE));
        if (flag && stop_when_done) return 1;
        if (flag) return 1;
    } while (MPI_Wtime() < end);
    return flag;
}

static void part_ssend(void)
{
    char sb[8], rb[8];
    unsigned char *bb = malloc(big);
    for (int sz = 0; sz < 2; sz++) { /* eager-sized, then rendezvous-sized */
        size_t n = sz ? big : sizeof sb;
        void *s = sz ? (void *)bb : (void *)sb;
        int tag = 10 + sz;
        if (rank == 0) {
            pu_fill_bytes(s, n, (unsigned)tag);
            MPI_Request rq;
            CHECK_MPI(MPI_Issend(s, (int)n, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &rq));
            CHECK(!test_for(&rq, 50, 1),
                  "Issend of %zu B completed before the receiver posted its receive", n);
            tok_send(3); /* probe it */
            tok_recv(4); /* probed */
            CHECK(!test_for(&rq, 20, 1),
                  "Issend of %zu B completed after a probe, without a receive", n);
            tok_send(2); /* now receive it */
            CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            CHECK(rq == MPI_REQUEST_NULL, "Issend request not freed");
        } else {
            tok_recv(3);
            MPI_Status st;
            CHECK_MPI(MPI_Probe(0, tag, MPI_COMM_WORLD, &st));
            expect_status(&st, 0, tag, (int)n, "probe of a synchronous send");
            tok_send(4);
            tok_recv(2);
            void *r = sz ? (void *)bb : (void *)rb;
            memset(r, 0, n);
            CHECK_MPI(MPI_Recv(r, (int)n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st));
            expect_status(&st, 0, tag, (int)n, "Ssend");
            expect_bytes(r, n, (unsigned)tag, "Ssend");
        }
    }
    /* A standard Isend of a small message completes with no receive posted. */
    if (rank == 0) {
        pu_fill_bytes(sb, sizeof sb, 12);
        MPI_Request rq;
        CHECK_MPI(MPI_Isend(sb, sizeof sb, MPI_BYTE, 1, 12, MPI_COMM_WORLD, &rq));
        CHECK(test_for(&rq, 2000, 1),
              "a standard Isend of 8 B did not complete in 2 s without a matching receive");
        tok_send(2);
    } else {
        tok_recv(2);
        MPI_Status st;
        CHECK_MPI(MPI_Recv(rb, sizeof rb, MPI_BYTE, 0, 12, MPI_COMM_WORLD, &st));
        expect_bytes(rb, sizeof rb, 12, "Isend");
    }
    /* Blocking Ssend against a receiver that sleeps 100 ms before posting. */
    if (rank == 0) {
        tok_recv(5);
        double t0 = MPI_Wtime();
        pu_fill_bytes(sb, sizeof sb, 13);
        CHECK_MPI(MPI_Ssend(sb, sizeof sb, MPI_BYTE, 1, 13, MPI_COMM_WORLD));
        double dt = MPI_Wtime() - t0;
        (void)dt; /* no timing assertion: the deterministic check is the Issend above */
    } else {
        tok_send(5);
        pu_sleep_ms(100);
        CHECK_MPI(MPI_Recv(rb, sizeof rb, MPI_BYTE, 0, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        expect_bytes(rb, sizeof rb, 13, "Ssend after 100 ms");
    }
    free(bb);
}

static void part_rsend(void)
{
    char sb[100], rb[100];
    unsigned char *bs = malloc(big), *br = malloc(big);
    if (rank == 1) {
        MPI_Request q[2];
        MPI_Status st[2];
        CHECK_MPI(MPI_Irecv(rb, sizeof rb, MPI_BYTE, 0, 20, MPI_COMM_WORLD, &q[0]));
        CHECK_MPI(MPI_Irecv(br, (int)big, MPI_BYTE, 0, 21, MPI_COMM_WORLD, &q[1]));
        tok_send(6);
        CHECK_MPI(MPI_Waitall(2, q, st));
        expect_status(&st[0], 0, 20, sizeof rb, "Rsend");
        expect_status(&st[1], 0, 21, (int)big, "Irsend");
        expect_bytes(rb, sizeof rb, 20, "Rsend");
        expect_bytes(br, big, 21, "Irsend");
    } else {
        pu_fill_bytes(sb, sizeof sb, 20);
        pu_fill_bytes(bs, big, 21);
        tok_recv(6);
        CHECK_MPI(MPI_Rsend(sb, sizeof sb, MPI_BYTE, 1, 20, MPI_COMM_WORLD));
        MPI_Request rq;
        CHECK_MPI(MPI_Irsend(bs, (int)big, MPI_BYTE, 1, 21, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    free(bs);
    free(br);
}

static void part_bsend(void)
{
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    unsigned char *u = malloc(big);
    if (rank == 0) {
        char small[100];
        pu_fill_bytes(small, sizeof small, 1);
        /* no buffer attached */
        int rc = MPI_Bsend(small, sizeof small, MPI_BYTE, 1, 30, MPI_COMM_WORLD);
        CHECK(pu_class(rc) == MPI_ERR_BUFFER,
              "Bsend with no buffer attached: class %d, expected MPI_ERR_BUFFER", pu_class(rc));
        /* too small a buffer */
        int tiny_size = 64; /* smaller than the message itself */
        char *tiny = malloc((size_t)tiny_size);
        CHECK_MPI(MPI_Buffer_attach(tiny, tiny_size));
        rc = MPI_Bsend(small, sizeof small, MPI_BYTE, 1, 30, MPI_COMM_WORLD);
        CHECK(pu_class(rc) == MPI_ERR_BUFFER,
              "Bsend of 100 B into a %d-byte buffer: class %d, expected MPI_ERR_BUFFER", tiny_size,
              pu_class(rc));
        MPI_Request rq = MPI_REQUEST_NULL;
        rc = MPI_Ibsend(small, sizeof small, MPI_BYTE, 1, 30, MPI_COMM_WORLD, &rq);
        CHECK(pu_class(rc) == MPI_ERR_BUFFER,
              "Ibsend of 100 B into a %d-byte buffer: class %d, expected MPI_ERR_BUFFER", tiny_size,
              pu_class(rc));
        void *got;
        int gotsize;
        CHECK_MPI(MPI_Buffer_detach(&got, &gotsize));
        CHECK(got == tiny && gotsize == tiny_size, "Buffer_detach gave %p/%d, attached %p/%d", got,
              gotsize, (void *)tiny, tiny_size);
        free(tiny);

        /* room for exactly one rendezvous-sized message: its space stays taken while it is pending */
        int one = (int)big + MPI_BSEND_OVERHEAD;
        char *ob = malloc((size_t)one);
        CHECK_MPI(MPI_Buffer_attach(ob, one));
        pu_fill_bytes(u, big, 31);
        CHECK_MPI(MPI_Bsend(u, (int)big, MPI_BYTE, 1, 31, MPI_COMM_WORLD));
        memset(u, 0xee, big); /* the user's buffer is free at once */
        rc = MPI_Bsend(u, (int)big, MPI_BYTE, 1, 31, MPI_COMM_WORLD);
        CHECK(pu_class(rc) == MPI_ERR_BUFFER,
              "a second Bsend while the first is pending in a one-message buffer: class %d, "
              "expected MPI_ERR_BUFFER",
              pu_class(rc));
        tok_send(7);
        CHECK_MPI(MPI_Buffer_detach(&got, &gotsize));
        CHECK(got == ob && gotsize == one, "Buffer_detach gave %p/%d", got, gotsize);
        free(ob);

        /* several messages, eager and rendezvous, before the receiver posts anything */
        int room = 4 * (100 + MPI_BSEND_OVERHEAD) + 2 * ((int)big + MPI_BSEND_OVERHEAD);
        char *bb = malloc((size_t)room);
        CHECK_MPI(MPI_Buffer_attach(bb, room));
        for (int i = 0; i < 3; i++) {
            pu_fill_bytes(small, sizeof small, 40u + (unsigned)i);
            CHECK_MPI(MPI_Bsend(small, sizeof small, MPI_BYTE, 1, 40 + i, MPI_COMM_WORLD));
            memset(small, 0, sizeof small);
        }
        pu_fill_bytes(u, big, 43);
        CHECK_MPI(MPI_Bsend(u, (int)big, MPI_BYTE, 1, 43, MPI_COMM_WORLD));
        memset(u, 0, big);
        pu_fill_bytes(u, big, 44);
        CHECK_MPI(MPI_Ibsend(u, (int)big, MPI_BYTE, 1, 44, MPI_COMM_WORLD, &rq));
        int flag = 0;
        CHECK_MPI(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "Ibsend is not complete at the first MPI_Test (it is local)");
        memset(u, 0, big);
        pu_fill_bytes(small, sizeof small, 45);
        CHECK_MPI(MPI_Ibsend(small, sizeof small, MPI_BYTE, 1, 45, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        memset(small, 0, sizeof small);
        tok_send(8);
        CHECK_MPI(MPI_Buffer_detach(&got, &gotsize)); /* waits until they have left */
        CHECK(got == bb && gotsize == room, "Buffer_detach gave %p/%d", got, gotsize);
        free(bb);
    } else {
        MPI_Status st;
        tok_recv(7);
        memset(u, 0, big);
        CHECK_MPI(MPI_Recv(u, (int)big, MPI_BYTE, 0, 31, MPI_COMM_WORLD, &st));
        expect_status(&st, 0, 31, (int)big, "Bsend into a one-message buffer");
        expect_bytes(u, big, 31, "Bsend into a one-message buffer");
        int flag = 1;
        CHECK_MPI(MPI_Iprobe(0, 31, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "the Bsend that failed with MPI_ERR_BUFFER sent a message");

        tok_recv(8);
        char small[100];
        for (int i = 0; i < 3; i++) {
            CHECK_MPI(MPI_Recv(small, sizeof small, MPI_BYTE, 0, 40 + i, MPI_COMM_WORLD, &st));
            expect_status(&st, 0, 40 + i, sizeof small, "Bsend");
            expect_bytes(small, sizeof small, 40u + (unsigned)i, "Bsend");
        }
        CHECK_MPI(MPI_Recv(u, (int)big, MPI_BYTE, 0, 43, MPI_COMM_WORLD, &st));
        expect_bytes(u, big, 43, "Bsend rendezvous-sized");
        CHECK_MPI(MPI_Recv(u, (int)big, MPI_BYTE, 0, 44, MPI_COMM_WORLD, &st));
        expect_bytes(u, big, 44, "Ibsend rendezvous-sized");
        CHECK_MPI(MPI_Recv(small, sizeof small, MPI_BYTE, 0, 45, MPI_COMM_WORLD, &st));
        expect_bytes(small, sizeof small, 45, "Ibsend");
    }
    free(u);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

#define NPERS 4
#define ROUNDS 10
static void part_persistent(void)
{
    size_t sz[NPERS] = {8, big, 100, 1000}; /* Send_init, Send_init, Ssend_init, Bsend_init */
    unsigned char *b[NPERS];
    for (int i = 0; i < NPERS; i++) b[i] = malloc(sz[i]);
    MPI_Request q[NPERS];
    char *bbuf = NULL;
    int bsize = ROUNDS * (1000 + MPI_BSEND_OVERHEAD);
    if (rank == 0) {
        bbuf = malloc((size_t)bsize);
        CHECK_MPI(MPI_Buffer_attach(bbuf, bsize));
        CHECK_MPI(MPI_Send_init(b[0], (int)sz[0], MPI_BYTE, 1, 50, MPI_COMM_WORLD, &q[0]));
        CHECK_MPI(MPI_Send_init(b[1], (int)sz[1], MPI_BYTE, 1, 51, MPI_COMM_WORLD, &q[1]));
        CHECK_MPI(MPI_Ssend_init(b[2], (int)sz[2], MPI_BYTE, 1, 52, MPI_COMM_WORLD, &q[2]));
        CHECK_MPI(MPI_Bsend_init(b[3], (int)sz[3], MPI_BYTE, 1, 53, MPI_COMM_WORLD, &q[3]));
    } else {
        for (int i = 0; i < NPERS; i++)
            CHECK_MPI(MPI_Recv_init(b[i], (int)sz[i], MPI_BYTE, i == 1 ? MPI_ANY_SOURCE : 0,
                                    i == 2 ? MPI_ANY_TAG : 50 + i, MPI_COMM_WORLD, &q[i]));
    }
    for (int round = 0; round < ROUNDS; round++) {
        unsigned seed = 500u + (unsigned)round * 10u;
        if (rank == 0)
            for (int i = 0; i < NPERS; i++) pu_fill_bytes(b[i], sz[i], seed + (unsigned)i);
        else
            for (int i = 0; i < NPERS; i++) memset(b[i], 0, sz[i]);
        if (round % 2 == 0) {
            CHECK_MPI(MPI_Startall(NPERS, q));
        } else {
            for (int i = NPERS - 1; i >= 0; i--) CHECK_MPI(MPI_Start(&q[i]));
        }
        MPI_Status st[NPERS];
        if (round % 3 == 2) {
            for (int i = 0; i < NPERS; i++) CHECK_MPI(MPI_Wait(&q[i], &st[i]));
        } else {
            CHECK_MPI(MPI_Waitall(NPERS, q, st));
        }
        for (int i = 0; i < NPERS; i++)
            CHECK(q[i] != MPI_REQUEST_NULL,
                  "round %d: persistent request %d became MPI_REQUEST_NULL", round, i);
        if (rank == 1) {
            for (int i = 0; i < NPERS; i++) {
                char what[64];
                snprintf(what, sizeof what, "persistent round %d request %d", round, i);
                expect_status(&st[i], 0, 50 + i, (int)sz[i], what);
                expect_bytes(b[i], sz[i], seed + (unsigned)i, what);
            }
        }
        /* an inactive persistent request: Test says complete with an empty status */
        int flag = 0;
        MPI_Status es;
        CHECK_MPI(MPI_Test(&q[0], &flag, &es));
        CHECK(flag && q[0] != MPI_REQUEST_NULL, "Test of an inactive persistent request: flag %d",
              flag);
    }
    for (int i = 0; i < NPERS; i++) {
        CHECK_MPI(MPI_Request_free(&q[i]));
        CHECK(q[i] == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");
    }
    if (rank == 0) {
        void *got;
        int gs;
        CHECK_MPI(MPI_Buffer_detach(&got, &gs));
        free(bbuf);
    }
    for (int i = 0; i < NPERS; i++) free(b[i]);
}

static void part_sendrecv(void)
{
    /* different sizes each way, eager and rendezvous */
    size_t out = rank ? 200 : big, in = rank ? big : 200;
    unsigned char *sb = malloc(big), *rb = malloc(big + 8);
    pu_fill_bytes(sb, out, 60u + (unsigned)rank);
    memset(rb, 0, big + 8);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(sb, (int)out, MPI_BYTE, peer, 60 + rank, rb, (int)big + 8, MPI_BYTE,
                           peer, 60 + peer, MPI_COMM_WORLD, &st));
    expect_status(&st, peer, 60 + peer, (int)in, "Sendrecv");
    expect_bytes(rb, in, 60u + (unsigned)peer, "Sendrecv");
    CHECK_MPI(MPI_Sendrecv(sb, (int)out, MPI_BYTE, peer, 61, rb, (int)big + 8, MPI_BYTE,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    expect_status(&st, peer, 61, (int)in, "Sendrecv with wildcards");

    /* Sendrecv_replace: small and rendezvous-sized contiguous */
    for (int k = 0; k < 2; k++) {
        int n = k ? (int)(big / sizeof(int)) + 3 : 5;
        int *v = malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++) v[i] = pu_int((size_t)i, 70u + (unsigned)rank);
        CHECK_MPI(MPI_Sendrecv_replace(v, n, MPI_INT, peer, 70, peer, 70, MPI_COMM_WORLD, &st));
        int c = -1;
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &c));
        CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 70 && c == n,
              "Sendrecv_replace: status (%d, %d, %d)", st.MPI_SOURCE, st.MPI_TAG, c);
        for (int i = 0; i < n; i++)
            CHECK(v[i] == pu_int((size_t)i, 70u + (unsigned)peer),
                  "Sendrecv_replace of %d ints: wrong at %d", n, i);
        free(v);
    }
    /* Sendrecv_replace with a stride-2 vector at rendezvous size: the gaps stay */
    int n = (int)(big / sizeof(int)) + 1;
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int *v = malloc(sizeof(int) * 2 * (size_t)n);
    for (int i = 0; i < n; i++) {
        v[2 * i] = pu_int((size_t)i, 80u + (unsigned)rank);
        v[2 * i + 1] = -7;
    }
    CHECK_MPI(MPI_Sendrecv_replace(v, 1, vec, peer, 80, MPI_ANY_SOURCE, 80, MPI_COMM_WORLD, &st));
    int c = -1;
    CHECK_MPI(MPI_Get_count(&st, vec, &c));
    CHECK(st.MPI_SOURCE == peer && c == 1, "Sendrecv_replace vector: source %d count %d",
          st.MPI_SOURCE, c);
    for (int i = 0; i < n; i++) {
        CHECK(v[2 * i] == pu_int((size_t)i, 80u + (unsigned)peer),
              "Sendrecv_replace vector: element %d wrong", i);
        CHECK(v[2 * i + 1] == -7, "Sendrecv_replace vector: gap %d written", i);
    }
    free(v);
    CHECK_MPI(MPI_Type_free(&vec));
    free(sb);
    free(rb);
}

static void part_self(void)
{
    MPI_Status st;
    char s[16], r[16];
    /* small: Send completes without a receive, then Recv */
    pu_fill_bytes(s, sizeof s, 90);
    CHECK_MPI(MPI_Send(s, sizeof s, MPI_BYTE, rank, 90, MPI_COMM_WORLD));
    memset(s, 0, sizeof s);
    CHECK_MPI(MPI_Recv(r, sizeof r, MPI_BYTE, rank, 90, MPI_COMM_WORLD, &st));
    expect_status(&st, rank, 90, sizeof r, "small send to self");
    expect_bytes(r, sizeof r, 90, "small send to self");

    /* large: Isend, Recv, Wait */
    unsigned char *bs = malloc(big), *br = malloc(big);
    pu_fill_bytes(bs, big, 91);
    MPI_Request rq, rq2;
    CHECK_MPI(MPI_Isend(bs, (int)big, MPI_BYTE, rank, 91, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Recv(br, (int)big, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_status(&st, rank, 91, (int)big, "large send to self");
    expect_bytes(br, big, 91, "large send to self");

    /* Ssend to self with the Irecv posted first */
    memset(br, 0, big);
    pu_fill_bytes(bs, big, 92);
    CHECK_MPI(MPI_Irecv(br, (int)big, MPI_BYTE, rank, 92, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Ssend(bs, (int)big, MPI_BYTE, rank, 92, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&rq, &st));
    expect_status(&st, rank, 92, (int)big, "Ssend to self");
    expect_bytes(br, big, 92, "Ssend to self");

    /* Issend of a small message to self: incomplete until the receive */
    pu_fill_bytes(s, sizeof s, 93);
    CHECK_MPI(MPI_Issend(s, sizeof s, MPI_BYTE, rank, 93, MPI_COMM_WORLD, &rq));
    CHECK(!test_for(&rq, 10, 1), "Issend to self completed with no receive posted");
    CHECK_MPI(MPI_Recv(r, sizeof r, MPI_BYTE, rank, 93, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_bytes(r, sizeof r, 93, "Issend to self");

    /* Rsend to self, Sendrecv to self (small and large), non-contiguous to self */
    CHECK_MPI(MPI_Irecv(r, sizeof r, MPI_BYTE, rank, 94, MPI_COMM_WORLD, &rq));
    pu_fill_bytes(s, sizeof s, 94);
    CHECK_MPI(MPI_Rsend(s, sizeof s, MPI_BYTE, rank, 94, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&rq, &st));
    expect_bytes(r, sizeof r, 94, "Rsend to self");
    pu_fill_bytes(bs, big, 95);
    CHECK_MPI(MPI_Sendrecv(bs, (int)big, MPI_BYTE, rank, 95, br, (int)big, MPI_BYTE, rank, 95,
                           MPI_COMM_WORLD, &st));
    expect_status(&st, rank, 95, (int)big, "Sendrecv to self");
    expect_bytes(br, big, 95, "Sendrecv to self");

    int vs[20], vr[10];
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(10, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    for (int i = 0; i < 20; i++) vs[i] = i % 2 ? -1 : i * 3;
    CHECK_MPI(MPI_Isend(vs, 1, vec, rank, 96, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Irecv(vr, 10, MPI_INT, rank, 96, MPI_COMM_WORLD, &rq2));
    CHECK_MPI(MPI_Wait(&rq2, &st));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < 10; i++)
        CHECK(vr[i] == i * 6, "vector to self: element %d is %d", i, vr[i]);
    CHECK_MPI(MPI_Type_free(&vec));

    /* MPI_COMM_SELF */
    pu_fill_bytes(s, sizeof s, 97);
    CHECK_MPI(MPI_Send(s, sizeof s, MPI_BYTE, 0, 97, MPI_COMM_SELF));
    CHECK_MPI(MPI_Recv(r, sizeof r, MPI_BYTE, 0, 97, MPI_COMM_SELF, &st));
    expect_status(&st, 0, 97, sizeof r, "MPI_COMM_SELF");
    expect_bytes(r, sizeof r, 97, "MPI_COMM_SELF");
    /* the message on MPI_COMM_SELF does not match on MPI_COMM_WORLD and vice versa */
    CHECK_MPI(MPI_Send(s, sizeof s, MPI_BYTE, 0, 98, MPI_COMM_SELF));
    int flag = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 98, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "a message sent on MPI_COMM_SELF is visible on MPI_COMM_WORLD");
    CHECK_MPI(MPI_Recv(r, sizeof r, MPI_BYTE, 0, 98, MPI_COMM_SELF, &st));
    free(bs);
    free(br);
    /* The wildcard receive above must see only the message to self: the
     * peer sends its closing token (tag 99) only once both are past it. */
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    rank = pu_init_pair(&argc, &argv);
    peer = 1 - rank;
    big = pu_limits().eager * 4 + 1000;
    if (big < (200 << 10)) big = 200 << 10;

    part_ssend();
    part_rsend();
    part_bsend();
    part_persistent();
    part_sendrecv();
    part_self();

    tok_send(99);
    tok_recv(99);
    MPI_Finalize();
    if (rank == 0) printf("modes: ok\n");
    return 0;
}
