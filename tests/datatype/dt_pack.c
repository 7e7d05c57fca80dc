/* MPI_Pack / MPI_Unpack, one process: every constructor, nested types,
 * negative displacements, markers, pair types and counts up to millions
 * of elements, each against the reference model of dt_ref.h: packing
 * gathers exactly the typemap's bytes in order, unpacking writes exactly
 * them and nothing else, and packing into the middle of a buffer honours
 * 'position'. */
#include "dt_ref.h"

static void check_type(const rtype *t, int count, const char *what)
{
    int psize, pos = 0;
    CHECK_MPI(MPI_Pack_size(count, t->h, MPI_COMM_WORLD, &psize));
    size_t bytes = 0;
    for (long e = 0; e < t->n; e++) bytes += (size_t)t->len[e];
    bytes *= (size_t)count;
    CHECK((size_t)psize == bytes, "%s x %d: MPI_Pack_size %d, typemap holds %zu", what, count,
          psize, bytes);

    rbuf src = rb_alloc(t, count, 64), dst = rb_alloc(t, count, 64), ref = rb_alloc(t, count, 64);
    rb_fill(&src, 1);
    char *want = rt_xalloc(bytes + 16), *got = rt_xalloc(bytes + 16);
    rt_pack(t, src.base, count, want);

    /* pack at an offset inside a larger buffer */
    memset(got, 0x5a, bytes + 16);
    pos = 8;
    CHECK_MPI(MPI_Pack(src.base, count, t->h, got, psize + 16, &pos, MPI_COMM_WORLD));
    CHECK(pos == psize + 8, "%s x %d: position %d after packing %d bytes from 8", what, count, pos,
          psize);
    CHECK(memcmp(got + 8, want, bytes) == 0, "%s x %d: packed bytes differ from the typemap", what,
          count);
    for (int i = 0; i < 8; i++)
        CHECK(got[i] == 0x5a && got[bytes + 8 + (size_t)i] == 0x5a,
              "%s x %d: MPI_Pack wrote outside its range", what, count);

    /* unpack: exactly the typemap's bytes change */
    memset(dst.mem, 0, dst.bytes);
    memset(ref.mem, 0, ref.bytes);
    rt_unpack(t, ref.base, count, want);
    pos = 8;
    CHECK_MPI(MPI_Unpack(got, psize + 16, &pos, dst.base, count, t->h, MPI_COMM_WORLD));
    CHECK(pos == psize + 8, "%s x %d: position %d after unpacking", what, count, pos);
    CHECK(memcmp(dst.mem, ref.mem, dst.bytes) == 0, "%s x %d: unpacked memory differs", what,
          count);

    free(want);
    free(got);
    free(src.mem);
    free(dst.mem);
    free(ref.mem);
}

static void check_counts(rtype *t, const char *what)
{
    CHECK_MPI(MPI_Type_commit(&t->h));
    static const int counts[] = {0, 1, 2, 3, 17};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) check_type(t, counts[i], what);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));

    rtype i32 = rt_basic(MPI_INT), f64 = rt_basic(MPI_DOUBLE), ch = rt_basic(MPI_CHAR);
    rtype sh = rt_basic(MPI_SHORT), di = rt_basic(MPI_DOUBLE_INT), si = rt_basic(MPI_SHORT_INT);
    rtype ldi = rt_basic(MPI_LONG_DOUBLE_INT), lb = rt_basic(MPI_LB), ub = rt_basic(MPI_UB);

    /* predefined, the pair types included */
    rtype *pre[] = {&i32, &f64, &ch, &sh, &di, &si, &ldi};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) check_counts(pre[i], "predefined");

    rtype t;
    t = rt_contiguous(5, &i32);
    check_counts(&t, "contiguous(5,int)");
    rt_free(&t);
    t = rt_contiguous(3, &si);
    check_counts(&t, "contiguous(3,short_int)");
    rt_free(&t);
    t = rt_vector(3, 2, 4, &i32);
    check_counts(&t, "vector(3,2,4,int)");
    rt_free(&t);
    t = rt_vector(4, 1, -3, &f64);
    check_counts(&t, "vector(4,1,-3,double)");
    rt_free(&t);
    t = rt_vector(5, 3, 3, &sh); /* stride == blocklength: contiguous */
    check_counts(&t, "vector(5,3,3,short)");
    rt_free(&t);
    t = rt_vector(3, 2, 1, &i32); /* overlapping blocks */
    check_counts(&t, "vector(3,2,1,int) overlapping");
    rt_free(&t);
    t = rt_hvector(3, 2, 27, &ch);
    check_counts(&t, "hvector(3,2,27,char)");
    rt_free(&t);
    t = rt_hvector(2, 2, 40, &di);
    check_counts(&t, "hvector(2,2,40,double_int)");
    rt_free(&t);
    {
        int bl[4] = {2, 0, 1, 3}, d[4] = {4, 100, -3, 9};
        t = rt_indexed(4, bl, d, &i32);
        check_counts(&t, "indexed with zero block and negative displacement");
        rt_free(&t);
        int bl2[4] = {1, 1, 1, 1}, d2[4] = {0, 3, 6, 9}; /* really a vector */
        t = rt_indexed(4, bl2, d2, &f64);
        check_counts(&t, "indexed regular");
        rt_free(&t);
    }
    {
        int bl[3] = {1, 2, 1};
        MPI_Aint d[3] = {-8, 16, 3};
        t = rt_hindexed(3, bl, d, &sh);
        check_counts(&t, "hindexed");
        rt_free(&t);
        MPI_Aint d2[3] = {40, 0, 20};
        t = rt_hindexed_block(3, 2, d2, &si);
        check_counts(&t, "hindexed_block of short_int");
        rt_free(&t);
        int d3[3] = {6, 0, 3};
        t = rt_indexed_block(3, 2, d3, &i32);
        check_counts(&t, "indexed_block");
        rt_free(&t);
    }
    {
        int bl[4] = {1, 2, 1, 3};
        MPI_Aint d[4] = {0, 8, 24, 27};
        const rtype *ty[4] = {&i32, &f64, &ch, &sh};
        t = rt_struct(4, bl, d, ty);
        check_counts(&t, "struct{int;2 double;char;3 short}");
        rt_free(&t);
        int bl2[3] = {1, 1, 1};
        MPI_Aint d2[3] = {-4, 0, 20};
        const rtype *ty2[3] = {&lb, &i32, &ub};
        t = rt_struct(3, bl2, d2, ty2);
        check_counts(&t, "struct with LB/UB markers");
        rt_free(&t);
    }
    {
        rtype r = rt_resized(&i32, -4, 12), c = rt_contiguous(3, &r), v = rt_vector(2, 2, 3, &r);
        check_counts(&r, "resized(int,-4,12)");
        check_counts(&c, "contiguous(3,resized)");
        check_counts(&v, "vector(2,2,3,resized)");
        rt_free(&v);
        rt_free(&c);
        rt_free(&r);
    }
    {
        /* four levels, then a dup of it */
        rtype a = rt_vector(2, 1, 2, &i32), b = rt_contiguous(3, &a), c = rt_hvector(2, 1, 100, &b);
        int bl[2] = {1, 2};
        MPI_Aint d[2] = {8, 0};
        const rtype *ty[2] = {&c, &ch};
        rtype s = rt_struct(2, bl, d, ty), du = rt_dup(&s);
        check_counts(&s, "four levels");
        check_counts(&du, "dup of four levels");
        rtype *all[] = {&du, &s, &c, &b, &a};
        for (int i = 0; i < 5; i++) rt_free(all[i]);
    }
    {
        /* zero-length types */
        rtype z = rt_contiguous(0, &i32), zv = rt_vector(3, 0, 2, &f64);
        check_counts(&z, "contiguous(0)");
        check_counts(&zv, "vector(3,0,2)");
        rt_free(&z);
        rt_free(&zv);
    }
    {
        /* millions of elements: a vector and a contiguous run of a
         * non-contiguous type */
        rtype v = rt_vector(1, 1, 2, &i32), r = rt_resized(&v, 0, 8);
        CHECK_MPI(MPI_Type_commit(&r.h));
        check_type(&r, 2000000, "2M x resized(int,0,8)");
        rtype big = rt_vector(1000000, 1, 3, &f64);
        CHECK_MPI(MPI_Type_commit(&big.h));
        check_type(&big, 2, "2 x vector(1M,1,3,double)");
        rt_free(&big);
        rt_free(&r);
        rt_free(&v);
    }

    rtype *basics[] = {&i32, &f64, &ch, &sh, &di, &si, &ldi, &lb, &ub};
    for (size_t i = 0; i < sizeof basics / sizeof basics[0]; i++) rt_free(basics[i]);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
