/* Rendezvous-size ping-pong with data checks, for the CMA probe tests. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int n = 1 << 18; /* 1 MiB of ints */
    int *buf = malloc(sizeof(int) * n);
    for (int round = 0; round < 4; round++) {
        if (rank == 0) {
            for (int i = 0; i < n; i++) buf[i] = i ^ round;
            MPI_Send(buf, n, MPI_INT, 1, round, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_INT, 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; i++)
                CHECK(buf[i] == (i ^ round) + 1, "round %d element %d is %d", round, i, buf[i]);
        } else if (rank == 1) {
            MPI_Recv(buf, n, MPI_INT, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; i++) buf[i]++;
            MPI_Send(buf, n, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
    }
    free(buf);
    if (rank == 0) printf("pingpong_check passed\n");
    MPI_Finalize();
    return 0;
}
