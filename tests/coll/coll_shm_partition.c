/* The partitioned shared-memory allreduce (src/coll/shm_coll_partition.c),
 * forced through TERN_ALLREDUCE_ALGORITHM=shm_partition or taken by auto: vectors from one
 * element to several slot-sized chunks and an odd remainder, ints and
 * doubles, MPI_SUM, MPI_MAX, MPI_MIN and MPI_BAND, MPI_IN_PLACE, every
 * element checked against the value computed here; a double sum whose
 * rounding depends on the grouping must come out bitwise the same on every
 * rank; no point-to-point message for those.  Then the calls it hands to
 * recursive doubling: a commutative user operation, a non-commutative one
 * (selection refuses it), a type with holes.  With the argument "nb", the
 * same through MPI_Iallreduce and a wait (TERN_IALLREDUCE_ALGORITHM). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_msgcount.h"
#include "coll_util.h"

static int small(int rank, long i) { return tt_val(rank, i, 3) & 0xffff; }

static int nonblocking;

static void allreduce(const void *in, void *out, int len, MPI_Datatype dt, MPI_Op op, MPI_Comm c)
{
    if (!nonblocking) {
        CHECK_MPI(MPI_Allreduce(in, out, len, dt, op, c));
        return;
    }
    MPI_Request req;
    CHECK_MPI(MPI_Iallreduce(in, out, len, dt, op, c, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

static void check_int_ops(MPI_Comm c, int r, int n, long len, int inplace)
{
    int *in = tt_alloc(sizeof(int) * (size_t)len), *out = tt_alloc(sizeof(int) * (size_t)len);
    static const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_BAND};
    static const char *names[] = {"sum", "max", "min", "band"};
    for (int o = 0; o < 4; o++) {
        for (long i = 0; i < len; i++) {
            in[i] = small(r, i + o);
            out[i] = inplace ? in[i] : -1;
        }
        allreduce(inplace ? MPI_IN_PLACE : in, out, (int)len, MPI_INT, ops[o], c);
        for (long i = 0; i < len; i++) {
            int want = small(0, i + o);
            for (int q = 1; q < n; q++) {
                int v = small(q, i + o);
                want = o == 0   ? want + v
                       : o == 1 ? (v > want ? v : want)
                       : o == 2 ? (v < want ? v : want)
                                : (want & v);
            }
            CHECK(out[i] == want, "int %s len %ld in_place %d: [%ld] = %d, expected %d", names[o],
                  len, inplace, i, out[i], want);
        }
    }
    free(in);
    free(out);
}

static void check_doubles(MPI_Comm c, int r, int n, long len, int inplace)
{
    double *in = tt_alloc(sizeof(double) * (size_t)len);
    double *out = tt_alloc(sizeof(double) * (size_t)len);
    /* Integers: the sum is exact whatever the grouping. */
    for (long i = 0; i < len; i++) {
        in[i] = (double)small(r, i) - 30000.0;
        out[i] = inplace ? in[i] : -1;
    }
    allreduce(inplace ? MPI_IN_PLACE : in, out, (int)len, MPI_DOUBLE, MPI_SUM, c);
    for (long i = 0; i < len; i++) {
        double want = 0;
        for (int q = 0; q < n; q++) want += (double)small(q, i) - 30000.0;
        CHECK(out[i] == want, "double sum len %ld in_place %d: [%ld] = %g, expected %g", len,
              inplace, i, out[i], want);
    }
    /* Thirds: rounding depends on the grouping, yet every rank must hold
     * the same bits. */
    for (long i = 0; i < len; i++) in[i] = (small(r, i) + 1) / 3.0;
    allreduce(in, out, (int)len, MPI_DOUBLE, MPI_SUM, c);
    uint64_t h = 1469598103934665603ull;
    for (long i = 0; i < len; i++) {
        uint64_t b;
        memcpy(&b, &out[i], sizeof b);
        h = (h ^ b) * 1099511628211ull;
        double approx = 0;
        for (int q = 0; q < n; q++) approx += (small(q, i) + 1) / 3.0;
        CHECK(out[i] > approx * (1 - 1e-12) && out[i] < approx * (1 + 1e-12),
              "double thirds len %ld: [%ld] = %.17g, expected about %.17g", len, i, out[i], approx);
    }
    uint64_t lo, hi;
    CHECK_MPI(MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, c));
    CHECK_MPI(MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, c));
    CHECK(lo == hi, "double thirds len %ld: ranks hold different bits", len);
    free(in);
    free(out);
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++) b[i] += a[i];
}

/* Calls the algorithm hands to recursive doubling. */
static void check_fallbacks(MPI_Comm c, int r, int n, long len)
{
    int *in = tt_alloc(sizeof(int) * (size_t)len), *out = tt_alloc(sizeof(int) * (size_t)len);
    MPI_Op usum;
    CHECK_MPI(MPI_Op_create(user_sum, 1, &usum));
    for (long i = 0; i < len; i++) in[i] = small(r, i);
    allreduce(in, out, (int)len, MPI_INT, usum, c);
    for (long i = 0; i < len; i++) {
        int want = 0;
        for (int q = 0; q < n; q++) want += small(q, i);
        CHECK(out[i] == want, "user sum len %ld: [%ld] = %d, expected %d", len, i, out[i], want);
    }
    MPI_Op_free(&usum);
    /* Non-commutative: matrices in rank order. */
    enum { M = 40 };
    tt_mat min[M], mout[M];
    MPI_Datatype mt = tt_mat_type();
    MPI_Op matop;
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &matop));
    for (int i = 0; i < M; i++) min[i] = tt_mat_of(r, i);
    allreduce(min, mout, M, mt, matop, c);
    for (int i = 0; i < M; i++)
        CHECK(tt_mat_eq(mout[i], tt_mat_range(0, n - 1, i)), "matrix product [%d]", i);
    MPI_Op_free(&matop);
    MPI_Type_free(&mt);
    /* A type with holes. */
    struct {
        double v;
        int i;
    } x = {(double)((r * 7 + 2) % (n + 2)), r}, s;
    allreduce(&x, &s, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c);
    double best = -1;
    int at = -1;
    for (int q = 0; q < n; q++)
        if ((double)((q * 7 + 2) % (n + 2)) > best) {
            best = (double)((q * 7 + 2) % (n + 2));
            at = q;
        }
    CHECK(s.v == best && s.i == at, "maxloc: (%g, %d), expected (%g, %d)", s.v, s.i, best, at);
    free(in);
    free(out);
}

static void exercise(MPI_Comm c, const char *label, long slot)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    /* Lengths in ints: 1, a slot minus one, one, a slot and a bit, several
     * slots and an odd remainder, and a MiB or 64 slots and a bit, whichever
     * is less (tiny slots make many chunks). */
    long ints = slot / (long)sizeof(int);
    long lens[] = {1,        ints - 1,     ints,
                   ints + 1, 5 * ints + 3, 64 * ints + 7 < 262147 ? 64 * ints + 7 : 262147};
    int nlens = (int)(sizeof lens / sizeof lens[0]);
    CHECK_MPI(MPI_Barrier(c));
    unsigned long long before = sends();
    for (int k = 0; k < nlens; k++) {
        if (lens[k] < 1) continue;
        for (int inplace = 0; inplace < 2; inplace++) {
            check_int_ops(c, r, n, lens[k], inplace);
            check_doubles(c, r, n, lens[k] / 2 + 1, inplace);
        }
    }
    unsigned long long mine = sends() - before, all = 0;
    /* check_doubles' own agreement allreduces are 8-byte ones, in the
     * slots as well. */
    CHECK_MPI(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, c));
    CHECK(all == 0, "%s: %llu point-to-point messages in the partitioned allreduce", label, all);
    check_fallbacks(c, r, n, ints * 2 + 5);
    if (r == 0) printf("%s: %d ranks passed\n", label, n);
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    nonblocking = argc > 1 && !strcmp(argv[1], "nb");
    pv_setup();
    /* The chunk: TERN_SHMCOLL_SLOT (K for KiB), or the default one at a
     * few ranks. */
    const char *e = getenv("TERN_SHMCOLL_SLOT");
    long slot = e ? atol(e) * (strchr(e, 'K') ? 1024 : 1) : 256 * 1024;
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    exercise(MPI_COMM_WORLD, "world", slot);
    MPI_Comm rev;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, r % 2, n - r, &rev));
    exercise(rev, "split by parity, reversed", slot);
    MPI_Comm_free(&rev);
    MPI_T_pvar_session_free(&pv_session);
    MPI_Finalize();
    MPI_T_finalize();
    return 0;
}
