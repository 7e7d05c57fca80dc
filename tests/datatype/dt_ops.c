/* Reduction ops through MPI_Reduce_local, one process: every predefined op
 * on every predefined type against a plain reference loop, where the
 * standard defines it, and MPI_ERR_OP (with a message naming op and type)
 * where it does not; MINLOC/MAXLOC ties; a non-commutative user op (order
 * of arguments, the user's datatype handle and count); ops on derived
 * types (contiguous, strided, padded pairs, resized; gaps left alone). */
#include <stdint.h>
#include <string.h>

#include "tern_test.h"
#include "tt_op_table.h"

#define N 37

static int err_class(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

static void expect_op_error(int rc, MPI_Op op, MPI_Datatype t)
{
    CHECK(err_class(rc) == MPI_ERR_OP, "%s on 0x%x: rc %d, expected MPI_ERR_OP", tt_op_name(op),
          (unsigned)t, rc);
    char msg[MPI_MAX_ERROR_STRING], name[MPI_MAX_OBJECT_NAME], want[400];
    int len;
    MPI_Error_string(rc, msg, &len);
    MPI_Type_get_name(t, name, &len);
    snprintf(want, sizeof want, "MPI_Reduce_local: op %s is not defined for datatype %s",
             tt_op_name(op), name);
    CHECK(strstr(msg, want) != NULL, "message \"%s\" lacks \"%s\"", msg, want);
}

/* values small enough that no sum or product overflows the narrowest type */
#define GEN_S(i, s) ((((i)*7 + (s)*5) % 19) - 9)
#define GEN_U(i, s) (((i)*7 + (s)*5) % 11)
#define GEN_L(i, s) (((i)*5 + (s)) % 3) /* 0, 1, 2: logicals */

#define REF_INT(op, x, y, T)              \
    ((op) == MPI_MAX    ? (x > y ? x : y) \
     : (op) == MPI_MIN  ? (x < y ? x : y) \
     : (op) == MPI_SUM  ? (T)(x + y)      \
     : (op) == MPI_PROD ? (T)(x * y)      \
     : (op) == MPI_LAND ? (T)(x && y)     \
     : (op) == MPI_LOR  ? (T)(x || y)     \
     : (op) == MPI_LXOR ? (T)(!x != !y)   \
     : (op) == MPI_BAND ? (T)(x & y)      \
     : (op) == MPI_BOR  ? (T)(x | y)      \
                        : (T)(x ^ y))
#define REF_LOG(op, x, y, T) \
    ((op) == MPI_LAND ? (T)(x && y) : (op) == MPI_LOR ? (T)(x || y) : (T)(!x != !y))
#define REF_FLT(op, x, y, T)              \
    ((op) == MPI_MAX    ? (x > y ? x : y) \
     : (op) == MPI_MIN  ? (x < y ? x : y) \
     : (op) == MPI_SUM  ? (T)(x + y)      \
     : (op) == MPI_PROD ? (T)(x * y)      \
                        : REF_LOG(op, x, y, T))
#define REF_CPLX(op, x, y, T) ((op) == MPI_SUM ? (T)(x + y) : (T)(x * y))

#define DEF_TEST(FN, T, GEN, REF)                                                                 \
    static void FN(MPI_Datatype h, int cls)                                                       \
    {                                                                                             \
        for (int o = 0; o < TT_NOPS; o++) {                                                       \
            MPI_Op op = tt_all_ops[o];                                                            \
            T a[N], b[N];                                                                         \
            for (int i = 0; i < N; i++) {                                                         \
                a[i] = GEN(i, 1);                                                                 \
                b[i] = GEN(i, 2);                                                                 \
            }                                                                                     \
            int rc = MPI_Reduce_local(a, b, N, h, op);                                            \
            if (!tt_op_allowed(op, cls)) {                                                        \
                expect_op_error(rc, op, h);                                                       \
                continue;                                                                         \
            }                                                                                     \
            CHECK(rc == MPI_SUCCESS, "%s on 0x%x: rc %d", tt_op_name(op), (unsigned)h, rc);       \
            for (int i = 0; i < N; i++) {                                                         \
                T x = GEN(i, 1), y = GEN(i, 2), z = REF(op, x, y, T);                             \
                CHECK(z == b[i], "%s on 0x%x: element %d wrong", tt_op_name(op), (unsigned)h, i); \
                CHECK(a[i] == x, "%s on 0x%x: inbuf changed", tt_op_name(op), (unsigned)h);       \
            }                                                                                     \
        }                                                                                         \
    }

#define GEN_F(i, s) (GEN_S(i, s) * 0.5)
#define GEN_C(i, s) (GEN_S(i, s) * 0.5 + GEN_S(i, (s) + 3) * 0.25 * _Complex_I_)
#define _Complex_I_ (__extension__ 1.0iF)

DEF_TEST(t_char, char, GEN_S, REF_INT)
DEF_TEST(t_schar, signed char, GEN_S, REF_INT)
DEF_TEST(t_uchar, unsigned char, GEN_U, REF_INT)
DEF_TEST(t_short, short, GEN_S, REF_INT)
DEF_TEST(t_ushort, unsigned short, GEN_U, REF_INT)
DEF_TEST(t_int, int, GEN_S, REF_INT)
DEF_TEST(t_uint, unsigned, GEN_U, REF_INT)
DEF_TEST(t_long, long, GEN_S, REF_INT)
DEF_TEST(t_ulong, unsigned long, GEN_U, REF_INT)
DEF_TEST(t_llong, long long, GEN_S, REF_INT)
DEF_TEST(t_ullong, unsigned long long, GEN_U, REF_INT)
DEF_TEST(t_i8, int8_t, GEN_S, REF_INT)
DEF_TEST(t_i16, int16_t, GEN_S, REF_INT)
DEF_TEST(t_i32, int32_t, GEN_S, REF_INT)
DEF_TEST(t_i64, int64_t, GEN_S, REF_INT)
DEF_TEST(t_u8, uint8_t, GEN_U, REF_INT)
DEF_TEST(t_u16, uint16_t, GEN_U, REF_INT)
DEF_TEST(t_u32, uint32_t, GEN_U, REF_INT)
DEF_TEST(t_u64, uint64_t, GEN_U, REF_INT)
DEF_TEST(t_float, float, GEN_F, REF_FLT)
DEF_TEST(t_double, double, GEN_F, REF_FLT)
DEF_TEST(t_ldouble, long double, GEN_F, REF_FLT)
#if defined(__x86_64__) && defined(__SIZEOF_FLOAT128__)
DEF_TEST(t_quad, __float128, GEN_F, REF_FLT)
typedef _Complex float __attribute__((mode(TC))) cquad;
DEF_TEST(t_cquad, cquad, GEN_C, REF_CPLX)
#define HAVE_QUAD 1
#endif
DEF_TEST(t_cfloat, float _Complex, GEN_C, REF_CPLX)
DEF_TEST(t_cdouble, double _Complex, GEN_C, REF_CPLX)
DEF_TEST(t_cldouble, long double _Complex, GEN_C, REF_CPLX)
DEF_TEST(t_bool, _Bool, GEN_L, REF_LOG)
DEF_TEST(t_logical, int, GEN_L, REF_INT)
DEF_TEST(t_byte, unsigned char, GEN_U, REF_INT)
DEF_TEST(t_other, char, GEN_U, REF_INT)

static void predefined_types(void)
{
    t_char(MPI_CHAR, C_INT); /* an integer to MPICH, so to Tern */
    t_schar(MPI_SIGNED_CHAR, C_INT);
    t_uchar(MPI_UNSIGNED_CHAR, C_INT);
    t_short(MPI_SHORT, C_INT);
    t_ushort(MPI_UNSIGNED_SHORT, C_INT);
    t_int(MPI_INT, C_INT);
    t_uint(MPI_UNSIGNED, C_INT);
    t_long(MPI_LONG, C_INT);
    t_ulong(MPI_UNSIGNED_LONG, C_INT);
    t_llong(MPI_LONG_LONG_INT, C_INT);
    t_ullong(MPI_UNSIGNED_LONG_LONG, C_INT);
    t_i8(MPI_INT8_T, C_INT);
    t_i16(MPI_INT16_T, C_INT);
    t_i32(MPI_INT32_T, C_INT);
    t_i64(MPI_INT64_T, C_INT);
    t_u8(MPI_UINT8_T, C_INT);
    t_u16(MPI_UINT16_T, C_INT);
    t_u32(MPI_UINT32_T, C_INT);
    t_u64(MPI_UINT64_T, C_INT);
    t_long(MPI_AINT, MULTI);
    t_long(MPI_OFFSET, MULTI);
    t_long(MPI_COUNT, MULTI);
    t_int(MPI_INTEGER, F_INT);
    t_i8(MPI_INTEGER1, F_INT);
    t_i16(MPI_INTEGER2, F_INT);
    t_i32(MPI_INTEGER4, F_INT);
    t_i64(MPI_INTEGER8, F_INT);
    t_float(MPI_FLOAT, FLT);
    t_double(MPI_DOUBLE, FLT);
    t_ldouble(MPI_LONG_DOUBLE, FLT);
    t_float(MPI_REAL, FLT);
    t_double(MPI_DOUBLE_PRECISION, FLT);
    t_float(MPI_REAL4, FLT);
    t_double(MPI_REAL8, FLT);
#ifdef HAVE_QUAD
    t_quad(MPI_REAL16, FLT);
    t_cquad(MPI_COMPLEX32, CPLX);
#endif
    t_cfloat(MPI_C_FLOAT_COMPLEX, CPLX);
    t_cdouble(MPI_C_DOUBLE_COMPLEX, CPLX);
    t_cldouble(MPI_C_LONG_DOUBLE_COMPLEX, CPLX);
    t_cfloat(MPI_CXX_FLOAT_COMPLEX, CPLX);
    t_cdouble(MPI_CXX_DOUBLE_COMPLEX, CPLX);
    t_cldouble(MPI_CXX_LONG_DOUBLE_COMPLEX, CPLX);
    t_cfloat(MPI_COMPLEX, CPLX);
    t_cdouble(MPI_DOUBLE_COMPLEX, CPLX);
    t_cfloat(MPI_COMPLEX8, CPLX);
    t_cdouble(MPI_COMPLEX16, CPLX);
    t_bool(MPI_C_BOOL, LOGIC);
    t_bool(MPI_CXX_BOOL, LOGIC);
    t_logical(MPI_LOGICAL, LOGIC);
    t_byte(MPI_BYTE, BYTE);
    t_other(MPI_PACKED, OTHER);
    t_other(MPI_CHARACTER, C_INT);
}

/* ---- MINLOC / MAXLOC ---- */

#define DEF_PAIR(FN, V, I)                                                                        \
    static void FN(MPI_Datatype h)                                                                \
    {                                                                                             \
        struct p {                                                                                \
            V v;                                                                                  \
            I i;                                                                                  \
        } a[N], b[N];                                                                             \
        for (int o = 0; o < TT_NOPS; o++) {                                                       \
            MPI_Op op = tt_all_ops[o];                                                            \
            memset(a, 0, sizeof a);                                                               \
            memset(b, 0, sizeof b);                                                               \
            for (int i = 0; i < N; i++) {                                                         \
                a[i].v = (V)(i % 5);                                                              \
                a[i].i = (I)(i % 7);                                                              \
                b[i].v = (V)((i / 2) % 5);                                                        \
                b[i].i = (I)(i % 4);                                                              \
            }                                                                                     \
            int rc = MPI_Reduce_local(a, b, N, h, op);                                            \
            if (op != MPI_MINLOC && op != MPI_MAXLOC) {                                           \
                expect_op_error(rc, op, h);                                                       \
                continue;                                                                         \
            }                                                                                     \
            CHECK(rc == MPI_SUCCESS, "%s on 0x%x: rc %d", tt_op_name(op), (unsigned)h, rc);       \
            for (int i = 0; i < N; i++) {                                                         \
                V u = (V)(i % 5), v = (V)((i / 2) % 5);                                           \
                I iu = (I)(i % 7), iv = (I)(i % 4);                                               \
                int take = op == MPI_MINLOC ? u < v : u > v;                                      \
                V wv = take ? u : v;                                                              \
                I wi = u == v ? (iu < iv ? iu : iv) : take ? iu : iv;                             \
                CHECK(b[i].v == wv && b[i].i == wi,                                               \
                      "%s on 0x%x: element %d: (%g,%g) "                                          \
                      "expected (%g,%g)",                                                         \
                      tt_op_name(op), (unsigned)h, i, (double)b[i].v, (double)b[i].i, (double)wv, \
                      (double)wi);                                                                \
            }                                                                                     \
        }                                                                                         \
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

    /* ties: the lower index wins, whichever side it is on */
    struct {
        double v;
        int i;
    } in[2] = {{5.0, 3}, {5.0, 0}}, io[2] = {{5.0, 1}, {5.0, 2}};
    CHECK_MPI(MPI_Reduce_local(in, io, 2, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(io[0].i == 1 && io[1].i == 0, "MINLOC ties: %d %d", io[0].i, io[1].i);
    io[0].i = 1;
    io[1].i = 2;
    CHECK_MPI(MPI_Reduce_local(in, io, 2, MPI_DOUBLE_INT, MPI_MAXLOC));
    CHECK(io[0].i == 1 && io[1].i == 0, "MAXLOC ties: %d %d", io[0].i, io[1].i);
}

/* ---- user ops ---- */

static MPI_Datatype seen_type;
static int seen_len, calls;
static MPI_Datatype pair_of_ints; /* contiguous(2, MPI_INT) */

/* inout = in * 10 + inout: the order of the arguments shows */
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int n = *len * (*dt == pair_of_ints ? 2 : 1);
    int *a = in, *b = inout;
    for (int i = 0; i < n; i++) b[i] = a[i] * 10 + b[i];
    seen_type = *dt;
    seen_len = *len;
    calls++;
}

static void user_ops(void)
{
    MPI_Op op;
    int commute;
    CHECK_MPI(MPI_Op_create(concat, 0, &op));
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "user op created non-commutative reports %d", commute);
    int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    CHECK_MPI(MPI_Reduce_local(a, b, 4, MPI_INT, op));
    CHECK(b[0] == 15 && b[1] == 26 && b[2] == 37 && b[3] == 48, "user op order: %d %d %d %d", b[0],
          b[1], b[2], b[3]);
    CHECK(seen_type == MPI_INT && seen_len == 4, "user op saw type 0x%x len %d",
          (unsigned)seen_type, seen_len);

    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair_of_ints));
    CHECK_MPI(MPI_Type_commit(&pair_of_ints));
    int c[4] = {1, 2, 3, 4}, d[4] = {0, 0, 0, 0};
    calls = 0;
    CHECK_MPI(MPI_Reduce_local(c, d, 2, pair_of_ints, op));
    CHECK(calls == 1 && seen_type == pair_of_ints && seen_len == 2,
          "user op on a derived type saw 0x%x len %d in %d calls", (unsigned)seen_type, seen_len,
          calls);
    CHECK(d[0] == 10 && d[3] == 40, "user op on a derived type: %d %d", d[0], d[3]);
    /* zero elements: the function is not called */
    calls = 0;
    CHECK_MPI(MPI_Reduce_local(c, d, 0, pair_of_ints, op));
    CHECK(calls == 0, "user op called for count 0");
    CHECK_MPI(MPI_Type_free(&pair_of_ints));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "MPI_Op_free sets MPI_OP_NULL");

    CHECK_MPI(MPI_Op_create(concat, 1, &op));
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == 1, "commutative user op reports %d", commute);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1, "MPI_SUM commutative %d", commute);
}

/* ---- predefined ops on derived types ---- */

static void derived(void)
{
    MPI_Datatype t;

    /* contiguous: like count * 3 ints */
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    int a[12], b[12];
    for (int i = 0; i < 12; i++) {
        a[i] = i;
        b[i] = 100 * i;
    }
    CHECK_MPI(MPI_Reduce_local(a, b, 4, t, MPI_SUM));
    for (int i = 0; i < 12; i++) CHECK(b[i] == 101 * i, "contiguous SUM [%d]=%d", i, b[i]);
    CHECK_MPI(MPI_Type_free(&t));

    /* strided doubles: only the selected elements change */
    CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &t)); /* extent 7 doubles */
    CHECK_MPI(MPI_Type_commit(&t));
    double x[14], y[14];
    for (int i = 0; i < 14; i++) {
        x[i] = i;
        y[i] = 1000 + i;
    }
    CHECK_MPI(MPI_Reduce_local(x, y, 2, t, MPI_MAX));
    CHECK_MPI(MPI_Reduce_local(x, y, 2, t, MPI_SUM));
    for (int i = 0; i < 14; i++) {
        int sel = (i % 7) % 2 == 0;
        CHECK(y[i] == (sel ? 1000 + 2 * i : 1000 + i), "vector MAX+SUM [%d]=%g", i, y[i]);
    }
    /* MPI_REPLACE and MPI_NO_OP are for one-sided accumulates only */
    CHECK(err_class(MPI_Reduce_local(x, y, 2, t, MPI_NO_OP)) == MPI_ERR_OP, "NO_OP accepted");
    CHECK(err_class(MPI_Reduce_local(x, y, 2, t, MPI_REPLACE)) == MPI_ERR_OP, "REPLACE accepted");
    CHECK(y[0] == 1000 && y[1] == 1001, "a refused op changed inout");
    CHECK_MPI(MPI_Type_free(&t));

    /* resized ints: stride 8 bytes */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    for (int i = 0; i < 12; i++) {
        a[i] = i + 1;
        b[i] = 3;
    }
    CHECK_MPI(MPI_Reduce_local(a, b, 6, t, MPI_PROD));
    for (int i = 0; i < 12; i++)
        CHECK(b[i] == (i % 2 ? 3 : 3 * (i + 1)), "resized PROD [%d]=%d", i, b[i]);
    CHECK_MPI(MPI_Type_free(&t));

    /* padded pairs in a vector: packed path */
    struct di {
        double v;
        int i;
    } p[9], q[9];
    CHECK_MPI(MPI_Type_vector(3, 1, 3, MPI_DOUBLE_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    for (int i = 0; i < 9; i++) {
        p[i].v = i % 4;
        p[i].i = i;
        q[i].v = 2;
        q[i].i = 100 + i;
    }
    CHECK_MPI(MPI_Reduce_local(p, q, 1, t, MPI_MINLOC)); /* elements 0, 3, 6 */
    CHECK(q[0].v == 0 && q[0].i == 0, "pair vector [0] (%g,%d)", q[0].v, q[0].i);
    CHECK(q[3].v == 2 && q[3].i == 103, "pair vector [3] (%g,%d)", q[3].v, q[3].i);
    CHECK(q[6].v == 2 && q[6].i == 6, "pair vector [6] tie (%g,%d)", q[6].v, q[6].i);
    CHECK(q[1].v == 2 && q[1].i == 101, "pair vector gap changed");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_contiguous(9, MPI_DOUBLE_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Reduce_local(p, q, 1, t, MPI_MAXLOC));
    for (int i = 0; i < 9; i++) {
        double want = p[i].v > q[i].v ? p[i].v : q[i].v;
        CHECK(q[i].v == want, "contiguous double_int MAXLOC [%d]", i);
    }
    CHECK_MPI(MPI_Type_free(&t));

    /* unpadded pairs in a strided layout: block by block */
    struct fi {
        float v;
        int i;
    } r[8], s[8];
    CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_FLOAT_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    for (int i = 0; i < 8; i++) {
        r[i].v = (float)(i % 3);
        r[i].i = i;
        s[i].v = 1;
        s[i].i = 50;
    }
    CHECK_MPI(MPI_Reduce_local(r, s, 1, t, MPI_MAXLOC));
    for (int i = 0; i < 8; i++) {
        if (i % 2) {
            CHECK(s[i].v == 1 && s[i].i == 50, "float_int gap [%d] changed", i);
            continue;
        }
        float wv = r[i].v > 1 ? r[i].v : 1;
        int wi = r[i].v > 1 ? i : r[i].v == 1 ? (i < 50 ? i : 50) : 50;
        CHECK(s[i].v == wv && s[i].i == wi, "float_int vector [%d] (%g,%d)", i, s[i].v, s[i].i);
    }
    CHECK_MPI(MPI_Type_free(&t));

    /* many strided elements */
    enum { M = 100000 };
    double *u = malloc(2 * M * sizeof(double)), *w = malloc(2 * M * sizeof(double));
    CHECK(u && w, "out of memory");
    for (int i = 0; i < 2 * M; i++) {
        u[i] = i;
        w[i] = -1;
    }
    CHECK_MPI(MPI_Type_vector(M, 1, 2, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Reduce_local(u, w, 1, t, MPI_SUM));
    for (int i = 0; i < 2 * M; i++) CHECK(w[i] == (i % 2 ? -1 : i - 1), "big vector SUM [%d]", i);
    CHECK_MPI(MPI_Type_free(&t));
    free(u);
    free(w);

    /* mixed elements: no predefined op applies */
    {
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        double in[2] = {0}, io[2] = {0};
        int rc = MPI_Reduce_local(in, io, 1, t, MPI_SUM);
        CHECK(err_class(rc) == MPI_ERR_OP, "SUM on struct{int;double}: rc %d", rc);
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "not all of one predefined type") != NULL, "message \"%s\"", msg);
        /* but a user op takes anything */
        MPI_Op uop;
        CHECK_MPI(MPI_Op_create(concat, 1, &uop));
        calls = 0;
        CHECK_MPI(MPI_Reduce_local(in, io, 1, t, uop));
        CHECK(calls == 1 && seen_type == t && seen_len == 1, "user op on struct: %d calls", calls);
        CHECK_MPI(MPI_Op_free(&uop));
        CHECK_MPI(MPI_Type_free(&t));
    }
    /* a derived type of doubles names its basic type in the message */
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    int rc = MPI_Reduce_local(x, y, 1, t, MPI_BXOR);
    CHECK(err_class(rc) == MPI_ERR_OP, "BXOR on contiguous doubles: rc %d", rc);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "built from MPI_DOUBLE") != NULL, "message \"%s\"", msg);
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    predefined_types();
    pairs();
    user_ops();
    derived();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
