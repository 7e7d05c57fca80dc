/* 8-byte ping-pong from C, the same loop as pingpong_f90.f90 and
 * pingpong_f08.f90: what a call through Fortran costs is the difference. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const int iters = 200000, warm = 5000;
    int rank;
    double buf = 1.0, t0 = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i <= iters + warm; i++) {
        if (i == warm + 1) t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        }
    }
    double t1 = MPI_Wtime();
    if (rank == 0) printf("c          %8.4f us\n", (t1 - t0) / iters / 2 * 1e6);
    MPI_Finalize();
    return 0;
}
