/* Build: mpicc -O2 -o pair pair.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* Mean time per iteration of (collective + barrier), rank 0's wall clock, over N iterations. */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const char *what = argv[1];
    int N = 20000;
    char buf[64] = {0}, rb[64];
    for (int pass = 0; pass < 2; pass++) {
        double t0 = MPI_Wtime();
        for (int it = 0; it < N; it++) {
            MPI_Request q;
            if (!strcmp(what, "bcast"))
                MPI_Bcast(buf, 8, MPI_CHAR, 0, MPI_COMM_WORLD);
            else if (!strcmp(what, "scatter"))
                MPI_Scatter(buf, 1, MPI_CHAR, rb, 1, MPI_CHAR, 0, MPI_COMM_WORLD);
            else if (!strcmp(what, "ibcast")) {
                MPI_Ibcast(buf, 8, MPI_CHAR, 0, MPI_COMM_WORLD, &q);
                MPI_Wait(&q, MPI_STATUS_IGNORE);
            } else if (!strcmp(what, "none"))
                ;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        double t = (MPI_Wtime() - t0) / N * 1e6;
        if (pass && !r) printf("%s + barrier: %.2f us per iteration\n", what, t);
    }
    MPI_Finalize();
}
