/* Views: the loop nest of a buffer's data (see datatype.h), made from our
 * own datatype or from a peer's description, and turned into iovecs for
 * any byte range.  The pack loops (dt_pack.c) walk the same views. */
#include <stdlib.h>

#include "datatype/dt_internal.h"

/* The layout's unit repeated 'reps' times 'stride' apart inside each
 * element: when the units tile the element (or there is only one), the
 * element and unit levels fold into one, so count elements of a vector are
 * one long run of equal blocks at a fixed stride. */
void tern_dt_view_local(struct tern_dt_view *v, const struct tern_datatype *dt, const void *buf,
                        size_t count)
{
    v->base = (uintptr_t)buf;
    v->bytes = count * dt->size;
    v->owned = NULL;
    const struct tern_dt_layout *L = dt->layout;
    if (dt->contig || v->bytes == 0 || !L || L->nblocks == 0) {
        v->one = (struct tern_dt_block){dt->true_lb, v->bytes};
        v->one_prefix[0] = 0;
        v->one_prefix[1] = v->bytes;
        v->blocks = &v->one;
        v->prefix = v->one_prefix;
        v->nblocks = 1;
        v->unit = v->bytes ? v->bytes : 1;
        v->n_outer = v->n_mid = 1;
        v->s_outer = v->s_mid = 0;
        return;
    }
    v->blocks = L->blocks;
    v->prefix = L->prefix;
    v->nblocks = L->nblocks;
    v->unit = L->unit;
    if (L->reps == 1) {
        v->n_outer = 1;
        v->n_mid = count;
        v->s_outer = 0;
        v->s_mid = dt->extent;
    } else if ((MPI_Aint)L->reps * L->stride == dt->extent) {
        v->n_outer = 1;
        v->n_mid = L->reps * count;
        v->s_outer = 0;
        v->s_mid = L->stride;
    } else {
        v->n_outer = count;
        v->n_mid = L->reps;
        v->s_outer = dt->extent;
        v->s_mid = L->stride;
    }
}

void tern_dt_describe(const struct tern_dt_view *v, struct tern_dt_desc *d)
{
    d->base = (uint64_t)v->base;
    d->blocks = (uint64_t)(uintptr_t)v->blocks;
    d->nblocks = v->nblocks;
    d->unit = v->unit;
    d->n_outer = v->n_outer;
    d->n_mid = v->n_mid;
    d->s_outer = (int64_t)v->s_outer;
    d->s_mid = (int64_t)v->s_mid;
    d->disp0 = (int64_t)v->blocks[0].disp;
    d->len0 = v->blocks[0].len;
    d->bytes = v->bytes;
}

int tern_dt_view_remote(struct tern_dt_view *v, const struct tern_dt_desc *d,
                        struct tern_dt_block *blocks)
{
    v->base = (uintptr_t)d->base;
    v->bytes = (size_t)d->bytes;
    v->nblocks = (size_t)d->nblocks;
    v->unit = (size_t)d->unit;
    v->n_outer = (size_t)d->n_outer;
    v->n_mid = (size_t)d->n_mid;
    v->s_outer = (MPI_Aint)d->s_outer;
    v->s_mid = (MPI_Aint)d->s_mid;
    v->owned = NULL;
    if (v->nblocks <= 1) {
        free(blocks);
        v->nblocks = 1;
        v->one = (struct tern_dt_block){(MPI_Aint)d->disp0, (size_t)d->len0};
        v->one_prefix[0] = 0;
        v->one_prefix[1] = v->one.len;
        v->blocks = &v->one;
        v->prefix = v->one_prefix;
        return MPI_SUCCESS;
    }
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

static size_t mean_piece(size_t bytes, size_t n_outer, size_t n_mid, size_t nblocks)
{
    size_t pieces = n_outer * n_mid * nblocks;
    return pieces ? bytes / pieces : bytes;
}

size_t tern_dt_view_piece(const struct tern_dt_view *v)
{
    return mean_piece(v->bytes, v->n_outer, v->n_mid, v->nblocks);
}

size_t tern_dt_desc_piece(const struct tern_dt_desc *d)
{
    return mean_piece((size_t)d->bytes, (size_t)d->n_outer, (size_t)d->n_mid, (size_t)d->nblocks);
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
        uintptr_t addr = v->base + (uintptr_t)((MPI_Aint)at.e * v->s_outer + (MPI_Aint)at.r * v->s_mid +
                                               bl->disp + (MPI_Aint)at.boff);
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
            if (++at.r == v->n_mid) {
                at.r = 0;
                at.e++;
            }
        }
    }
    *bytes = got;
    return n;
}
