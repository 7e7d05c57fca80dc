#include "core/state.h"

#include <mpi.h>

#include "core/errors.h"

struct tern_state tern_g;
pthread_mutex_t tern_big_lock;

void tern_big_lock_start(int held_by_caller)
{
    if (tern_g.thread_multiple) return;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&tern_big_lock, &a);
    pthread_mutexattr_destroy(&a);
    if (held_by_caller) pthread_mutex_lock(&tern_big_lock);
    tern_g.thread_multiple = 1;
}

int tern_check_initialized(const char *mpi_name)
{
    /* No communicator exists outside Init..Finalize, so the default (fatal)
     * behaviour applies: say what happened and end the process. */
    if (tern_g.init_state == TERN_STATE_NONE)
        tern_fatal("%s called before MPI_Init (or MPI_Init_thread, or MPI_Session_init)", mpi_name);
    tern_fatal("%s called after MPI_Finalize (and after every session was finalized)", mpi_name);
}
