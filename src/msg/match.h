/* Matching: the posted-receive queue and the unexpected-message queue.
 *
 * Every incoming message, whatever carried it, is offered to
 * tern_match_posted(); what finds no receive waits in the unexpected queue
 * until one is posted.  Both queues keep arrival/posting order, which with
 * FIFO transports gives MPI's non-overtaking rule. */
#ifndef TERN_P2P_MATCH_H
#define TERN_P2P_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "msg/request.h"

struct tern_transport;

enum tern_unexp_kind {
    TERN_UNEXP_EAGER, /* data copied out of the transport: 'data' */
    TERN_UNEXP_RNDV,  /* the data is still at the sender; 'data' holds the
                       * transport's description of it, for recv_rndv */
    TERN_UNEXP_SELF,  /* send to self: 'self_send' holds the data */
};

struct tern_unexp {
    struct tern_unexp *next, *prev;
    uint32_t ctx;
    int src, tag;
    size_t bytes; /* the message's */
    uint8_t kind;
    uint8_t sync;         /* eager synchronous: acknowledge on match */
    uint64_t sync_cookie; /* the transport's name for the sender's request */
    int world_src;
    const struct tern_transport *xport; /* carried it; NULL for a send to self */
    void *data;
    struct tern_request *self_send;
    uint8_t pooled; /* from the free list of small entries (match.c) */
};

/* Removes and returns the first posted receive matching (ctx, src, tag) of
 * an arriving message, or NULL. */
struct tern_request *tern_match_posted(uint32_t ctx, int src, int tag);
/* Appends a receive to the posted queue. */
void tern_match_post(struct tern_request *r);
/* Removes r from the posted queue if it is there (cancel); returns 1 if it was. */
int tern_match_unpost(struct tern_request *r);
/* Removes and returns the first posted receive for which pred holds, or NULL. */
struct tern_request *tern_match_take_posted(int (*pred)(const struct tern_request *));

/* The first unexpected message matching a receive's (ctx, src, tag) with
 * wildcards, or NULL; removes it when 'remove' is set. */
struct tern_unexp *tern_match_unexp(uint32_t ctx, int src, int tag, int remove);
void tern_unexp_enqueue(struct tern_unexp *u);
/* Removes and returns the first queued message for which pred(u, a, b) holds. */
struct tern_unexp *tern_unexp_find(int (*pred)(const struct tern_unexp *, int, uint64_t), int a,
                                   uint64_t b);
struct tern_unexp *tern_unexp_alloc(size_t data_bytes);
void tern_unexp_free(struct tern_unexp *u);

/* 1 when no receive is posted and no queued message matches (ctx, src,
 * tag): a new receive would be the first to see the next arrival. */
int tern_match_idle(uint32_t ctx, int src, int tag);

void tern_match_finalize(void);

#endif
