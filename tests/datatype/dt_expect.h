/* Expected-value checks shared by the datatype tests. */
#ifndef TERN_TEST_DT_EXPECT_H
#define TERN_TEST_DT_EXPECT_H

#include "tern_test.h"

/* t's envelope through the _c query (large) or the int one (no large
 * counts there); returns the combiner. */
static inline int envelope(MPI_Datatype t, int large, MPI_Count *ni, MPI_Count *na, MPI_Count *nc,
                           MPI_Count *nd)
{
    int comb;
    if (large) {
        CHECK_MPI(MPI_Type_get_envelope_c(t, ni, na, nc, nd, &comb));
    } else {
        int i, a, d;
        CHECK_MPI(MPI_Type_get_envelope(t, &i, &a, &d, &comb));
        *ni = i, *na = a, *nd = d, *nc = 0;
    }
    return comb;
}

/* size, bounds and true bounds of t through every query that gives them:
 * the int, _x and _c forms and the MPI-1 MPI_Type_lb/ub/extent */
static inline void expect_bounds(MPI_Datatype t, const char *what, long size, long lb, long extent,
                                 long tlb, long textent)
{
    int sz;
    MPI_Count szx, szc, lbx, extx, lbc, extc, tlx, tex, tlc, tec;
    MPI_Aint l, e, tl, te, ol, ou, oe;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK_MPI(MPI_Type_size_x(t, &szx));
    CHECK_MPI(MPI_Type_size_c(t, &szc));
    CHECK_MPI(MPI_Type_get_extent(t, &l, &e));
    CHECK_MPI(MPI_Type_get_extent_x(t, &lbx, &extx));
    CHECK_MPI(MPI_Type_get_extent_c(t, &lbc, &extc));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tl, &te));
    CHECK_MPI(MPI_Type_get_true_extent_x(t, &tlx, &tex));
    CHECK_MPI(MPI_Type_get_true_extent_c(t, &tlc, &tec));
    CHECK_MPI(MPI_Type_lb(t, &ol));
    CHECK_MPI(MPI_Type_ub(t, &ou));
    CHECK_MPI(MPI_Type_extent(t, &oe));
    CHECK(sz == size && szx == size && szc == size, "%s: size %d (_x %ld, _c %ld), expected %ld",
          what, sz, (long)szx, (long)szc, size);
    CHECK(l == lb && e == extent, "%s: lb %ld extent %ld, expected %ld %ld", what, (long)l, (long)e,
          lb, extent);
    CHECK(lbx == lb && extx == extent && lbc == lb && extc == extent,
          "%s: get_extent_x %ld %ld, _c %ld %ld", what, (long)lbx, (long)extx, (long)lbc,
          (long)extc);
    CHECK(tl == tlb && te == textent, "%s: true lb %ld true extent %ld, expected %ld %ld", what,
          (long)tl, (long)te, tlb, textent);
    CHECK(tlx == tlb && tex == textent && tlc == tlb && tec == textent,
          "%s: true extent _x %ld %ld, _c %ld %ld", what, (long)tlx, (long)tex, (long)tlc,
          (long)tec);
    CHECK(ol == lb && ou == lb + extent && oe == extent, "%s: MPI-1 lb/ub/extent %ld %ld %ld", what,
          (long)ol, (long)ou, (long)oe);
}

/* the error class of rc */
static inline int err_class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

#endif
