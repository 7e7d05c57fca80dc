/* The properties every datatype must have, checked against the model of
 * dt_model.h; shared by the seeded test (dt_prop.c) and the fuzzer
 * (dt_fuzz.c).  For a type drawn from a byte string and a count:
 *
 *   - size, lb, extent, true lb and true extent (int, _x and _c forms) are
 *     the model's;
 *   - MPI_Pack gives the typemap's bytes in order, element by element as
 *     in one call, and MPI_Pack_size covers them;
 *   - MPI_Unpack writes exactly the typemap's bytes;
 *   - external32 is the typemap's bytes, each basic element big-endian, and
 *     comes back through MPI_Unpack_external;
 *   - MPI_Get_elements / MPI_Get_count of a status holding a prefix of the
 *     packed stream count the whole basic elements in it (MPI_UNDEFINED when
 *     it ends inside one), and MPI_Status_set_elements is their inverse;
 *   - a message sent with the type arrives as the packed stream, and the
 *     packed stream sent arrives where the typemap says (to self through
 *     MPI_Sendrecv, or from rank 0 to rank 1 with the sender's copy of the
 *     type freed while its send is pending). */
#ifndef TERN_TEST_DT_PROPS_H
#define TERN_TEST_DT_PROPS_H

#include "dt_model.h"

/* Do two entries of count elements share a byte?  (Receiving into such a
 * type is erroneous, so those are only packed.) */
static int p_cmp_aint(const void *a, const void *b)
{
    MPI_Aint x = *(const MPI_Aint *)a, y = *(const MPI_Aint *)b;
    return x < y ? -1 : x > y;
}

static inline int p_overlaps(const mtype *t, int count)
{
    long n = t->n * count, k = 0;
    if (n < 2) return 0;
    MPI_Aint *iv = rt_xalloc((size_t)n * 2 * sizeof(MPI_Aint));
    for (int e = 0; e < count; e++)
        for (long i = 0; i < t->n; i++, k++) {
            iv[2 * k] = e * m_extent(t) + t->disp[i];
            iv[2 * k + 1] = iv[2 * k] + t->len[i];
        }
    qsort(iv, (size_t)n, 2 * sizeof(MPI_Aint), p_cmp_aint);
    int ov = 0;
    for (long i = 1; i < n && !ov; i++) ov = iv[2 * i] < iv[2 * i - 1];
    free(iv);
    return ov;
}

/* A buffer holding 'count' elements with a margin: mem, and base = where
 * MPI's buf points. */
typedef struct {
    char *mem, *base;
    size_t bytes;
} pbuf;

static inline pbuf p_alloc(const mtype *t, int count)
{
    MPI_Aint lo = 0, hi = 0;
    for (int k = 0; k < count; k++)
        for (long e = 0; e < t->n; e++) {
            MPI_Aint a = k * m_extent(t) + t->disp[e];
            if (a < lo) lo = a;
            if (a + t->len[e] > hi) hi = a + t->len[e];
        }
    pbuf b;
    b.bytes = (size_t)(hi - lo) + 32;
    b.mem = rt_xalloc(b.bytes);
    b.base = b.mem + 16 - lo;
    return b;
}

static inline void p_fill(pbuf *b, unsigned seed)
{
    for (size_t i = 0; i < b->bytes; i++) b->mem[i] = (char)(i * 37u + seed * 11u + 5u);
}

/* the model's packed stream (ext32: each basic element big-endian) */
static inline void p_gather(const mtype *t, const char *buf, int count, char *out, int ext32)
{
    size_t pos = 0;
    for (int k = 0; k < count; k++)
        for (long e = 0; e < t->n; e++) {
            const char *src = buf + k * m_extent(t) + t->disp[e];
            for (int j = 0; j < t->len[e]; j++)
                out[pos + (size_t)j] = ext32 ? src[t->len[e] - 1 - j] : src[j];
            pos += (size_t)t->len[e];
        }
}

static inline void p_scatter(const mtype *t, char *buf, int count, const char *in)
{
    size_t pos = 0;
    for (int k = 0; k < count; k++)
        for (long e = 0; e < t->n; e++) {
            memcpy(buf + k * m_extent(t) + t->disp[e], in + pos, (size_t)t->len[e]);
            pos += (size_t)t->len[e];
        }
}

static inline void p_bounds(const mtype *t, const char *what)
{
    MPI_Aint lb, ext, tlb, text, mtlb, mtub;
    MPI_Count xs, xlb, xext, xtlb, xtext, cs, clb, cext, ctlb, ctext;
    int size;
    m_true(t, &mtlb, &mtub);
    CHECK_MPI(MPI_Type_size(t->h, &size));
    CHECK_MPI(MPI_Type_size_x(t->h, &xs));
    CHECK_MPI(MPI_Type_size_c(t->h, &cs));
    CHECK_MPI(MPI_Type_get_extent(t->h, &lb, &ext));
    CHECK_MPI(MPI_Type_get_extent_x(t->h, &xlb, &xext));
    CHECK_MPI(MPI_Type_get_extent_c(t->h, &clb, &cext));
    CHECK_MPI(MPI_Type_get_true_extent(t->h, &tlb, &text));
    CHECK_MPI(MPI_Type_get_true_extent_x(t->h, &xtlb, &xtext));
    CHECK_MPI(MPI_Type_get_true_extent_c(t->h, &ctlb, &ctext));
    size_t msize = m_size(t);
    CHECK((size_t)size == msize && (size_t)xs == msize && (size_t)cs == msize,
          "%s: size %d/%ld/%ld, model %zu", what, size, (long)xs, (long)cs, msize);
    CHECK(lb == t->lb && ext == m_extent(t) && xlb == lb && xext == ext && clb == lb && cext == ext,
          "%s: lb %ld extent %ld, model %ld %ld", what, (long)lb, (long)ext, (long)t->lb,
          (long)m_extent(t));
    CHECK(tlb == mtlb && text == mtub - mtlb && xtlb == tlb && xtext == text && ctlb == tlb &&
              ctext == text,
          "%s: true lb %ld extent %ld, model %ld %ld", what, (long)tlb, (long)text, (long)mtlb,
          (long)(mtub - mtlb));
    MPI_Count ni, na, nc, nd;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(t->h, &ni, &na, &nc, &nd, &comb));
    CHECK(comb == t->combiner, "%s: combiner %d, built as %d", what, comb, t->combiner);
}

/* pack (whole, and one element at a time), unpack, external32 */
static inline void p_local(const mtype *t, int count, const char *what)
{
    size_t bytes = m_size(t) * (size_t)count;
    pbuf src = p_alloc(t, count), dst = p_alloc(t, count), ref = p_alloc(t, count);
    char *want = rt_xalloc(bytes + 8), *got = rt_xalloc(bytes + 8);
    int psize, pos = 0;
    p_fill(&src, 1);
    p_gather(t, src.base, count, want, 0);

    CHECK_MPI(MPI_Pack_size(count, t->h, MPI_COMM_WORLD, &psize));
    CHECK((size_t)psize >= bytes, "%s x %d: MPI_Pack_size %d < %zu", what, count, psize, bytes);
    CHECK_MPI(MPI_Pack(src.base, count, t->h, got, (int)bytes, &pos, MPI_COMM_WORLD));
    CHECK((size_t)pos == bytes && memcmp(got, want, bytes) == 0,
          "%s x %d: MPI_Pack gives %d bytes, not the typemap's %zu", what, count, pos, bytes);
    pos = 0;
    for (int k = 0; k < count; k++)
        CHECK_MPI(
            MPI_Pack(src.base + k * m_extent(t), 1, t->h, got, (int)bytes, &pos, MPI_COMM_WORLD));
    CHECK((size_t)pos == bytes && memcmp(got, want, bytes) == 0,
          "%s x %d: packing one element at a time differs", what, count);

    if (!p_overlaps(t, count)) {
        p_fill(&dst, 2);
        p_fill(&ref, 2);
        pos = 0;
        CHECK_MPI(MPI_Unpack(want, (int)bytes, &pos, dst.base, count, t->h, MPI_COMM_WORLD));
        p_scatter(t, ref.base, count, want);
        CHECK((size_t)pos == bytes && memcmp(dst.mem, ref.mem, dst.bytes) == 0,
              "%s x %d: MPI_Unpack wrote other bytes than the typemap's", what, count);
        if (t->ext32_ok) {
            MPI_Aint esize, epos = 0;
            CHECK_MPI(MPI_Pack_external_size("external32", count, t->h, &esize));
            CHECK((size_t)esize == bytes, "%s x %d: external32 size %ld, expected %zu", what, count,
                  (long)esize, bytes);
            p_gather(t, src.base, count, want, 1);
            CHECK_MPI(MPI_Pack_external("external32", src.base, count, t->h, got, (MPI_Aint)bytes,
                                        &epos));
            CHECK((size_t)epos == bytes && memcmp(got, want, bytes) == 0,
                  "%s x %d: external32 is not the typemap big-endian", what, count);
            p_fill(&dst, 2);
            epos = 0;
            CHECK_MPI(MPI_Unpack_external("external32", got, (MPI_Aint)bytes, &epos, dst.base,
                                          count, t->h));
            p_gather(t, src.base, count, want, 0);
            p_scatter(t, ref.base, count, want);
            CHECK((size_t)epos == bytes && memcmp(dst.mem, ref.mem, dst.bytes) == 0,
                  "%s x %d: external32 round trip", what, count);
        }
    }
    free(src.mem);
    free(dst.mem);
    free(ref.mem);
    free(want);
    free(got);
}

/* The status of a message of 'cut' bytes: basic elements and count. */
static inline void p_elements(const mtype *t, int count, size_t cut, const MPI_Status *st,
                              const char *what)
{
    long whole = 0;
    int inside = 0;
    size_t at = 0, size = m_size(t);
    for (int k = 0; k < count; k++)
        for (long e = 0; e < t->n; e++) {
            if (at + (size_t)t->len[e] <= cut)
                whole++;
            else if (at < cut)
                inside = 1;
            at += (size_t)t->len[e];
        }
    int el, cnt;
    MPI_Count elx, elc;
    CHECK_MPI(MPI_Get_elements(st, t->h, &el));
    CHECK_MPI(MPI_Get_elements_x(st, t->h, &elx));
    CHECK_MPI(MPI_Get_elements_c(st, t->h, &elc));
    CHECK_MPI(MPI_Get_count(st, t->h, &cnt));
    long want = inside ? MPI_UNDEFINED : whole;
    CHECK(el == want && elx == want && elc == want,
          "%s: %zu bytes hold %d (x %ld, c %ld) basic elements, model %ld", what, cut, el,
          (long)elx, (long)elc, want);
    long wc = size == 0 ? 0 : cut % size ? MPI_UNDEFINED : (long)(cut / size);
    CHECK(cnt == wc, "%s: %zu bytes are count %d, model %ld", what, cut, cnt, wc);
}

static inline void p_counts(const mtype *t, int count, size_t cut, const char *what)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_BYTE, (int)cut));
    p_elements(t, count, cut, &st, what);
    /* the inverse: k basic elements are the bytes of the first k entries */
    long k = t->n ? (long)(cut % (size_t)(t->n * count + 1)) : 0;
    size_t bytes = 0;
    for (long i = 0; i < k; i++) bytes += (size_t)t->len[i % t->n];
    int nb;
    CHECK_MPI(MPI_Status_set_elements(&st, t->h, (int)k));
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &nb));
    CHECK((size_t)nb == bytes, "%s: %ld basic elements set, %d bytes, model %zu", what, k, nb,
          bytes);
}

enum { P_SELF, P_PEER };

/* The transfers.  P_SELF: MPI_Sendrecv on MPI_COMM_SELF.  P_PEER: rank 0
 * sends to rank 1 of MPI_COMM_WORLD (other ranks do nothing). */
static inline void p_transfer(const mtype *t, int count, size_t cut, int mode, const char *what)
{
    int rank = 0;
    if (mode == P_PEER) CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    if (rank > 1 || p_overlaps(t, count)) return;
    size_t bytes = m_size(t) * (size_t)count;
    pbuf src = p_alloc(t, count), dst = p_alloc(t, count), ref = p_alloc(t, count);
    char *stream = rt_xalloc(bytes + 8), *got = rt_xalloc(bytes + 8);
    p_fill(&src, 3);
    p_gather(t, src.base, count, stream, 0);
    MPI_Status st;
    if (mode == P_SELF) {
        CHECK_MPI(MPI_Sendrecv(src.base, count, t->h, 0, 1, got, (int)bytes, MPI_PACKED, 0, 1,
                               MPI_COMM_SELF, &st));
        CHECK(memcmp(got, stream, bytes) == 0, "%s x %d: sent with the type, received packed", what,
              count);
        p_fill(&dst, 4);
        CHECK_MPI(MPI_Sendrecv(stream, (int)cut, MPI_PACKED, 0, 2, dst.base, count, t->h, 0, 2,
                               MPI_COMM_SELF, &st));
    } else if (rank == 0) {
        MPI_Datatype d;
        MPI_Request r[2];
        MPI_Status sts[2];
        CHECK_MPI(MPI_Type_dup(t->h, &d));
        CHECK_MPI(MPI_Isend(src.base, count, d, 1, 1, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Type_free(&d)); /* the pending send keeps it */
        CHECK_MPI(MPI_Isend(stream, (int)cut, MPI_PACKED, 1, 2, MPI_COMM_WORLD, &r[1]));
        CHECK_MPI(MPI_Waitall(2, r, sts));
    } else {
        CHECK_MPI(MPI_Recv(got, (int)bytes, MPI_PACKED, 0, 1, MPI_COMM_WORLD, &st));
        CHECK(memcmp(got, stream, bytes) == 0, "%s x %d: sent with the type, received packed", what,
              count);
        p_fill(&dst, 4);
        CHECK_MPI(MPI_Recv(dst.base, count, t->h, 0, 2, MPI_COMM_WORLD, &st));
    }
    if (mode == P_SELF || rank == 1) {
        /* the prefix lands where the typemap says, nothing else moves */
        p_fill(&ref, 4);
        size_t pos = 0;
        for (int k = 0; k < count; k++)
            for (long e = 0; e < t->n && pos < cut; e++) {
                size_t n = cut - pos < (size_t)t->len[e] ? cut - pos : (size_t)t->len[e];
                memcpy(ref.base + k * m_extent(t) + t->disp[e], stream + pos, n);
                pos += (size_t)t->len[e];
            }
        int nb;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &nb));
        CHECK((size_t)nb == cut, "%s: received %d bytes of %zu", what, nb, cut);
        CHECK(memcmp(dst.mem, ref.mem, dst.bytes) == 0,
              "%s x %d: %zu packed bytes received with the type land elsewhere", what, count, cut);
        p_elements(t, count, cut, &st, what);
    }
    free(src.mem);
    free(dst.mem);
    free(ref.mem);
    free(stream);
    free(got);
}

/* One case: a type drawn from 'data', all the properties.  Every rank of
 * P_PEER must call it with the same bytes. */
static inline void p_case(const uint8_t *data, size_t size, int mode, const char *what)
{
    msrc s = {data, size, 0};
    mtype t = m_gen(&s, 4);
    int count = 1 + m_pick(&s, 3);
    CHECK_MPI(MPI_Type_commit(&t.h));
    p_bounds(&t, what);
    size_t bytes = m_size(&t) * (size_t)count;
    size_t cut = bytes ? (size_t)(m_pick(&s, 256) * 256 + m_pick(&s, 256)) % (bytes + 1) : 0;
    if (m_pick(&s, 4) == 0) cut = bytes; /* the whole message too */
    p_local(&t, count, what);
    p_counts(&t, count, cut, what);
    p_transfer(&t, count, cut, mode, what);
    m_free(&t);
}

#endif
