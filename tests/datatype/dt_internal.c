/* The datatype engine's internal interface, one process.  This program is
 * linked with the library's sources (not with libmpi.so, which hides
 * them), so it can call what point-to-point and the collectives call:
 *
 *   - tern_dt_pack / tern_dt_unpack of any byte range: pieces of 1, 7 and
 *     64 bytes, starting at every offset, give what one call gives;
 *   - tern_dt_copy between different layouts of one type signature, whole
 *     and cut short;
 *   - the compiled layout stays small (a vector of a million elements is
 *     one block), contig and basic/basic_count are right;
 *   - a type freed by the user lives on while a reference is pending. */
#include "core/handle.h"
#include "datatype/dt_internal.h"
#include "dt_ref.h"

static struct tern_datatype *dt_of(MPI_Datatype h)
{
    struct tern_datatype *dt = tern_dt_get(h);
    CHECK(dt != NULL, "tern_dt_get(0x%x) is NULL", (unsigned)h);
    return dt;
}

/* Pieces of the packed stream at every offset equal one whole pack; the
 * same for unpack. */
static void pieces(const rtype *t, int count, const char *what)
{
    struct tern_datatype *dt = dt_of(t->h);
    size_t total = (size_t)count * dt->size;
    rbuf src = rb_alloc(t, count, 32), one = rb_alloc(t, count, 32), part = rb_alloc(t, count, 32);
    rb_fill(&src, 3);
    char *whole = rt_xalloc(total + 1), *got = rt_xalloc(total + 1), *ref = rt_xalloc(total + 1);
    CHECK(tern_dt_pack(dt, src.base, (size_t)count, 0, whole, total + 100) == total,
          "%s: whole pack length", what);
    CHECK(rt_pack(t, src.base, count, ref) == total && memcmp(whole, ref, total) == 0,
          "%s: whole pack differs from the typemap", what);
    CHECK(tern_dt_pack(dt, src.base, (size_t)count, total, got, 5) == 0,
          "%s: pack past the end copied something", what);

    memset(one.mem, 0, one.bytes);
    CHECK(tern_dt_unpack(dt, one.base, (size_t)count, 0, whole, total) == total,
          "%s: whole unpack length", what);

    static const size_t piece[3] = {1, 7, 64};
    for (int p = 0; p < 3; p++) {
        size_t P = piece[p];
        /* every start offset: [s, s + P) */
        for (size_t s = 0; s < total; s++) {
            size_t want = total - s < P ? total - s : P;
            memset(got, 0, P < total + 1 ? P : total + 1);
            size_t n = tern_dt_pack(dt, src.base, (size_t)count, s, got, P);
            CHECK(n == want && memcmp(got, whole + s, n) == 0,
                  "%s: pack of [%zu, +%zu) gave %zu bytes or wrong ones", what, s, P, n);
        }
        /* every phase: [0, s0) then pieces of P from s0, for pack and unpack */
        for (size_t s0 = 0; s0 < P && s0 <= total; s0++) {
            memset(got, 0, total + 1);
            memset(part.mem, 0, part.bytes);
            size_t n = tern_dt_pack(dt, src.base, (size_t)count, 0, got, s0);
            tern_dt_unpack(dt, part.base, (size_t)count, 0, whole, s0);
            for (size_t off = s0; off < total; off += P) {
                n += tern_dt_pack(dt, src.base, (size_t)count, off, got + off, P);
                tern_dt_unpack(dt, part.base, (size_t)count, off, whole + off,
                               total - off < P ? total - off : P);
            }
            CHECK(n == total && memcmp(got, whole, total) == 0,
                  "%s: pack in pieces of %zu from %zu differs", what, P, s0);
            CHECK(memcmp(part.mem, one.mem, one.bytes) == 0,
                  "%s: unpack in pieces of %zu from %zu differs", what, P, s0);
            if (total > 4096) break; /* big types: a few phases are enough */
        }
    }
    free(whole);
    free(got);
    free(ref);
    free(src.mem);
    free(one.mem);
    free(part.mem);
}

/* tern_dt_copy from (a, ca) to (b, cb), against pack + unpack */
static void copy_between(const rtype *a, int ca, const rtype *b, int cb, const char *what)
{
    struct tern_datatype *da = dt_of(a->h), *db = dt_of(b->h);
    size_t sa = (size_t)ca * da->size, sb = (size_t)cb * db->size, n = sa < sb ? sa : sb;
    rbuf src = rb_alloc(a, ca, 16), dst = rb_alloc(b, cb, 16), ref = rb_alloc(b, cb, 16);
    rb_fill(&src, 9);
    memset(dst.mem, 0, dst.bytes);
    memset(ref.mem, 0, ref.bytes);
    char *tmp = rt_xalloc(sa + 1);
    tern_dt_pack(da, src.base, (size_t)ca, 0, tmp, sa);
    tern_dt_unpack(db, ref.base, (size_t)cb, 0, tmp, n);
    size_t got = tern_dt_copy(src.base, (size_t)ca, da, dst.base, (size_t)cb, db);
    CHECK(got == n, "%s: copied %zu bytes, expected %zu", what, got, n);
    CHECK(memcmp(dst.mem, ref.mem, dst.bytes) == 0, "%s: copy differs from pack+unpack", what);
    free(tmp);
    free(src.mem);
    free(dst.mem);
    free(ref.mem);
}

static void commit(rtype *t) { CHECK_MPI(MPI_Type_commit(&t->h)); }

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));

    rtype i32 = rt_basic(MPI_INT), f64 = rt_basic(MPI_DOUBLE), ch = rt_basic(MPI_CHAR);
    rtype si = rt_basic(MPI_SHORT_INT), di = rt_basic(MPI_DOUBLE_INT);

    /* ---- pieces ---- */
    pieces(&i32, 10, "int x 10");
    pieces(&si, 9, "short_int x 9");
    pieces(&di, 5, "double_int x 5");
    rtype v = rt_vector(3, 2, 4, &i32);
    commit(&v);
    pieces(&v, 4, "vector(3,2,4,int) x 4");
    rtype hv = rt_hvector(4, 3, -11, &ch);
    commit(&hv);
    pieces(&hv, 3, "hvector(4,3,-11,char) x 3");
    rtype r = rt_resized(&i32, 0, 12), cr = rt_contiguous(5, &r);
    commit(&r);
    commit(&cr);
    pieces(&r, 7, "resized(int,0,12) x 7");
    pieces(&cr, 3, "contiguous(5,resized) x 3");
    int bl[4] = {2, 0, 1, 3}, d[4] = {4, 100, -3, 9};
    rtype ix = rt_indexed(4, bl, d, &f64);
    commit(&ix);
    pieces(&ix, 3, "indexed(double) x 3");
    int sbl[3] = {1, 2, 3};
    MPI_Aint sd[3] = {0, 8, 30};
    const rtype *sty[3] = {&i32, &f64, &si};
    rtype st = rt_struct(3, sbl, sd, sty);
    commit(&st);
    pieces(&st, 4, "struct{int;2 double;3 short_int} x 4");
    rtype vs = rt_vector(2, 2, 3, &st); /* nested, non-contiguous all the way */
    commit(&vs);
    pieces(&vs, 2, "vector of struct x 2");
    rtype big = rt_vector(3000, 1, 2, &f64);
    commit(&big);
    pieces(&big, 1, "vector(3000,1,2,double)");

    /* ---- copies between layouts of one signature (6 ints) ---- */
    rtype c6 = rt_contiguous(6, &i32), v6 = rt_vector(3, 2, 4, &i32);
    int ibl[3] = {1, 4, 1}, idp[3] = {10, 0, -5};
    rtype x6 = rt_indexed(3, ibl, idp, &i32);
    rtype r1 = rt_resized(&i32, 0, 8);
    commit(&c6);
    commit(&v6);
    commit(&x6);
    commit(&r1);
    copy_between(&v6, 2, &x6, 2, "vector -> indexed");
    copy_between(&x6, 2, &v6, 2, "indexed -> vector");
    copy_between(&v6, 2, &c6, 2, "vector -> contiguous");
    copy_between(&c6, 2, &x6, 2, "contiguous -> indexed");
    copy_between(&v6, 3, &r1, 18, "vector -> resized ints");
    copy_between(&r1, 12, &x6, 3, "resized ints -> indexed, cut short by the sender");
    copy_between(&x6, 3, &v6, 1, "indexed -> vector, cut short by the receiver");
    copy_between(&st, 3, &st, 3, "struct -> same struct");

    /* ---- layout, contig, basic ---- */
    {
        MPI_Datatype h;
        CHECK_MPI(MPI_Type_vector(1000000, 1, 2, MPI_INT, &h));
        CHECK_MPI(MPI_Type_commit(&h));
        const struct tern_dt_layout *L = dt_of(h)->layout;
        CHECK(L->nblocks == 1 && L->nlevels == 1 && L->level[0].count == 1000000 &&
                  L->level[0].stride == 8,
              "vector(1M,1,2,int) layout: %zu blocks, %d levels", L->nblocks, L->nlevels);
        CHECK(dt_of(h)->basic == MPI_INT && dt_of(h)->basic_count == 1000000 && !dt_of(h)->contig,
              "vector(1M) basic");
        CHECK_MPI(MPI_Type_free(&h));
        CHECK_MPI(MPI_Type_contiguous(1000000, MPI_INT, &h));
        CHECK_MPI(MPI_Type_commit(&h));
        L = dt_of(h)->layout;
        CHECK(dt_of(h)->contig && L->nblocks == 1 && L->blocks[0].len == 4000000,
              "contiguous(1M, int): contig %d, %zu blocks", dt_of(h)->contig, L->nblocks);
        CHECK_MPI(MPI_Type_free(&h));
        CHECK_MPI(MPI_Type_vector(5, 3, 3, MPI_INT, &h)); /* stride == blocklength */
        CHECK_MPI(MPI_Type_commit(&h));
        CHECK(dt_of(h)->contig, "vector(5,3,3) is contiguous");
        CHECK_MPI(MPI_Type_free(&h));
        int rbl[4] = {1, 1, 1, 1}, rd[4] = {0, 5, 10, 15};
        CHECK_MPI(MPI_Type_indexed(4, rbl, rd, MPI_DOUBLE, &h));
        CHECK_MPI(MPI_Type_commit(&h));
        L = dt_of(h)->layout;
        CHECK(L->nblocks == 1 && L->nlevels == 1 && L->level[0].count == 4 &&
                  L->level[0].stride == 40,
              "regular indexed: %zu blocks, %d levels", L->nblocks, L->nlevels);
        CHECK_MPI(MPI_Type_free(&h));
        /* a contiguous run of a vector is the vector's nest, one level more */
        CHECK_MPI(MPI_Type_contiguous(100000, v.h, &h));
        CHECK_MPI(MPI_Type_commit(&h));
        L = dt_of(h)->layout;
        CHECK(L->nblocks == 1 && L->nlevels == 2 && L->level[1].count == 100000,
              "contiguous of vector: %zu blocks, %d levels", L->nblocks, L->nlevels);
        CHECK_MPI(MPI_Type_free(&h));
        /* nesting costs nothing per element: a vector of 2^24 bytes wrapped
         * in a contiguous, an hvector of hvectors, a struct of one vector */
        MPI_Datatype bv, w1, w2, w3;
        int one = 1;
        MPI_Aint zero = 0;
        CHECK_MPI(MPI_Type_vector(1 << 24, 1, 2, MPI_BYTE, &bv));
        CHECK_MPI(MPI_Type_contiguous(1, bv, &w1));
        CHECK_MPI(MPI_Type_create_hvector(3, 1, (MPI_Aint)1 << 26, bv, &w2));
        CHECK_MPI(MPI_Type_create_struct(1, &one, &zero, &bv, &w3));
        MPI_Datatype ws[3] = {w1, w2, w3};
        for (int i = 0; i < 3; i++) {
            CHECK_MPI(MPI_Type_commit(&ws[i]));
            L = dt_of(ws[i])->layout;
            CHECK(L->nblocks == 1 && L->nlevels == (i == 1 ? 2 : 1) && L->level[0].count == 1 << 24,
                  "wrapped vector %d: %zu blocks, %d levels", i, L->nblocks, L->nlevels);
            CHECK_MPI(MPI_Type_free(&ws[i]));
        }
        CHECK_MPI(MPI_Type_free(&bv));
        /* deeper than the layout keeps levels (8 > TERN_DT_LEVELS): the
         * outer ones are spelled out, the bytes still come in typemap order */
        MPI_Datatype deep = MPI_CHAR, next;
        static long pos[256];
        long npos = 1, ext = 1;
        pos[0] = 0;
        for (int k = 0; k < 8; k++) {
            CHECK_MPI(MPI_Type_vector(2, 1, 3, deep, &next));
            if (deep != MPI_CHAR) CHECK_MPI(MPI_Type_free(&deep));
            deep = next;
            for (long i = 0; i < npos; i++) pos[npos + i] = pos[i] + 3 * ext;
            npos *= 2;
            ext *= 4;
        }
        CHECK_MPI(MPI_Type_commit(&deep));
        L = dt_of(deep)->layout;
        CHECK(L->nlevels <= TERN_DT_LEVELS && L->nblocks * 1u << L->nlevels == 256,
              "8-deep vector: %zu blocks, %d levels", L->nblocks, L->nlevels);
        unsigned char *src = malloc((size_t)ext), out[256];
        for (long i = 0; i < ext; i++) src[i] = (unsigned char)(i * 7 + i / 256);
        CHECK(tern_dt_pack(dt_of(deep), src, 1, 0, out, 256) == 256, "8-deep vector: pack size");
        for (long i = 0; i < 256; i++)
            CHECK(out[i] == src[pos[i]], "8-deep vector: packed byte %ld from %ld", i, pos[i]);
        free(src);
        CHECK_MPI(MPI_Type_free(&deep));
    }
    CHECK(!dt_of(MPI_DOUBLE_INT)->contig && !dt_of(MPI_SHORT_INT)->contig &&
              dt_of(MPI_FLOAT_INT)->contig && dt_of(MPI_2INT)->contig && dt_of(MPI_INT)->contig,
          "contig flags of the predefined types");
    CHECK(dt_of(MPI_2INT)->basic == MPI_2INT && dt_of(MPI_2INT)->basic_count == 1,
          "MPI_2INT basic");
    CHECK(dt_of(st.h)->basic == MPI_DATATYPE_NULL, "struct basic");
    CHECK(dt_of(v.h)->basic == MPI_INT && dt_of(v.h)->basic_count == 6, "vector basic");
    {
        MPI_Datatype h;
        CHECK_MPI(MPI_Type_contiguous(3, MPI_DOUBLE_INT, &h));
        CHECK(dt_of(h)->basic == MPI_DOUBLE_INT && dt_of(h)->basic_count == 3, "pair basic");
        CHECK_MPI(MPI_Type_free(&h));
        CHECK_MPI(MPI_Type_contiguous(0, MPI_FLOAT, &h));
        CHECK(dt_of(h)->basic == MPI_FLOAT && dt_of(h)->basic_count == 0, "empty basic");
        CHECK_MPI(MPI_Type_free(&h));
    }
    {
        /* basic elements <-> bytes (MPI_Status_set_elements, MPI_Get_elements) */
        int ebl[3] = {1, 1, 1};
        MPI_Aint ed[3] = {0, 8, 16};
        MPI_Datatype ety[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, es, ec;
        CHECK_MPI(MPI_Type_create_struct(3, ebl, ed, ety, &es));
        CHECK_MPI(MPI_Type_contiguous(2, es, &ec));
        static const struct {
            size_t elems, bytes;
        } eb[] = {{0, 0}, {1, 4}, {2, 12}, {3, 13}, {4, 17}, {5, 25}, {6, 26}, {7, 30}, {11, 51}};
        for (size_t i = 0; i < sizeof eb / sizeof eb[0]; i++) {
            size_t n;
            CHECK(tern_dt_elements_to_bytes(dt_of(es), eb[i].elems) == eb[i].bytes &&
                      tern_dt_elements_to_bytes(dt_of(ec), eb[i].elems) == eb[i].bytes,
                  "%zu elements of struct{int;double;char} are %zu bytes", eb[i].elems,
                  eb[i].bytes);
            CHECK(tern_dt_count_elements(dt_of(ec), eb[i].bytes, &n) == 0 && n == eb[i].elems,
                  "%zu bytes hold %zu elements, not %zu", eb[i].bytes, eb[i].elems, n);
        }
        /* a value-index pair is two basic elements: 3 are a pair and a double */
        CHECK(tern_dt_elements_to_bytes(dt_of(MPI_DOUBLE_INT), 3) == 20, "3 of double_int");
        CHECK(tern_dt_elements_to_bytes(dt_of(MPI_2INT), 3) == 12, "3 of 2int");
        CHECK(tern_dt_elements_to_bytes(dt_of(v.h), 7) == 28, "7 ints of a vector");
        CHECK_MPI(MPI_Type_free(&ec));
        CHECK_MPI(MPI_Type_free(&es));
    }
    CHECK(tern_dt_get(MPI_DATATYPE_NULL) == NULL, "MPI_DATATYPE_NULL -> NULL");
    CHECK(tern_dt_get((MPI_Datatype)0x8c000005) == NULL, "reserved index 5");
    CHECK(tern_dt_get((MPI_Datatype)0x4c000499) == NULL, "unknown basic handle");
    {
        struct tern_datatype *out;
        int rc = tern_dt_check(MPI_INT, "MPI_Send", "datatype", &out);
        CHECK(rc == MPI_SUCCESS && out == dt_of(MPI_INT), "tern_dt_check(MPI_INT)");
    }

    /* ---- pending references outlive MPI_Type_free ---- */
    {
        MPI_Datatype h, keep;
        CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &h));
        CHECK_MPI(MPI_Type_commit(&h));
        keep = h;
        struct tern_datatype *dt = dt_of(h);
        tern_dt_retain(dt);
        CHECK_MPI(MPI_Type_free(&h));
        CHECK(tern_dt_get(keep) == NULL, "freed handle still resolves");
        int src[4] = {1, 2, 3, 4}, out[2];
        CHECK(tern_dt_pack(dt, src, 1, 0, out, sizeof out) == 8 && out[0] == 1 && out[1] == 4,
              "pack through a pending reference");
        tern_dt_release(dt); /* the object goes now (ASan would see a leak or a double free) */
    }

    /* ---- the handle table reuses indices late, never below 16 ---- */
    {
        struct tern_objtab tab = {.kind = TERN_KIND_DATATYPE, .first_index = 16};
        int x = 0, hs[200];
        for (int i = 0; i < 200; i++) {
            hs[i] = tern_objtab_insert(&tab, &x);
            CHECK(tern_handle_index(hs[i]) >= 16 && tern_objtab_lookup(&tab, hs[i]) == &x,
                  "objtab insert %d", i);
        }
        int first = hs[0];
        tern_objtab_remove(&tab, first);
        CHECK(tern_objtab_lookup(&tab, first) == NULL, "removed handle resolves");
        int again = tern_objtab_insert(&tab, &x);
        CHECK(again != first, "a freed index came back at once");
        for (int i = 1; i < 200; i++) tern_objtab_remove(&tab, hs[i]);
        for (int i = 0; i < 300; i++) {
            int h = tern_objtab_insert(&tab, &x);
            CHECK(h && tern_handle_index(h) >= 16, "objtab reinsert %d", i);
        }
        tern_objtab_destroy(&tab);
    }

    rtype *all[] = {&i32, &f64, &ch, &si,  &di, &v,  &hv, &cr, &r,
                    &ix,  &vs,  &st, &big, &c6, &v6, &x6, &r1};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) rt_free(all[i]);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
