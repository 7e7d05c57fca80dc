/* The shared-memory alltoall(v,w), gatherv, scatterv, allgatherv,
 * reduce_scatter(_block), scan and exscan (src/coll/shm_coll_v.c,
 * shm_coll_scan.c): every result checked element by element against values
 * computed here, and whether point-to-point messages flowed.
 *
 * On world, a split by parity and a reversed split: ints, doubles and a
 * vector type with holes (which must stay as they were), MPI_IN_PLACE,
 * uneven counts (zeros among them, displacements out of rank order with
 * gaps) in the v-variants, MPI_SUM, MPI_MAX and a user non-commutative
 * operation (2x2 matrix product) in the reductions.  That phase must send
 * no point-to-point message on more than one rank in "shm" mode, and must
 * send some in "p2p" mode.  Then the calls that leave the slots: a
 * gatherv/scatterv block beyond a slot, one rank's alltoallv blocks, an
 * alltoall and a reduce_scatter
 * whose vectors do not fit, a scan on a type with holes.
 *   coll_shm_more shm   the shared-memory algorithms are expected
 *   coll_shm_more p2p   they are not (forced off, or tiny slots) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_msgcount.h"
#include "coll_util.h"

/* Small values: sums over 8 ranks stay exact in an int. */
static int small(int rank, long i, int salt) { return tt_val(rank, i, salt) & 0xffff; }
static double real(int rank, long i, int salt) { return tt_val(rank, i, salt) / 64.0 - 1e6; }

/* ---- alltoall ---- */

static void test_alltoall(MPI_Comm c, int r, int n, int salt)
{
    for (int k = 1; k <= 9; k += 8) {
        for (int inplace = 0; inplace < 2; inplace++) {
            int *sb = tt_alloc(sizeof(int) * (size_t)(n * k));
            int *rb = tt_alloc(sizeof(int) * (size_t)(n * k));
            for (int j = 0; j < n; j++)
                for (int e = 0; e < k; e++) {
                    sb[j * k + e] = tt_val(r, j * 1000 + e, salt);
                    rb[j * k + e] = inplace ? sb[j * k + e] : -1;
                }
            CHECK_MPI(MPI_Alltoall(inplace ? MPI_IN_PLACE : sb, k, MPI_INT, rb, k, MPI_INT, c));
            for (int i = 0; i < n; i++)
                for (int e = 0; e < k; e++)
                    CHECK(rb[i * k + e] == tt_val(i, r * 1000 + e, salt),
                          "alltoall k %d in_place %d: from %d [%d] = %d, expected %d", k, inplace,
                          i, e, rb[i * k + e], tt_val(i, r * 1000 + e, salt));
            free(sb);
            free(rb);
        }
    }
    /* Ints out, a vector element per block in. */
    MPI_Datatype vec = tt_vector_type();
    int *sb = tt_alloc(sizeof(int) * (size_t)(n * TT_VEC_INTS));
    int *rb = tt_alloc(sizeof(int) * (size_t)(n * TT_VEC_EXTENT));
    for (int j = 0; j < n * TT_VEC_INTS; j++) sb[j] = tt_val(r, j, salt + 1);
    for (int j = 0; j < n * TT_VEC_EXTENT; j++) rb[j] = -7;
    CHECK_MPI(MPI_Alltoall(sb, TT_VEC_INTS, MPI_INT, rb, 1, vec, c));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < TT_VEC_EXTENT; j++) {
            int want =
                tt_vec_hole(j) ? -7 : tt_val(i, r * TT_VEC_INTS + (j / 4) * 2 + j % 2, salt + 1);
            CHECK(rb[i * TT_VEC_EXTENT + j] == want,
                  "alltoall vector: from %d [%d] = %d, expected %d", i, j,
                  rb[i * TT_VEC_EXTENT + j], want);
        }
    /* Doubles. */
    double ds[64], dr[64];
    for (int j = 0; j < n; j++) ds[j] = real(r, j, salt);
    CHECK_MPI(MPI_Alltoall(ds, 1, MPI_DOUBLE, dr, 1, MPI_DOUBLE, c));
    for (int i = 0; i < n; i++)
        CHECK(dr[i] == real(i, r, salt), "alltoall double: from %d %g", i, dr[i]);
    free(sb);
    free(rb);
    MPI_Type_free(&vec);
}

/* ---- alltoallv ---- */

/* Elements from rank i to rank j: uneven, zeros among them; symmetric for
 * MPI_IN_PLACE (what j receives from i is what j sends to i); 'big' more
 * for the blocks rank big_rank sends (-1: none). */
static int a2av_count(int i, int j, int salt, int sym, int big_rank, int big)
{
    int k = sym ? ((i + j + salt) % 4) * 2 : ((i * 3 + j + salt) % 4) * 2;
    return k + (i == big_rank ? big : 0);
}

/* ints out; in ints, or vector elements (vec: 6 ints each) when vec != 0. */
static void alltoallv_case(MPI_Comm c, int r, int n, int salt, int inplace, int vec, int big_rank,
                           int big, int w)
{
    int unit = vec ? TT_VEC_INTS : 1, ext = vec ? TT_VEC_EXTENT : 1;
    int sc[64], sd[64], rcn[64], rd[64], sat = 0, rat = 0;
    for (int j = n - 1; j >= 0; j--) { /* blocks in reverse rank order, a gap after each */
        sc[j] = a2av_count(r, j, salt, inplace, big_rank, big) * unit;
        rcn[j] = a2av_count(j, r, salt, inplace, big_rank, big);
        sd[j] = sat;
        rd[j] = rat;
        sat += sc[j] + 1;
        rat += rcn[j] + 1;
    }
    int *sb = tt_alloc(sizeof(int) * (size_t)sat);
    int *rb = tt_alloc(sizeof(int) * (size_t)(rat * ext));
    for (int j = 0; j < n; j++)
        for (int e = 0; e < sc[j]; e++) sb[sd[j] + e] = tt_val(r, j * 1000 + e, salt);
    for (int j = 0; j < rat * ext; j++) rb[j] = -7;
    if (inplace)
        for (int j = 0; j < n; j++)
            for (int e = 0; e < rcn[j]; e++) rb[rd[j] + e] = sb[sd[j] + e];
    MPI_Datatype vt = vec ? tt_vector_type() : MPI_INT;
    if (w) { /* the same blocks as MPI_Alltoallw's: displacements in bytes */
        int sdb[64] = {0}, rdb[64] = {0};
        MPI_Datatype st[64] = {0}, rt[64] = {0};
        for (int j = 0; j < n; j++) {
            sdb[j] = sd[j] * (int)sizeof(int);
            rdb[j] = rd[j] * ext * (int)sizeof(int);
            st[j] = MPI_INT;
            rt[j] = vt;
        }
        CHECK_MPI(MPI_Alltoallw(inplace ? MPI_IN_PLACE : sb, sc, sdb, st, rb, rcn, rdb, rt, c));
    } else {
        CHECK_MPI(MPI_Alltoallv(inplace ? MPI_IN_PLACE : sb, sc, sd, MPI_INT, rb, rcn, rd, vt, c));
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < rcn[i] * ext; j++) {
            int want = vec && tt_vec_hole(j % TT_VEC_EXTENT)
                           ? -7
                           : tt_val(i,
                                    r * 1000 + (vec ? (j / TT_VEC_EXTENT) * TT_VEC_INTS +
                                                          ((j % TT_VEC_EXTENT) / 4) * 2 + j % 2
                                                    : j),
                                    salt);
            CHECK(rb[rd[i] * ext + j] == want,
                  "alltoall%c in_place %d vector %d: from %d [%d] = %d, expected %d", w ? 'w' : 'v',
                  inplace, vec, i, j, rb[rd[i] * ext + j], want);
        }
        if (!vec)
            CHECK(rb[rd[i] + rcn[i]] == -7, "alltoallv in_place %d: gap after %d", inplace, i);
    }
    if (vec) MPI_Type_free(&vt);
    free(sb);
    free(rb);
}

static void test_alltoallv(MPI_Comm c, int r, int n, int salt)
{
    for (int w = 0; w < 2; w++) {
        alltoallv_case(c, r, n, salt, 0, 0, -1, 0, w);
        alltoallv_case(c, r, n, salt, 1, 0, -1, 0, w);
        alltoallv_case(c, r, n, salt, 0, 1, -1, 0, w);
    }
}

/* ---- gatherv, scatterv, allgatherv ---- */

/* Rank i's block: 0, 3, 6 or 9 elements, and 'big' elements for rank
 * big_rank (-1: none). */
static int count_of(int i, int salt, int big_rank, int big)
{
    return i == big_rank ? big : ((i * 5 + salt) % 4) * 3;
}

/* Blocks laid out in reverse rank order, one element of gap after each. */
static int layout(int n, int salt, int big_rank, int big, int *counts, int *displs)
{
    int at = 0;
    for (int i = n - 1; i >= 0; i--) {
        counts[i] = count_of(i, salt, big_rank, big);
        displs[i] = at;
        at += counts[i] + 1;
    }
    return at;
}

static void test_gatherv_scatterv(MPI_Comm c, int r, int n, int salt, int big_rank, int big)
{
    int counts[64], displs[64];
    int span = layout(n, salt, big_rank, big, counts, displs);
    int *all = tt_alloc(sizeof(int) * (size_t)span);
    int mine_n = counts[r];
    int *mine = tt_alloc(sizeof(int) * (size_t)(mine_n + 1));
    for (int root = 0; root < n; root++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            int ip = inplace && r == root;
            for (int e = 0; e < mine_n; e++) mine[e] = tt_val(r, e, salt + root);
            for (int j = 0; j < span; j++) all[j] = -7;
            if (ip)
                for (int e = 0; e < mine_n; e++) all[displs[r] + e] = mine[e];
            CHECK_MPI(MPI_Gatherv(ip ? MPI_IN_PLACE : mine, mine_n, MPI_INT, all, counts, displs,
                                  MPI_INT, root, c));
            if (r == root)
                for (int i = 0; i < n; i++) {
                    for (int e = 0; e < counts[i]; e++)
                        CHECK(all[displs[i] + e] == tt_val(i, e, salt + root),
                              "gatherv root %d in_place %d: block %d [%d] = %d", root, inplace, i,
                              e, all[displs[i] + e]);
                    CHECK(all[displs[i] + counts[i]] == -7, "gatherv root %d: gap after %d = %d",
                          root, i, all[displs[i] + counts[i]]);
                }
            if (r == root)
                for (int i = 0; i < n; i++)
                    for (int e = 0; e < counts[i]; e++)
                        all[displs[i] + e] = tt_val(i, e, salt - root);
            for (int e = 0; e <= mine_n; e++) mine[e] = -1;
            CHECK_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, ip ? MPI_IN_PLACE : mine, mine_n,
                                   MPI_INT, root, c));
            if (!ip) {
                for (int e = 0; e < mine_n; e++)
                    CHECK(mine[e] == tt_val(r, e, salt - root),
                          "scatterv root %d in_place %d: [%d] = %d, expected %d", root, inplace, e,
                          mine[e], tt_val(r, e, salt - root));
                CHECK(mine[mine_n] == -1, "scatterv root %d: wrote past the block", root);
            }
        }
    }
    free(all);
    free(mine);
}

/* gatherv and scatterv with a vector type at the root, ints elsewhere. */
static void test_v_vector(MPI_Comm c, int r, int n, int salt)
{
    MPI_Datatype vec = tt_vector_type();
    int counts[64], displs[64], at = 0;
    for (int i = n - 1; i >= 0; i--) {
        counts[i] = (i + salt) % 3; /* vector elements */
        displs[i] = at;
        at += counts[i];
    }
    int *all = tt_alloc(sizeof(int) * (size_t)(at * TT_VEC_EXTENT + 1));
    int mine[2 * TT_VEC_INTS], mn = counts[r] * TT_VEC_INTS;
    for (int root = 0; root < n; root++) {
        for (int e = 0; e < mn; e++) mine[e] = tt_val(r, e, salt + root);
        for (int j = 0; j < at * TT_VEC_EXTENT; j++) all[j] = -7;
        CHECK_MPI(MPI_Gatherv(mine, mn, MPI_INT, all, counts, displs, vec, root, c));
        if (r == root)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < counts[i] * TT_VEC_EXTENT; j++) {
                    int e =
                        (j / TT_VEC_EXTENT) * TT_VEC_INTS + ((j % TT_VEC_EXTENT) / 4) * 2 + j % 2;
                    int want = tt_vec_hole(j % TT_VEC_EXTENT) ? -7 : tt_val(i, e, salt + root);
                    CHECK(all[displs[i] * TT_VEC_EXTENT + j] == want,
                          "gatherv vector root %d: block %d [%d] = %d, expected %d", root, i, j,
                          all[displs[i] * TT_VEC_EXTENT + j], want);
                }
        if (r == root)
            for (int j = 0; j < at * TT_VEC_EXTENT; j++) all[j] = tt_val(root, j, salt);
        for (int e = 0; e < 2 * TT_VEC_INTS; e++) mine[e] = -1;
        CHECK_MPI(MPI_Scatterv(all, counts, displs, vec, mine, mn, MPI_INT, root, c));
        for (int e = 0; e < mn; e++) {
            int el = e / TT_VEC_INTS, k = e % TT_VEC_INTS;
            int want = tt_val(root, (displs[r] + el) * TT_VEC_EXTENT + tt_vec_pos(k), salt);
            CHECK(mine[e] == want, "scatterv vector root %d: [%d] = %d, expected %d", root, e,
                  mine[e], want);
        }
    }
    free(all);
    MPI_Type_free(&vec);
}

static void test_allgatherv(MPI_Comm c, int r, int n, int salt, int big_rank, int big)
{
    int counts[64], displs[64];
    int span = layout(n, salt, big_rank, big, counts, displs);
    for (int inplace = 0; inplace < 2; inplace++) {
        double *all = tt_alloc(sizeof(double) * (size_t)span);
        double *mine = tt_alloc(sizeof(double) * (size_t)(counts[r] + 1));
        for (int e = 0; e < counts[r]; e++) mine[e] = real(r, e, salt);
        for (int j = 0; j < span; j++) all[j] = -7;
        if (inplace)
            for (int e = 0; e < counts[r]; e++) all[displs[r] + e] = mine[e];
        CHECK_MPI(MPI_Allgatherv(inplace ? MPI_IN_PLACE : mine, counts[r], MPI_DOUBLE, all, counts,
                                 displs, MPI_DOUBLE, c));
        for (int i = 0; i < n; i++) {
            for (int e = 0; e < counts[i]; e++)
                CHECK(all[displs[i] + e] == real(i, e, salt),
                      "allgatherv in_place %d: block %d [%d] = %g", inplace, i, e,
                      all[displs[i] + e]);
            CHECK(all[displs[i] + counts[i]] == -7, "allgatherv: gap after %d", i);
        }
        free(all);
        free(mine);
    }
}

/* allgatherv into vector elements, ints sent: uneven counts, holes kept. */
static void test_allgatherv_vector(MPI_Comm c, int r, int n, int salt)
{
    MPI_Datatype vec = tt_vector_type();
    int counts[64], displs[64], at = 0;
    for (int i = n - 1; i >= 0; i--) {
        counts[i] = (i * 2 + salt) % 3; /* vector elements */
        displs[i] = at;
        at += counts[i] + 1;
    }
    int *all = tt_alloc(sizeof(int) * (size_t)(at * TT_VEC_EXTENT));
    int mine[2 * TT_VEC_INTS], mn = counts[r] * TT_VEC_INTS;
    for (int e = 0; e < mn; e++) mine[e] = tt_val(r, e, salt + 5);
    for (int j = 0; j < at * TT_VEC_EXTENT; j++) all[j] = -7;
    CHECK_MPI(MPI_Allgatherv(mine, mn, MPI_INT, all, counts, displs, vec, c));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < (counts[i] + 1) * TT_VEC_EXTENT; j++) {
            int e = (j / TT_VEC_EXTENT) * TT_VEC_INTS + ((j % TT_VEC_EXTENT) / 4) * 2 + j % 2;
            int want = tt_vec_hole(j % TT_VEC_EXTENT) || j >= counts[i] * TT_VEC_EXTENT
                           ? -7
                           : tt_val(i, e, salt + 5);
            CHECK(all[displs[i] * TT_VEC_EXTENT + j] == want,
                  "allgatherv vector: block %d [%d] = %d, expected %d", i, j,
                  all[displs[i] * TT_VEC_EXTENT + j], want);
        }
    free(all);
    MPI_Type_free(&vec);
}

/* ---- reduce_scatter(_block), scan, exscan ---- */

/* Checks block [first, first + count) of the reductions of every rank in
 * [lo, hi]: int sums, double maxima, matrix products in rank order. */
static void check_reduced(const int *out, const double *dout, const tt_mat *mout, int first,
                          int count, int mfirst, int mcount, int lo, int hi, int salt,
                          const char *what)
{
    for (int e = 0; e < count; e++) {
        int want = 0;
        double dwant = -1e300;
        for (int q = lo; q <= hi; q++) {
            want += small(q, first + e, salt);
            if (real(q, first + e, salt) > dwant) dwant = real(q, first + e, salt);
        }
        CHECK(out[e] == want, "%s: sum [%d] = %d, expected %d", what, first + e, out[e], want);
        CHECK(dout[e] == dwant, "%s: max [%d] = %g, expected %g", what, first + e, dout[e], dwant);
    }
    for (int e = 0; e < mcount; e++)
        CHECK(tt_mat_eq(mout[e], tt_mat_range(lo, hi, mfirst + e + salt)),
              "%s: matrix product (rank order) [%d]", what, mfirst + e);
}

static void test_reduce_scatter(MPI_Comm c, int r, int n, int salt, MPI_Datatype mt, MPI_Op matop)
{
    enum { K = 5, M = 3 };
    int counts[64], mcounts[64], total = 0, mtotal = 0, first = 0, mfirst = 0;
    for (int i = 0; i < n; i++) {
        counts[i] = (i + salt) % 3 * 2; /* 0, 2 or 4 */
        mcounts[i] = (i + salt + 1) % 3;
        if (i == r) {
            first = total;
            mfirst = mtotal;
        }
        total += counts[i];
        mtotal += mcounts[i];
    }
    int vlen = n * K > total ? n * K : total;
    int mlen = n * M > mtotal ? n * M : mtotal;
    int *in = tt_alloc(sizeof(int) * (size_t)vlen), *out = tt_alloc(sizeof(int) * (size_t)vlen);
    double *din = tt_alloc(sizeof(double) * (size_t)vlen);
    double *dout = tt_alloc(sizeof(double) * (size_t)vlen);
    tt_mat *min = tt_alloc(sizeof(tt_mat) * (size_t)mlen);
    tt_mat *mout = tt_alloc(sizeof(tt_mat) * (size_t)mlen);
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int block = 0; block < 2; block++) {
            for (int j = 0; j < vlen; j++) {
                in[j] = small(r, j, salt);
                din[j] = real(r, j, salt);
                out[j] = inplace ? in[j] : -1;
                dout[j] = inplace ? din[j] : -1;
            }
            for (int j = 0; j < mlen; j++) mout[j] = min[j] = tt_mat_of(r, j + salt);
            const void *si = inplace ? MPI_IN_PLACE : in, *sd = inplace ? MPI_IN_PLACE : din,
                       *sm = inplace ? MPI_IN_PLACE : min;
            char what[64];
            snprintf(what, sizeof what, "reduce_scatter%s in_place %d", block ? "_block" : "",
                     inplace);
            if (block) {
                CHECK_MPI(MPI_Reduce_scatter_block(si, out, K, MPI_INT, MPI_SUM, c));
                CHECK_MPI(MPI_Reduce_scatter_block(sd, dout, K, MPI_DOUBLE, MPI_MAX, c));
                CHECK_MPI(MPI_Reduce_scatter_block(sm, mout, M, mt, matop, c));
                check_reduced(out, dout, mout, r * K, K, r * M, M, 0, n - 1, salt, what);
            } else {
                CHECK_MPI(MPI_Reduce_scatter(si, out, counts, MPI_INT, MPI_SUM, c));
                CHECK_MPI(MPI_Reduce_scatter(sd, dout, counts, MPI_DOUBLE, MPI_MAX, c));
                CHECK_MPI(MPI_Reduce_scatter(sm, mout, mcounts, mt, matop, c));
                check_reduced(out, dout, mout, first, counts[r], mfirst, mcounts[r], 0, n - 1, salt,
                              what);
            }
        }
    }
    free(in);
    free(out);
    free(din);
    free(dout);
    free(min);
    free(mout);
}

static void test_scan(MPI_Comm c, int r, int n, int salt, MPI_Datatype mt, MPI_Op matop)
{
    enum { K = 7, M = 3 };
    int in[K], out[K];
    double din[K], dout[K];
    tt_mat min[M], mout[M];
    (void)n;
    for (int ex = 0; ex < 2; ex++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int j = 0; j < K; j++) {
                in[j] = small(r, j, salt);
                din[j] = real(r, j, salt);
                out[j] = inplace ? in[j] : -1;
                dout[j] = inplace ? din[j] : -1;
            }
            for (int j = 0; j < M; j++) mout[j] = min[j] = tt_mat_of(r, j + salt);
            const void *si = inplace ? MPI_IN_PLACE : in, *sd = inplace ? MPI_IN_PLACE : din,
                       *sm = inplace ? MPI_IN_PLACE : min;
            if (ex) {
                CHECK_MPI(MPI_Exscan(si, out, K, MPI_INT, MPI_SUM, c));
                CHECK_MPI(MPI_Exscan(sd, dout, K, MPI_DOUBLE, MPI_MAX, c));
                CHECK_MPI(MPI_Exscan(sm, mout, M, mt, matop, c));
            } else {
                CHECK_MPI(MPI_Scan(si, out, K, MPI_INT, MPI_SUM, c));
                CHECK_MPI(MPI_Scan(sd, dout, K, MPI_DOUBLE, MPI_MAX, c));
                CHECK_MPI(MPI_Scan(sm, mout, M, mt, matop, c));
            }
            char what[64];
            snprintf(what, sizeof what, "%s in_place %d rank %d", ex ? "exscan" : "scan", inplace,
                     r);
            /* Exscan leaves rank 0's buffer undefined: nothing to check. */
            if (!(ex && r == 0))
                check_reduced(out, dout, mout, 0, K, 0, M, 0, ex ? r - 1 : r, salt, what);
        }
    }
}

/* ---- beyond the slots ---- */

static void test_beyond(MPI_Comm c, int r, int n, int slot_ints, MPI_Datatype mt, MPI_Op matop)
{
    /* A gatherv/scatterv/allgatherv block of the last rank larger than a
     * slot: it travels point to point, the others through the slots. */
    test_gatherv_scatterv(c, r, n, 3, n - 1, slot_ints + 5);
    test_allgatherv(c, r, n, 3, n - 1, slot_ints + 5);
    /* One rank's alltoallv blocks beyond a slot: every rank leaves it. */
    for (int w = 0; w < 2; w++) {
        alltoallv_case(c, r, n, 4, 0, 0, n - 1, slot_ints / n + 1, w);
        alltoallv_case(c, r, n, 4, 1, 0, -1, 0, w);
    }
    /* Every rank's blocks together beyond a slot. */
    int k = slot_ints / n + 1;
    int *sb = tt_alloc(sizeof(int) * (size_t)(n * k)),
        *rb = tt_alloc(sizeof(int) * (size_t)(n * k));
    for (int j = 0; j < n * k; j++) sb[j] = tt_val(r, j, 11);
    CHECK_MPI(MPI_Alltoall(sb, k, MPI_INT, rb, k, MPI_INT, c));
    for (int i = 0; i < n; i++)
        for (int e = 0; e < k; e++)
            CHECK(rb[i * k + e] == tt_val(i, r * k + e, 11), "large alltoall: from %d [%d]", i, e);
    free(sb);
    free(rb);
    /* Vectors beyond a slot. */
    int len = slot_ints + 3;
    int *in = tt_alloc(sizeof(int) * (size_t)(len * n)),
        *out = tt_alloc(sizeof(int) * (size_t)(len * n));
    double *dd = tt_alloc(sizeof(double) * (size_t)(len * n));
    tt_mat *min = tt_alloc(sizeof(tt_mat) * (size_t)(len * n)),
           *mout = tt_alloc(sizeof(tt_mat) * (size_t)(len * n));
    for (int j = 0; j < len * n; j++) {
        in[j] = small(r, j, 12);
        dd[j] = real(r, j, 12);
        min[j] = tt_mat_of(r, j + 12);
    }
    CHECK_MPI(MPI_Reduce_scatter_block(in, out, len, MPI_INT, MPI_SUM, c));
    double *ddo = tt_alloc(sizeof(double) * (size_t)len);
    CHECK_MPI(MPI_Reduce_scatter_block(dd, ddo, len, MPI_DOUBLE, MPI_MAX, c));
    CHECK_MPI(MPI_Reduce_scatter_block(min, mout, len, mt, matop, c));
    check_reduced(out, ddo, mout, r * len, len, r * len, len, 0, n - 1, 12,
                  "large reduce_scatter_block");
    CHECK_MPI(MPI_Scan(in, out, len, MPI_INT, MPI_SUM, c));
    CHECK_MPI(MPI_Scan(dd, ddo, len, MPI_DOUBLE, MPI_MAX, c));
    CHECK_MPI(MPI_Scan(min, mout, len, mt, matop, c));
    check_reduced(out, ddo, mout, 0, len, 0, len, 0, r, 12, "large scan");
    free(ddo);
    free(in);
    free(out);
    free(dd);
    free(min);
    free(mout);
    /* A type with holes: the point-to-point algorithms serve it. */
    struct {
        double v;
        int i;
    } x = {(double)((r * 5 + 3) % (n + 1)), r}, s;
    CHECK_MPI(MPI_Scan(&x, &s, 1, MPI_DOUBLE_INT, MPI_MINLOC, c));
    double best = 1e300;
    int at = -1;
    for (int q = 0; q <= r; q++)
        if ((double)((q * 5 + 3) % (n + 1)) < best) {
            best = (double)((q * 5 + 3) % (n + 1));
            at = q;
        }
    CHECK(s.v == best && s.i == at, "minloc scan: (%g, %d), expected (%g, %d)", s.v, s.i, best, at);
}

static void exercise(MPI_Comm c, const char *label, int expect_shm, int slot_ints)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Datatype mt = tt_mat_type();
    MPI_Op matop;
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &matop));
    CHECK_MPI(MPI_Barrier(c)); /* the first collective takes the area */
    unsigned long long before = sends();
    for (int salt = 0; salt < 2; salt++) {
        test_alltoall(c, r, n, salt);
        test_alltoallv(c, r, n, salt);
        test_gatherv_scatterv(c, r, n, salt, -1, 0);
        test_v_vector(c, r, n, salt);
        test_allgatherv(c, r, n, salt, -1, 0);
        test_allgatherv_vector(c, r, n, salt);
        test_reduce_scatter(c, r, n, salt, mt, matop);
        test_scan(c, r, n, salt, mt, matop);
    }
    unsigned long long mine = sends() - before, all = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, c));
    if (expect_shm && n > 1)
        CHECK(all == 0, "%s: %llu point-to-point messages in shared-memory collectives", label,
              all);
    else if (n > 1)
        CHECK(all > 0, "%s: no point-to-point message, yet the shared-memory collectives are off",
              label);
    test_beyond(c, r, n, slot_ints, mt, matop);
    if (r == 0) printf("%s: %d ranks, %llu messages\n", label, n, all);
    MPI_Op_free(&matop);
    MPI_Type_free(&mt);
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    int expect_shm = argc < 2 || strcmp(argv[1], "p2p") != 0;
    const char *e = getenv("TERN_SHMCOLL_MAX");
    int slot_ints = (e ? atoi(e) : 4096) / (int)sizeof(int);
    pv_setup();
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(n <= 64, "at most 64 ranks");
    exercise(MPI_COMM_WORLD, "world", expect_shm, slot_ints);
    MPI_Comm half, rev;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half));
    exercise(half, "split by parity", expect_shm, slot_ints);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, n - r, &rev));
    exercise(rev, "split reversed", expect_shm, slot_ints);
    MPI_Comm_free(&half);
    MPI_Comm_free(&rev);
    MPI_T_pvar_session_free(&pv_session);
    MPI_Finalize();
    MPI_T_finalize();
    return 0;
}
