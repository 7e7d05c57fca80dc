/* OSU's loop (a collective, then a barrier) timed per rank and per part:
 * how a call's time moves between the call and the barrier after it.
 * usage: mpiexec -n 2 loop bcast|gather|allgather   (LBL labels the lines) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    char s[8] = {1}, d[16];
    int it = 100000;
    const char *mode = argc > 1 ? argv[1] : "bcast";
    double tsum = 0, tb = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double T0 = MPI_Wtime();
    for (int i = 0; i < it; i++) {
        double t0 = MPI_Wtime();
        if (!strcmp(mode, "bcast"))
            MPI_Bcast(s, 1, MPI_CHAR, 0, MPI_COMM_WORLD);
        else if (!strcmp(mode, "gather"))
            MPI_Gather(s, 1, MPI_CHAR, d, 1, MPI_CHAR, 0, MPI_COMM_WORLD);
        else
            MPI_Allgather(s, 1, MPI_CHAR, d, 1, MPI_CHAR, MPI_COMM_WORLD);
        double t1 = MPI_Wtime();
        tsum += t1 - t0;
        MPI_Barrier(MPI_COMM_WORLD);
        tb += MPI_Wtime() - t1;
    }
    double T = MPI_Wtime() - T0;
    printf("%s rank %d %s: coll %.3f barrier %.3f loop %.3f us\n",
           getenv("LBL") ? getenv("LBL") : "", r, mode, tsum / it * 1e6, tb / it * 1e6,
           T / it * 1e6);
    MPI_Finalize();
}
