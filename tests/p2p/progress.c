/* The progress rule: once a send and a matching receive are both started,
 * one of them completes, however many other sends are pending.
 *  1. Rank 0 starts NR rendezvous-sized Isends with tag 300 that rank 1
 *     will receive only later, then an 8-byte Isend with tag 301; rank 1
 *     receives tag 301 first.  NR defaults to 40; the registrations also run
 *     more sends than the transport has rendezvous slots per pair (64).  Pass
 *     another NR as argument 1.
 *  2. The same in both directions at once.
 *  3. The same with a rendezvous-sized late message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

int main(int argc, char **argv)
{
    int rank = pu_init_pair(&argc, &argv);
    int peer = 1 - rank;
    int nr = argc > 1 ? atoi(argv[1]) : 40;
    CHECK(nr > 0 && nr < 1000, "bad NR %d", nr);
    size_t rs = 64 << 10;
    if (rs <= pu_limits().eager) rs = pu_limits().eager + 1024;
    char *sb = malloc(rs * (size_t)nr), *rb = malloc(rs * (size_t)nr);
    char *lsb = malloc(rs), *lrb = malloc(rs);
    MPI_Request *q = malloc(sizeof(MPI_Request) * (size_t)(nr + 1));
    CHECK(sb && rb && lsb && lrb && q, "out of memory");

    for (int part = 0; part < 3; part++) {
        int sends = part == 1 || rank == 0; /* part 1: both directions */
        int recvs = part == 1 || rank == 1;
        size_t late = part == 2 ? rs : 8;
        unsigned seed = 1000u * (unsigned)(part + 1) + 10u * (unsigned)rank;
        if (sends) {
            for (int i = 0; i < nr; i++) {
                pu_fill_bytes(sb + rs * (size_t)i, rs, seed + (unsigned)i);
                CHECK_MPI(MPI_Isend(sb + rs * (size_t)i, (int)rs, MPI_BYTE, peer, 300,
                                    MPI_COMM_WORLD, &q[i]));
            }
            pu_fill_bytes(lsb, late, seed + 999u);
            CHECK_MPI(MPI_Isend(lsb, (int)late, MPI_BYTE, peer, 301, MPI_COMM_WORLD, &q[nr]));
        }
        if (recvs) {
            unsigned pseed = 1000u * (unsigned)(part + 1) + 10u * (unsigned)peer;
            MPI_Status st;
            CHECK_MPI(MPI_Recv(lrb, (int)rs, MPI_BYTE, peer, 301, MPI_COMM_WORLD, &st));
            int n = -1;
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
            CHECK(n == (int)late && pu_check_bytes(lrb, late, pseed + 999u) == (size_t)-1,
                  "part %d: the late %zu-byte message is wrong (%d bytes)", part, late, n);
            for (int i = 0; i < nr; i++) {
                CHECK_MPI(MPI_Recv(rb + rs * (size_t)i, (int)rs, MPI_BYTE, peer, 300,
                                   MPI_COMM_WORLD, &st));
                CHECK(pu_check_bytes(rb + rs * (size_t)i, rs, pseed + (unsigned)i) == (size_t)-1,
                      "part %d: rendezvous message %d of %d is wrong", part, i, nr);
            }
        }
        if (sends) CHECK_MPI(MPI_Waitall(nr + 1, q, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, 9, NULL, 0, MPI_BYTE, peer, 9,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (rank == 0) {
            printf("progress: part %d (%d pending rendezvous sends, %s) done\n", part + 1, nr,
                   part == 0   ? "8-byte late message"
                   : part == 1 ? "both directions"
                               : "rendezvous late message");
            fflush(stdout);
        }
    }
    free(sb);
    free(rb);
    free(lsb);
    free(lrb);
    free(q);
    MPI_Finalize();
    if (rank == 0) printf("progress: %d pending rendezvous sends: ok\n", nr);
    return 0;
}
