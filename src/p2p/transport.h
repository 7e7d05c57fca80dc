/* The transport interface: what point-to-point asks of whatever carries a
 * message to another process, and the route from each peer to its carrier.
 *
 * A transport moves packed messages between this process and the peers
 * routed to it.  It chooses eager or rendezvous itself, offers what arrives
 * to tern_match_posted() and queues what finds no receive as a tern_unexp
 * it owns (p2p/p2p_internal.h has the calls back into p2p).  Point-to-point
 * never looks inside a transport's state: a request carries an opaque area
 * (tern_request.xport) and an unexpected rendezvous an opaque blob
 * (tern_unexp.data), both read only by the transport named in them.
 *
 * The route is decided once, at init, from the host each rank runs on
 * (bootstrap/host.h): peers on this host go to shared memory, the others
 * to UCX when it is built (TERN_USE_SHARED_MEM=0 sends every peer there).
 * Sends to oneself never reach a transport (p2p.c). */
#ifndef TERN_P2P_TRANSPORT_H
#define TERN_P2P_TRANSPORT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "core/state.h"
#include "p2p/request.h"

struct tern_datatype;

struct tern_transport {
    const char *name;

    /* Sets up for the peers routed here (route[w] == this); 0 or an MPI
     * error class with the message already made. */
    int (*init)(void);
    void (*finalize)(void);
    /* Polls arrivals and drives transfers under way; events handled. */
    int (*progress)(void);
    /* Until every packet this process still owes its peers has left. */
    int (*quiesce)(void);
    /* The world rank of a peer found dead, or -1. */
    int (*find_dead_peer)(void);

    /* Starts a send to r->world_peer: eager or rendezvous, queued behind
     * earlier sends to the same peer (MPI's non-overtaking rule). */
    int (*send)(struct tern_request *r);
    /* A receive matched a rendezvous message this transport queued as
     * unexpected; 'rts' is that entry's blob. */
    void (*recv_rndv)(struct tern_request *r, int world_src, const void *rts, size_t bytes);
    /* A synchronous eager message was matched after it was queued. */
    void (*sync_ack)(int world_dst, uint64_t cookie);
    /* MPI_Cancel of a send: 1 when withdrawn at once; otherwise the request
     * completes, cancelled or not, later. */
    int (*cancel_send)(struct tern_request *r);

    /* Optional fast paths of blocking MPI_Send/MPI_Recv of small messages:
     * 1 when done, 0 for "take the general path". */
    int (*send_fast)(int world, const void *buf, size_t count, const struct tern_datatype *dt,
                     uint32_t ctx, int src, int tag);
    int (*recv_fast)(int world, void *buf, size_t count, const struct tern_datatype *dt,
                     uint32_t ctx, int src, int tag, MPI_Status *status);
};

/* The transports built into this library (p2p/transport.c lists them). */
extern const struct tern_transport tern_shm_transport;
#if defined(TERN_WITH_UCX)
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
#endif

/* Which transport reaches each world rank; NULL for this process itself. */
extern const struct tern_transport **tern_p2p_route;

/* Decides the route (host ids must be known), sets up every transport that
 * some peer needs, and registers their polling with the progress engine.
 * A peer that no built transport reaches is a fatal error that names it. */
int tern_p2p_transports_init(void);
/* Processes of other jobs (p2p/procs.h) join the route as they are met:
 * the table grows to n entries (the new ones NULL), and a foreign
 * process goes to the transport between jobs, which starts if it has not
 * (UCX; its own shared-memory and single-copy paths serve jobs that share
 * a host).  0, or -1 when this build has none or it cannot start. */
int tern_p2p_route_grow(int n);
int tern_p2p_route_foreign(int w);
/* What another job needs to reach this process (the transport between
 * jobs started first; malloc'd), and this process's way to foreign
 * process w from what w sent.  0, or an MPI error class with the message
 * made (MPI_ERR_UNSUPPORTED_OPERATION in a build without UCX). */
int tern_p2p_foreign_address(void **addr, size_t *len);
int tern_p2p_foreign_connect(int w, const void *addr, size_t len);
/* MPI_Comm_disconnect, past its barrier with foreign process w (which
 * so has every message sent before it): the connection closes. */
void tern_p2p_foreign_disconnect(int w);
/* Waits until every transport has sent what it owes (before the last fence). */
void tern_p2p_transports_quiesce(void);
void tern_p2p_transports_finalize(void);
/* Runs every transport's progress once (the progress engine's hook). */
int tern_p2p_transports_progress(void);
/* A dead peer on any transport, or -1 (the liveness check's hook). */
int tern_p2p_find_dead_peer(void);

/* With a single transport built, p2p calls it by name: the compiler sees
 * the callee and the 8-byte path pays no indirect call.  TERN_XPORT_ONLY_SHM
 * comes from the build (src/CMakeLists.txt). */
#if defined(TERN_XPORT_ONLY_SHM)
int tern_shm_send(struct tern_request *r);
int tern_shm_progress(void);
int tern_shm_send_fast(int world, const void *buf, size_t count, const struct tern_datatype *dt,
                       uint32_t ctx, int src, int tag);
int tern_shm_recv_fast(int world, void *buf, size_t count, const struct tern_datatype *dt,
                       uint32_t ctx, int src, int tag, MPI_Status *status);
#define TERN_XPORT_OF(world) (&tern_shm_transport)
#define TERN_XPORT_CALL(t, op, ...) ((void)(t), tern_shm_##op(__VA_ARGS__))
#define TERN_XPORT_HAS(t, op) ((void)(t), 1)
#else
#define TERN_XPORT_OF(world) (tern_p2p_route[world])
#define TERN_XPORT_CALL(t, op, ...) ((t)->op(__VA_ARGS__))
#define TERN_XPORT_HAS(t, op) ((t)->op != NULL)
#endif

#endif
