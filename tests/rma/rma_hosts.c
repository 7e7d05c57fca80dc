/* What the cross-host runs add to rma_values and rma_atomic: an exclusive
 * lock serialises fetch_and_op and accumulate counters at rank 0 (every
 * fetched value once, the total exact), and MPI_Win_test completes an
 * exposure epoch whose origins are on other hosts.  Run under
 * TERN_RANKS_PER_HOST by ctest (rma_hosts_*); on one host it checks the
 * same things. */
#include <stdio.h>

#include "rma_util.h"

#define N 40

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void counters(int rank, int size)
{
    int *mem, one = 1, fetched[N], *all = malloc((size_t)size * N * sizeof *all);
    MPI_Win win;
    CHECK_MPI(
        MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    mem[0] = mem[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &fetched[i], MPI_INT, 0, 0, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Gather(fetched, N, MPI_INT, all, N, MPI_INT, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK(mem[0] == N * size && mem[1] == N * size,
              "exclusive counters: fetch_and_op %d, accumulate %d, want %d", mem[0], mem[1],
              N * size);
        qsort(all, (size_t)N * size, sizeof *all, cmp_int);
        for (int i = 0; i < N * size; i++)
            CHECK(all[i] == i, "fetch_and_op under an exclusive lock fetched %d twice or never", i);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_free(&win));
    free(all);
}

/* Rank 0 exposes its window to every other rank and polls MPI_Win_test. */
static void pscw_test(int rank, int size)
{
    int *mem;
    MPI_Win win;
    MPI_Group wg, g;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)size * sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < size; i++) mem[i] = -1;
    CHECK_MPI(MPI_Win_get_group(win, &wg));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int zero = 0;
        CHECK_MPI(MPI_Group_excl(wg, 1, &zero, &g));
        CHECK_MPI(MPI_Win_post(g, 0, win));
        int flag = 0;
        long polls = 0;
        while (!flag) {
            CHECK_MPI(MPI_Win_test(win, &flag));
            polls++;
        }
        for (int r = 1; r < size; r++)
            CHECK(mem[r] == 100 + r, "post-start-complete-test: slot %d holds %d", r, mem[r]);
        CHECK(mem[0] == -1, "post-start-complete-test: slot 0 written (%d)", mem[0]);
        CHECK(polls >= 1, "MPI_Win_test never polled");
    } else {
        int zero = 0, v = 100 + rank;
        CHECK_MPI(MPI_Group_incl(wg, 1, &zero, &g));
        CHECK_MPI(MPI_Win_start(g, 0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, rank, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
    }
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int spans = rma_spans_hosts(MPI_COMM_WORLD);
    counters(rank, size);
    pscw_test(rank, size);
    if (rank == 0)
        printf("rma_hosts: exclusive counters and post/test at %d ranks%s: ok\n", size,
               spans ? " on several hosts" : "");
    MPI_Finalize();
    return 0;
}
