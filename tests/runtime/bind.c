/* Binding at MPI_Init: argv[1] = "bound": every rank runs on exactly one
 * core, local rank i on the i-th core of the job's set (wrapping around);
 * "unbound": ranks keep the whole set. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <string.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    cpu_set_t before;
    CHECK(sched_getaffinity(0, sizeof before, &before) == 0, "sched_getaffinity failed");
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cpu_set_t after;
    CHECK(sched_getaffinity(0, sizeof after, &after) == 0, "sched_getaffinity failed");
    if (!strcmp(argv[1], "bound")) {
        CHECK(CPU_COUNT(&after) == 1, "rank %d runs on %d cores, expected 1", rank,
              CPU_COUNT(&after));
        int want = rank % CPU_COUNT(&before), seen = 0, cpu = -1;
        for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
            if (CPU_ISSET(c, &before) && seen++ == want) cpu = c;
        CHECK(CPU_ISSET(cpu, &after), "rank %d is not on core %d (policy bunch)", rank, cpu);
    } else {
        CHECK(CPU_EQUAL(&before, &after), "rank %d was bound although binding is off", rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("bind %s: ok on %d ranks\n", argv[1], size);
    MPI_Finalize();
    return 0;
}
