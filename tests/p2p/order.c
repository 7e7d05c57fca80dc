/* Non-overtaking: messages from one sender on one communicator with one tag
 * are received in the order they were sent, whatever protocol each takes.
 * Rank 0 sends 200 messages whose sizes alternate between eager and
 * rendezvous, each carrying its sequence number:
 *   round A: rank 1 receives them as they come, alternating MPI_ANY_TAG,
 *            the specific tag and MPI_ANY_SOURCE;
 *   round B: rank 1 posts all 200 receives first, each sized exactly for
 *            the message it must get;
 * then messages with 16 different tags (eager and rendezvous) are received
 * in reverse tag order: matching picks the right one whatever arrived first.
 * And messages on a duplicated communicator never match receives on
 * MPI_COMM_WORLD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

#define NMSG 200
#define TAG 42
#define NTAGS 16

static const size_t cycle[] = {8, 64 << 10, 100, 1 << 20, 0, 20000, 24, 300 << 10};
#define NCYCLE (sizeof cycle / sizeof cycle[0])

/* Message i: its size, and content = sequence number in the first int
 * (when it fits) then a pattern seeded by i. */
static size_t msg_size(int i) { return cycle[i % NCYCLE]; }

static void fill(char *b, int i)
{
    size_t n = msg_size(i);
    pu_fill_bytes(b, n, (unsigned)i + 1000);
    if (n >= sizeof(int)) memcpy(b, &i, sizeof i);
}

static void check(const char *b, const MPI_Status *st, int i, int want_tag, const char *what)
{
    size_t n = msg_size(i);
    int count = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == (int)n,
          "%s: receive %d got %d bytes, message %d has %zu (a message overtook another)", what, i,
          count, i, n);
    CHECK(st->MPI_SOURCE == 0 && st->MPI_TAG == want_tag, "%s: receive %d: source %d tag %d", what,
          i, st->MPI_SOURCE, st->MPI_TAG);
    if (n >= sizeof(int)) {
        int seq;
        memcpy(&seq, b, sizeof seq);
        CHECK(seq == i, "%s: receive %d got sequence number %d", what, i, seq);
    }
    char *want = malloc(n ? n : 1);
    fill(want, i);
    for (size_t k = 0; k < n; k++)
        CHECK(b[k] == want[k], "%s: message %d (%zu B) differs at byte %zu", what, i, n, k);
    free(want);
}

int main(int argc, char **argv)
{
    int rank = pu_init_pair(&argc, &argv);

    char *bufs[NMSG];
    for (int i = 0; i < NMSG; i++) {
        bufs[i] = malloc(msg_size(i) ? msg_size(i) : 1);
        CHECK(bufs[i], "out of memory");
    }
    MPI_Request reqs[NMSG];
    MPI_Status sts[NMSG];

    for (int round = 0; round < 2; round++) {
        if (rank == 0) {
            if (round == 1)
                CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (int i = 0; i < NMSG; i++) {
                fill(bufs[i], i);
                CHECK_MPI(MPI_Isend(bufs[i], (int)msg_size(i), MPI_BYTE, 1, TAG, MPI_COMM_WORLD,
                                    &reqs[i]));
            }
            CHECK_MPI(MPI_Waitall(NMSG, reqs, MPI_STATUSES_IGNORE));
        } else if (round == 0) {
            char *b = malloc(1 << 20);
            for (int i = 0; i < NMSG; i++) {
                MPI_Status st;
                int src = i % 3 == 2 ? MPI_ANY_SOURCE : 0;
                int tag = i % 2 ? MPI_ANY_TAG : TAG;
                CHECK_MPI(MPI_Recv(b, 1 << 20, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
                check(b, &st, i, TAG, "round A (receive as they come)");
            }
            free(b);
        } else {
            for (int i = 0; i < NMSG; i++) {
                memset(bufs[i], 0, msg_size(i));
                int tag = i % 2 ? MPI_ANY_TAG : TAG;
                CHECK_MPI(MPI_Irecv(bufs[i], (int)msg_size(i), MPI_BYTE, i % 3 ? 0 : MPI_ANY_SOURCE,
                                    tag, MPI_COMM_WORLD, &reqs[i]));
            }
            CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD));
            /* a successful Waitall leaves MPI_ERROR alone */
            for (int i = 0; i < NMSG; i++) sts[i].MPI_ERROR = -1;
            CHECK_MPI(MPI_Waitall(NMSG, reqs, sts));
            for (int i = 0; i < NMSG; i++) {
                CHECK(sts[i].MPI_ERROR == -1, "round B: receive %d has MPI_ERROR=%d", i,
                      sts[i].MPI_ERROR);
                check(bufs[i], &sts[i], i, TAG, "round B (receives posted first)");
            }
        }
    }

    /* Reverse tag order: tag t carries message t (eager and rendezvous). */
    for (int round = 0; round < 2; round++) {
        if (rank == 0) {
            for (int t = 0; t < NTAGS; t++) {
                fill(bufs[t], t);
                CHECK_MPI(MPI_Isend(bufs[t], (int)msg_size(t), MPI_BYTE, 1, 100 + t, MPI_COMM_WORLD,
                                    &reqs[t]));
            }
            CHECK_MPI(MPI_Waitall(NTAGS, reqs, MPI_STATUSES_IGNORE));
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            for (int t = NTAGS - 1; t >= 0; t--) {
                MPI_Status st;
                memset(bufs[t], 0, msg_size(t));
                if (round == 0) {
                    CHECK_MPI(MPI_Recv(bufs[t], (int)msg_size(t), MPI_BYTE,
                                       t % 2 ? MPI_ANY_SOURCE : 0, 100 + t, MPI_COMM_WORLD, &st));
                    check(bufs[t], &st, t, 100 + t, "reverse tag order (blocking)");
                } else {
                    CHECK_MPI(MPI_Irecv(bufs[t], (int)msg_size(t), MPI_BYTE, 0, 100 + t,
                                        MPI_COMM_WORLD, &reqs[t]));
                }
            }
            if (round == 1) {
                /* posted in reverse order, completed in any order */
                CHECK_MPI(MPI_Waitall(NTAGS, reqs, sts));
                for (int t = 0; t < NTAGS; t++)
                    check(bufs[t], &sts[t], t, 100 + t, "reverse tag order (posted)");
            }
            CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD));
        }
    }

    /* Communicators separate messages. */
    {
        MPI_Comm dup;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        int a = 1, b = 2, x = 0, y = 0;
        if (rank == 0) {
            CHECK_MPI(MPI_Send(&a, 1, MPI_INT, 1, 5, dup));
            CHECK_MPI(MPI_Send(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
        } else {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
            CHECK(x == 1 && y == 2, "a message crossed communicators: dup got %d, world got %d", x,
                  y);
        }
        CHECK_MPI(MPI_Comm_free(&dup));
    }

    for (int i = 0; i < NMSG; i++) free(bufs[i]);
    MPI_Finalize();
    if (rank == 0) printf("order: ok\n");
    return 0;
}
