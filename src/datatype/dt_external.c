/* The "external32" data representation (MPI 4.1 section 19.5.2), for
 * MPI_Pack_external and friends.
 *
 * Every basic element is converted on its own: integers and floating point
 * values big-endian, at the sizes of the standard's table, which differ
 * from the native ones for MPI_LONG and MPI_UNSIGNED_LONG (4 bytes: the low
 * bytes are kept, the sign restored on unpacking, as the standard's advice
 * to users says), MPI_WCHAR (2) and long double (IEEE binary128, from and
 * to the x87 80-bit format).  The typemap is walked through the constructor
 * records, which keep the basic types the flattened layout forgets. */
#include <float.h>
#include <string.h>

#include "datatype/dt_internal.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "external32: the conversions below assume a little-endian host"
#endif

enum ext_kind {
    EXT_SWAP,     /* same size, byte order reversed (1 byte: copied) */
    EXT_SIGNED,   /* signed integer, narrower outside */
    EXT_UNSIGNED, /* unsigned integer (or a character), narrower outside */
    EXT_BOOL,     /* C bool: any nonzero byte is true */
    EXT_LDOUBLE,  /* long double <-> binary128 */
    EXT_PAIR      /* value-index pair: see pair_value */
};

struct ext_info {
    enum ext_kind kind;
    size_t native, ext; /* bytes of one unit here and in external32 */
    size_t units;       /* units in one element (2 for complex and the 2-types) */
};

static struct ext_info info_of(MPI_Datatype h, size_t size)
{
    struct ext_info e = {EXT_SWAP, size, size, 1};
    if (h == MPI_LONG) {
        e.kind = EXT_SIGNED;
        e.ext = 4;
    } else if (h == MPI_UNSIGNED_LONG) {
        e.kind = EXT_UNSIGNED;
        e.ext = 4;
    } else if (h == MPI_WCHAR) {
        e.kind = EXT_UNSIGNED;
        e.ext = 2;
    } else if (h == MPI_C_BOOL || h == MPI_CXX_BOOL) {
        e.kind = EXT_BOOL;
    } else if (h == MPI_LONG_DOUBLE || h == MPI_REAL16) {
        e.kind = EXT_LDOUBLE;
    } else if (h == MPI_C_LONG_DOUBLE_COMPLEX || h == MPI_CXX_LONG_DOUBLE_COMPLEX ||
               h == MPI_COMPLEX32) {
        e.kind = EXT_LDOUBLE;
        e.units = 2;
    } else if (h == MPI_COMPLEX || h == MPI_DOUBLE_COMPLEX || h == MPI_COMPLEX8 ||
               h == MPI_COMPLEX16 || h == MPI_C_FLOAT_COMPLEX || h == MPI_C_DOUBLE_COMPLEX ||
               h == MPI_CXX_FLOAT_COMPLEX || h == MPI_CXX_DOUBLE_COMPLEX || h == MPI_2INT ||
               h == MPI_2INTEGER || h == MPI_2REAL || h == MPI_2DOUBLE_PRECISION) {
        e.units = 2;
    } else if (h == MPI_FLOAT_INT || h == MPI_DOUBLE_INT || h == MPI_LONG_INT ||
               h == MPI_SHORT_INT || h == MPI_LONG_DOUBLE_INT) {
        e.kind = EXT_PAIR;
    }
    e.native = size / e.units;
    if (e.units == 2 || e.kind == EXT_LDOUBLE) e.ext = e.native;
    return e;
}

/* The value type of a pair type. */
static MPI_Datatype pair_value(MPI_Datatype h)
{
    return h == MPI_FLOAT_INT    ? MPI_FLOAT
           : h == MPI_DOUBLE_INT ? MPI_DOUBLE
           : h == MPI_LONG_INT   ? MPI_LONG
           : h == MPI_SHORT_INT  ? MPI_SHORT
                                 : MPI_LONG_DOUBLE;
}

static size_t basic_ext_size(const struct tern_dt_obj *t)
{
    if (t->pub.size == 0) return 0; /* MPI_LB, MPI_UB */
    struct ext_info e = info_of(t->pub.handle, t->pub.size);
    if (e.kind == EXT_PAIR)
        return basic_ext_size(tern_dt_builtin_get(pair_value(t->pub.handle))) + 4;
    return e.ext * e.units;
}

static int ext_basic_size(const struct tern_datatype *b, size_t *bytes, void *arg)
{
    (void)arg;
    *bytes = basic_ext_size(tern_dt_obj_of(b));
    return MPI_SUCCESS;
}

int tern_dt_ext32_size(const struct tern_datatype *dt, size_t count, size_t *bytes)
{
    static const struct tern_dt_rep ext32 = {ext_basic_size, NULL};
    return tern_dt_rep_size(dt, count, &ext32, bytes);
}

/* ---- one unit ---- */

/* x87 extended precision (64-bit significand with its integer bit) and
 * binary128 (112-bit fraction) share sign, exponent width and bias. */
#if LDBL_MANT_DIG == 64
static void ld_to_ext(const unsigned char *n, unsigned char *x)
{
    uint64_t m, hi, lo;
    uint16_t se;
    memcpy(&m, n, 8);
    memcpy(&se, n + 8, 2);
    uint64_t frac = m & 0x7fffffffffffffffull;
    hi = (uint64_t)se << 48 | frac >> 15;
    lo = (frac & 0x7fff) << 49;
    for (int i = 0; i < 8; i++) {
        x[i] = (unsigned char)(hi >> (56 - 8 * i));
        x[8 + i] = (unsigned char)(lo >> (56 - 8 * i));
    }
}

static void ld_from_ext(const unsigned char *x, unsigned char *n)
{
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 8; i++) {
        hi = hi << 8 | x[i];
        lo = lo << 8 | x[8 + i];
    }
    uint16_t se = (uint16_t)(hi >> 48);
    uint64_t frac = (hi & 0xffffffffffffull) << 15 | lo >> 49; /* the rest is cut */
    unsigned exp = se & 0x7fffu;
    if (exp == 0x7fffu && frac == 0 && ((hi & 0xffffffffffffull) || (lo << 15)))
        frac = 1ull << 62; /* a NaN whose payload was cut stays a NaN */
    uint64_t m = (exp ? 1ull << 63 : 0) | frac;
    memset(n, 0, sizeof(long double));
    memcpy(n, &m, 8);
    memcpy(n + 8, &se, 2);
}
#elif LDBL_MANT_DIG == 113
/* already binary128: only the byte order differs */
static void ld_to_ext(const unsigned char *n, unsigned char *x)
{
    for (int i = 0; i < 16; i++) x[i] = n[15 - i];
}

static void ld_from_ext(const unsigned char *x, unsigned char *n)
{
    for (int i = 0; i < 16; i++) n[i] = x[15 - i];
}
#else
#error "external32: long double is neither x87 extended nor binary128"
#endif

/* Native unit at n <-> external unit at x (little-endian host). */
static void unit_pack(const struct ext_info *e, const unsigned char *n, unsigned char *x)
{
    if (e->kind == EXT_LDOUBLE) {
        ld_to_ext(n, x);
        return;
    }
    /* the low e->ext bytes, most significant first */
    for (size_t i = 0; i < e->ext; i++) x[i] = n[e->ext - 1 - i];
}

static void unit_unpack(const struct ext_info *e, const unsigned char *x, unsigned char *n)
{
    switch (e->kind) {
    case EXT_LDOUBLE: ld_from_ext(x, n); return;
    case EXT_BOOL: n[0] = x[0] != 0; return;
    default:
        for (size_t i = 0; i < e->ext; i++) n[i] = x[e->ext - 1 - i];
        /* widen: the sign (signed) or zeros */
        unsigned char fill = e->kind == EXT_SIGNED && (x[0] & 0x80) ? 0xff : 0;
        for (size_t i = e->ext; i < e->native; i++) n[i] = fill;
    }
}

/* ---- the typemap walk ---- */

struct ext_walk {
    unsigned char *s; /* the external stream, advancing */
    int unpack;
};

static void basic_move(struct ext_walk *w, const struct tern_dt_obj *t, char *p)
{
    if (t->pub.size == 0) return;
    struct ext_info e = info_of(t->pub.handle, t->pub.size);
    if (e.kind == EXT_PAIR) {
        const struct tern_dt_obj *v = tern_dt_builtin_get(pair_value(t->pub.handle));
        basic_move(w, v, p);
        basic_move(w, tern_dt_builtin_get(MPI_INT), p + t->pub.true_ub - (MPI_Aint)sizeof(int));
        return;
    }
    for (size_t u = 0; u < e.units; u++) {
        unsigned char *n = (unsigned char *)p + u * e.native;
        if (w->unpack)
            unit_unpack(&e, w->s, n);
        else
            unit_pack(&e, n, w->s);
        w->s += e.ext;
    }
}

static void walk(struct ext_walk *w, const struct tern_dt_obj *t, char *p)
{
    if (t->combiner == MPI_COMBINER_NAMED) {
        basic_move(w, t, p);
        return;
    }
    size_t n = tern_dt_nblocks(t);
    for (size_t i = 0; i < n; i++) {
        const struct tern_dt_obj *c;
        size_t bl;
        MPI_Aint disp;
        tern_dt_block(t, i, &c, &bl, &disp);
        for (size_t k = 0; k < bl; k++)
            walk(w, c, tern_dt_at(p, disp + (MPI_Aint)k * c->pub.extent));
    }
}

static void ext_move(const struct tern_datatype *dt, void *buf, size_t count, void *s, int unpack)
{
    struct ext_walk w = {s, unpack};
    for (size_t e = 0; e < count; e++)
        walk(&w, tern_dt_obj_of(dt), tern_dt_at(buf, (MPI_Aint)e * dt->extent));
}

void tern_dt_ext32_pack(const struct tern_datatype *dt, const void *buf, size_t count, void *out)
{
    ext_move(dt, (void *)(uintptr_t)buf, count, out, 0);
}

void tern_dt_ext32_unpack(const struct tern_datatype *dt, void *buf, size_t count, const void *in)
{
    ext_move(dt, buf, count, (void *)(uintptr_t)in, 1);
}
