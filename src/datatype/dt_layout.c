/* The layout compiler: a type's constructor record -> its loop nest (see
 * dt_internal.h).
 *
 * Contiguous runs, vectors and hvectors wrap their child's nest in levels
 * of repetition, so nesting costs nothing per element; a level that merely
 * continues the one inside (its stride is that level's span) is merged
 * into it, and a block repeated with no gap becomes one longer block.  An
 * indexed type with a single non-empty block does the same from its
 * displacement.  Other indexed types and structs spell their members out
 * as the unit's blocks.  Old types are compiled on demand (they need not
 * be committed) and their layouts cached.
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

/* The loop nest being built: the unit's blocks and the levels around it. */
struct nest {
    struct blist l;
    int nlevels;
    struct tern_dt_level level[TERN_DT_LEVELS];
};

/* Spells out every unit of a nest (blocks b repeated by the levels) as
 * blocks, shifted by 'base', into l (typemap order: innermost level fastest). */
static void add_units(struct blist *l, const struct tern_dt_block *b, size_t nb,
                      const struct tern_dt_level *lv, int nlevels, MPI_Aint base)
{
    size_t idx[TERN_DT_LEVELS] = {0};
    for (;;) {
        MPI_Aint off = base;
        for (int k = 0; k < nlevels; k++) off += (MPI_Aint)idx[k] * lv[k].stride;
        for (size_t i = 0; i < nb && !l->oom; i++) blist_add(l, off + b[i].disp, b[i].len);
        if (l->oom) return;
        int k = 0;
        while (k < nlevels && ++idx[k] == lv[k].count) idx[k++] = 0;
        if (k == nlevels) return;
    }
}

/* n elements of a type with layout L and extent 'extent', from base, spelled
 * out as blocks (members of structs and indexed types). */
static void blist_add_elems(struct blist *l, const struct tern_dt_layout *L, MPI_Aint extent,
                            MPI_Aint base, size_t n)
{
    if (n == 0 || L->nblocks == 0) return;
    if (L->nblocks == 1 && L->nlevels == 0 && (MPI_Aint)L->blocks[0].len == extent) {
        blist_add(l, base + L->blocks[0].disp, L->blocks[0].len * n); /* dense: one run */
        return;
    }
    for (size_t k = 0; k < n && !l->oom; k++)
        add_units(l, L->blocks, L->nblocks, L->level, L->nlevels, base + (MPI_Aint)k * extent);
}

/* Every level spelled out as blocks, to make room for another (a nest
 * deeper than TERN_DT_LEVELS: rare enough to pay for its blocks). */
static void flatten(struct nest *n)
{
    struct blist out = {0};
    add_units(&out, n->l.b, n->l.n, n->level, n->nlevels, 0);
    free(n->l.b);
    n->l = out;
    n->nlevels = 0;
}

/* Wraps the nest in 'count' repetitions 'stride' bytes apart, merging with
 * what is there when the copies continue it (a dense block grows, a level
 * whose span is the stride counts further). */
static void nest_rep(struct nest *n, size_t count, MPI_Aint stride)
{
    if (count == 1 || n->l.n == 0) return;
    if (count == 0) {
        n->l.n = 0;
        n->nlevels = 0;
        return;
    }
    if (n->nlevels == 0 && n->l.n == 1 && (MPI_Aint)n->l.b[0].len == stride) {
        n->l.b[0].len *= count;
        return;
    }
    if (n->nlevels) {
        struct tern_dt_level *top = &n->level[n->nlevels - 1];
        if ((MPI_Aint)top->count * top->stride == stride) {
            top->count *= count;
            return;
        }
    }
    if (n->nlevels == TERN_DT_LEVELS) flatten(n);
    n->level[n->nlevels++] = (struct tern_dt_level){count, stride};
}

/* The child's nest, shifted by disp. */
static void nest_copy(struct nest *n, const struct tern_dt_layout *CL, MPI_Aint disp)
{
    for (size_t i = 0; i < CL->nblocks; i++)
        blist_add(&n->l, CL->blocks[i].disp + disp, CL->blocks[i].len);
    n->nlevels = CL->nlevels;
    memcpy(n->level, CL->level, sizeof n->level);
}

void tern_dt_layout_free(struct tern_dt_layout *l)
{
    if (!l || l->is_static) return;
    free(l->blocks);
    free(l->prefix);
    free(l);
}

/* Turns the nest into t's layout. */
static int finish(struct tern_dt_obj *t, struct nest *n)
{
    struct blist *l = &n->l;
    if (l->oom) {
        free(l->b);
        return MPI_ERR_NO_MEM;
    }
    struct tern_dt_layout *L = calloc(1, sizeof *L);
    if (!L) {
        free(l->b);
        return MPI_ERR_NO_MEM;
    }
    if (l->n == 0) n->nlevels = 0;
    /* equal blocks at equal distances: one block repeated */
    if (n->nlevels == 0 && l->n > 2) {
        MPI_Aint d = l->b[1].disp - l->b[0].disp;
        size_t i = 1;
        for (; i < l->n; i++)
            if (l->b[i].len != l->b[0].len || l->b[i].disp - l->b[i - 1].disp != d) break;
        if (i == l->n) {
            n->level[n->nlevels++] = (struct tern_dt_level){l->n, d};
            l->n = 1;
        }
    }
    /* a block repeated with no gap: one longer block */
    while (n->nlevels && l->n == 1 && n->level[0].stride == (MPI_Aint)l->b[0].len) {
        l->b[0].len *= n->level[0].count;
        memmove(n->level, n->level + 1, (size_t)--n->nlevels * sizeof n->level[0]);
    }
    L->nblocks = l->n;
    L->nlevels = n->nlevels;
    memcpy(L->level, n->level, sizeof L->level);
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

/* The single block of an indexed or struct type that holds data, or -1
 * when there are several: with one, the type keeps its child's nest. */
static long only_block(const struct tern_dt_obj *t, const MPI_Count *bl, int nb, int block_form)
{
    long found = -1;
    for (int i = 0; i < nb; i++) {
        const struct tern_dt_obj *c =
            t->combiner == MPI_COMBINER_STRUCT ? t->types[i] : t->types[0];
        if (bl[block_form ? 0 : i] == 0 || c->pub.size == 0) continue;
        if (found >= 0) return -1;
        found = i;
    }
    return found;
}

int tern_dt_layout_build(struct tern_dt_obj *t)
{
    if (t->pub.layout) return MPI_SUCCESS;
    const struct tern_dt_obj *c = t->impl ? t->impl : t->ntypes ? t->types[0] : NULL;
    if (t->impl) {
        int rc = tern_dt_layout_build(t->impl);
        if (rc) return rc;
    }
    for (int i = 0; i < t->ntypes; i++) {
        int rc = tern_dt_layout_build(t->types[i]);
        if (rc) return rc;
    }
    struct nest n = {0};
    const struct tern_dt_layout *CL = c ? c->pub.layout : NULL;
    MPI_Aint cext = c ? c->pub.extent : 0;
    const MPI_Count *in = t->ints;
    const MPI_Aint *ad = t->addrs;
    if (t->impl) { /* subarray, darray: the data of the equivalent type */
        nest_copy(&n, CL, 0);
        return finish(t, &n);
    }
    switch (t->combiner) {
    case MPI_COMBINER_CONTIGUOUS:
        nest_copy(&n, CL, 0);
        nest_rep(&n, (size_t)in[0], cext);
        return finish(t, &n);
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
        nest_copy(&n, CL, 0);
        nest_rep(&n, (size_t)in[1], cext);
        nest_rep(&n, (size_t)in[0],
                 t->combiner == MPI_COMBINER_VECTOR ? (MPI_Aint)in[2] * cext : ad[0]);
        return finish(t, &n);
    case MPI_COMBINER_RESIZED:
    case MPI_COMBINER_DUP: nest_copy(&n, CL, 0); return finish(t, &n);
    default: break;
    }
    /* Indexed and struct types: one non-empty block keeps its child's nest;
     * otherwise the blocks are spelled out. */
    int nb = (int)in[0];
    int block_form =
        t->combiner == MPI_COMBINER_INDEXED_BLOCK || t->combiner == MPI_COMBINER_HINDEXED_BLOCK;
    const MPI_Count *bl = in + 1;
    long one = only_block(t, bl, nb, block_form);
    for (int i = 0; i < nb; i++) {
        size_t len = (size_t)bl[block_form ? 0 : i];
        MPI_Aint disp;
        switch (t->combiner) {
        case MPI_COMBINER_INDEXED: disp = (MPI_Aint)in[1 + nb + i] * cext; break;
        case MPI_COMBINER_INDEXED_BLOCK: disp = (MPI_Aint)in[2 + i] * cext; break;
        case MPI_COMBINER_HINDEXED:
        case MPI_COMBINER_HINDEXED_BLOCK:
        case MPI_COMBINER_STRUCT: disp = ad[i]; break;
        default: return MPI_ERR_INTERN;
        }
        const struct tern_dt_obj *m = t->combiner == MPI_COMBINER_STRUCT ? t->types[i] : c;
        if (one < 0) {
            blist_add_elems(&n.l, m->pub.layout, m->pub.extent, disp, len);
        } else if (i == one) {
            nest_copy(&n, m->pub.layout, disp);
            nest_rep(&n, len, m->pub.extent);
        }
    }
    return finish(t, &n);
}
