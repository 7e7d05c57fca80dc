/* The runtime (bootstrap, shared-memory transport, predefined objects) is
 * shared by the world model and every session: the first of MPI_Init and
 * MPI_Session_init brings it up, the last of MPI_Finalize and
 * MPI_Session_finalize takes it down (runtime/init.c). */
#ifndef TERN_RUNTIME_RUNTIME_H
#define TERN_RUNTIME_RUNTIME_H

/* Brings the runtime up, or raises its thread support to 'level' when it is
 * up already.  MPI_SUCCESS, or an MPI_ERR_OTHER code made (not raised)
 * naming fn when it was shut down already: it cannot come back. */
int tern_runtime_acquire(int level, const char *fn);

/* Takes the runtime down when neither the world model nor any session
 * uses it any more (a fence with every other process of the job). */
void tern_runtime_release_if_unused(void);

#endif
