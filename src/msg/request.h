/* Requests: one object per operation in flight. */
#ifndef TERN_P2P_REQUEST_H
#define TERN_P2P_REQUEST_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

struct tern_comm;
struct tern_datatype;
struct tern_unexp;

enum tern_req_kind {
    TERN_REQ_SEND,
    TERN_REQ_RECV,
    TERN_REQ_COLL,    /* nonblocking collective: driven by its schedule */
    TERN_REQ_GREQ,    /* generalized request */
    TERN_REQ_MESSAGE, /* MPI_Message from Mprobe: holds a matched message */
    TERN_REQ_PAIR,    /* MPI_Isendrecv(_replace): a send and a receive, done together */
    TERN_REQ_FLUSH,   /* MPI_*_iflush_buffer: done when the buffered messages have left */
    TERN_REQ_PART,    /* partitioned send or receive (p2p/part.h) */
    TERN_REQ_IO,      /* nonblocking file access (io/): the I/O thread's, or done at start */
    TERN_REQ_RMA,     /* one-sided operation the origin finished when it started (rma/) */
};

/* Room in each request for a transport's protocol state. */
#define TERN_REQ_XPORT_BYTES 56

enum tern_send_mode { TERN_MODE_STANDARD, TERN_MODE_SYNC, TERN_MODE_READY, TERN_MODE_BUFFERED };

/* Where a send stands in its protocol (receives use 'matched'). */
enum tern_send_state {
    TERN_SEND_QUEUED,   /* waiting for ring space, in its peer's send queue */
    TERN_SEND_WAIT_ACK, /* eager synchronous: delivered, waiting for the match */
    TERN_SEND_RNDV,     /* request-to-send posted, the copy is under way */
    TERN_SEND_PIPE,     /* two-copy pipeline: streaming chunks */
    TERN_SEND_DONE,
};

struct tern_request {
    int handle;
    uint8_t kind;
    uint8_t persistent; /* *_init requests survive completion */
    uint8_t active;     /* persistent: started and not yet completed */
    uint8_t cancelled;
    uint8_t on_stack;      /* a blocking call's own request: no handle, no references */
    volatile int complete; /* read by waiting threads; written under the big lock */
    MPI_Status status;     /* MPI_SOURCE/MPI_TAG/MPI_ERROR; count in bytes */
    size_t recv_bytes;

    /* the operation */
    struct tern_comm *comm;
    struct tern_datatype *dt;
    void *buf;
    size_t count;
    int peer; /* rank in comm; MPI_ANY_SOURCE for receives */
    int tag;
    uint32_t ctx;   /* comm->ctx + TERN_CTX_P2P or TERN_CTX_COLL */
    uint8_t mode;   /* enum tern_send_mode */
    uint8_t state;  /* enum tern_send_state */
    int world_peer; /* world rank of the peer (sends) */
    size_t bytes;   /* packed size of the message */

    size_t limit; /* bytes this transfer moves: min(message, receive buffer) */
    /* Protocol state of the transport that carries the message, read only
     * by it (p2p/transport.h); zero when the request starts. */
    union {
        uint64_t align;
        unsigned char bytes[TERN_REQ_XPORT_BYTES];
    } xport;
    struct tern_unexp *msg;          /* TERN_REQ_MESSAGE: the matched message */
    struct tern_request *bsend_user; /* buffered send: NULL, the copy is ours */
    void *bsend_block; /* the internal send of a buffered one: its block (p2p/bsend.c) */

    /* nonblocking collectives and generalized requests */
    void *sched;
    int (*poll_fn)(struct tern_request *); /* returns nonzero when it completed */
    void (*free_fn)(struct tern_request *);

    struct tern_request *next, *prev; /* the queue it is in */
    struct tern_request *orphan_next; /* freed by the user (or internal) before completing */
};

struct tern_request *tern_req_alloc(enum tern_req_kind kind);
/* Prepares a request that lives in a blocking call's stack frame. */
void tern_req_init_local(struct tern_request *r, enum tern_req_kind kind);
void tern_req_free(struct tern_request *r);
struct tern_request *tern_req_get(MPI_Request h); /* NULL if not live */
void tern_requests_finalize(void);

/* Requests that every progress pass polls (poll_fn): schedules of
 * nonblocking collectives, buffered-send flushes, partitioned requests,
 * context-id agreements.  Their owner adds one when it starts and removes
 * it when it completes; each sits in no other queue (next/prev link it). */
void tern_req_poll_add(struct tern_request *r);
void tern_req_poll_remove(struct tern_request *r);
/* Polls them all (point-to-point's progress pass, while the list is not empty). */
int tern_req_poll_all(void);
extern struct tern_request *tern_req_polled;

/* Whether some operation on c (or on the other, given, communicator) is
 * still under way: a live request that is active and not complete, the
 * ones the user freed included (MPI_Comm_disconnect waits for none). */
int tern_req_pending_on(const struct tern_comm *c, const struct tern_comm *also);

/* A request nobody will wait for (MPI_Request_free before completion, the
 * internal send behind a buffered send): released by point-to-point's
 * progress pass once it completes (tern_req_reap_orphans, p2p). */
void tern_req_orphan(struct tern_request *r);
extern struct tern_request *tern_orphans;

/* Marks complete; fills the status fields the caller already set. */
static inline void tern_req_complete(struct tern_request *r) { r->complete = 1; }

#endif
