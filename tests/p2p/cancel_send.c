/* MPI_Cancel of a send (deprecated in MPI 4.1, still defined): the cancel
 * may succeed or fail, but "if a communication is marked for cancellation,
 * then a MPI_WAIT call for that communication is guaranteed to return,
 * irrespective of the activities of other processes" (MPI 4.1, 3.8.4), and
 * the outcome must be consistent: a cancelled send is never received, a
 * send whose cancel failed is.  Rank 1 posts nothing until rank 0 has
 * finished waiting; rank 0 polls MPI_Test for at most 5 s so a failure is
 * reported rather than hung.  Eager, then rendezvous-sized. */
#include <stdio.h>
#include <stdlib.h>

#include "p2p_util.h"

int main(int argc, char **argv)
{
    int rank = pu_init_pair(&argc, &argv);
    size_t big = pu_limits().eager + 5000;
    for (int k = 0; k < 2; k++) {
        size_t n = k ? big : 16;
        unsigned char *b = malloc(n);
        int cancelled = -1;
        if (rank == 0) {
            pu_fill_bytes(b, n, 55u + (unsigned)k);
            MPI_Request rq;
            MPI_Status st;
            CHECK_MPI(MPI_Isend(b, (int)n, MPI_BYTE, 1, 55 + k, MPI_COMM_WORLD, &rq));
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
        } else {
            CHECK_MPI(MPI_Recv(&cancelled, 1, MPI_INT, 0, 57, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            int flag = 0;
            MPI_Status st;
            CHECK_MPI(MPI_Iprobe(0, 55 + k, MPI_COMM_WORLD, &flag, &st));
            CHECK(flag == !cancelled,
                  "cancel of a %zu-byte send: Test_cancelled=%d but the message is %sthere", n,
                  cancelled, flag ? "" : "not ");
            if (flag) {
                CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, 55 + k, MPI_COMM_WORLD, &st));
                CHECK(pu_check_bytes(b, n, 55u + (unsigned)k) == (size_t)-1,
                      "send whose cancel failed: wrong data");
            }
        }
        free(b);
    }
    MPI_Finalize();
    if (rank == 0) printf("cancel_send: ok\n");
    return 0;
}
