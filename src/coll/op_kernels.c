/* The predefined reduction ops: one macro-generated loop per (op, C type).
 *
 * MPI types map to a C type tag (MPI_INT, MPI_INT32_T and MPI_INTEGER4 all
 * run the int32_t loops) and to the group of MPI 4.1 section 6.9.2 that
 * decides which ops are defined on them:
 *
 *   MPI_MAX, MPI_MIN               C integer, Fortran integer, floating
 *                                  point, multi-language (MPI_AINT,
 *                                  MPI_OFFSET, MPI_COUNT)
 *   MPI_SUM, MPI_PROD              the same and complex
 *   MPI_LAND, MPI_LOR, MPI_LXOR    C integer, logical; also (MPICH's
 *                                  extension) Fortran integer, floating
 *                                  point and multi-language
 *   MPI_BAND, MPI_BOR, MPI_BXOR    C integer, Fortran integer, byte,
 *                                  multi-language
 *   MPI_MINLOC, MPI_MAXLOC         the value-index pairs
 *
 * Any other pair is refused.  The standard says MPI_CHAR, MPI_WCHAR and
 * MPI_CHARACTER "cannot be used in reduction operations", but MPICH
 * accepts MPI_CHAR and MPI_CHARACTER as C integers and the logical ops on
 * the types above, and programs and test suites written against MPICH use
 * both: Tern accepts exactly what MPICH accepts (MPI_WCHAR stays refused).  Loads and stores go through memcpy: buffers need not be
 * aligned (a slice of a packed stream) and the compiler still emits plain
 * (vector) loads.  Integer sums and products wrap (computed unsigned)
 * instead of overflowing. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coll/op_kernels.h"

/* These loops are the reduction hot path: have GCC vectorise them at -O2
 * too (its -O2 cost model only vectorises loops of known trip count). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

_Static_assert(sizeof(short) == 2 && sizeof(int) == 4 && sizeof(long) == 8 &&
                   sizeof(long long) == 8 && sizeof(MPI_Aint) == 8 && sizeof(MPI_Offset) == 8 &&
                   sizeof(MPI_Count) == 8,
               "the type tags below assume LP64");

/* quad precision for MPI_REAL16 / MPI_COMPLEX32 */
#if defined(__x86_64__) && defined(__SIZEOF_FLOAT128__)
#define TERN_HAVE_QUAD 1
typedef __float128 tern_f128;
typedef _Complex float __attribute__((mode(TC))) tern_c128;
#elif defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113
#define TERN_HAVE_QUAD 1
typedef long double tern_f128;
typedef long double _Complex tern_c128;
#endif

#if defined(__FLT16_MAX__) && defined(MPIX_C_FLOAT16)
#define TERN_HAVE_F16 1
#endif

enum tag {
    TAG_none,
    TAG_i8,
    TAG_u8,
    TAG_i16,
    TAG_u16,
    TAG_i32,
    TAG_u32,
    TAG_i64,
    TAG_u64,
    TAG_f16,
    TAG_f32,
    TAG_f64,
    TAG_f80,
    TAG_f128,
    TAG_c32,
    TAG_c64,
    TAG_c80,
    TAG_c128,
    TAG_bool,
    TAG_p_fi,
    TAG_p_di,
    TAG_p_li,
    TAG_p_si,
    TAG_p_ii,
    TAG_p_ldi,
    TAG_p_ff,
    TAG_p_dd,
    TAG_COUNT
};

enum cls {
    CLS_NONE,
    CLS_CINT,
    CLS_FINT,
    CLS_FLOAT,
    CLS_COMPLEX,
    CLS_LOGICAL,
    CLS_BYTE,
    CLS_MULTI,
    CLS_PAIR
};

/* ---- the loops ---- */

/* Each loop also built for AVX2 and for AVX-512, the widest the CPU runs
 * chosen when the library loads: an 8-bit sum of 64 KiB in a core's cache
 * takes half the time at 32 bytes a step, and Open MPI's reductions pick
 * such loops at run time too. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define TERN_K_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TERN_K_CLONES
#endif

#define TERN_K(OP, TAG, T, EXPR)                                                 \
    TERN_K_CLONES static void k_##OP##_##TAG(const void *in, void *io, size_t n) \
    {                                                                            \
        const char *a_ = in;                                                     \
        char *b_ = io;                                                           \
        for (size_t i_ = 0; i_ < n; i_++) {                                      \
            T x, y, z;                                                           \
            memcpy(&x, a_ + i_ * sizeof(T), sizeof(T));                          \
            memcpy(&y, b_ + i_ * sizeof(T), sizeof(T));                          \
            z = (EXPR);                                                          \
            memcpy(b_ + i_ * sizeof(T), &z, sizeof(T));                          \
        }                                                                        \
    }

/* clang-format off */
#define TERN_INT_TAGS(X, OP) \
    X(OP, i8, int8_t)        \
    X(OP, u8, uint8_t)       \
    X(OP, i16, int16_t)      \
    X(OP, u16, uint16_t)     \
    X(OP, i32, int32_t)      \
    X(OP, u32, uint32_t)     \
    X(OP, i64, int64_t)      \
    X(OP, u64, uint64_t)
/* clang-format on */

#ifdef TERN_HAVE_F16
#define TERN_F16_TAG(X, OP) X(OP, f16, _Float16)
#else
#define TERN_F16_TAG(X, OP)
#endif
#ifdef TERN_HAVE_QUAD
#define TERN_F128_TAG(X, OP) X(OP, f128, tern_f128)
#define TERN_C128_TAG(X, OP) X(OP, c128, tern_c128)
#else
#define TERN_F128_TAG(X, OP)
#define TERN_C128_TAG(X, OP)
#endif

#define TERN_FLOAT_TAGS(X, OP) \
    X(OP, f32, float)          \
    X(OP, f64, double) X(OP, f80, long double) TERN_F16_TAG(X, OP) TERN_F128_TAG(X, OP)
#define TERN_COMPLEX_TAGS(X, OP) \
    X(OP, c32, float _Complex)   \
    X(OP, c64, double _Complex) X(OP, c80, long double _Complex) TERN_C128_TAG(X, OP)
#define TERN_BOOL_TAGS(X, OP) X(OP, bool, _Bool)

#define TERN_GEN_MAX(OP, TAG, T) TERN_K(OP, TAG, T, x > y ? x : y)
#define TERN_GEN_MIN(OP, TAG, T) TERN_K(OP, TAG, T, x < y ? x : y)
#define TERN_ULL(v) ((unsigned long long)(v))
#define TERN_GEN_ISUM(OP, TAG, T) TERN_K(OP, TAG, T, (T)(TERN_ULL(x) + TERN_ULL(y)))
#define TERN_GEN_IPROD(OP, TAG, T) TERN_K(OP, TAG, T, (T)(TERN_ULL(x) * TERN_ULL(y)))
#define TERN_GEN_FSUM(OP, TAG, T) TERN_K(OP, TAG, T, x + y)
#define TERN_GEN_FPROD(OP, TAG, T) TERN_K(OP, TAG, T, x *y)
#define TERN_GEN_LAND(OP, TAG, T) TERN_K(OP, TAG, T, (T)(x && y))
#define TERN_GEN_LOR(OP, TAG, T) TERN_K(OP, TAG, T, (T)(x || y))
#define TERN_GEN_LXOR(OP, TAG, T) TERN_K(OP, TAG, T, (T)(!x != !y))
#define TERN_GEN_BAND(OP, TAG, T) TERN_K(OP, TAG, T, (T)(x & y))
#define TERN_GEN_BOR(OP, TAG, T) TERN_K(OP, TAG, T, (T)(x | y))
#define TERN_GEN_BXOR(OP, TAG, T) TERN_K(OP, TAG, T, (T)(x ^ y))

TERN_INT_TAGS(TERN_GEN_MAX, max)
TERN_FLOAT_TAGS(TERN_GEN_MAX, max)
TERN_INT_TAGS(TERN_GEN_MIN, min)
TERN_FLOAT_TAGS(TERN_GEN_MIN, min)
TERN_INT_TAGS(TERN_GEN_ISUM, sum)
TERN_FLOAT_TAGS(TERN_GEN_FSUM, sum)
TERN_COMPLEX_TAGS(TERN_GEN_FSUM, sum)
TERN_INT_TAGS(TERN_GEN_IPROD, prod)
TERN_FLOAT_TAGS(TERN_GEN_FPROD, prod)
TERN_COMPLEX_TAGS(TERN_GEN_FPROD, prod)
TERN_INT_TAGS(TERN_GEN_LAND, land)
TERN_FLOAT_TAGS(TERN_GEN_LAND, land)
TERN_BOOL_TAGS(TERN_GEN_LAND, land)
TERN_INT_TAGS(TERN_GEN_LOR, lor)
TERN_FLOAT_TAGS(TERN_GEN_LOR, lor)
TERN_BOOL_TAGS(TERN_GEN_LOR, lor)
TERN_INT_TAGS(TERN_GEN_LXOR, lxor)
TERN_FLOAT_TAGS(TERN_GEN_LXOR, lxor)
TERN_BOOL_TAGS(TERN_GEN_LXOR, lxor)
TERN_INT_TAGS(TERN_GEN_BAND, band)
TERN_INT_TAGS(TERN_GEN_BOR, bor)
TERN_INT_TAGS(TERN_GEN_BXOR, bxor)

/* MINLOC / MAXLOC: the better value wins; on a tie the lower index.  Each
 * pair type gets a loop over its memory layout (struct) and one over its
 * packed bytes (value then index, no padding). */
#define TERN_PAIR_LOOP(NAME, V, I, STRIDE, IOFF, CMP)    \
    static void NAME(const void *in, void *io, size_t n) \
    {                                                    \
        const char *a_ = in;                             \
        char *b_ = io;                                   \
        for (size_t i_ = 0; i_ < n; i_++) {              \
            const char *pa = a_ + i_ * (STRIDE);         \
            char *pb = b_ + i_ * (STRIDE);               \
            V u, v;                                      \
            I iu, iv;                                    \
            memcpy(&u, pa, sizeof(V));                   \
            memcpy(&v, pb, sizeof(V));                   \
            memcpy(&iu, pa + (IOFF), sizeof(I));         \
            memcpy(&iv, pb + (IOFF), sizeof(I));         \
            if (u CMP v) {                               \
                memcpy(pb, pa, sizeof(V));               \
                memcpy(pb + (IOFF), &iu, sizeof(I));     \
            } else if (u == v && iu < iv) {              \
                memcpy(pb + (IOFF), &iu, sizeof(I));     \
            }                                            \
        }                                                \
    }

#define TERN_PAIR_STRUCT(V, I) \
    struct {                   \
        V v;                   \
        I i;                   \
    }
#define TERN_GEN_PAIR(TAG, V, I)                                               \
    TERN_PAIR_LOOP(k_minloc_##TAG, V, I, sizeof(TERN_PAIR_STRUCT(V, I)),       \
                   offsetof(TERN_PAIR_STRUCT(V, I), i), <)                     \
    TERN_PAIR_LOOP(k_maxloc_##TAG, V, I, sizeof(TERN_PAIR_STRUCT(V, I)),       \
                   offsetof(TERN_PAIR_STRUCT(V, I), i), >)                     \
    TERN_PAIR_LOOP(kp_minloc_##TAG, V, I, sizeof(V) + sizeof(I), sizeof(V), <) \
    TERN_PAIR_LOOP(kp_maxloc_##TAG, V, I, sizeof(V) + sizeof(I), sizeof(V), >)

/* clang-format off */
#define TERN_PAIR_TAGS(X)      \
    X(p_fi, float, int)        \
    X(p_di, double, int)       \
    X(p_li, long, int)         \
    X(p_si, short, int)        \
    X(p_ii, int, int)          \
    X(p_ldi, long double, int) \
    X(p_ff, float, float)      \
    X(p_dd, double, double)
/* clang-format on */

TERN_PAIR_TAGS(TERN_GEN_PAIR)

/* ---- tables ---- */

#define TERN_ENTRY(OP, TAG, T) [TAG_##TAG] = k_##OP##_##TAG,
#define TERN_PAIR_ENTRY_MIN(TAG, V, I) [TAG_##TAG] = k_minloc_##TAG,
#define TERN_PAIR_ENTRY_MAX(TAG, V, I) [TAG_##TAG] = k_maxloc_##TAG,
#define TERN_PAIR_ENTRY_PMIN(TAG, V, I) [TAG_##TAG] = kp_minloc_##TAG,
#define TERN_PAIR_ENTRY_PMAX(TAG, V, I) [TAG_##TAG] = kp_maxloc_##TAG,

#define TERN_OPIDX(op) ((unsigned)(op)&0xffu)

static const tern_op_kernel kernels[13][TAG_COUNT] = {
    [TERN_OPIDX(MPI_MAX)] = {TERN_INT_TAGS(TERN_ENTRY, max) TERN_FLOAT_TAGS(TERN_ENTRY, max)},
    [TERN_OPIDX(MPI_MIN)] = {TERN_INT_TAGS(TERN_ENTRY, min) TERN_FLOAT_TAGS(TERN_ENTRY, min)},
    [TERN_OPIDX(MPI_SUM)] = {TERN_INT_TAGS(TERN_ENTRY, sum) TERN_FLOAT_TAGS(TERN_ENTRY, sum)
                                 TERN_COMPLEX_TAGS(TERN_ENTRY, sum)},
    [TERN_OPIDX(MPI_PROD)] = {TERN_INT_TAGS(TERN_ENTRY, prod) TERN_FLOAT_TAGS(TERN_ENTRY, prod)
                                  TERN_COMPLEX_TAGS(TERN_ENTRY, prod)},
    [TERN_OPIDX(MPI_LAND)] = {TERN_INT_TAGS(TERN_ENTRY, land) TERN_FLOAT_TAGS(TERN_ENTRY, land)
                                  TERN_BOOL_TAGS(TERN_ENTRY, land)},
    [TERN_OPIDX(MPI_LOR)] = {TERN_INT_TAGS(TERN_ENTRY, lor) TERN_FLOAT_TAGS(TERN_ENTRY, lor)
                                 TERN_BOOL_TAGS(TERN_ENTRY, lor)},
    [TERN_OPIDX(MPI_LXOR)] = {TERN_INT_TAGS(TERN_ENTRY, lxor) TERN_FLOAT_TAGS(TERN_ENTRY, lxor)
                                  TERN_BOOL_TAGS(TERN_ENTRY, lxor)},
    [TERN_OPIDX(MPI_BAND)] = {TERN_INT_TAGS(TERN_ENTRY, band)},
    [TERN_OPIDX(MPI_BOR)] = {TERN_INT_TAGS(TERN_ENTRY, bor)},
    [TERN_OPIDX(MPI_BXOR)] = {TERN_INT_TAGS(TERN_ENTRY, bxor)},
    [TERN_OPIDX(MPI_MINLOC)] = {TERN_PAIR_TAGS(TERN_PAIR_ENTRY_MIN)},
    [TERN_OPIDX(MPI_MAXLOC)] = {TERN_PAIR_TAGS(TERN_PAIR_ENTRY_MAX)},
};

static const tern_op_kernel packed_pairs[2][TAG_COUNT] = {
    {TERN_PAIR_TAGS(TERN_PAIR_ENTRY_PMIN)},
    {TERN_PAIR_TAGS(TERN_PAIR_ENTRY_PMAX)},
};

/* MPI type -> (C type tag, class).  Basic types are keyed by the low byte of
 * their handle, the pair types of the created tier by 256 + index. */
struct tinfo {
    unsigned char tag, cls;
};
#define TERN_TKEY(h) \
    (((unsigned)(h) >> 30) == 2u ? 256u + ((unsigned)(h)&0xffu) : ((unsigned)(h)&0xffu))
#define TERN_T_(h, TAG, CLS) [TERN_TKEY(h)] = {TAG_##TAG, CLS_##CLS},
#define TERN_T(h, TAG, CLS) TERN_T_(h, TAG, CLS)
#ifdef TERN_HAVE_F16
#define TERN_T_F16 TERN_T(MPIX_C_FLOAT16, f16, FLOAT)
#else
#define TERN_T_F16
#endif
#ifdef TERN_HAVE_QUAD
#define TERN_T_QUAD TERN_T(MPI_REAL16, f128, FLOAT) TERN_T(MPI_COMPLEX32, c128, COMPLEX)
#else
#define TERN_T_QUAD
#endif

static const struct tinfo tinfo[256 + 8] = {
    TERN_T(MPI_CHAR, i8, CINT)      /* MPICH's extension, kept for its users */
    TERN_T(MPI_CHARACTER, i8, CINT) /* likewise */
    TERN_T(MPI_SIGNED_CHAR, i8, CINT) TERN_T(MPI_UNSIGNED_CHAR, u8, CINT) TERN_T(
        MPI_SHORT, i16, CINT) TERN_T(MPI_UNSIGNED_SHORT, u16, CINT) TERN_T(MPI_INT, i32, CINT)
        TERN_T(MPI_UNSIGNED, u32, CINT) TERN_T(MPI_LONG, i64, CINT) TERN_T(MPI_UNSIGNED_LONG, u64,
                                                                           CINT)
            TERN_T(MPI_LONG_LONG_INT, i64, CINT) TERN_T(MPI_UNSIGNED_LONG_LONG, u64, CINT) TERN_T(
                MPI_INT8_T, i8, CINT) TERN_T(MPI_INT16_T, i16, CINT) TERN_T(MPI_INT32_T, i32, CINT)
                TERN_T(MPI_INT64_T, i64, CINT) TERN_T(MPI_UINT8_T, u8, CINT)
                    TERN_T(MPI_UINT16_T, u16, CINT) TERN_T(MPI_UINT32_T, u32, CINT)
                        TERN_T(MPI_UINT64_T, u64, CINT) TERN_T(MPI_AINT, i64, MULTI) TERN_T(
                            MPI_OFFSET, i64, MULTI) TERN_T(MPI_COUNT, i64, MULTI)
                            TERN_T(MPI_INTEGER, i32, FINT) TERN_T(MPI_INTEGER1, i8, FINT) TERN_T(
                                MPI_INTEGER2,
                                i16, FINT) TERN_T(MPI_INTEGER4, i32,
                                                  FINT) TERN_T(MPI_INTEGER8, i64, FINT)
                                TERN_T(MPI_FLOAT, f32, FLOAT) TERN_T(MPI_DOUBLE, f64, FLOAT) TERN_T(
                                    MPI_LONG_DOUBLE, f80,
                                    FLOAT) TERN_T(MPI_REAL, f32,
                                                  FLOAT) TERN_T(MPI_DOUBLE_PRECISION, f64, FLOAT)
                                    TERN_T(MPI_REAL4, f32, FLOAT) TERN_T(
                                        MPI_REAL8,
                                        f64, FLOAT) TERN_T_F16 TERN_T_QUAD
                                        TERN_T(MPI_C_FLOAT_COMPLEX, c32, COMPLEX) TERN_T(
                                            MPI_C_DOUBLE_COMPLEX, c64,
                                            COMPLEX) TERN_T(MPI_C_LONG_DOUBLE_COMPLEX, c80, COMPLEX)
                                            TERN_T(MPI_CXX_FLOAT_COMPLEX, c32, COMPLEX) TERN_T(
                                                MPI_CXX_DOUBLE_COMPLEX,
                                                c64, COMPLEX) TERN_T(MPI_CXX_LONG_DOUBLE_COMPLEX,
                                                                     c80, COMPLEX)
                                                TERN_T(MPI_COMPLEX, c32, COMPLEX) TERN_T(
                                                    MPI_DOUBLE_COMPLEX,
                                                    c64, COMPLEX) TERN_T(MPI_COMPLEX8, c32, COMPLEX)
                                                    TERN_T(MPI_COMPLEX16, c64, COMPLEX) TERN_T(
                                                        MPI_C_BOOL,
                                                        bool,
                                                        LOGICAL) TERN_T(MPI_CXX_BOOL, bool, LOGICAL)
                                                        TERN_T(MPI_LOGICAL, i32, LOGICAL) TERN_T(
                                                            MPI_BYTE, u8,
                                                            BYTE) TERN_T(MPI_FLOAT_INT, p_fi, PAIR)
                                                            TERN_T(MPI_DOUBLE_INT, p_di, PAIR)
                                                                TERN_T(
                                                                    MPI_LONG_INT, p_li,
                                                                    PAIR) TERN_T(MPI_SHORT_INT,
                                                                                 p_si, PAIR)
                                                                    TERN_T(MPI_LONG_DOUBLE_INT,
                                                                           p_ldi,
                                                                           PAIR) TERN_T(MPI_2INT,
                                                                                        p_ii, PAIR)
                                                                        TERN_T(
                                                                            MPI_2INTEGER, p_ii,
                                                                            PAIR) TERN_T(MPI_2REAL,
                                                                                         p_ff, PAIR)
                                                                            TERN_T(
                                                                                MPI_2DOUBLE_PRECISION,
                                                                                p_dd, PAIR)};

#define B(c) (1u << CLS_##c)
static const unsigned allowed[13] = {
    [TERN_OPIDX(MPI_MAX)] = B(CINT) | B(FINT) | B(FLOAT) | B(MULTI),
    [TERN_OPIDX(MPI_MIN)] = B(CINT) | B(FINT) | B(FLOAT) | B(MULTI),
    [TERN_OPIDX(MPI_SUM)] = B(CINT) | B(FINT) | B(FLOAT) | B(COMPLEX) | B(MULTI),
    [TERN_OPIDX(MPI_PROD)] = B(CINT) | B(FINT) | B(FLOAT) | B(COMPLEX) | B(MULTI),
    [TERN_OPIDX(MPI_LAND)] = B(CINT) | B(FINT) | B(FLOAT) | B(MULTI) | B(LOGICAL),
    [TERN_OPIDX(MPI_LOR)] = B(CINT) | B(FINT) | B(FLOAT) | B(MULTI) | B(LOGICAL),
    [TERN_OPIDX(MPI_LXOR)] = B(CINT) | B(FINT) | B(FLOAT) | B(MULTI) | B(LOGICAL),
    [TERN_OPIDX(MPI_BAND)] = B(CINT) | B(FINT) | B(BYTE) | B(MULTI),
    [TERN_OPIDX(MPI_BOR)] = B(CINT) | B(FINT) | B(BYTE) | B(MULTI),
    [TERN_OPIDX(MPI_BXOR)] = B(CINT) | B(FINT) | B(BYTE) | B(MULTI),
    [TERN_OPIDX(MPI_MINLOC)] = B(PAIR),
    [TERN_OPIDX(MPI_MAXLOC)] = B(PAIR),
};
#undef B

tern_op_kernel tern_op_kernel_get(MPI_Op op, MPI_Datatype basic, int packed)
{
    unsigned oi = TERN_OPIDX(op), key = TERN_TKEY(basic), h = (unsigned)basic;
    if (((unsigned)op & 0xffffff00u) != ((unsigned)MPI_MAX & 0xffffff00u) || oi == 0 || oi > 12)
        return NULL;
    /* a predefined datatype: 0x4c0000xx (basic) or 0x8c00000x (pair) */
    if ((h & 0x3fff0000u) != 0x0c000000u) return NULL;
    if (h >> 30 != 1u && (h >> 30 != 2u || (h & 0xffffu) >= 8u)) return NULL;
    const struct tinfo *ti = &tinfo[key];
    if (ti->tag == TAG_none || !(allowed[oi] & (1u << ti->cls))) return NULL;
    if (packed && ti->cls == CLS_PAIR) return packed_pairs[op == MPI_MAXLOC][ti->tag];
    return kernels[oi][ti->tag];
}
