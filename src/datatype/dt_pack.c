/* Pack, unpack and typed copy over a view of the compiled layout (the
 * type's loop nest with the count as its outermost level, dt_view.c).
 *
 * A unit of one block is the common case (vectors, subarrays, resized
 * scalars): the innermost level's blocks are then copied by one strided
 * loop, specialised for the usual block lengths, whatever the nesting
 * above.  Any byte offset of the packed stream is found by division and a
 * binary search in the unit's prefix sums, so a pipelined transfer resumes
 * mid-block at no cost; nothing recurses, however deep the nest. */
#include <stdlib.h>
#include <string.h>

#include "datatype/dt_internal.h"

/* The block holding unit offset 'off': the last b with prefix[b] <= off. */
static size_t find_block(const size_t *prefix, size_t nblocks, size_t off)
{
    size_t lo = 0, hi = nblocks; /* prefix[lo] <= off < prefix[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (prefix[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void tern_dt_pos_seek(const struct tern_dt_view *v, size_t offset, struct tern_dt_pos *at)
{
    size_t u = offset / v->unit, uoff = offset % v->unit;
    for (int k = 0; k < v->nlevels; k++) {
        at->idx[k] = u % v->level[k].count;
        u /= v->level[k].count;
    }
    at->b = v->nblocks == 1 ? 0 : find_block(v->prefix, v->nblocks, uoff);
    at->boff = uoff - v->prefix[at->b];
}

/* A copy of n bytes that does not call memcpy for the short blocks typical
 * of structs: two overlapping fixed-size moves cover any length up to 32. */
static inline __attribute__((always_inline)) void copy_bytes(char *d, const char *s, size_t n)
{
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        char a[16], b[16];
        memcpy(a, s, 16);
        memcpy(b, s + n - 16, 16);
        memcpy(d, a, 16);
        memcpy(d + n - 16, b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else {
        for (size_t i = 0; i < n; i++) d[i] = s[i];
    }
}

#define TERN_STRIDED(N)                                                      \
    do {                                                                     \
        if (unpack)                                                          \
            for (size_t i_ = 0; i_ < k; i_++)                                \
                memcpy(tern_dt_at(p, (MPI_Aint)i_ *s), s8 + i_ * (N), (N));  \
        else                                                                 \
            for (size_t i_ = 0; i_ < k; i_++)                                \
                memcpy(s8 + i_ * (N), tern_dt_at(p, (MPI_Aint)i_ * s), (N)); \
    } while (0)

/* k blocks of len bytes, s apart from p, to/from the stream s8. */
static inline __attribute__((always_inline)) void strided(char *p, MPI_Aint s, char *s8, size_t len,
                                                          size_t k, const int unpack)
{
    switch (len) {
    case 1: TERN_STRIDED(1); break;
    case 2: TERN_STRIDED(2); break;
    case 4: TERN_STRIDED(4); break;
    case 8: TERN_STRIDED(8); break;
    case 12: TERN_STRIDED(12); break;
    case 16: TERN_STRIDED(16); break;
    case 24: TERN_STRIDED(24); break;
    case 32: TERN_STRIDED(32); break;
    default:
        if (unpack)
            for (size_t i_ = 0; i_ < k; i_++)
                copy_bytes(tern_dt_at(p, (MPI_Aint)i_ * s), s8 + i_ * len, len);
        else
            for (size_t i_ = 0; i_ < k; i_++)
                copy_bytes(s8 + i_ * len, tern_dt_at(p, (MPI_Aint)i_ * s), len);
        break;
    }
}

static inline __attribute__((always_inline)) void move(char *p, char *s8, size_t n,
                                                       const int unpack)
{
    if (unpack)
        copy_bytes(p, s8, n);
    else
        copy_bytes(s8, p, n);
}

static inline __attribute__((always_inline)) size_t
walk_copy(const struct tern_dt_view *w, size_t offset, char *s8, size_t len, const int unpack)
{
    const void *buf = (const void *)w->base;
    if (offset >= w->bytes || len == 0) return 0;
    if (len > w->bytes - offset) len = w->bytes - offset;
    struct tern_dt_pos at;
    tern_dt_pos_seek(w, offset, &at);
    size_t b = at.b, boff = at.boff;
    size_t left = len;

    if (w->nblocks == 1) {
        /* runs of the innermost level: k blocks at one stride in one loop */
        const size_t blen = w->blocks[0].len, n0 = w->level[0].count;
        const MPI_Aint d = w->blocks[0].disp, s0 = w->level[0].stride;
        while (left) {
            char *p = tern_dt_at(buf, tern_dt_pos_unit(w, &at) + d);
            if (boff || left < blen) { /* a piece of one block */
                size_t n = blen - boff < left ? blen - boff : left;
                move(p + boff, s8, n, unpack);
                s8 += n;
                left -= n;
                boff += n;
                if (boff < blen) break;
                boff = 0;
                tern_dt_pos_advance(w, &at, 1);
                continue;
            }
            size_t k = left / blen, room = n0 - at.idx[0];
            if (k > room) k = room;
            strided(p, s0, s8, blen, k, unpack);
            s8 += k * blen;
            left -= k * blen;
            tern_dt_pos_advance(w, &at, k);
        }
        return len;
    }

    while (left) {
        char *ub = tern_dt_at(buf, tern_dt_pos_unit(w, &at));
        for (; b < w->nblocks && left; b++) {
            size_t n = w->blocks[b].len - boff;
            if (n > left) {
                move(tern_dt_at(ub, w->blocks[b].disp + (MPI_Aint)boff), s8, left, unpack);
                left = 0;
                break;
            }
            move(tern_dt_at(ub, w->blocks[b].disp + (MPI_Aint)boff), s8, n, unpack);
            s8 += n;
            left -= n;
            boff = 0;
        }
        if (b == w->nblocks) {
            b = 0;
            tern_dt_pos_advance(w, &at, 1);
        }
    }
    return len;
}

size_t tern_dt_view_pack(const struct tern_dt_view *v, size_t offset, void *out, size_t len)
{
    return walk_copy(v, offset, out, len, 0);
}

size_t tern_dt_view_unpack(const struct tern_dt_view *v, size_t offset, const void *in, size_t len)
{
    return walk_copy(v, offset, (char *)(uintptr_t)in, len, 1);
}

/* Contiguous data skips building the view: this is the eager path. */
static inline __attribute__((always_inline)) size_t typed_copy(const struct tern_datatype *dt,
                                                               const void *buf, size_t count,
                                                               size_t offset, char *s8, size_t len,
                                                               const int unpack)
{
    size_t total = count * dt->size;
    if (offset >= total || len == 0) return 0;
    if (len > total - offset) len = total - offset;
    if (dt->contig) {
        move(tern_dt_at(buf, dt->true_lb + (MPI_Aint)offset), s8, len, unpack);
        return len;
    }
    struct tern_dt_view v;
    tern_dt_view_local(&v, dt, buf, count);
    return walk_copy(&v, offset, s8, len, unpack);
}

size_t tern_dt_pack(const struct tern_datatype *dt, const void *buf, size_t count, size_t offset,
                    void *out, size_t len)
{
    return typed_copy(dt, buf, count, offset, out, len, 0);
}

size_t tern_dt_unpack(const struct tern_datatype *dt, void *buf, size_t count, size_t offset,
                      const void *in, size_t len)
{
    return typed_copy(dt, buf, count, offset, (char *)(uintptr_t)in, len, 1);
}

/* ---- pieces, for typed copies and reductions ---- */

void tern_dt_segs_init(struct tern_dt_segs *it, const struct tern_datatype *dt, size_t count)
{
    tern_dt_view_local(&it->v, dt, NULL, count);
    memset(&it->at, 0, sizeof it->at);
    it->left = it->v.bytes;
}

int tern_dt_segs_next(struct tern_dt_segs *it, MPI_Aint *off, size_t *len)
{
    const struct tern_dt_view *v = &it->v;
    struct tern_dt_pos *at = &it->at;
    if (!it->left) return 0;
    const struct tern_dt_block *bl = &v->blocks[at->b];
    *off = tern_dt_pos_unit(v, at) + bl->disp;
    *len = bl->len;
    it->left -= bl->len;
    if (++at->b == v->nblocks) {
        at->b = 0;
        tern_dt_pos_advance(v, at, 1);
    }
    return 1;
}

size_t tern_dt_copy(const void *src, size_t scount, const struct tern_datatype *sdt, void *dst,
                    size_t rcount, const struct tern_datatype *rdt)
{
    size_t sbytes = scount * sdt->size, rbytes = rcount * rdt->size;
    size_t n = sbytes < rbytes ? sbytes : rbytes;
    if (n == 0) return 0;
    /* One-sided puts and gets of a few bytes are mostly this copy. */
    if (sdt->contig && rdt->contig) {
        memcpy(tern_dt_at(dst, rdt->true_lb), tern_dt_at(src, sdt->true_lb), n);
        return n;
    }
    if (sdt->contig) return tern_dt_unpack(rdt, dst, rcount, 0, tern_dt_at(src, sdt->true_lb), n);
    if (rdt->contig) return tern_dt_pack(sdt, src, scount, 0, tern_dt_at(dst, rdt->true_lb), n);
    /* both non-contiguous: walk both piece lists together */
    struct tern_dt_segs si, ri;
    tern_dt_segs_init(&si, sdt, scount);
    tern_dt_segs_init(&ri, rdt, rcount);
    MPI_Aint so = 0, ro = 0;
    size_t sl = 0, rl = 0, left = n;
    while (left) {
        if (!sl && !tern_dt_segs_next(&si, &so, &sl)) break;
        if (!rl && !tern_dt_segs_next(&ri, &ro, &rl)) break;
        size_t k = sl < rl ? sl : rl;
        if (k > left) k = left;
        memcpy(tern_dt_at(dst, ro), tern_dt_at(src, so), k);
        so += (MPI_Aint)k;
        ro += (MPI_Aint)k;
        sl -= k;
        rl -= k;
        left -= k;
    }
    return n - left;
}
