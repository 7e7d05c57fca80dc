/* MPI_Dims_create: the standard's examples, balance against a brute-force
 * search, fixed entries, and errors. */
#include <stdlib.h>

#include "topo_util.h"

static void want(int nnodes, int ndims, const int *in, const int *expect)
{
    int d[8];
    memcpy(d, in, (size_t)ndims * sizeof(int));
    CHECK_MPI(MPI_Dims_create(nnodes, ndims, d));
    for (int i = 0; i < ndims; i++)
        CHECK(d[i] == expect[i], "Dims_create(%d, %d): dims[%d]=%d, want %d", nnodes, ndims, i,
              d[i], expect[i]);
}

/* n as a product of 'parts' factors, each in [lo, hi]. */
static int fits(int n, int parts, int lo, int hi)
{
    if (parts == 0) return n == 1;
    for (int f = lo; f <= hi && f <= n; f++)
        if (n % f == 0 && fits(n / f, parts - 1, lo, f)) return 1;
    return 0;
}

/* The smallest max - min over all factorisations of n into k factors
 * (brute force): f is the largest factor, lo the smallest. */
static int best_spread(int n, int k)
{
    if (k == 1) return 0;
    int best = n;
    for (int f = 1; f <= n; f++) {
        if (n % f) continue;
        for (int lo = f; lo >= 1; lo--) {
            if (fits(n / f, k - 1, lo, f)) {
                if (f - lo < best) best = f - lo;
                break;
            }
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* MPI-4.1 Example 8.1. */
    want(6, 2, (int[]){0, 0}, (int[]){3, 2});
    want(7, 2, (int[]){0, 0}, (int[]){7, 1});
    want(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    EXPECT_ERR(MPI_Dims_create(7, 3, (int[]){0, 3, 0}), MPI_ERR_DIMS, "MPI_Dims_create");

    /* More balanced cases (the same answers as MPICH gives). */
    want(12, 3, (int[]){0, 0, 0}, (int[]){3, 2, 2});
    want(36, 3, (int[]){0, 0, 0}, (int[]){4, 3, 3});
    want(120, 3, (int[]){0, 0, 0}, (int[]){6, 5, 4});
    want(360, 3, (int[]){0, 0, 0}, (int[]){10, 6, 6});
    want(16, 4, (int[]){0, 0, 0, 0}, (int[]){2, 2, 2, 2});
    /* Equal spreads (14 - 7, 13 - 6): the larger second smallest factor wins. */
    want(98784, 5, (int[]){0, 0, 0, 0, 0}, (int[]){14, 14, 9, 8, 7});
    want(5616, 4, (int[]){0, 0, 0, 0}, (int[]){13, 9, 8, 6});
    want(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    want(8, 2, (int[]){0, 2}, (int[]){4, 2});
    want(24, 3, (int[]){0, 2, 0}, (int[]){4, 2, 3});
    want(6, 2, (int[]){3, 2}, (int[]){3, 2});
    want(1073741824, 3, (int[]){0, 0, 0}, (int[]){1024, 1024, 1024});
    want(2147483647, 2, (int[]){0, 0}, (int[]){2147483647, 1});

    /* Every answer: right product, non-increasing free entries, and as
     * balanced as any factorisation. */
    for (int k = 1; k <= 4; k++) {
        for (int n = 1; n <= 128; n++) {
            int d[4] = {0, 0, 0, 0}, prod = 1;
            CHECK_MPI(MPI_Dims_create(n, k, d));
            for (int i = 0; i < k; i++) {
                prod *= d[i];
                CHECK(i == 0 || d[i] <= d[i - 1], "Dims_create(%d,%d) not non-increasing", n, k);
            }
            CHECK(prod == n, "Dims_create(%d,%d): product %d", n, k, prod);
            int spread = d[0] - d[k - 1], best = best_spread(n, k);
            CHECK(spread == best, "Dims_create(%d,%d): spread %d, best possible %d", n, k, spread,
                  best);
        }
    }

    /* Errors. */
    int d2[2] = {0, 0};
    EXPECT_ERR(MPI_Dims_create(0, 2, d2), MPI_ERR_ARG, "nnodes");
    EXPECT_ERR(MPI_Dims_create(-4, 2, d2), MPI_ERR_ARG, "MPI_Dims_create");
    EXPECT_ERR(MPI_Dims_create(6, -1, d2), MPI_ERR_ARG, "ndims");
    EXPECT_ERR(MPI_Dims_create(6, 2, (int[]){-1, 0}), MPI_ERR_DIMS, "dims[0]=-1");
    EXPECT_ERR(MPI_Dims_create(6, 2, (int[]){4, 0}), MPI_ERR_DIMS, "MPI_Dims_create");
    EXPECT_ERR(MPI_Dims_create(6, 1, (int[]){1}), MPI_ERR_DIMS, "MPI_Dims_create");
    EXPECT_ERR(MPI_Dims_create(5, 0, NULL), MPI_ERR_DIMS, "MPI_Dims_create");
    EXPECT_ERR(MPI_Dims_create(6, 2, NULL), MPI_ERR_ARG, "dims");
    CHECK_MPI(MPI_Dims_create(1, 0, NULL));
    /* A failed call leaves dims alone. */
    int d3[3] = {0, 3, 0};
    MPI_Dims_create(7, 3, d3);
    CHECK(d3[0] == 0 && d3[1] == 3 && d3[2] == 0, "failed call changed dims");

    MPI_Finalize();
    return 0;
}
