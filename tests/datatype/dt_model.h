/* An independent model of derived datatypes, bounds included, for the
 * property test (dt_prop.c) and the fuzzer (dt_fuzz.c).
 *
 * dt_ref.h models the typemap but asks the library for every extent; this
 * model works out size, bounds, true bounds, alignment and padding itself,
 * by the rules Tern documents (src/datatype/dt_create.c), so a wrong extent
 * anywhere in a nest of types shows up as a wrong layout or a wrong answer:
 *
 *   lb = the least lower-bound marker (MPI_LB, or the lb of a resized,
 *        subarray or darray type inside) if there is one, else the least lb
 *        of the copies that hold data, else 0; ub likewise;
 *   a struct without markers is padded to a multiple of the strictest
 *   alignment inside (the C rule);
 *   a basic element is one typemap entry; a value-index pair and MPI_2INT
 *   are two.
 *
 * Each model type also holds the library's handle, built by the same
 * constructor call (sometimes through its large-count _c form).  Types
 * are drawn from a byte string (m_gen), so the fuzzer steers them and the
 * seeded test replays a pseudo-random one. */
#ifndef TERN_TEST_DT_MODEL_H
#define TERN_TEST_DT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dt_ref.h" /* rt_xalloc */

typedef struct {
    MPI_Datatype h;
    int combiner;
    long n, cap; /* basic elements (typemap entries) */
    MPI_Aint *disp;
    int *len;
    int has_lbm, has_ubm; /* explicit markers */
    MPI_Aint lbm, ubm;
    int has_slb, has_sub; /* bounds of the copies that hold data */
    MPI_Aint slb, sub;
    MPI_Aint lb, ub; /* the type's bounds (m_finish) */
    size_t align;
    int ext32_ok; /* every basic type keeps its size in external32 */
} mtype;

static inline MPI_Aint m_extent(const mtype *t) { return t->ub - t->lb; }

static inline mtype m_new(void)
{
    mtype t;
    memset(&t, 0, sizeof t);
    t.h = MPI_DATATYPE_NULL;
    t.ext32_ok = 1;
    return t;
}

static inline void m_push(mtype *t, MPI_Aint d, int len)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 8;
        t->disp = realloc(t->disp, (size_t)t->cap * sizeof *t->disp);
        t->len = realloc(t->len, (size_t)t->cap * sizeof *t->len);
        CHECK(t->disp && t->len, "model: out of memory");
    }
    t->disp[t->n] = d;
    t->len[t->n] = len;
    t->n++;
}

/* One copy of c at byte offset 'off': its entries and its bounds. */
static inline void m_copy(mtype *t, const mtype *c, MPI_Aint off)
{
    for (long e = 0; e < c->n; e++) m_push(t, off + c->disp[e], c->len[e]);
    if (c->has_lbm) {
        if (!t->has_lbm || off + c->lb < t->lbm) t->lbm = off + c->lb;
        t->has_lbm = 1;
    } else if (c->n) {
        if (!t->has_slb || off + c->lb < t->slb) t->slb = off + c->lb;
        t->has_slb = 1;
    }
    if (c->has_ubm) {
        if (!t->has_ubm || off + c->ub > t->ubm) t->ubm = off + c->ub;
        t->has_ubm = 1;
    } else if (c->n) {
        if (!t->has_sub || off + c->ub > t->sub) t->sub = off + c->ub;
        t->has_sub = 1;
    }
    if (c->align > t->align) t->align = c->align;
    t->ext32_ok &= c->ext32_ok;
}

/* bl copies of c from 'off', one extent of c apart */
static inline void m_block(mtype *t, const mtype *c, long bl, MPI_Aint off)
{
    for (long j = 0; j < bl; j++) m_copy(t, c, off + j * m_extent(c));
}

static inline void m_finish(mtype *t, int is_struct)
{
    t->lb = t->has_lbm ? t->lbm : t->has_slb ? t->slb : 0;
    t->ub = t->has_ubm ? t->ubm : t->has_sub ? t->sub : 0;
    if (!t->align) t->align = 1;
    if (is_struct && !t->has_lbm && !t->has_ubm && t->align > 1 && t->ub > t->lb) {
        MPI_Aint rem = (t->ub - t->lb) % (MPI_Aint)t->align;
        if (rem) t->ub += (MPI_Aint)t->align - rem;
    }
}

static inline size_t m_size(const mtype *t)
{
    size_t s = 0;
    for (long e = 0; e < t->n; e++) s += (size_t)t->len[e];
    return s;
}

static inline void m_true(const mtype *t, MPI_Aint *tlb, MPI_Aint *tub)
{
    *tlb = *tub = 0;
    for (long e = 0; e < t->n; e++) {
        if (!e || t->disp[e] < *tlb) *tlb = t->disp[e];
        if (!e || t->disp[e] + t->len[e] > *tub) *tub = t->disp[e] + t->len[e];
    }
}

static inline void m_free(mtype *t)
{
    MPI_Count ni, na, nc, nd;
    int comb;
    if (t->h != MPI_DATATYPE_NULL) {
        CHECK_MPI(MPI_Type_get_envelope_c(t->h, &ni, &na, &nc, &nd, &comb));
        if (comb != MPI_COMBINER_NAMED) CHECK_MPI(MPI_Type_free(&t->h));
    }
    free(t->disp);
    free(t->len);
    t->disp = NULL;
    t->len = NULL;
    t->n = t->cap = 0;
}

/* ---- predefined types ---- */

static inline mtype m_basic(MPI_Datatype h)
{
    mtype t = m_new();
    t.h = h;
    t.combiner = MPI_COMBINER_NAMED;
    t.has_slb = t.has_sub = 1;
#define M_PAIR(H, V)                                     \
    if (h == H) {                                        \
        struct p_ {                                      \
            V v;                                         \
            int i;                                       \
        };                                               \
        m_push(&t, 0, sizeof(V));                        \
        m_push(&t, offsetof(struct p_, i), sizeof(int)); \
        t.sub = sizeof(struct p_);                       \
        t.align = _Alignof(struct p_);                   \
    }
    M_PAIR(MPI_DOUBLE_INT, double)
    M_PAIR(MPI_FLOAT_INT, float)
    M_PAIR(MPI_SHORT_INT, short)
#undef M_PAIR
#define M_ONE(H, T)               \
    if (h == H) {                 \
        m_push(&t, 0, sizeof(T)); \
        t.sub = sizeof(T);        \
        t.align = _Alignof(T);    \
    }
    M_ONE(MPI_CHAR, char)
    M_ONE(MPI_SHORT, short)
    M_ONE(MPI_INT, int)
    M_ONE(MPI_FLOAT, float)
    M_ONE(MPI_DOUBLE, double)
#undef M_ONE
    if (h == MPI_2INT) {
        m_push(&t, 0, sizeof(int));
        m_push(&t, sizeof(int), sizeof(int));
        t.sub = 2 * sizeof(int);
        t.align = _Alignof(int);
    }
    if (h == MPI_LONG) { /* 4 bytes in external32 */
        m_push(&t, 0, sizeof(long));
        t.sub = sizeof(long);
        t.align = _Alignof(long);
        t.ext32_ok = 0;
    }
    CHECK(t.n > 0, "model: basic type 0x%x not modelled", (unsigned)h);
    m_finish(&t, 0);
    return t;
}

/* MPI_LB or MPI_UB: no entries, one marker at 0 */
static inline mtype m_marker(MPI_Datatype h)
{
    mtype t = m_new();
    t.h = h;
    t.combiner = MPI_COMBINER_NAMED;
    t.has_lbm = h == MPI_LB;
    t.has_ubm = h == MPI_UB;
    m_finish(&t, 0);
    return t;
}

/* ---- constructors: the model and the library side by side ---- */

static inline mtype m_contiguous(int large, int count, const mtype *c)
{
    mtype t = m_new();
    if (large)
        CHECK_MPI(MPI_Type_contiguous_c(count, c->h, &t.h));
    else
        CHECK_MPI(MPI_Type_contiguous(count, c->h, &t.h));
    t.combiner = MPI_COMBINER_CONTIGUOUS;
    m_block(&t, c, count, 0);
    m_finish(&t, 0);
    return t;
}

/* vector (stride in extents of c) or hvector (hv: stride in bytes) */
static inline mtype m_vector(int large, int hv, int count, int bl, MPI_Aint stride, const mtype *c)
{
    mtype t = m_new();
    if (hv && large)
        CHECK_MPI(MPI_Type_create_hvector_c(count, bl, stride, c->h, &t.h));
    else if (hv)
        CHECK_MPI(MPI_Type_create_hvector(count, bl, stride, c->h, &t.h));
    else if (large)
        CHECK_MPI(MPI_Type_vector_c(count, bl, stride, c->h, &t.h));
    else
        CHECK_MPI(MPI_Type_vector(count, bl, (int)stride, c->h, &t.h));
    t.combiner = hv ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR;
    MPI_Aint sb = hv ? stride : stride * m_extent(c);
    for (int i = 0; i < count; i++) m_block(&t, c, bl, i * sb);
    m_finish(&t, 0);
    return t;
}

/* The indexed family.  kind: MPI_COMBINER_INDEXED, _HINDEXED, _INDEXED_BLOCK
 * or _HINDEXED_BLOCK; d holds displacements in extents of c (indexed) or
 * bytes (hindexed); the block forms use bl[0] for every block. */
static inline mtype m_indexed(int large, int kind, int count, const int *bl, const MPI_Aint *d,
                              const mtype *c)
{
    mtype t = m_new();
    int id[8];
    MPI_Count cbl[8], cd[8];
    CHECK(count <= 8, "model: indexed of %d blocks", count);
    for (int i = 0; i < count; i++) {
        id[i] = (int)d[i];
        cbl[i] = bl[i];
        cd[i] = d[i];
    }
    switch (kind) {
    case MPI_COMBINER_INDEXED:
        CHECK_MPI(large ? MPI_Type_indexed_c(count, cbl, cd, c->h, &t.h)
                        : MPI_Type_indexed(count, bl, id, c->h, &t.h));
        break;
    case MPI_COMBINER_HINDEXED:
        CHECK_MPI(large ? MPI_Type_create_hindexed_c(count, cbl, cd, c->h, &t.h)
                        : MPI_Type_create_hindexed(count, bl, d, c->h, &t.h));
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        CHECK_MPI(large ? MPI_Type_create_indexed_block_c(count, bl[0], cd, c->h, &t.h)
                        : MPI_Type_create_indexed_block(count, bl[0], id, c->h, &t.h));
        break;
    default:
        CHECK_MPI(large ? MPI_Type_create_hindexed_block_c(count, bl[0], cd, c->h, &t.h)
                        : MPI_Type_create_hindexed_block(count, bl[0], d, c->h, &t.h));
    }
    t.combiner = kind;
    int bytes = kind == MPI_COMBINER_HINDEXED || kind == MPI_COMBINER_HINDEXED_BLOCK;
    int block = kind == MPI_COMBINER_INDEXED_BLOCK || kind == MPI_COMBINER_HINDEXED_BLOCK;
    for (int i = 0; i < count; i++)
        m_block(&t, c, block ? bl[0] : bl[i], bytes ? d[i] : d[i] * m_extent(c));
    m_finish(&t, 0);
    return t;
}

static inline mtype m_struct(int large, int count, const int *bl, const MPI_Aint *d,
                             const mtype *const *c)
{
    mtype t = m_new();
    MPI_Datatype ty[8];
    MPI_Count cbl[8], cd[8];
    CHECK(count <= 8, "model: struct of %d blocks", count);
    for (int i = 0; i < count; i++) {
        ty[i] = c[i]->h;
        cbl[i] = bl[i];
        cd[i] = d[i];
    }
    if (large)
        CHECK_MPI(MPI_Type_create_struct_c(count, cbl, cd, ty, &t.h));
    else
        CHECK_MPI(MPI_Type_create_struct(count, bl, d, ty, &t.h));
    t.combiner = MPI_COMBINER_STRUCT;
    for (int i = 0; i < count; i++) m_block(&t, c[i], bl[i], d[i]);
    m_finish(&t, 1);
    return t;
}

static inline mtype m_resized(int large, const mtype *c, MPI_Aint lb, MPI_Aint ext)
{
    mtype t = m_new();
    if (large)
        CHECK_MPI(MPI_Type_create_resized_c(c->h, lb, ext, &t.h));
    else
        CHECK_MPI(MPI_Type_create_resized(c->h, lb, ext, &t.h));
    t.combiner = MPI_COMBINER_RESIZED;
    m_copy(&t, c, 0);
    t.has_lbm = t.has_ubm = 1;
    t.lbm = lb;
    t.ubm = lb + ext;
    m_finish(&t, 0);
    return t;
}

static inline mtype m_dup(const mtype *c)
{
    mtype t = m_new();
    CHECK_MPI(MPI_Type_dup(c->h, &t.h));
    t.combiner = MPI_COMBINER_DUP;
    m_copy(&t, c, 0);
    t.has_lbm = c->has_lbm;
    t.has_ubm = c->has_ubm;
    t.lbm = t.slb = c->lb;
    t.ubm = t.sub = c->ub;
    t.has_slb = t.has_sub = 1;
    m_finish(&t, 0);
    return t;
}

/* Index of element (i0, i1) of a 2-d array in storage order. */
static inline long m_at2(const int *sizes, int i0, int i1, int order)
{
    return order == MPI_ORDER_C ? (long)i0 * sizes[1] + i1 : (long)i1 * sizes[0] + i0;
}

/* Elements of a 2-d array of c (storage order), 'pick' says which: the
 * typemap of subarray and darray, bounds 0 and the whole array. */
static inline void m_array2(mtype *t, const mtype *c, const int *sizes, int order,
                            int (*pick)(const void *, int, int), const void *arg)
{
    int fast = order == MPI_ORDER_C ? 1 : 0, slow = 1 - fast, idx[2];
    for (idx[slow] = 0; idx[slow] < sizes[slow]; idx[slow]++)
        for (idx[fast] = 0; idx[fast] < sizes[fast]; idx[fast]++)
            if (pick(arg, idx[0], idx[1]))
                m_copy(t, c, m_at2(sizes, idx[0], idx[1], order) * m_extent(c));
    t->has_lbm = t->has_ubm = 1;
    t->lbm = 0;
    t->ubm = (MPI_Aint)sizes[0] * sizes[1] * m_extent(c);
    m_finish(t, 0);
}

struct m_box {
    int sub[2], st[2];
};
static inline int m_in_box(const void *arg, int i0, int i1)
{
    const struct m_box *b = arg;
    return i0 >= b->st[0] && i0 < b->st[0] + b->sub[0] && i1 >= b->st[1] &&
           i1 < b->st[1] + b->sub[1];
}

static inline mtype m_subarray(int large, const int *sizes, const int *sub, const int *st,
                               int order, const mtype *c)
{
    mtype t = m_new();
    if (large) {
        MPI_Count a[2] = {sizes[0], sizes[1]}, b[2] = {sub[0], sub[1]}, s[2] = {st[0], st[1]};
        CHECK_MPI(MPI_Type_create_subarray_c(2, a, b, s, order, c->h, &t.h));
    } else {
        CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, st, order, c->h, &t.h));
    }
    t.combiner = MPI_COMBINER_SUBARRAY;
    struct m_box box = {{sub[0], sub[1]}, {st[0], st[1]}};
    m_array2(&t, c, sizes, order, m_in_box, &box);
    return t;
}

/* darray: which process of a row-major grid owns index i of a dimension */
struct m_grid {
    int g[2], distrib[2], darg[2], p[2], coord[2];
};
static inline int m_owner(const struct m_grid *gr, int d, int i)
{
    int p = gr->p[d], b;
    switch (gr->distrib[d]) {
    case MPI_DISTRIBUTE_NONE: return 0;
    case MPI_DISTRIBUTE_BLOCK:
        b = gr->darg[d] == MPI_DISTRIBUTE_DFLT_DARG ? (gr->g[d] + p - 1) / p : gr->darg[d];
        return i / b;
    default: b = gr->darg[d] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : gr->darg[d]; return i / b % p;
    }
}
static inline int m_owned(const void *arg, int i0, int i1)
{
    const struct m_grid *gr = arg;
    return m_owner(gr, 0, i0) == gr->coord[0] && m_owner(gr, 1, i1) == gr->coord[1];
}

static inline mtype m_darray(int large, const struct m_grid *gr, int order, const mtype *c)
{
    mtype t = m_new();
    int size = gr->p[0] * gr->p[1], rank = gr->coord[0] * gr->p[1] + gr->coord[1];
    if (large) {
        MPI_Count g[2] = {gr->g[0], gr->g[1]};
        CHECK_MPI(MPI_Type_create_darray_c(size, rank, 2, g, gr->distrib, gr->darg, gr->p, order,
                                           c->h, &t.h));
    } else {
        CHECK_MPI(MPI_Type_create_darray(size, rank, 2, gr->g, gr->distrib, gr->darg, gr->p, order,
                                         c->h, &t.h));
    }
    t.combiner = MPI_COMBINER_DARRAY;
    m_array2(&t, c, gr->g, order, m_owned, gr);
    return t;
}

/* ---- drawing types from bytes ---- */

typedef struct {
    const uint8_t *p;
    size_t n, i;
} msrc;

/* 0..n-1 from the next byte (0 once the bytes run out, so every input
 * ends in small, shallow types) */
static inline int m_pick(msrc *s, int n)
{
    unsigned v = s->i < s->n ? s->p[s->i++] : 0;
    return n > 0 ? (int)(v % (unsigned)n) : 0;
}

static inline MPI_Aint m_disp(msrc *s) { return (MPI_Aint)m_pick(s, 97) - 48; }

/* Typemaps stay below this many entries (the buffers stay small). */
#define M_MAX_ENTRIES 4000

static inline mtype m_gen(msrc *s, int depth)
{
    static const MPI_Datatype basics[] = {MPI_INT,   MPI_DOUBLE,     MPI_CHAR,      MPI_SHORT,
                                          MPI_FLOAT, MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_FLOAT_INT,
                                          MPI_2INT,  MPI_LONG};
    int what = depth > 0 ? m_pick(s, 16) : 0;
    if (what < 2) return m_basic(basics[m_pick(s, (int)(sizeof basics / sizeof basics[0]))]);
    int large = m_pick(s, 4) == 0;
    mtype c = m_gen(s, depth - 1), t;
    /* a zero count or block length now and then; fewer copies of big children */
    int room = c.n ? M_MAX_ENTRIES / (int)(c.n * 8 + 1) : 8, bl[8];
    int count = m_pick(s, 8) ? 1 + m_pick(s, 3) : 0;
    MPI_Aint d[8];
    if (room < 1) count = room;
    /* displacements anywhere (blocks overlap: such types are only packed),
     * or spread so that blocks of up to three copies of c fall apart */
    int spread = m_pick(s, 2);
    MPI_Aint tlb, tub, ext = m_extent(&c), span;
    m_true(&c, &tlb, &tub);
    span = 3 * (ext < 0 ? -ext : ext) + (tub - tlb) + 8;
    for (int i = 0; i < 8; i++) {
        bl[i] = m_pick(s, 8) ? 1 + (room < 2 ? 0 : m_pick(s, 3)) : 0;
        if (what == 5 || what == 7) /* in extents of c */
            d[i] = spread && ext > 0 ? 4 * i + m_pick(s, 2) : m_pick(s, 9) - 4;
        else
            d[i] = spread ? i * span + m_pick(s, 9) : m_disp(s);
    }
    switch (what) {
    case 2: t = m_contiguous(large, count, &c); break;
    case 3: t = m_vector(large, 0, count, bl[0], m_pick(s, 9) - 4, &c); break;
    case 4: t = m_vector(large, 1, count, bl[0], m_disp(s), &c); break;
    case 5: t = m_indexed(large, MPI_COMBINER_INDEXED, count, bl, d, &c); break;
    case 6: t = m_indexed(large, MPI_COMBINER_HINDEXED, count, bl, d, &c); break;
    case 7: t = m_indexed(large, MPI_COMBINER_INDEXED_BLOCK, count, bl, d, &c); break;
    case 8: t = m_indexed(large, MPI_COMBINER_HINDEXED_BLOCK, count, bl, d, &c); break;
    case 9: t = m_resized(large, &c, m_disp(s), m_disp(s)); break; /* extent may be < 0 */
    case 10: t = m_dup(&c); break;
    case 11: { /* markers around copies of c, either one alone now and then */
        mtype lb = m_marker(MPI_LB), ub = m_marker(MPI_UB);
        const mtype *cs[3] = {&lb, &c, &ub};
        int b3[3] = {1, bl[1] ? bl[1] : 1, 1}, side = m_pick(s, 4);
        if (side == 1) b3[0] = 0;
        if (side == 2) b3[2] = 0;
        t = m_struct(large, 3, b3, d, cs);
        break;
    }
    case 12:
    case 13: {
        int sizes[2] = {1 + m_pick(s, 4), 1 + m_pick(s, 4)}, sub[2], st[2];
        int order = m_pick(s, 2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
        if (c.n * sizes[0] * sizes[1] > M_MAX_ENTRIES) sizes[0] = sizes[1] = 1;
        if (what == 12) {
            for (int k = 0; k < 2; k++) {
                sub[k] = 1 + m_pick(s, sizes[k]);
                st[k] = m_pick(s, sizes[k] - sub[k] + 1);
            }
            t = m_subarray(large, sizes, sub, st, order, &c);
        } else {
            struct m_grid gr;
            for (int k = 0; k < 2; k++) {
                gr.g[k] = sizes[k];
                gr.p[k] = 1 + m_pick(s, 3);
                gr.distrib[k] = m_pick(s, 3) == 0   ? MPI_DISTRIBUTE_NONE
                                : m_pick(s, 2) == 0 ? MPI_DISTRIBUTE_BLOCK
                                                    : MPI_DISTRIBUTE_CYCLIC;
                if (gr.distrib[k] == MPI_DISTRIBUTE_NONE) gr.p[k] = 1;
                int least = (gr.g[k] + gr.p[k] - 1) / gr.p[k]; /* block needs b * p >= g */
                gr.darg[k] = m_pick(s, 2)                            ? MPI_DISTRIBUTE_DFLT_DARG
                             : gr.distrib[k] == MPI_DISTRIBUTE_BLOCK ? least + m_pick(s, 2)
                                                                     : 1 + m_pick(s, 3);
                if (gr.distrib[k] == MPI_DISTRIBUTE_NONE) gr.darg[k] = MPI_DISTRIBUTE_DFLT_DARG;
                gr.coord[k] = m_pick(s, gr.p[k]);
            }
            t = m_darray(large, &gr, order, &c);
        }
        break;
    }
    default: { /* struct of up to four children */
        mtype kids[4];
        const mtype *cs[4] = {&c, &c, &c, &c};
        int n = 2 + m_pick(s, 3), nk = 0;
        for (int i = 1; i < n; i++)
            if (m_pick(s, 2)) {
                kids[nk] = m_gen(s, depth - 1);
                if (kids[nk].n * 4 > M_MAX_ENTRIES) bl[i] = bl[i] ? 1 : 0;
                cs[i] = &kids[nk++];
            }
        t = m_struct(large, n, bl, d, cs);
        for (int i = 0; i < nk; i++) m_free(&kids[i]);
    }
    }
    m_free(&c); /* the new type keeps what it needs of c */
    return t;
}

#endif
