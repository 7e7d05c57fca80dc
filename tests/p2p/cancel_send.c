/* MPI_Cancel of a send (deprecated in MPI 4.1, still defined): the cancel
 * may succeed or fail, but "if a communication is marked for cancellation,
 * then a MPI_WAIT call for that communication is guaranteed to return,
 * irrespective of the activities of other processes" (MPI 4.1, 3.8.4), and
 * the outcome must be consistent: a cancelled send is never received, a
 * send whose cancel failed is.  Rank 1 posts nothing until rank 0 has
 * finished waiting; rank 0 polls MPI_Test for at most 5 s so a failure is
 * reported rather than hung.  Eager, then rendezvous-sized, then rounds of
 * a rendezvous send cancelled right after an eager one: across hosts the
 * two travel on different UCX endpoints, and the cancel may reach the
 * receiver while the rendezvous message waits there for the eager one. */
#include <stdio.h>
#include <stdlib.h>

#include "p2p_util.h"

int main(int argc, char **argv)
{
    int rank = pu_init_pair(&argc, &argv);
    size_t big = pu_limits().eager + 5000;
    enum { ROUNDS_BEHIND_EAGER = 50 };
    for (int k = 0; k < 2 + ROUNDS_BEHIND_EAGER; k++) {
        size_t n = k ? big : 16;
        int behind = k >= 2, tag = 55 + (k < 2 ? k : 1);
        /* Enough eager data ahead to fill the sockets of its endpoint. */
        enum { AHEAD = 32 };
        size_t nahead = pu_limits().eager;
        unsigned char *ahead = malloc(AHEAD * nahead);
        unsigned char *b = malloc(n);
        int cancelled = -1;
        if (rank == 0) {
            pu_fill_bytes(b, n, (unsigned)tag);
            MPI_Request rq;
            MPI_Status st;
            MPI_Request arq[AHEAD];
            for (int a = 0; a < AHEAD && behind; a++) {
                pu_fill_bytes(ahead + a * nahead, nahead, (unsigned)(k * AHEAD + a));
                CHECK_MPI(MPI_Isend(ahead + a * nahead, (int)nahead, MPI_BYTE, 1, 60,
                                    MPI_COMM_WORLD, &arq[a]));
            }
            CHECK_MPI(MPI_Isend(b, (int)n, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &rq));
            CHECK_MPI(MPI_Cancel(&rq));
            int flag = 0;
            double end = MPI_Wtime() + 5.0;
            while (!flag && MPI_Wtime() < end) CHECK_MPI(MPI_Test(&rq, &flag, &st));
            CHECK(flag,
                  "a %zu-byte send marked for cancellation did not complete in 5 s while the "
                  "receiver did "
                  "nothing: MPI_Wait on it would not return (MPI 4.1 3.8.4 makes it local)",
                  n);
            CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
            CHECK_MPI(MPI_Send(&cancelled, 1, MPI_INT, 1, 57, MPI_COMM_WORLD));
            if (behind) CHECK_MPI(MPI_Waitall(AHEAD, arq, MPI_STATUSES_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(&cancelled, 1, MPI_INT, 0, 57, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (int a = 0; a < AHEAD && behind; a++) {
                CHECK_MPI(MPI_Recv(ahead, (int)nahead, MPI_BYTE, 0, 60, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
                CHECK(pu_check_bytes(ahead, nahead, (unsigned)(k * AHEAD + a)) == (size_t)-1,
                      "round %d: eager message %d before the cancelled one is wrong", k, a);
            }
            int flag = 0;
            MPI_Status st;
            CHECK_MPI(MPI_Iprobe(0, tag, MPI_COMM_WORLD, &flag, &st));
            CHECK(flag == !cancelled,
                  "cancel of a %zu-byte send: Test_cancelled=%d but the message is %sthere", n,
                  cancelled, flag ? "" : "not ");
            if (flag) {
                CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st));
                CHECK(pu_check_bytes(b, n, (unsigned)tag) == (size_t)-1,
                      "send whose cancel failed: wrong data");
            }
        }
        free(b);
        free(ahead);
    }
    MPI_Finalize();
    if (rank == 0) printf("cancel_send: ok\n");
    return 0;
}
