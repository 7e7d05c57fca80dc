/* The layout compiler: a type's constructor record -> its block list.
 *
 * The result describes one element as 'reps' units 'stride' bytes apart
 * (see dt_internal.h).  Vectors (and contiguous runs, and hvectors) keep
 * their repetition at the top: the unit is one block of blocklength old
 * elements, flattened.  Everything else flattens into a single unit.  Old
 * types are compiled on demand (they need not be committed) and their
 * layouts cached, so nesting costs one flattening per level.
 *
 * Blocks keep typemap order (which is pack order); a block that starts
 * where the previous one ends is merged into it, and zero-length blocks
 * vanish.  A unit made of equal blocks at equal distances becomes one block
 * repeated, so an indexed type that is really a vector packs like one. */
#include <stdlib.h>
#include <string.h>

#include "datatype/dt_internal.h"

struct blist {
    struct tern_dt_block *b;
    size_t n, cap;
    int oom;
};

static void blist_add(struct blist *l, MPI_Aint disp, size_t len)
{
    if (len == 0 || l->oom) return;
    if (l->n && l->b[l->n - 1].disp + (MPI_Aint)l->b[l->n - 1].len == disp) {
        l->b[l->n - 1].len += len;
        return;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        struct tern_dt_block *nb = realloc(l->b, cap * sizeof *nb);
        if (!nb) {
            l->oom = 1;
            return;
        }
        l->b = nb;
        l->cap = cap;
    }
    l->b[l->n].disp = disp;
    l->b[l->n].len = len;
    l->n++;
}

/* n elements of a type with layout L and extent 'extent', from base. */
static void blist_add_elems(struct blist *l, const struct tern_dt_layout *L, MPI_Aint extent,
                            MPI_Aint base, size_t n)
{
    if (n == 0 || L->nblocks == 0) return;
    if (L->nblocks == 1 && L->reps == 1) {
        const struct tern_dt_block *b = &L->blocks[0];
        if ((MPI_Aint)b->len == extent) {
            blist_add(l, base + b->disp, b->len * n); /* dense: one run */
            return;
        }
        for (size_t k = 0; k < n && !l->oom; k++)
            blist_add(l, base + (MPI_Aint)k * extent + b->disp, b->len);
        return;
    }
    for (size_t k = 0; k < n && !l->oom; k++) {
        MPI_Aint eb = base + (MPI_Aint)k * extent;
        for (size_t r = 0; r < L->reps; r++) {
            MPI_Aint ub = eb + (MPI_Aint)r * L->stride;
            for (size_t i = 0; i < L->nblocks; i++)
                blist_add(l, ub + L->blocks[i].disp, L->blocks[i].len);
        }
    }
}

void tern_dt_layout_free(struct tern_dt_layout *l)
{
    if (!l || l->is_static) return;
    free(l->blocks);
    free(l->prefix);
    free(l);
}

/* Turns the unit list into t's layout. */
static int finish(struct tern_dt_obj *t, struct blist *l, size_t reps, MPI_Aint stride)
{
    if (l->oom) {
        free(l->b);
        return MPI_ERR_NO_MEM;
    }
    struct tern_dt_layout *L = calloc(1, sizeof *L);
    if (!L) {
        free(l->b);
        return MPI_ERR_NO_MEM;
    }
    if (l->n == 0 || reps == 0) {
        l->n = 0;
        reps = 1;
        stride = 0;
    }
    /* one block repeated with no gap: one block */
    if (l->n == 1 && reps > 1 && stride == (MPI_Aint)l->b[0].len) {
        l->b[0].len *= reps;
        reps = 1;
        stride = 0;
    }
    /* equal blocks at equal distances: one block repeated */
    if (reps == 1 && l->n > 2) {
        MPI_Aint d = l->b[1].disp - l->b[0].disp;
        size_t i = 1;
        for (; i < l->n; i++)
            if (l->b[i].len != l->b[0].len || l->b[i].disp - l->b[i - 1].disp != d) break;
        if (i == l->n) {
            reps = l->n;
            stride = d;
            l->n = 1;
        }
    }
    L->nblocks = l->n;
    L->reps = reps;
    L->stride = stride;
    L->blocks = l->b;
    if (l->n && l->n < l->cap) {
        struct tern_dt_block *nb = realloc(l->b, l->n * sizeof *nb);
        if (nb) L->blocks = nb;
    }
    L->prefix = malloc((l->n + 1) * sizeof(size_t));
    if (!L->prefix) {
        free(L->blocks);
        free(L);
        return MPI_ERR_NO_MEM;
    }
    L->prefix[0] = 0;
    for (size_t i = 0; i < l->n; i++) L->prefix[i + 1] = L->prefix[i] + L->blocks[i].len;
    L->unit = L->prefix[l->n];
    t->pub.layout = L;
    return MPI_SUCCESS;
}

/* t has the same data as a type of layout CL: its unit and repetition. */
static int copy_layout(struct tern_dt_obj *t, const struct tern_dt_layout *CL)
{
    struct blist l = {0};
    for (size_t i = 0; i < CL->nblocks; i++) blist_add(&l, CL->blocks[i].disp, CL->blocks[i].len);
    return finish(t, &l, CL->reps, CL->stride);
}

int tern_dt_layout_build(struct tern_dt_obj *t)
{
    if (t->pub.layout) return MPI_SUCCESS;
    if (t->impl) {
        /* subarray, darray: the data of the equivalent type */
        int rc = tern_dt_layout_build(t->impl);
        if (rc) return rc;
        return copy_layout(t, t->impl->pub.layout);
    }
    for (int i = 0; i < t->ntypes; i++) {
        int rc = tern_dt_layout_build(t->types[i]);
        if (rc) return rc;
    }
    struct blist l = {0};
    const struct tern_dt_obj *c = t->ntypes ? t->types[0] : NULL;
    const struct tern_dt_layout *CL = c ? c->pub.layout : NULL;
    MPI_Aint cext = c ? c->pub.extent : 0;
    const MPI_Count *in = t->ints;
    const MPI_Aint *ad = t->addrs;
    switch (t->combiner) {
    case MPI_COMBINER_CONTIGUOUS:
        blist_add_elems(&l, CL, cext, 0, 1);
        return finish(t, &l, (size_t)in[0], cext);
    case MPI_COMBINER_VECTOR:
        blist_add_elems(&l, CL, cext, 0, (size_t)in[1]);
        return finish(t, &l, (size_t)in[0], (MPI_Aint)in[2] * cext);
    case MPI_COMBINER_HVECTOR:
        blist_add_elems(&l, CL, cext, 0, (size_t)in[1]);
        return finish(t, &l, (size_t)in[0], ad[0]);
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < in[0]; i++)
            blist_add_elems(&l, CL, cext, (MPI_Aint)in[1 + in[0] + i] * cext, (size_t)in[1 + i]);
        return finish(t, &l, 1, 0);
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < in[0]; i++) blist_add_elems(&l, CL, cext, ad[i], (size_t)in[1 + i]);
        return finish(t, &l, 1, 0);
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < in[0]; i++)
            blist_add_elems(&l, CL, cext, (MPI_Aint)in[2 + i] * cext, (size_t)in[1]);
        return finish(t, &l, 1, 0);
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < in[0]; i++) blist_add_elems(&l, CL, cext, ad[i], (size_t)in[1]);
        return finish(t, &l, 1, 0);
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < in[0]; i++)
            blist_add_elems(&l, t->types[i]->pub.layout, t->types[i]->pub.extent, ad[i],
                            (size_t)in[1 + i]);
        return finish(t, &l, 1, 0);
    case MPI_COMBINER_RESIZED:
    case MPI_COMBINER_DUP:
        return copy_layout(t, CL);
    default:
        return MPI_ERR_INTERN;
    }
}
