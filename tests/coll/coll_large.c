/* Large messages (4 MiB per rank) through the collectives that move the
 * most data: no deadlock between the rendezvous transfers of a step, exact
 * results, and quick enough to run on an oversubscribed machine (the ctest
 * timeout catches anything quadratic). */
#include "coll_util.h"

#define BYTES (4 << 20)
#define NINT (BYTES / (int)sizeof(int))

static int rank, size;

static int val(int r, long i) { return (int)(i % 100003) * 3 + r; }

static void allreduce(int *s, int *r)
{
    for (long i = 0; i < NINT; i++) s[i] = val(rank, i);
    CHECK_MPI(MPI_Allreduce(s, r, NINT, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    long rsum = (long)size * (size - 1) / 2;
    for (long i = 0; i < NINT; i++)
        CHECK(r[i] == (int)((i % 100003) * 3 * size + rsum), "allreduce [%ld]=%d", i, r[i]);
    /* in place, and MPI_MAX */
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, s, NINT, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    for (long i = 0; i < NINT; i++)
        CHECK(s[i] == val(size - 1, i), "allreduce max [%ld]=%d", i, s[i]);
}

static void alltoall(int *s, int *r)
{
    int blk = NINT / size;
    for (int d = 0; d < size; d++)
        for (int i = 0; i < blk; i++) s[(long)d * blk + i] = val(rank, (long)d * 7 + i);
    CHECK_MPI(MPI_Alltoall(s, blk, MPI_INT, r, blk, MPI_INT, MPI_COMM_WORLD));
    for (int src = 0; src < size; src++)
        for (int i = 0; i < blk; i++)
            CHECK(r[(long)src * blk + i] == val(src, (long)rank * 7 + i), "alltoall from %d [%d]",
                  src, i);
    CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, r, blk, MPI_INT, MPI_COMM_WORLD));
    for (int src = 0; src < size; src++)
        for (int i = 0; i < blk; i++)
            CHECK(r[(long)src * blk + i] == val(rank, (long)src * 7 + i),
                  "alltoall in place back from %d [%d]", src, i);
}

static void others(int *s, int *r)
{
    int blk = NINT / size;
    for (long i = 0; i < NINT; i++) s[i] = val(rank, i);
    CHECK_MPI(MPI_Reduce_scatter_block(s, r, blk, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    long rsum = (long)size * (size - 1) / 2;
    for (int i = 0; i < blk; i++) {
        long e = (long)rank * blk + i;
        CHECK(r[i] == (int)((e % 100003) * 3 * size + rsum), "reduce_scatter_block [%d]=%d", i,
              r[i]);
    }

    int root = size - 1;
    for (long i = 0; i < NINT; i++) r[i] = rank == root ? val(root, i) : -1;
    CHECK_MPI(MPI_Bcast(r, NINT, MPI_INT, root, MPI_COMM_WORLD));
    for (long i = 0; i < NINT; i++) CHECK(r[i] == val(root, i), "bcast [%ld]=%d", i, r[i]);

    for (int i = 0; i < blk; i++) s[i] = val(rank, i);
    CHECK_MPI(MPI_Allgather(s, blk, MPI_INT, r, blk, MPI_INT, MPI_COMM_WORLD));
    for (int src = 0; src < size; src++)
        for (int i = 0; i < blk; i++)
            CHECK(r[(long)src * blk + i] == val(src, i), "allgather %d [%d]", src, i);

    for (long i = 0; i < NINT; i++) s[i] = val(rank, i);
    CHECK_MPI(MPI_Scan(s, r, NINT, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    long psum = (long)rank * (rank + 1) / 2;
    for (long i = 0; i < NINT; i++)
        CHECK(r[i] == (int)((i % 100003) * 3 * (rank + 1) + psum), "scan [%ld]=%d", i, r[i]);
}

/* The non-commutative matrix product over 4 MiB of matrices. */
static void matrices(void)
{
    MPI_Op op;
    MPI_Datatype t = tt_mat_type();
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &op));
    long n = BYTES / (long)sizeof(tt_mat);
    tt_mat *s = tt_alloc((size_t)n * sizeof(tt_mat)), *r = tt_alloc((size_t)n * sizeof(tt_mat));
    for (long i = 0; i < n; i++) s[i] = tt_mat_of(rank, i);
    CHECK_MPI(MPI_Allreduce(s, r, (int)n, t, op, MPI_COMM_WORLD));
    for (long i = 0; i < n; i += 997)
        CHECK(tt_mat_eq(r[i], tt_mat_range(0, size - 1, i)), "allreduce matrices [%ld]", i);
    free(s);
    free(r);
    MPI_Op_free(&op);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *s = tt_alloc(BYTES), *r = tt_alloc(BYTES);
    double t0 = MPI_Wtime();
    allreduce(s, r);
    alltoall(s, r);
    others(s, r);
    matrices();
    double t = MPI_Wtime() - t0;
    if (rank == 0) printf("coll_large: %d ranks, %.2f s\n", size, t);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
