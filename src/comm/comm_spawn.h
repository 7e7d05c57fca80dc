/* Spawning (comm_spawn.c).  The parent intercommunicator and the waits of
 * MPI_Finalize are declared with the other dynamic calls (comm/dyn.h). */
#ifndef TERN_COMM_COMM_SPAWN_H
#define TERN_COMM_COMM_SPAWN_H

#include "core/objects.h"

/* Collective over c: starts sum(maxprocs) children as one job (MPI_APPNUM
 * i for the block of cmds[i]), and connects to them.  Only the root's
 * cmds, argvs, maxprocs and infos are read. */
int tern_spawn(const char *fn, int count, char **cmds, char ***argvs, const int *maxprocs,
               const MPI_Info *infos, int root, struct tern_comm *c, struct tern_comm **out);
/* The parent intercommunicator was freed or disconnected. */
void tern_spawn_forget_parent(MPI_Comm h);

#endif
