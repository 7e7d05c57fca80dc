/* Passive target needs no help from the target: while rank 1 sleeps
 * outside MPI, rank 0 locks its window, puts, accumulates, fetches, gets
 * and unlocks, for every window kind, well before rank 1 wakes up.  Across
 * hosts (every kind but MPI_Win_allocate_shared) as well. */
#include <stdio.h>
#include <unistd.h>

#include "rma_util.h"

#define SLEEP_S 3

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int spans = rma_spans_hosts(MPI_COMM_WORLD);
    for (int k = 0; k < NKINDS; k++) {
        if (k == K_SHARED && spans) continue; /* cannot span hosts */
        struct rwin w;
        rwin_make(&w, (enum kind)k, 64, MPI_COMM_WORLD);
        MPI_Aint d = rwin_disp(&w, 1, 0);
        if (rank == 1) {
            sleep(SLEEP_S); /* computing, never calling MPI */
        } else if (rank == 0) {
            double t0 = MPI_Wtime();
            int v = 42, one = 1, back = 0;
            long long inc = 5, old = -1;
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w.win));
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 1, d, 1, MPI_INT, w.win));
            CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 1, d, 1, MPI_INT, MPI_SUM, w.win));
            CHECK_MPI(MPI_Fetch_and_op(&inc, &old, MPI_LONG_LONG, 1, d + 8, MPI_SUM, w.win));
            CHECK_MPI(MPI_Win_unlock(1, w.win));
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w.win));
            CHECK_MPI(MPI_Get(&back, 1, MPI_INT, 1, d, 1, MPI_INT, w.win));
            CHECK_MPI(MPI_Win_unlock(1, w.win));
            double dt = MPI_Wtime() - t0;
            CHECK(back == 43 && old == 0, "%s: read back %d and fetched %lld", kind_name[k], back,
                  old);
            CHECK(dt < SLEEP_S / 2.0,
                  "%s: lock, put, accumulate, unlock took %.2f s while the target slept %d s: "
                  "they waited for the target",
                  kind_name[k], dt, SLEEP_S);
            printf("rma_passive: %s: %.4f s while the target slept\n", kind_name[k], dt);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            CHECK(*(int *)w.mem == 43 && *(long long *)(w.mem + 8) == 5,
                  "%s: the target holds %d and %lld", kind_name[k], *(int *)w.mem,
                  *(long long *)(w.mem + 8));
        rwin_free(&w);
    }
    MPI_Finalize();
    return 0;
}
