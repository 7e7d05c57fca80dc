/* Every predefined op on every predefined type through the collectives:
 * MPI_Allreduce and MPI_Reduce (the root moves on with each combination)
 * against the serial rank-order fold, exactly; MPI_ERR_OP naming the call,
 * the op and the type for every combination the standard does not define
 * (and for MPI_REPLACE / MPI_NO_OP); MINLOC/MAXLOC ties on every pair type;
 * complex products; Scan, Exscan and Reduce_scatter_block with predefined
 * ops on a few types at every root. */
#include <complex.h>
#include <stdint.h>

#include "coll_util.h"
#include "tt_op_table.h"

#define N 6 /* elements per call */

static int rank, size, combo;

static int err_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static void expect_op_error(int rc, const char *call, MPI_Op op, MPI_Datatype t)
{
    char msg[MPI_MAX_ERROR_STRING], name[MPI_MAX_OBJECT_NAME], want[400];
    int len;
    CHECK(rc != MPI_SUCCESS && err_class(rc) == MPI_ERR_OP, "%s %s on 0x%x: rc %d, not MPI_ERR_OP",
          call, tt_op_name(op), (unsigned)t, rc);
    MPI_Error_string(rc, msg, &len);
    MPI_Type_get_name(t, name, &len);
    snprintf(want, sizeof want, "%s: op %s is not defined for datatype %s", call, tt_op_name(op),
             name);
    CHECK(strstr(msg, want) != NULL, "message \"%s\" lacks \"%s\"", msg, want);
}

/* Contribution of rank r to element i under op: small enough that no sum
 * or product leaves the narrowest type (and stays exact in floating
 * point), different enough that a wrong rank or order shows. */
static long long gen(MPI_Op op, int r, int i)
{
    if (op == MPI_PROD) return (r + i) % 4 == 0 ? 2 : (r + i) % 3 == 0 ? -1 : 1;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return (r + i) % (i + 2) ? r % 3 + 1 : 0;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return (r * 37 + i * 11 + 1) & 0x7f;
    return (r * 7 + i * 3) % 11 - 5;
}

#define GEN_I(T, op, r, i) ((T)gen(op, r, i))
#define GEN_F(T, op, r, i) ((T)gen(op, r, i) * (T)0.5)
#define GEN_C(T, op, r, i) ((T)gen(op, r, i) + (T)gen(op, (r) + 3, (i) + 1) * (T)0.5 * (T)I)

/* a op x, computed as the library must (integers wrap). */
#define ULL(v) ((unsigned long long)(v))
#define REF_I(T, op, a, x)                        \
    ((op) == MPI_MAX    ? ((a) > (x) ? (a) : (x)) \
     : (op) == MPI_MIN  ? ((a) < (x) ? (a) : (x)) \
     : (op) == MPI_SUM  ? (T)(ULL(a) + ULL(x))    \
     : (op) == MPI_PROD ? (T)(ULL(a) * ULL(x))    \
     : (op) == MPI_LAND ? (T)((a) && (x))         \
     : (op) == MPI_LOR  ? (T)((a) || (x))         \
     : (op) == MPI_LXOR ? (T)(!(a) != !(x))       \
     : (op) == MPI_BAND ? (T)((a) & (x))          \
     : (op) == MPI_BOR  ? (T)((a) | (x))          \
                        : (T)((a) ^ (x)))
#define REF_L(T, op, a, x)                             \
    ((op) == MPI_LAND  ? (T)(((a) != 0) && ((x) != 0)) \
     : (op) == MPI_LOR ? (T)(((a) != 0) || ((x) != 0)) \
                       : (T)(((a) == 0) != ((x) == 0)))
#define REF_F(T, op, a, x)                        \
    ((op) == MPI_MAX    ? ((a) > (x) ? (a) : (x)) \
     : (op) == MPI_MIN  ? ((a) < (x) ? (a) : (x)) \
     : (op) == MPI_SUM  ? (T)((a) + (x))          \
     : (op) == MPI_PROD ? (T)((a) * (x))          \
                        : REF_L(T, op, a, x))
#define REF_C(T, op, a, x) ((op) == MPI_SUM ? (T)((a) + (x)) : (T)((a) * (x)))

/* Allreduce and Reduce of N elements of (T, h) under every op. */
#define DEF_TYPE(FN, T, GEN, REF)                                                                \
    static void FN(MPI_Datatype h, int group)                                                    \
    {                                                                                            \
        for (int o = 0; o < TT_NOPS; o++) {                                                      \
            MPI_Op op = tt_all_ops[o];                                                           \
            T s[N], r[N], want[N];                                                               \
            memset(r, 0, sizeof r);                                                              \
            for (int i = 0; i < N; i++) {                                                        \
                s[i] = GEN(T, op, rank, i);                                                      \
                want[i] = GEN(T, op, 0, i);                                                      \
                for (int k = 1; k < size; k++) want[i] = REF(T, op, want[i], GEN(T, op, k, i));  \
            }                                                                                    \
            int rc = MPI_Allreduce(s, r, N, h, op, MPI_COMM_WORLD);                              \
            if (!tt_op_allowed(op, group)) {                                                     \
                expect_op_error(rc, "MPI_Allreduce", op, h);                                     \
                expect_op_error(MPI_Reduce(s, r, N, h, op, 0, MPI_COMM_WORLD), "MPI_Reduce", op, \
                                h);                                                              \
                continue;                                                                        \
            }                                                                                    \
            CHECK(rc == MPI_SUCCESS, "allreduce %s on 0x%x: rc %d", tt_op_name(op), (unsigned)h, \
                  rc);                                                                           \
            for (int i = 0; i < N; i++)                                                          \
                CHECK(r[i] == want[i], "allreduce %s on 0x%x: element %d wrong", tt_op_name(op), \
                      (unsigned)h, i);                                                           \
            int root = combo++ % size;                                                           \
            memset(r, 0, sizeof r);                                                              \
            CHECK_MPI(MPI_Reduce(s, r, N, h, op, root, MPI_COMM_WORLD));                         \
            if (rank == root)                                                                    \
                for (int i = 0; i < N; i++)                                                      \
                    CHECK(r[i] == want[i], "reduce %s on 0x%x root %d: element %d wrong",        \
                          tt_op_name(op), (unsigned)h, root, i);                                 \
        }                                                                                        \
    }

DEF_TYPE(t_schar, signed char, GEN_I, REF_I)
DEF_TYPE(t_uchar, unsigned char, GEN_I, REF_I)
DEF_TYPE(t_short, short, GEN_I, REF_I)
DEF_TYPE(t_ushort, unsigned short, GEN_I, REF_I)
DEF_TYPE(t_int, int, GEN_I, REF_I)
DEF_TYPE(t_uint, unsigned, GEN_I, REF_I)
DEF_TYPE(t_long, long, GEN_I, REF_I)
DEF_TYPE(t_ulong, unsigned long, GEN_I, REF_I)
DEF_TYPE(t_llong, long long, GEN_I, REF_I)
DEF_TYPE(t_ullong, unsigned long long, GEN_I, REF_I)
DEF_TYPE(t_i8, int8_t, GEN_I, REF_I)
DEF_TYPE(t_i16, int16_t, GEN_I, REF_I)
DEF_TYPE(t_i32, int32_t, GEN_I, REF_I)
DEF_TYPE(t_i64, int64_t, GEN_I, REF_I)
DEF_TYPE(t_u8, uint8_t, GEN_I, REF_I)
DEF_TYPE(t_u16, uint16_t, GEN_I, REF_I)
DEF_TYPE(t_u32, uint32_t, GEN_I, REF_I)
DEF_TYPE(t_u64, uint64_t, GEN_I, REF_I)
DEF_TYPE(t_bool, _Bool, GEN_I, REF_L)
DEF_TYPE(t_float, float, GEN_F, REF_F)
DEF_TYPE(t_double, double, GEN_F, REF_F)
DEF_TYPE(t_ldouble, long double, GEN_F, REF_F)
DEF_TYPE(t_cfloat, float _Complex, GEN_C, REF_C)
DEF_TYPE(t_cdouble, double _Complex, GEN_C, REF_C)
DEF_TYPE(t_cldouble, long double _Complex, GEN_C, REF_C)
#if defined(__x86_64__) && defined(__SIZEOF_FLOAT128__)
#define HAVE_QUAD 1
typedef _Complex float __attribute__((mode(TC))) cquad;
DEF_TYPE(t_quad, __float128, GEN_F, REF_F)
DEF_TYPE(t_cquad, cquad, GEN_C, REF_C)
#endif

static void predefined_types(void)
{
    t_schar(MPI_SIGNED_CHAR, C_INT);
    t_uchar(MPI_UNSIGNED_CHAR, C_INT);
    t_short(MPI_SHORT, C_INT);
    t_ushort(MPI_UNSIGNED_SHORT, C_INT);
    t_int(MPI_INT, C_INT);
    t_uint(MPI_UNSIGNED, C_INT);
    t_long(MPI_LONG, C_INT);
    t_ulong(MPI_UNSIGNED_LONG, C_INT);
    t_llong(MPI_LONG_LONG, C_INT);
    t_ullong(MPI_UNSIGNED_LONG_LONG, C_INT);
    t_i8(MPI_INT8_T, C_INT);
    t_i16(MPI_INT16_T, C_INT);
    t_i32(MPI_INT32_T, C_INT);
    t_i64(MPI_INT64_T, C_INT);
    t_u8(MPI_UINT8_T, C_INT);
    t_u16(MPI_UINT16_T, C_INT);
    t_u32(MPI_UINT32_T, C_INT);
    t_u64(MPI_UINT64_T, C_INT);
    t_i32(MPI_INTEGER, F_INT);
    t_i8(MPI_INTEGER1, F_INT);
    t_i16(MPI_INTEGER2, F_INT);
    t_i32(MPI_INTEGER4, F_INT);
    t_i64(MPI_INTEGER8, F_INT);
    t_long(MPI_AINT, MULTI);
    t_long(MPI_OFFSET, MULTI);
    t_long(MPI_COUNT, MULTI);
    t_float(MPI_FLOAT, FLT);
    t_double(MPI_DOUBLE, FLT);
    t_ldouble(MPI_LONG_DOUBLE, FLT);
    t_float(MPI_REAL, FLT);
    t_double(MPI_DOUBLE_PRECISION, FLT);
    t_float(MPI_REAL4, FLT);
    t_double(MPI_REAL8, FLT);
    t_cfloat(MPI_C_FLOAT_COMPLEX, CPLX);
    t_cfloat(MPI_C_COMPLEX, CPLX);
    t_cdouble(MPI_C_DOUBLE_COMPLEX, CPLX);
    t_cldouble(MPI_C_LONG_DOUBLE_COMPLEX, CPLX);
    t_cfloat(MPI_CXX_FLOAT_COMPLEX, CPLX);
    t_cdouble(MPI_CXX_DOUBLE_COMPLEX, CPLX);
    t_cldouble(MPI_CXX_LONG_DOUBLE_COMPLEX, CPLX);
    t_cfloat(MPI_COMPLEX, CPLX);
    t_cdouble(MPI_DOUBLE_COMPLEX, CPLX);
    t_cfloat(MPI_COMPLEX8, CPLX);
    t_cdouble(MPI_COMPLEX16, CPLX);
#ifdef HAVE_QUAD
    t_quad(MPI_REAL16, FLT);
    t_cquad(MPI_COMPLEX32, CPLX);
#endif
    t_bool(MPI_C_BOOL, LOGIC);
    t_bool(MPI_CXX_BOOL, LOGIC);
    t_i32(MPI_LOGICAL, LOGIC);
    t_u8(MPI_BYTE, BYTE);
    /* printable characters and packed data: no op at all */
    t_i8(MPI_CHAR, C_INT);
    t_i32(MPI_WCHAR, OTHER);
    t_i8(MPI_CHARACTER, C_INT);
    t_u8(MPI_PACKED, OTHER);
}

/* MPI_REPLACE and MPI_NO_OP belong to one-sided communication. */
static void rma_only_ops(void)
{
    static const MPI_Op rma[] = {MPI_REPLACE, MPI_NO_OP};
    int a[2] = {1, 2}, b[2];
    for (int k = 0; k < 2; k++) {
        int rc = MPI_Allreduce(a, b, 2, MPI_INT, rma[k], MPI_COMM_WORLD), len;
        char msg[MPI_MAX_ERROR_STRING];
        CHECK(err_class(rc) == MPI_ERR_OP, "allreduce with %s: rc %d", tt_op_name(rma[k]), rc);
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "MPI_Allreduce") && strstr(msg, tt_op_name(rma[k])) &&
                  strstr(msg, "one-sided"),
              "message \"%s\"", msg);
        rc = MPI_Scan(a, b, 2, MPI_INT, rma[k], MPI_COMM_WORLD);
        CHECK(err_class(rc) == MPI_ERR_OP, "scan with %s: rc %d", tt_op_name(rma[k]), rc);
        rc = MPI_Reduce_scatter_block(a, b, 1, MPI_INT, rma[k], MPI_COMM_WORLD);
        CHECK(err_class(rc) == MPI_ERR_OP, "reduce_scatter_block with %s: rc %d",
              tt_op_name(rma[k]), rc);
    }
}

/* MINLOC / MAXLOC on every pair type.  Values tie in pairs of ranks and
 * the index is not monotonic in the rank, so the lower index (not the lower
 * rank) must win a tie. */
#define DEF_PAIR(FN, V, IX)                                                                      \
    static void FN(MPI_Datatype h)                                                               \
    {                                                                                            \
        typedef struct {                                                                         \
            V v;                                                                                 \
            IX i;                                                                                \
        } pair;                                                                                  \
        for (int o = 0; o < TT_NOPS; o++) {                                                      \
            MPI_Op op = tt_all_ops[o];                                                           \
            pair s[N], r[N], want[N];                                                            \
            memset(s, 0, sizeof s);                                                              \
            memset(r, 0, sizeof r);                                                              \
            for (int i = 0; i < N; i++) {                                                        \
                for (int k = 0; k < size; k++) {                                                 \
                    pair x;                                                                      \
                    x.v = (V)((k / 2 + i) % 3);                                                  \
                    x.i = (IX)((k * 5 + i) % 7);                                                 \
                    if (k == rank) s[i] = x;                                                     \
                    if (k == 0) {                                                                \
                        want[i] = x;                                                             \
                        continue;                                                                \
                    }                                                                            \
                    int take = op == MPI_MINLOC ? x.v < want[i].v : x.v > want[i].v;             \
                    if (take)                                                                    \
                        want[i] = x;                                                             \
                    else if (x.v == want[i].v && x.i < want[i].i)                                \
                        want[i].i = x.i;                                                         \
                }                                                                                \
            }                                                                                    \
            int rc = MPI_Allreduce(s, r, N, h, op, MPI_COMM_WORLD);                              \
            if (op != MPI_MINLOC && op != MPI_MAXLOC) {                                          \
                expect_op_error(rc, "MPI_Allreduce", op, h);                                     \
                continue;                                                                        \
            }                                                                                    \
            CHECK(rc == MPI_SUCCESS, "allreduce %s on 0x%x: rc %d", tt_op_name(op), (unsigned)h, \
                  rc);                                                                           \
            for (int i = 0; i < N; i++)                                                          \
                CHECK(r[i].v == want[i].v && r[i].i == want[i].i,                                \
                      "allreduce %s on 0x%x: [%d]=(%g,%g) want (%g,%g)", tt_op_name(op),         \
                      (unsigned)h, i, (double)r[i].v, (double)r[i].i, (double)want[i].v,         \
                      (double)want[i].i);                                                        \
            int root = combo++ % size;                                                           \
            memset(r, 0, sizeof r);                                                              \
            CHECK_MPI(MPI_Reduce(s, r, N, h, op, root, MPI_COMM_WORLD));                         \
            if (rank == root)                                                                    \
                for (int i = 0; i < N; i++)                                                      \
                    CHECK(r[i].v == want[i].v && r[i].i == want[i].i,                            \
                          "reduce %s on 0x%x root %d: element %d wrong", tt_op_name(op),         \
                          (unsigned)h, root, i);                                                 \
        }                                                                                        \
    }

DEF_PAIR(p_float_int, float, int)
DEF_PAIR(p_double_int, double, int)
DEF_PAIR(p_long_int, long, int)
DEF_PAIR(p_short_int, short, int)
DEF_PAIR(p_2int, int, int)
DEF_PAIR(p_ldouble_int, long double, int)
DEF_PAIR(p_2real, float, float)
DEF_PAIR(p_2dp, double, double)

static void pairs(void)
{
    p_float_int(MPI_FLOAT_INT);
    p_double_int(MPI_DOUBLE_INT);
    p_long_int(MPI_LONG_INT);
    p_short_int(MPI_SHORT_INT);
    p_2int(MPI_2INT);
    p_2int(MPI_2INTEGER);
    p_ldouble_int(MPI_LONG_DOUBLE_INT);
    p_2real(MPI_2REAL);
    p_2dp(MPI_2DOUBLE_PRECISION);

    /* every rank has the same value: the smallest index wins, which here
     * belongs to the highest rank */
    struct {
        double v;
        int i;
    } s = {1.5, 100 - rank}, r = {0, -1};
    CHECK_MPI(MPI_Allreduce(&s, &r, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD));
    CHECK(r.v == 1.5 && r.i == 101 - size, "MINLOC all tied: (%g,%d)", r.v, r.i);
    CHECK_MPI(MPI_Allreduce(&s, &r, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD));
    CHECK(r.v == 1.5 && r.i == 101 - size, "MAXLOC all tied: (%g,%d)", r.v, r.i);
}

/* Scan, Exscan and Reduce_scatter_block with predefined ops: a complex
 * product (exact: small Gaussian integers) and MAXLOC, in rank order. */
static void prefix_ops(void)
{
    double _Complex z = (rank % 3 + 1) + (rank % 2 ? -1.0 : 1.0) * I, zs, zx = 99;
    double _Complex pre = 1, below = 1; /* ranks 0..rank, 0..rank-1 */
    for (int k = 0; k <= rank; k++) {
        below = pre;
        pre *= (k % 3 + 1) + (k % 2 ? -1.0 : 1.0) * I;
    }
    CHECK_MPI(MPI_Scan(&z, &zs, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
    CHECK(zs == pre, "scan complex prod: (%g,%g) want (%g,%g)", creal(zs), cimag(zs), creal(pre),
          cimag(pre));
    CHECK_MPI(MPI_Exscan(&z, &zx, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
    if (rank > 0)
        CHECK(zx == below, "exscan complex prod: (%g,%g) want (%g,%g)", creal(zx), cimag(zx),
              creal(below), cimag(below));

    struct {
        int v, i;
    } p = {rank % 3, rank}, q;
    CHECK_MPI(MPI_Scan(&p, &q, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD));
    int wv = rank < 2 ? rank : 2, wi = rank < 2 ? rank : 2;
    CHECK(q.v == wv && q.i == wi, "scan maxloc: (%d,%d) want (%d,%d)", q.v, q.i, wv, wi);

    /* block j of every rank's vector holds (rank + j) + 0.5i: rank 'rank'
     * gets the product over all ranks of its block */
    float _Complex *v = tt_alloc((size_t)size * 2 * sizeof *v), out[2];
    for (int j = 0; j < size; j++)
        for (int e = 0; e < 2; e++) v[j * 2 + e] = (float)((rank + j + e) % 3) + 0.5f * I;
    CHECK_MPI(MPI_Reduce_scatter_block(v, out, 2, MPI_C_FLOAT_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
    for (int e = 0; e < 2; e++) {
        float _Complex w = 1;
        for (int k = 0; k < size; k++) w *= (float)((k + rank + e) % 3) + 0.5f * I;
        CHECK(out[e] == w, "reduce_scatter_block complex prod [%d]: (%g,%g) want (%g,%g)", e,
              crealf(out[e]), cimagf(out[e]), crealf(w), cimagf(w));
    }
    free(v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    predefined_types();
    rma_only_ops();
    pairs();
    prefix_ops();
    MPI_Finalize();
    return 0;
}
