/* "external32", one process: byte-exact packed images of each basic type
 * (big-endian, the standard's sizes: MPI_LONG and MPI_UNSIGNED_LONG 4 bytes,
 * MPI_WCHAR 2, long double IEEE binary128), round trips (the sign of a
 * narrowed long comes back), derived types with gaps, positions, sizes,
 * and the errors: an unknown data representation, a buffer too small. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "tern_test.h"

static void expect_bytes(MPI_Datatype t, const void *in, int count, const unsigned char *want,
                         size_t n, const char *what)
{
    unsigned char out[128];
    MPI_Aint pos = 0, size;
    CHECK_MPI(MPI_Pack_external_size("external32", count, t, &size));
    CHECK((size_t)size == n, "%s: external32 size %ld, expected %zu", what, (long)size, n);
    memset(out, 0xee, sizeof out);
    CHECK_MPI(MPI_Pack_external("external32", in, count, t, out, sizeof out, &pos));
    CHECK((size_t)pos == n, "%s: position %ld, expected %zu", what, (long)pos, n);
    for (size_t i = 0; i < n; i++)
        CHECK(out[i] == want[i], "%s: byte %zu is 0x%02x, expected 0x%02x", what, i, out[i],
              want[i]);
    CHECK(out[n] == 0xee, "%s: wrote past its bytes", what);
    /* and back */
    unsigned char back[128];
    memset(back, 0, sizeof back);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", out, (MPI_Aint)n, &pos, back, count, t));
    CHECK((size_t)pos == n, "%s: unpack position %ld", what, (long)pos);
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    int sz;
    CHECK_MPI(MPI_Type_size(t, &sz));
    /* (a long double's 6 padding bytes are not data: round_trips compares
     * those by value) */
    if (ext == sz && t != MPI_LONG_DOUBLE)
        CHECK(memcmp(back, in, (size_t)(sz * count)) == 0, "%s: round trip", what);
}

#define B(...) (const unsigned char[]){__VA_ARGS__}, sizeof((const unsigned char[]){__VA_ARGS__})

static void basic(void)
{
    char c[2] = {'A', (char)0xe9};
    expect_bytes(MPI_CHAR, c, 2, B(0x41, 0xe9), "MPI_CHAR");
    expect_bytes(MPI_BYTE, c, 2, B(0x41, 0xe9), "MPI_BYTE");
    signed char sc = -2;
    expect_bytes(MPI_SIGNED_CHAR, &sc, 1, B(0xfe), "MPI_SIGNED_CHAR");
    short s[2] = {0x1234, -2};
    expect_bytes(MPI_SHORT, s, 2, B(0x12, 0x34, 0xff, 0xfe), "MPI_SHORT");
    unsigned short us = 0xabcd;
    expect_bytes(MPI_UNSIGNED_SHORT, &us, 1, B(0xab, 0xcd), "MPI_UNSIGNED_SHORT");
    int i[2] = {0x01020304, -1};
    expect_bytes(MPI_INT, i, 2, B(1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff), "MPI_INT");
    unsigned u = 0xdeadbeef;
    expect_bytes(MPI_UNSIGNED, &u, 1, B(0xde, 0xad, 0xbe, 0xef), "MPI_UNSIGNED");
    long l[2] = {0x0a0b0c0d, -3};
    expect_bytes(MPI_LONG, l, 2, B(0x0a, 0x0b, 0x0c, 0x0d, 0xff, 0xff, 0xff, 0xfd), "MPI_LONG");
    unsigned long ul = 0x89abcdefu;
    expect_bytes(MPI_UNSIGNED_LONG, &ul, 1, B(0x89, 0xab, 0xcd, 0xef), "MPI_UNSIGNED_LONG");
    long long ll = 0x0102030405060708ll;
    expect_bytes(MPI_LONG_LONG_INT, &ll, 1, B(1, 2, 3, 4, 5, 6, 7, 8), "MPI_LONG_LONG_INT");
    unsigned long long ull = 0xf0e0d0c0b0a09080ull;
    expect_bytes(MPI_UNSIGNED_LONG_LONG, &ull, 1, B(0xf0, 0xe0, 0xd0, 0xc0, 0xb0, 0xa0, 0x90, 0x80),
                 "MPI_UNSIGNED_LONG_LONG");
    float f = -1.5f; /* 0xbfc00000 */
    expect_bytes(MPI_FLOAT, &f, 1, B(0xbf, 0xc0, 0, 0), "MPI_FLOAT");
    double d = 0.1; /* 0x3fb999999999999a */
    expect_bytes(MPI_DOUBLE, &d, 1, B(0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a),
                 "MPI_DOUBLE");
    long double ld = -3.0L; /* binary128: sign, exponent 0x4000, fraction .1 */
    unsigned char ldw[16] = {0xc0, 0x00, 0x80};
    expect_bytes(MPI_LONG_DOUBLE, &ld, 1, ldw, 16, "MPI_LONG_DOUBLE");
    /* exponent 0x3ffd; the x87 significand 0xaaaaaaaaaaaaaaab without its
     * integer bit, at the top of the 112-bit fraction */
    long double third = 1.0L / 3.0L;
    unsigned char thw[16] = {0x3f, 0xfd, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x56};
    expect_bytes(MPI_LONG_DOUBLE, &third, 1, thw, 16, "MPI_LONG_DOUBLE 1/3");
    _Bool b[2] = {1, 0};
    expect_bytes(MPI_C_BOOL, b, 2, B(1, 0), "MPI_C_BOOL");
    wchar_t w = 0x263a;
    expect_bytes(MPI_WCHAR, &w, 1, B(0x26, 0x3a), "MPI_WCHAR");
    int8_t i8 = -5;
    expect_bytes(MPI_INT8_T, &i8, 1, B(0xfb), "MPI_INT8_T");
    int16_t i16 = -0x1234;
    expect_bytes(MPI_INT16_T, &i16, 1, B(0xed, 0xcc), "MPI_INT16_T");
    int32_t i32 = 0x7f00ff01;
    expect_bytes(MPI_INT32_T, &i32, 1, B(0x7f, 0x00, 0xff, 0x01), "MPI_INT32_T");
    int64_t i64 = -2;
    expect_bytes(MPI_INT64_T, &i64, 1, B(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe),
                 "MPI_INT64_T");
    uint16_t u16 = 0x8001;
    expect_bytes(MPI_UINT16_T, &u16, 1, B(0x80, 0x01), "MPI_UINT16_T");
    uint64_t u64 = 0x1122334455667788ull;
    expect_bytes(MPI_UINT64_T, &u64, 1, B(0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88),
                 "MPI_UINT64_T");
    MPI_Aint a = -16;
    expect_bytes(MPI_AINT, &a, 1, B(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0), "MPI_AINT");
    MPI_Offset o = 0x100;
    expect_bytes(MPI_OFFSET, &o, 1, B(0, 0, 0, 0, 0, 0, 1, 0), "MPI_OFFSET");
    MPI_Count cn = 3;
    expect_bytes(MPI_COUNT, &cn, 1, B(0, 0, 0, 0, 0, 0, 0, 3), "MPI_COUNT");
    float _Complex fc = 1.0f - 2.0f * (float _Complex)1.0fi;
    expect_bytes(MPI_C_FLOAT_COMPLEX, &fc, 1, B(0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0),
                 "MPI_C_FLOAT_COMPLEX");
    double _Complex dc = 2.0;
    expect_bytes(MPI_C_DOUBLE_COMPLEX, &dc, 1, B(0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                 "MPI_C_DOUBLE_COMPLEX");
    int i2[2] = {1, -1};
    expect_bytes(MPI_2INT, i2, 1, B(0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff), "MPI_2INT");
    struct {
        double v;
        int i;
    } di = {1.0, 7};
    expect_bytes(MPI_DOUBLE_INT, &di, 1, B(0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7),
                 "MPI_DOUBLE_INT");
    struct {
        long v;
        int i;
    } li = {-1, 2};
    expect_bytes(MPI_LONG_INT, &li, 1, B(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 2), "MPI_LONG_INT");
    struct {
        short v;
        int i;
    } si = {3, 4};
    expect_bytes(MPI_SHORT_INT, &si, 1, B(0, 3, 0, 0, 0, 4), "MPI_SHORT_INT");
    MPI_Aint sz;
    CHECK_MPI(MPI_Pack_external_size("external32", 1, MPI_LONG_DOUBLE_INT, &sz));
    CHECK(sz == 20, "MPI_LONG_DOUBLE_INT external32 size %ld", (long)sz);
    CHECK_MPI(MPI_Pack_external_size("external32", 3, MPI_C_LONG_DOUBLE_COMPLEX, &sz));
    CHECK(sz == 96, "MPI_C_LONG_DOUBLE_COMPLEX external32 size %ld", (long)sz);
}

/* a narrowed long keeps its sign; long double values come back exactly */
static void round_trips(void)
{
    long l[4] = {-1, -2147483648L, 2147483647L, 12345}, lb[4];
    char buf[96];
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", l, 4, MPI_LONG, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, sizeof buf, &pos, lb, 4, MPI_LONG));
    CHECK(memcmp(l, lb, sizeof l) == 0, "longs within 32 bits come back");
    long double v[5] = {0.0L, -1e-4940L, 1e4000L, 3.14159265358979323846264L, INFINITY}, vb[5];
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", v, 5, MPI_LONG_DOUBLE, buf, sizeof buf, &pos));
    CHECK(pos == 80, "long double position %ld", (long)pos);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, sizeof buf, &pos, vb, 5, MPI_LONG_DOUBLE));
    for (int i = 0; i < 5; i++) CHECK(vb[i] == v[i], "long double %d comes back", i);
    long double nan = NAN, nb;
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &nan, 1, MPI_LONG_DOUBLE, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 16, &pos, &nb, 1, MPI_LONG_DOUBLE));
    CHECK(isnan(nb), "NaN stays NaN");
    /* any nonzero byte is true */
    unsigned char t = 0x40;
    _Bool bo = 0;
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", &t, 1, &pos, &bo, 1, MPI_C_BOOL));
    CHECK(bo == 1, "bool from 0x40");
}

/* a struct with gaps and a vector: converted element by element, no gaps */
static void derived(void)
{
    struct rec {
        char c;
        double d;
        short s[2];
    } r[2] = {{'x', -2.0, {1, 2}}, {'y', 0.5, {-1, 3}}}, rb[2];
    int bl[3] = {1, 1, 2};
    MPI_Aint disp[3] = {offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, s)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT}, t, v;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    unsigned char want[] = {'x', 0xc0, 0,    0, 0, 0, 0, 0, 0, 0,    1,    0, 2,
                            'y', 0x3f, 0xe0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 3};
    expect_bytes(t, r, 2, want, sizeof want, "struct with gaps");
    memset(rb, 0, sizeof rb);
    unsigned char buf[64];
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", r, 2, t, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, sizeof buf, &pos, rb, 2, t));
    for (int k = 0; k < 2; k++)
        CHECK(rb[k].c == r[k].c && rb[k].d == r[k].d && rb[k].s[0] == r[k].s[0] &&
                  rb[k].s[1] == r[k].s[1],
              "struct %d round trip", k);
    /* every other long of four: 2 x 4 bytes */
    long l[4] = {1, 2, 3, 4};
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_LONG, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    expect_bytes(v, l, 1, B(0, 0, 0, 1, 0, 0, 0, 3), "vector of longs");
    /* large-count forms agree */
    MPI_Count size_c, pos_c = 3;
    CHECK_MPI(MPI_Pack_external_size_c("external32", 2, t, &size_c));
    CHECK(size_c == 26, "pack_external_size_c %ld", (long)size_c);
    CHECK_MPI(MPI_Pack_external_c("external32", r, 2, t, buf, sizeof buf, &pos_c));
    CHECK(pos_c == 29 && memcmp(buf + 3, want, sizeof want) == 0, "pack_external_c");
    pos_c = 3;
    memset(rb, 0, sizeof rb);
    CHECK_MPI(MPI_Unpack_external_c("external32", buf, sizeof buf, &pos_c, rb, 2, t));
    CHECK(pos_c == 29 && rb[1].d == 0.5, "unpack_external_c");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&v));
}

static void errors(void)
{
    int x[4] = {0}, cls;
    char buf[16];
    MPI_Aint pos = 0, sz;
    int rc = MPI_Pack_external("native", x, 1, MPI_INT, buf, sizeof buf, &pos);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_ARG && strstr(msg, "datarep=\"native\""), "unknown datarep: %d %s", cls,
          msg);
    rc = MPI_Pack_external_size("external64", 1, MPI_INT, &sz);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "pack_external_size unknown datarep: %d", cls);
    rc = MPI_Unpack_external("xdr", buf, 16, &pos, x, 1, MPI_INT);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "unpack_external unknown datarep: %d", cls);
    pos = 12;
    rc = MPI_Pack_external("external32", x, 2, MPI_INT, buf, sizeof buf, &pos);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE && pos == 12, "pack_external past the end: %d", cls);
    pos = 0;
    rc = MPI_Unpack_external("external32", buf, 4, &pos, x, 2, MPI_INT);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "unpack_external past the end: %d", cls);
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    rc = MPI_Pack_external("external32", x, 1, t, buf, sizeof buf, &pos);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE, "pack_external uncommitted: %d", cls);
    CHECK_MPI(MPI_Pack_external_size("external32", 3, t, &sz));
    CHECK(sz == 24, "size of an uncommitted type %ld", (long)sz);
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    basic();
    round_trips();
    derived();
    errors();
    MPI_Finalize();
    return 0;
}
