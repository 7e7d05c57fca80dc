/* Views: the loop nest of a buffer's data (see datatype.h), made from our
 * own datatype or from a peer's description, and turned into iovecs for
 * any byte range.  The pack loops (dt_pack.c) walk the same views. */
#include <stdlib.h>
#include <string.h>

#include "datatype/dt_internal.h"

static void one_block(struct tern_dt_view *v, MPI_Aint disp, size_t len)
{
    v->one = (struct tern_dt_block){disp, len};
    v->one_prefix[0] = 0;
    v->one_prefix[1] = len;
    v->blocks = &v->one;
    v->prefix = v->one_prefix;
    v->nblocks = 1;
    v->unit = len ? len : 1;
}

/* The type's nest with the count as one more level, merged into the
 * outermost when the elements continue it (count elements of a vector are
 * one longer vector). */
void tern_dt_view_local(struct tern_dt_view *v, const struct tern_datatype *dt, const void *buf,
                        size_t count)
{
    v->base = (uintptr_t)buf;
    v->bytes = count * dt->size;
    v->owned = NULL;
    const struct tern_dt_layout *L = dt->layout;
    if (dt->contig || v->bytes == 0 || !L || L->nblocks == 0) {
        one_block(v, dt->true_lb, v->bytes);
        v->nlevels = 1;
        v->level[0] = (struct tern_dt_level){1, 0};
        return;
    }
    v->blocks = L->blocks;
    v->prefix = L->prefix;
    v->nblocks = L->nblocks;
    v->unit = L->unit;
    v->nlevels = L->nlevels;
    memcpy(v->level, L->level, (size_t)L->nlevels * sizeof L->level[0]);
    struct tern_dt_level *top = v->nlevels ? &v->level[v->nlevels - 1] : NULL;
    if (top && (MPI_Aint)top->count * top->stride == dt->extent)
        top->count *= count;
    else
        v->level[v->nlevels++] = (struct tern_dt_level){count, dt->extent};
}

void tern_dt_describe(const struct tern_dt_view *v, struct tern_dt_desc *d)
{
    d->base = (uint64_t)v->base;
    d->blocks = (uint64_t)(uintptr_t)v->blocks;
    d->nblocks = v->nblocks;
    d->unit = v->unit;
    d->disp0 = (int64_t)v->blocks[0].disp;
    d->len0 = v->blocks[0].len;
    d->bytes = v->bytes;
    d->nlevels = (uint64_t)v->nlevels;
    for (int k = 0; k < v->nlevels; k++) {
        d->level[k].count = v->level[k].count;
        d->level[k].stride = (int64_t)v->level[k].stride;
    }
}

int tern_dt_view_remote(struct tern_dt_view *v, const struct tern_dt_desc *d,
                        struct tern_dt_block *blocks)
{
    v->base = (uintptr_t)d->base;
    v->bytes = (size_t)d->bytes;
    v->owned = NULL;
    v->nlevels = (int)d->nlevels;
    for (int k = 0; k < v->nlevels; k++)
        v->level[k] =
            (struct tern_dt_level){(size_t)d->level[k].count, (MPI_Aint)d->level[k].stride};
    if (d->nblocks <= 1) {
        free(blocks);
        one_block(v, (MPI_Aint)d->disp0, (size_t)d->len0);
        v->unit = (size_t)d->unit;
        return MPI_SUCCESS;
    }
    v->nblocks = (size_t)d->nblocks;
    v->unit = (size_t)d->unit;
    /* one allocation holds both: the blocks first, their prefix sums after */
    size_t *prefix = malloc((v->nblocks + 1) * sizeof *prefix);
    if (!prefix) {
        free(blocks);
        return MPI_ERR_NO_MEM;
    }
    prefix[0] = 0;
    for (size_t i = 0; i < v->nblocks; i++) prefix[i + 1] = prefix[i] + blocks[i].len;
    v->blocks = blocks;
    v->prefix = prefix;
    v->owned = blocks;
    return MPI_SUCCESS;
}

void tern_dt_view_free(struct tern_dt_view *v)
{
    if (!v->owned) return;
    free(v->owned);
    free((void *)(uintptr_t)v->prefix);
    v->owned = NULL;
}

/* Every unit of 'unit' bytes is nblocks pieces. */
static size_t mean_piece(size_t bytes, size_t unit, size_t nblocks)
{
    size_t pieces = unit ? bytes / unit * nblocks : 0;
    return pieces ? bytes / pieces : bytes;
}

size_t tern_dt_view_piece(const struct tern_dt_view *v)
{
    return mean_piece(v->bytes, v->unit, v->nblocks);
}

size_t tern_dt_desc_piece(const struct tern_dt_desc *d)
{
    return mean_piece((size_t)d->bytes, (size_t)d->unit, (size_t)d->nblocks);
}

size_t tern_dt_view_iov(const struct tern_dt_view *v, size_t offset, size_t len, struct iovec *iov,
                        size_t max, size_t *bytes)
{
    size_t n = 0, got = 0;
    if (offset < v->bytes && len > v->bytes - offset) len = v->bytes - offset;
    if (offset >= v->bytes || len == 0 || max == 0) {
        *bytes = 0;
        return 0;
    }
    struct tern_dt_pos at;
    tern_dt_pos_seek(v, offset, &at);
    while (got < len) {
        const struct tern_dt_block *bl = &v->blocks[at.b];
        uintptr_t addr =
            v->base + (uintptr_t)(tern_dt_pos_unit(v, &at) + bl->disp + (MPI_Aint)at.boff);
        size_t piece = bl->len - at.boff;
        if (piece > len - got) piece = len - got;
        if (n && (uintptr_t)iov[n - 1].iov_base + iov[n - 1].iov_len == addr) {
            iov[n - 1].iov_len += piece;
        } else {
            if (n == max) break;
            iov[n].iov_base = (void *)addr;
            iov[n].iov_len = piece;
            n++;
        }
        got += piece;
        at.boff = 0;
        if (++at.b == v->nblocks) {
            at.b = 0;
            tern_dt_pos_advance(v, &at, 1);
        }
    }
    *bytes = got;
    return n;
}
