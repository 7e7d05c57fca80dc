/* A rank that fails mid-exchange while its peer is blocked waiting for it.
 * argv[1] says how rank 1 fails: segv, kill9, abort, exit.  With argv[2]
 * "coll" the exchange is a run of small collectives (the shared-memory
 * ones on one host): the others wait in a barrier or an allreduce.  With
 * "rma" every rank takes turns at an exclusive lock on rank 0's window
 * (allocated, in shared memory), accumulating into it, and rank 1 fails
 * while it holds the lock: the others wait in MPI_Win_lock. */
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
    if (argc > 2 && !strcmp(argv[2], "rma")) {
        long *base;
        MPI_Win win;
        MPI_Win_allocate(64, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        long one = 1;
        for (int i = 0; i < 1000; i++) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
            if (rank == 1 && i == 50) fail(how);
            MPI_Win_unlock(0, win);
        }
        /* Not reached: rank 1 never lets go of the lock. */
        MPI_Win_free(&win);
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
