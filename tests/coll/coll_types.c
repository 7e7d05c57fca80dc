/* Every blocking collective with a derived datatype whose lower bound is
 * not 0 and which has holes (LBT below), against plain ints (or a
 * contiguous type) on the other side: different type maps with the same
 * signature.  Holes must stay untouched.  Also: v forms where some ranks
 * have zero elements, MPI_IN_PLACE in every call that allows it, and a
 * non-commutative user op on LBT in every reducing collective, which must
 * see the LBT handle, counts in LBT elements, and the rank order. */
#include "coll_util.h"

static int rank, size;
static MPI_Datatype lbt, pair2; /* pair2: contiguous(2, MPI_INT) */

/* LBT: two ints (at 0 and 2 ints from the element's origin), lb = -1 int,
 * extent 5 ints.  A buffer of n elements is an array A of 5n + 1 ints whose
 * origin (the address passed to MPI) is A + 1; data int j of element k is
 * A[1 + 5k + 2j]. */
#define LBT_INTS(n) (5 * (size_t)(n) + 1)
static size_t lbt_pos(size_t k, int j) { return 1 + 5 * k + 2 * (size_t)j; }
static int lbt_is_data(size_t idx) { return idx % 5 == 1 || idx % 5 == 3; }

static void make_types(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_resized(v, -(MPI_Aint)sizeof(int), 5 * (MPI_Aint)sizeof(int), &lbt));
    CHECK_MPI(MPI_Type_commit(&lbt));
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair2));
    CHECK_MPI(MPI_Type_commit(&pair2));
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(lbt, &lb, &ext));
    CHECK(lb == -(MPI_Aint)sizeof(int) && ext == 5 * (MPI_Aint)sizeof(int), "LBT bounds %ld %ld",
          (long)lb, (long)ext);
}

#define HOLE (-77)

/* An LBT buffer of n elements, holes set to HOLE, data to f(k, j) or HOLE. */
static int *lbt_alloc(size_t n) { return tt_alloc(LBT_INTS(n) * sizeof(int)); }
static void lbt_fill(int *a, size_t n, int r, int salt, int data)
{
    for (size_t x = 0; x < LBT_INTS(n); x++) a[x] = HOLE;
    if (data)
        for (size_t k = 0; k < n; k++)
            for (int j = 0; j < 2; j++)
                a[lbt_pos(k, j)] = tt_val(r, (long)(2 * k + (size_t)j), salt);
}
/* Element k of the buffer holds int pair 'first + k' of rank r's data. */
static void lbt_check(const int *a, size_t n, size_t k0, size_t cnt, int r, size_t first, int salt,
                      const char *what)
{
    (void)n;
    for (size_t x = 5 * k0; x < LBT_INTS(k0 + cnt); x++) {
        if (!lbt_is_data(x)) {
            CHECK(a[x] == HOLE, "%s: hole A[%zu] written (%d)", what, x, a[x]);
            continue;
        }
        size_t k = x / 5;
        int j = x % 5 == 3;
        int want = tt_val(r, (long)(2 * (first + k - k0) + (size_t)j), salt);
        CHECK(a[x] == want, "%s: A[%zu] (elem %zu int %d) = %d want %d", what, x, k, j, a[x], want);
    }
}

/* Plain ints: pair p of rank r's data is ints 2p, 2p+1. */
static void ints_fill(int *b, size_t pairs, int r, int salt)
{
    for (size_t i = 0; i < 2 * pairs; i++) b[i] = tt_val(r, (long)i, salt);
}
static void ints_check(const int *b, size_t pairs, int r, size_t first, int salt, const char *what)
{
    for (size_t i = 0; i < 2 * pairs; i++)
        CHECK(b[i] == tt_val(r, (long)(2 * first + i), salt), "%s: int %zu = %d want %d", what, i,
              b[i], tt_val(r, (long)(2 * first + i), salt));
}

static void bcast(int c)
{
    for (int root = 0; root < size; root++) {
        /* odd ranks and the root use LBT, the rest 2c ints */
        int use_lbt = rank == root || rank % 2;
        int *a = lbt_alloc((size_t)c), *b = tt_alloc(2 * (size_t)c * sizeof(int));
        lbt_fill(a, (size_t)c, root, 1, rank == root);
        if (use_lbt)
            CHECK_MPI(MPI_Bcast(a + 1, c, lbt, root, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Bcast(b, 2 * c, MPI_INT, root, MPI_COMM_WORLD));
        if (use_lbt)
            lbt_check(a, (size_t)c, 0, (size_t)c, root, 0, 1, "bcast LBT");
        else
            ints_check(b, (size_t)c, root, 0, 1, "bcast ints");
        free(a);
        free(b);
    }
}

/* Gather / scatter and their v forms: the root's side is LBT. Rank i's
 * block has cnt(i) elements: c for the plain forms, (i % 3) * c for v. */
static int vcount(int i, int c, int v) { return v ? (i % 3) * c : c; }

static void gather_scatter(int c, int v, int in_place)
{
    int *counts = tt_alloc((size_t)size * sizeof(int)),
        *displs = tt_alloc((size_t)size * sizeof(int));
    size_t total = 0;
    /* v forms place the blocks in reverse rank order */
    for (int i = size - 1; i >= 0; i--) {
        counts[i] = vcount(i, c, v);
        displs[i] = (int)total;
        total += (size_t)counts[i];
    }
    if (!v)
        for (int i = 0; i < size; i++) displs[i] = i * c;
    int mine = counts[rank];
    for (int root = 0; root < size; root++) {
        int *A = lbt_alloc(total), *b = tt_alloc(2 * (size_t)mine * sizeof(int) + 1);
        int ip = in_place && rank == root;
        /* gather */
        lbt_fill(A, total, 0, 0, 0);
        if (ip)
            for (int k = 0; k < mine; k++)
                for (int j = 0; j < 2; j++)
                    A[lbt_pos((size_t)displs[root] + (size_t)k, j)] =
                        tt_val(rank, 2 * k + j, 7 + v);
        ints_fill(b, (size_t)mine, rank, 7 + v);
        const void *sb = ip ? MPI_IN_PLACE : b;
        if (v)
            CHECK_MPI(MPI_Gatherv(sb, 2 * mine, MPI_INT, A + 1, counts, displs, lbt, root,
                                  MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Gather(sb, 2 * mine, MPI_INT, A + 1, c, lbt, root, MPI_COMM_WORLD));
        if (rank == root) {
            for (int i = 0; i < size; i++)
                lbt_check(A, total, (size_t)displs[i], (size_t)counts[i], i, 0, 7 + v,
                          v ? "gatherv" : "gather");
        }
        /* scatter: the root sends the blocks it just gathered */
        for (int i = 0; i < 2 * mine; i++) b[i] = HOLE;
        void *rb = ip ? MPI_IN_PLACE : b;
        if (v)
            CHECK_MPI(MPI_Scatterv(A + 1, counts, displs, lbt, rb, 2 * mine, MPI_INT, root,
                                   MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Scatter(A + 1, c, lbt, rb, 2 * mine, MPI_INT, root, MPI_COMM_WORLD));
        if (!ip) ints_check(b, (size_t)mine, rank, 0, 7 + v, v ? "scatterv" : "scatter");
        free(A);
        free(b);
    }
    free(counts);
    free(displs);
}

/* Allgather(v): everyone receives LBT, sends pair2 elements. */
static void allgather(int c, int v, int in_place)
{
    int *counts = tt_alloc((size_t)size * sizeof(int)),
        *displs = tt_alloc((size_t)size * sizeof(int));
    size_t total = 0;
    for (int i = size - 1; i >= 0; i--) {
        counts[i] = vcount(i, c, v);
        displs[i] = v ? (int)total : i * c;
        total += (size_t)counts[i];
    }
    int mine = counts[rank];
    int *A = lbt_alloc(total), *b = tt_alloc(2 * (size_t)mine * sizeof(int) + 1);
    lbt_fill(A, total, 0, 0, 0);
    ints_fill(b, (size_t)mine, rank, 11 + v);
    if (in_place)
        for (int k = 0; k < mine; k++)
            for (int j = 0; j < 2; j++)
                A[lbt_pos((size_t)displs[rank] + (size_t)k, j)] = tt_val(rank, 2 * k + j, 11 + v);
    const void *sb = in_place ? MPI_IN_PLACE : b;
    if (v)
        CHECK_MPI(MPI_Allgatherv(sb, mine, pair2, A + 1, counts, displs, lbt, MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Allgather(sb, mine, pair2, A + 1, c, lbt, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++)
        lbt_check(A, total, (size_t)displs[i], (size_t)counts[i], i, 0, 11 + v,
                  v ? "allgatherv" : "allgather");
    free(A);
    free(b);
    free(counts);
    free(displs);
}

/* Alltoall(v,w): rank s sends n(s,d) LBT elements to d, d receives them as
 * pair2 elements (w: as ints from even senders).  Data of the block is
 * tt_val(s, 2 * (d * 1000 + pair) + j). */
static int a2a_n(int s, int d, int c, int v) { return v ? ((s + d) % 3) * c : c; }
static int a2a_val(int s, int d, long p, int j) { return tt_val(s, 2 * (d * 1000 + p) + j, 13); }

static void alltoall(int c, int form, int in_place) /* form: 0 alltoall, 1 v, 2 w */
{
    int v = form != 0;
    int *sc = tt_alloc((size_t)size * sizeof(int)), *sd = tt_alloc((size_t)size * sizeof(int));
    int *rc = tt_alloc((size_t)size * sizeof(int)), *rd = tt_alloc((size_t)size * sizeof(int));
    MPI_Datatype *st = tt_alloc((size_t)size * sizeof(MPI_Datatype));
    MPI_Datatype *rt = tt_alloc((size_t)size * sizeof(MPI_Datatype));
    size_t stot = 0, rtot = 0;
    for (int d = 0; d < size; d++) {
        sc[d] = a2a_n(rank, d, c, v);
        sd[d] = (int)stot;
        stot += (size_t)sc[d];
        rc[d] = a2a_n(d, rank, c, v);
        rd[d] = (int)rtot;
        rtot += (size_t)rc[d];
    }
    int *S = lbt_alloc(stot);
    lbt_fill(S, stot, 0, 0, 0);
    for (int d = 0; d < size; d++)
        for (int k = 0; k < sc[d]; k++)
            for (int j = 0; j < 2; j++)
                S[lbt_pos((size_t)sd[d] + (size_t)k, j)] = a2a_val(rank, d, k, j);

    if (in_place) {
        /* the receive side is LBT too (same map both ways) */
        int *R = S;
        if (form == 0) {
            CHECK_MPI(
                MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, R + 1, c, lbt, MPI_COMM_WORLD));
        } else if (form == 1) {
            CHECK_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, R + 1, rc, rd, lbt,
                                    MPI_COMM_WORLD));
        } else {
            int *rdb = tt_alloc((size_t)size * sizeof(int));
            for (int d = 0; d < size; d++) {
                rdb[d] = rd[d] * 5 * (int)sizeof(int);
                rt[d] = lbt;
            }
            CHECK_MPI(
                MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, R + 1, rc, rdb, rt, MPI_COMM_WORLD));
            free(rdb);
        }
        for (int s = 0; s < size; s++)
            for (int k = 0; k < rc[s]; k++)
                for (int j = 0; j < 2; j++) {
                    int got = R[lbt_pos((size_t)rd[s] + (size_t)k, j)];
                    CHECK(got == a2a_val(s, rank, k, j),
                          "alltoall form %d in place: from %d elem %d: %d", form, s, k, got);
                }
        for (size_t x = 0; x < LBT_INTS(rtot); x++)
            if (!lbt_is_data(x))
                CHECK(R[x] == HOLE, "alltoall form %d in place: hole %zu", form, x);
    } else {
        int *R = tt_alloc(2 * rtot * sizeof(int) + 1);
        for (size_t i = 0; i < 2 * rtot; i++) R[i] = HOLE;
        if (form == 0) {
            CHECK_MPI(MPI_Alltoall(S + 1, c, lbt, R, c, pair2, MPI_COMM_WORLD));
        } else if (form == 1) {
            CHECK_MPI(MPI_Alltoallv(S + 1, sc, sd, lbt, R, rc, rd, pair2, MPI_COMM_WORLD));
        } else {
            /* bytes; receive from even ranks as ints, odd ranks as pair2 */
            int *sdb = tt_alloc((size_t)size * sizeof(int)),
                *rdb = tt_alloc((size_t)size * sizeof(int));
            int *rcw = tt_alloc((size_t)size * sizeof(int));
            for (int d = 0; d < size; d++) {
                st[d] = lbt;
                sdb[d] = sd[d] * 5 * (int)sizeof(int);
                rt[d] = d % 2 ? pair2 : MPI_INT;
                rcw[d] = d % 2 ? rc[d] : 2 * rc[d];
                rdb[d] = rd[d] * 2 * (int)sizeof(int);
            }
            CHECK_MPI(MPI_Alltoallw(S + 1, sc, sdb, st, R, rcw, rdb, rt, MPI_COMM_WORLD));
            free(sdb);
            free(rdb);
            free(rcw);
        }
        for (int s = 0; s < size; s++)
            for (int k = 0; k < rc[s]; k++)
                for (int j = 0; j < 2; j++) {
                    int got = R[2 * ((size_t)rd[s] + (size_t)k) + (size_t)j];
                    CHECK(got == a2a_val(s, rank, k, j),
                          "alltoall form %d: from %d elem %d int %d: %d want %d", form, s, k, j,
                          got, a2a_val(s, rank, k, j));
                }
        free(R);
    }
    free(S);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
}

/* ---- reductions on LBT ---- */

/* Each LBT element is an affine map x -> a*x + b (mod 2^32); the op
 * composes "lower ranks first": (L, R) -> x -> R(L(x)).  Associative, not
 * commutative. */
static int op_calls, op_bad_type;
static long op_max_len;

static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    op_calls++;
    if (*dt != lbt) op_bad_type++;
    if (*len > op_max_len) op_max_len = *len;
    unsigned *L = in, *R = inout;
    for (int k = 0; k < *len; k++) {
        unsigned *l = L + 5 * k, *r = R + 5 * k; /* element origins: a at +0, b at +2 */
        unsigned a = l[0] * r[0], b = l[2] * r[0] + r[2];
        r[0] = a;
        r[2] = b;
    }
}

static unsigned aff_a(int r, long e) { return (unsigned)(r % 4) * 2u + 1u + (unsigned)e; }
static unsigned aff_b(int r, long e) { return (unsigned)tt_val(r, e, 17); }

/* composition over ranks lo..hi for element e */
static void aff_range(int lo, int hi, long e, unsigned *a, unsigned *b)
{
    *a = 1;
    *b = 0;
    for (int r = lo; r <= hi; r++) {
        unsigned ra = aff_a(r, e), rb = aff_b(r, e);
        *b = *b * ra + rb;
        *a = *a * ra;
    }
}

static void aff_fill(int *A, size_t n, size_t first)
{
    lbt_fill(A, n, 0, 0, 0);
    for (size_t k = 0; k < n; k++) {
        A[lbt_pos(k, 0)] = (int)aff_a(rank, (long)(first + k));
        A[lbt_pos(k, 1)] = (int)aff_b(rank, (long)(first + k));
    }
}

static void aff_check(const int *A, size_t n, size_t first, int lo, int hi, const char *what)
{
    for (size_t x = 0; x < LBT_INTS(n); x++) {
        if (!lbt_is_data(x)) {
            CHECK(A[x] == HOLE, "%s: hole A[%zu] written (%d)", what, x, A[x]);
            continue;
        }
        unsigned a, b;
        aff_range(lo, hi, (long)(first + x / 5), &a, &b);
        unsigned want = x % 5 == 1 ? a : b;
        CHECK((unsigned)A[x] == want, "%s: element %zu %c = %u want %u (ranks %d..%d)", what, x / 5,
              x % 5 == 1 ? 'a' : 'b', (unsigned)A[x], want, lo, hi);
    }
}

static void reductions(int c, MPI_Op op, int in_place)
{
    const char *opn = in_place ? "in place" : "";
    size_t total = (size_t)c * (size_t)size;
    int *S = lbt_alloc(total), *R = lbt_alloc(total);
    op_calls = op_bad_type = 0;
    op_max_len = 0;

    for (int root = 0; root < size; root++) {
        int ip = in_place && rank == root;
        aff_fill(S, (size_t)c, 0);
        if (ip)
            aff_fill(R, (size_t)c, 0);
        else
            lbt_fill(R, (size_t)c, 0, 0, 0);
        CHECK_MPI(MPI_Reduce(ip ? MPI_IN_PLACE : S + 1, R + 1, c, lbt, op, root, MPI_COMM_WORLD));
        if (rank == root) aff_check(R, (size_t)c, 0, 0, size - 1, "reduce");
    }

    aff_fill(S, (size_t)c, 0);
    if (in_place)
        aff_fill(R, (size_t)c, 0);
    else
        lbt_fill(R, (size_t)c, 0, 0, 0);
    CHECK_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : S + 1, R + 1, c, lbt, op, MPI_COMM_WORLD));
    aff_check(R, (size_t)c, 0, 0, size - 1, "allreduce");

    if (in_place)
        aff_fill(R, (size_t)c, 0);
    else
        lbt_fill(R, (size_t)c, 0, 0, 0);
    CHECK_MPI(MPI_Scan(in_place ? MPI_IN_PLACE : S + 1, R + 1, c, lbt, op, MPI_COMM_WORLD));
    aff_check(R, (size_t)c, 0, 0, rank, "scan");

    if (in_place)
        aff_fill(R, (size_t)c, 0);
    else
        lbt_fill(R, (size_t)c, 0, 0, 0);
    CHECK_MPI(MPI_Exscan(in_place ? MPI_IN_PLACE : S + 1, R + 1, c, lbt, op, MPI_COMM_WORLD));
    if (rank > 0) aff_check(R, (size_t)c, 0, 0, rank - 1, "exscan");

    /* reduce_scatter_block: rank r gets elements [r c, (r+1) c) */
    aff_fill(S, total, 0);
    if (in_place)
        aff_fill(R, total, 0);
    else
        lbt_fill(R, (size_t)c, 0, 0, 0);
    CHECK_MPI(MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : S + 1, R + 1, c, lbt, op,
                                       MPI_COMM_WORLD));
    aff_check(R, (size_t)c, (size_t)rank * (size_t)c, 0, size - 1, "reduce_scatter_block");

    /* reduce_scatter: rank r gets (r % 3) * c elements (some none) */
    int *counts = tt_alloc((size_t)size * sizeof(int));
    size_t rtot = 0, first = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = (i % 3) * c;
        if (i < rank) first += (size_t)counts[i];
        rtot += (size_t)counts[i];
    }
    int *S2 = lbt_alloc(rtot), *R2 = lbt_alloc(rtot);
    aff_fill(S2, rtot, 0);
    if (in_place)
        aff_fill(R2, rtot, 0);
    else
        lbt_fill(R2, (size_t)counts[rank], 0, 0, 0);
    CHECK_MPI(MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : S2 + 1, R2 + 1, counts, lbt, op,
                                 MPI_COMM_WORLD));
    aff_check(R2, (size_t)counts[rank], first, 0, size - 1, "reduce_scatter");
    if (in_place) /* the rest of an in-place buffer is undefined, but not its holes */
        for (size_t x = LBT_INTS((size_t)counts[rank]); x < LBT_INTS(rtot); x++)
            if (!lbt_is_data(x)) CHECK(R2[x] == HOLE, "reduce_scatter in place: hole %zu", x);

    if (size > 1 && c > 0) CHECK(op_calls > 0, "user op never called (%s)", opn);
    CHECK(op_bad_type == 0, "user op got another datatype handle %d times (%s)", op_bad_type, opn);
    CHECK(op_max_len <= (long)total, "user op got len %ld > %zu elements", op_max_len, total);
    free(S);
    free(R);
    free(S2);
    free(R2);
    free(counts);
}

/* MPI_SUM on LBT: a predefined op on a derived type with lb != 0. */
static void sum_lbt(int c)
{
    int *S = lbt_alloc((size_t)c), *R = lbt_alloc((size_t)c);
    lbt_fill(S, (size_t)c, rank, 19, 1);
    for (int root = 0; root < size; root++) {
        lbt_fill(R, (size_t)c, 0, 0, 0);
        CHECK_MPI(MPI_Reduce(S + 1, R + 1, c, lbt, MPI_SUM, root, MPI_COMM_WORLD));
        if (rank != root) continue;
        for (size_t x = 0; x < LBT_INTS((size_t)c); x++) {
            long want = HOLE;
            if (lbt_is_data(x)) {
                want = 0;
                for (int r = 0; r < size; r++)
                    want += tt_val(r, (long)(2 * (x / 5) + (x % 5 == 3)), 19);
                want = (int)(unsigned)want;
            }
            CHECK(R[x] == want, "reduce sum LBT root %d: A[%zu]=%d want %ld", root, x, R[x], want);
        }
    }
    free(S);
    free(R);
}

/* Every collective with zero elements everywhere and NULL buffers. */
static void zero_counts(void)
{
    int *z = tt_alloc((size_t)size * sizeof(int));
    MPI_Datatype *zt = tt_alloc((size_t)size * sizeof(MPI_Datatype));
    for (int i = 0; i < size; i++) {
        z[i] = 0;
        zt[i] = MPI_INT;
    }
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Bcast(NULL, 0, lbt, 0, w));
    CHECK_MPI(MPI_Gather(NULL, 0, MPI_INT, NULL, 0, lbt, size - 1, w));
    CHECK_MPI(MPI_Gatherv(NULL, 0, MPI_INT, NULL, z, z, lbt, 0, w));
    CHECK_MPI(MPI_Scatter(NULL, 0, lbt, NULL, 0, MPI_INT, 0, w));
    CHECK_MPI(MPI_Scatterv(NULL, z, z, lbt, NULL, 0, MPI_INT, size / 2, w));
    CHECK_MPI(MPI_Allgather(NULL, 0, MPI_INT, NULL, 0, lbt, w));
    CHECK_MPI(MPI_Allgatherv(NULL, 0, MPI_INT, NULL, z, z, lbt, w));
    CHECK_MPI(MPI_Alltoall(NULL, 0, lbt, NULL, 0, MPI_INT, w));
    CHECK_MPI(MPI_Alltoallv(NULL, z, z, lbt, NULL, z, z, MPI_INT, w));
    CHECK_MPI(MPI_Alltoallw(NULL, z, z, zt, NULL, z, z, zt, w));
    CHECK_MPI(MPI_Reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, w));
    CHECK_MPI(MPI_Allreduce(NULL, NULL, 0, lbt, MPI_SUM, w));
    CHECK_MPI(MPI_Reduce_scatter(NULL, NULL, z, MPI_INT, MPI_MAX, w));
    CHECK_MPI(MPI_Reduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_MAX, w));
    CHECK_MPI(MPI_Scan(NULL, NULL, 0, MPI_DOUBLE, MPI_PROD, w));
    CHECK_MPI(MPI_Exscan(NULL, NULL, 0, MPI_DOUBLE, MPI_PROD, w));
    free(z);
    free(zt);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    make_types();
    MPI_Op affine;
    CHECK_MPI(MPI_Op_create(affine_op, 0, &affine));

    static const int cs[] = {0, 1, 7, 1200};
    for (int k = 0; k < 4; k++) {
        int c = cs[k];
        bcast(c);
        for (int v = 0; v < 2; v++)
            for (int ip = 0; ip < 2; ip++) {
                gather_scatter(c, v, ip);
                allgather(c, v, ip);
            }
        for (int form = 0; form < 3; form++)
            for (int ip = 0; ip < 2; ip++) alltoall(c, form, ip);
        reductions(c, affine, 0);
        reductions(c, affine, 1);
        sum_lbt(c);
    }
    zero_counts();

    CHECK_MPI(MPI_Op_free(&affine));
    CHECK_MPI(MPI_Type_free(&lbt));
    CHECK_MPI(MPI_Type_free(&pair2));
    MPI_Finalize();
    return 0;
}
