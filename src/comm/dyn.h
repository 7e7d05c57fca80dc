/* Dynamic processes: this job meeting another one.
 *
 * Two groups meet through one TCP connection between their roots (a port:
 * dyn_port.c; MPI_Comm_join's socket; a spawned job's connection back to
 * its parents).  Over it the roots swap each member's (job, rank) and UCX
 * worker address and agree a context id free on both sides
 * (dyn_connect.c); then every member makes endpoints to the other side
 * (p2p/procs.h numbers those processes) and builds the intercommunicator. */
#ifndef TERN_COMM_DYN_H
#define TERN_COMM_DYN_H

#include <stddef.h>
#include <stdint.h>

#include "core/objects.h"

/* Blocking socket I/O: 0, -1 on error or end of stream, -2 when
 * 'timeout_ms' (< 0: none) passed first. */
int tern_sock_write(int fd, const void *buf, size_t n);
int tern_sock_read(int fd, void *buf, size_t n, int timeout_ms);
double tern_dyn_now(void);

/* Collective over 'local': its root holds 'fd', connected to the other
 * group's root ('root_rc' is how getting it went: MPI_SUCCESS, or the
 * error code to return on every member).  'writes_first' is 1 on exactly
 * one of the two roots, so that large exchanges do not both block in
 * write.  Errors are raised with fn and the class errclass. */
int tern_dyn_meet(const char *fn, struct tern_comm *local, int root, int fd, int writes_first,
                  int root_rc, int errclass, struct tern_comm **out);

/* The parts of tern_dyn_meet that other constructors reuse (comm_inter.c,
 * when an MPI_Intercomm_create spans jobs): every member's record (job
 * key, rank in its job, UCX address) gathered at 'root', swapped by the
 * roots through 'swap' (0, or -1 when the other side is gone: it sets
 * theirs_hdr to {count, record size} and mallocs *theirs), and spread to
 * every member.  Collective over 'local'; on success *recs (malloc'ed)
 * holds hdr[0] records of hdr[1] bytes each. */
typedef int tern_dyn_swap_fn(void *arg, const int32_t mine_hdr[2], const void *mine,
                             int32_t theirs_hdr[2], void **theirs);
int tern_dyn_records(const char *fn, struct tern_comm *local, int root, int root_rc, int errclass,
                     tern_dyn_swap_fn *swap, void *arg, int32_t hdr[2], void **recs);
/* This process's group of the processes those records describe, with an
 * endpoint to each of another job (local: no other member waits on it). */
int tern_dyn_remote_group(const char *fn, int errclass, const void *recs, const int32_t hdr[2],
                          struct tern_group **out);

/* Ports (dyn_port.c).  A port is a listening socket of the process that
 * opened it; 'name' at most MPI_MAX_PORT_NAME bytes with its NUL. */
int tern_port_open(char *name);
int tern_port_close(const char *name);
/* The root's side of an accept: a socket connected to a connecting root,
 * or an error code.  'give_up', when not NULL, is asked between polls
 * whether to stop waiting (it makes the error). */
int tern_port_accept_fd(const char *fn, const char *name, int (*give_up)(void *), void *arg,
                        int *fd);
int tern_port_connect_fd(const char *fn, const char *name, int *fd);
void tern_ports_close_all(void);

/* The parent intercommunicator of a spawned process (comm_spawn.c):
 * connects at MPI_Init when the launcher says this job was spawned. */
int tern_spawn_connect_parent(void);
MPI_Comm tern_spawn_parent(void);
/* At MPI_Finalize: waits for the launchers this process started. */
void tern_spawn_finalize(void);

#endif
