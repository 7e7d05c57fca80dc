/* Datatype construction, one process: the size, bounds and true bounds of
 * every predefined type and of each constructor against values worked out
 * by hand (negative displacements, MPI_LB/MPI_UB markers, resized types as
 * building blocks, four levels of nesting, zero-length blocks), names,
 * envelope and contents, MPI_Get_count / MPI_Get_elements on a status, and
 * types kept alive by the types built from them after MPI_Type_free. */
#include <stddef.h>
#include <string.h>

#include "dt_expect.h"

static void expect_name(MPI_Datatype t, const char *name)
{
    char buf[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Type_get_name(t, buf, &len));
    CHECK(strcmp(buf, name) == 0 && len == (int)strlen(name), "name \"%s\" (%d), expected \"%s\"",
          buf, len, name);
}

static void predefined(void)
{
    static const struct {
        MPI_Datatype t;
        const char *name;
        long size, extent;
    } basic[] = {
        {MPI_CHAR, "MPI_CHAR", 1, 1},
        {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1},
        {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 1},
        {MPI_BYTE, "MPI_BYTE", 1, 1},
        {MPI_WCHAR, "MPI_WCHAR", 4, 4},
        {MPI_SHORT, "MPI_SHORT", 2, 2},
        {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", 2, 2},
        {MPI_INT, "MPI_INT", 4, 4},
        {MPI_UNSIGNED, "MPI_UNSIGNED", 4, 4},
        {MPI_LONG, "MPI_LONG", 8, 8},
        {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", 8, 8},
        {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", 8, 8},
        {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", 8, 8},
        {MPI_FLOAT, "MPI_FLOAT", 4, 4},
        {MPI_DOUBLE, "MPI_DOUBLE", 8, 8},
        {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 16, 16},
        {MPI_PACKED, "MPI_PACKED", 1, 1},
        {MPI_2INT, "MPI_2INT", 8, 8},
        {MPI_CHARACTER, "MPI_CHARACTER", 1, 1},
        {MPI_LOGICAL, "MPI_LOGICAL", 4, 4},
        {MPI_INTEGER, "MPI_INTEGER", 4, 4},
        {MPI_REAL, "MPI_REAL", 4, 4},
        {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 8},
        {MPI_COMPLEX, "MPI_COMPLEX", 8, 8},
        {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 16},
        {MPI_2INTEGER, "MPI_2INTEGER", 8, 8},
        {MPI_2REAL, "MPI_2REAL", 8, 8},
        {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 16},
        {MPI_INTEGER1, "MPI_INTEGER1", 1, 1},
        {MPI_INTEGER2, "MPI_INTEGER2", 2, 2},
        {MPI_INTEGER4, "MPI_INTEGER4", 4, 4},
        {MPI_INTEGER8, "MPI_INTEGER8", 8, 8},
        {MPI_REAL4, "MPI_REAL4", 4, 4},
        {MPI_REAL8, "MPI_REAL8", 8, 8},
        {MPI_REAL16, "MPI_REAL16", 16, 16},
        {MPI_COMPLEX8, "MPI_COMPLEX8", 8, 8},
        {MPI_COMPLEX16, "MPI_COMPLEX16", 16, 16},
        {MPI_COMPLEX32, "MPI_COMPLEX32", 32, 32},
        {MPI_INT8_T, "MPI_INT8_T", 1, 1},
        {MPI_INT16_T, "MPI_INT16_T", 2, 2},
        {MPI_INT32_T, "MPI_INT32_T", 4, 4},
        {MPI_INT64_T, "MPI_INT64_T", 8, 8},
        {MPI_UINT8_T, "MPI_UINT8_T", 1, 1},
        {MPI_UINT16_T, "MPI_UINT16_T", 2, 2},
        {MPI_UINT32_T, "MPI_UINT32_T", 4, 4},
        {MPI_UINT64_T, "MPI_UINT64_T", 8, 8},
        {MPI_C_BOOL, "MPI_C_BOOL", 1, 1},
        {MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX", 8, 8}, /* MPICH names the shared handle so */
        {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16, 16},
        {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 32, 32},
        {MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, 1},
        {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8, 8},
        {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16, 16},
        {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 32},
        {MPI_AINT, "MPI_AINT", 8, 8},
        {MPI_OFFSET, "MPI_OFFSET", 8, 8},
        {MPI_COUNT, "MPI_COUNT", 8, 8},
        {MPI_LB, "MPI_LB", 0, 0},
        {MPI_UB, "MPI_UB", 0, 0},
    };
    for (size_t i = 0; i < sizeof basic / sizeof basic[0]; i++) {
        expect_bounds(basic[i].t, basic[i].name, basic[i].size, 0, basic[i].extent, 0,
                      basic[i].extent);
        expect_name(basic[i].t, basic[i].name);
        int ni, na, nd, comb;
        CHECK_MPI(MPI_Type_get_envelope(basic[i].t, &ni, &na, &nd, &comb));
        CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "%s: envelope %d",
              basic[i].name, comb);
        /* predefined types need no commit, and committing them is harmless */
        MPI_Datatype t = basic[i].t;
        CHECK_MPI(MPI_Type_commit(&t));
        CHECK(t == basic[i].t, "%s: commit changed the handle", basic[i].name);
    }
    CHECK(MPI_LONG_LONG == MPI_LONG_LONG_INT && MPI_C_COMPLEX == MPI_C_FLOAT_COMPLEX, "aliases");

    /* the value-index pairs: C struct layouts */
    struct fi {
        float v;
        int i;
    };
    struct di {
        double v;
        int i;
    };
    struct li {
        long v;
        int i;
    };
    struct si {
        short v;
        int i;
    };
    struct ldi {
        long double v;
        int i;
    };
    expect_bounds(MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, 0, sizeof(struct fi), 0, 8);
    expect_bounds(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 12, 0, sizeof(struct di), 0, 12);
    expect_bounds(MPI_LONG_INT, "MPI_LONG_INT", 12, 0, sizeof(struct li), 0, 12);
    expect_bounds(MPI_SHORT_INT, "MPI_SHORT_INT", 6, 0, sizeof(struct si), 0,
                  (long)offsetof(struct si, i) + 4);
    expect_bounds(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", 20, 0, sizeof(struct ldi), 0, 20);
    expect_name(MPI_FLOAT_INT, "MPI_FLOAT_INT");
    expect_name(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
    expect_name(MPI_LONG_INT, "MPI_LONG_INT");
    expect_name(MPI_SHORT_INT, "MPI_SHORT_INT");
    expect_name(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT");
}

static void constructors(void)
{
    MPI_Datatype t, u, v, w, x;

    CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &t));
    expect_bounds(t, "contiguous(5, int)", 20, 0, 20, 0, 20);
    CHECK(t == (MPI_Datatype)0x8c000010 || (unsigned)t >> 26 == 0x23u,
          "a created datatype handle 0x%x", (unsigned)t);
    CHECK(((unsigned)t & 0x03ffffffu) >= 16u, "created handle 0x%x uses a reserved index",
          (unsigned)t);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free sets MPI_DATATYPE_NULL");

    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    expect_bounds(t, "vector(3,2,4,int)", 24, 0, 40, 0, 40);
    CHECK_MPI(MPI_Type_free(&t));

    /* negative stride: blocks at 0, -16, -32 bytes */
    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &t));
    expect_bounds(t, "vector(3,2,-4,int)", 24, -32, 40, -32, 40);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hvector(2, 3, 100, MPI_DOUBLE, &t));
    expect_bounds(t, "hvector(2,3,100,double)", 48, 0, 124, 0, 124);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_hvector(2, 3, 100, MPI_DOUBLE, &t));
    expect_bounds(t, "MPI-1 hvector", 48, 0, 124, 0, 124);
    CHECK_MPI(MPI_Type_free(&t));

    /* zero-length block at 100 ignored; a negative displacement */
    {
        int bl[3] = {2, 0, 1}, d[3] = {4, 100, -3};
        CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &t));
        expect_bounds(t, "indexed", 12, -12, 36, -12, 36);
        CHECK_MPI(MPI_Type_free(&t));
    }
    {
        int bl[2] = {1, 2};
        MPI_Aint d[2] = {-8, 16};
        CHECK_MPI(MPI_Type_create_hindexed(2, bl, d, MPI_DOUBLE, &t));
        expect_bounds(t, "hindexed", 24, -8, 40, -8, 40);
        CHECK_MPI(MPI_Type_free(&t));
        CHECK_MPI(MPI_Type_hindexed(2, bl, d, MPI_DOUBLE, &t));
        expect_bounds(t, "MPI-1 hindexed", 24, -8, 40, -8, 40);
        CHECK_MPI(MPI_Type_free(&t));
    }
    {
        int d[3] = {0, 5, 2};
        CHECK_MPI(MPI_Type_create_indexed_block(3, 2, d, MPI_SHORT, &t));
        expect_bounds(t, "indexed_block", 12, 0, 14, 0, 14);
        CHECK_MPI(MPI_Type_free(&t));
    }
    {
        /* MPI_DOUBLE_INT: extent 16, true extent 12 */
        MPI_Aint d[2] = {24, 0};
        CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, d, MPI_DOUBLE_INT, &t));
        expect_bounds(t, "hindexed_block of double_int", 24, 0, 40, 0, 36);
        CHECK_MPI(MPI_Type_free(&t));
    }

    /* structs: the extent is padded to the strictest alignment inside */
    {
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
        expect_bounds(t, "struct{int;double}", 12, 0, 16, 0, 16);
        CHECK_MPI(MPI_Type_free(&t));
        MPI_Datatype ty2[2] = {MPI_DOUBLE, MPI_CHAR};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty2, &t));
        expect_bounds(t, "struct{double;char}", 9, 0, 16, 0, 9);
        CHECK_MPI(MPI_Type_free(&t));
        MPI_Aint d3[2] = {0, 1};
        MPI_Datatype ty3[2] = {MPI_CHAR, MPI_CHAR};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d3, ty3, &t));
        expect_bounds(t, "struct{char;char}", 2, 0, 2, 0, 2);
        CHECK_MPI(MPI_Type_free(&t));
        CHECK_MPI(MPI_Type_struct(2, bl, d, ty, &t));
        expect_bounds(t, "MPI-1 struct", 12, 0, 16, 0, 16);
        CHECK_MPI(MPI_Type_free(&t));
    }
    /* explicit bounds with MPI_LB / MPI_UB markers: no padding */
    {
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3] = {-4, 0, 20};
        MPI_Datatype ty[3] = {MPI_LB, MPI_INT, MPI_UB};
        CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &t));
        expect_bounds(t, "struct{LB@-4;int;UB@20}", 4, -4, 24, 0, 4);
        /* the markers are sticky: a contiguous of it keeps them */
        CHECK_MPI(MPI_Type_contiguous(2, t, &u));
        expect_bounds(u, "contiguous(2, marked)", 8, -4, 48, 0, 28);
        CHECK_MPI(MPI_Type_free(&u));
        CHECK_MPI(MPI_Type_free(&t));
        /* a marker alone bounds only its side */
        MPI_Datatype ty2[2] = {MPI_INT, MPI_UB};
        MPI_Aint d2[2] = {0, 6};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d2, ty2, &t));
        expect_bounds(t, "struct{int;UB@6}", 4, 0, 6, 0, 4);
        CHECK_MPI(MPI_Type_free(&t));
    }

    /* resized as a building block */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -2, 10, &t));
    expect_bounds(t, "resized(int,-2,10)", 4, -2, 10, 0, 4);
    CHECK_MPI(MPI_Type_contiguous(3, t, &u));
    expect_bounds(u, "contiguous(3, resized)", 12, -2, 30, 0, 24);
    CHECK_MPI(MPI_Type_free(&u));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &t));
    CHECK_MPI(MPI_Type_vector(2, 2, 3, t, &u));
    expect_bounds(u, "vector(2,2,3,resized(int,0,8))", 16, 0, 40, 0, 36);
    {
        /* a resized type in a struct sets the struct's bounds: no padding */
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 16};
        MPI_Datatype ty[2] = {t, MPI_CHAR};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &v));
        expect_bounds(v, "struct{resized;char@16}", 5, 0, 8, 0, 17);
        CHECK_MPI(MPI_Type_free(&v));
    }
    CHECK_MPI(MPI_Type_free(&u));
    CHECK_MPI(MPI_Type_free(&t));

    /* four levels */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));     /* size 8, extent 12 */
    CHECK_MPI(MPI_Type_contiguous(3, t, &u));             /* size 24, extent 36 */
    CHECK_MPI(MPI_Type_create_hvector(2, 1, 100, u, &v)); /* size 48, extent 136 */
    {
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {8, 0};
        MPI_Datatype ty[2] = {v, MPI_CHAR};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &w));
    }
    expect_bounds(t, "level 1", 8, 0, 12, 0, 12);
    expect_bounds(u, "level 2", 24, 0, 36, 0, 36);
    expect_bounds(v, "level 3", 48, 0, 136, 0, 136);
    expect_bounds(w, "level 4", 49, 0, 144, 0, 144);
    CHECK_MPI(MPI_Type_dup(w, &x));
    expect_bounds(x, "dup of level 4", 49, 0, 144, 0, 144);
    MPI_Datatype all[5] = {t, u, v, w, x};
    for (int i = 0; i < 5; i++) CHECK_MPI(MPI_Type_free(&all[i]));

    /* zero-length everything */
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    expect_bounds(t, "contiguous(0)", 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_vector(0, 3, 5, MPI_DOUBLE, &t));
    expect_bounds(t, "vector(0,...)", 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_vector(4, 0, 5, MPI_DOUBLE, &t));
    expect_bounds(t, "vector(4,0,...)", 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_indexed(0, NULL, NULL, MPI_INT, &t));
    expect_bounds(t, "indexed(0)", 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Type_free(&t));
    {
        int bl[2] = {0, 1};
        MPI_Aint d[2] = {0, 4};
        MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_INT};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
        expect_bounds(t, "struct{0 x double; int@4}", 4, 4, 4, 4, 4);
        CHECK_MPI(MPI_Type_free(&t));
    }
}

static void names_and_contents(void)
{
    MPI_Datatype t, u, got[2];
    int ints[8], ni, na, nd, comb;
    MPI_Aint addrs[4];

    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    expect_name(t, "");
    CHECK_MPI(MPI_Type_set_name(t, "halo"));
    expect_name(t, "halo");
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1, "vector envelope");
    CHECK_MPI(MPI_Type_get_contents(t, 8, 4, 2, ints, addrs, got));
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && got[0] == MPI_INT, "vector contents");

    /* contents hands out old derived types as new references, even when
     * the user freed them already */
    CHECK_MPI(MPI_Type_contiguous(2, t, &u));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_get_envelope(u, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && nd == 1, "contiguous envelope");
    CHECK_MPI(MPI_Type_get_contents(u, 8, 4, 2, ints, addrs, got));
    CHECK(ints[0] == 2, "contiguous contents");
    int sz;
    CHECK_MPI(MPI_Type_size(got[0], &sz));
    CHECK(sz == 24, "old type from contents has size %d", sz);
    expect_name(got[0], "halo");
    CHECK_MPI(MPI_Type_free(&got[0]));
    CHECK_MPI(MPI_Type_commit(&u));
    CHECK_MPI(MPI_Type_size(u, &sz));
    CHECK(sz == 48, "contiguous(2, freed vector) size %d", sz);
    CHECK_MPI(MPI_Type_free(&u));

    /* struct and resized contents */
    {
        int bl[2] = {1, 3};
        MPI_Aint d[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
        CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
        CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2, "struct envelope");
        CHECK_MPI(MPI_Type_get_contents(t, 8, 4, 2, ints, addrs, got));
        CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 3 && addrs[0] == 0 && addrs[1] == 8 &&
                  got[0] == MPI_INT && got[1] == MPI_DOUBLE,
              "struct contents");
        CHECK_MPI(MPI_Type_create_resized(t, -8, 64, &u));
        CHECK_MPI(MPI_Type_get_envelope(u, &ni, &na, &nd, &comb));
        CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1, "resized envelope");
        CHECK_MPI(MPI_Type_get_contents(u, 8, 4, 2, ints, addrs, got));
        CHECK(addrs[0] == -8 && addrs[1] == 64 && got[0] == t, "resized contents");
        CHECK_MPI(MPI_Type_free(&got[0]));
        CHECK_MPI(MPI_Type_free(&u));
        CHECK_MPI(MPI_Type_free(&t));
    }

    /* predefined names can be changed (and come back at the next run) */
    CHECK_MPI(MPI_Type_set_name(MPI_FLOAT, "my float"));
    expect_name(MPI_FLOAT, "my float");
    CHECK_MPI(MPI_Type_set_name(MPI_FLOAT, "MPI_FLOAT"));

    /* addresses */
    int arr[4];
    MPI_Aint a0, a2;
    CHECK_MPI(MPI_Get_address(&arr[0], &a0));
    CHECK_MPI(MPI_Address(&arr[2], &a2));
    CHECK(a2 - a0 == 2 * (MPI_Aint)sizeof(int), "addresses differ by %ld", (long)(a2 - a0));
}

static void set_bytes(MPI_Status *s, size_t bytes)
{
    s->count_lo = (int)(bytes & 0xffffffffu);
    s->count_hi_and_cancelled = (int)((bytes >> 32) << 1);
}

static void expect_counts(MPI_Datatype t, size_t bytes, int count, long elements)
{
    MPI_Status s;
    int c, e;
    MPI_Count ex;
    memset(&s, 0, sizeof s);
    set_bytes(&s, bytes);
    CHECK_MPI(MPI_Get_count(&s, t, &c));
    CHECK_MPI(MPI_Get_elements(&s, t, &e));
    CHECK_MPI(MPI_Get_elements_x(&s, t, &ex));
    CHECK(c == count, "type 0x%x, %zu bytes: count %d, expected %d", (unsigned)t, bytes, c, count);
    CHECK(e == elements && ex == elements, "type 0x%x, %zu bytes: elements %d / %ld, expected %ld",
          (unsigned)t, bytes, e, (long)ex, elements);
}

static void counts(void)
{
    MPI_Datatype t, u;
    expect_counts(MPI_INT, 40, 10, 10);
    expect_counts(MPI_INT, 42, MPI_UNDEFINED, MPI_UNDEFINED);
    /* pairs are two basic elements each (the standard defines them as a
     * contiguous or a struct of two) */
    expect_counts(MPI_2INT, 16, 2, 4);
    expect_counts(MPI_2INT, 12, MPI_UNDEFINED, 3);
    expect_counts(MPI_DOUBLE_INT, 24, 2, 4);
    expect_counts(MPI_DOUBLE_INT, 20, MPI_UNDEFINED, 3);
    expect_counts(MPI_DOUBLE_INT, 14, MPI_UNDEFINED, MPI_UNDEFINED);
    expect_counts(MPI_SHORT_INT, 18, 3, 6);
    expect_counts(MPI_SHORT_INT, 8, MPI_UNDEFINED, 3);

    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t)); /* 6 ints */
    CHECK_MPI(MPI_Type_commit(&t));
    expect_counts(t, 48, 2, 12);
    expect_counts(t, 20, MPI_UNDEFINED, 5);
    expect_counts(t, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));

    {
        /* struct {int; double; char}: 3 elements, 13 bytes */
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3] = {0, 8, 16};
        MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        expect_counts(t, 26, 2, 6);
        expect_counts(t, 13 + 4, MPI_UNDEFINED, 4);
        expect_counts(t, 13 + 12, MPI_UNDEFINED, 5);
        expect_counts(t, 13 + 6, MPI_UNDEFINED, MPI_UNDEFINED); /* ends inside the double */
        /* nested: contiguous(2, struct) keeps counting inside */
        CHECK_MPI(MPI_Type_contiguous(2, t, &u));
        CHECK_MPI(MPI_Type_commit(&u));
        expect_counts(u, 26 + 13 + 12, MPI_UNDEFINED, 6 + 3 + 2);
        CHECK_MPI(MPI_Type_free(&u));
        CHECK_MPI(MPI_Type_free(&t));
    }
    /* large counts through the high bits of the status */
    CHECK_MPI(MPI_Type_contiguous(1024, MPI_BYTE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    {
        MPI_Status s;
        MPI_Count ex;
        int c;
        memset(&s, 0, sizeof s);
        set_bytes(&s, (size_t)5 << 32);
        CHECK_MPI(MPI_Get_elements_x(&s, t, &ex));
        CHECK(ex == (MPI_Count)5 << 32, "elements_x of 5 GiB: %ld", (long)ex);
        CHECK_MPI(MPI_Get_count(&s, t, &c));
        CHECK(c == (int)(((size_t)5 << 32) / 1024), "count of 5 GiB in KiB: %d", c);
        CHECK_MPI(MPI_Get_elements(&s, MPI_BYTE, &c));
        CHECK(c == MPI_UNDEFINED, "int elements of 5 GiB: %d", c);
    }
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    predefined();
    constructors();
    names_and_contents();
    counts();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
