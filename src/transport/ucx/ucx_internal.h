/* The UCX transport's state, shared by its files.
 *
 * One UCP context and worker per process.  Every message is a UCP active
 * message whose header carries Tern's envelope; the receiving side matches
 * it in Tern's own queues (p2p/match.h), so MPI_ANY_SOURCE sees shared
 * memory and UCX alike.  Small messages travel eagerly with the header;
 * larger ones go by UCP rendezvous, and the receiver fetches the data with
 * ucp_am_recv_data_nbx straight into the matched buffer.
 *
 * A peer costs nothing until this process first talks to it: then a
 * struct ucx_peer is made, in a page of peer pointers made with it
 * (UCX_PEER_PAGE of them), and its endpoint from the worker address the
 * peer left in the bootstrap.  What touches every peer walks the list of
 * those made.
 *
 * A rank of this job may get a second endpoint, for the data of rendezvous
 * messages only (ucx_data_ep).  The first one asks UCP for peer-failure
 * handling, which is how a dead rank is found under any launcher; UCP 1.13
 * then leaves out the transports' zero-copy lanes that cannot report
 * failures, TCP's among them, and moves large messages as 64 KiB copies
 * (about 0.7x the bandwidth across two hosts).  The second endpoint asks
 * for none and sends a whole message with one sendmsg.  Both carry Tern's
 * sequence numbers, so the receiver keeps each sender's order across them. */
#ifndef TERN_TRANSPORT_UCX_UCX_INTERNAL_H
#define TERN_TRANSPORT_UCX_UCX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "msg/request.h"

#define UCX_PEER_PAGE 512

/* Active-message ids. */
enum { UCX_AM_MSG = 1, UCX_AM_CTL = 2 };

/* The envelope of a message, sent as the active message's header.  UCP
 * 1.13 reads the header until the send completes, so a send keeps it in
 * its request (struct ucx_sreq). */
struct ucx_hdr {
    uint32_t ctx;
    int32_t src, tag;  /* rank in the communicator, tag */
    int32_t world_src; /* in the sender's job, whose key follows (p2p/procs.h) */
    uint64_t job;
    uint32_t seq;    /* per sender and receiver: restores send order */
    uint32_t sync;   /* eager synchronous: acknowledge on match */
    uint64_t cookie; /* the sender's request: acks and revokes name it */
};

/* Control messages: header only. */
enum { UCX_CTL_ACK, UCX_CTL_REVOKE, UCX_CTL_REVOKE_REPLY };
struct ucx_ctl {
    uint32_t type;
    int32_t world_src;
    uint64_t job;
    uint64_t cookie;
    uint64_t value;
};

/* A message that arrived ahead of an earlier one from the same sender
 * (UCP does not promise order between eager and rendezvous messages, nor
 * between two endpoints): held until its turn. */
struct ucx_held {
    struct ucx_held *next;
    struct ucx_hdr hdr;
    void *data; /* a copy of eager data, or the rendezvous descriptor */
    size_t len;
    int rndv;
    int revoked; /* its sender cancelled it: dropped in its turn */
};

struct ucx_peer {
    struct ucx_peer *next; /* the list of peers made (ucx.made) */
    int world;
    ucp_ep_h ep;      /* NULL until this process first sends to the peer */
    ucp_ep_h data_ep; /* rendezvous data, without failure handling; NULL until used */
    uint32_t send_seq, recv_seq;
    struct ucx_held *held; /* in seq order */
    void *addr;            /* a process of another job: its worker address (malloc'd) */
};

/* A send's protocol state, in tern_request.xport. */
struct ucx_sreq {
    struct ucx_hdr hdr;
    void *aux;         /* iovec array or packed copy, freed at completion */
    uint8_t data_done; /* UCP is done with the buffer (rendezvous: fetched) */
    uint8_t need_ack, acked;
    uint8_t cancel_pending, withdrawn;
};

/* A receive's rendezvous fetch, in tern_request.xport. */
struct ucx_rreq {
    void *aux;      /* iovec array, or the whole message when it is unpacked or truncated */
    uint8_t unpack; /* aux holds the message: unpack r->limit bytes of it */
};

/* An unexpected rendezvous message: tern_unexp.data. */
struct ucx_rts {
    void *desc;
    uint64_t cookie;
};

struct ucx_state {
    ucp_context_h ctx;
    ucp_worker_h worker;
    /* By process index (p2p/procs.h): pages[i / UCX_PEER_PAGE], NULL
     * until a peer in it is made, then the page's peer pointers. */
    struct ucx_peer ***pages;
    int npages;
    struct ucx_peer *made; /* every peer made, newest first */
    size_t eager_max, iov_min;
    int data_endpoint; /* TERN_UCX_DATA_ENDPOINT */
    long outstanding;  /* UCP requests not yet completed */
    int dead;          /* world rank an endpoint reported failed, or -1 */
    int dead_status;
};
extern struct ucx_state ucx;

/* The index of a message's sender: its world rank in this job, else the
 * index p2p/procs.h gives (job, rank), made on first sight (a peer may
 * send as soon as its side of a connection is built, before ours is). */
int ucx_sender(uint64_t job, int32_t world_src);
/* The peer's state, made on first use; NULL only when out of memory. */
struct ucx_peer *ucx_peer(int world);
/* The peer's state, or NULL when it was never made. */
struct ucx_peer *ucx_peer_if_made(int world);
/* The endpoint to a peer, made on first use; NULL with *err set (an MPI
 * error class, message made) when it cannot be. */
ucp_ep_h ucx_ep(int world, int *err);
/* The endpoint for a rendezvous message's data to a peer: its data
 * endpoint for a rank of this job (made on first use), else ucx_ep. */
ucp_ep_h ucx_data_ep(int world, int *err);

/* The active-message handlers (ucx_msg.c). */
ucs_status_t ucx_on_msg(void *arg, const void *header, size_t header_length, void *data,
                        size_t length, const ucp_am_recv_param_t *param);
ucs_status_t ucx_on_ctl(void *arg, const void *header, size_t header_length, void *data,
                        size_t length, const ucp_am_recv_param_t *param);
void ucx_peer_free_held(struct ucx_peer *p);

/* Releases the registrations and keys windows never freed still hold
 * (ucx_rma.c). */
void ucx_rma_release_all(void);
/* Holds on the progress thread still outstanding (ucx_async.c). */
int tern_ucx_async_held(void);

/* The operations of the transport table (ucx_msg.c). */
int tern_ucx_send(struct tern_request *r);
void tern_ucx_recv_rndv(struct tern_request *r, int world_src, const void *rts, size_t bytes);
void tern_ucx_sync_ack(int world_dst, uint64_t cookie);
int tern_ucx_cancel_send(struct tern_request *r);

static inline struct ucx_sreq *ucx_sreq(struct tern_request *r)
{
    _Static_assert(sizeof(struct ucx_sreq) <= TERN_REQ_XPORT_BYTES,
                   "ucx_sreq outgrows tern_request.xport");
    return (struct ucx_sreq *)(void *)r->xport.bytes;
}

static inline struct ucx_rreq *ucx_rreq(struct tern_request *r)
{
    _Static_assert(sizeof(struct ucx_rreq) <= TERN_REQ_XPORT_BYTES,
                   "ucx_rreq outgrows tern_request.xport");
    return (struct ucx_rreq *)(void *)r->xport.bytes;
}

#endif
