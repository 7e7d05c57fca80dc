/* The job shm_kill.py ends at random moments: init, a few messages around
 * a ring, finalize.  With "sleep", each rank also pauses in the middle,
 * so some kills land while the job is up rather than starting or ending. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int i = 0; i < 8; i++) {
        int out = rank * 100 + i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, next, i, &in, 1, MPI_INT, prev, i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (in != prev * 100 + i) {
            fprintf(stderr, "short_job: rank %d got %d from %d, expected %d\n", rank, in, prev,
                    prev * 100 + i);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (i == 3 && argc > 1 && strcmp(argv[1], "sleep") == 0) {
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    MPI_Finalize();
    return 0;
}
