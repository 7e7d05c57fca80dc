/* Lower and upper bounds, one process: MPI_LB / MPI_UB markers (MPI-1
 * MPI_Type_struct and MPI_Type_create_struct), markers made by resized
 * types, negative extents, lone markers, alignment padding of structs, and
 * members without data.  Values are those of the standard's typemap rules;
 * where MPICH 4.0.2 answers differently the comment says so (everywhere
 * else it answers the same: markers, negative extents and padding).  Packing a type of negative extent takes its
 * elements from successively lower addresses. */
#include <string.h>

#include "dt_expect.h"

/* {(LB, l), n x mid at m, (UB, u)} through the MPI-1 constructor */
static MPI_Datatype marked(MPI_Aint l, MPI_Datatype mid, int n, MPI_Aint m, MPI_Aint u)
{
    int bl[3] = {1, n, 1};
    MPI_Aint d[3] = {l, m, u};
    MPI_Datatype ty[3] = {MPI_LB, mid, MPI_UB}, t;
    CHECK_MPI(MPI_Type_struct(3, bl, d, ty, &t));
    return t;
}

static MPI_Datatype struct2(MPI_Datatype a, MPI_Aint da, MPI_Datatype b, MPI_Aint db)
{
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {da, db};
    MPI_Datatype ty[2] = {a, b}, t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
    return t;
}

static void check_free(MPI_Datatype t, const char *what, long size, long lb, long extent, long tlb,
                       long textent)
{
    expect_bounds(t, what, size, lb, extent, tlb, textent);
    CHECK_MPI(MPI_Type_free(&t));
}

/* 4 bytes at 0 between markers at -3 and 6 (extent 9), and the same with
 * the markers swapped (extent -9), built on by every constructor */
static void markers(void)
{
    MPI_Datatype p = marked(-3, MPI_BYTE, 4, 0, 6), n = marked(6, MPI_BYTE, 4, 0, -3), t;
    expect_bounds(p, "{LB@-3, 4 bytes, UB@6}", 4, -3, 9, 0, 4);
    expect_bounds(n, "{LB@6, 4 bytes, UB@-3}", 4, 6, -9, 0, 4);

    CHECK_MPI(MPI_Type_contiguous(3, p, &t));
    check_free(t, "contiguous(3, p)", 12, -3, 27, 0, 22);
    /* copies at 0, -9, -18: the least LB marker is -12, the greatest UB -3 */
    CHECK_MPI(MPI_Type_contiguous(3, n, &t));
    check_free(t, "contiguous(3, n)", 12, -12, 9, -18, 22);
    CHECK_MPI(MPI_Type_vector(3, 1, 1, p, &t));
    check_free(t, "vector(3,1,1,p)", 12, -3, 27, 0, 22);
    CHECK_MPI(MPI_Type_vector(3, 4, 1, p, &t));
    check_free(t, "vector(3,4,1,p)", 48, -3, 54, 0, 49);
    CHECK_MPI(MPI_Type_vector(3, 4, 5, p, &t));
    check_free(t, "vector(3,4,5,p)", 48, -3, 126, 0, 121);
    CHECK_MPI(MPI_Type_vector(3, 4, -5, p, &t));
    check_free(t, "vector(3,4,-5,p)", 48, -93, 126, -90, 121);
    CHECK_MPI(MPI_Type_vector(3, 4, 5, n, &t));
    check_free(t, "vector(3,4,5,n)", 48, -111, 108, -117, 121);
    CHECK_MPI(MPI_Type_vector(3, 4, -5, n, &t));
    check_free(t, "vector(3,4,-5,n)", 48, -21, 108, -27, 121);
    CHECK_MPI(MPI_Type_create_hvector(3, 2, -20, n, &t));
    check_free(t, "hvector(3,2,-20,n)", 24, -43, 40, -49, 53);
    {
        int bl[2] = {2, 1}, d[2] = {5, -2};
        CHECK_MPI(MPI_Type_indexed(2, bl, d, n, &t));
        check_free(t, "indexed({2,1},{5,-2},n)", 12, -48, 63, -54, 76);
        CHECK_MPI(MPI_Type_indexed(2, bl, d, p, &t));
        check_free(t, "indexed({2,1},{5,-2},p)", 12, -21, 81, -18, 76);
    }
    /* a dup keeps the markers, a resized type replaces them */
    CHECK_MPI(MPI_Type_dup(n, &t));
    check_free(t, "dup(n)", 4, 6, -9, 0, 4);
    CHECK_MPI(MPI_Type_create_resized(p, 2, 20, &t));
    check_free(t, "resized(p, 2, 20)", 4, 2, 20, 0, 4);

    /* packing count 3 of n: element k is at -9 k */
    {
        char buf[40], out[12];
        for (int i = 0; i < 40; i++) buf[i] = (char)i;
        int pos = 0;
        CHECK_MPI(MPI_Type_commit(&n));
        CHECK_MPI(MPI_Pack(buf + 20, 3, n, out, sizeof out, &pos, MPI_COMM_WORLD));
        static const char want[12] = {20, 21, 22, 23, 11, 12, 13, 14, 2, 3, 4, 5};
        CHECK(pos == 12 && memcmp(out, want, 12) == 0, "pack of a negative extent type");
        memset(buf, 0, sizeof buf);
        pos = 0;
        CHECK_MPI(MPI_Unpack(want, 12, &pos, buf + 20, 3, n, MPI_COMM_WORLD));
        for (int i = 0; i < 40; i++) {
            int in = (i >= 20 && i < 24) || (i >= 11 && i < 15) || (i >= 2 && i < 6);
            CHECK(buf[i] == (in ? i : 0), "unpack of a negative extent type: byte %d is %d", i,
                  buf[i]);
        }
    }
    CHECK_MPI(MPI_Type_free(&p));
    CHECK_MPI(MPI_Type_free(&n));
}

/* A marker alone, or a marker and data on the wrong side of each other;
 * a bound with neither a marker nor data is 0. */
static void lone_markers(void)
{
    int bl = 1;
    MPI_Aint d = 10;
    MPI_Datatype lb = MPI_LB, ub = MPI_UB, t;
    CHECK_MPI(MPI_Type_create_struct(1, &bl, &d, &lb, &t));
    check_free(t, "{(LB,10)}", 0, 10, -10, 0, 0);
    CHECK_MPI(MPI_Type_create_struct(1, &bl, &d, &ub, &t));
    check_free(t, "{(UB,10)}", 0, 0, 10, 0, 0);
    check_free(struct2(MPI_LB, -4, MPI_UB, 12), "{(LB,-4),(UB,12)}", 0, -4, 16, 0, 0);
    check_free(struct2(MPI_INT, 4, MPI_UB, -4), "{int@4, UB@-4}", 4, 4, -8, 4, 4);
    check_free(struct2(MPI_LB, 8, MPI_INT, 0), "{LB@8, int@0}", 4, 8, -4, 0, 4);
    /* a marker on one side suppresses the alignment padding (as MPICH) */
    check_free(struct2(MPI_LB, -1, MPI_DOUBLE, 0), "{LB@-1, double@0}", 8, -1, 9, 0, 8);
    check_free(struct2(MPI_DOUBLE, 0, MPI_UB, 9), "{double@0, UB@9}", 8, 0, 9, 0, 8);
    /* a zero-size type of markers used as a building block keeps them
     * (MPICH 4.0.2 gives extent 0 here) */
    MPI_Datatype m = struct2(MPI_LB, -4, MPI_UB, 12);
    CHECK_MPI(MPI_Type_contiguous(2, m, &t));
    check_free(t, "contiguous(2, {(LB,-4),(UB,12)})", 0, -4, 32, 0, 0);
    CHECK_MPI(MPI_Type_commit(&m));
    int psize;
    CHECK_MPI(MPI_Pack_size(5, m, MPI_COMM_WORLD, &psize));
    CHECK(psize == 0, "pack size of a type of markers only: %d", psize);
    CHECK_MPI(MPI_Type_free(&m));
}

/* The bounds of a resized type are markers too: inside a struct they win
 * over data beyond them (MPI 4.1 sec. 5.1.7: resizing "affects the
 * behavior ... when used in the construction of new derived datatypes").
 * MPICH 4.0.2 ignores them there (extents 48 and 24 below). */
static void resized_markers(void)
{
    MPI_Datatype p = marked(-3, MPI_BYTE, 4, 0, 6), r, t;
    CHECK_MPI(MPI_Type_create_resized(p, 2, 20, &r));
    check_free(struct2(r, 0, MPI_DOUBLE, 40), "{resized(p,2,20)@0, double@40}", 12, 2, 20, 0, 48);
    CHECK_MPI(MPI_Type_free(&r));
    CHECK_MPI(MPI_Type_create_resized(MPI_CHAR, -5, 3, &r));
    check_free(struct2(r, 1, MPI_DOUBLE, 8), "{resized(char,-5,3)@1, double@8}", 9, -4, 3, 1, 15);
    /* a negative extent from resized, used by contiguous */
    CHECK_MPI(MPI_Type_free(&r));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 8, -8, &r));
    expect_bounds(r, "resized(int, 8, -8)", 4, 8, -8, 0, 4);
    CHECK_MPI(MPI_Type_contiguous(3, r, &t));
    check_free(t, "contiguous(3, resized(int,8,-8))", 12, -8, 8, -16, 20);
    CHECK_MPI(MPI_Type_free(&r));
    /* subarray and darray are resized to the whole array: markers at 0 and
     * there, whatever the old type's own bounds */
    int sizes[2] = {4, 5}, sub[2] = {2, 2}, st[2] = {1, 3};
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &r));
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, r, &t));
    /* elements (1,3) (1,4) (2,3) (2,4): at 12 * {8, 9, 13, 14} */
    expect_bounds(t, "subarray of resized(int,-4,12)", 16, 0, 240, 96, 76);
    MPI_Datatype s = struct2(t, 0, MPI_CHAR, 500);
    check_free(s, "{subarray@0, char@500}", 17, 0, 240, 96, 405);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&r));
    CHECK_MPI(MPI_Type_free(&p));
}

/* A struct without markers is padded to its strictest alignment. */
static void padding(void)
{
    MPI_Datatype v, w, t;
    check_free(struct2(MPI_DOUBLE, 0, MPI_CHAR, 8), "{double, char@8}", 9, 0, 16, 0, 9);
    check_free(struct2(MPI_CHAR, 0, MPI_SHORT, 4), "{char, short@4}", 3, 0, 6, 0, 6);
    check_free(struct2(MPI_CHAR, 0, MPI_LONG_DOUBLE, 16), "{char, long double@16}", 17, 0, 32, 0,
               32);
    check_free(struct2(MPI_CHAR, -3, MPI_INT, 4), "{char@-3, int@4}", 5, -3, 12, -3, 11);
    check_free(struct2(MPI_DOUBLE_INT, 0, MPI_CHAR, 12), "{double_int, char@12}", 13, 0, 16, 0, 13);
    /* the alignment of a derived member is that of its basic types */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &v));
    check_free(struct2(MPI_CHAR, 0, v, 8), "{char, vector of double@8}", 17, 0, 32, 0, 32);
    w = struct2(MPI_DOUBLE, 0, MPI_CHAR, 8);
    check_free(struct2(w, 0, MPI_CHAR, 16), "{{double, char}, char@16}", 10, 0, 24, 0, 17);
    /* only structs pad: the padding of a member carries over, nothing more */
    CHECK_MPI(MPI_Type_contiguous(2, w, &t));
    check_free(t, "contiguous(2, {double, char})", 18, 0, 32, 0, 25);
    MPI_Aint d[2] = {0, 8};
    int bl[2] = {1, 1};
    CHECK_MPI(MPI_Type_create_hindexed(2, bl, d, MPI_CHAR, &t));
    check_free(t, "hindexed(char @0 @8)", 2, 0, 9, 0, 9);
    CHECK_MPI(MPI_Type_create_hvector(2, 1, 9, MPI_DOUBLE, &t));
    check_free(t, "hvector(2,1,9,double)", 16, 0, 17, 0, 17);
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_free(&w));
}

/* Members without data (zero block lengths, zero counts, empty types) have
 * an empty typemap: they neither move the bounds nor add padding.  (MPICH
 * 4.0.2 counts the displacements of some of them.) */
static void no_data(void)
{
    MPI_Datatype z, t;
    int id[3] = {1, 2, 3};
    MPI_Aint ad[3] = {8, 16, 24};
    CHECK_MPI(MPI_Type_contiguous(0, MPI_DOUBLE, &z));
    check_free(struct2(z, 100, MPI_INT, 4), "{contiguous(0)@100, int@4}", 4, 4, 4, 4, 4);
    {
        int bl[3] = {1, 2, 0};
        MPI_Aint d[3] = {0, 50, 100};
        MPI_Datatype ty[3] = {MPI_INT, z, MPI_DOUBLE};
        CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &t));
        check_free(t, "{int, 2 x empty@50, 0 x double@100}", 4, 0, 4, 0, 4);
    }
    CHECK_MPI(MPI_Type_create_indexed_block(3, 0, id, MPI_INT, &t));
    check_free(t, "indexed_block(3, 0, ...)", 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 0, ad, MPI_INT, &t));
    check_free(t, "hindexed_block(3, 0, ...)", 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_create_hvector(3, 0, 8, MPI_INT, &t));
    check_free(t, "hvector(3, 0, 8)", 0, 0, 0, 0, 0);
    {
        int bl[3] = {0, 0, 0};
        MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        CHECK_MPI(MPI_Type_create_struct(3, bl, ad, ty, &t));
        check_free(t, "struct of zero block lengths", 0, 0, 0, 0, 0);
        CHECK_MPI(MPI_Type_create_struct(0, bl, ad, ty, &t));
        check_free(t, "struct(0)", 0, 0, 0, 0, 0);
    }
    /* hvectors of 0, 1 and 2 ints in one struct (commit and use) */
    {
        MPI_Datatype h[3];
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3] = {0, -100, -200};
        for (int i = 0; i < 3; i++) CHECK_MPI(MPI_Type_create_hvector(i, 1, 5, MPI_INT, &h[i]));
        CHECK_MPI(MPI_Type_create_struct(3, bl, d, h, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        expect_bounds(t, "{hvector(0)@0, hvector(1)@-100, hvector(2)@-200}", 12, -200, 104, -200,
                      104);
        for (int i = 0; i < 3; i++) CHECK_MPI(MPI_Type_free(&h[i]));
        CHECK_MPI(MPI_Type_free(&t));
    }
    CHECK_MPI(MPI_Type_commit(&z));
    MPI_Status st;
    int count;
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, 0, 0, NULL, 3, z, 0, 0, MPI_COMM_SELF, &st));
    CHECK_MPI(MPI_Get_count(&st, z, &count));
    CHECK(count == 0, "a count of a zero-size type is 0 (MPI 4.1 sec. 3.2.5): %d", count);
    CHECK_MPI(MPI_Type_free(&z));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    markers();
    lone_markers();
    resized_markers();
    padding();
    no_data();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
