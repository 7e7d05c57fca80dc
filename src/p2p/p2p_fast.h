/* The fast paths of blocking MPI_Send and MPI_Recv of small messages, as
 * inline calls from the API straight into the transport of the peer.  The
 * API has translated and checked the arguments; these only route. */
#ifndef TERN_P2P_P2P_FAST_H
#define TERN_P2P_P2P_FAST_H

#include "core/objects.h"
#include "core/state.h"
#include "msg/match.h"
#include "p2p/transport.h"

/* 1 when the message left; 0 sends it down the general path. */
static inline int tern_p2p_send_fast(const void *buf, size_t count, const struct tern_datatype *dt,
                                     int dest, int tag, const struct tern_comm *c)
{
    int w = tern_comm_world_rank(c, dest);
    if (w == tern_g.world_rank) return 0;
    const struct tern_transport *t = TERN_XPORT_OF(w);
    if (!TERN_XPORT_HAS(t, send_fast)) return 0;
    return TERN_XPORT_CALL(t, send_fast, w, buf, count, dt, c->ctx + TERN_CTX_P2P, c->rank, tag);
}

/* 1 when the message was received into buf and *status filled; the caller
 * has checked that no posted receive or queued message comes first. */
static inline int tern_p2p_recv_fast(void *buf, size_t count, const struct tern_datatype *dt,
                                     int source, int tag, const struct tern_comm *c,
                                     MPI_Status *status)
{
    int w = tern_comm_world_rank(c, source);
    if (w == tern_g.world_rank) return 0;
    const struct tern_transport *t = TERN_XPORT_OF(w);
    if (!TERN_XPORT_HAS(t, recv_fast)) return 0;
    return TERN_XPORT_CALL(t, recv_fast, w, buf, count, dt, c->ctx + TERN_CTX_P2P, source, tag,
                           status);
}

#endif
