/* The operations, done by the origin: load and store into a window that
 * lies in the segment, CMA (transport/shm) into one on user memory.  The
 * target's datatype is the origin's to read (the standard makes both sides
 * agree on it), so its layout gives the target's pieces directly.
 *
 * Accumulates are element-wise on the predefined type.  In the segment a
 * few elements of 1, 2, 4 or 8 bytes are updated by one atomic instruction
 * each (an integer sum or bit operation, an exchange) or a compare-and-swap
 * loop around the op; more of them (RMA_ACC_LOCKED_MIN), anything else,
 * and every accumulate into user memory take the target's accumulate lock
 * in the control area, so accumulates to one location are atomic with each
 * other whatever their origin (see "accumulates" below). */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "coll/op_kernels.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "rma/win_am.h"
#include "rma/win_fast.h"
#include "rma/win_mbox.h"
#include "rma/win_seg.h"
#include "transport/shm/shm.h"

/* A large put into the segment with non-temporal stores: they do not
 * first read each of the target's lines into this core's cache, which a
 * plain copy does for lines it will never read (RMA_PUT_NT_MIN). */
static void copy_streaming(char *d, const char *s, size_t n)
{
#if defined(__SSE2__)
    for (; n && ((uintptr_t)d & 15); n--) *d++ = *s++;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
        _mm_stream_si128((__m128i *)(void *)d, a);
        _mm_stream_si128((__m128i *)(void *)(d + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + 48), e);
    }
    /* Streaming stores are weakly ordered: the flush or unlock after the
     * put must find them done. */
    _mm_sfence();
#endif
    memcpy(d, s, n);
}

static void copy_plain(char *d, const char *s, size_t n) { memcpy(d, s, n); }

/* Where the target's data lies. */
struct tgt {
    char *local;    /* mapped here, or this process's memory: load and store */
    uint64_t there; /* where local lies in the target's address space */
    uint64_t raddr; /* otherwise its address in the target, reached by CMA */
    int world;
    int in_seg; /* in the segment: atomics by instruction */
};

/* The bytes [lo, hi) that count elements of dt touch, from their buffer. */
static void span_of(const struct tern_datatype *dt, size_t count, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint reach = (MPI_Aint)(count - 1) * dt->extent;
    *lo = dt->true_lb + (reach < 0 ? reach : 0);
    *hi = dt->true_ub + (reach > 0 ? reach : 0);
}

/* Checks the target rank, the epoch and the range; 1 when there is
 * nothing to do (MPI_PROC_NULL, no data), 0 when *t is set, else the
 * error code raised. */
static int locate(const char *fn, struct tern_win *w, int rank, MPI_Aint disp, size_t count,
                  const struct tern_datatype *dt, struct tgt *t)
{
    if (rank == MPI_PROC_NULL) return -1;
    if (rank < 0 || rank >= w->size)
        return tern_win_err(w, MPI_ERR_RANK, "%s: target_rank=%d is not a rank of %s (size %d)", fn,
                            rank, tern_win_name(w), w->size);
    int rc = tern_win_check_epoch(fn, w, rank);
    if (rc) return rc;
    if (count == 0 || dt->size == 0) return -1;
    const struct tern_win_peer *p = &w->peer[rank];
    MPI_Aint lo, hi, off;
    span_of(dt, count, &lo, &hi);
    *t = (struct tgt){.world = p->world};
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        /* Across hosts the target checks its own regions (win_am.c). */
        if ((!w->am || rank == w->rank) &&
            !tern_win_dyn_find(w, rank, (uint64_t)(disp + lo), (uint64_t)(hi - lo)))
            return tern_win_err(w, MPI_ERR_RMA_RANGE,
                                "%s: bytes [0x%llx, 0x%llx) of rank %d lie in no region attached "
                                "to %s",
                                fn, (unsigned long long)(disp + lo),
                                (unsigned long long)(disp + hi), rank, tern_win_name(w));
        if (rank == w->rank)
            t->local = (char *)(uintptr_t)disp;
        else if (w->am || !(t->local = tern_win_dyn_local(w, rank, (uint64_t)(disp + lo),
                                                          (uint64_t)(hi - lo))))
            t->raddr = (uint64_t)disp;
        else
            t->local -= lo;
        t->there = (uint64_t)disp;
        return 0;
    }
    if (__builtin_mul_overflow(disp, (MPI_Aint)p->disp_unit, &off) || off + lo < 0 ||
        off + hi > p->size)
        return tern_win_err(
            w, MPI_ERR_RMA_RANGE,
            "%s: target_disp=%lld (disp_unit %d) reaches bytes [%lld, %lld) of "
            "rank %d, outside its %lld bytes of %s",
            fn, (long long)disp, p->disp_unit, (long long)(disp * p->disp_unit + lo),
            (long long)(disp * p->disp_unit + hi), rank, (long long)p->size, tern_win_name(w));
    if (p->local) {
        t->local = p->local + off;
        t->in_seg = tern_win_mapped(w);
        t->there = p->base + (uint64_t)off;
    } else {
        t->raddr = p->base + (uint64_t)off;
    }
    return 0;
}

static int sizes_match(const char *fn, struct tern_win *w, size_t ob, size_t tb, const char *what)
{
    if (ob == tb) return MPI_SUCCESS;
    return tern_win_err(w, MPI_ERR_TYPE,
                        "%s: the %s data has %zu bytes and the target data %zu: their type "
                        "signatures must match",
                        fn, what, ob, tb);
}

/* The MPI error of a CMA copy's result e (0 or -errno). */
static int cma_result(const char *fn, struct tern_win *w, int write, const struct tgt *t, int e)
{
    if (!e) return MPI_SUCCESS;
    return tern_win_err(w, MPI_ERR_OTHER, "%s: cannot %s world rank %d's memory at 0x%llx: %s", fn,
                        write ? "write" : "read", t->world, (unsigned long long)t->raddr,
                        strerror(-e));
}

/* CMA between (buf, count, dt) here and (raddr, tcount, tdt) there. */
static int cma(const char *fn, struct tern_win *w, int write, const struct tgt *t, const void *buf,
               size_t count, const struct tern_datatype *dt, size_t tcount,
               const struct tern_datatype *tdt, size_t bytes)
{
    struct tern_dt_view lv, rv;
    tern_dt_view_local(&lv, dt, buf, count);
    tern_dt_view_local(&rv, tdt, (const void *)(uintptr_t)t->raddr, tcount);
    return cma_result(fn, w, write, t, tern_shm_cma_rw(t->world, write, &lv, &rv, bytes));
}

/* A share's origin side (win_mbox.h): its buffer and the target's data,
 * each contiguous. */
struct share_side {
    int get;
    char *buf;
    char *local;    /* the target's, mapped here; NULL: by CMA at raddr */
    uint64_t raddr; /* in the target */
    int world;
    void (*copy)(char *, const char *, size_t);
};

static int share_copy(void *ctx, size_t off, size_t len)
{
    const struct share_side *s = ctx;
    if (s->local) {
        if (s->get)
            s->copy(s->buf + off, s->local + off, len);
        else
            s->copy(s->local + off, s->buf + off, len);
        return 0;
    }
    const struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
    struct tern_dt_view lv, rv;
    tern_dt_view_local(&lv, byte, s->buf + off, len);
    tern_dt_view_local(&rv, byte, (const void *)(uintptr_t)(s->raddr + off), len);
    return tern_shm_cma_rw(s->world, !s->get, &lv, &rv, len);
}

/* A contiguous put or get of 'bytes' shared with its target (win_mbox.h):
 * on mapped memory from TERN_RMA_SHARE_MIN, on memory reached by CMA from
 * the size that would stream through the mailbox, up to
 * TERN_RMA_TARGET_MAX.  -1 when it is not shared (the caller goes on),
 * else its MPI error code. */
static int shared(const char *fn, struct tern_win *w, int rank, int get, const struct tgt *t,
                  const struct tern_rma_side *o, const struct tern_datatype *tdt, size_t bytes)
{
    /* Memory reached by CMA: both ends copy at the same speed, and the
     * sharing beats streaming through the mailbox from one piece on. */
    size_t min = t->local                                     ? (size_t)tern_param.rma_share_min
                 : bytes <= (size_t)tern_param.rma_target_max ? TERN_WIN_MBOX_STREAM_MIN + 1
                                                              : 0;
    size_t nt = (size_t)tern_param.rma_put_nt_min;
    if (!min || bytes < min || !w->mbox_on || rank == w->rank || !o->dt->contig || !tdt->contig)
        return -1;
    struct share_side s = {get,
                           (char *)o->buf + o->dt->true_lb,
                           t->local ? t->local + tdt->true_lb : NULL,
                           t->raddr + (uint64_t)tdt->true_lb,
                           t->world,
                           !get && nt && bytes >= nt ? copy_streaming : copy_plain};
    uint64_t there = (t->local ? t->there : t->raddr) + (uint64_t)tdt->true_lb;
    return cma_result(
        fn, w, !get, t,
        tern_win_mbox_share(w, rank, get, there, s.buf, bytes, share_copy, &s, !t->local));
}

/* What a request handed to the target carries (win_mbox.h). */
struct handoff {
    int kind;
    MPI_Op op;
    MPI_Datatype basic;
    const struct tern_rma_side *in;  /* packed into the request, or NULL */
    const struct tern_rma_side *out; /* what comes back lands there, or NULL */
    const void *compare;             /* compare-and-swap's, bytes long */
};

/* Has the target do an operation on 'bytes' contiguous bytes at addr, in
 * memory reached otherwise by CMA: 1 when done, 0 when the caller must
 * do it itself. */
static int by_target(struct tern_win *w, int rank, const struct tgt *t, uint64_t addr, size_t bytes,
                     const struct handoff *h)
{
    if (t->local || w->am || (h->compare && bytes > 32)) return 0;
    int moves = h->kind == TERN_WIN_MBOX_PUT || h->kind == TERN_WIN_MBOX_GET;
    if (moves && bytes > TERN_WIN_MBOX_STREAM_MIN)
        return tern_win_mbox_stream(w, rank, h->kind == TERN_WIN_MBOX_GET, addr, bytes,
                                    h->kind == TERN_WIN_MBOX_GET ? h->out : h->in);
    struct tern_win_mbox *m = tern_win_mbox_claim(w, rank, h->compare ? 2 * bytes : bytes);
    if (!m) return 0;
    m->kind = (uint16_t)h->kind;
    m->u.acc.op = (int32_t)h->op;
    m->u.acc.basic = (int32_t)h->basic;
    m->bytes = bytes;
    m->fetch = h->out != NULL;
    m->addr = addr;
    if (h->in) tern_dt_pack(h->in->dt, h->in->buf, h->in->count, 0, m->data, bytes);
    if (h->compare) memcpy(m->data + bytes, h->compare, bytes);
    if (!tern_win_mbox_post(m)) return 0;
    if (h->out) tern_dt_unpack(h->out->dt, (void *)h->out->buf, h->out->count, 0, m->data, bytes);
    tern_win_mbox_release(m);
    return 1;
}

int tern_win_put(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                 MPI_Aint disp, size_t tcount, struct tern_datatype *tdt)
{
    struct tgt t = {0};
    size_t tb = tcount * tdt->size;
    int rc = sizes_match(fn, w, o.count * o.dt->size, tb, "origin");
    if (rc || (rc = locate(fn, w, rank, disp, tcount, tdt, &t))) return rc < 0 ? MPI_SUCCESS : rc;
    if ((rc = shared(fn, w, rank, 0, &t, &o, tdt, tb)) >= 0) return rc;
    if (t.local) {
        size_t nt = (size_t)tern_param.rma_put_nt_min;
        if (nt && tb >= nt && o.dt->contig && tdt->contig)
            copy_streaming(t.local + tdt->true_lb, (const char *)o.buf + o.dt->true_lb, tb);
        else
            tern_dt_copy(o.buf, o.count, o.dt, t.local, tcount, tdt);
        return MPI_SUCCESS;
    }
    if (w->am) return tern_win_am_put(fn, w, o, rank, t.raddr, tcount, tdt);
    struct handoff h = {TERN_WIN_MBOX_PUT, MPI_OP_NULL, MPI_DATATYPE_NULL, &o, NULL, NULL};
    if (tdt->contig && by_target(w, rank, &t, t.raddr + (uint64_t)tdt->true_lb, tb, &h))
        return MPI_SUCCESS;
    return cma(fn, w, 1, &t, o.buf, o.count, o.dt, tcount, tdt, tb);
}

int tern_win_get(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                 MPI_Aint disp, size_t tcount, struct tern_datatype *tdt)
{
    struct tgt t = {0};
    size_t tb = tcount * tdt->size;
    int rc = sizes_match(fn, w, o.count * o.dt->size, tb, "origin");
    if (rc || (rc = locate(fn, w, rank, disp, tcount, tdt, &t))) return rc < 0 ? MPI_SUCCESS : rc;
    if ((rc = shared(fn, w, rank, 1, &t, &o, tdt, tb)) >= 0) return rc;
    if (t.local) {
        tern_dt_copy(t.local, tcount, tdt, (void *)o.buf, o.count, o.dt);
        return MPI_SUCCESS;
    }
    if (w->am) return tern_win_am_get(fn, w, o, rank, t.raddr, tcount, tdt);
    struct handoff h = {TERN_WIN_MBOX_GET, MPI_OP_NULL, MPI_DATATYPE_NULL, NULL, &o, NULL};
    if (tdt->contig && by_target(w, rank, &t, t.raddr + (uint64_t)tdt->true_lb, tb, &h))
        return MPI_SUCCESS;
    return cma(fn, w, 0, &t, o.buf, o.count, o.dt, tcount, tdt, tb);
}

/* ---- accumulates ----
 *
 * Two ways keep accumulates to one location atomic with each other.  A few
 * elements in the segment change by atomic instructions, one per element,
 * and any number of origins do so at once; everything else (many
 * elements, elements no instruction covers, memory reached by CMA) runs
 * plain loads and stores under the target's accumulate lock.  The two meet
 * as in Dekker's algorithm: an origin announces the target whose elements
 * it changes (its atomics_at), then checks the lock, and backs off while
 * it is held; the lock's holder waits until no origin announces its
 * target.  Neither waits while the other side waits for it. */

/* Waiting for the lock's holder, or for announced origins once it is
 * held, which never wait on this rank. */
static void spin_plain(unsigned *i)
{
    if (++*i % 64)
        tern_cpu_relax();
    else
        sched_yield();
}

static _Atomic uint32_t *announced(struct tern_win *w, int r)
{
    return &tern_win_rank_ctl(w, r)->atomics_at;
}

static void acc_lock(struct tern_win *w, int r)
{
    _Atomic uint32_t *l = &tern_win_rank_ctl(w, r)->acc;
    struct tern_waiter wt = TERN_WAITER_INIT;
    uint32_t z = 0;
    while (!atomic_compare_exchange_weak(l, &z, 1)) {
        z = 0;
        tern_win_spin(&wt);
    }
    /* Only windows in the segment are changed by instructions.  Sequentially
     * consistent, as the announcements: this lock and an origin's
     * announcement are each seen by the other side first. */
    unsigned spins = 0;
    for (int o = 0; tern_win_mapped(w) && o < w->size; o++)
        while (atomic_load_explicit(announced(w, o), memory_order_seq_cst) == (uint32_t)r + 1)
            spin_plain(&spins);
}
static void acc_unlock(struct tern_win *w, int r)
{
    atomic_store_explicit(&tern_win_rank_ctl(w, r)->acc, 0, memory_order_release);
}

/* Around changes of rank r's elements by atomic instructions. */
static void atomics_begin(struct tern_win *w, int r)
{
    _Atomic uint32_t *mine = announced(w, w->rank), *l = &tern_win_rank_ctl(w, r)->acc;
    for (;;) {
        /* An exchange, not a store and a fence: one locked instruction
         * on x86 where the fence would be a slower mfence. */
        atomic_exchange_explicit(mine, (uint32_t)r + 1, memory_order_seq_cst);
        if (!atomic_load_explicit(l, memory_order_seq_cst)) return;
        atomic_store_explicit(mine, 0, memory_order_release);
        struct tern_waiter wt = TERN_WAITER_INIT;
        while (atomic_load_explicit(l, memory_order_relaxed)) tern_win_spin(&wt);
    }
}
static void atomics_end(struct tern_win *w)
{
    atomic_store_explicit(announced(w, w->rank), 0, memory_order_release);
}

static int is_integer(MPI_Datatype b)
{
    switch (b) {
    case MPI_CHAR:
    case MPI_SIGNED_CHAR:
    case MPI_UNSIGNED_CHAR:
    case MPI_BYTE:
    case MPI_SHORT:
    case MPI_UNSIGNED_SHORT:
    case MPI_INT:
    case MPI_UNSIGNED:
    case MPI_LONG:
    case MPI_UNSIGNED_LONG:
    case MPI_LONG_LONG:
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_INT8_T:
    case MPI_INT16_T:
    case MPI_INT32_T:
    case MPI_INT64_T:
    case MPI_UINT8_T:
    case MPI_UINT16_T:
    case MPI_UINT32_T:
    case MPI_UINT64_T:
    case MPI_AINT:
    case MPI_OFFSET:
    case MPI_COUNT: return 1;
    default: return 0;
    }
}

/* One element at p: old value to *res (unless NULL), p = o op old. */
#define ELEM_ATOMIC(T)                                                                             \
    do {                                                                                           \
        T *p = (T *)tp, v = 0, old;                                                                \
        if (o) memcpy(&v, o, sizeof v);                                                            \
        if (op == MPI_NO_OP)                                                                       \
            old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                            \
        else if (op == MPI_REPLACE)                                                                \
            old = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                     \
        else if (is_int && op == MPI_SUM)                                                          \
            old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                      \
        else if (is_int && op == MPI_BAND)                                                         \
            old = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                                      \
        else if (is_int && op == MPI_BOR)                                                          \
            old = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                                       \
        else if (is_int && op == MPI_BXOR)                                                         \
            old = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                                      \
        else {                                                                                     \
            T nw;                                                                                  \
            old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                            \
            do {                                                                                   \
                nw = old;                                                                          \
                k(&v, &nw, 1);                                                                     \
            } while (                                                                              \
                !__atomic_compare_exchange_n(p, &old, nw, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)); \
        }                                                                                          \
        if (res) memcpy(res, &old, sizeof old);                                                    \
    } while (0)

static void elem_atomic(void *tp, const void *o, void *res, size_t es, MPI_Op op, tern_op_kernel k,
                        int is_int)
{
    switch (es) {
    case 1: ELEM_ATOMIC(uint8_t); break;
    case 2: ELEM_ATOMIC(uint16_t); break;
    case 4: ELEM_ATOMIC(uint32_t); break;
    default: ELEM_ATOMIC(uint64_t); break;
    }
}

/* Elements of es < 8 bytes by aligned 64-bit words: one compare-and-swap
 * changes each word's elements at once (atomic for each of them, as the
 * standard asks, and atomic with the single-element instructions above),
 * instead of one atomic instruction per element.  n elements from tp. */
/* The lane-wise sums of the es-byte integers packed in two 64-bit words,
 * no carry crossing a lane (two's complement: signed and unsigned alike):
 * what the kernel computes, without its call. */
static uint64_t lanes_add(uint64_t a, uint64_t b, size_t es)
{
    uint64_t top = es == 1   ? 0x8080808080808080ull
                   : es == 2 ? 0x8000800080008000ull
                             : 0x8000000080000000ull;
    return ((a & ~top) + (b & ~top)) ^ ((a ^ b) & top);
}

static void contig_atomic(char *tp, const char *o, char *res, size_t n, size_t es, MPI_Op op,
                          tern_op_kernel k, int is_int)
{
    size_t i = 0;
    if (es < 8 && n >= 8 / es)
        for (; i < n && (uintptr_t)(tp + i * es) % 8; i++)
            elem_atomic(tp + i * es, o ? o + i * es : NULL, res ? res + i * es : NULL, es, op, k,
                        is_int);
    for (size_t per = 8 / es; es < 8 && n - i >= per; i += per) {
        uint64_t *p = (uint64_t *)(void *)(tp + i * es), old, nw;
        old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
        if (op != MPI_NO_OP) do {
                if (op == MPI_REPLACE) {
                    memcpy(&nw, o + i * es, 8);
                } else if (is_int && op == MPI_SUM) {
                    uint64_t add;
                    memcpy(&add, o + i * es, 8);
                    nw = lanes_add(old, add, es);
                } else {
                    nw = old;
                    k(o + i * es, &nw, per);
                }
            } while (
                !__atomic_compare_exchange_n(p, &old, nw, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        if (res) memcpy(res + i * es, &old, 8);
    }
    for (; i < n; i++)
        elem_atomic(tp + i * es, o ? o + i * es : NULL, res ? res + i * es : NULL, es, op, k,
                    is_int);
}

/* Whether an accumulate of 'bytes' into the segment goes element by
 * element in atomic instructions rather than under the lock. */
static int by_atomics(size_t bytes) { return bytes < (size_t)tern_param.rma_acc_locked_min; }

/* n contiguous elements of es bytes at tp in rank's memory in the
 * segment, by atomic instructions or under the lock: the old values to
 * res (unless NULL), then tp = o op tp (o NULL for MPI_NO_OP). */
static void contig_update(struct tern_win *w, int rank, char *tp, const char *o, char *res,
                          size_t n, size_t es, MPI_Op op, tern_op_kernel k, int is_int)
{
    if (by_atomics(n * es)) {
        atomics_begin(w, rank);
        contig_atomic(tp, o, res, n, es, op, k, is_int);
        atomics_end(w);
        return;
    }
    acc_lock(w, rank);
    if (res) memcpy(res, tp, n * es);
    if (op == MPI_REPLACE)
        memmove(tp, o, n * es);
    else if (op != MPI_NO_OP)
        k(o, tp, n);
    acc_unlock(w, rank);
}

#define IOV_BATCH 64

/* Every piece of v starts and ends on an element of es bytes. */
static int pieces_aligned(const struct tern_dt_view *v, size_t bytes, size_t es)
{
    struct iovec iov[IOV_BATCH];
    for (size_t off = 0; off < bytes;) {
        size_t got, n = tern_dt_view_iov(v, off, bytes - off, iov, IOV_BATCH, &got);
        for (size_t i = 0; i < n; i++)
            if ((uintptr_t)iov[i].iov_base % es || iov[i].iov_len % es) return 0;
        off += got;
    }
    return 1;
}

static void apply_atomic(const struct tern_dt_view *v, size_t bytes, size_t es, const char *obuf,
                         char *rbuf, MPI_Op op, tern_op_kernel k, int is_int)
{
    struct iovec iov[IOV_BATCH];
    size_t idx = 0;
    for (size_t off = 0; off < bytes;) {
        size_t got, n = tern_dt_view_iov(v, off, bytes - off, iov, IOV_BATCH, &got);
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; b < iov[i].iov_len; b += es, idx++)
                elem_atomic((char *)iov[i].iov_base + b, obuf ? obuf + idx * es : NULL,
                            rbuf ? rbuf + idx * es : NULL, es, op, k, is_int);
        off += got;
    }
}

/* Reads (write = 0) or writes the target's data as a packed stream. */
static int move_packed(const char *fn, struct tern_win *w, int write, const struct tgt *t,
                       char *packed, size_t tcount, const struct tern_datatype *tdt, size_t tb)
{
    if (t->local) {
        if (write)
            tern_dt_unpack(tdt, t->local, tcount, 0, packed, tb);
        else
            tern_dt_pack(tdt, t->local, tcount, 0, packed, tb);
        return MPI_SUCCESS;
    }
    return cma(fn, w, write, t, packed, tb, tern_dt_get(MPI_BYTE), tcount, tdt, tb);
}

static int check_basic(const char *fn, struct tern_win *w, const struct tern_datatype *dt,
                       MPI_Datatype basic, const char *what)
{
    if (dt->basic != MPI_DATATYPE_NULL && dt->basic == basic) return MPI_SUCCESS;
    return tern_win_err(w, MPI_ERR_TYPE,
                        "%s: the %s datatype is not made of the target's predefined type alone: "
                        "accumulates work element-wise on one predefined type",
                        fn, what);
}

int tern_win_accumulate(const char *fn, struct tern_win *w, struct tern_rma_side o,
                        struct tern_rma_side res, int rank, MPI_Aint disp, size_t tcount,
                        struct tern_datatype *tdt, MPI_Op op)
{
    /* Nothing to do (MPI_PROC_NULL, no data) needs no valid op or types:
     * MPICH accepts any then, and mpi4py relies on it. */
    struct tgt t = {0};
    int rc = locate(fn, w, rank, disp, tcount, tdt, &t);
    if (rc) return rc < 0 ? MPI_SUCCESS : rc;
    MPI_Datatype basic = tdt->basic;
    if (basic == MPI_DATATYPE_NULL)
        return tern_win_err(w, MPI_ERR_TYPE,
                            "%s: the target datatype is not made of one predefined type alone: "
                            "accumulates work element-wise on one predefined type",
                            fn);
    tern_op_kernel k = NULL;
    if (op != MPI_REPLACE && op != MPI_NO_OP && !(k = tern_op_kernel_get(op, basic, 1)))
        return tern_win_err(w, MPI_ERR_OP,
                            "%s: op=0x%x is not a predefined operation defined on the target's "
                            "type (accumulates take MPI_REPLACE, MPI_NO_OP or a predefined op)",
                            fn, (unsigned)op);
    if (op == MPI_NO_OP && strcmp(w->acc_ops, "same_op") == 0)
        return tern_win_err(w, MPI_ERR_OP,
                            "%s: MPI_NO_OP is not allowed on %s, whose info says "
                            "accumulate_ops=same_op",
                            fn, tern_win_name(w));
    size_t tb = tcount * tdt->size;
    if (op != MPI_NO_OP) {
        if ((rc = check_basic(fn, w, o.dt, basic, "origin"))) return rc;
        if ((rc = sizes_match(fn, w, o.count * o.dt->size, tb, "origin"))) return rc;
    }
    if (res.buf || res.dt) {
        if ((rc = check_basic(fn, w, res.dt, basic, "result"))) return rc;
        if ((rc = sizes_match(fn, w, res.count * res.dt->size, tb, "result"))) return rc;
    }

    struct tern_datatype *b = tern_dt_get(basic);
    size_t es = b->size;
    if (w->am && op != MPI_NO_OP) {
        uint64_t ta = t.local ? (uint64_t)(uintptr_t)t.local : t.raddr;
        int urc = tern_win_ucp_acc(w, rank, ta, tcount, tdt, o, res, es, is_integer(basic), op);
        if (urc >= 0) return urc;
    }
    /* Contiguous on every side, in the segment: each element by one atomic
     * instruction straight between the buffers (fetch_and_op, compare-free
     * counters), with no packing. */
    if (t.in_seg && tdt->contig && b->contig && (es == 1 || es == 2 || es == 4 || es == 8) &&
        (op == MPI_NO_OP || o.dt->contig) && (!res.buf || res.dt->contig) &&
        (uintptr_t)(t.local + tdt->true_lb) % es == 0) {
        char *tp = t.local + tdt->true_lb;
        const char *ob = op == MPI_NO_OP ? NULL : (const char *)o.buf + o.dt->true_lb;
        char *rb = res.buf ? (char *)res.buf + res.dt->true_lb : NULL;
        contig_update(w, rank, tp, ob, rb, tb / es, es, op, k, is_integer(basic));
        return MPI_SUCCESS;
    }
    uint64_t ta = t.raddr + (uint64_t)tdt->true_lb;
    struct handoff h = {TERN_WIN_MBOX_ACC,     op,  basic, op == MPI_NO_OP ? NULL : &o,
                        res.buf ? &res : NULL, NULL};
    if (tdt->contig && ta % es == 0 && by_target(w, rank, &t, ta, tb, &h)) return MPI_SUCCESS;
    char *obuf = NULL, *tbuf = malloc(tb);
    if (op != MPI_NO_OP) obuf = malloc(tb);
    if (!tbuf || (op != MPI_NO_OP && !obuf)) {
        free(tbuf);
        free(obuf);
        return tern_win_err(w, MPI_ERR_NO_MEM, "%s: out of memory for %zu bytes", fn, tb);
    }
    if (obuf) tern_dt_pack(o.dt, o.buf, o.count, 0, obuf, tb);
    if (w->am && !t.local) {
        rc = tern_win_am_acc(fn, w, obuf, res, rank, t.raddr, tcount, tdt, op);
        free(tbuf);
        free(obuf);
        return rc;
    }

    struct tern_dt_view tv;
    if (t.in_seg) tern_dt_view_local(&tv, tdt, t.local, tcount);
    if (t.in_seg && b->contig && (es == 1 || es == 2 || es == 4 || es == 8) && by_atomics(tb) &&
        pieces_aligned(&tv, tb, es)) {
        atomics_begin(w, rank);
        apply_atomic(&tv, tb, es, obuf, res.buf ? tbuf : NULL, op, k, is_integer(basic));
        atomics_end(w);
    } else {
        acc_lock(w, rank);
        rc = move_packed(fn, w, 0, &t, tbuf, tcount, tdt, tb);
        if (!rc && res.buf) tern_dt_unpack(res.dt, (void *)res.buf, res.count, 0, tbuf, tb);
        if (!rc && op != MPI_NO_OP) {
            if (op == MPI_REPLACE)
                memcpy(tbuf, obuf, tb);
            else
                k(obuf, tbuf, tb / es);
            rc = move_packed(fn, w, 1, &t, tbuf, tcount, tdt, tb);
        }
        acc_unlock(w, rank);
        res.buf = NULL; /* unpacked already */
    }
    if (!rc && res.buf) tern_dt_unpack(res.dt, (void *)res.buf, res.count, 0, tbuf, tb);
    free(tbuf);
    free(obuf);
    return rc;
}

#define CAS_CASE(T)                                                                               \
    do {                                                                                          \
        T expect, nw;                                                                             \
        memcpy(&expect, compare, sizeof expect);                                                  \
        memcpy(&nw, origin, sizeof nw);                                                           \
        __atomic_compare_exchange_n((T *)tp, &expect, nw, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        memcpy(result, &expect, sizeof expect);                                                   \
    } while (0)

/* One compare-and-swap instruction on es (1, 2, 4 or 8) bytes at tp. */
static void cas_direct(char *tp, const void *origin, const void *compare, void *result, size_t es)
{
    switch (es) {
    case 1: CAS_CASE(uint8_t); break;
    case 2: CAS_CASE(uint16_t); break;
    case 4: CAS_CASE(uint32_t); break;
    default: CAS_CASE(uint64_t); break;
    }
}

int tern_win_cas(const char *fn, struct tern_win *w, const void *origin, const void *compare,
                 void *result, struct tern_datatype *dt, int rank, MPI_Aint disp)
{
    if (!dt->predefined || !dt->contig || dt->basic == MPI_DATATYPE_NULL)
        return tern_win_err(w, MPI_ERR_TYPE,
                            "%s: compare-and-swap takes one element of a predefined type", fn);
    struct tgt t = {0};
    int rc = locate(fn, w, rank, disp, 1, dt, &t);
    if (rc) return rc < 0 ? MPI_SUCCESS : rc;
    size_t es = dt->size;
    if (w->am) {
        uint64_t ta = t.local ? (uint64_t)(uintptr_t)t.local : t.raddr;
        int urc = tern_win_ucp_cas(w, rank, ta, origin, compare, result, es, is_integer(dt->basic));
        if (urc >= 0) return urc;
    }
    if (w->am && !t.local)
        return tern_win_am_cas(fn, w, origin, compare, result, dt, rank, t.raddr);
    if (t.in_seg && (uintptr_t)t.local % es == 0 && (es == 1 || es == 2 || es == 4 || es == 8)) {
        atomics_begin(w, rank);
        cas_direct(t.local, origin, compare, result, es);
        atomics_end(w);
        return MPI_SUCCESS;
    }
    struct tern_rma_side in = {origin, 1, dt}, out = {result, 1, dt};
    struct handoff h = {TERN_WIN_MBOX_CAS, MPI_OP_NULL, dt->basic, &in, &out, compare};
    if (by_target(w, rank, &t, t.raddr, es, &h)) return MPI_SUCCESS;
    char old[64];
    if (es > sizeof old)
        return tern_win_err(w, MPI_ERR_TYPE, "%s: elements of %zu bytes are not supported", fn, es);
    acc_lock(w, rank);
    rc = move_packed(fn, w, 0, &t, old, 1, dt, es);
    if (!rc && memcmp(old, compare, es) == 0)
        rc = move_packed(fn, w, 1, &t, (char *)origin, 1, dt, es);
    acc_unlock(w, rank);
    if (!rc) memcpy(result, old, es);
    return rc;
}

int tern_win_acc_fast(struct tern_win *w, const void *origin, void *result, size_t count,
                      const struct tern_datatype *dt, int rank, MPI_Aint disp, MPI_Op op)
{
    size_t es = dt->size;
    if (dt->basic != dt->handle || dt->basic_count != 1 || !es || es > 8 || (es & (es - 1)) ||
        count > SIZE_MAX / es)
        return 0;
    char *tp = tern_win_direct_at(w, rank, disp, count * es);
    if (!tp || (uintptr_t)tp % es) return 0;
    tern_op_kernel k = NULL;
    if (op == MPI_NO_OP ? strcmp(w->acc_ops, "same_op") == 0
                        : op != MPI_REPLACE && !(k = tern_op_kernel_get(op, dt->basic, 1)))
        return 0;
    contig_update(w, rank, tp, op == MPI_NO_OP ? NULL : origin, result, count, es, op, k,
                  is_integer(dt->basic));
    return 1;
}

int tern_win_cas_fast(struct tern_win *w, const void *origin, const void *compare, void *result,
                      const struct tern_datatype *dt, int rank, MPI_Aint disp)
{
    size_t es = dt->size;
    if (dt->basic != dt->handle || dt->basic_count != 1 || !es || es > 8 || (es & (es - 1)) ||
        !origin || !compare || !result)
        return 0;
    char *tp = tern_win_direct_at(w, rank, disp, es);
    if (!tp || (uintptr_t)tp % es) return 0;
    atomics_begin(w, rank);
    cas_direct(tp, origin, compare, result, es);
    atomics_end(w);
    return 1;
}

int tern_win_op_done(const char *fn, struct tern_win *w, int rank)
{
    /* Operations on this rank itself are done, but for UCP's atomics. */
    if (!w->am || rank == MPI_PROC_NULL || (rank == w->rank && !w->am->ucp)) return MPI_SUCCESS;
    return tern_win_am_flush(fn, w, rank);
}

void tern_rma_init(void)
{
    tern_win_am_reset();
    tern_win_mbox_reset();
}
