/* Whether a process known only by its pid still lives: for processes of
 * other jobs (a name's publisher, a connected job's members), which no
 * launcher of this job watches.  A pid names a process only within one
 * kernel's pid namespace; the space key says which. */
#ifndef TERN_CORE_PID_LIFE_H
#define TERN_CORE_PID_LIFE_H

#include <stdint.h>

/* This process's pid space: a hash of the kernel's boot id and the pid
 * namespace.  Two processes with the same key see each other's pids. */
uint64_t tern_pid_space(void);

/* The start time of process 'pid' (field 22 of /proc/<pid>/stat, clock
 * ticks since boot), which tells a reused pid apart; 0 when there is no
 * such process. */
unsigned long long tern_pid_start_time(long pid);

/* 1 when the process (pid, start) is gone: no such pid, or the pid now
 * belongs to a process started at another time. */
int tern_pid_gone(long pid, unsigned long long start);

#endif
