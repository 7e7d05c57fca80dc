/* The progress engine: one pass polls every source of events that the
 * layers above registered (transports: incoming rings, copies under way,
 * queued sends) and advances the nonblocking collectives.  Blocked
 * calls loop on tern_progress_wait(), which also yields the core when ranks
 * outnumber cores and checks now and then that the launcher and the peers
 * are still alive. */
#ifndef TERN_CORE_PROGRESS_H
#define TERN_CORE_PROGRESS_H

#include <stdatomic.h>
#include <stdint.h>

/* One pass over every registered source; returns how many events it handled. */
int tern_progress(void);

/* Passes made so far: a helper thread that progresses on a rank's behalf
 * (transport/ucx/ucx_async.c) stands aside while the rank's own calls
 * keep this moving.  Written only by a thread that holds the big lock, or
 * by the one thread that calls MPI. */
extern _Atomic unsigned long tern_progress_passes;

/* The layers above register what a pass polls (p2p: its transports and the
 * requests nobody waits for) and how a blocked rank learns that a peer died
 * (a world rank, or -1).  Unregister_all at finalize. */
typedef int (*tern_progress_fn)(void);
void tern_progress_register(tern_progress_fn poll);
void tern_progress_register_liveness(int (*find_dead_peer)(void));
/* Called with the liveness check while a rank is blocked, for what a death
 * does not end the job for (a process of another job). */
void tern_progress_register_watch(void (*watch)(void));
void tern_progress_unregister_all(void);

struct tern_waiter {
    uint32_t idle_polls; /* passes in a row that found nothing */
    uint32_t polls;
};
#define TERN_WAITER_INIT \
    {                    \
        0, 0             \
    }

/* One step of a blocking wait: progress, then yield or check liveness as
 * the situation asks.  Drops the big lock around the pass in
 * MPI_THREAD_MULTIPLE so other threads can run. */
void tern_progress_wait(struct tern_waiter *w);

int tern_progress_init(void);

/* The coarse monotonic clock the waits time themselves with, in ns (a few
 * ms of resolution, a few ns to read). */
uint64_t tern_progress_now_ns(void);

/* Tells the core we are spinning (frees resources for a sibling thread). */
static inline void tern_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield" ::: "memory");
#endif
}

#endif
