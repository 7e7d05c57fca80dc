/* MPI_Barrier: nobody leaves before the last rank has entered.  In round k
 * one rank dawdles before entering; every rank's exit time must come after
 * that rank's entry time (CLOCK_MONOTONIC is one clock for the whole node,
 * and these tests run on one node). */
#include <time.h>

#include "tern_test.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = size < 4 ? size : 4;
    for (int k = 0; k < rounds; k++) {
        int late = (k * 3) % size;
        double entered = 0;
        if (rank == late) {
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
            entered = now();
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double left = now();
        CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, late, MPI_COMM_WORLD));
        CHECK(left >= entered, "round %d: left the barrier %.6f s before rank %d entered it", k,
              entered - left, late);
    }
    /* Many barriers in a row, on world and on a dup (no cross-talk). */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int i = 0; i < 50; i++) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(dup));
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
