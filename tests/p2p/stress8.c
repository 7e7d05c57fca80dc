/* All pairs at once: every rank Isends to and Irecvs from every other rank
 * in each round, sizes cycling through 8 B, 4 KiB, 20 KiB and 300 KiB
 * (eager, eager, rendezvous at the default eager size, rendezvous), 20
 * rounds, every value checked.  Meant for 8 ranks oversubscribed on few
 * cores.  Receives alternate between the specific source and
 * MPI_ANY_SOURCE with a per-source tag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

#define ROUNDS 20
static const int sizes[] = {8, 4 << 10, 20 << 10, 300 << 10};

static int msg_bytes(int round, int src, int dst) { return sizes[(round + src + 2 * dst) % 4]; }
static unsigned seed(int round, int src, int dst)
{
    return (unsigned)(round * 4099 + src * 67 + dst);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int maxb = 300 << 10;
    char **sb = calloc((size_t)size, sizeof *sb), **rb = calloc((size_t)size, sizeof *rb);
    for (int p = 0; p < size; p++) {
        sb[p] = malloc((size_t)maxb);
        rb[p] = malloc((size_t)maxb);
        CHECK(sb[p] && rb[p], "out of memory");
    }
    MPI_Request *q = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
    MPI_Status *st = malloc(sizeof(MPI_Status) * 2 * (size_t)size);
    double t0 = MPI_Wtime();
    for (int round = 0; round < ROUNDS; round++) {
        int n = 0;
        int *from = malloc(sizeof(int) * 2 * (size_t)size); /* source of receive i, -1 for sends */
        /* receives first on even rounds, sends first on odd ones */
        for (int phase = 0; phase < 2; phase++) {
            int do_recv = (phase == 0) == (round % 2 == 0);
            for (int k = 1; k < size; k++) {
                if (do_recv) {
                    int p = (rank - k + size) % size;
                    int src = (round + k) % 3 == 0 ? MPI_ANY_SOURCE : p;
                    memset(rb[p], 0, (size_t)msg_bytes(round, p, rank));
                    from[n] = p;
                    CHECK_MPI(MPI_Irecv(rb[p], msg_bytes(round, p, rank), MPI_BYTE, src,
                                        1000 * round + p, MPI_COMM_WORLD, &q[n++]));
                } else {
                    int p = (rank + k) % size;
                    pu_fill_bytes(sb[p], (size_t)msg_bytes(round, rank, p), seed(round, rank, p));
                    from[n] = -1;
                    CHECK_MPI(MPI_Isend(sb[p], msg_bytes(round, rank, p), MPI_BYTE, p,
                                        1000 * round + rank, MPI_COMM_WORLD, &q[n++]));
                }
            }
        }
        CHECK_MPI(MPI_Waitall(n, q, st));
        for (int p = 0; p < size; p++) {
            if (p == rank) continue;
            size_t bad =
                pu_check_bytes(rb[p], (size_t)msg_bytes(round, p, rank), seed(round, p, rank));
            CHECK(bad == (size_t)-1, "round %d: the %d-byte message from %d is wrong at byte %zu",
                  round, msg_bytes(round, p, rank), p, bad);
        }
        for (int i = 0; i < n; i++) {
            int p = from[i], c = -1;
            if (p < 0) continue; /* a send: its status says nothing */
            CHECK_MPI(MPI_Get_count(&st[i], MPI_BYTE, &c));
            CHECK(st[i].MPI_SOURCE == p && st[i].MPI_TAG == 1000 * round + p &&
                      c == msg_bytes(round, p, rank),
                  "round %d: receive from %d has status (%d, %d, %d)", round, p, st[i].MPI_SOURCE,
                  st[i].MPI_TAG, c);
        }
        free(from);
    }
    double dt = MPI_Wtime() - t0;
    /* everyone reports to rank 0 that it finished */
    if (rank == 0) {
        for (int p = 1; p < size; p++)
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, p, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, 7, MPI_COMM_WORLD));
    }
    for (int p = 0; p < size; p++) {
        free(sb[p]);
        free(rb[p]);
    }
    free(sb);
    free(rb);
    free(q);
    free(st);
    MPI_Finalize();
    if (rank == 0) printf("stress8: %d ranks, %d rounds in %.2f s: ok\n", size, ROUNDS, dt);
    return 0;
}
