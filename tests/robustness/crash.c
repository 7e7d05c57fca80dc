/* A rank that fails mid-exchange while its peer is blocked waiting for it.
 * argv[1] says how rank 1 fails: segv, kill9, abort, exit.  With argv[2]
 * "coll" the exchange is a run of small collectives (the shared-memory
 * ones on one host): the others wait in a barrier or an allreduce. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fail(const char *how)
{
    if (!strcmp(how, "segv")) raise(SIGSEGV);
    if (!strcmp(how, "kill9")) kill(getpid(), SIGKILL);
    if (!strcmp(how, "abort")) MPI_Abort(MPI_COMM_WORLD, 7);
    if (!strcmp(how, "exit")) exit(3);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *how = argc > 1 ? argv[1] : "segv";
    if (argc > 2 && !strcmp(argv[2], "coll")) {
        for (int i = 0; i < 100; i++) {
            if (rank == 1 && i == 50) fail(how);
            MPI_Allreduce(&i, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            MPI_Barrier(MPI_COMM_WORLD);
        }
        /* Not reached: rank 1 never comes to iteration 51. */
        MPI_Finalize();
        return 0;
    }
    for (int i = 0; i < 10; i++) {
        if (rank == 0) {
            MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (i == 5) fail(how);
            MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    }
    /* Ranks 2.. wait in a receive that never comes: they must be ended too. */
    if (rank >= 2) MPI_Recv(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
