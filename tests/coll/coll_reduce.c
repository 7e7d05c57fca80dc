/* Reductions: MPI_Reduce (every root), MPI_Allreduce,
 * MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Scan, MPI_Exscan with
 * MPI_SUM, a user non-commutative operation (2x2 matrix product, which
 * must come out in rank order), MPI_IN_PLACE, a vector datatype; on
 * MPI_COMM_WORLD or shuffled (tt_comm_from_args). */
#include "coll_util.h"

static int rank, size;
static MPI_Comm comm; /* tt_comm_from_args */
static MPI_Op matop;
static MPI_Datatype mattype;

static int sval(int r, long i) { return tt_val(r, i, 21) % 1000003; }

static long sum_upto(int hi, long i) /* sum over ranks 0..hi */
{
    long s = 0;
    for (int r = 0; r <= hi; r++) s += sval(r, i);
    return s;
}

static void fill_ints(int *b, int count)
{
    for (int i = 0; i < count; i++) b[i] = sval(rank, i);
}

static void fill_mats(tt_mat *b, int count)
{
    for (int i = 0; i < count; i++) b[i] = tt_mat_of(rank, i);
}

static void reduce_sum(int count, int in_place)
{
    int *s = tt_alloc((size_t)count * sizeof(int)), *r = tt_alloc((size_t)count * sizeof(int));
    for (int root = 0; root < size; root++) {
        fill_ints(s, count);
        if (in_place && rank == root) fill_ints(r, count);
        const void *sb = in_place && rank == root ? MPI_IN_PLACE : s;
        CHECK_MPI(MPI_Reduce(sb, r, count, MPI_INT, MPI_SUM, root, comm));
        if (rank == root)
            for (int i = 0; i < count; i++)
                CHECK(r[i] == sum_upto(size - 1, i),
                      "reduce sum count %d root %d in_place %d: [%d]=%d", count, root, in_place, i,
                      r[i]);
    }
    free(s);
    free(r);
}

static void reduce_mat(int count, int in_place)
{
    tt_mat *s = tt_alloc((size_t)count * sizeof(tt_mat)),
           *r = tt_alloc((size_t)count * sizeof(tt_mat));
    for (int root = 0; root < size; root++) {
        fill_mats(s, count);
        if (in_place && rank == root) fill_mats(r, count);
        const void *sb = in_place && rank == root ? MPI_IN_PLACE : s;
        CHECK_MPI(MPI_Reduce(sb, r, count, mattype, matop, root, comm));
        if (rank == root)
            for (int i = 0; i < count; i++)
                CHECK(tt_mat_eq(r[i], tt_mat_range(0, size - 1, i)),
                      "reduce matrix count %d root %d: element %d out of rank order", count, root,
                      i);
    }
    free(s);
    free(r);
}

static void reduce_vector(int count)
{
    MPI_Datatype vec = tt_vector_type();
    size_t n = (size_t)count * TT_VEC_EXTENT;
    int *s = tt_alloc(n * sizeof(int)), *r = tt_alloc(n * sizeof(int));
    for (size_t j = 0; j < n; j++) s[j] = sval(rank, (long)j);
    for (int root = 0; root<size; root += size> 2 ? size - 1 : 1) {
        for (size_t j = 0; j < n; j++) r[j] = -7;
        CHECK_MPI(MPI_Reduce(s, r, count, vec, MPI_SUM, root, comm));
        if (rank == root)
            for (size_t j = 0; j < n; j++) {
                long want =
                    tt_vec_hole((int)(j % TT_VEC_EXTENT)) ? -7 : sum_upto(size - 1, (long)j);
                CHECK(r[j] == want, "reduce vector root %d [%zu]=%d want %ld", root, j, r[j], want);
            }
        for (size_t j = 0; j < n; j++) r[j] = -7;
        CHECK_MPI(MPI_Allreduce(s, r, count, vec, MPI_SUM, comm));
        for (size_t j = 0; j < n; j++) {
            long want = tt_vec_hole((int)(j % TT_VEC_EXTENT)) ? -7 : sum_upto(size - 1, (long)j);
            CHECK(r[j] == want, "allreduce vector [%zu]=%d want %ld", j, r[j], want);
        }
    }
    free(s);
    free(r);
    MPI_Type_free(&vec);
}

static void allreduce(int count, int in_place)
{
    int *s = tt_alloc((size_t)count * sizeof(int)), *r = tt_alloc((size_t)count * sizeof(int));
    fill_ints(s, count);
    if (in_place) fill_ints(r, count);
    CHECK_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, count, MPI_INT, MPI_SUM, comm));
    for (int i = 0; i < count; i++)
        CHECK(r[i] == sum_upto(size - 1, i), "allreduce sum count %d in_place %d: [%d]=%d", count,
              in_place, i, r[i]);
    free(s);
    free(r);

    tt_mat *ms = tt_alloc((size_t)count * sizeof(tt_mat)),
           *mr = tt_alloc((size_t)count * sizeof(tt_mat));
    fill_mats(ms, count);
    if (in_place) fill_mats(mr, count);
    CHECK_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : ms, mr, count, mattype, matop, comm));
    for (int i = 0; i < count; i++)
        CHECK(tt_mat_eq(mr[i], tt_mat_range(0, size - 1, i)),
              "allreduce matrix count %d in_place %d: element %d out of rank order", count,
              in_place, i);
    free(ms);
    free(mr);

    double d = rank * 1.25 - 3, dmax;
    CHECK_MPI(MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, comm));
    CHECK(dmax == (size - 1) * 1.25 - 3, "allreduce max %g", dmax);
}

static void reduce_scatter_block(int count, int in_place)
{
    size_t total = (size_t)count * (size_t)size;
    int *s = tt_alloc(total * sizeof(int)), *r = tt_alloc(total * sizeof(int));
    for (size_t j = 0; j < total; j++) s[j] = sval(rank, (long)j);
    if (in_place) memcpy(r, s, total * sizeof(int));
    CHECK_MPI(
        MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : s, r, count, MPI_INT, MPI_SUM, comm));
    for (int i = 0; i < count; i++) {
        long j = (long)rank * count + i;
        CHECK(r[i] == sum_upto(size - 1, j), "reduce_scatter_block count %d in_place %d: [%d]=%d",
              count, in_place, i, r[i]);
    }
    free(s);
    free(r);

    tt_mat *ms = tt_alloc(total * sizeof(tt_mat)), *mr = tt_alloc(total * sizeof(tt_mat));
    fill_mats(ms, (int)total);
    if (in_place) memcpy(mr, ms, total * sizeof(tt_mat));
    CHECK_MPI(
        MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : ms, mr, count, mattype, matop, comm));
    for (int i = 0; i < count; i++)
        CHECK(tt_mat_eq(mr[i], tt_mat_range(0, size - 1, (long)rank * count + i)),
              "reduce_scatter_block matrix count %d: element %d out of rank order", count, i);
    free(ms);
    free(mr);
}

/* Rank r gets (r % 3) * base elements (some get none). */
static void reduce_scatter(int base, int in_place)
{
    int *counts = tt_alloc((size_t)size * sizeof(int));
    size_t total = 0, first = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = (r % 3) * base;
        if (r < rank) first += (size_t)counts[r];
        total += (size_t)counts[r];
    }
    int *s = tt_alloc(total * sizeof(int)), *r = tt_alloc(total * sizeof(int));
    for (size_t j = 0; j < total; j++) s[j] = sval(rank, (long)j);
    if (in_place) memcpy(r, s, total * sizeof(int));
    CHECK_MPI(MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : s, r, counts, MPI_INT, MPI_SUM, comm));
    for (int i = 0; i < counts[rank]; i++)
        CHECK(r[i] == sum_upto(size - 1, (long)(first + i)),
              "reduce_scatter base %d in_place %d: [%d]=%d", base, in_place, i, r[i]);

    tt_mat *ms = tt_alloc(total * sizeof(tt_mat)), *mr = tt_alloc(total * sizeof(tt_mat));
    fill_mats(ms, (int)total);
    if (in_place) memcpy(mr, ms, total * sizeof(tt_mat));
    CHECK_MPI(MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : ms, mr, counts, mattype, matop, comm));
    for (int i = 0; i < counts[rank]; i++)
        CHECK(tt_mat_eq(mr[i], tt_mat_range(0, size - 1, (long)(first + i))),
              "reduce_scatter matrix base %d: element %d out of rank order", base, i);
    free(counts);
    free(s);
    free(r);
    free(ms);
    free(mr);
}

static void scans(int count, int in_place)
{
    int *s = tt_alloc((size_t)count * sizeof(int)), *r = tt_alloc((size_t)count * sizeof(int));
    fill_ints(s, count);
    if (in_place) fill_ints(r, count);
    CHECK_MPI(MPI_Scan(in_place ? MPI_IN_PLACE : s, r, count, MPI_INT, MPI_SUM, comm));
    for (int i = 0; i < count; i++)
        CHECK(r[i] == sum_upto(rank, i), "scan count %d in_place %d: [%d]=%d", count, in_place, i,
              r[i]);

    if (in_place)
        fill_ints(r, count);
    else
        for (int i = 0; i < count; i++) r[i] = -5;
    CHECK_MPI(MPI_Exscan(in_place ? MPI_IN_PLACE : s, r, count, MPI_INT, MPI_SUM, comm));
    if (rank > 0)
        for (int i = 0; i < count; i++)
            CHECK(r[i] == sum_upto(rank - 1, i), "exscan count %d in_place %d: [%d]=%d", count,
                  in_place, i, r[i]);
    free(s);
    free(r);

    tt_mat *ms = tt_alloc((size_t)count * sizeof(tt_mat)),
           *mr = tt_alloc((size_t)count * sizeof(tt_mat));
    fill_mats(ms, count);
    if (in_place) fill_mats(mr, count);
    CHECK_MPI(MPI_Scan(in_place ? MPI_IN_PLACE : ms, mr, count, mattype, matop, comm));
    for (int i = 0; i < count; i++)
        CHECK(tt_mat_eq(mr[i], tt_mat_range(0, rank, i)),
              "scan matrix count %d: element %d out of order", count, i);
    if (in_place) fill_mats(mr, count);
    CHECK_MPI(MPI_Exscan(in_place ? MPI_IN_PLACE : ms, mr, count, mattype, matop, comm));
    if (rank > 0)
        for (int i = 0; i < count; i++)
            CHECK(tt_mat_eq(mr[i], tt_mat_range(0, rank - 1, i)),
                  "exscan matrix count %d: element %d out of order", count, i);
    free(ms);
    free(mr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    comm = tt_comm_from_args(argc, argv);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &matop));
    mattype = tt_mat_type();

    for (int k = 0; k < TT_NCOUNTS; k++) {
        int n = tt_counts[k];
        reduce_sum(n, 0);
        reduce_mat(n, 0);
        allreduce(n, 0);
        allreduce(n, 1);
        scans(n, 0);
        scans(n, 1);
        reduce_scatter_block(n / 4, 0);
    }
    reduce_sum(1000, 1);
    reduce_sum(100000, 1);
    reduce_mat(1000, 1);
    reduce_vector(1);
    reduce_vector(3000);
    reduce_scatter_block(1000, 1);
    reduce_scatter(0, 0);
    reduce_scatter(1, 0);
    reduce_scatter(1000, 0);
    reduce_scatter(30000, 0);
    reduce_scatter(1000, 1);

    MPI_Op_free(&matop);
    MPI_Type_free(&mattype);
    MPI_Finalize();
    return 0;
}
