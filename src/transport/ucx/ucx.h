/* The UCX transport between hosts (its workings: ucx_internal.h): the
 * operations table point-to-point routes the peers on other hosts to. */
#ifndef TERN_TRANSPORT_UCX_UCX_H
#define TERN_TRANSPORT_UCX_UCX_H

#include <stddef.h>

#include "msg/transport_ops.h"

extern const struct tern_transport tern_ucx_transport;

/* Starts UCX for peers of other jobs when no peer of this job needed it:
 * no bootstrap exchange (their addresses come with the connection). */
int tern_ucx_dyn_start(void);
/* This process's worker address (malloc'd into *addr), and an endpoint to
 * process w from its address; 0, or an MPI error class, message made. */
int tern_ucx_dyn_address(void **addr, size_t *len);
int tern_ucx_dyn_connect(int w, const void *addr, size_t len);
/* Closes the endpoint to w once this process's UCP requests are done (the
 * caller knows w has what it was sent); made again from w's address if w
 * is reached later. */
void tern_ucx_dyn_disconnect(int w);

/* The progress thread (ucx_async.c), while some window that spans hosts
 * holds it: nothing when UCX is not up (no peer on another host).  The
 * first hold starts the big lock for every later call; the caller holds
 * the big lock. */
int tern_ucx_async_hold(void);
void tern_ucx_async_release(void);

#endif
