/* Subarray and darray, one process: for many shapes (seeded, both storage
 * orders, 1 to 4 dimensions, MPI_INT and a resized int with a gap as the
 * old type) the packed output of an array whose elements hold their own
 * index must be the indices a brute-force walk over the global array picks
 * (the standard's definitions: a box of the array; the elements a process
 * of a row-major grid owns under block, cyclic(k) and none), in storage
 * order.  Bounds are 0 and the whole array's extent.  The large-count
 * forms build the same types; envelope and contents give back the
 * arguments; bad arguments get their error classes. */
#include <string.h>

#include "tern_test.h"

static unsigned long rng = 12345;
static int rnd(int n)
{
    rng = rng * 6364136223846793005ul + 1442695040888963407ul;
    return (int)((rng >> 33) % (unsigned long)n);
}

/* global index (in elements, storage order) of a multi-index */
static long linear(int nd, const int *sizes, const int *idx, int order)
{
    long l = 0;
    for (int k = 0; k < nd; k++) {
        int d = order == MPI_ORDER_C ? k : nd - 1 - k;
        l = l * sizes[d] + idx[d];
    }
    return l;
}

/* advances idx in storage order (fastest dimension first); 0 at the end */
static int next_index(int nd, const int *lim, int *idx, int order)
{
    for (int k = 0; k < nd; k++) {
        int d = order == MPI_ORDER_C ? nd - 1 - k : k;
        if (++idx[d] < lim[d]) return 1;
        idx[d] = 0;
    }
    return 0;
}

/* The old types: MPI_INT, and an int with 4 bytes of gap after it. */
static MPI_Datatype gapped;

/* Packs one element of t from an array of 'total' old elements whose int
 * holds its index, and compares with the expected index list. */
static void check_picks(MPI_Datatype t, MPI_Datatype old, long total, const long *want, long n,
                        const char *what)
{
    MPI_Aint lb, ext, olb, oext;
    int size;
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_MPI(MPI_Type_get_extent(old, &olb, &oext));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK(lb == 0 && ext == total * oext, "%s: lb %ld extent %ld, expected 0 %ld", what, (long)lb,
          (long)ext, total * (long)oext);
    CHECK(size == (int)(n * 4), "%s: size %d, expected %ld", what, size, n * 4);
    int step = (int)(oext / 4);
    int *arr = malloc((size_t)(total * step + 1) * sizeof(int));
    int *out = malloc((size_t)(n + 1) * sizeof(int));
    for (long i = 0; i < total * step; i++) arr[i] = i % step ? -1 : (int)(i / step);
    int pos = 0;
    CHECK_MPI(MPI_Pack(arr, 1, t, out, (int)(n + 1) * 4, &pos, MPI_COMM_WORLD));
    CHECK(pos == (int)(n * 4), "%s: packed %d bytes", what, pos);
    for (long i = 0; i < n; i++)
        CHECK(out[i] == want[i], "%s: element %ld is %d, expected %ld", what, i, out[i], want[i]);
    /* and back: unpacking puts each where it came from */
    memset(arr, 0x55, (size_t)(total * step) * sizeof(int));
    pos = 0;
    CHECK_MPI(MPI_Unpack(out, (int)n * 4, &pos, arr, 1, t, MPI_COMM_WORLD));
    for (long i = 0; i < n; i++)
        CHECK(arr[want[i] * step] == (int)want[i], "%s: unpack of element %ld", what, i);
    free(arr);
    free(out);
}

static void subarray_case(int nd, int order, MPI_Datatype old)
{
    int sizes[4], sub[4], starts[4], idx[4] = {0};
    MPI_Count csz[4], csub[4], cst[4];
    long total = 1, n = 1;
    for (int d = 0; d < nd; d++) {
        sizes[d] = 1 + rnd(6);
        sub[d] = rnd(sizes[d] + 1);
        starts[d] = rnd(sizes[d] - sub[d] + 1);
        csz[d] = sizes[d];
        csub[d] = sub[d];
        cst[d] = starts[d];
        total *= sizes[d];
        n *= sub[d];
    }
    long *want = malloc((size_t)(n + 1) * sizeof(long)), k = 0;
    if (n > 0) do {
            int g[4];
            for (int d = 0; d < nd; d++) g[d] = starts[d] + idx[d];
            want[k++] = linear(nd, sizes, g, order);
        } while (next_index(nd, sub, idx, order));
    char what[160];
    snprintf(what, sizeof what, "subarray nd=%d %s sizes %d,%d,%d,%d sub %d,%d,%d,%d", nd,
             order == MPI_ORDER_C ? "C" : "Fortran", sizes[0], sizes[1], sizes[2], sizes[3], sub[0],
             sub[1], sub[2], sub[3]);
    MPI_Datatype t, tc;
    CHECK_MPI(MPI_Type_create_subarray(nd, sizes, sub, starts, order, old, &t));
    check_picks(t, old, total, want, n, what);
    CHECK_MPI(MPI_Type_create_subarray_c(nd, csz, csub, cst, order, old, &tc));
    check_picks(tc, old, total, want, n, what);

    /* contents: the arguments, old type as is */
    int ni, na, ndt, comb, ints[32];
    MPI_Aint addrs[1];
    MPI_Datatype types[1];
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &ndt, &comb));
    CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 3 * nd + 2 && na == 0 && ndt == 1,
          "subarray envelope %d %d %d %d", comb, ni, na, ndt);
    CHECK_MPI(MPI_Type_get_contents(t, 32, 1, 1, ints, addrs, types));
    CHECK(ints[0] == nd && ints[3 * nd + 1] == order && types[0] == old, "subarray contents");
    for (int d = 0; d < nd; d++)
        CHECK(ints[1 + d] == sizes[d] && ints[1 + nd + d] == sub[d] &&
                  ints[1 + 2 * nd + d] == starts[d],
              "subarray contents dim %d", d);
    if (old != MPI_INT) CHECK_MPI(MPI_Type_free(&types[0]));
    MPI_Count cni, cna, cnc, cnd, counts[12];
    CHECK_MPI(MPI_Type_get_envelope_c(tc, &cni, &cna, &cnc, &cnd, &comb));
    CHECK(comb == MPI_COMBINER_SUBARRAY && cni == 2 && cna == 0 && cnc == 3 * nd && cnd == 1,
          "subarray_c envelope %ld %ld %ld %ld", (long)cni, (long)cna, (long)cnc, (long)cnd);
    CHECK_MPI(MPI_Type_get_contents_c(tc, 2, 0, 12, 1, ints, addrs, counts, types));
    CHECK(ints[0] == nd && ints[1] == order, "subarray_c contents ints");
    for (int d = 0; d < nd; d++)
        CHECK(counts[d] == sizes[d] && counts[nd + d] == sub[d] && counts[2 * nd + d] == starts[d],
              "subarray_c contents dim %d", d);
    if (old != MPI_INT) CHECK_MPI(MPI_Type_free(&types[0]));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&tc));
    free(want);
}

/* owner coordinate of global index i of a dimension */
static int owner(int i, int g, int distrib, int darg, int p)
{
    if (distrib == MPI_DISTRIBUTE_NONE) return 0;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return i / b;
    }
    int k = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (i / k) % p;
}

static void darray_case(int nd, int order, MPI_Datatype old)
{
    int g[4], dist[4], darg[4], ps[4], size = 1;
    for (int d = 0; d < nd; d++) {
        g[d] = 1 + rnd(7);
        dist[d] = rnd(3) == 0 ? MPI_DISTRIBUTE_NONE
                  : rnd(2)    ? MPI_DISTRIBUTE_BLOCK
                              : MPI_DISTRIBUTE_CYCLIC;
        ps[d] = dist[d] == MPI_DISTRIBUTE_NONE ? 1 : 1 + rnd(3);
        darg[d] = MPI_DISTRIBUTE_DFLT_DARG;
        if (dist[d] == MPI_DISTRIBUTE_CYCLIC && rnd(2)) darg[d] = 1 + rnd(3);
        if (dist[d] == MPI_DISTRIBUTE_BLOCK && rnd(2))
            darg[d] = (g[d] + ps[d] - 1) / ps[d] + rnd(2);
        if (dist[d] == MPI_DISTRIBUTE_NONE && rnd(2)) darg[d] = 5; /* ignored */
        size *= ps[d];
    }
    long total = 1;
    for (int d = 0; d < nd; d++) total *= g[d];
    long *want = malloc((size_t)total * sizeof(long));
    long covered = 0;
    for (int rank = 0; rank < size; rank++) {
        int coord[4], r = rank, idx[4] = {0};
        for (int d = nd - 1; d >= 0; d--) {
            coord[d] = r % ps[d];
            r /= ps[d];
        }
        long n = 0;
        do {
            int mine = 1;
            for (int d = 0; d < nd; d++)
                mine &= owner(idx[d], g[d], dist[d], darg[d], ps[d]) == coord[d];
            if (mine) want[n++] = linear(nd, g, idx, order);
        } while (next_index(nd, g, idx, order));
        covered += n;
        char what[200];
        snprintf(what, sizeof what,
                 "darray nd=%d %s rank %d/%d g %d,%d,%d,%d dist %d,%d,%d,%d darg %d,%d,%d,%d "
                 "ps %d,%d,%d,%d",
                 nd, order == MPI_ORDER_C ? "C" : "F", rank, size, g[0], g[1], g[2], g[3], dist[0],
                 dist[1], dist[2], dist[3], darg[0], darg[1], darg[2], darg[3], ps[0], ps[1], ps[2],
                 ps[3]);
        MPI_Datatype t, tc;
        MPI_Count cg[4];
        for (int d = 0; d < nd; d++) cg[d] = g[d];
        CHECK_MPI(MPI_Type_create_darray(size, rank, nd, g, dist, darg, ps, order, old, &t));
        check_picks(t, old, total, want, n, what);
        CHECK_MPI(MPI_Type_create_darray_c(size, rank, nd, cg, dist, darg, ps, order, old, &tc));
        check_picks(tc, old, total, want, n, what);
        if (rank == size - 1) {
            int ni, na, ndt, comb, ints[32];
            MPI_Aint a[1];
            MPI_Datatype types[1];
            CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &ndt, &comb));
            CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * nd + 4 && na == 0 && ndt == 1,
                  "darray envelope");
            CHECK_MPI(MPI_Type_get_contents(t, 32, 0, 1, ints, a, types));
            CHECK(ints[0] == size && ints[1] == rank && ints[2] == nd && ints[4 * nd + 3] == order,
                  "darray contents");
            for (int d = 0; d < nd; d++)
                CHECK(ints[3 + d] == g[d] && ints[3 + nd + d] == dist[d] &&
                          ints[3 + 2 * nd + d] == darg[d] && ints[3 + 3 * nd + d] == ps[d],
                      "darray contents dim %d", d);
            if (old != MPI_INT) CHECK_MPI(MPI_Type_free(&types[0]));
            MPI_Count cni, cna, cnc, cnd, counts[4];
            CHECK_MPI(MPI_Type_get_envelope_c(tc, &cni, &cna, &cnc, &cnd, &comb));
            CHECK(cni == 3 * nd + 4 && cna == 0 && cnc == nd && cnd == 1, "darray_c envelope");
            CHECK_MPI(MPI_Type_get_contents_c(tc, 32, 0, 4, 1, ints, a, counts, types));
            CHECK(ints[2] == nd && ints[3] == dist[0] && ints[3 + 3 * nd] == order,
                  "darray_c contents ints");
            for (int d = 0; d < nd; d++) CHECK(counts[d] == g[d], "darray_c gsizes[%d]", d);
            if (old != MPI_INT) CHECK_MPI(MPI_Type_free(&types[0]));
        }
        CHECK_MPI(MPI_Type_free(&t));
        CHECK_MPI(MPI_Type_free(&tc));
    }
    CHECK(covered == total, "darray: the processes hold %ld of %ld elements", covered, total);
    free(want);
}

static void expect(int rc, int cls, const char *text, const char *what)
{
    int c = -1, len;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &c);
    MPI_Error_string(rc, msg, &len);
    CHECK(c == cls, "%s: class %d, expected %d (message \"%s\")", what, c, cls, msg);
    CHECK(strstr(msg, text) != NULL, "%s: message \"%s\" lacks \"%s\"", what, msg, text);
}

static void errors(void)
{
    MPI_Datatype t;
    int s[2] = {4, 5}, ss[2] = {2, 2}, st[2] = {1, 1};
    expect(MPI_Type_create_subarray(0, s, ss, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "ndims=0 must be > 0", "subarray ndims 0");
    int bad[2] = {3, 4};
    expect(MPI_Type_create_subarray(2, s, ss, bad, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_starts[0]=3 + array_of_subsizes[0]=2 exceeds array_of_sizes[0]=4",
           "subarray box outside");
    int neg[2] = {1, -1};
    expect(MPI_Type_create_subarray(2, s, ss, neg, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_COUNT,
           "array_of_starts[1]=-1", "subarray negative start");
    int zero[2] = {4, 0};
    expect(MPI_Type_create_subarray(2, zero, ss, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_sizes[1]=0 must be > 0", "subarray size 0");
    expect(MPI_Type_create_subarray(2, s, ss, st, 3, MPI_INT, &t), MPI_ERR_ARG,
           "order=3 is neither", "subarray order");
    expect(MPI_Type_create_subarray(2, s, NULL, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_subsizes is NULL", "subarray null");
    expect(MPI_Type_create_subarray(2, s, ss, st, MPI_ORDER_C, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
           "oldtype is MPI_DATATYPE_NULL", "subarray oldtype");

    int g[2] = {10, 7}, di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
    expect(MPI_Type_create_darray(4, 4, 2, g, di, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_RANK,
           "rank=4 is outside [0, 3]", "darray rank");
    expect(MPI_Type_create_darray(0, 0, 2, g, di, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "size=0 must be > 0", "darray size");
    int p3[2] = {2, 3};
    expect(MPI_Type_create_darray(4, 1, 2, g, di, da, p3, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "the product of array_of_psizes is not size=4", "darray grid");
    int dn[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC};
    expect(MPI_Type_create_darray(4, 1, 2, g, dn, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "MPI_DISTRIBUTE_NONE but array_of_psizes[0]=2", "darray none");
    int dbad[2] = {99, MPI_DISTRIBUTE_CYCLIC};
    expect(MPI_Type_create_darray(4, 1, 2, g, dbad, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_distribs[0]=99", "darray distrib");
    int small[2] = {4, 2};
    expect(MPI_Type_create_darray(4, 1, 2, g, di, small, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "cannot cover array_of_gsizes[0]=10", "darray block too small");
    int zd[2] = {MPI_DISTRIBUTE_DFLT_DARG, 0};
    expect(MPI_Type_create_darray(4, 1, 2, g, di, zd, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_dargs[1]=0", "darray darg");
    int g0[2] = {10, 0};
    expect(MPI_Type_create_darray(4, 1, 2, g0, di, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_gsizes[1]=0 must be > 0", "darray gsize");
    expect(MPI_Type_create_darray(4, 1, 2, g, di, da, ps, 9, MPI_INT, &t), MPI_ERR_ARG, "order=9",
           "darray order");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &gapped));
    for (int i = 0; i < 300; i++) {
        int nd = 1 + rnd(4), order = rnd(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
        MPI_Datatype old = rnd(2) ? MPI_INT : gapped;
        subarray_case(nd, order, old);
        darray_case(1 + rnd(3), order, old);
    }
    errors();
    CHECK_MPI(MPI_Type_free(&gapped));
    MPI_Finalize();
    return 0;
}
