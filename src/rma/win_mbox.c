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
 * does), so they stay atomic with those origins do themselves. */
#include "rma/win_mbox.h"

#include <sched.h>
#include <string.h>
#include <time.h>

#include "coll/op_kernels.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/pvars.h"
#include "core/state.h"
#include "rma/win_seg.h"

enum { FREE = 0, CLAIMED, POSTED, TAKEN, DONE, IDLE };

/* What the mailboxes of one window may take of /dev/shm, all members'. */
#define ALL_MBOX_BYTES (4u << 20)
/* The accumulate that fetches keeps the old values of this many bytes at a
 * time on the stack: a whole number of elements of every predefined type. */
#define FETCH_CHUNK 480

size_t tern_win_mbox_capacity(int n)
{
    size_t most = (size_t)tern_param.rma_target_max, fair = ALL_MBOX_BYTES / (size_t)n;
    if (fair < 1024) fair = 1024;
    return (most < fair ? most : fair) / 64 * 64;
}
size_t tern_win_mbox_bytes(int n)
{
    return (size_t)n * (sizeof(struct tern_win_mbox) + tern_win_mbox_capacity(n));
}

/* The windows whose mailboxes this process serves. */
static struct tern_win *serving;
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

/* The request in m on this process's own memory. */
static void apply(struct tern_win_mbox *m)
{
    char *t = (char *)(uintptr_t)m->addr, old[FETCH_CHUNK];
    size_t n = m->bytes;
    MPI_Op op = (MPI_Op)m->op;
    switch (m->kind) {
    case TERN_WIN_MBOX_PUT: memcpy(t, m->data, n); break;
    case TERN_WIN_MBOX_GET: memcpy(m->data, t, n); break;
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
        MPI_Datatype b = (MPI_Datatype)m->basic;
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
    w->mbox_capacity = tern_win_mbox_capacity(w->size);
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
}

struct tern_win_mbox *tern_win_mbox_claim(struct tern_win *w, int rank, size_t bytes)
{
    if (!w->mbox_on || rank == w->rank || bytes > w->mbox_capacity) return NULL;
    struct tern_win_mbox *m = tern_win_mbox_of(w, rank);
    uint32_t s = FREE;
    if (atomic_load_explicit(&m->state, memory_order_relaxed) != FREE ||
        !atomic_compare_exchange_strong_explicit(&m->state, &s, CLAIMED, memory_order_acquire,
                                                 memory_order_relaxed))
        return NULL;
    return m;
}

static uint64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int tern_win_mbox_post(struct tern_win_mbox *m)
{
    atomic_store_explicit(&m->state, POSTED, memory_order_release);
    uint64_t limit = 0;
    struct tern_waiter wt = TERN_WAITER_INIT;
    for (unsigned i = 1;; i++) {
        uint32_t s = atomic_load_explicit(&m->state, memory_order_acquire);
        if (s == DONE) {
            tern_pv.rma_target.done++;
            return 1;
        }
        if (s == TAKEN) {
            /* Being done: a few hundred nanoseconds, unless the target
             * lost its core; the progress wait yields and checks it lives. */
            if (i % 64 == 0) tern_progress_wait(&wt);
        } else if (i % 16 == 0) {
            uint64_t now = clock_ns();
            if (!limit) {
                limit = now + (uint64_t)tern_param.rma_target_wait;
            } else if (now >= limit) {
                s = POSTED;
                if (atomic_compare_exchange_strong(&m->state, &s, IDLE)) {
                    tern_pv.rma_target.taken_back++;
                    return 0;
                }
            }
            /* A target that waits for this rank's own mailbox is served
             * meanwhile; oversubscribed, it may need this core to run. */
            serve_all();
            if (tern_g.wait_yield) sched_yield();
        }
        tern_cpu_relax();
    }
}

void tern_win_mbox_release(struct tern_win_mbox *m)
{
    atomic_store_explicit(&m->state, FREE, memory_order_release);
}
