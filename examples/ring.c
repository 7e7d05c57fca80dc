/* Passes a token around the ring of ranks 'laps' times (default 3); each
 * rank adds its rank number on every pass.  Rank 0 checks the final sum.
 *
 *   mpicc -o ring ring.c && mpiexec -n 4 ./ring [laps] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int laps = argc > 1 ? atoi(argv[1]) : 3;
    if (laps < 1) laps = 1;

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    long token = 0;
    for (int lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            /* Sendrecv, so that a ring of one rank (sending to itself) works too. */
            long out = token + rank;
            MPI_Sendrecv(&out, 1, MPI_LONG, next, lap, &token, 1, MPI_LONG, prev, lap,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_LONG, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += rank;
            MPI_Send(&token, 1, MPI_LONG, next, lap, MPI_COMM_WORLD);
        }
    }

    int ok = 1;
    if (rank == 0) {
        long expect = (long)laps * size * (size - 1) / 2;
        ok = token == expect;
        printf("ring: %d ranks, %d laps, token %ld, expected %ld: %s\n", size, laps, token, expect,
               ok ? "OK" : "WRONG");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return ok ? 0 : 1;
}
