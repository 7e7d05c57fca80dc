/* A reference model of derived datatypes for the tests: every type built
 * through these helpers is also kept as its plain typemap (one entry per
 * basic element: displacement and size, in typemap order), built by the
 * obvious loops.  Packing by the model is then gathering those bytes,
 * element after element, 'extent' apart -- the definition in the standard,
 * with nothing clever that could share a bug with the library. */
#ifndef TERN_TEST_DT_REF_H
#define TERN_TEST_DT_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

typedef struct {
    MPI_Datatype h;
    long n;         /* typemap entries */
    MPI_Aint *disp; /* each entry's displacement */
    int *len;       /* and size */
} rtype;

static inline void *rt_xalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK(p != NULL, "out of memory (%zu bytes)", n);
    return p;
}

static inline rtype rt_new(MPI_Datatype h, long n)
{
    rtype t = {h, 0, rt_xalloc((size_t)n * sizeof(MPI_Aint)), rt_xalloc((size_t)n * sizeof(int))};
    return t;
}

static inline void rt_push(rtype *t, MPI_Aint d, int len)
{
    t->disp[t->n] = d;
    t->len[t->n] = len;
    t->n++;
}

static inline MPI_Aint rt_extent(MPI_Datatype h)
{
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(h, &lb, &ext));
    return ext;
}

/* a predefined type: one entry (two for the pair types, none for LB/UB) */
static inline rtype rt_basic(MPI_Datatype h)
{
    rtype t = rt_new(h, 2);
    int sz;
    CHECK_MPI(MPI_Type_size(h, &sz));
    if (h == MPI_LB || h == MPI_UB) return t;
    if (h == MPI_SHORT_INT) {
        rt_push(&t, 0, sizeof(short));
        rt_push(&t,
                offsetof(
                    struct {
                        short a;
                        int b;
                    },
                    b),
                sizeof(int));
    } else if (h == MPI_DOUBLE_INT || h == MPI_LONG_INT || h == MPI_LONG_DOUBLE_INT ||
               h == MPI_FLOAT_INT) {
        rt_push(&t, 0, sz - (int)sizeof(int));
        rt_push(&t, sz - (int)sizeof(int), sizeof(int));
    } else {
        rt_push(&t, 0, sz);
    }
    return t;
}

/* appends bl copies of c, from disp, 'extent of c' apart */
static inline void rt_append(rtype *t, const rtype *c, long bl, MPI_Aint disp)
{
    MPI_Aint ext = rt_extent(c->h);
    for (long j = 0; j < bl; j++)
        for (long e = 0; e < c->n; e++) rt_push(t, disp + j * ext + c->disp[e], c->len[e]);
}

static inline rtype rt_contiguous(int count, const rtype *c)
{
    MPI_Datatype h;
    CHECK_MPI(MPI_Type_contiguous(count, c->h, &h));
    rtype t = rt_new(h, (long)count * c->n);
    rt_append(&t, c, count, 0);
    return t;
}

static inline rtype rt_hvector(int count, int bl, MPI_Aint stride, const rtype *c)
{
    MPI_Datatype h;
    CHECK_MPI(MPI_Type_create_hvector(count, bl, stride, c->h, &h));
    rtype t = rt_new(h, (long)count * bl * c->n);
    for (int i = 0; i < count; i++) rt_append(&t, c, bl, i * stride);
    return t;
}

static inline rtype rt_vector(int count, int bl, int stride, const rtype *c)
{
    MPI_Datatype h;
    MPI_Aint ext = rt_extent(c->h);
    CHECK_MPI(MPI_Type_vector(count, bl, stride, c->h, &h));
    rtype t = rt_new(h, (long)count * bl * c->n);
    for (int i = 0; i < count; i++) rt_append(&t, c, bl, (MPI_Aint)i * stride * ext);
    return t;
}

static inline rtype rt_indexed(int count, const int *bl, const int *d, const rtype *c)
{
    MPI_Datatype h;
    MPI_Aint ext = rt_extent(c->h);
    long n = 0;
    for (int i = 0; i < count; i++) n += bl[i];
    CHECK_MPI(MPI_Type_indexed(count, bl, d, c->h, &h));
    rtype t = rt_new(h, n * c->n);
    for (int i = 0; i < count; i++) rt_append(&t, c, bl[i], (MPI_Aint)d[i] * ext);
    return t;
}

static inline rtype rt_hindexed(int count, const int *bl, const MPI_Aint *d, const rtype *c)
{
    MPI_Datatype h;
    long n = 0;
    for (int i = 0; i < count; i++) n += bl[i];
    CHECK_MPI(MPI_Type_create_hindexed(count, bl, d, c->h, &h));
    rtype t = rt_new(h, n * c->n);
    for (int i = 0; i < count; i++) rt_append(&t, c, bl[i], d[i]);
    return t;
}

static inline rtype rt_indexed_block(int count, int bl, const int *d, const rtype *c)
{
    MPI_Datatype h;
    MPI_Aint ext = rt_extent(c->h);
    CHECK_MPI(MPI_Type_create_indexed_block(count, bl, d, c->h, &h));
    rtype t = rt_new(h, (long)count * bl * c->n);
    for (int i = 0; i < count; i++) rt_append(&t, c, bl, (MPI_Aint)d[i] * ext);
    return t;
}

static inline rtype rt_hindexed_block(int count, int bl, const MPI_Aint *d, const rtype *c)
{
    MPI_Datatype h;
    CHECK_MPI(MPI_Type_create_hindexed_block(count, bl, d, c->h, &h));
    rtype t = rt_new(h, (long)count * bl * c->n);
    for (int i = 0; i < count; i++) rt_append(&t, c, bl, d[i]);
    return t;
}

static inline rtype rt_struct(int count, const int *bl, const MPI_Aint *d, const rtype *const *c)
{
    MPI_Datatype h, types[16];
    long n = 0;
    for (int i = 0; i < count; i++) {
        n += bl[i] * c[i]->n;
        types[i] = c[i]->h;
    }
    CHECK_MPI(MPI_Type_create_struct(count, bl, d, types, &h));
    rtype t = rt_new(h, n);
    for (int i = 0; i < count; i++) rt_append(&t, c[i], bl[i], d[i]);
    return t;
}

static inline rtype rt_resized(const rtype *c, MPI_Aint lb, MPI_Aint ext)
{
    MPI_Datatype h;
    CHECK_MPI(MPI_Type_create_resized(c->h, lb, ext, &h));
    rtype t = rt_new(h, c->n);
    rt_append(&t, c, 1, 0);
    return t;
}

static inline rtype rt_dup(const rtype *c)
{
    MPI_Datatype h;
    CHECK_MPI(MPI_Type_dup(c->h, &h));
    rtype t = rt_new(h, c->n);
    rt_append(&t, c, 1, 0);
    return t;
}

static inline void rt_free(rtype *t)
{
    int combiner, ni, na, nd;
    CHECK_MPI(MPI_Type_get_envelope(t->h, &ni, &na, &nd, &combiner));
    if (combiner != MPI_COMBINER_NAMED) CHECK_MPI(MPI_Type_free(&t->h));
    free(t->disp);
    free(t->len);
    t->disp = NULL;
    t->len = NULL;
}

/* Bytes of the typemap of 'count' elements: [lo, hi) relative to buf. */
static inline void rt_span(const rtype *t, int count, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint ext = rt_extent(t->h);
    *lo = 0;
    *hi = 0;
    int first = 1;
    for (int k = 0; k < count; k++)
        for (long e = 0; e < t->n; e++) {
            MPI_Aint a = k * ext + t->disp[e], b = a + t->len[e];
            if (first || a < *lo) *lo = a;
            if (first || b > *hi) *hi = b;
            first = 0;
        }
}

/* The packed stream by the model; returns its length. */
static inline size_t rt_pack(const rtype *t, const char *buf, int count, char *out)
{
    MPI_Aint ext = rt_extent(t->h);
    size_t pos = 0;
    for (int k = 0; k < count; k++)
        for (long e = 0; e < t->n; e++) {
            memcpy(out + pos, buf + (k * ext + t->disp[e]), (size_t)t->len[e]);
            pos += (size_t)t->len[e];
        }
    return pos;
}

static inline void rt_unpack(const rtype *t, char *buf, int count, const char *in)
{
    MPI_Aint ext = rt_extent(t->h);
    size_t pos = 0;
    for (int k = 0; k < count; k++)
        for (long e = 0; e < t->n; e++) {
            memcpy(buf + (k * ext + t->disp[e]), in + pos, (size_t)t->len[e]);
            pos += (size_t)t->len[e];
        }
}

/* A buffer that holds 'count' elements of t with 'margin' spare bytes on
 * both sides; *base is where buf points for MPI calls. */
typedef struct {
    char *mem, *base;
    size_t bytes;
} rbuf;

static inline rbuf rb_alloc(const rtype *t, int count, size_t margin)
{
    MPI_Aint lo, hi;
    rt_span(t, count, &lo, &hi);
    rbuf b;
    b.bytes = (size_t)(hi - lo) + 2 * margin;
    b.mem = rt_xalloc(b.bytes);
    b.base = (char *)((uintptr_t)b.mem + margin - (uintptr_t)lo);
    return b;
}

static inline void rb_fill(rbuf *b, unsigned seed)
{
    for (size_t i = 0; i < b->bytes; i++) b->mem[i] = (char)((i * 131u + seed * 17u + 7u) >> 1);
}

#endif
