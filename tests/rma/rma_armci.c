/* ARMCI-MPI (Debian's libarmci-mpi-dev, built against MPICH's headers) on
 * Tern: the one-sided layer under Global Arrays and NWChem, which works
 * through MPI_Win_allocate, lock/flush epochs, subarray and hindexed
 * datatypes in puts, gets and accumulates, MPI_Get_accumulate and
 * MPI_Fetch_and_op.  Every rank:
 *   puts its block into every rank's vector, then gets a neighbour's;
 *   puts and gets a strided 3x5 block of a neighbour's 16x16 matrix;
 *   accumulates (scale 2) a strided 4x4 block into the same matrix of
 *   every rank, and whole rows into rank 0's;
 *   fetches-and-adds rank 0's counter 50 times (each value once);
 *   increments a second counter on rank 0 20 times under an ARMCI mutex
 *   (get, add, put: exact only when the mutex excludes).
 * Values are checked after ARMCI_Barrier, which completes all. */
#include <armci.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

#define K 64
#define M 16
#define ADDS 50
#define LOCKED 20

static int rank, size;

static int val(int r, int i) { return 1000 * r + i; }

static void **bases(size_t bytes)
{
    void **p = calloc((size_t)size, sizeof *p);
    CHECK(p, "out of memory");
    CHECK(ARMCI_Malloc(p, (armci_size_t)bytes) == 0, "ARMCI_Malloc of %zu bytes failed", bytes);
    return p;
}

static void contiguous(int **vec)
{
    int mine[K];
    for (int i = 0; i < K; i++) mine[i] = val(rank, i);
    for (int t = 0; t < size; t++) ARMCI_Put(mine, vec[t] + rank * K, (int)sizeof mine, t);
    ARMCI_Barrier();
    ARMCI_Access_begin(vec[rank]);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < K; i++)
            CHECK(vec[rank][r * K + i] == val(r, i), "put: block %d [%d] = %d, want %d", r, i,
                  vec[rank][r * K + i], val(r, i));
    ARMCI_Access_end(vec[rank]);
    int right = (rank + 1) % size, got[K];
    ARMCI_Get(vec[right] + right * K, got, (int)sizeof got, right);
    for (int i = 0; i < K; i++)
        CHECK(got[i] == val(right, i), "get from %d: [%d] = %d, want %d", right, i, got[i],
              val(right, i));
    ARMCI_Barrier();
}

/* Element (i, j) of a rank's M x M matrix of doubles. */
static double *at(double *m, int i, int j) { return m + i * M + j; }

static void strided(double **mat)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    ARMCI_Access_begin(mat[rank]);
    for (int i = 0; i < M * M; i++) mat[rank][i] = -1;
    ARMCI_Access_end(mat[rank]);
    ARMCI_Barrier();

    /* A 3x5 block of the right neighbour's matrix, rows 2-4 and columns
     * 6-10, from a 3x5 local array. */
    double blk[3][5], back[3][5];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) blk[i][j] = 100 * rank + 10 * i + j;
    int sstride[1] = {5 * (int)sizeof(double)}, dstride[1] = {M * (int)sizeof(double)};
    int count[2] = {5 * (int)sizeof(double), 3};
    ARMCI_PutS(blk, sstride, at(mat[right], 2, 6), dstride, count, 1, right);
    ARMCI_Barrier();
    ARMCI_GetS(at(mat[right], 2, 6), dstride, back, sstride, count, 1, right);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            CHECK(back[i][j] == blk[i][j], "strided get from %d: (%d,%d) = %g, want %g", right, i,
                  j, back[i][j], blk[i][j]);
    ARMCI_Access_begin(mat[rank]);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            int in = i >= 2 && i <= 4 && j >= 6 && j <= 10;
            double want = in ? 100 * left + 10 * (i - 2) + (j - 6) : -1;
            CHECK(*at(mat[rank], i, j) == want, "strided put: (%d,%d) = %g, want %g", i, j,
                  *at(mat[rank], i, j), want);
        }
    ARMCI_Access_end(mat[rank]);
    ARMCI_Barrier(); /* the left neighbour's get is over before the matrix changes */
    ARMCI_Access_begin(mat[rank]);
    for (int i = 0; i < M * M; i++) mat[rank][i] = 0;
    ARMCI_Access_end(mat[rank]);
    ARMCI_Barrier();

    /* Every rank adds 2 * (rank + 1) to a 4x4 block (rows 8-11, columns
     * 1-4) of every matrix, and 2 * 1 to all of rank 0's rows 0-1. */
    double ones[4][4], scale = 2.0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) ones[i][j] = rank + 1;
    int astride[1] = {4 * (int)sizeof(double)}, acount[2] = {4 * (int)sizeof(double), 4};
    for (int t = 0; t < size; t++)
        ARMCI_AccS(ARMCI_ACC_DBL, &scale, ones, astride, at(mat[t], 8, 1), dstride, acount, 1, t);
    double row[2 * M];
    for (int j = 0; j < 2 * M; j++) row[j] = 1;
    ARMCI_Acc(ARMCI_ACC_DBL, &scale, row, mat[0], (int)sizeof row, 0);
    ARMCI_Barrier();
    double sum = 0;
    for (int r = 0; r < size; r++) sum += 2.0 * (r + 1);
    ARMCI_Access_begin(mat[rank]);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            double want = i >= 8 && i <= 11 && j >= 1 && j <= 4 ? sum : 0;
            if (rank == 0 && i < 2) want += 2.0 * size;
            CHECK(*at(mat[rank], i, j) == want, "accumulate: (%d,%d) = %g, want %g", i, j,
                  *at(mat[rank], i, j), want);
        }
    ARMCI_Access_end(mat[rank]);
    ARMCI_Barrier();
}

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void counters(int **cnt)
{
    int got[ADDS];
    for (int k = 0; k < ADDS; k++) ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &got[k], cnt[0], 1, 0);
    int *all = calloc((size_t)size * ADDS, sizeof *all);
    CHECK(all, "out of memory");
    CHECK_MPI(MPI_Allgather(got, ADDS, MPI_INT, all, ADDS, MPI_INT, MPI_COMM_WORLD));
    qsort(all, (size_t)size * ADDS, sizeof *all, by_value);
    for (int i = 0; i < size * ADDS; i++)
        CHECK(all[i] == i, "fetch-and-add: the %d-th smallest value fetched is %d", i, all[i]);
    free(all);

    CHECK(ARMCI_Create_mutexes(1) == 0, "ARMCI_Create_mutexes failed");
    for (int k = 0; k < LOCKED; k++) {
        int v;
        ARMCI_Lock(0, 0);
        ARMCI_Get(cnt[0] + 1, &v, (int)sizeof v, 0);
        v++;
        ARMCI_Put(&v, cnt[0] + 1, (int)sizeof v, 0);
        ARMCI_Fence(0);
        ARMCI_Unlock(0, 0);
    }
    ARMCI_Barrier();
    if (rank == 0) {
        ARMCI_Access_begin(cnt[0]);
        CHECK(cnt[0][0] == size * ADDS, "counter: %d after %d fetch-and-adds", cnt[0][0],
              size * ADDS);
        CHECK(cnt[0][1] == size * LOCKED, "counter under the mutex: %d, want %d", cnt[0][1],
              size * LOCKED);
        ARMCI_Access_end(cnt[0]);
    }
    CHECK(ARMCI_Destroy_mutexes() == 0, "ARMCI_Destroy_mutexes failed");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(ARMCI_Init() == 0, "ARMCI_Init failed");
    int **vec = (int **)bases((size_t)size * K * sizeof(int));
    double **mat = (double **)bases(M * M * sizeof(double));
    int **cnt = (int **)bases(2 * sizeof(int));
    ARMCI_Access_begin(cnt[rank]);
    cnt[rank][0] = cnt[rank][1] = 0;
    ARMCI_Access_end(cnt[rank]);
    ARMCI_Barrier();

    contiguous(vec);
    strided(mat);
    counters(cnt);

    ARMCI_Free(cnt[rank]);
    ARMCI_Free(mat[rank]);
    ARMCI_Free(vec[rank]);
    free(cnt);
    free(mat);
    free(vec);
    ARMCI_Finalize();
    if (rank == 0) printf("rma_armci passed (%d ranks)\n", size);
    MPI_Finalize();
    return 0;
}
