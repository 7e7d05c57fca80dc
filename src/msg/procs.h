/* The processes this one knows, by index: MPI_COMM_WORLD's ranks are
 * 0..world_size-1, and processes of other jobs met through MPI_Comm_spawn,
 * the port calls or MPI_Comm_join get world_size, world_size+1, ... in the
 * order this process meets them.  Groups, routes and transports address
 * peers by these indices, so they differ from process to process for
 * anyone outside the world; across jobs a process is named by its job's
 * key (a hash of the job id) and its rank in that job's world. */
#ifndef TERN_MSG_PROCS_H
#define TERN_MSG_PROCS_H

#include <stdint.h>

/* Sets up the table for MPI_COMM_WORLD; 0, or an MPI error class.
 * 'route_new' is called for each foreign process as it gets its index
 * (point-to-point routes it to the transport between jobs, which this
 * layer, below the transports, cannot name): 0, or -1 when it cannot be
 * reached. */
int tern_procs_init(int (*route_new)(int w));
void tern_procs_finalize(void);
/* This process's job key. */
uint64_t tern_procs_job_key(void);
/* Every index given out so far (world_size plus the foreign processes). */
int tern_procs_count(void);
/* The index of (job, rank), made on first sight with its route to the
 * transport between jobs; -1 when out of memory or when this build has no
 * such transport. */
int tern_proc_intern(uint64_t job, int rank);
/* The job key and world rank behind an index. */
void tern_proc_id(int w, uint64_t *job, int *rank);
/* The order of processes that every process agrees on (job key, then
 * rank), unlike the order of indices. */
int tern_proc_before(int a, int b);

/* Liveness of foreign processes, which no launcher of this job watches.
 * What the process said of itself when the jobs met: its pid space
 * (core/pid_life.h), pid and start time. */
void tern_proc_set_life(int w, uint64_t space, int pid, unsigned long long start);
/* 1 when w's pid can be checked here (same kernel and pid namespace). */
int tern_proc_pid_visible(int w);
/* A transport saw w's connection break (a process whose pid is not visible). */
void tern_proc_mark_dead(int w);
/* 1 for a foreign process known to be gone; 0 for world ranks. */
int tern_proc_is_dead(int w);
/* Checks the visible foreign processes not yet known gone and marks those
 * that are; returns how many are newly marked (by this call or by
 * tern_proc_mark_dead since the last one), so the caller fails what waits
 * on them once. */
int tern_procs_watch(void);
/* "rank R of another job, pid P" for messages (a static buffer). */
const char *tern_proc_describe(int w);

#endif
