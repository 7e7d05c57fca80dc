/* The progress thread of the UCX transport (ucx.h): UCX over TCP carries
 * put, get and atomics as messages its target's worker applies (UCX 1.13:
 * put_zcopy is written by the receiving side's TCP progress, get and
 * atomics are emulated with active messages), and windows that span hosts
 * have requests of their own for the target to apply (rma/win_am.h).  So
 * that passive target advances while the target computes outside MPI, a
 * thread makes progress passes while some window holds it.
 *
 * It sleeps on the worker's event descriptor (UCP_FEATURE_WAKEUP), woken
 * by UCX traffic, and at least every RMA_ASYNC_INTERVAL microseconds
 * (messages from members on this host come through shared memory, which
 * has no descriptor).  It never blocks on the big lock, and makes no pass
 * while the rank's own calls are making them (it naps instead): a rank
 * busy in MPI progresses by itself, and the thread can be joined by a
 * caller holding the lock. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/state.h"
#include "transport/ucx/ucx.h"
#include "transport/ucx/ucx_internal.h"

static pthread_t thread;
static int holds;
static int lock_ours; /* the big lock is on for this thread only */
static atomic_int stop;
static int efd = -1;

static void nap(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static unsigned long passes(void)
{
    return atomic_load_explicit(&tern_progress_passes, memory_order_relaxed);
}

static void *async_main(void *arg)
{
    (void)arg;
    long interval = tern_param.rma_async_interval > 0 ? tern_param.rma_async_interval : 1000;
    unsigned long seen = passes();
    while (!atomic_load_explicit(&stop, memory_order_acquire)) {
        /* A rank inside MPI progresses by itself: a pass here would only
         * take the core and the worker from it (ranks outnumber cores when
         * hosts share a machine). */
        unsigned long now = passes();
        if (now != seen) {
            seen = now;
            nap(interval);
            continue;
        }
        if (pthread_mutex_trylock(&tern_big_lock) != 0) {
            nap(interval);
            continue;
        }
        int n = tern_progress();
        seen = passes();
        /* Armed only once a pass found nothing: events still queued make
         * ucp_worker_arm answer BUSY. */
        ucs_status_t armed = n || efd < 0 ? UCS_ERR_BUSY : ucp_worker_arm(ucx.worker);
        pthread_mutex_unlock(&tern_big_lock);
        if (n) continue;
        if (armed == UCS_OK) {
            struct pollfd p = {.fd = efd, .events = POLLIN};
            poll(&p, 1, (int)((interval + 999) / 1000));
        } else if (armed != UCS_ERR_BUSY || efd < 0) {
            nap(interval);
        }
    }
    return NULL;
}

/* Every MPI call would keep paying for the lock after the last window that
 * needed the thread is freed. */
static void lock_off(void)
{
    if (!lock_ours) return;
    lock_ours = 0;
    tern_big_lock_stop();
}

int tern_ucx_async_hold(void)
{
    if (!ucx.worker || holds++ > 0) return MPI_SUCCESS;
    /* From here every MPI call takes the big lock, this one included. */
    lock_ours = tern_big_lock_start(1);
    if (ucp_worker_get_efd(ucx.worker, &efd) != UCS_OK) efd = -1;
    atomic_store(&stop, 0);
    /* Signals stay the program's threads' business: the thread blocks them
     * all (it inherits the mask it is created with). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int e = pthread_create(&thread, NULL, async_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e) {
        holds = 0;
        lock_off();
        return tern_err_make(MPI_ERR_OTHER, "cannot start the UCX progress thread: %s",
                             strerror(e));
    }
    return MPI_SUCCESS;
}

void tern_ucx_async_release(void)
{
    if (holds == 0 || --holds > 0) return;
    atomic_store_explicit(&stop, 1, memory_order_release);
    pthread_join(thread, NULL);
    lock_off();
}

int tern_ucx_async_held(void) { return holds; }
