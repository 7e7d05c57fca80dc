/* MPI_Bcast: every root, counts 0..100000 (past the rendezvous threshold),
 * a vector datatype (holes untouched), the root and the others naming
 * different types, and on derived communicators. */
#include "coll_util.h"

static void bcast_ints(MPI_Comm comm, int count)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *buf = tt_alloc((size_t)count * sizeof(int) + sizeof(int));
    for (int root = 0; root < size; root++) {
        for (int i = 0; i <= count; i++) buf[i] = rank == root ? tt_val(root, i, 1) : -1;
        buf[count] = -9; /* guard past the end */
        CHECK_MPI(MPI_Bcast(buf, count, MPI_INT, root, comm));
        for (int i = 0; i < count; i++)
            CHECK(buf[i] == tt_val(root, i, 1), "count %d root %d: buf[%d]=%d", count, root, i,
                  buf[i]);
        CHECK(buf[count] == -9, "count %d root %d: wrote past the end", count, root);
    }
    free(buf);
}

static void bcast_vector(MPI_Comm comm, int count)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Datatype vec = tt_vector_type();
    size_t n = (size_t)count * TT_VEC_EXTENT;
    int *buf = tt_alloc(n * sizeof(int));
    for (int root = 0; root < size; root++) {
        for (size_t j = 0; j < n; j++)
            buf[j] = tt_vec_hole((int)(j % TT_VEC_EXTENT))
                         ? -7
                         : (rank == root ? tt_val(root, (long)j, 2) : -1);
        CHECK_MPI(MPI_Bcast(buf, count, vec, root, comm));
        for (size_t j = 0; j < n; j++) {
            int want = tt_vec_hole((int)(j % TT_VEC_EXTENT)) ? -7 : tt_val(root, (long)j, 2);
            CHECK(buf[j] == want, "vector count %d root %d: buf[%zu]=%d want %d", count, root, j,
                  buf[j], want);
        }
    }
    free(buf);
    MPI_Type_free(&vec);
}

/* The root names 3 n ints, the others n triples of ints: a broadcast cut
 * in pieces must cut both alike (by bytes, not by elements). */
static void bcast_mixed(MPI_Comm comm, int n)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Datatype triple;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &triple));
    CHECK_MPI(MPI_Type_commit(&triple));
    int *buf = tt_alloc((size_t)(3 * n + 1) * sizeof(int));
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < 3 * n; i++) buf[i] = rank == root ? tt_val(root, i, 3) : -1;
        buf[3 * n] = -9;
        if (rank == root)
            CHECK_MPI(MPI_Bcast(buf, 3 * n, MPI_INT, root, comm));
        else
            CHECK_MPI(MPI_Bcast(buf, n, triple, root, comm));
        for (int i = 0; i < 3 * n; i++)
            CHECK(buf[i] == tt_val(root, i, 3), "mixed types, %d triples, root %d: buf[%d]=%d", n,
                  root, i, buf[i]);
        CHECK(buf[3 * n] == -9, "mixed types, root %d: wrote past the end", root);
    }
    free(buf);
    MPI_Type_free(&triple);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int k = 0; k < TT_NCOUNTS; k++) bcast_ints(MPI_COMM_WORLD, tt_counts[k]);
    bcast_vector(MPI_COMM_WORLD, 1);
    bcast_vector(MPI_COMM_WORLD, 20000);
    bcast_vector(MPI_COMM_WORLD, 150);
    bcast_mixed(MPI_COMM_WORLD, 7);
    bcast_mixed(MPI_COMM_WORLD, 300);
    bcast_mixed(MPI_COMM_WORLD, 30001);

    /* A double buffer: MPI_DOUBLE and a non-int type. */
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double d[3] = {rank == 0 ? 1.5 : 0, rank == 0 ? -2.25 : 0, rank == 0 ? 1e300 : 0};
    CHECK_MPI(MPI_Bcast(d, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK(d[0] == 1.5 && d[1] == -2.25 && d[2] == 1e300, "doubles %g %g %g", d[0], d[1], d[2]);

    /* Derived communicators: a reversed dup-like split and halves. */
    MPI_Comm rev, half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    bcast_ints(rev, 1000);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    bcast_ints(half, 1000);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);

    MPI_Finalize();
    return 0;
}
