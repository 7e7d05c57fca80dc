#include "core/state.h"

#include <mpi.h>

#include "core/errors.h"

struct tern_state tern_g;
pthread_mutex_t tern_big_lock;

/* MPI_THREAD_MULTIPLE keeps the lock on until MPI_Finalize. */
static int for_program;

int tern_big_lock_start(int held_by_caller)
{
    if (!held_by_caller) for_program = 1;
    if (tern_g.thread_multiple) return 0;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&tern_big_lock, &a);
    pthread_mutexattr_destroy(&a);
    if (held_by_caller) pthread_mutex_lock(&tern_big_lock);
    tern_g.thread_multiple = 1;
    return 1;
}

void tern_big_lock_stop(void)
{
    if (for_program || !tern_g.thread_multiple) return;
    tern_g.thread_multiple = 0;
    /* A recursive lock: the caller may hold it more than once (a call made
     * from a callback of another); unlocking once too often fails. */
    while (pthread_mutex_unlock(&tern_big_lock) == 0) continue;
    pthread_mutex_destroy(&tern_big_lock);
}

void tern_big_lock_end(void)
{
    tern_g.thread_multiple = 0;
    for_program = 0;
}

int tern_check_initialized(const char *mpi_name)
{
    /* No communicator exists outside Init..Finalize, so the default (fatal)
     * behaviour applies: say what happened and end the process. */
    if (tern_g.init_state == TERN_STATE_NONE)
        tern_fatal("%s called before MPI_Init (or MPI_Init_thread, or MPI_Session_init)", mpi_name);
    tern_fatal("%s called after MPI_Finalize (and after every session was finalized)", mpi_name);
}
