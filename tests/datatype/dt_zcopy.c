/* Large non-contiguous transfers between different layouts, two ranks:
 * the zero-copy rendezvous (CMA iovecs on both sides), the bounce buffer
 * and the pipeline, depending on the variant's parameters.
 *
 * Every layout holds N doubles; where the k-th double of the packed
 * stream lives is written out by hand for each layout (idx), so the check
 * does not lean on the datatype engine.  Every pair of layouts is sent
 * and received at two sizes; then a truncated receive, 70 messages in
 * flight at once (more than the 64 rendezvous slots of a pair), and, with
 * ZC_CHECK_PATHS=1 (the cma variant, default thresholds), which
 * transport each pair took, read from the MPI_T counters: long pieces on
 * either side go by CMA, short pieces on both sides by the pipeline. */
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

enum { CONTIG, VEC_SHORT, VEC_LONG, INDEXED3, HINDEXED_NEG, PAIRS, FACE_LAST, FACE_MID, NLAYOUTS };
static const char *const names[NLAYOUTS] = {"contig",
                                            "vector(1 of 2)",
                                            "vector(4096 of 4103)",
                                            "indexed(3 blocks)",
                                            "hindexed(negative)",
                                            "resized pairs",
                                            "3D face, last dim",
                                            "3D face, middle dim"};

struct layout {
    MPI_Datatype type; /* count 1 of it is the N doubles */
    double *mem;       /* allocation */
    double *base;      /* the buffer argument */
    size_t nmem;       /* doubles allocated */
};

#define IDX_BLOCK 16384 /* doubles in one element of INDEXED3 */
static const int ix_len[3] = {4096, 8192, 4096}, ix_disp[3] = {0, 5000, 14000};
#define IX_EXTENT 20000
#define NEG_SHIFT 140000 /* HINDEXED_NEG: base sits this many doubles into the allocation */

/* Array index (from base) of the k-th double of the packed stream. */
static long idx(int l, long k, long n)
{
    switch (l) {
    case CONTIG: return k;
    case VEC_SHORT: return 2 * k;
    case VEC_LONG: return (k / 4096) * 4103 + k % 4096;
    case INDEXED3: {
        long e = k / IDX_BLOCK, r = k % IDX_BLOCK, b = 0;
        while (r >= ix_len[b]) r -= ix_len[b++];
        return e * IX_EXTENT + ix_disp[b] + r;
    }
    case HINDEXED_NEG: return k < n / 2 ? -NEG_SHIFT + k : 1000 + (k - n / 2);
    case PAIRS: return (k / 2) * 3 + k % 2;
    case FACE_LAST: return ((1 + k / 512) * 514 + 1 + k % 512) * 6 + 2;
    default: return ((1 + k / 512) * 6 + 2) * 514 + 1 + k % 512; /* FACE_MID */
    }
}

static MPI_Datatype make_type(int l, int n)
{
    MPI_Datatype t, tmp;
    switch (l) {
    case CONTIG: CHECK_MPI(MPI_Type_contiguous(n, MPI_DOUBLE, &t)); break;
    case VEC_SHORT: CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t)); break;
    case VEC_LONG: CHECK_MPI(MPI_Type_vector(n / 4096, 4096, 4103, MPI_DOUBLE, &t)); break;
    case INDEXED3:
        CHECK_MPI(MPI_Type_indexed(3, ix_len, ix_disp, MPI_DOUBLE, &tmp));
        CHECK_MPI(MPI_Type_create_resized(tmp, 0, IX_EXTENT * (MPI_Aint)sizeof(double), &t));
        CHECK_MPI(MPI_Type_free(&tmp));
        CHECK_MPI(MPI_Type_contiguous(n / IDX_BLOCK, t, &tmp));
        CHECK_MPI(MPI_Type_free(&t));
        t = tmp;
        break;
    case HINDEXED_NEG: {
        int len[2] = {n / 2, n / 2};
        MPI_Aint disp[2] = {-NEG_SHIFT * (MPI_Aint)sizeof(double), 1000 * (MPI_Aint)sizeof(double)};
        CHECK_MPI(MPI_Type_create_hindexed(2, len, disp, MPI_DOUBLE, &t));
        break;
    }
    case PAIRS:
        CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &tmp));
        CHECK_MPI(MPI_Type_create_resized(tmp, 0, 3 * (MPI_Aint)sizeof(double), &t));
        CHECK_MPI(MPI_Type_free(&tmp));
        CHECK_MPI(MPI_Type_contiguous(n / 2, t, &tmp));
        CHECK_MPI(MPI_Type_free(&t));
        t = tmp;
        break;
    default: {
        int last = l == FACE_LAST, rows = n / 512;
        int sizes[3] = {rows + 2, last ? 514 : 6, last ? 6 : 514};
        int sub[3] = {rows, last ? 512 : 1, last ? 1 : 512};
        int start[3] = {1, last ? 1 : 2, last ? 2 : 1};
        CHECK_MPI(MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t));
    }
    }
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static struct layout make_layout(int l, int n)
{
    struct layout y = {make_type(l, n), NULL, NULL, 0};
    long lo = 0, hi = 0;
    for (long k = 0; k < n; k++) {
        long i = idx(l, k, n);
        if (i < lo) lo = i;
        if (i > hi) hi = i;
    }
    y.nmem = (size_t)(hi - lo + 1);
    y.mem = malloc(y.nmem * sizeof(double));
    CHECK(y.mem != NULL, "out of memory");
    y.base = y.mem - lo;
    return y;
}

static void free_layout(struct layout *y)
{
    MPI_Type_free(&y->type);
    free(y->mem);
}

static double value(long k, int salt) { return (double)salt * 1e7 + (double)k; }

static void fill(struct layout *y, int l, long n, int salt)
{
    for (size_t i = 0; i < y->nmem; i++) y->mem[i] = -1.0;
    for (long k = 0; k < n; k++) y->base[idx(l, k, n)] = value(k, salt);
}

/* The first 'got' doubles arrived, everything else is untouched. */
static void check(const struct layout *y, int l, long n, long got, int salt, const char *what)
{
    long bad = 0, wrong = 0;
    for (long k = 0; k < n; k++) {
        double want = k < got ? value(k, salt) : -1.0;
        if (y->base[idx(l, k, n)] != want && bad++ == 0) wrong = k;
    }
    CHECK(bad == 0, "%s: %ld of %ld doubles wrong, the first at stream position %ld (%g)", what,
          bad, n, wrong, y->base[idx(l, wrong, n)]);
    long gaps = 0;
    for (size_t i = 0; i < y->nmem; i++) gaps += y->mem[i] == -1.0;
    CHECK(gaps == (long)y->nmem - got, "%s: %ld bytes outside the layout were written", what,
          ((long)y->nmem - got - gaps) * 8);
}

static int rank;
static MPI_T_pvar_session session;
static MPI_T_pvar_handle h_cma, h_pipe;

static unsigned long long read_pvar(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS, "MPI_T_pvar_read");
    return v;
}

static MPI_T_pvar_handle pvar(const char *name)
{
    int i = -1, count = 0;
    MPI_T_pvar_handle h;
    CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &i) == MPI_SUCCESS, "no pvar %s",
          name);
    CHECK(MPI_T_pvar_handle_alloc(session, i, NULL, &h, &count) == MPI_SUCCESS, "handle for %s",
          name);
    MPI_T_pvar_start(session, h); /* MPI_T_ERR_PVAR_NO_STARTSTOP when it counts all along */
    return h;
}

/* Which transport the sender's next message takes: 'c' CMA, 'p' pipeline. */
static char path_of(unsigned long long cma0, unsigned long long pipe0)
{
    unsigned long long c = read_pvar(h_cma) - cma0, p = read_pvar(h_pipe) - pipe0;
    if (c + p != 1)
        fprintf(stderr, "dt_zcopy: %llu CMA and %llu pipeline messages for one send\n", c, p);
    return c == 1 && p == 0 ? 'c' : p == 1 && c == 0 ? 'p' : '?';
}

static void pair(int ls, int lr, int n, int check_path)
{
    char what[128];
    snprintf(what, sizeof what, "%s -> %s, %d doubles", names[ls], names[lr], n);
    if (rank == 0) {
        struct layout s = make_layout(ls, n);
        fill(&s, ls, n, ls + 1);
        unsigned long long c0 = read_pvar(h_cma), p0 = read_pvar(h_pipe);
        CHECK_MPI(MPI_Send(s.base, 1, s.type, 1, ls * 16 + lr, MPI_COMM_WORLD));
        if (check_path) {
            /* CMA needs pieces of 16 KiB or more (the default
             * TERN_SMP_IOV_REMOTE_MIN) on the side the copier does not own;
             * the sender writes only into one block per unit */
            int long_s = ls == CONTIG || ls == VEC_LONG || ls == INDEXED3 || ls == HINDEXED_NEG;
            int long_r = lr == CONTIG || lr == VEC_LONG;
            char want = long_s || long_r ? 'c' : 'p', got = path_of(c0, p0);
            CHECK(got == want, "%s: went by %s, expected %s", what,
                  got == 'c'   ? "CMA"
                  : got == 'p' ? "pipeline"
                               : "?",
                  want == 'c' ? "CMA" : "the pipeline");
        }
        free_layout(&s);
    } else {
        struct layout r = make_layout(lr, n);
        for (size_t i = 0; i < r.nmem; i++) r.mem[i] = -1.0;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(r.base, 1, r.type, 0, ls * 16 + lr, MPI_COMM_WORLD, &st));
        int cnt = -1;
        CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &cnt));
        CHECK(cnt == n, "%s: count %d", what, cnt);
        check(&r, lr, n, n, ls + 1, what);
        free_layout(&r);
    }
}

/* The receive holds half: MPI_ERR_TRUNCATE, the first half lands. */
static void truncated(int ls, int lr, int n)
{
    char what[128];
    snprintf(what, sizeof what, "truncated %s -> %s", names[ls], names[lr]);
    if (rank == 0) {
        struct layout s = make_layout(ls, n);
        fill(&s, ls, n, 7);
        CHECK_MPI(MPI_Send(s.base, 1, s.type, 1, 99, MPI_COMM_WORLD));
        free_layout(&s);
        return;
    }
    struct layout r = make_layout(lr, n / 2);
    for (size_t i = 0; i < r.nmem; i++) r.mem[i] = -1.0;
    MPI_Status st;
    int rc = MPI_Recv(r.base, 1, r.type, 0, 99, MPI_COMM_WORLD, &st), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "%s: error class %d, expected MPI_ERR_TRUNCATE", what, cls);
    check(&r, lr, n / 2, n / 2, 7, what);
    free_layout(&r);
}

/* A receive with room for nothing still ends the transfer (the pipeline
 * grants it, but no chunk will ever come): MPI_ERR_TRUNCATE, no hang. */
static void zero_room(int ls, int n)
{
    if (rank == 0) {
        struct layout s = make_layout(ls, n);
        fill(&s, ls, n, 3);
        CHECK_MPI(MPI_Send(s.base, 1, s.type, 1, 98, MPI_COMM_WORLD));
        free_layout(&s);
        return;
    }
    double d = -1.0;
    int rc = MPI_Recv(&d, 0, MPI_DOUBLE, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE && d == -1.0, "zero-byte receive of %s: class %d", names[ls],
          cls);
}

/* More messages in flight than a pair has rendezvous slots. */
static void many(int ls, int lr, int n)
{
    enum { M = 70 };
    struct layout y[M];
    MPI_Request req[M];
    MPI_Status st[M]; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow misfires on it */
    for (int i = 0; i < M; i++) {
        y[i] = make_layout(rank == 0 ? ls : lr, n);
        if (rank == 0) {
            fill(&y[i], ls, n, 100 + i);
            CHECK_MPI(MPI_Isend(y[i].base, 1, y[i].type, 1, i, MPI_COMM_WORLD, &req[i]));
        } else {
            for (size_t j = 0; j < y[i].nmem; j++) y[i].mem[j] = -1.0;
            CHECK_MPI(MPI_Irecv(y[i].base, 1, y[i].type, 0, i, MPI_COMM_WORLD, &req[i]));
        }
    }
    CHECK_MPI(MPI_Waitall(M, req, st));
    for (int i = 0; i < M; i++) {
        if (rank == 1) check(&y[i], lr, n, n, 100 + i, "70 in flight");
        free_layout(&y[i]);
    }
}

/* Both ranks send at once, as in a halo exchange: 'k' messages of short
 * pieces (which the pipeline moves in lock step while the peer streams back)
 * and one contiguous message beside them, all checked. */
static void exchange(int k, int n)
{
    enum { KMAX = 4 };
    struct layout out[KMAX + 1], in[KMAX + 1];
    MPI_Request req[2 * (KMAX + 1)];
    MPI_Status st[2 * (KMAX + 1)];
    int peer = 1 - rank;
    for (int i = 0; i <= k; i++) {
        int l = i == k ? CONTIG : i % 2 ? PAIRS : VEC_SHORT;
        in[i] = make_layout(l, n);
        for (size_t j = 0; j < in[i].nmem; j++) in[i].mem[j] = -1.0;
        CHECK_MPI(MPI_Irecv(in[i].base, 1, in[i].type, peer, 200 + i, MPI_COMM_WORLD, &req[i]));
    }
    for (int i = 0; i <= k; i++) {
        int l = i == k ? CONTIG : i % 2 ? PAIRS : VEC_SHORT;
        out[i] = make_layout(l, n);
        fill(&out[i], l, n, 10 * peer + i);
        CHECK_MPI(
            MPI_Isend(out[i].base, 1, out[i].type, peer, 200 + i, MPI_COMM_WORLD, &req[k + 1 + i]));
    }
    CHECK_MPI(MPI_Waitall(2 * (k + 1), req, st));
    for (int i = 0; i <= k; i++) {
        char what[64];
        snprintf(what, sizeof what, "exchange of %d, message %d", k, i);
        check(&in[i], i == k ? CONTIG : i % 2 ? PAIRS : VEC_SHORT, n, n, 10 * rank + i, what);
        free_layout(&in[i]);
        free_layout(&out[i]);
    }
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *cp = getenv("ZC_CHECK_PATHS");
    int check_paths = cp && atoi(cp);
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init_thread");
    CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS, "pvar session");
    h_cma = pvar("tern_shm_cma_messages");
    h_pipe = pvar("tern_shm_pipeline_messages");

    static const int sizes[2] = {IDX_BLOCK, 8 * IDX_BLOCK}; /* 128 KiB and 1 MiB of doubles */
    for (int z = 0; z < 2; z++)
        for (int ls = 0; ls < NLAYOUTS; ls++)
            for (int lr = 0; lr < NLAYOUTS; lr++) pair(ls, lr, sizes[z], check_paths && z == 1);
    truncated(VEC_LONG, FACE_MID, 8 * IDX_BLOCK);
    truncated(INDEXED3, PAIRS, 8 * IDX_BLOCK);
    truncated(CONTIG, HINDEXED_NEG, 8 * IDX_BLOCK);
    zero_room(VEC_SHORT, IDX_BLOCK);
    zero_room(CONTIG, IDX_BLOCK);
    many(VEC_LONG, INDEXED3, IDX_BLOCK);
    many(FACE_LAST, CONTIG, IDX_BLOCK);
    exchange(2, 8 * IDX_BLOCK);
    exchange(3, 8 * IDX_BLOCK);

    MPI_T_pvar_handle_free(session, &h_cma);
    MPI_T_pvar_handle_free(session, &h_pipe);
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("dt_zcopy: OK\n");
    MPI_Finalize();
    return 0;
}
