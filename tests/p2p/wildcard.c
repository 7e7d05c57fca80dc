/* Wildcard receives and probes, with every other rank sending to rank 0.
 *  1. MPI_ANY_SOURCE/MPI_ANY_TAG: every (source, seq) arrives exactly once,
 *     in per-source order, with the right status source, tag and count;
 *     a few messages per source are rendezvous-sized; rank 0 also sends
 *     to itself.
 *  2. Probe and Iprobe, then Recv from the probed source and tag with a
 *     buffer sized from the probed count.
 *  3. Mprobe/Mrecv and Improbe/Imrecv: the message handle binds one message
 *     (a second message with the same source and tag is probed next, and
 *     they are received in the opposite order), eager and rendezvous.
 *  4. MPI_PROC_NULL: sends, receives, probes and matched probes complete at
 *     once with source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

#define PER_SRC 40

static size_t big_size(void) { return pu_limits().eager + 4096; }

/* Message seq from src: tag, size (ints), content. */
static int msg_tag(int src, int seq) { return (src * 7 + seq) % 5; }
static int msg_ints(int src, int seq)
{
    return seq % 10 == 9 ? (int)(big_size() / sizeof(int)) : 2 + (src + seq) % 6;
}
static void msg_fill(int *b, int src, int seq)
{
    int n = msg_ints(src, seq);
    b[0] = src;
    b[1] = seq;
    for (int i = 2; i < n; i++) b[i] = pu_int((size_t)i, (unsigned)(src * 1000 + seq));
}
static void msg_check(const int *b, int n, int src, int seq, const char *what)
{
    CHECK(n == msg_ints(src, seq), "%s: message %d from %d has %d ints, expected %d", what, seq,
          src, n, msg_ints(src, seq));
    CHECK(b[0] == src && b[1] == seq, "%s: message says (src %d, seq %d), expected (%d, %d)", what,
          b[0], b[1], src, seq);
    for (int i = 2; i < n; i++)
        CHECK(b[i] == pu_int((size_t)i, (unsigned)(src * 1000 + seq)),
              "%s: message %d from %d wrong at int %d", what, seq, src, i);
}

/* Rank 0 lets everyone go on to the next section. */
static void go_from_root(int rank, int size)
{
    if (rank == 0)
        for (int s = 1; s < size; s++) CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, s, 8, MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* Probe section: message 1 of odd ranks is rendezvous-sized (content seq 9). */
static int probe_content_seq(int src, int seq) { return seq == 1 && src % 2 ? 9 : seq; }

static void check_proc_null_status(const MPI_Status *st, const char *what)
{
    CHECK(st->MPI_SOURCE == MPI_PROC_NULL, "%s: status.MPI_SOURCE=%d, expected MPI_PROC_NULL", what,
          st->MPI_SOURCE);
    CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: status.MPI_TAG=%d, expected MPI_ANY_TAG", what,
          st->MPI_TAG);
    int count = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK(count == 0, "%s: count=%d, expected 0", what, count);
}

static void proc_null(void)
{
    int buf[4] = {1, 2, 3, 4};
    MPI_Status st;
    MPI_Request rq;
    CHECK_MPI(MPI_Send(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ssend(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Isend(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK(rq == MPI_REQUEST_NULL, "Isend to MPI_PROC_NULL: request not freed by Wait");

    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, "Recv from MPI_PROC_NULL");
    CHECK(buf[0] == 1 && buf[3] == 4, "Recv from MPI_PROC_NULL changed the buffer");

    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &rq));
    int flag = 0;
    CHECK_MPI(MPI_Test(&rq, &flag, &st));
    CHECK(flag, "Irecv from MPI_PROC_NULL is not complete at the first MPI_Test");
    check_proc_null_status(&st, "Irecv from MPI_PROC_NULL");

    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, "Probe of MPI_PROC_NULL");

    memset(&st, 0x5a, sizeof st);
    flag = 0;
    CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag, "Iprobe of MPI_PROC_NULL: flag false");
    check_proc_null_status(&st, "Iprobe of MPI_PROC_NULL");

    MPI_Message m = MPI_MESSAGE_NULL;
    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &m, &st));
    CHECK(m == MPI_MESSAGE_NO_PROC,
          "Mprobe of MPI_PROC_NULL: message is 0x%x, not MPI_MESSAGE_NO_PROC", (unsigned)m);
    check_proc_null_status(&st, "Mprobe of MPI_PROC_NULL");
    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Mrecv(buf, 4, MPI_INT, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL,
          "Mrecv of MPI_MESSAGE_NO_PROC: message not set to MPI_MESSAGE_NULL");
    check_proc_null_status(&st, "Mrecv of MPI_MESSAGE_NO_PROC");

    flag = 0;
    m = MPI_MESSAGE_NULL;
    CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st));
    CHECK(flag && m == MPI_MESSAGE_NO_PROC, "Improbe of MPI_PROC_NULL: flag %d message 0x%x", flag,
          (unsigned)m);
    CHECK_MPI(MPI_Imrecv(buf, 4, MPI_INT, &m, &rq));
    CHECK(m == MPI_MESSAGE_NULL,
          "Imrecv of MPI_MESSAGE_NO_PROC: message not set to MPI_MESSAGE_NULL");
    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Wait(&rq, &st));
    check_proc_null_status(&st, "Imrecv of MPI_MESSAGE_NO_PROC");

    memset(&st, 0x5a, sizeof st);
    int out[2] = {7, 8};
    CHECK_MPI(MPI_Sendrecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, out, 2, MPI_INT, MPI_PROC_NULL, 1,
                           MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, "Sendrecv with MPI_PROC_NULL");
    CHECK(out[0] == 7 && out[1] == 8, "Sendrecv from MPI_PROC_NULL changed the buffer");

    memset(&st, 0x5a, sizeof st);
    CHECK_MPI(MPI_Sendrecv_replace(out, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_PROC_NULL, 1,
                                   MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, "Sendrecv_replace with MPI_PROC_NULL");
    CHECK(out[0] == 7 && out[1] == 8, "Sendrecv_replace with MPI_PROC_NULL changed the buffer");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs at least 2 ranks");
    int maxints = (int)(big_size() / sizeof(int)) + 16;
    int *buf = malloc(sizeof(int) * (size_t)maxints);
    int *buf2 = malloc(sizeof(int) * (size_t)maxints);
    CHECK(buf && buf2, "out of memory");

    proc_null();

    /* ---- 1. ANY_SOURCE / ANY_TAG (rank 0 sends to itself as well) ---- */
    if (rank == 0) {
        int *next = calloc((size_t)size, sizeof(int));
        MPI_Request selfq[PER_SRC];
        int *selfb = malloc(sizeof(int) * (size_t)maxints * PER_SRC);
        for (int seq = 0; seq < PER_SRC; seq++) {
            int *b = selfb + (size_t)maxints * (size_t)seq;
            msg_fill(b, 0, seq);
            CHECK_MPI(MPI_Isend(b, msg_ints(0, seq), MPI_INT, 0, msg_tag(0, seq), MPI_COMM_WORLD,
                                &selfq[seq]));
        }
        for (int k = 0; k < size * PER_SRC; k++) {
            MPI_Status st;
            CHECK_MPI(
                MPI_Recv(buf, maxints, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            int src = st.MPI_SOURCE, n = -1;
            CHECK(src >= 0 && src < size, "ANY_SOURCE: status.MPI_SOURCE=%d", src);
            CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
            CHECK(buf[0] == src, "ANY_SOURCE: status says source %d, the message says %d", src,
                  buf[0]);
            CHECK(buf[1] == next[src],
                  "ANY_SOURCE: from %d got seq %d, expected %d (lost, duplicated or overtaken)",
                  src, buf[1], next[src]);
            CHECK(st.MPI_TAG == msg_tag(src, buf[1]),
                  "ANY_TAG: message %d from %d has status tag %d, expected %d", buf[1], src,
                  st.MPI_TAG, msg_tag(src, buf[1]));
            msg_check(buf, n, src, next[src], "ANY_SOURCE");
            next[src]++;
        }
        for (int s = 0; s < size; s++)
            CHECK(next[s] == PER_SRC, "source %d: %d messages, expected %d", s, next[s], PER_SRC);
        CHECK_MPI(MPI_Waitall(PER_SRC, selfq, MPI_STATUSES_IGNORE));
        free(selfb);
        free(next);
    } else {
        for (int seq = 0; seq < PER_SRC; seq++) {
            msg_fill(buf, rank, seq);
            if (seq % 4 == 3)
                CHECK_MPI(MPI_Ssend(buf, msg_ints(rank, seq), MPI_INT, 0, msg_tag(rank, seq),
                                    MPI_COMM_WORLD));
            else
                CHECK_MPI(MPI_Send(buf, msg_ints(rank, seq), MPI_INT, 0, msg_tag(rank, seq),
                                   MPI_COMM_WORLD));
        }
    }

    /* ---- 2. Probe / Iprobe then Recv from the probed source ---- */
    const int PTAG = 1000;
    if (rank == 0) {
        go_from_root(
            rank, size); /* the senders start section 2 only now: ANY_TAG sees only its messages */
        int *seen = calloc((size_t)size, sizeof(int));
        for (int k = 0; k < 2 * (size - 1); k++) {
            MPI_Status st, rst;
            if (k % 2 == 0) {
                CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            } else {
                int flag = 0;
                do CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
                while (!flag);
            }
            int src = st.MPI_SOURCE, n = -1;
            CHECK(src >= 1 && src < size && st.MPI_TAG >= PTAG && st.MPI_TAG < PTAG + 2,
                  "probe: source %d tag %d", src, st.MPI_TAG);
            int seq = st.MPI_TAG - PTAG, cs = probe_content_seq(src, seq);
            CHECK(seq == seen[src], "probe: from %d saw seq %d before seq %d", src, seq, seen[src]);
            CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
            CHECK(n == msg_ints(src, cs), "probe: count %d, expected %d", n, msg_ints(src, cs));
            /* a second probe of the same source and tag sees the same message */
            MPI_Status st2;
            CHECK_MPI(MPI_Probe(src, st.MPI_TAG, MPI_COMM_WORLD, &st2));
            CHECK(st2.MPI_SOURCE == src && st2.MPI_TAG == st.MPI_TAG, "second probe differs");
            int *b = malloc(sizeof(int) * (size_t)(n ? n : 1));
            CHECK_MPI(MPI_Recv(b, n, MPI_INT, src, st.MPI_TAG, MPI_COMM_WORLD, &rst));
            CHECK(rst.MPI_SOURCE == src && rst.MPI_TAG == st.MPI_TAG,
                  "recv after probe: source %d tag %d", rst.MPI_SOURCE, rst.MPI_TAG);
            msg_check(b, n, src, cs, "probe then recv");
            free(b);
            seen[src]++;
        }
        free(seen);
    } else {
        go_from_root(rank, size);
        for (int seq = 0; seq < 2; seq++) {
            int cs = probe_content_seq(rank, seq);
            msg_fill(buf, rank, cs);
            CHECK_MPI(MPI_Send(buf, msg_ints(rank, cs), MPI_INT, 0, PTAG + seq, MPI_COMM_WORLD));
        }
    }
    go_from_root(rank,
                 size); /* section 3 starts once rank 0 has received everything of section 2 */

    /* ---- 3. Mprobe / Mrecv, Improbe / Imrecv ---- */
    const int MTAG = 2000;
    int bigints = (int)(big_size() / sizeof(int));
    if (rank == 0) {
        for (int k = 0; k < size - 1; k++) {
            MPI_Message m1, m2;
            MPI_Status s1, s2, r1, r2;
            int use_i = k % 2;
            if (!use_i) {
                CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MTAG, MPI_COMM_WORLD, &m1, &s1));
            } else {
                int flag = 0;
                do CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MTAG, MPI_COMM_WORLD, &flag, &m1, &s1));
                while (!flag);
            }
            int src = s1.MPI_SOURCE, n1 = -1, n2 = -1;
            CHECK(src >= 1 && src < size && s1.MPI_TAG == MTAG, "Mprobe: source %d tag %d", src,
                  s1.MPI_TAG);
            CHECK(m1 != MPI_MESSAGE_NULL && m1 != MPI_MESSAGE_NO_PROC, "Mprobe: no message handle");
            CHECK_MPI(MPI_Get_count(&s1, MPI_INT, &n1));
            CHECK(n1 == 3, "Mprobe: first message has %d ints, expected 3 (the small one)", n1);
            /* the same source and tag now yields the second (rendezvous) message */
            if (!use_i) {
                CHECK_MPI(MPI_Mprobe(src, MTAG, MPI_COMM_WORLD, &m2, &s2));
            } else {
                int flag = 0;
                do CHECK_MPI(MPI_Improbe(src, MTAG, MPI_COMM_WORLD, &flag, &m2, &s2));
                while (!flag);
            }
            CHECK(m2 != m1, "Mprobe: the same handle for two messages");
            CHECK_MPI(MPI_Get_count(&s2, MPI_INT, &n2));
            CHECK(n2 == bigints, "Mprobe: second message has %d ints, expected %d", n2, bigints);
            int flag = 1;
            MPI_Status ps;
            CHECK_MPI(MPI_Iprobe(src, MTAG, MPI_COMM_WORLD, &flag, &ps));
            CHECK(!flag, "Iprobe still sees a message that MPI_Mprobe took");
            /* receive them in the opposite order */
            memset(buf, 0, sizeof(int) * (size_t)maxints);
            memset(buf2, 0, sizeof(int) * (size_t)maxints);
            if (!use_i) {
                CHECK_MPI(MPI_Mrecv(buf, maxints, MPI_INT, &m2, &r2));
                CHECK_MPI(MPI_Mrecv(buf2, 3, MPI_INT, &m1, &r1));
            } else {
                MPI_Request q[2];
                CHECK_MPI(MPI_Imrecv(buf, maxints, MPI_INT, &m2, &q[0]));
                CHECK_MPI(MPI_Imrecv(buf2, 3, MPI_INT, &m1, &q[1]));
                MPI_Status rs[2];
                CHECK_MPI(MPI_Waitall(2, q, rs));
                r2 = rs[0];
                r1 = rs[1];
            }
            CHECK(m1 == MPI_MESSAGE_NULL && m2 == MPI_MESSAGE_NULL,
                  "Mrecv did not set the message to MPI_MESSAGE_NULL");
            CHECK(r1.MPI_SOURCE == src && r1.MPI_TAG == MTAG && r2.MPI_SOURCE == src &&
                      r2.MPI_TAG == MTAG,
                  "Mrecv statuses: (%d,%d) (%d,%d)", r1.MPI_SOURCE, r1.MPI_TAG, r2.MPI_SOURCE,
                  r2.MPI_TAG);
            CHECK_MPI(MPI_Get_count(&r2, MPI_INT, &n2));
            CHECK(n2 == bigints, "Mrecv of the rendezvous message: %d ints", n2);
            CHECK(buf2[0] == src && buf2[1] == 1 && buf2[2] == 111, "Mrecv small message: %d %d %d",
                  buf2[0], buf2[1], buf2[2]);
            CHECK(buf[0] == src && buf[1] == 2, "Mrecv rendezvous message header: %d %d", buf[0],
                  buf[1]);
            for (int i = 2; i < bigints; i++)
                CHECK(buf[i] == pu_int((size_t)i, (unsigned)src),
                      "Mrecv rendezvous message wrong at int %d", i);
        }
    } else {
        int small[3] = {rank, 1, 111};
        for (int i = 2; i < bigints; i++) buf[i] = pu_int((size_t)i, (unsigned)rank);
        buf[0] = rank;
        buf[1] = 2;
        MPI_Request q[2];
        /* synchronous: matched through MPI_Mprobe, then completed by MPI_Mrecv */
        CHECK_MPI(MPI_Issend(small, 3, MPI_INT, 0, MTAG, MPI_COMM_WORLD, &q[0]));
        CHECK_MPI(MPI_Isend(buf, bigints, MPI_INT, 0, MTAG, MPI_COMM_WORLD, &q[1]));
        CHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
    }

    /* ---- end: everyone confirms to rank 0, rank 0 releases everyone ---- */
    if (rank == 0) {
        for (int s = 1; s < size; s++)
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, s, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int flag = 1;
        CHECK_MPI(
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a message is left over at the end");
        for (int s = 1; s < size; s++)
            CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, s, 10, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, 9, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    free(buf);
    free(buf2);
    MPI_Finalize();
    if (rank == 0) printf("wildcard: %d ranks: ok\n", size);
    return 0;
}
