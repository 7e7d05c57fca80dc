/* MPI_Gather, MPI_Gatherv, MPI_Scatter, MPI_Scatterv: every root, counts
 * 0..100000, MPI_IN_PLACE at the root, a vector receive (send) type at the
 * root against plain ints elsewhere; on MPI_COMM_WORLD or shuffled
 * (tt_comm_from_args). */
#include "coll_util.h"

static int rank, size;
static MPI_Comm comm; /* tt_comm_from_args */

static void gather(int count, int in_place)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc((size_t)count * sizeof(int));
    int *rbuf = tt_alloc(total * sizeof(int));
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < count; i++) sbuf[i] = tt_val(rank, i, root);
        for (size_t j = 0; j < total; j++) rbuf[j] = -1;
        if (in_place && rank == root)
            for (int i = 0; i < count; i++) rbuf[(size_t)root * count + i] = tt_val(rank, i, root);
        const void *sb = in_place && rank == root ? MPI_IN_PLACE : sbuf;
        CHECK_MPI(MPI_Gather(sb, count, MPI_INT, rbuf, count, MPI_INT, root, comm));
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int i = 0; i < count; i++)
                    CHECK(rbuf[(size_t)r * count + i] == tt_val(r, i, root),
                          "gather count %d root %d in_place %d: block %d [%d]=%d", count, root,
                          in_place, r, i, rbuf[(size_t)r * count + i]);
    }
    free(sbuf);
    free(rbuf);
}

/* The root receives vector elements, the others send 6 ints per element. */
static void gather_vector(int count)
{
    MPI_Datatype vec = tt_vector_type();
    size_t per = (size_t)count * TT_VEC_EXTENT;
    int *sbuf = tt_alloc((size_t)count * TT_VEC_INTS * sizeof(int));
    int *rbuf = tt_alloc(per * (size_t)size * sizeof(int));
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < count * TT_VEC_INTS; i++) sbuf[i] = tt_val(rank, i, 5);
        for (size_t j = 0; j < per * (size_t)size; j++) rbuf[j] = -7;
        CHECK_MPI(MPI_Gather(sbuf, count * TT_VEC_INTS, MPI_INT, rbuf, count, vec, root, comm));
        if (rank != root) continue;
        for (int r = 0; r < size; r++)
            for (int e = 0; e < count; e++)
                for (int j = 0; j < TT_VEC_EXTENT; j++) {
                    int got = rbuf[(size_t)r * per + (size_t)e * TT_VEC_EXTENT + j];
                    int want = -7;
                    if (!tt_vec_hole(j)) want = tt_val(r, e * TT_VEC_INTS + (j / 4) * 2 + j % 4, 5);
                    CHECK(got == want, "gather vector root %d block %d elem %d pos %d: %d want %d",
                          root, r, e, j, got, want);
                }
    }
    free(sbuf);
    free(rbuf);
    MPI_Type_free(&vec);
}

static void scatter(int count, int in_place)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc(total * sizeof(int));
    int *rbuf = tt_alloc((size_t)count * sizeof(int));
    for (int root = 0; root < size; root++) {
        for (size_t j = 0; j < total; j++)
            sbuf[j] = rank == root ? tt_val((int)(j / (count ? count : 1)),
                                            (long)(j % (count ? count : 1)), root)
                                   : -1;
        for (int i = 0; i < count; i++) rbuf[i] = -1;
        void *rb = in_place && rank == root ? MPI_IN_PLACE : rbuf;
        CHECK_MPI(MPI_Scatter(sbuf, count, MPI_INT, rb, count, MPI_INT, root, comm));
        const int *mine = in_place && rank == root ? sbuf + (size_t)root * count : rbuf;
        for (int i = 0; i < count; i++)
            CHECK(mine[i] == tt_val(rank, i, root), "scatter count %d root %d in_place %d: [%d]=%d",
                  count, root, in_place, i, mine[i]);
    }
    free(sbuf);
    free(rbuf);
}

static void scatter_vector(int count)
{
    MPI_Datatype vec = tt_vector_type();
    size_t per = (size_t)count * TT_VEC_EXTENT;
    int *sbuf = tt_alloc(per * (size_t)size * sizeof(int));
    int *rbuf = tt_alloc((size_t)count * TT_VEC_INTS * sizeof(int));
    for (int root = 0; root < size; root++) {
        for (size_t j = 0; j < per * (size_t)size; j++) sbuf[j] = (int)j;
        CHECK_MPI(MPI_Scatter(sbuf, count, vec, rbuf, count * TT_VEC_INTS, MPI_INT, root, comm));
        for (int e = 0; e < count; e++)
            for (int k = 0; k < TT_VEC_INTS; k++) {
                int want = (int)((size_t)rank * per + (size_t)e * TT_VEC_EXTENT + tt_vec_pos(k));
                CHECK(rbuf[e * TT_VEC_INTS + k] == want,
                      "scatter vector root %d elem %d k %d: %d want %d", root, e, k,
                      rbuf[e * TT_VEC_INTS + k], want);
            }
    }
    free(sbuf);
    free(rbuf);
    MPI_Type_free(&vec);
}

/* Rank r contributes (r % 3) * base ints; blocks are placed in reverse rank
 * order with a gap of 2 between them. */
static void gatherv_scatterv(int base, int in_place)
{
    int *counts = tt_alloc((size_t)size * sizeof(int)),
        *displs = tt_alloc((size_t)size * sizeof(int));
    int off = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = (r % 3) * base;
        displs[r] = off;
        off += counts[r] + 2;
    }
    int *big = tt_alloc((size_t)off * sizeof(int));
    int *mine = tt_alloc((size_t)counts[rank] * sizeof(int) + 1);
    for (int root = 0; root < size; root++) {
        /* gatherv */
        for (int i = 0; i < counts[rank]; i++) mine[i] = tt_val(rank, i, 11);
        for (int j = 0; j < off; j++) big[j] = -3;
        if (in_place && rank == root)
            for (int i = 0; i < counts[root]; i++) big[displs[root] + i] = tt_val(root, i, 11);
        const void *sb = in_place && rank == root ? MPI_IN_PLACE : mine;
        CHECK_MPI(MPI_Gatherv(sb, counts[rank], MPI_INT, big, counts, displs, MPI_INT, root, comm));
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < counts[r]; i++)
                    CHECK(big[displs[r] + i] == tt_val(r, i, 11),
                          "gatherv root %d block %d [%d]=%d", root, r, i, big[displs[r] + i]);
                CHECK(big[displs[r] + counts[r]] == -3, "gatherv root %d: gap after %d written",
                      root, r);
            }
        }
        /* scatterv back, shifted values */
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int i = 0; i < counts[r]; i++) big[displs[r] + i] = tt_val(r, i, 12);
        for (int i = 0; i < counts[rank]; i++) mine[i] = -1;
        void *rb = in_place && rank == root ? MPI_IN_PLACE : mine;
        CHECK_MPI(
            MPI_Scatterv(big, counts, displs, MPI_INT, rb, counts[rank], MPI_INT, root, comm));
        const int *got = in_place && rank == root ? big + displs[root] : mine;
        for (int i = 0; i < counts[rank]; i++)
            CHECK(got[i] == tt_val(rank, i, 12), "scatterv root %d [%d]=%d", root, i, got[i]);
    }
    free(counts);
    free(displs);
    free(big);
    free(mine);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    comm = tt_comm_from_args(argc, argv);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int k = 0; k < TT_NCOUNTS; k++) {
        gather(tt_counts[k], 0);
        scatter(tt_counts[k], 0);
    }
    gather(1000, 1);
    gather(100000, 1);
    scatter(1000, 1);
    scatter(100000, 1);
    gather_vector(1);
    gather_vector(5000);
    scatter_vector(1);
    scatter_vector(5000);
    gatherv_scatterv(0, 0);
    gatherv_scatterv(1, 0);
    gatherv_scatterv(1000, 0);
    gatherv_scatterv(50000, 0);
    gatherv_scatterv(1000, 1);
    MPI_Finalize();
    return 0;
}
