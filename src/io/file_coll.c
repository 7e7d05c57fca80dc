/* Collective access with two-phase aggregation.  A few ranks of each host
 * (IO_AGGREGATORS_PER_HOST) unless cb_nodes says otherwise are aggregators;
 * the file range the call touches is cut into one contiguous domain per
 * aggregator.  In rounds of at most cb_buffer_size bytes per aggregator,
 * every rank sends each aggregator the (offset, length) list of its pieces
 * of that aggregator's window, then (writes) their data.  When the pieces
 * tile the window the aggregator moves them with one preadv/pwritev per
 * IOV_MAX, straight between the file and the exchange buffers; otherwise
 * through one block (read when there are holes, data laid in, written).
 * Reads send the data back.  A rank's pieces in a window are a contiguous
 * stretch of its data stream: one pack/unpack per aggregator and round, or
 * none where that stretch is contiguous in its memory. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/pvars.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "io/io_coll.h"

#define DEFAULT_CB_BUFFER ((size_t)16 << 20)

/* This rank's whole access: its pieces in file (and stream) order. */
struct plan {
    struct tern_io_piece *p;
    size_t *stream; /* stream[i]: position in the data stream of piece i */
    size_t n;
};

static int make_plan(const struct tern_file *f, MPI_Offset off, size_t total, struct plan *pl)
{
    size_t cap = 0, from = (size_t)off * f->file_etype->size, done = 0;
    memset(pl, 0, sizeof *pl);
    while (done < total) {
        if (pl->n + 64 > cap) {
            cap = cap ? 2 * cap : 256;
            struct tern_io_piece *np = realloc(pl->p, cap * sizeof *np);
            size_t *ns = np ? realloc(pl->stream, cap * sizeof *ns) : NULL;
            if (np) pl->p = np;
            if (!ns) return MPI_ERR_NO_MEM;
            pl->stream = ns;
        }
        size_t got,
            n = tern_file_view_pieces(f, from + done, total - done, pl->p + pl->n, 64, &got);
        if (n == 0) break;
        for (size_t i = 0; i < n; i++) {
            pl->stream[pl->n + i] = done;
            done += pl->p[pl->n + i].len;
        }
        pl->n += n;
    }
    return MPI_SUCCESS;
}

static void plan_free(struct plan *pl)
{
    free(pl->p);
    free(pl->stream);
}

/* The aggregators: cb_nodes ranks spread evenly (or, without it,
 * striping_factor: one per stripe), or by default the first
 * IO_AGGREGATORS_PER_HOST ranks of f's on each host. */
static int pick_aggregators(const struct tern_file *f, int *aggr)
{
    const struct tern_comm *c = f->comm;
    size_t want = tern_file_hint_size(f, "cb_nodes", tern_file_hint_size(f, "striping_factor", 0));
    int n = 0;
    if (want > 0) {
        if (want > (size_t)c->size) want = (size_t)c->size;
        for (size_t i = 0; i < want; i++) aggr[n++] = (int)(i * (size_t)c->size / want);
        return n;
    }
    int per_host = tern_param.io_aggregators_per_host > 0 ? tern_param.io_aggregators_per_host : 1;
    for (int r = 0; r < c->size; r++) {
        int host = tern_g.host_of ? tern_g.host_of[c->group->world[r]] : 0, seen = 0;
        for (int k = 0; k < n; k++)
            seen += (tern_g.host_of ? tern_g.host_of[c->group->world[aggr[k]]] : 0) == host;
        if (seen < per_host) aggr[n++] = r;
    }
    return n;
}

int tern_file_cb_nodes(const struct tern_file *f)
{
    int *aggr = malloc((size_t)f->comm->size * sizeof *aggr);
    int n = aggr ? pick_aggregators(f, aggr) : 1;
    free(aggr);
    return n;
}

/* Pieces i in [*first, end) of the plan that meet [w0, w1), clipped. */
static size_t window_pieces(const struct plan *pl, size_t *cursor, MPI_Offset w0, MPI_Offset w1,
                            size_t *s0, size_t *s1, size_t *first)
{
    size_t i = *cursor;
    while (i < pl->n && pl->p[i].off + (MPI_Offset)pl->p[i].len <= w0) i++;
    *first = i;
    size_t n = 0;
    *s0 = *s1 = 0;
    for (size_t k = i; k < pl->n && pl->p[k].off < w1; k++, n++) {
        MPI_Offset a = pl->p[k].off > w0 ? pl->p[k].off : w0;
        MPI_Offset b = pl->p[k].off + (MPI_Offset)pl->p[k].len;
        if (b > w1) b = w1;
        if (n == 0) *s0 = pl->stream[k] + (size_t)(a - pl->p[k].off);
        *s1 = pl->stream[k] + (size_t)(b - pl->p[k].off);
    }
    /* The next window of this aggregator starts where this one ends. */
    *cursor = i;
    return n;
}

/* *buf holds at least need bytes (its old contents are not kept). */
static int reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    free(*buf);
    *buf = malloc(need);
    *cap = *buf ? need : 0;
    return *buf ? 0 : -1;
}

void tern_file_cb_scratch_free(struct tern_file *f)
{
    free(f->cb.send);
    free(f->cb.recv);
    free(f->cb.block);
    free(f->cb.back);
    free(f->cb.segs);
    free(f->cb.iov);
    memset(&f->cb, 0, sizeof f->cb);
}

struct wire_piece {
    int64_t off, len;
};

/* One round: every rank's share of each aggregator's window. */
struct round {
    struct tern_file *f;
    enum tern_io_dir dir;
    const struct plan *pl;
    const struct tern_dt_view *mv;
    int naggr, *aggr;
    MPI_Offset *w0, *w1; /* per aggregator, this round's window */
    size_t *cursor;      /* per aggregator, into the plan */
};

/* Every rank learns whether any failed, so none waits for another in a
 * collective it left: MPI_SUCCESS when none did, else the error raised on
 * f (this rank's own, or "another rank failed"). */
static int agree(const char *fn, struct tern_file *f, int mine)
{
    int any = mine != MPI_SUCCESS;
    int rc = tern_io_allreduce_max_int(f->comm, &any);
    if (rc) return tern_io_raise(f, rc);
    if (mine) return mine;
    return any ? tern_io_err(f, MPI_ERR_IO, "%s: another rank of '%s' failed", fn, f->path)
               : MPI_SUCCESS;
}

/* A rank's request as an aggregator received it: its pieces (and count). */
static const struct wire_piece *request_at(const char *p, int64_t *n, size_t *bytes)
{
    memcpy(n, p, sizeof *n);
    const struct wire_piece *wp = (const struct wire_piece *)(p + sizeof *n);
    *bytes = 0;
    for (int64_t k = 0; k < *n; k++) *bytes += (size_t)wp[k].len;
    return wp;
}

/* Where bytes [s0, s1) of mv's stream lie when they are one stretch of
 * memory, else NULL. */
static char *stream_stretch(const struct tern_dt_view *mv, size_t s0, size_t s1)
{
    struct iovec iov;
    size_t got;
    if (tern_dt_view_iov(mv, s0, s1 - s0, &iov, 1, &got) != 1 || got != s1 - s0) return NULL;
    return iov.iov_base;
}

/* The buffer of the data exchanged with the other aggregators (a write's
 * data going, a read's answers coming): when every aggregator's part is one
 * stretch of the user's memory and they all lie within INT_MAX bytes, the
 * user's memory itself (*direct = 1, displ set per aggregator), else NULL. */
static char *user_stretches(const struct round *R, int me, const size_t *np, const size_t *s0,
                            const size_t *s1, int *displ, int *direct)
{
    char *base = NULL, *end = NULL;
    *direct = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int a = 0; a < R->naggr; a++) {
            if (!np[a] || R->aggr[a] == me) continue;
            char *p = stream_stretch(R->mv, s0[a], s1[a]);
            if (!p) return NULL;
            if (pass == 1) {
                displ[R->aggr[a]] = (int)(p - base);
                continue;
            }
            if (!base || p < base) base = p;
            if (!end || p + (s1[a] - s0[a]) > end) end = p + (s1[a] - s0[a]);
            if ((size_t)(end - base) > INT_MAX) return NULL;
        }
    *direct = base != NULL;
    return base;
}

/* The aggregator's own pieces move between the user's memory and the
 * block directly, never through the exchange. */
static void own_pieces(const struct round *R, size_t pos, const struct wire_piece *wp, int64_t n,
                       char *block, MPI_Offset lo)
{
    for (int64_t k = 0; k < n; k++) {
        if (R->dir == TERN_IO_WRITE)
            tern_dt_view_pack(R->mv, pos, block + (wp[k].off - lo), (size_t)wp[k].len);
        else
            tern_dt_view_unpack(R->mv, pos, block + (wp[k].off - lo), (size_t)wp[k].len);
        pos += (size_t)wp[k].len;
    }
}

struct seg {
    MPI_Offset off;
    char *at;
    size_t len;
};

static int seg_order(const void *a, const void *b)
{
    MPI_Offset x = ((const struct seg *)a)->off, y = ((const struct seg *)b)->off;
    return (x > y) - (x < y);
}

/* Pieces the requests to this aggregator name, from every rank. */
static size_t pieces_in(const struct round *R, const int *rcnt, const int *rd)
{
    size_t nseg = 0;
    for (int r = 0; r < R->f->comm->size; r++) {
        int64_t n;
        size_t bytes;
        if (!rcnt[r]) continue;
        request_at(R->f->cb.recv + rd[r], &n, &bytes);
        nseg += (size_t)n;
    }
    return nseg;
}

/* The window moved with preadv/pwritev straight between the file and where
 * each piece's data is (the exchange's buffer at displ[r] for rank r's, the
 * aggregator's own memory for its own), when the pieces tile [lo, lo +
 * span) and the aggregator's own part is one stretch of its memory: a copy
 * fewer than through the block.  1 when done (*err set on failure), 0 when
 * the caller must go through the block, -1 out of memory. */
static int window_vectored(struct round *R, int me, int mine, const size_t *s0, const size_t *s1,
                           const int *rcnt, const int *rd, const int *displ, MPI_Offset lo,
                           size_t span, int *err, const char **what)
{
    struct tern_io_cb_scratch *S = &R->f->cb;
    int size = R->f->comm->size;
    char *own = NULL;
    if (mine >= 0 && s1[mine] > s0[mine] && !(own = stream_stretch(R->mv, s0[mine], s1[mine])))
        return 0;
    size_t nseg = pieces_in(R, rcnt, rd);
    if (reserve(&S->segs, &S->segs_cap, nseg * sizeof(struct seg) + 1) ||
        reserve(&S->iov, &S->iov_cap, nseg * sizeof(struct iovec) + 1))
        return -1;
    struct seg *sg = (struct seg *)(void *)S->segs;
    size_t i = 0;
    for (int r = 0; r < size; r++) {
        if (!rcnt[r]) continue;
        int64_t n;
        size_t bytes;
        const struct wire_piece *wp = request_at(S->recv + rd[r], &n, &bytes);
        char *at = r == me ? own : S->send + displ[r];
        for (int64_t k = 0; k < n; at += wp[k].len, k++)
            sg[i++] = (struct seg){wp[k].off, at, (size_t)wp[k].len};
    }
    qsort(sg, nseg, sizeof *sg, seg_order);
    struct iovec *iov = (struct iovec *)(void *)S->iov;
    size_t niov = 0;
    MPI_Offset next = lo;
    for (i = 0; i < nseg; next += (MPI_Offset)sg[i].len, i++) {
        if (sg[i].off != next) return 0; /* a hole or an overlap */
        if (niov && (char *)iov[niov - 1].iov_base + iov[niov - 1].iov_len == sg[i].at)
            iov[niov - 1].iov_len += sg[i].len;
        else
            iov[niov++] = (struct iovec){sg[i].at, sg[i].len};
    }
    if (next != lo + (MPI_Offset)span) return 0;
    size_t moved;
    *err = tern_io_rwv_all(R->f->fd, R->dir, iov, niov, lo, &moved);
    if (*err) *what = R->dir == TERN_IO_READ ? "cannot read" : "cannot write";
    /* Beyond the end of the file a read gives zeros. */
    for (i = 0; !*err && moved < span && i < nseg; i++) {
        MPI_Offset end = lo + (MPI_Offset)moved;
        if (sg[i].off + (MPI_Offset)sg[i].len <= end) continue;
        size_t skip = sg[i].off < end ? (size_t)(end - sg[i].off) : 0;
        memset(sg[i].at + skip, 0, sg[i].len - skip);
    }
    return 1;
}

/* A write's covered bytes of the block, one run of touching pieces at a
 * time: what a file opened write-only gets instead of the read that would
 * fill the holes.  0, or the errno; -1 out of memory. */
static int write_covered(struct round *R, const int *rcnt, const int *rd, MPI_Offset lo)
{
    struct tern_io_cb_scratch *S = &R->f->cb;
    int size = R->f->comm->size;
    size_t nseg = pieces_in(R, rcnt, rd), i = 0;
    if (reserve(&S->segs, &S->segs_cap, nseg * sizeof(struct seg) + 1)) return -1;
    struct seg *sg = (struct seg *)(void *)S->segs;
    for (int r = 0; r < size; r++) {
        int64_t n;
        size_t bytes;
        if (!rcnt[r]) continue;
        const struct wire_piece *wp = request_at(S->recv + rd[r], &n, &bytes);
        for (int64_t k = 0; k < n; k++) sg[i++] = (struct seg){wp[k].off, NULL, (size_t)wp[k].len};
    }
    qsort(sg, nseg, sizeof *sg, seg_order);
    for (i = 0; i < nseg;) {
        MPI_Offset from = sg[i].off, to = from + (MPI_Offset)sg[i].len;
        for (i++; i < nseg && sg[i].off <= to; i++)
            if (sg[i].off + (MPI_Offset)sg[i].len > to) to = sg[i].off + (MPI_Offset)sg[i].len;
        int e = tern_io_pwrite_all(R->f->fd, S->block + (from - lo), (size_t)(to - from), from);
        if (e) return e;
    }
    return 0;
}

/* The window through one block of the file: read it when the pieces leave
 * holes (or to answer a read), lay a write's data in and write it, or copy
 * a read's answers out to the send buffer (rank r's at displ[r]).  The
 * aggregator's own pieces go between the block and its memory.  Returns 0,
 * or -1 out of memory; the I/O's errno in *err. */
static int through_block(struct round *R, int me, int mine, const size_t *s0, const int *rcnt,
                         const int *rd, const int *displ, MPI_Offset lo, size_t span,
                         size_t covered, int *err, const char **what)
{
    struct tern_io_cb_scratch *S = &R->f->cb;
    int size = R->f->comm->size, write = R->dir == TERN_IO_WRITE;
    /* A file opened write-only cannot be read: its holes are skipped. */
    int skip_holes = write && covered < span && (R->f->amode & MPI_MODE_WRONLY);
    size_t got = 0;
    if (reserve(&S->block, &S->block_cap, span ? span : 1)) return -1;
    if (span && !*err && (!write || (covered < span && !skip_holes))) {
        /* Holes keep what the file has there (beyond its end: zeros). */
        *err = tern_io_pread_all(R->f->fd, S->block, span, lo, &got);
        if (*err) *what = "cannot read";
        if (got < span) memset(S->block + got, 0, span - got);
    }
    for (int r = 0; r < size; r++) {
        if (!rcnt[r]) continue;
        int64_t n;
        size_t bytes;
        const struct wire_piece *wp = request_at(S->recv + rd[r], &n, &bytes);
        if (r == me) {
            own_pieces(R, s0[mine], wp, n, S->block, lo);
            continue;
        }
        char *data = S->send + displ[r];
        for (int64_t k = 0; k < n; data += wp[k].len, k++) {
            char *in_block = S->block + (wp[k].off - lo);
            if (write)
                memcpy(in_block, data, (size_t)wp[k].len);
            else
                memcpy(data, in_block, (size_t)wp[k].len);
        }
    }
    if (write && span && !*err) {
        if (skip_holes) {
            int e = write_covered(R, rcnt, rd, lo);
            if (e < 0) return -1;
            *err = e;
        } else {
            *err = tern_io_pwrite_all(R->f->fd, S->block, span, lo);
        }
        if (*err) *what = "cannot write";
    }
    return 0;
}

static int run_round(struct round *R, int *err, const char **what)
{
    const struct tern_comm *c = R->f->comm;
    struct tern_io_cb_scratch *S = &R->f->cb;
    int size = c->size, me = c->rank, mine = -1; /* mine: my index among the aggregators */
    int *sc = calloc((size_t)size * 6, sizeof *sc);
    if (!sc) return MPI_ERR_NO_MEM;
    int *sd = sc + size, *rcnt = sc + 2 * size, *rd = sc + 3 * size;
    int *dcnt = sc + 4 * size, *dd = sc + 5 * size; /* a write's data coming in */
    int write = R->dir == TERN_IO_WRITE;
    /* Requests: per aggregator the clipped pieces; a write's data follows. */
    size_t need = 0;
    size_t *first = calloc((size_t)R->naggr * 4, sizeof *first);
    if (!first) {
        free(sc);
        return MPI_ERR_NO_MEM;
    }
    size_t *np = first + R->naggr, *s0 = first + 2 * R->naggr, *s1 = first + 3 * R->naggr;
    for (int a = 0; a < R->naggr; a++) {
        np[a] = window_pieces(R->pl, &R->cursor[a], R->w0[a], R->w1[a], &s0[a], &s1[a], &first[a]);
        if (R->aggr[a] == me) mine = a;
        size_t bytes = sizeof(int64_t) + np[a] * sizeof(struct wire_piece);
        sc[R->aggr[a]] = np[a] ? (int)bytes : 0;
        need += np[a] ? bytes : 0;
    }
    if (reserve(&S->send, &S->send_cap, need)) goto nomem;
    size_t at = 0;
    for (int r = 0; r < size; r++) {
        sd[r] = (int)at;
        for (int a = 0; a < R->naggr; a++) {
            if (R->aggr[a] != r || !np[a]) continue;
            char *p = S->send + at;
            int64_t n = (int64_t)np[a];
            memcpy(p, &n, sizeof n);
            struct wire_piece *wp = (struct wire_piece *)(p + sizeof n);
            for (size_t k = 0; k < np[a]; k++) {
                const struct tern_io_piece *q = &R->pl->p[first[a] + k];
                MPI_Offset lo = q->off > R->w0[a] ? q->off : R->w0[a];
                MPI_Offset hi = q->off + (MPI_Offset)q->len;
                if (hi > R->w1[a]) hi = R->w1[a];
                wp[k] = (struct wire_piece){lo, hi - lo};
            }
            at += (size_t)sc[r];
        }
    }
    struct tern_datatype *i32 = tern_dt_get(MPI_INT), *byte = tern_dt_get(MPI_BYTE);
    int rc = tern_coll_alltoall(sc, 1, i32, rcnt, 1, i32, (struct tern_comm *)c);
    size_t rtotal = 0;
    for (int r = 0; r < size; r++) {
        rd[r] = (int)rtotal;
        rtotal += (size_t)rcnt[r];
    }
    if (!rc && reserve(&S->recv, &S->recv_cap, rtotal)) goto nomem;
    if (!rc)
        rc = tern_coll_alltoallv(S->send, sc, sd, byte, S->recv, rcnt, rd, byte,
                                 (struct tern_comm *)c);
    if (rc) goto out;

    if (write) {
        /* The data, straight from the user's memory when it is one stretch
         * there; the requests' buffer is free again to receive it. */
        int direct;
        for (int r = 0; r < size; r++) sc[r] = 0;
        for (int a = 0; a < R->naggr; a++)
            if (np[a] && R->aggr[a] != me) sc[R->aggr[a]] = (int)(s1[a] - s0[a]);
        char *out = user_stretches(R, me, np, s0, s1, sd, &direct);
        size_t packed = 0;
        for (int r = 0; !direct && r < size; r++) {
            sd[r] = (int)packed;
            packed += (size_t)sc[r];
        }
        if (!direct && reserve(&S->back, &S->back_cap, packed ? packed : 1)) goto nomem;
        for (int a = 0; !direct && a < R->naggr; a++)
            if (sc[R->aggr[a]])
                tern_dt_view_pack(R->mv, s0[a], S->back + sd[R->aggr[a]], s1[a] - s0[a]);
        if (!direct) out = S->back;
        size_t dtotal = 0;
        for (int r = 0; r < size; r++) {
            dd[r] = (int)dtotal;
            if (!rcnt[r] || r == me) continue;
            int64_t n;
            size_t bytes;
            request_at(S->recv + rd[r], &n, &bytes);
            dcnt[r] = (int)bytes;
            dtotal += bytes;
        }
        if (reserve(&S->send, &S->send_cap, dtotal ? dtotal : 1)) goto nomem;
        rc = tern_coll_alltoallv(out, sc, sd, byte, S->send, dcnt, dd, byte, (struct tern_comm *)c);
        if (rc) goto out;
    }

    /* The aggregator's part: the span its received pieces cover; a read's
     * answers to each other rank go at sd[r] of the send buffer. */
    MPI_Offset lo = INT64_MAX, hi = -1;
    size_t covered = 0, back = 0;
    for (int r = 0; r < size; r++) {
        if (!write) {
            sd[r] = (int)back;
            sc[r] = 0;
        }
        if (!rcnt[r]) continue;
        int64_t n;
        size_t bytes;
        const struct wire_piece *wp = request_at(S->recv + rd[r], &n, &bytes);
        for (int64_t k = 0; k < n; k++) {
            if (wp[k].off < lo) lo = wp[k].off;
            if (wp[k].off + wp[k].len > hi) hi = wp[k].off + wp[k].len;
        }
        covered += bytes;
        if (!write && r != me) {
            sc[r] = (int)bytes;
            back += bytes;
        }
    }
    size_t span = hi > lo ? (size_t)(hi - lo) : 0;
    if (!write && reserve(&S->send, &S->send_cap, back ? back : 1)) goto nomem;
    int vectored = 0;
    if (span && !*err && covered == span) {
        vectored =
            window_vectored(R, me, mine, s0, s1, rcnt, rd, write ? dd : sd, lo, span, err, what);
        if (vectored < 0) goto nomem;
    }
    if (!vectored &&
        through_block(R, me, mine, s0, rcnt, rd, write ? dd : sd, lo, span, covered, err, what))
        goto nomem;
    if (!write) {
        /* What each aggregator sends back is what this rank asked for. */
        size_t want = 0;
        for (int r = 0; r < size; r++) rcnt[r] = 0;
        for (int a = 0; a < R->naggr; a++)
            if (R->aggr[a] != me) rcnt[R->aggr[a]] = np[a] ? (int)(s1[a] - s0[a]) : 0;
        int direct;
        char *in = user_stretches(R, me, np, s0, s1, rd, &direct);
        for (int r = 0; !direct && r < size; r++) {
            rd[r] = (int)want;
            want += (size_t)rcnt[r];
        }
        if (!direct && reserve(&S->back, &S->back_cap, want ? want : 1)) goto nomem;
        if (!direct) in = S->back;
        rc = tern_coll_alltoallv(S->send, sc, sd, byte, in, rcnt, rd, byte, (struct tern_comm *)c);
        for (int a = 0; !rc && !direct && a < R->naggr; a++)
            if (np[a] && R->aggr[a] != me)
                tern_dt_view_unpack(R->mv, s0[a], in + rd[R->aggr[a]], s1[a] - s0[a]);
    }
out:
    free(first);
    free(sc);
    return rc;
nomem:
    rc = MPI_ERR_NO_MEM;
    goto out;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The aggregators' file domains d[0..naggr]: equal cuts of [lo, hi), each
 * inner cut moved up to a multiple of striping_unit when it is given, so
 * that a stripe (a block of the file system) is one aggregator's. */
static void domains(const struct tern_file *f, MPI_Offset lo, MPI_Offset hi, int naggr,
                    MPI_Offset *d)
{
    MPI_Offset per = (hi - lo + naggr - 1) / naggr;
    MPI_Offset su = (MPI_Offset)tern_file_hint_size(f, "striping_unit", 1);
    uint64_t g = 0;
    d[0] = lo;
    d[naggr] = hi;
    for (int a = 1; a < naggr; a++) {
        MPI_Offset cut = lo + per * a < hi ? lo + per * a : hi;
        if (cut % su) /* up to the next multiple, without overflowing past hi */
            cut = su - cut % su > hi - cut ? hi : cut + (su - cut % su);
        if (cut < d[a - 1]) cut = d[a - 1];
        d[a] = cut;
        if (cut > lo && cut < hi) g = gcd((uint64_t)cut, g);
    }
    tern_pv.io_cb.calls++;
    tern_pv.io_cb.domains = (uint64_t)naggr;
    tern_pv.io_cb.boundary_gcd = g;
}

/* Whether this call aggregates: romio_cb_read/write "enable" or "disable",
 * else when some rank's access is more than one piece of the file. */
static int aggregate(const struct tern_file *f, enum tern_io_dir dir, const struct plan *pl,
                     int *decided)
{
    int sw = tern_file_hint_switch(f, dir == TERN_IO_READ ? "romio_cb_read" : "romio_cb_write");
    *decided = sw;
    if (f->comm->size == 1 || sw == 0) return 0;
    if (sw == 1) return 1;
    return pl->n > 1;
}

/* The collective access of data already in the file's representation. */
static int xfer_all_as_is(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                          void *buf, size_t count, struct tern_datatype *dt, size_t *bytes)
{
    *bytes = 0;
    size_t total = count * dt->size;
    struct plan pl = {0};
    int rc = tern_file_access_allowed(fn, f, dir);
    if (!rc && make_plan(f, off, total, &pl))
        rc = tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot plan the access", fn);
    if ((rc = agree(fn, f, rc))) {
        plan_free(&pl);
        return rc;
    }
    int decided, want = aggregate(f, dir, &pl, &decided);
    /* Whether anyone wants aggregation, and the file range of the call
     * (-1: this rank touches nothing). */
    int64_t lim[3] = {want, pl.n ? pl.p[0].off : -1,
                      pl.n ? pl.p[pl.n - 1].off + (int64_t)pl.p[pl.n - 1].len : -1};
    int size = f->comm->size;
    int64_t *all = malloc((size_t)size * 3 * sizeof *all);
    int64_t any = 0, lo = INT64_MAX, hi = INT64_MIN;
    rc = agree(fn, f, all ? MPI_SUCCESS : tern_io_err(f, MPI_ERR_NO_MEM, "%s: out of memory", fn));
    for (int k = 0; !rc && k < 3; k++)
        if ((rc = tern_io_allgather_i64(f->comm, lim[k], all + (size_t)k * size)))
            rc = tern_io_raise(f, rc);
    for (int r = 0; !rc && r < size; r++) {
        if (all[r]) any = 1;
        if (all[size + r] >= 0 && all[size + r] < lo) lo = all[size + r];
        if (all[2 * size + r] > hi) hi = all[2 * size + r];
    }
    free(all);
    if (rc) {
        plan_free(&pl);
        return rc;
    }
    if (!any || hi <= lo || decided == 0 || f->atomic) {
        /* Atomic mode: each rank's access under its own lock. */
        plan_free(&pl);
        return tern_file_xfer_as_is(fn, f, dir, off, buf, count, dt, bytes);
    }

    int *aggr = malloc((size_t)f->comm->size * sizeof *aggr);
    int naggr = aggr ? pick_aggregators(f, aggr) : 0;
    size_t cb = tern_file_hint_size(f, "cb_buffer_size", DEFAULT_CB_BUFFER);
    MPI_Offset *w = malloc((size_t)(naggr + 1) * 3 * sizeof *w);
    size_t *cursor = calloc((size_t)naggr + 1, sizeof *cursor);
    struct tern_dt_view mv;
    tern_dt_view_local(&mv, dt, buf, count);
    const char *what = "cannot write";
    int err = 0;
    rc = agree(fn, f,
               !aggr || !w || !cursor ? tern_io_err(f, MPI_ERR_NO_MEM, "%s: out of memory", fn)
                                      : MPI_SUCCESS);
    int rrc = MPI_SUCCESS;
    if (!rc) {
        MPI_Offset *d = w + 2 * (naggr + 1);
        domains(f, lo, hi, naggr, d);
        MPI_Offset rounds = 0;
        for (int a = 0; a < naggr; a++) {
            MPI_Offset r = (d[a + 1] - d[a] + (MPI_Offset)cb - 1) / (MPI_Offset)cb;
            if (r > rounds) rounds = r;
        }
        struct round R = {f, dir, &pl, &mv, naggr, aggr, w, w + (naggr + 1), cursor};
        for (MPI_Offset k = 0; !rrc && k < rounds; k++) {
            for (int a = 0; a < naggr; a++) {
                R.w0[a] = d[a] + k * (MPI_Offset)cb;
                R.w1[a] = R.w0[a] + (MPI_Offset)cb < d[a + 1] ? R.w0[a] + (MPI_Offset)cb : d[a + 1];
                if (R.w0[a] > R.w1[a]) R.w0[a] = R.w1[a];
            }
            rrc = run_round(&R, &err, &what);
        }
    }
    free(cursor);
    free(w);
    free(aggr);
    if (rc) {
        plan_free(&pl);
        return rc;
    }
    /* An aggregator's failure is every rank's. */
    int any_err = err;
    if (!rrc) rrc = tern_io_allreduce_max_int(f->comm, &any_err);
    if (!rrc && !any_err && dir == TERN_IO_READ) {
        /* Read counts stop at the end of the file. */
        struct stat st;
        MPI_Offset end = fstat(f->fd, &st) == 0 ? st.st_size : INT64_MAX;
        for (size_t i = 0; i < pl.n && pl.p[i].off < end; i++)
            *bytes += pl.p[i].off + (MPI_Offset)pl.p[i].len <= end ? pl.p[i].len
                                                                   : (size_t)(end - pl.p[i].off);
    } else if (!rrc && !any_err) {
        *bytes = total;
    }
    if (dir == TERN_IO_READ) tern_file_read_done(f, lo, hi);
    plan_free(&pl);
    if (rrc) return tern_io_raise(f, rrc);
    if (err) return tern_io_errno(f, fn, f->path, what, err);
    if (any_err)
        return tern_io_err(f, tern_io_errno_class(any_err), "%s: an aggregator failed on '%s': %s",
                           fn, f->path, strerror(any_err));
    return MPI_SUCCESS;
}

/* Conversion to and from the file's representation around it: a write's
 * conversion error is agreed on first, so that no rank enters the exchange
 * alone; a read's comes after it, on the rank whose data it is. */
int tern_file_xfer_all(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                       void *buf, size_t count, struct tern_datatype *dt, size_t *bytes)
{
    struct tern_io_conv c = {0};
    size_t moved;
    *bytes = 0;
    int rc = tern_file_access_allowed(fn, f, dir);
    if (!rc && (rc = tern_file_conv_begin(fn, f, dir, buf, count, dt, &c)))
        rc = tern_io_raise(f, rc);
    if (!(rc = agree(fn, f, rc)))
        rc = xfer_all_as_is(fn, f, dir, off, c.buf, c.count, c.dt, &moved);
    if (rc) {
        tern_file_conv_free(&c);
        return rc;
    }
    rc = tern_file_conv_end(fn, f, dir, &c, buf, count, dt, moved, bytes);
    return rc ? tern_io_raise(f, rc) : MPI_SUCCESS;
}
