#include "msg/match.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "core/pvars.h"

static struct tern_request *posted_head, *posted_tail;
static struct tern_unexp *unexp_head, *unexp_tail;

static inline int matches(uint32_t ctx, int src, int tag, uint32_t want_ctx, int want_src,
                          int want_tag)
{
    return ctx == want_ctx && (want_src == MPI_ANY_SOURCE || want_src == src) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag);
}

static void unlink_posted(struct tern_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        posted_head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        posted_tail = r->prev;
    r->next = r->prev = NULL;
}

static void unlink_unexp(struct tern_unexp *u)
{
    if (u->prev)
        u->prev->next = u->next;
    else
        unexp_head = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        unexp_tail = u->prev;
    u->next = u->prev = NULL;
    tern_pv.unexp_length--;
}

struct tern_request *tern_match_posted(uint32_t ctx, int src, int tag)
{
    uint64_t seen = 0;
    struct tern_request *r;
    for (r = posted_head; r; r = r->next)
        if (++seen, matches(ctx, src, tag, r->ctx, r->peer, r->tag)) {
            unlink_posted(r);
            break;
        }
    tern_pv_searched(&tern_pv.posted, seen);
    return r;
}

void tern_match_post(struct tern_request *r)
{
    r->next = NULL;
    r->prev = posted_tail;
    if (posted_tail)
        posted_tail->next = r;
    else
        posted_head = r;
    posted_tail = r;
}

int tern_match_unpost(struct tern_request *r)
{
    for (struct tern_request *p = posted_head; p; p = p->next)
        if (p == r) {
            unlink_posted(r);
            return 1;
        }
    return 0;
}

struct tern_request *tern_match_take_posted(int (*pred)(const struct tern_request *))
{
    for (struct tern_request *p = posted_head; p; p = p->next)
        if (pred(p)) {
            unlink_posted(p);
            return p;
        }
    return NULL;
}

struct tern_unexp *tern_match_unexp(uint32_t ctx, int src, int tag, int remove)
{
    uint64_t seen = 0;
    struct tern_unexp *u;
    for (u = unexp_head; u; u = u->next)
        if (++seen, matches(u->ctx, u->src, u->tag, ctx, src, tag)) {
            if (remove) unlink_unexp(u);
            break;
        }
    tern_pv_searched(&tern_pv.unexp, seen);
    return u;
}

struct tern_unexp *tern_unexp_find(int (*pred)(const struct tern_unexp *, int, uint64_t), int a,
                                   uint64_t b)
{
    for (struct tern_unexp *u = unexp_head; u; u = u->next) {
        if (!pred(u, a, b)) continue;
        unlink_unexp(u);
        return u;
    }
    return NULL;
}

void tern_unexp_enqueue(struct tern_unexp *u)
{
    u->next = NULL;
    u->prev = unexp_tail;
    if (unexp_tail)
        unexp_tail->next = u;
    else
        unexp_head = u;
    unexp_tail = u;
    tern_pv_unexp_queued();
}

/* The payload lives right after the entry: one allocation per message.
 * Entries with small payloads are recycled through a free list, because a
 * stream of small messages that outruns its receives (a window of Isends
 * met by Irecvs posted late) would otherwise pay calloc and free for each. */
#define UNEXP_POOL_BYTES 256 /* payload room of a recycled entry */
#define UNEXP_POOL_MAX 256   /* entries kept on the free list */

static struct tern_unexp *unexp_pool;
static int unexp_pool_len;

struct tern_unexp *tern_unexp_alloc(size_t data_bytes)
{
    struct tern_unexp *u;
    int pooled = data_bytes <= UNEXP_POOL_BYTES;
    if (pooled && unexp_pool) {
        u = unexp_pool;
        unexp_pool = u->next;
        unexp_pool_len--;
        memset(u, 0, sizeof *u);
    } else {
        u = calloc(1, sizeof *u + (pooled ? UNEXP_POOL_BYTES : data_bytes));
        if (!u) return NULL;
    }
    u->pooled = (uint8_t)pooled;
    u->data = data_bytes ? (void *)(u + 1) : NULL;
    return u;
}

void tern_unexp_free(struct tern_unexp *u)
{
    if (u->pooled && unexp_pool_len < UNEXP_POOL_MAX) {
        u->next = unexp_pool;
        unexp_pool = u;
        unexp_pool_len++;
        return;
    }
    free(u);
}

int tern_match_idle(uint32_t ctx, int src, int tag)
{
    return !posted_head && (!unexp_head || !tern_match_unexp(ctx, src, tag, 0));
}

void tern_match_finalize(void)
{
    while (unexp_head) {
        struct tern_unexp *u = unexp_head;
        unexp_head = u->next;
        free(u);
    }
    while (unexp_pool) {
        struct tern_unexp *u = unexp_pool;
        unexp_pool = u->next;
        free(u);
    }
    unexp_pool_len = 0;
    unexp_tail = NULL;
    tern_pv.unexp_length = 0;
    posted_head = posted_tail = NULL;
}
