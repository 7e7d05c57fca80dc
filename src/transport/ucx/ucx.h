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
/* w has died: the endpoint closes at once, failing what was under way. */
void tern_ucx_dyn_fail(int w);

/* The progress thread (ucx_async.c), while some window that spans hosts
 * holds it: nothing when UCX is not up (no peer on another host).  The
 * first hold starts the big lock for every later call; the caller holds
 * the big lock. */
int tern_ucx_async_hold(void);
void tern_ucx_async_release(void);

/* One-sided access for windows that span hosts (ucx_rma.c).  Operations
 * return MPI_SUCCESS or an error code (message made) and put in *req a
 * UCP request to test until done, or NULL when done already. */
int tern_ucx_up(void); /* the worker exists: some peer is on another host */
/* Registers [addr, addr + len); *packed (malloc'd, *plen bytes) is its
 * remote key for peers to unpack. */
int tern_ucx_mem_map(void *addr, size_t len, void **memh, void **packed, size_t *plen);
void tern_ucx_mem_unmap(void *memh);
/* A peer's packed key, for operations on that world rank. */
int tern_ucx_rkey_unpack(int world, const void *packed, void **rkey);
void tern_ucx_rkey_destroy(void *rkey);
int tern_ucx_put(int world, const void *buf, size_t len, uint64_t raddr, void *rkey, void **req);
int tern_ucx_get(int world, void *buf, size_t len, uint64_t raddr, void *rkey, void **req);
/* One atomic on a 4- or 8-byte word (es) at raddr: ADD adds *buf (old
 * value to reply unless NULL), SWAP writes *buf, CSWAP writes *reply where
 * the word equals *buf; both give the old value in *reply. */
enum tern_ucx_amo { TERN_UCX_AMO_ADD, TERN_UCX_AMO_SWAP, TERN_UCX_AMO_CSWAP };
int tern_ucx_atomic(int world, enum tern_ucx_amo op, const void *buf, size_t es, uint64_t raddr,
                    void *rkey, void *reply, void **req);
/* Completes at the target every operation started to world before. */
int tern_ucx_flush(int world, void **req);
/* 1 when req is done (and released), *err its outcome; 0 while it runs. */
int tern_ucx_req_test(void *req, int *err);

#endif
