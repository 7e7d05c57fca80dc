/* The route from each peer to the transport that carries its messages
 * (the interface itself: msg/transport_ops.h).
 *
 * The route is decided once, at init, from the host each rank runs on
 * (bootstrap/host.h): peers on this host go to shared memory, the others
 * to UCX when it is built (TERN_USE_SHARED_MEM=0 sends every peer there).
 * Sends to oneself never reach a transport (p2p.c). */
#ifndef TERN_P2P_TRANSPORT_H
#define TERN_P2P_TRANSPORT_H

#include "core/state.h"
#include "msg/transport_ops.h"
#include "transport/shm/shm.h"
#if defined(TERN_WITH_UCX)
#include "transport/ucx/ucx.h"
#endif

/* Which transport reaches each world rank; NULL for this process itself. */
extern const struct tern_transport **tern_p2p_route;

/* Decides the route (host ids must be known), sets up every transport that
 * some peer needs, and registers their polling with the progress engine.
 * A peer that no built transport reaches is a fatal error that names it. */
int tern_p2p_transports_init(void);
/* A process of another job (msg/procs.h) joins the route when it gets its
 * index w: the table grows to w+1 entries, and w goes to the transport
 * between jobs, which starts if it has not (UCX; its own shared-memory and
 * single-copy paths serve jobs that share a host).  0, or -1 when this
 * build has none or it cannot start.  The process table's hook. */
int tern_p2p_route_new_proc(int w);
/* What another job needs to reach this process (the transport between
 * jobs started first; malloc'd), and this process's way to foreign
 * process w from what w sent.  0, or an MPI error class with the message
 * made (MPI_ERR_UNSUPPORTED_OPERATION in a build without UCX). */
int tern_p2p_foreign_address(void **addr, size_t *len);
int tern_p2p_foreign_connect(int w, const void *addr, size_t len);
/* MPI_Comm_disconnect, past its barrier with foreign process w (which
 * so has every message sent before it): the connection closes. */
void tern_p2p_foreign_disconnect(int w);
/* Foreign process w has died: its connection closes at once, failing what
 * was under way to or from it. */
void tern_p2p_foreign_fail(int w);
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
#define TERN_XPORT_OF(world) (&tern_shm_transport)
#define TERN_XPORT_CALL(t, op, ...) ((void)(t), tern_shm_##op(__VA_ARGS__))
#define TERN_XPORT_HAS(t, op) ((void)(t), 1)
#else
#define TERN_XPORT_OF(world) (tern_p2p_route[world])
#define TERN_XPORT_CALL(t, op, ...) ((t)->op(__VA_ARGS__))
#define TERN_XPORT_HAS(t, op) ((t)->op != NULL)
#endif

#endif
