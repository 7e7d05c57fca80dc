/* Request objects come from chunks of 1024 that are never freed while the
 * library runs, so a handle maps to its object with two array lookups and
 * no allocation happens on the message path once the pool is warm. */
#include "msg/request.h"

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/handle.h"
#include "core/progress.h"

#define REQ_CHUNK 1024
#define REQ_MAX_CHUNKS 65536 /* 64 Mi requests: far beyond any sane program */

static struct tern_request *chunks[REQ_MAX_CHUNKS];
static unsigned nchunks;
static struct tern_request *free_list;

static int grow(void)
{
    if (nchunks == REQ_MAX_CHUNKS) return -1;
    struct tern_request *c = calloc(REQ_CHUNK, sizeof *c);
    if (!c) return -1;
    unsigned base = nchunks * REQ_CHUNK;
    /* Index 0 stays unused so no live request has MPICH's null value. */
    for (int i = REQ_CHUNK - 1; i >= 0; i--) {
        if (base + (unsigned)i == 0) continue;
        c[i].handle = tern_handle_make(TERN_TIER_CREATED, TERN_KIND_REQUEST, base + (unsigned)i);
        c[i].kind = 0xff;
        c[i].next = free_list;
        free_list = &c[i];
    }
    chunks[nchunks++] = c;
    return 0;
}

struct tern_request *tern_req_alloc(enum tern_req_kind kind)
{
    if (!free_list && grow()) return NULL;
    struct tern_request *r = free_list;
    free_list = r->next;
    int h = r->handle;
    memset(r, 0, sizeof *r);
    r->handle = h;
    r->kind = (uint8_t)kind;
    return r;
}

void tern_req_init_local(struct tern_request *r, enum tern_req_kind kind)
{
    memset(r, 0, sizeof *r);
    r->kind = (uint8_t)kind;
    r->on_stack = 1;
}

void tern_req_free(struct tern_request *r)
{
    r->kind = 0xff; /* marks the slot dead for tern_req_get */
    r->next = free_list;
    free_list = r;
}

struct tern_request *tern_req_get(MPI_Request h)
{
    if (tern_handle_tier(h) != TERN_TIER_CREATED || tern_handle_kind(h) != TERN_KIND_REQUEST)
        return NULL;
    unsigned i = tern_handle_index(h);
    unsigned c = i / REQ_CHUNK;
    if (c >= nchunks) return NULL;
    struct tern_request *r = &chunks[c][i % REQ_CHUNK];
    return r->kind == 0xff ? NULL : r;
}

int tern_req_pending_on(const struct tern_comm *c, const struct tern_comm *also)
{
    for (unsigned k = 0; k < nchunks; k++)
        for (unsigned i = 0; i < REQ_CHUNK; i++) {
            const struct tern_request *r = &chunks[k][i];
            if (r->kind == 0xff || r->kind == TERN_REQ_MESSAGE || r->complete) continue;
            if (r->persistent && !r->active) continue;
            if (r->comm && (r->comm == c || r->comm == also)) return 1;
        }
    return 0;
}

/* Started requests that every pass polls, linked through their next/prev. */
struct tern_request *tern_req_polled;

void tern_req_poll_add(struct tern_request *r)
{
    r->prev = NULL;
    r->next = tern_req_polled;
    if (tern_req_polled) tern_req_polled->prev = r;
    tern_req_polled = r;
}

void tern_req_poll_remove(struct tern_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        tern_req_polled = r->next;
    if (r->next) r->next->prev = r->prev;
    r->next = r->prev = NULL;
}

/* A poll may complete (and unlink) only the request polled, so the next
 * one is read first. */
int tern_req_poll_all(void)
{
    int n = 0;
    for (struct tern_request *r = tern_req_polled, *next; r; r = next) {
        next = r->next;
        n += r->poll_fn(r);
    }
    return n;
}

struct tern_request *tern_orphans;

void tern_req_orphan(struct tern_request *r)
{
    r->orphan_next = tern_orphans;
    tern_orphans = r;
}

void tern_requests_finalize(void)
{
    for (unsigned i = 0; i < nchunks; i++) free(chunks[i]);
    nchunks = 0;
    free_list = NULL;
    tern_orphans = NULL; /* they lived in the chunks */
    tern_req_polled = NULL;
}
