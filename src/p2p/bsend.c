/* Buffered sends: the message is copied into the buffer the user attached
 * and sent from there; the user's call completes at once. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "core/api.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/p2p_internal.h"

/* Blocks in the attached buffer, kept in address order.  The header fits in
 * MPI_BSEND_OVERHEAD, as the standard promises users. */
struct bblock {
    struct bblock *next;
    size_t size; /* bytes after the header */
    struct tern_request *send;
};
_Static_assert(sizeof(struct bblock) <= MPI_BSEND_OVERHEAD, "block header exceeds MPI_BSEND_OVERHEAD");

static char *bbuf;
static size_t bbuf_size;
static struct bblock *blocks;

static size_t round8(size_t v) { return (v + 7) & ~(size_t)7; }

static void *alloc_block(size_t bytes, struct bblock **out)
{
    size_t need = sizeof(struct bblock) + round8(bytes);
    uintptr_t start = round8((uintptr_t)bbuf) ;
    uintptr_t end = (uintptr_t)bbuf + bbuf_size;
    struct bblock **link = &blocks;
    uintptr_t cur = start;
    for (;;) {
        struct bblock *b = *link;
        uintptr_t limit = b ? (uintptr_t)b : end;
        if (limit >= cur && limit - cur >= need) {
            struct bblock *nb = (struct bblock *)cur;
            nb->next = b;
            nb->size = round8(bytes);
            nb->send = NULL;
            *link = nb;
            *out = nb;
            return nb + 1;
        }
        if (!b) return NULL;
        cur = round8((uintptr_t)(b + 1) + b->size);
        link = &b->next;
    }
}

static void free_block(struct tern_request *send)
{
    for (struct bblock **link = &blocks; *link; link = &(*link)->next)
        if ((*link)->send == send) {
            *link = (*link)->next;
            return;
        }
}

int tern_bsend_start(struct tern_request *r)
{
    struct bblock *b;
    void *data = bbuf ? alloc_block(r->bytes, &b) : NULL;
    if (!data) {
        size_t used = 0;
        for (struct bblock *x = blocks; x; x = x->next) used += sizeof *x + x->size;
        return tern_err_make(MPI_ERR_BUFFER,
                             "MPI_Bsend: the attached buffer cannot hold a %zu-byte message (+%d bytes "
                             "MPI_BSEND_OVERHEAD): %zu of %zu bytes are in use by pending buffered sends%s",
                             r->bytes, MPI_BSEND_OVERHEAD, used, bbuf_size,
                             bbuf ? "" : " (no buffer is attached: call MPI_Buffer_attach)");
    }
    if (r->bytes) tern_dt_pack(r->dt, r->buf, r->count, 0, data, r->bytes);
    struct tern_request *s;
    int rc = tern_isend(data, r->bytes, tern_dt_get(MPI_BYTE), r->peer, r->tag, r->comm, (int)(r->ctx - r->comm->ctx),
                        TERN_MODE_STANDARD, &s);
    if (rc != MPI_SUCCESS) {
        free_block(NULL);
        return rc;
    }
    b->send = s;
    s->free_fn = free_block;
    tern_req_orphan(s);
    tern_req_complete(r);
    return MPI_SUCCESS;
}

static void drain(void)
{
    struct tern_waiter w = TERN_WAITER_INIT;
    while (blocks) tern_progress_wait(&w);
}

void tern_bsend_finalize(void)
{
    drain();
    bbuf = NULL;
    bbuf_size = 0;
}

/* MPI_Buffer_attach and its large-count form MPI_Buffer_attach_c. */
static int attach(const char *fn, void *buffer, MPI_Count size)
{
    TERN_REQUIRE_INIT(fn);
    int rc = MPI_SUCCESS;
    tern_lock();
    if (size < 0)
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: size=%ld must not be negative", fn, (long)size);
    else if (!buffer && size > 0)
        rc = tern_err_comm(NULL, MPI_ERR_BUFFER, "%s: buffer is NULL but size=%ld", fn, (long)size);
    else if (bbuf)
        rc = tern_err_comm(NULL, MPI_ERR_BUFFER, "%s: a buffer (%p, %zu bytes) is already attached; detach it first",
                           fn, (void *)bbuf, bbuf_size);
    else {
        bbuf = buffer;
        bbuf_size = (size_t)size;
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size) { return attach("MPI_Buffer_attach", buffer, size); }

TERN_WEAK_ALIAS(MPI_Buffer_attach_c)
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size) { return attach("MPI_Buffer_attach_c", buffer, size); }

/* The size goes to isize (MPI_Buffer_detach, which refuses to detach a
 * buffer whose size an int cannot hold) or to lsize (the _c form). */
static int detach(const char *fn, void *buffer_addr, int *isize, MPI_Count *lsize)
{
    TERN_REQUIRE_INIT(fn);
    if (!buffer_addr || (!isize && !lsize))
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, buffer_addr ? "size" : "buffer_addr");
    tern_lock();
    int rc = MPI_SUCCESS;
    if (isize && bbuf_size > INT_MAX) {
        rc = tern_err_comm(NULL, MPI_ERR_COUNT, "%s: the attached buffer's size %zu does not fit in an int; use %s_c",
                           fn, bbuf_size, fn);
        goto out;
    }
    drain(); /* the standard: detach waits for the buffered messages to leave */
    *(void **)buffer_addr = bbuf;
    if (isize) *isize = (int)bbuf_size;
    else *lsize = (MPI_Count)bbuf_size;
    bbuf = NULL;
    bbuf_size = 0;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    return detach("MPI_Buffer_detach", buffer_addr, size, NULL);
}

TERN_WEAK_ALIAS(MPI_Buffer_detach_c)
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return detach("MPI_Buffer_detach_c", buffer_addr, NULL, size);
}
