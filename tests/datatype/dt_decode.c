/* MPI_Type_get_envelope(_c) and MPI_Type_get_contents(_c), one process:
 * for every combiner, the exact numbers and arrays the standard lists
 * (MPI 4.1 sec. 5.1.13), from the int constructors and from the _c ones
 * (whose counts and byte displacements all come back as large counts,
 * but the ints of subarray and darray that are not array sizes), asked
 * through both query forms where they apply.  Output arrays larger than
 * needed are written only as far as the envelope says; arrays too small
 * are an error that writes nothing.  The _c constructors take values
 * beyond an int, and those types commit with the sizes and extents the
 * definitions give. */
#include <limits.h>
#include <string.h>

#include "dt_expect.h"

#define POISON_INT (-777)
#define POISON_TYPE ((MPI_Datatype)0x0badf00d)
#define SLACK 4

struct want {
    int combiner;
    int ni, na, nc, nd;
    const int *ints;
    const MPI_Aint *addrs;
    const MPI_Count *counts;
    const MPI_Datatype *types;
};

static int named(MPI_Datatype t)
{
    MPI_Count ni, na, nc, nd;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
    return comb == MPI_COMBINER_NAMED;
}

/* t decoded (large: through the _c queries) must be w, exactly. */
static void expect_decode(MPI_Datatype t, int large, const struct want *w, const char *what)
{
    MPI_Count ni, na, nc, nd;
    int comb = envelope(t, large, &ni, &na, &nc, &nd);
    CHECK(comb == w->combiner && ni == w->ni && na == w->na && nc == w->nc && nd == w->nd,
          "%s: envelope combiner %d ints %ld addrs %ld counts %ld types %ld, expected %d %d %d "
          "%d %d",
          what, comb, (long)ni, (long)na, (long)nc, (long)nd, w->combiner, w->ni, w->na, w->nc,
          w->nd);

    int I[64 + SLACK];
    MPI_Aint A[64 + SLACK];
    MPI_Count C[64 + SLACK];
    MPI_Datatype T[16 + SLACK];
    for (int i = 0; i < 64 + SLACK; i++) I[i] = POISON_INT, A[i] = POISON_INT, C[i] = POISON_INT;
    for (int i = 0; i < 16 + SLACK; i++) T[i] = POISON_TYPE;
    CHECK(ni + SLACK <= 64 && nd + SLACK <= 16, "%s: test arrays too small", what);

    /* one short: an error, and nothing written */
    if (ni + na + nc + nd > 0) {
        int rc = large ? MPI_Type_get_contents_c(t, ni ? ni - 1 : 0, na ? na - 1 : 0,
                                                 nc ? nc - 1 : 0, nd ? nd - 1 : 0, I, A, C, T)
                       : MPI_Type_get_contents(t, ni ? (int)ni - 1 : 0, na ? (int)na - 1 : 0,
                                               nd ? (int)nd - 1 : 0, I, A, T);
        CHECK(rc != MPI_SUCCESS, "%s: contents into arrays one short succeeded", what);
        CHECK(I[0] == POISON_INT && A[0] == POISON_INT && C[0] == POISON_INT && T[0] == POISON_TYPE,
              "%s: a failed contents wrote its arrays", what);
    }
    /* more room than needed (legal): only the first entries are written */
    if (large)
        CHECK_MPI(
            MPI_Type_get_contents_c(t, ni + SLACK, na + SLACK, nc + SLACK, nd + SLACK, I, A, C, T));
    else
        CHECK_MPI(
            MPI_Type_get_contents(t, (int)ni + SLACK, (int)na + SLACK, (int)nd + SLACK, I, A, T));
    for (int i = 0; i < w->ni; i++)
        CHECK(I[i] == w->ints[i], "%s: integers[%d] = %d, expected %d", what, i, I[i], w->ints[i]);
    for (int i = 0; i < w->na; i++)
        CHECK(A[i] == w->addrs[i], "%s: addresses[%d] = %ld, expected %ld", what, i, (long)A[i],
              (long)w->addrs[i]);
    for (int i = 0; i < w->nc; i++)
        CHECK(C[i] == w->counts[i], "%s: large_counts[%d] = %ld, expected %ld", what, i, (long)C[i],
              (long)w->counts[i]);
    CHECK(I[w->ni] == POISON_INT && A[w->na] == POISON_INT && C[w->nc] == POISON_INT &&
              T[w->nd] == POISON_TYPE,
          "%s: contents wrote past what the envelope announced", what);
    for (int i = 0; i < w->nd; i++) {
        if (named(w->types[i])) {
            CHECK(T[i] == w->types[i], "%s: datatypes[%d] = 0x%x, expected 0x%x", what, i,
                  (unsigned)T[i], (unsigned)w->types[i]);
            continue;
        }
        /* a derived type comes back as a reference the caller frees */
        MPI_Count s1, s2;
        CHECK_MPI(MPI_Type_size_c(T[i], &s1));
        CHECK_MPI(MPI_Type_size_c(w->types[i], &s2));
        CHECK(s1 == s2, "%s: datatypes[%d] has size %ld, expected %ld", what, i, (long)s1,
              (long)s2);
        CHECK_MPI(MPI_Type_free(&T[i]));
    }
}

/* decode through the int and the _c queries (a type from an int
 * constructor has no large counts) and free */
static void expect_both(MPI_Datatype t, const struct want *w, const char *what)
{
    expect_decode(t, 0, w, what);
    expect_decode(t, 1, w, what);
    CHECK_MPI(MPI_Type_free(&t));
}

static void int_forms(void)
{
    MPI_Datatype t, inner;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_SHORT, &inner)); /* a derived old type */

    CHECK_MPI(MPI_Type_dup(MPI_INT, &t));
    expect_both(
        t,
        &(struct want){MPI_COMBINER_DUP, 0, 0, 0, 1, NULL, NULL, NULL, (MPI_Datatype[]){MPI_INT}},
        "dup");
    CHECK_MPI(MPI_Type_contiguous(7, inner, &t));
    expect_both(t,
                &(struct want){MPI_COMBINER_CONTIGUOUS, 1, 0, 0, 1, (int[]){7}, NULL, NULL,
                               (MPI_Datatype[]){inner}},
                "contiguous");
    CHECK_MPI(MPI_Type_vector(4, 3, -5, MPI_DOUBLE, &t));
    expect_both(t,
                &(struct want){MPI_COMBINER_VECTOR, 3, 0, 0, 1, (int[]){4, 3, -5}, NULL, NULL,
                               (MPI_Datatype[]){MPI_DOUBLE}},
                "vector");
    CHECK_MPI(MPI_Type_create_hvector(4, 3, -40, inner, &t));
    expect_both(t,
                &(struct want){MPI_COMBINER_HVECTOR, 2, 1, 0, 1, (int[]){4, 3}, (MPI_Aint[]){-40},
                               NULL, (MPI_Datatype[]){inner}},
                "hvector");
    CHECK_MPI(MPI_Type_hvector(2, 1, 24, MPI_INT, &t));
    expect_both(t,
                &(struct want){MPI_COMBINER_HVECTOR, 2, 1, 0, 1, (int[]){2, 1}, (MPI_Aint[]){24},
                               NULL, (MPI_Datatype[]){MPI_INT}},
                "MPI-1 hvector");
    {
        int bl[3] = {2, 0, 1}, d[3] = {5, 9, -2};
        CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &t));
        expect_both(t,
                    &(struct want){MPI_COMBINER_INDEXED, 7, 0, 0, 1, (int[]){3, 2, 0, 1, 5, 9, -2},
                                   NULL, NULL, (MPI_Datatype[]){MPI_INT}},
                    "indexed");
        CHECK_MPI(MPI_Type_create_indexed_block(3, 2, d, inner, &t));
        expect_both(t,
                    &(struct want){MPI_COMBINER_INDEXED_BLOCK, 5, 0, 0, 1, (int[]){3, 2, 5, 9, -2},
                                   NULL, NULL, (MPI_Datatype[]){inner}},
                    "indexed_block");
    }
    {
        int bl[2] = {3, 1};
        MPI_Aint d[2] = {-16, 64};
        CHECK_MPI(MPI_Type_create_hindexed(2, bl, d, MPI_CHAR, &t));
        expect_both(t,
                    &(struct want){MPI_COMBINER_HINDEXED, 3, 2, 0, 1, (int[]){2, 3, 1},
                                   (MPI_Aint[]){-16, 64}, NULL, (MPI_Datatype[]){MPI_CHAR}},
                    "hindexed");
        CHECK_MPI(MPI_Type_hindexed(2, bl, d, MPI_CHAR, &t));
        expect_both(t,
                    &(struct want){MPI_COMBINER_HINDEXED, 3, 2, 0, 1, (int[]){2, 3, 1},
                                   (MPI_Aint[]){-16, 64}, NULL, (MPI_Datatype[]){MPI_CHAR}},
                    "MPI-1 hindexed");
        CHECK_MPI(MPI_Type_create_hindexed_block(2, 4, d, inner, &t));
        expect_both(t,
                    &(struct want){MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 0, 1, (int[]){2, 4},
                                   (MPI_Aint[]){-16, 64}, NULL, (MPI_Datatype[]){inner}},
                    "hindexed_block");
    }
    {
        int bl[4] = {1, 2, 0, 1};
        MPI_Aint d[4] = {-8, 0, 100, 40};
        MPI_Datatype ty[4] = {MPI_LB, MPI_DOUBLE, inner, MPI_UB};
        CHECK_MPI(MPI_Type_create_struct(4, bl, d, ty, &t));
        expect_both(
            t, &(struct want){MPI_COMBINER_STRUCT, 5, 4, 0, 4, (int[]){4, 1, 2, 0, 1}, d, NULL, ty},
            "struct with markers");
        CHECK_MPI(MPI_Type_struct(4, bl, d, ty, &t));
        expect_both(
            t, &(struct want){MPI_COMBINER_STRUCT, 5, 4, 0, 4, (int[]){4, 1, 2, 0, 1}, d, NULL, ty},
            "MPI-1 struct");
    }
    CHECK_MPI(MPI_Type_create_resized(inner, -6, 30, &t));
    expect_both(t,
                &(struct want){MPI_COMBINER_RESIZED, 0, 2, 0, 1, NULL, (MPI_Aint[]){-6, 30}, NULL,
                               (MPI_Datatype[]){inner}},
                "resized");
    {
        int sizes[3] = {10, 8, 6}, sub[3] = {3, 4, 5}, st[3] = {1, 2, 0};
        CHECK_MPI(MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_FORTRAN, inner, &t));
        expect_both(t,
                    &(struct want){MPI_COMBINER_SUBARRAY, 11, 0, 0, 1,
                                   (int[]){3, 10, 8, 6, 3, 4, 5, 1, 2, 0, MPI_ORDER_FORTRAN}, NULL,
                                   NULL, (MPI_Datatype[]){inner}},
                    "subarray");
    }
    {
        int gs[2] = {10, 9}, di[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
            da[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {2, 3};
        CHECK_MPI(MPI_Type_create_darray(6, 4, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t));
        expect_both(
            t,
            &(struct want){MPI_COMBINER_DARRAY, 12, 0, 0, 1,
                           (int[]){6, 4, 2, 10, 9, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, 2,
                                   MPI_DISTRIBUTE_DFLT_DARG, 2, 3, MPI_ORDER_C},
                           NULL, NULL, (MPI_Datatype[]){MPI_INT}},
            "darray");
    }
    /* a dup of a dup names the first dup, not MPI_INT */
    {
        MPI_Datatype d1;
        CHECK_MPI(MPI_Type_dup(MPI_INT, &d1));
        CHECK_MPI(MPI_Type_dup(d1, &t));
        expect_both(
            t, &(struct want){MPI_COMBINER_DUP, 0, 0, 0, 1, NULL, NULL, NULL, (MPI_Datatype[]){d1}},
            "dup of a dup");
        CHECK_MPI(MPI_Type_free(&d1));
    }
    CHECK_MPI(MPI_Type_free(&inner));
}

#define BIG ((MPI_Count)INT_MAX)

/* a _c type: decoded through the _c queries, committed, its size and
 * extent the definition's */
static void expect_big(MPI_Datatype t, const struct want *w, MPI_Count size, MPI_Count lb,
                       MPI_Count extent, const char *what)
{
    expect_decode(t, 1, w, what);
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Count s, l, e;
    int is;
    CHECK_MPI(MPI_Type_size_c(t, &s));
    CHECK_MPI(MPI_Type_get_extent_c(t, &l, &e));
    CHECK_MPI(MPI_Type_size(t, &is));
    CHECK(s == size && l == lb && e == extent,
          "%s: size %ld lb %ld extent %ld, expected %ld %ld %ld", what, (long)s, (long)l, (long)e,
          (long)size, (long)lb, (long)extent);
    CHECK(is == (size > INT_MAX ? MPI_UNDEFINED : (int)size), "%s: int size %d", what, is);
    CHECK_MPI(MPI_Type_free(&t));
}

static void large_forms(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous_c(BIG + 4096, MPI_BYTE, &t));
    expect_big(t,
               &(struct want){MPI_COMBINER_CONTIGUOUS, 0, 0, 1, 1, NULL, NULL,
                              (MPI_Count[]){BIG + 4096}, (MPI_Datatype[]){MPI_BYTE}},
               BIG + 4096, 0, BIG + 4096, "contiguous_c");
    CHECK_MPI(MPI_Type_vector_c(BIG + 5, BIG + 6, BIG + 7, MPI_BYTE, &t));
    expect_big(t,
               &(struct want){MPI_COMBINER_VECTOR, 0, 0, 3, 1, NULL, NULL,
                              (MPI_Count[]){BIG + 5, BIG + 6, BIG + 7}, (MPI_Datatype[]){MPI_BYTE}},
               (BIG + 5) * (BIG + 6), 0, (BIG + 4) * (BIG + 7) + BIG + 6, "vector_c");
    CHECK_MPI(MPI_Type_create_hvector_c(3, BIG + 1, -(BIG + 9), MPI_BYTE, &t));
    expect_big(t,
               &(struct want){MPI_COMBINER_HVECTOR, 0, 0, 3, 1, NULL, NULL,
                              (MPI_Count[]){3, BIG + 1, -(BIG + 9)}, (MPI_Datatype[]){MPI_BYTE}},
               3 * (BIG + 1), -2 * (BIG + 9), 2 * (BIG + 9) + BIG + 1, "hvector_c");
    {
        MPI_Count bl[2] = {BIG + 5, 3}, d[2] = {0, BIG + 6};
        MPI_Datatype ty[2] = {MPI_BYTE, MPI_INT};
        CHECK_MPI(MPI_Type_indexed_c(2, bl, d, MPI_BYTE, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_INDEXED, 0, 0, 5, 1, NULL, NULL,
                                  (MPI_Count[]){2, BIG + 5, 3, 0, BIG + 6},
                                  (MPI_Datatype[]){MPI_BYTE}},
                   BIG + 8, 0, BIG + 9, "indexed_c");
        CHECK_MPI(MPI_Type_create_hindexed_c(2, bl, d, MPI_SHORT, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_HINDEXED, 0, 0, 5, 1, NULL, NULL,
                                  (MPI_Count[]){2, BIG + 5, 3, 0, BIG + 6},
                                  (MPI_Datatype[]){MPI_SHORT}},
                   2 * (BIG + 8), 0, 2 * (BIG + 5), "hindexed_c");
        CHECK_MPI(MPI_Type_create_indexed_block_c(2, BIG + 5, d, MPI_BYTE, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_INDEXED_BLOCK, 0, 0, 4, 1, NULL, NULL,
                                  (MPI_Count[]){2, BIG + 5, 0, BIG + 6},
                                  (MPI_Datatype[]){MPI_BYTE}},
                   2 * (BIG + 5), 0, 2 * BIG + 11, "indexed_block_c");
        CHECK_MPI(MPI_Type_create_hindexed_block_c(2, BIG + 5, d, MPI_BYTE, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_HINDEXED_BLOCK, 0, 0, 4, 1, NULL, NULL,
                                  (MPI_Count[]){2, BIG + 5, 0, BIG + 6},
                                  (MPI_Datatype[]){MPI_BYTE}},
                   2 * (BIG + 5), 0, 2 * BIG + 11, "hindexed_block_c");
        /* bytes, then three ints from BIG + 6: padded to the int's alignment */
        CHECK_MPI(MPI_Type_create_struct_c(2, bl, d, ty, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_STRUCT, 0, 0, 5, 2, NULL, NULL,
                                  (MPI_Count[]){2, BIG + 5, 3, 0, BIG + 6}, ty},
                   BIG + 5 + 12, 0, (BIG + 6 + 12 + 3) / 4 * 4, "struct_c");
    }
    CHECK_MPI(MPI_Type_create_resized_c(MPI_BYTE, -(BIG + 5), BIG + 6, &t));
    expect_big(t,
               &(struct want){MPI_COMBINER_RESIZED, 0, 0, 2, 1, NULL, NULL,
                              (MPI_Count[]){-(BIG + 5), BIG + 6}, (MPI_Datatype[]){MPI_BYTE}},
               1, -(BIG + 5), BIG + 6, "resized_c");
    {
        /* the array extents are large counts, ndims and order stay ints */
        MPI_Count sizes[2] = {2 * BIG + 100, 6}, sub[2] = {BIG + 5, 2}, st[2] = {BIG + 3, 1};
        CHECK_MPI(MPI_Type_create_subarray_c(2, sizes, sub, st, MPI_ORDER_C, MPI_BYTE, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_SUBARRAY, 2, 0, 6, 1, (int[]){2, MPI_ORDER_C}, NULL,
                                  (MPI_Count[]){2 * BIG + 100, 6, BIG + 5, 2, BIG + 3, 1},
                                  (MPI_Datatype[]){MPI_BYTE}},
                   (BIG + 5) * 2, 0, (2 * BIG + 100) * 6, "subarray_c");
    }
    {
        /* only gsizes are large counts */
        MPI_Count gs[2] = {BIG + 5, BIG + 6};
        int di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
            da[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {1, 1};
        CHECK_MPI(MPI_Type_create_darray_c(1, 0, 2, gs, di, da, ps, MPI_ORDER_C, MPI_BYTE, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_DARRAY, 10, 0, 2, 1,
                                  (int[]){1, 0, 2, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK,
                                          MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 1, 1,
                                          MPI_ORDER_C},
                                  NULL, (MPI_Count[]){BIG + 5, BIG + 6},
                                  (MPI_Datatype[]){MPI_BYTE}},
                   (BIG + 5) * (BIG + 6), 0, (BIG + 5) * (BIG + 6), "darray_c");
        /* rank 1 of 2, block: the upper half; cyclic(3) alone: everything */
        MPI_Count g1 = 4 * BIG;
        int d1 = MPI_DISTRIBUTE_BLOCK, a1 = MPI_DISTRIBUTE_DFLT_DARG, p2 = 2, p1 = 1;
        CHECK_MPI(MPI_Type_create_darray_c(2, 1, 1, &g1, &d1, &a1, &p2, MPI_ORDER_C, MPI_BYTE, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_DARRAY, 7, 0, 1, 1,
                                  (int[]){2, 1, 1, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG,
                                          2, MPI_ORDER_C},
                                  NULL, (MPI_Count[]){4 * BIG}, (MPI_Datatype[]){MPI_BYTE}},
                   2 * BIG, 0, 4 * BIG, "darray_c block, rank 1 of 2");
        MPI_Count g2 = BIG + 7;
        int d2 = MPI_DISTRIBUTE_CYCLIC, a2 = 3;
        CHECK_MPI(MPI_Type_create_darray_c(1, 0, 1, &g2, &d2, &a2, &p1, MPI_ORDER_C, MPI_BYTE, &t));
        expect_big(t,
                   &(struct want){MPI_COMBINER_DARRAY, 7, 0, 1, 1,
                                  (int[]){1, 0, 1, MPI_DISTRIBUTE_CYCLIC, 3, 1, MPI_ORDER_C}, NULL,
                                  (MPI_Count[]){BIG + 7}, (MPI_Datatype[]){MPI_BYTE}},
                   BIG + 7, 0, BIG + 7, "darray_c cyclic(3)");
    }
    /* a dup has no counts: the same through both queries */
    MPI_Datatype big;
    CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &big));
    CHECK_MPI(MPI_Type_dup(big, &t));
    expect_both(
        t, &(struct want){MPI_COMBINER_DUP, 0, 0, 0, 1, NULL, NULL, NULL, (MPI_Datatype[]){big}},
        "dup of a _c type");
    CHECK_MPI(MPI_Type_free(&big));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int_forms();
    large_forms();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
