/* The two-copy pipeline, for pairs where CMA is off, refused or slower,
 * and for messages whose pieces are short on both sides: the sender packs
 * chunks straight from its buffer into the pair's shared chunk ring while
 * the receiver unpacks earlier chunks straight into its own.  One transfer per direction at a time; the
 * receiver grants them (clear-to-send) in the order it matches them. */
#include "core/errors.h"
#include "datatype/datatype.h"
#include "p2p/p2p_internal.h"
#include "transport/shm/shm.h"
#include "transport/shm/shm_internal.h"

static void grant(struct shm_peer *p, struct tern_request *r)
{
    p->pipe_owner = r;
    r->progress_off = 0;
    shm.pipe_recv_count++;
    shm_send_ctl(p, PKT_CTS, r->rts_cookie, r->limit);
}

void shm_pipe_recv_request(struct shm_peer *p, struct tern_request *r)
{
    if (!p->pipe_owner) {
        grant(p, r);
        return;
    }
    r->next = NULL;
    r->prev = p->pipe_wait_tail;
    if (p->pipe_wait_tail) p->pipe_wait_tail->next = r; else p->pipe_wait_head = r;
    p->pipe_wait_tail = r;
}

void shm_pipe_on_cts(struct shm_peer *p, struct tern_request *r, uint64_t len)
{
    shm_rndv_to_pipe(p, r);
    r->limit = (size_t)len;
    r->progress_off = 0;
    r->state = TERN_SEND_PIPE;
    shm_list_append(&shm.pipe_send, r);
}

static int send_progress(struct tern_request *r)
{
    struct shm_peer *p = &shm.peers[r->world_peer];
    size_t chunk = shm.lay.pipe_chunk_bytes;
    int n = 0;
    while (r->progress_off < r->limit) {
        struct shm_pipe_flag *f = &p->out_pipe_flags[p->pipe_send_cursor];
        if (atomic_load_explicit(&f->len, memory_order_acquire)) break;
        size_t len = r->limit - r->progress_off < chunk ? r->limit - r->progress_off : chunk;
        /* straight from the user's buffer, packed on the way if need be */
        tern_dt_pack(r->dt, r->buf, r->count, r->progress_off, p->out_pipe_data + (size_t)p->pipe_send_cursor * chunk,
                     len);
        atomic_store_explicit(&f->len, (uint32_t)len, memory_order_release);
        p->pipe_send_cursor = (uint32_t)((p->pipe_send_cursor + 1) % shm.lay.pipe_chunks);
        r->progress_off += len;
        n++;
    }
    if (r->progress_off == r->limit) {
        shm_list_remove(&shm.pipe_send, r);
        r->state = TERN_SEND_DONE;
        tern_req_complete(r);
        n++;
    }
    return n;
}

static int recv_progress(struct shm_peer *p)
{
    struct tern_request *r = p->pipe_owner;
    size_t chunk = shm.lay.pipe_chunk_bytes;
    int n = 0;
    while (r->progress_off < r->limit) {
        struct shm_pipe_flag *f = &p->in_pipe_flags[p->pipe_recv_cursor];
        uint32_t len = atomic_load_explicit(&f->len, memory_order_acquire);
        if (!len) break;
        tern_p2p_unpack_at(r, r->progress_off, p->in_pipe_data + (size_t)p->pipe_recv_cursor * chunk, len);
        atomic_store_explicit(&f->len, 0, memory_order_release);
        p->pipe_recv_cursor = (uint32_t)((p->pipe_recv_cursor + 1) % shm.lay.pipe_chunks);
        r->progress_off += len;
        n++;
    }
    if (r->progress_off < r->limit) return n;
    tern_req_complete(r);
    p->pipe_owner = NULL;
    shm.pipe_recv_count--;
    struct tern_request *next = p->pipe_wait_head;
    if (next) {
        p->pipe_wait_head = next->next;
        if (!p->pipe_wait_head) p->pipe_wait_tail = NULL;
        next->next = next->prev = NULL;
        grant(p, next);
    }
    return n + 1;
}

int shm_pipe_progress(void)
{
    int n = 0;
    struct tern_request *r, *next;
    for (r = shm.pipe_send.head; r; r = next) {
        next = r->next;
        n += send_progress(r);
    }
    if (shm.pipe_recv_count)
        for (int i = 0; i < shm.n; i++)
            if (i != shm.me && shm.peers[i].pipe_owner) n += recv_progress(&shm.peers[i]);
    return n;
}
