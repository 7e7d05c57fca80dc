/* Process-wide state: who we are, what was initialised, the big lock. */
#ifndef TERN_CORE_STATE_H
#define TERN_CORE_STATE_H

#include <pthread.h>
#include <stdint.h>

enum tern_init_state { TERN_STATE_NONE, TERN_STATE_ACTIVE, TERN_STATE_FINALIZED };

struct tern_state {
    /* The runtime (bootstrap, transports, predefined objects): ACTIVE while
     * the world model or some session uses it (MPI_Init or the first
     * MPI_Session_init brings it up; the last of MPI_Finalize and
     * MPI_Session_finalize takes it down).  Calls need it ACTIVE. */
    enum tern_init_state init_state;
    /* The world model alone, as MPI_Initialized and MPI_Finalized report it. */
    enum tern_init_state world_state;
    int sessions; /* sessions initialised and not yet finalized */
    int thread_level;
    int thread_multiple; /* the big lock is taken only when set */
    pthread_t main_thread;
    int world_rank, world_size;
    int nprocs; /* processes known: the world, then those of other jobs (p2p/procs.h) */
    int local_rank, local_size; /* among the ranks on this host */
    /* Among the ranks this kernel runs: the cores they share.  The same as
     * local_* unless hosts are simulated on one machine (TERN_HOST_ID,
     * TERN_RANKS_PER_HOST, network namespaces). */
    int kernel_rank, kernel_size;
    int nhosts;
    int *host_of; /* world rank -> host index (bootstrap/host.h) */
    int *file_of; /* world rank -> its shared-memory file (bootstrap/host.h) */
    int appnum;
    int singleton;
    int oversubscribed; /* more ranks on this kernel than usable cores */
    int wait_yield;     /* blocked waits call sched_yield */
    char job_id[64];
    char processor_name[128];
};

extern struct tern_state tern_g;

/* MPI_THREAD_MULTIPLE is served by one recursive lock around each call;
 * blocked waits drop it between polls so other threads can progress. */
extern pthread_mutex_t tern_big_lock;
static inline void tern_lock(void)
{
    if (__builtin_expect(tern_g.thread_multiple, 0)) pthread_mutex_lock(&tern_big_lock);
}
static inline void tern_unlock(void)
{
    if (__builtin_expect(tern_g.thread_multiple, 0)) pthread_mutex_unlock(&tern_big_lock);
}

/* Starts using the big lock (once; later calls do nothing): for
 * MPI_THREAD_MULTIPLE (held_by_caller 0), and for a helper thread of the
 * library's own (transport/ucx's progress thread).  held_by_caller: the
 * caller is inside a call that began without the lock; it takes the lock
 * now, so that the call's closing tern_unlock() releases it.  Returns 1
 * when this call started it. */
int tern_big_lock_start(int held_by_caller);
/* Stops using it, from inside a call that holds it: for the one who
 * started it for a helper thread, once that thread is joined.  Does
 * nothing once MPI_THREAD_MULTIPLE asked for it (else no other thread is
 * in MPI now).  The call's closing tern_unlock() then does nothing. */
void tern_big_lock_stop(void);
/* At MPI_Finalize: no call takes the lock any more, and a later
 * initialisation asks afresh. */
void tern_big_lock_end(void);

/* The calling function name for messages when the library is not
 * initialised (every MPI call but a few must come between Init and Finalize). */
int tern_check_initialized(const char *mpi_name);
#define TERN_REQUIRE_INIT(name)                                          \
    do {                                                                 \
        if (__builtin_expect(tern_g.init_state != TERN_STATE_ACTIVE, 0)) \
            return tern_check_initialized(name);                         \
    } while (0)

#endif
