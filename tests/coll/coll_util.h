/* Shared by the collective tests: values that identify (rank, index), a
 * vector datatype, and a non-commutative reduction (2x2 matrix product). */
#ifndef TERN_TEST_COLL_UTIL_H
#define TERN_TEST_COLL_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

/* Element counts the collectives are tried at: 1000 ints fit what a slot
 * carries for every shared-memory algorithm (TERN_SHMCOLL_MAX), 10000 only
 * what it carries for bcast, gather and scatter (TERN_SHMCOLL_MOVE_MAX),
 * 100000 neither. */
static const int tt_counts[] = {0, 1, 1000, 10000, 100000};
#define TT_NCOUNTS ((int)(sizeof tt_counts / sizeof tt_counts[0]))

/* Distinct per (rank, index, salt); never negative. */
static inline int tt_val(int rank, long i, int salt)
{
    return (int)(((unsigned)rank * 1000003u + (unsigned)i * 7919u + (unsigned)salt * 31u) &
                 0x3fffffffu);
}

static inline void *tt_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    CHECK(p != NULL, "malloc(%zu)", bytes);
    return p;
}

/* Vector of 3 blocks of 2 ints with stride 4: one element covers ints
 * 0,1,4,5,8,9 of a 10-int extent; 2,3,6,7 are holes. */
/* MPI_COMM_WORLD, or with the argument "shuffled" its ranks ordered by rank
 * modulo 3: on hosts of 3 consecutive ranks, each host's ranks are then
 * spread over the communicator and no host's come first. */
static inline MPI_Comm tt_comm_from_args(int argc, char **argv)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    if (argc > 1 && !strcmp(argv[1], "shuffled")) {
        int wr, ws;
        MPI_Comm_rank(MPI_COMM_WORLD, &wr);
        MPI_Comm_size(MPI_COMM_WORLD, &ws);
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, (2 - wr % 3) * ws + wr, &comm));
    }
    return comm;
}

#define TT_VEC_INTS 6
#define TT_VEC_EXTENT 10
static inline MPI_Datatype tt_vector_type(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}
/* Position of the k-th data int (0..5) inside one vector element. */
static inline int tt_vec_pos(int k) { return (k / 2) * 4 + k % 2; }
static inline int tt_vec_hole(int j) { return j % 4 >= 2; }

/* 2x2 matrices of unsigned (arithmetic mod 2^32), the product in rank order
 * is non-commutative: no two ranks' matrices commute (matrices that differ
 * by a multiple of the identity would, and hide a wrong order). */
typedef struct {
    unsigned a, b, c, d;
} tt_mat;

static inline tt_mat tt_mat_mul(tt_mat x, tt_mat y)
{
    tt_mat r = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                x.c * y.b + x.d * y.d};
    return r;
}

static inline tt_mat tt_mat_of(int rank, long i)
{
    tt_mat m = {(unsigned)rank + 2u, (unsigned)i + 1u, 2u * (unsigned)rank + 1u,
                (unsigned)(rank * rank) + 3u};
    return m;
}

/* inout = in * inout: 'in' holds the lower ranks. */
static inline void tt_mat_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    tt_mat *x = in, *y = inout;
    for (int i = 0; i < *len; i++) y[i] = tt_mat_mul(x[i], y[i]);
}

static inline MPI_Datatype tt_mat_type(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_UNSIGNED, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static inline int tt_mat_eq(tt_mat x, tt_mat y)
{
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

/* Product of the matrices of ranks lo..hi (inclusive) for index i. */
static inline tt_mat tt_mat_range(int lo, int hi, long i)
{
    tt_mat r = {1, 0, 0, 1};
    for (int k = lo; k <= hi; k++) r = tt_mat_mul(r, tt_mat_of(k, i));
    return r;
}

#endif
