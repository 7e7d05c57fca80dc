/* The nonblocking (or persistent: see nbc_test.h) reductions: Ireduce
 * (every root), Iallreduce, Ireduce_scatter(_block), Iscan, Iexscan with
 * MPI_SUM and a non-commutative user op (2x2 matrix product, which must
 * come out in rank order), MPI_IN_PLACE, a vector datatype, count 0. */
#include "nbc_test.h"

#define W MPI_COMM_WORLD

static int rank, size;
static MPI_Op matop;
static MPI_Datatype mattype;
static const int counts[] = {0, 1, 1000, 20000};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static int sval(int r, long i, int rep) { return tt_val(r, i, 21 + rep) % 1000003; }

static long sum_upto(int hi, long i, int rep)
{
    long s = 0;
    for (int r = 0; r <= hi; r++) s += sval(r, i, rep);
    return s;
}

/* Rank r's matrix for element i, changed by rep. */
static tt_mat mat(int r, long i, int rep) { return tt_mat_of(r, i + 7 * rep); }

static tt_mat mat_range(int lo, int hi, long i, int rep)
{
    return tt_mat_range(lo, hi, i + 7 * rep);
}

/* One reduction over ints (MPI_SUM) and one over matrices (matop): fills,
 * issues, completes and checks through the callbacks. */
enum kind { REDUCE, ALLREDUCE, SCAN, EXSCAN, RS_BLOCK, RS };

static const char *names[] = {
    "reduce", "allreduce", "scan", "exscan", "reduce_scatter_block", "reduce_scatter"};

/* Elements of the send buffer and of my result, and where my result starts
 * in the global index space. */
static void shape(enum kind k, int count, const int *rcounts, size_t *in, size_t *out, long *first)
{
    *in = *out = (size_t)count;
    *first = 0;
    if (k == RS_BLOCK) {
        *in = (size_t)count * (size_t)size;
        *first = (long)rank * count;
    } else if (k == RS) {
        *in = 0;
        for (int r = 0; r < size; r++) {
            if (r < rank) *first += rcounts[r];
            *in += (size_t)rcounts[r];
        }
        *out = (size_t)rcounts[rank];
    }
}

static MPI_Request issue(enum kind k, int rep, const void *sb, void *rb, int count,
                         const int *rcounts, MPI_Datatype dt, MPI_Op op, int root)
{
    switch (k) {
    case REDUCE:
        NT_ISSUE(rep, MPI_Ireduce(sb, rb, count, dt, op, root, W, &nt_req),
                 MPI_Reduce_init(sb, rb, count, dt, op, root, W, MPI_INFO_NULL, &nt_req));
        break;
    case ALLREDUCE:
        NT_ISSUE(rep, MPI_Iallreduce(sb, rb, count, dt, op, W, &nt_req),
                 MPI_Allreduce_init(sb, rb, count, dt, op, W, MPI_INFO_NULL, &nt_req));
        break;
    case SCAN:
        NT_ISSUE(rep, MPI_Iscan(sb, rb, count, dt, op, W, &nt_req),
                 MPI_Scan_init(sb, rb, count, dt, op, W, MPI_INFO_NULL, &nt_req));
        break;
    case EXSCAN:
        NT_ISSUE(rep, MPI_Iexscan(sb, rb, count, dt, op, W, &nt_req),
                 MPI_Exscan_init(sb, rb, count, dt, op, W, MPI_INFO_NULL, &nt_req));
        break;
    case RS_BLOCK:
        NT_ISSUE(rep, MPI_Ireduce_scatter_block(sb, rb, count, dt, op, W, &nt_req),
                 MPI_Reduce_scatter_block_init(sb, rb, count, dt, op, W, MPI_INFO_NULL, &nt_req));
        break;
    case RS:
        NT_ISSUE(rep, MPI_Ireduce_scatter(sb, rb, rcounts, dt, op, W, &nt_req),
                 MPI_Reduce_scatter_init(sb, rb, rcounts, dt, op, W, MPI_INFO_NULL, &nt_req));
        break;
    }
    return nt_req;
}

/* The ranks whose contributions make my result: [0, hi]. */
static int top_rank(enum kind k) { return k == SCAN ? rank : k == EXSCAN ? rank - 1 : size - 1; }

static void run(enum kind k, int count, int in_place, int root)
{
    int *rcounts = tt_alloc((size_t)size * sizeof(int));
    for (int r = 0; r < size; r++) rcounts[r] = (r % 3) * count; /* some ranks get nothing */
    size_t in, out;
    long first;
    shape(k, count, rcounts, &in, &out, &first);
    int *s = tt_alloc(in * sizeof(int)), *r = tt_alloc((in > out ? in : out) * sizeof(int));
    tt_mat *ms = tt_alloc(in * sizeof(tt_mat)),
           *mr = tt_alloc((in > out ? in : out) * sizeof(tt_mat));
    int place = in_place && (k != REDUCE || rank == root);
    int checks = k != REDUCE || rank == root;
    int hi = top_rank(k);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (size_t j = 0; j < in; j++) s[j] = sval(rank, (long)j, rep);
        for (size_t j = 0; j < (in > out ? in : out); j++) r[j] = -5;
        if (place) memcpy(r, s, in * sizeof(int));
        issue(k, rep, place ? MPI_IN_PLACE : s, r, count, rcounts, MPI_INT, MPI_SUM, root);
        nt_complete(rep);
        if (checks && hi >= 0)
            for (size_t i = 0; i < out; i++)
                CHECK(r[i] == sum_upto(hi, first + (long)i, rep),
                      "%s sum count %d in_place %d root %d rep %d: [%zu]=%d", names[k], count,
                      in_place, root, rep, i, r[i]);
    }
    nt_done();
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (size_t j = 0; j < in; j++) ms[j] = mat(rank, (long)j, rep);
        if (place) memcpy(mr, ms, in * sizeof(tt_mat));
        issue(k, rep, place ? MPI_IN_PLACE : ms, mr, count, rcounts, mattype, matop, root);
        nt_complete(rep);
        if (checks && hi >= 0)
            for (size_t i = 0; i < out; i++)
                CHECK(
                    tt_mat_eq(mr[i], mat_range(0, hi, first + (long)i, rep)),
                    "%s matrix count %d in_place %d root %d rep %d: element %zu out of rank order",
                    names[k], count, in_place, root, rep, i);
    }
    nt_done();
    free(rcounts);
    free(s);
    free(r);
    free(ms);
    free(mr);
}

/* Vector datatype: the holes of the result stay untouched. */
static void vector_allreduce(int count)
{
    MPI_Datatype vec = tt_vector_type();
    size_t n = (size_t)count * TT_VEC_EXTENT;
    int *s = tt_alloc(n * sizeof(int)), *r = tt_alloc(n * sizeof(int));
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (size_t j = 0; j < n; j++) {
            s[j] = sval(rank, (long)j, rep);
            r[j] = -7;
        }
        NT_ISSUE(rep, MPI_Iallreduce(s, r, count, vec, MPI_SUM, W, &nt_req),
                 MPI_Allreduce_init(s, r, count, vec, MPI_SUM, W, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (size_t j = 0; j < n; j++) {
            long want =
                tt_vec_hole((int)(j % TT_VEC_EXTENT)) ? -7 : sum_upto(size - 1, (long)j, rep);
            CHECK(r[j] == want, "allreduce vector rep %d [%zu]=%d want %ld", rep, j, r[j], want);
        }
    }
    nt_done();
    MPI_Type_free(&vec);
    free(s);
    free(r);
}

/* The datatype freed while the reduction is pending (persistent: between
 * the init and the starts): the user's function still gets a handle it can
 * ask about, as MPI says a freed type stays usable by operations under way. */
static int pair_sizes_wrong;
static void pair_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int sz = -1;
    MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN);
    if (MPI_Type_size(*dt, &sz) != MPI_SUCCESS || sz != 2 * (int)sizeof(int)) pair_sizes_wrong++;
    MPI_Comm_set_errhandler(W, MPI_ERRORS_ARE_FATAL);
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < 2 * *len; i++) b[i] += a[i];
}

static void freed_type_user_op(void)
{
    enum { N = 300 };
    MPI_Datatype pair;
    MPI_Op op;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Op_create(pair_sum, 1, &op));
    int s[2 * N], r[2 * N];
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int i = 0; i < 2 * N; i++) s[i] = sval(rank, i, rep), r[i] = -1;
        NT_ISSUE(rep, MPI_Iallreduce(s, r, N, pair, op, W, &nt_req),
                 MPI_Allreduce_init(s, r, N, pair, op, W, MPI_INFO_NULL, &nt_req));
        if (rep == 0) CHECK_MPI(MPI_Type_free(&pair));
        nt_complete(rep);
        for (int i = 0; i < 2 * N; i++)
            CHECK(r[i] == sum_upto(size - 1, i, rep), "freed type: rep %d [%d]=%d want %ld", rep, i,
                  r[i], sum_upto(size - 1, i, rep));
        if (!nt_persistent && rep == 0) {
            CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
            CHECK_MPI(MPI_Type_commit(&pair));
        }
    }
    nt_done();
    if (!nt_persistent) MPI_Type_free(&pair);
    CHECK(pair_sizes_wrong == 0, "the user's function got an unusable datatype %d times",
          pair_sizes_wrong);
    MPI_Op_free(&op);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    nt_mode(argc, argv);
    MPI_Comm_rank(W, &rank);
    MPI_Comm_size(W, &size);
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &matop));
    mattype = tt_mat_type();
    for (int c = 0; c < NCOUNTS; c++)
        for (int in_place = 0; in_place < 2; in_place++) {
            for (int root = 0; root < size; root++) run(REDUCE, counts[c], in_place, root);
            for (enum kind k = ALLREDUCE; k <= RS; k++)
                run(k, k >= RS_BLOCK ? counts[c] / 8 : counts[c], in_place, 0);
        }
    vector_allreduce(500);
    freed_type_user_op();
    MPI_Op_free(&matop);
    MPI_Type_free(&mattype);
    MPI_Finalize();
    return 0;
}
