/* Under the default error handler (MPI_ERRORS_ARE_FATAL) a send to rank 99
 * ends the whole job: run by fatal_default.sh, which checks the exit code
 * and that the message names MPI_Send and dest=99.  Rank 1 waits for a
 * message that never comes: the job must still end. */
#include <stdio.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, x = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
        printf("fatal_default: MPI_Send to rank 99 returned\n");
        fflush(stdout);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
