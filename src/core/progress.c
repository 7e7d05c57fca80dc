#include "core/progress.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "bootstrap/boot.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/state.h"

static uint64_t next_liveness_ns;

uint64_t tern_progress_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int tern_progress_init(void)
{
    const char *p = tern_param.wait_policy;
    if (!strcmp(p, "spin"))
        tern_g.wait_yield = 0;
    else if (!strcmp(p, "yield"))
        tern_g.wait_yield = 1;
    else {
        if (strcmp(p, "auto"))
            tern_warn("TERN_WAIT_POLICY='%s' is not one of spin, yield, auto; using auto", p);
        tern_g.wait_yield = tern_g.oversubscribed;
    }
    next_liveness_ns =
        tern_progress_now_ns() + (uint64_t)tern_param.liveness_interval_ms * 1000000u;
    return 0;
}

/* Set up by the layers above at init; a handful at most. */
#define MAX_HOOKS 8
static tern_progress_fn poll_hooks[MAX_HOOKS];
static int npoll_hooks;
static int (*dead_peer_hooks[MAX_HOOKS])(void);
static int ndead_peer_hooks;
static void (*watch_hooks[MAX_HOOKS])(void);
static int nwatch_hooks;

void tern_progress_register(tern_progress_fn poll)
{
    if (npoll_hooks == MAX_HOOKS)
        tern_fatal("internal error: more than %d progress hooks", MAX_HOOKS);
    poll_hooks[npoll_hooks++] = poll;
}

void tern_progress_register_liveness(int (*find_dead_peer)(void))
{
    if (ndead_peer_hooks == MAX_HOOKS)
        tern_fatal("internal error: more than %d liveness hooks", MAX_HOOKS);
    dead_peer_hooks[ndead_peer_hooks++] = find_dead_peer;
}

void tern_progress_register_watch(void (*watch)(void))
{
    if (nwatch_hooks == MAX_HOOKS)
        tern_fatal("internal error: more than %d watch hooks", MAX_HOOKS);
    watch_hooks[nwatch_hooks++] = watch;
}

void tern_progress_unregister_all(void) { npoll_hooks = ndead_peer_hooks = nwatch_hooks = 0; }

_Atomic unsigned long tern_progress_passes;

int tern_progress(void)
{
    /* a plain load and store: one writer at a time (progress.h) */
    atomic_store_explicit(&tern_progress_passes,
                          atomic_load_explicit(&tern_progress_passes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    int n = 0;
    for (int i = 0; i < npoll_hooks; i++) n += poll_hooks[i]();
    return n;
}

/* A transport may see a peer's death (a reset connection) before the
 * launcher has reaped it.  The launcher's report names the real cause (the
 * signal, the exit code); an abort from this rank would race it and could
 * win.  So while the launcher lives it gets a moment to end the job itself. */
#define LAUNCHER_VERDICT_MS 2000
static void wait_for_launcher_verdict(void)
{
    struct timespec tick = {0, 10 * 1000000};
    for (int waited = 0; waited < LAUNCHER_VERDICT_MS && tern_boot_launcher_alive(); waited += 10)
        nanosleep(&tick, NULL);
}

/* A blocked rank must not wait forever on a peer that is gone: the
 * launcher ends the job when a rank dies, but a rank started by another
 * launcher, or whose launcher was killed, finds out here. */
static void check_liveness(void)
{
    if (!tern_boot_launcher_alive())
        tern_fatal("the launcher (mpiexec) has gone away; ending this rank");
    for (int i = 0; i < ndead_peer_hooks; i++) {
        int dead = dead_peer_hooks[i]();
        if (dead >= 0) {
            wait_for_launcher_verdict();
            tern_fatal("rank %d has died while this rank was waiting for it; ending the job", dead);
        }
    }
    for (int i = 0; i < nwatch_hooks; i++) watch_hooks[i]();
}

void tern_progress_wait(struct tern_waiter *w)
{
    /* Other threads get the big lock between passes; the core itself is
     * given up only when passes keep finding nothing (below), so a busy
     * MPI_THREAD_MULTIPLE rank makes no system call per poll. */
    if (tern_g.thread_multiple) {
        pthread_mutex_unlock(&tern_big_lock);
        if (w->idle_polls > 16) sched_yield();
        pthread_mutex_lock(&tern_big_lock);
    }
    int n = tern_progress();
    if (n) {
        w->idle_polls = 0;
        return;
    }
    w->idle_polls++;
    if (tern_g.wait_yield) sched_yield();
    /* Reading the coarse clock costs a few ns; doing it every 64 idle
     * polls keeps the spin loop tight. */
    if ((w->idle_polls & 63) == 0) {
        uint64_t t = tern_progress_now_ns();
        if (t >= next_liveness_ns) {
            next_liveness_ns = t + (uint64_t)tern_param.liveness_interval_ms * 1000000u;
            check_liveness();
        }
    }
}
