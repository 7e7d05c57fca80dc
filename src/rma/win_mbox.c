/* Small operations handed to their target (win_mbox.h).
 *
 * A mailbox goes FREE -> CLAIMED (an origin's compare-and-swap, which
 * makes it the only writer) -> POSTED -> TAKEN (the target's
 * compare-and-swap) -> DONE -> FREE (the origin, after reading what came
 * back).  An origin that waited long enough swaps POSTED -> IDLE itself:
 * whichever swap wins decides who does the operation, so it is done once.
 * IDLE stays until the target's next progress pass sets it FREE.
 *
 * Accumulates and compare-and-swaps the target does take its accumulate
 * lock (rank ctl 'acc', as every accumulate into memory reached by CMA
 * does), so they stay atomic with those origins do themselves.
 *
 * A stream (a put or get larger than a piece whose origin data is not
 * contiguous: those that are are shared) moves through two pieces of
 * the data area in turn, counted by 'filled' (pieces written, by the
 * origin for a put, the target for a get) and 'drained' (pieces read),
 * each on a line of its own: the writer of piece k waits until piece k - 2
 * is drained.  An origin may fill the first two pieces of a put before the
 * target takes the request; taken back, nothing has reached the target.
 *
 * A share (a contiguous put or get) is claimed from both
 * ends: the origin takes chunks from the front, the target from the back,
 * each by a fetch-and-add on one word that counts the bytes taken at each
 * end ('taken': front in its low half, back in its high half), so every
 * byte is copied once whoever comes when.  The target takes half of what
 * is left at a time, at most SHARE_CHUNK_MAX, so a target that comes late
 * takes less and the two finish close together.  Once the
 * front reaches the back, the origin takes the request back if the target
 * never took it, else waits for its last piece.  A piece the target could
 * not copy (its CMA failed) is named in 'failed' and copied by the
 * origin. */
#include "rma/win_mbox.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "coll/op_kernels.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/pvars.h"
#include "core/state.h"
#include "rma/win_seg.h"
#include "transport/shm/shm.h"

enum { FREE = 0, CLAIMED, POSTED, TAKEN, DONE, IDLE };

/* What the mailboxes of one window may take of /dev/shm, all members'. */
#define ALL_MBOX_BYTES (4u << 20)
/* A stream's counters and pieces, as offsets into the data area (which
 * starts 32 bytes into the header's line). */
#define STREAM_FILLED 32
#define STREAM_DRAINED 96
#define STREAM_PIECES 160
/* A share's counters, on the stream's lines, and the origin's buffer. */
#define SHARE_TAKEN STREAM_FILLED
#define SHARE_FAILED STREAM_DRAINED
#define SHARE_BUF 0
/* The origin's chunks: an eighth of the share, within these bounds (a
 * fetch-and-add each, where the target pays a CMA call per piece: half a
 * microsecond besides its copy); an origin that copies by CMA too pays
 * the same per chunk: half the share, at most SHARE_CMA_CHUNK_MAX.  The
 * target's pieces: half of what is left, within SHARE_PIECE_MIN and
 * SHARE_CHUNK_MAX, so that neither side is left with a long piece to
 * finish alone. */
#define SHARE_CHUNK_MIN (4u << 10)
#define SHARE_CHUNK_MAX (256u << 10)
#define SHARE_CMA_CHUNK_MAX (64u << 10)
#define SHARE_PIECE_MIN (16u << 10)
/* Smaller pieces than this would not pay for their handshakes. */
#define STREAM_PIECE_MIN 4096
/* The accumulate that fetches keeps the old values of this many bytes at a
 * time on the stack: a whole number of elements of every predefined type. */
#define FETCH_CHUNK 480

size_t tern_win_mbox_stride(int n)
{
    size_t most = (size_t)tern_param.rma_target_box, fair = ALL_MBOX_BYTES / (size_t)n;
    size_t data = most < fair ? most : fair;
    return (sizeof(struct tern_win_mbox) + data + 4095) / 4096 * 4096;
}
size_t tern_win_mbox_bytes(int n) { return (size_t)n * tern_win_mbox_stride(n); }

/* Whether the first 'upto' bytes of the data of rank's mailbox m may be
 * written: those past its first page are reserved in /dev/shm by the
 * first origin to need them (win_seg.c reserves only the first), and a
 * full /dev/shm then refuses here rather than with a SIGBUS. */
static int data_ready(struct tern_win *w, int rank, struct tern_win_mbox *m, size_t upto)
{
    if (sizeof(struct tern_win_mbox) + upto <= 4096) return 1;
    if (!w->mbox_ready[rank])
        w->mbox_ready[rank] =
            madvise((char *)m + 4096, w->mbox_stride - 4096, MADV_POPULATE_WRITE) == 0 ? 1 : 2;
    return w->mbox_ready[rank] == 1;
}

/* The windows whose mailboxes this process serves. */
static struct tern_win *serving;
/* Streams under way from this process as their origin (threads that let
 * the library's lock go while they wait may each have one): it takes no
 * other's stream meanwhile, for the target of a stream waits for its origin's
 * pieces, and two ranks streaming to each other would each wait for the
 * other (they take each other's requests back, and use CMA, instead). */
static int streaming;
/* Registered with the first such window (as win_am.c's hook). */
static int hooked;

void tern_win_mbox_reset(void)
{
    hooked = 0;
    serving = NULL;
}

static int acc_trylock(struct tern_win *w)
{
    uint32_t z = 0;
    return atomic_compare_exchange_strong_explicit(&tern_win_rank_ctl(w, w->rank)->acc, &z, 1,
                                                   memory_order_acquire, memory_order_relaxed);
}

static void acc_unlock(struct tern_win *w)
{
    atomic_store_explicit(&tern_win_rank_ctl(w, w->rank)->acc, 0, memory_order_release);
}

static _Atomic uint64_t *stream_ctr(struct tern_win_mbox *m, size_t off)
{
    return (_Atomic uint64_t *)(void *)(m->data + off);
}
static char *stream_piece(struct tern_win_mbox *m, size_t piece, uint64_t k)
{
    return m->data + STREAM_PIECES + (k & 1) * piece;
}

/* Waiting for the other side of a stream, which is copying. */
static void stream_spin(unsigned *i)
{
    if (++*i % 256 == 0 && tern_g.wait_yield)
        sched_yield();
    else
        tern_cpu_relax();
}

/* Piece k of a stream of n bytes: its bytes. */
static size_t piece_len(size_t n, size_t piece, uint64_t k)
{
    return n - k * piece < piece ? n - k * piece : piece;
}

/* The target's side of a stream: the origin is copying the other piece. */
static void stream_target(struct tern_win_mbox *m, size_t piece)
{
    char *t = (char *)(uintptr_t)m->addr;
    size_t n = (size_t)m->bytes;
    _Atomic uint64_t *filled = stream_ctr(m, STREAM_FILLED),
                     *drained = stream_ctr(m, STREAM_DRAINED);
    unsigned spins = 0;
    for (uint64_t k = 0; k * piece < n; k++) {
        size_t c = piece_len(n, piece, k);
        if (m->kind == TERN_WIN_MBOX_PUT_STREAM) {
            while (atomic_load_explicit(filled, memory_order_acquire) < k + 1) stream_spin(&spins);
            memcpy(t + k * piece, stream_piece(m, piece, k), c);
            atomic_store_explicit(drained, k + 1, memory_order_release);
        } else {
            while (k >= 2 && atomic_load_explicit(drained, memory_order_acquire) < k - 1)
                stream_spin(&spins);
            memcpy(stream_piece(m, piece, k), t + k * piece, c);
            atomic_store_explicit(filled, k + 1, memory_order_release);
        }
    }
}

/* Claims up to 'want' bytes of a share of n from the front (back = 0) or
 * the back: their offset to *off and their count, 0 once none is left.
 * Each end's count overshoots n by one claim at most, and shares are under
 * 2 GiB (tern_win_mbox_share), so neither half of the word overflows. */
static size_t share_claim(struct tern_win_mbox *m, size_t n, size_t want, int back, size_t *off)
{
    uint64_t old = atomic_fetch_add_explicit(
        stream_ctr(m, SHARE_TAKEN), back ? (uint64_t)want << 32 : want, memory_order_relaxed);
    size_t front = (size_t)(old & 0xffffffffu), end = (size_t)(old >> 32);
    if (front + end >= n) return 0;
    size_t c = n - front - end < want ? n - front - end : want;
    *off = back ? n - end - c : front;
    return c;
}

/* The target's side of a share: pieces from the back by CMA until none is
 * left, each half of what remains (within SHARE_PIECE_MIN and
 * SHARE_CHUNK_MAX). */
static void share_target(struct tern_win_mbox *m)
{
    size_t n = (size_t)m->bytes, off, c;
    uint64_t obuf;
    memcpy(&obuf, m->data + SHARE_BUF, sizeof obuf);
    const struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
    for (;;) {
        uint64_t t = atomic_load_explicit(stream_ctr(m, SHARE_TAKEN), memory_order_relaxed);
        size_t used = (size_t)(t & 0xffffffffu) + (size_t)(t >> 32);
        size_t want = used < n ? (n - used) / 2 / 4096 * 4096 : 0;
        want = want < SHARE_PIECE_MIN   ? SHARE_PIECE_MIN
               : want > SHARE_CHUNK_MAX ? SHARE_CHUNK_MAX
                                        : want;
        if (!(c = share_claim(m, n, want, 1, &off))) return;
        struct tern_dt_view mine, its;
        tern_dt_view_local(&mine, byte, (char *)(uintptr_t)m->addr + off, c);
        tern_dt_view_local(&its, byte, (const void *)(uintptr_t)(obuf + off), c);
        if (tern_shm_cma_rw(m->u.share.world, m->kind == TERN_WIN_MBOX_GET_SHARE, &mine, &its, c)) {
            atomic_store_explicit(stream_ctr(m, SHARE_FAILED), (uint64_t)c << 32 | off,
                                  memory_order_release);
            return;
        }
    }
}

/* The request in m on this process's own memory. */
static void apply(struct tern_win_mbox *m)
{
    char *t = (char *)(uintptr_t)m->addr, old[FETCH_CHUNK];
    size_t n = m->bytes;
    MPI_Op op = (MPI_Op)m->u.acc.op;
    switch (m->kind) {
    case TERN_WIN_MBOX_PUT: memcpy(t, m->data, n); break;
    case TERN_WIN_MBOX_GET: memcpy(m->data, t, n); break;
    case TERN_WIN_MBOX_PUT_STREAM:
    case TERN_WIN_MBOX_GET_STREAM: stream_target(m, (size_t)m->u.piece); break;
    case TERN_WIN_MBOX_PUT_SHARE:
    case TERN_WIN_MBOX_GET_SHARE: share_target(m); break;
    case TERN_WIN_MBOX_CAS:
        memcpy(old, t, n);
        if (memcmp(old, m->data + n, n) == 0) memcpy(t, m->data, n);
        memcpy(m->data, old, n);
        break;
    default:
        if (op == MPI_NO_OP) {
            memcpy(m->data, t, n);
            break;
        }
        MPI_Datatype b = (MPI_Datatype)m->u.acc.basic;
        size_t es = tern_dt_get(b)->size;
        tern_op_kernel k = op == MPI_REPLACE ? NULL : tern_op_kernel_get(op, b, 1);
        for (size_t at = 0; at < n; at += FETCH_CHUNK) {
            size_t c = n - at < FETCH_CHUNK ? n - at : FETCH_CHUNK;
            if (m->fetch) memcpy(old, t + at, c);
            if (k)
                k(m->data + at, t + at, c / es);
            else
                memcpy(t + at, m->data + at, c);
            if (m->fetch) memcpy(m->data + at, old, c);
        }
    }
}

static int serve(struct tern_win *w)
{
    struct tern_win_mbox *m = tern_win_mbox_of(w, w->rank);
    uint32_t s = atomic_load_explicit(&m->state, memory_order_acquire);
    if (s == IDLE) {
        atomic_compare_exchange_strong(&m->state, &s, FREE);
        return 0;
    }
    if (s != POSTED) return 0;
    int stream = m->kind == TERN_WIN_MBOX_PUT_STREAM || m->kind == TERN_WIN_MBOX_GET_STREAM;
    if (stream && streaming) return 0;
    /* A held lock means an origin is at the same memory by CMA: the
     * request waits for the next pass, or its origin takes it back. */
    int locks = m->kind == TERN_WIN_MBOX_ACC || m->kind == TERN_WIN_MBOX_CAS;
    if (locks && !acc_trylock(w)) return 0;
    if (!atomic_compare_exchange_strong_explicit(&m->state, &s, TAKEN, memory_order_acquire,
                                                 memory_order_relaxed)) {
        if (locks) acc_unlock(w);
        return 0;
    }
    apply(m);
    if (locks) acc_unlock(w);
    atomic_store_explicit(&m->state, DONE, memory_order_release);
    return 1;
}

static int serve_all(void)
{
    int n = 0;
    for (struct tern_win *w = serving; w; w = w->mbox_next) n += serve(w);
    return n;
}

void tern_win_mbox_open(struct tern_win *w)
{
    if (w->mbox_on) return;
    w->mbox_on = 1;
    w->mbox_stride = tern_win_mbox_stride(w->size);
    w->mbox_capacity = w->mbox_stride - sizeof(struct tern_win_mbox);
    w->mbox_ready = calloc((size_t)w->size, 1);
    if (!w->mbox_ready) tern_fatal("out of memory for a window of %d ranks", w->size);
    size_t piece = w->mbox_capacity > STREAM_PIECES ? (w->mbox_capacity - STREAM_PIECES) / 2 : 0;
    w->mbox_piece = piece / 64 * 64 >= STREAM_PIECE_MIN ? piece / 64 * 64 : 0;
    w->mbox_next = serving;
    serving = w;
    if (!hooked) {
        tern_progress_register(serve_all);
        hooked = 1;
    }
}

void tern_win_mbox_close(struct tern_win *w)
{
    if (!w->mbox_on) return;
    for (struct tern_win **p = &serving; *p; p = &(*p)->mbox_next)
        if (*p == w) {
            *p = w->mbox_next;
            break;
        }
    w->mbox_on = 0;
    free(w->mbox_ready);
    w->mbox_ready = NULL;
}

static struct tern_win_mbox *claim(struct tern_win *w, int rank, size_t upto)
{
    if (!w->mbox_on || rank == w->rank) return NULL;
    struct tern_win_mbox *m = tern_win_mbox_of(w, rank);
    if (!data_ready(w, rank, m, upto)) return NULL;
    uint32_t s = FREE;
    if (atomic_load_explicit(&m->state, memory_order_relaxed) != FREE ||
        !atomic_compare_exchange_strong_explicit(&m->state, &s, CLAIMED, memory_order_acquire,
                                                 memory_order_relaxed))
        return NULL;
    return m;
}

struct tern_win_mbox *tern_win_mbox_claim(struct tern_win *w, int rank, size_t bytes)
{
    return bytes <= w->mbox_capacity && bytes <= (size_t)tern_param.rma_target_max
               ? claim(w, rank, bytes)
               : NULL;
}

static uint64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* An origin's wait on its posted request. */
struct origin_wait {
    uint64_t limit;
    unsigned i;
    struct tern_waiter wt;
};

/* One step of an origin's wait: 0 to wait on, 1 when the request was
 * taken back untouched. */
static int origin_step(struct tern_win_mbox *m, struct origin_wait *ow)
{
    uint32_t s = atomic_load_explicit(&m->state, memory_order_acquire);
    ow->i++;
    if (s != POSTED) {
        /* Being done: a few hundred nanoseconds, unless the target lost
         * its core; the progress wait yields and checks it lives. */
        if (ow->i % 64 == 0) tern_progress_wait(&ow->wt);
    } else if (ow->i % 16 == 0) {
        uint64_t now = clock_ns();
        if (!ow->limit) {
            ow->limit = now + (uint64_t)tern_param.rma_target_wait;
        } else if (now >= ow->limit && atomic_compare_exchange_strong(&m->state, &s, IDLE)) {
            tern_pv.rma_target.taken_back++;
            return 1;
        }
        /* A target that waits for this rank's own mailbox is served
         * meanwhile; oversubscribed, it may need this core to run. */
        serve_all();
        if (tern_g.wait_yield) sched_yield();
    }
    tern_cpu_relax();
    return 0;
}

/* Waits for the target to finish: 1 done, 0 taken back. */
static int origin_wait_done(struct tern_win_mbox *m, struct origin_wait *ow)
{
    while (atomic_load_explicit(&m->state, memory_order_acquire) != DONE)
        if (origin_step(m, ow)) return 0;
    tern_pv.rma_target.done++;
    return 1;
}

int tern_win_mbox_post(struct tern_win_mbox *m)
{
    atomic_store_explicit(&m->state, POSTED, memory_order_release);
    struct origin_wait ow = {0, 0, TERN_WAITER_INIT};
    return origin_wait_done(m, &ow);
}

/* The origin's side of a stream, posted: 1 done, 0 taken back. */
static int stream_origin(struct tern_win_mbox *m, int get, size_t bytes, size_t piece,
                         const struct tern_rma_side *o)
{
    _Atomic uint64_t *filled = stream_ctr(m, STREAM_FILLED),
                     *drained = stream_ctr(m, STREAM_DRAINED);
    struct origin_wait ow = {0, 0, TERN_WAITER_INIT};
    for (uint64_t k = 0; k * piece < bytes; k++) {
        size_t c = piece_len(bytes, piece, k);
        if (!get) {
            while (k >= 2 && atomic_load_explicit(drained, memory_order_acquire) < k - 1)
                if (origin_step(m, &ow)) return 0;
            tern_dt_pack(o->dt, o->buf, o->count, k * piece, stream_piece(m, piece, k), c);
            atomic_store_explicit(filled, k + 1, memory_order_release);
        } else {
            while (atomic_load_explicit(filled, memory_order_acquire) < k + 1)
                if (origin_step(m, &ow)) return 0;
            tern_dt_unpack(o->dt, (void *)o->buf, o->count, k * piece, stream_piece(m, piece, k),
                           c);
            atomic_store_explicit(drained, k + 1, memory_order_release);
        }
    }
    return origin_wait_done(m, &ow);
}

int tern_win_mbox_stream(struct tern_win *w, int rank, int get, uint64_t addr, size_t bytes,
                         const struct tern_rma_side *o)
{
    /* Two pieces at least, whole lines, so that the copies overlap. */
    size_t half = (bytes / 2 + 63) / 64 * 64, piece = half < w->mbox_piece ? half : w->mbox_piece;
    struct tern_win_mbox *m;
    if (!piece || bytes > (size_t)tern_param.rma_target_max ||
        !(m = claim(w, rank, STREAM_PIECES + 2 * piece)))
        return 0;
    m->kind = get ? TERN_WIN_MBOX_GET_STREAM : TERN_WIN_MBOX_PUT_STREAM;
    m->u.piece = piece;
    m->addr = addr;
    m->bytes = bytes;
    atomic_store_explicit(stream_ctr(m, STREAM_FILLED), 0, memory_order_relaxed);
    atomic_store_explicit(stream_ctr(m, STREAM_DRAINED), 0, memory_order_relaxed);
    streaming++;
    atomic_store_explicit(&m->state, POSTED, memory_order_release);
    int done = stream_origin(m, get, bytes, piece, o);
    streaming--;
    if (done) tern_win_mbox_release(m);
    return done;
}

int tern_win_mbox_share(struct tern_win *w, int rank, int get, uint64_t there, char *buf,
                        size_t bytes, tern_win_share_fn copy, void *ctx, int cma)
{
    size_t most = cma ? SHARE_CMA_CHUNK_MAX : SHARE_CHUNK_MAX, off, c;
    size_t chunk = bytes / (cma ? 2 : 8) / 4096 * 4096;
    chunk = chunk < SHARE_CHUNK_MIN ? SHARE_CHUNK_MIN : chunk > most ? most : chunk;
    struct tern_win_mbox *m = bytes < (1u << 31) && tern_shm_cma_pid(w->peer[rank].world)
                                  ? claim(w, rank, STREAM_PIECES)
                                  : NULL;
    if (!m) return copy(ctx, 0, bytes);
    m->kind = get ? TERN_WIN_MBOX_GET_SHARE : TERN_WIN_MBOX_PUT_SHARE;
    m->u.share.world = w->peer[w->rank].world;
    m->addr = there;
    m->bytes = bytes;
    uint64_t at = (uint64_t)(uintptr_t)buf, failed;
    memcpy(m->data + SHARE_BUF, &at, sizeof at);
    atomic_store_explicit(stream_ctr(m, SHARE_TAKEN), 0, memory_order_relaxed);
    atomic_store_explicit(stream_ctr(m, SHARE_FAILED), 0, memory_order_relaxed);
    atomic_store_explicit(&m->state, POSTED, memory_order_release);
    /* After an error of its own the origin still claims what is left, so
     * that the target stops: it must be done with the buffer on return. */
    int e = 0;
    while ((c = share_claim(m, bytes, chunk, 0, &off)))
        if (!e) e = copy(ctx, off, c);
    uint32_t s = POSTED;
    if (atomic_compare_exchange_strong(&m->state, &s, IDLE)) {
        tern_pv.rma_target.taken_back++;
        return e;
    }
    struct origin_wait ow = {0, 0, TERN_WAITER_INIT};
    origin_wait_done(m, &ow);
    if ((failed = atomic_load_explicit(stream_ctr(m, SHARE_FAILED), memory_order_acquire)) && !e)
        e = copy(ctx, (size_t)(failed & 0xffffffffu), (size_t)(failed >> 32));
    tern_win_mbox_release(m);
    return e;
}

void tern_win_mbox_release(struct tern_win_mbox *m)
{
    atomic_store_explicit(&m->state, FREE, memory_order_release);
}
