/* The transport interface: what point-to-point asks of whatever carries a
 * message to another process.
 *
 * A transport moves packed messages between this process and the peers
 * routed to it (the route: p2p/transport.h).  It chooses eager or
 * rendezvous itself, offers what arrives to tern_match_posted() and queues
 * what finds no receive as a tern_unexp it owns (msg/match.h), and copies a
 * matched message into place through msg/deliver.h.  Point-to-point never
 * looks inside a transport's state: a request carries an opaque area
 * (tern_request.xport) and an unexpected rendezvous an opaque blob
 * (tern_unexp.data), both read only by the transport named in them.
 *
 * This header sits in the message layer, below the transports, so that a
 * transport implements it without reaching up into p2p. */
#ifndef TERN_MSG_TRANSPORT_OPS_H
#define TERN_MSG_TRANSPORT_OPS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "msg/request.h"

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

#endif
