/* Buffered sends and the buffers they copy into (see bsend.h). */
#include "p2p/bsend.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/objects.h"
#include "core/progress.h"
#include "core/session.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/p2p_internal.h"
#include "msg/status.h"

/* One buffered message: a header, then the packed copy.  The header fits
 * in MPI_BSEND_OVERHEAD, as the standard promises users. */
struct bblock {
    struct bblock *next, *prev;
    struct tern_bbuf *owner;
    size_t size;  /* bytes after the header */
    uint64_t seq; /* order of buffering, for MPI_*_iflush_buffer */
};
_Static_assert(sizeof(struct bblock) <= MPI_BSEND_OVERHEAD,
               "block header exceeds MPI_BSEND_OVERHEAD");

struct tern_bbuf {
    char *base; /* the user's memory; NULL when automatic */
    size_t size;
    int automatic;         /* each block is malloc'ed (MPI_BUFFER_AUTOMATIC) */
    int refcount;          /* the slot's, plus one per iflush request under way */
    struct bblock *blocks; /* in address order in user memory */
    uint64_t next_seq;
};

struct tern_bbuf *tern_bbuf_process;
static size_t live_blocks; /* over every buffer */

static size_t round8(size_t v) { return (v + 7) & ~(size_t)7; }

static void link_after(struct tern_bbuf *bb, struct bblock *prev, struct bblock *nb)
{
    nb->prev = prev;
    nb->next = prev ? prev->next : bb->blocks;
    if (nb->next) nb->next->prev = nb;
    if (prev)
        prev->next = nb;
    else
        bb->blocks = nb;
}

/* First fit in the user's memory; NULL when no gap is large enough. */
static struct bblock *fit_block(struct tern_bbuf *bb, size_t need)
{
    uintptr_t cur = round8((uintptr_t)bb->base), end = (uintptr_t)bb->base + bb->size;
    struct bblock *prev = NULL;
    for (struct bblock *b = bb->blocks;; prev = b, b = b->next) {
        uintptr_t limit = b ? (uintptr_t)b : end;
        if (limit >= cur && limit - cur >= need) {
            struct bblock *nb = (struct bblock *)cur;
            link_after(bb, prev, nb);
            return nb;
        }
        if (!b) return NULL;
        cur = round8((uintptr_t)(b + 1) + b->size);
    }
}

static struct bblock *alloc_block(struct tern_bbuf *bb, size_t bytes)
{
    size_t need = sizeof(struct bblock) + round8(bytes);
    struct bblock *b;
    if (bb->automatic) {
        if (!(b = malloc(need))) return NULL;
        link_after(bb, NULL, b);
    } else if (!(b = fit_block(bb, need))) {
        return NULL;
    }
    b->owner = bb;
    b->size = round8(bytes);
    b->seq = bb->next_seq++;
    live_blocks++;
    return b;
}

static void bbuf_release(struct tern_bbuf *bb)
{
    if (bb && --bb->refcount == 0) free(bb);
}

static void free_block(struct bblock *b)
{
    struct tern_bbuf *bb = b->owner;
    if (b->prev)
        b->prev->next = b->next;
    else
        bb->blocks = b->next;
    if (b->next) b->next->prev = b->prev;
    live_blocks--;
    if (bb->automatic) free(b);
}

/* free_fn of the internal send: its block is free once it has left. */
static void send_done(struct tern_request *s)
{
    free_block(s->bsend_block);
    s->bsend_block = NULL;
}

/* Which buffer a buffered send on c uses, and its name for messages. */
static struct tern_bbuf *buffer_for(const struct tern_comm *c, const char **whose)
{
    if (c->bsend) {
        *whose = "the communicator's buffer";
        return c->bsend;
    }
    if (c->session && c->session->bsend) {
        *whose = "the session's buffer";
        return c->session->bsend;
    }
    *whose = "the process's buffer";
    return tern_bbuf_process;
}

static size_t bytes_in_use(const struct tern_bbuf *bb)
{
    size_t used = 0;
    for (const struct bblock *x = bb->blocks; x; x = x->next) used += sizeof *x + x->size;
    return used;
}

int tern_bsend_start(struct tern_request *r)
{
    const char *whose;
    struct tern_bbuf *bb = buffer_for(r->comm, &whose);
    if (!bb)
        return tern_err_make(
            MPI_ERR_BUFFER,
            "MPI_Bsend: no buffer is attached to the communicator, its session or the process "
            "(MPI_Comm_attach_buffer, MPI_Session_attach_buffer, MPI_Buffer_attach)");
    struct bblock *b = alloc_block(bb, r->bytes);
    if (!b) {
        if (bb->automatic)
            return tern_err_make(MPI_ERR_BUFFER,
                                 "MPI_Bsend: out of memory buffering a %zu-byte message in %s "
                                 "(MPI_BUFFER_AUTOMATIC)",
                                 r->bytes, whose);
        return tern_err_make(
            MPI_ERR_BUFFER,
            "MPI_Bsend: %s cannot hold a %zu-byte message (+%d bytes MPI_BSEND_OVERHEAD): %zu of "
            "%zu bytes are in use by pending buffered sends",
            whose, r->bytes, MPI_BSEND_OVERHEAD, bytes_in_use(bb), bb->size);
    }
    void *data = b + 1;
    if (r->bytes) tern_dt_pack(r->dt, r->buf, r->count, 0, data, r->bytes);
    struct tern_request *s;
    int rc = tern_isend(data, r->bytes, tern_dt_get(MPI_BYTE), r->peer, r->tag, r->comm,
                        (int)(r->ctx - r->comm->ctx), TERN_MODE_STANDARD, &s);
    if (rc != MPI_SUCCESS) {
        free_block(b);
        return rc;
    }
    s->bsend_block = b;
    s->free_fn = send_done;
    tern_req_orphan(s);
    tern_req_complete(r);
    return MPI_SUCCESS;
}

void tern_bbuf_flush(struct tern_bbuf *b)
{
    struct tern_waiter w = TERN_WAITER_INIT;
    while (b && b->blocks) tern_progress_wait(&w);
}

void tern_bsend_drain_all(void)
{
    struct tern_waiter w = TERN_WAITER_INIT;
    while (live_blocks) tern_progress_wait(&w);
}

int tern_bbuf_attach(struct tern_bbuf **slot, const char *fn, void *buffer, MPI_Count size)
{
    int automatic = buffer == MPI_BUFFER_AUTOMATIC;
    if (!automatic && size < 0)
        return tern_err_make(MPI_ERR_ARG, "%s: size=%lld must not be negative", fn,
                             (long long)size);
    if (!automatic && !buffer && size > 0)
        return tern_err_make(MPI_ERR_BUFFER, "%s: buffer is NULL but size=%lld", fn,
                             (long long)size);
    if (*slot) {
        if ((*slot)->automatic)
            return tern_err_make(MPI_ERR_BUFFER,
                                 "%s: a buffer (MPI_BUFFER_AUTOMATIC) is already attached; detach "
                                 "it first",
                                 fn);
        return tern_err_make(MPI_ERR_BUFFER,
                             "%s: a buffer (%p, %zu bytes) is already attached; detach it first",
                             fn, (void *)(*slot)->base, (*slot)->size);
    }
    struct tern_bbuf *bb = calloc(1, sizeof *bb);
    if (!bb) return tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    bb->automatic = automatic;
    bb->base = automatic ? NULL : buffer;
    bb->size = automatic ? 0 : (size_t)size;
    bb->refcount = 1;
    *slot = bb;
    return MPI_SUCCESS;
}

int tern_bbuf_detach(struct tern_bbuf **slot, const char *fn, MPI_Count max_size, void **addr,
                     MPI_Count *size)
{
    struct tern_bbuf *bb = *slot;
    if (bb && bb->size > (size_t)max_size)
        return tern_err_make(MPI_ERR_COUNT,
                             "%s: the attached buffer's size %zu does not fit in an int; use %s_c",
                             fn, bb->size, fn);
    /* The standard: detaching waits for the buffered messages to leave. */
    tern_bbuf_flush(bb);
    *addr = !bb ? NULL : bb->automatic ? MPI_BUFFER_AUTOMATIC : (void *)bb->base;
    *size = bb ? (MPI_Count)bb->size : 0;
    *slot = NULL;
    bbuf_release(bb);
    return MPI_SUCCESS;
}

void tern_bbuf_drop(struct tern_bbuf **slot)
{
    tern_bbuf_flush(*slot);
    bbuf_release(*slot);
    *slot = NULL;
}

/* ---- MPI_*_iflush_buffer: a request polled until the messages buffered
 * before it have left ---- */

struct flush_req {
    struct tern_bbuf *bb; /* a reference */
    uint64_t upto;        /* blocks numbered below this */
};

static int flush_poll(struct tern_request *r)
{
    struct flush_req *f = r->sched;
    for (const struct bblock *b = f->bb ? f->bb->blocks : NULL; b; b = b->next)
        if (b->seq < f->upto) return 0;
    tern_status_empty(&r->status, MPI_ANY_SOURCE);
    tern_req_poll_remove(r);
    tern_req_complete(r);
    return 1;
}

static void flush_free(struct tern_request *r)
{
    struct flush_req *f = r->sched;
    if (!f) return;
    if (!r->complete) tern_req_poll_remove(r);
    bbuf_release(f->bb);
    free(f);
    r->sched = NULL;
}

int tern_bbuf_iflush(struct tern_bbuf *b, const char *fn, struct tern_request **out)
{
    struct tern_request *r = tern_req_alloc(TERN_REQ_FLUSH);
    struct flush_req *f = calloc(1, sizeof *f);
    if (!r || !f) {
        if (r) tern_req_free(r);
        free(f);
        return tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory allocating a request", fn);
    }
    if (b) b->refcount++;
    f->bb = b;
    f->upto = b ? b->next_seq : 0;
    r->sched = f;
    r->poll_fn = flush_poll;
    r->free_fn = flush_free;
    /* Polled by every progress pass, so a request freed by the user still
     * completes and goes. */
    tern_req_poll_add(r);
    flush_poll(r);
    *out = r;
    return MPI_SUCCESS;
}
