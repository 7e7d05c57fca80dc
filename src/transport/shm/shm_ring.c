/* Eager rings: one single-producer single-consumer ring of 64-byte lines
 * per ordered pair of ranks that talk (opened at first use, shm_pairs.c).  A packet is a header line plus payload lines,
 * contiguous in the ring; the sender writes it and publishes it with one
 * release store of its sequence word, the receiver polls that word.  No
 * lock, no system call, no allocation on this path. */
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core/pvars.h"
#include "core/objects.h"
#include "datatype/datatype.h"
#include "msg/match.h"
#include "msg/deliver.h"
#include "msg/status.h"
#include "msg/transport_ops.h"
#include "transport/shm/shm.h"
#include "transport/shm/shm_internal.h"

struct shm_state shm;

static inline struct shm_pkt *line_at(char *ring, uint64_t pos)
{
    return (struct shm_pkt *)(ring + (size_t)(pos & (shm.lay.ring_lines - 1)) * SHM_LINE);
}

/* Space for a packet of nlines, or NULL when the ring is full.  A packet
 * never wraps: the lines up to the end of the ring become a SKIP packet. */
struct shm_pkt *shm_ring_reserve(struct shm_peer *p, uint32_t nlines)
{
    uint64_t L = shm.lay.ring_lines;
    uint64_t pos = p->out_head;
    uint64_t idx = pos & (L - 1);
    uint64_t skip = idx + nlines > L ? L - idx : 0;
    if (pos + skip + nlines - p->out_tail_seen > L) {
        p->out_tail_seen = atomic_load_explicit(&p->out_ctl->tail, memory_order_acquire);
        if (pos + skip + nlines - p->out_tail_seen > L) return NULL;
    }
    if (skip) {
        struct shm_pkt *s = line_at(p->out_ring, pos);
        s->type = PKT_SKIP;
        s->nlines = (uint32_t)skip;
        atomic_store_explicit(&s->seq, (uint32_t)(pos + 1), memory_order_release);
        pos += skip;
        p->out_head = pos;
    }
    return line_at(p->out_ring, pos);
}

void shm_ring_publish(struct shm_peer *p, struct shm_pkt *pkt, uint32_t nlines)
{
    pkt->nlines = nlines;
    atomic_store_explicit(&pkt->seq, (uint32_t)(p->out_head + 1), memory_order_release);
    p->out_head += nlines;
}

/* ---- sending ---- */

static int try_eager(struct shm_peer *p, struct tern_request *r)
{
    size_t bytes = r->bytes;
    uint32_t nlines = shm_pkt_lines(bytes);
    struct shm_pkt *pkt = shm_ring_reserve(p, nlines);
    if (!pkt) return 0;
    pkt->type = PKT_EAGER;
    pkt->flags = r->mode == TERN_MODE_SYNC ? PKT_FLAG_SYNC : 0;
    pkt->ctx = r->ctx;
    pkt->src = r->comm->rank;
    pkt->tag = r->tag;
    pkt->len = bytes;
    pkt->cookie = (uint64_t)(uintptr_t)r;
    char *payload = (char *)pkt + SHM_PKT_HDR;
    if (bytes)
        shm_pack_out(r->dt, r->buf, r->count, 0, payload, bytes); /* buf may be NULL when 0 */
    shm_ring_publish(p, pkt, nlines);
    tern_pv_sent(TERN_XPORT_SHM_EAGER, bytes);
    if (r->mode == TERN_MODE_SYNC) {
        r->state = TERN_SEND_WAIT_ACK;
    } else {
        r->state = TERN_SEND_DONE;
        tern_req_complete(r);
    }
    return 1;
}

static int try_send(struct shm_peer *p, struct tern_request *r)
{
    if (r->bytes <= shm.eager_max) return try_eager(p, r);
    return shm_rndv_try_post(p, r);
}

int tern_shm_send(struct tern_request *r)
{
    struct shm_peer *p = &shm.peers[r->world_peer];
    *shm_req(r) = (struct shm_req){.slot = -1};
    shm_pair_out(p);
    if (!p->sendq_head && try_send(p, r)) return MPI_SUCCESS;
    /* Queue behind earlier sends to the same peer: order is the
     * non-overtaking rule. */
    r->state = TERN_SEND_QUEUED;
    r->next = NULL;
    r->prev = p->sendq_tail;
    if (p->sendq_tail)
        p->sendq_tail->next = r;
    else
        p->sendq_head = r;
    p->sendq_tail = r;
    return MPI_SUCCESS;
}

static int try_ctl(struct shm_peer *p, uint8_t type, uint64_t cookie, uint64_t len)
{
    struct shm_pkt *pkt = shm_ring_reserve(p, 1);
    if (!pkt) return 0;
    pkt->type = type;
    pkt->flags = 0;
    pkt->cookie = cookie;
    pkt->len = len;
    shm_ring_publish(p, pkt, 1);
    return 1;
}

void shm_send_ctl(struct shm_peer *p, uint8_t type, uint64_t cookie, uint64_t len)
{
    shm_pair_out(p);
    if (!p->ctlq_head && try_ctl(p, type, cookie, len)) return;
    struct shm_ctl_msg *m = malloc(sizeof *m);
    if (!m) tern_fatal("out of memory queueing a control packet for rank %d", p->world);
    m->next = NULL;
    m->type = type;
    m->cookie = cookie;
    m->len = len;
    if (p->ctlq_tail)
        p->ctlq_tail->next = m;
    else
        p->ctlq_head = m;
    p->ctlq_tail = m;
}

void tern_shm_send_sync_ack(int world_dst, uint64_t cookie)
{
    shm_send_ctl(&shm.peers[world_dst], PKT_SYNC_ACK, cookie, 0);
}

int shm_flush_queues(struct shm_peer *p)
{
    int n = 0;
    while (p->ctlq_head &&
           try_ctl(p, p->ctlq_head->type, p->ctlq_head->cookie, p->ctlq_head->len)) {
        struct shm_ctl_msg *m = p->ctlq_head;
        p->ctlq_head = m->next;
        if (!p->ctlq_head) p->ctlq_tail = NULL;
        free(m);
        n++;
    }
    while (p->sendq_head) {
        struct tern_request *r = p->sendq_head;
        struct tern_request *next = r->next;
        r->next = r->prev = NULL;
        if (!try_send(p, r)) {
            r->next = next;
            break;
        }
        p->sendq_head = next;
        if (next)
            next->prev = NULL;
        else
            p->sendq_tail = NULL;
        n++;
    }
    return n;
}

/* ---- receiving ---- */

/* A queue entry for a packet no posted receive wanted. */
static struct tern_unexp *unexp_from(struct shm_peer *p, const struct shm_pkt *pkt,
                                     enum tern_unexp_kind kind, size_t data_bytes)
{
    struct tern_unexp *u = tern_unexp_alloc(data_bytes);
    if (!u)
        tern_fatal("out of memory holding an unexpected message of %llu bytes from rank %d",
                   (unsigned long long)pkt->len, p->world);
    u->ctx = pkt->ctx;
    u->src = pkt->src;
    u->tag = pkt->tag;
    u->bytes = pkt->len;
    u->kind = (uint8_t)kind;
    u->world_src = p->world;
    u->xport = &tern_shm_transport;
    return u;
}

/* Before unpacking an eager payload into a non-contiguous buffer.  Every
 * payload line is a miss to the sender's core, and an unpack loop, reading
 * a few bytes at a time, would wait for them nearly one by one (memcpy
 * streams them); asking for all lines first overlaps the misses.  When the
 * cores share no cache this took 4 KiB vector receives from 1.3 to 1.1 us. */
static void prefetch_payload(const char *payload, size_t len)
{
    for (size_t l = 0; l < len; l += SHM_LINE) __builtin_prefetch(payload + l, 0, 3);
}

static void on_eager(struct shm_peer *p, const struct shm_pkt *pkt)
{
    const char *payload = (const char *)pkt + SHM_PKT_HDR;
    struct tern_request *r = tern_match_posted(pkt->ctx, pkt->src, pkt->tag);
    if (r) {
        if (!r->dt->contig) prefetch_payload(payload, pkt->len);
        tern_msg_deliver(r, payload, pkt->len, pkt->src, pkt->tag);
        if (pkt->flags & PKT_FLAG_SYNC) shm_send_ctl(p, PKT_SYNC_ACK, pkt->cookie, 0);
        return;
    }
    struct tern_unexp *u = unexp_from(p, pkt, TERN_UNEXP_EAGER, pkt->len);
    u->sync = (pkt->flags & PKT_FLAG_SYNC) != 0;
    u->sync_cookie = pkt->cookie;
    if (pkt->len) memcpy(u->data, payload, pkt->len);
    tern_unexp_enqueue(u);
}

static void on_rts(struct shm_peer *p, const struct shm_pkt *pkt)
{
    const struct shm_rts *body = (const struct shm_rts *)((const char *)pkt + SHM_PKT_HDR);
    struct shm_rts_info rts = {
        .cookie = pkt->cookie,
        .slot = body->slot,
        .use_pipe = body->use_pipe,
        .src = body->src,
    };
    struct tern_request *r = tern_match_posted(pkt->ctx, pkt->src, pkt->tag);
    if (r) {
        tern_msg_accept(r, pkt->src, pkt->tag, pkt->len);
        tern_shm_recv_rndv(r, p->world, &rts, pkt->len);
        return;
    }
    struct tern_unexp *u = unexp_from(p, pkt, TERN_UNEXP_RNDV, sizeof rts);
    memcpy(u->data, &rts, sizeof rts);
    tern_unexp_enqueue(u);
}

static void on_packet(struct shm_peer *p, const struct shm_pkt *pkt)
{
    switch (pkt->type) {
    case PKT_SKIP: break;
    case PKT_EAGER: on_eager(p, pkt); break;
    case PKT_RTS: on_rts(p, pkt); break;
    case PKT_CTS:
        shm_pipe_on_cts(p, (struct tern_request *)(uintptr_t)pkt->cookie, pkt->len);
        break;
    case PKT_SYNC_ACK: {
        struct tern_request *r = (struct tern_request *)(uintptr_t)pkt->cookie;
        r->state = TERN_SEND_DONE;
        tern_req_complete(r);
        break;
    }
    case PKT_RNDV_FIN: shm_rndv_on_fin((struct tern_request *)(uintptr_t)pkt->cookie); break;
    case PKT_REVOKE: shm_on_revoke(p, pkt->cookie); break;
    case PKT_REVOKE_REPLY: shm_on_revoke_reply(p, pkt->cookie, pkt->len); break;
    default:
        tern_fatal("corrupt packet type %d from rank %d in the shared-memory ring", pkt->type,
                   p->world);
    }
}

int shm_ring_poll(struct shm_peer *p)
{
    int n = 0;
    for (;;) {
        uint64_t pos = p->in_pos;
        struct shm_pkt *pkt = line_at(p->in_ring, pos);
        if (atomic_load_explicit(&pkt->seq, memory_order_acquire) != (uint32_t)(pos + 1)) break;
        uint32_t nlines = pkt->nlines;
        on_packet(p, pkt);
        /* Payload lines may later hold a header: clear their first word so
         * stale payload can never look like a published packet. */
        for (uint32_t i = 1; i < nlines; i++)
            atomic_store_explicit(&line_at(p->in_ring, pos + i)->seq, 0, memory_order_relaxed);
        p->in_pos = pos + nlines;
        atomic_store_explicit(&p->in_ctl->tail, p->in_pos, memory_order_release);
        n++;
    }
    return n;
}

int tern_shm_progress(void)
{
    int n = 0;
    if (!shm.peers) return 0;
    shm_doorbell_check();
    for (int k = 0; k < shm.nactive; k++) {
        struct shm_peer *p = shm.active[k];
        if (p->in_open) n += shm_ring_poll(p);
        if (p->sendq_head || p->ctlq_head) n += shm_flush_queues(p);
    }
    if (shm.rndv_send.head || shm.rndv_recv.head) n += shm_rndv_progress();
    if (shm.pipe_send.head || shm.pipe_recv_count) n += shm_pipe_progress();
    return n;
}

/* ---- fast paths for blocking MPI_Send / MPI_Recv of small messages ---- */

/* Writes an eager packet straight from the caller's buffer (packed on the
 * way when it is not contiguous) when nothing is queued ahead of it.
 * Returns 1 when the message left. */
int tern_shm_send_fast(int world, const void *buf, size_t count, const struct tern_datatype *dt,
                       uint32_t ctx, int src, int tag)
{
    struct shm_peer *p = &shm.peers[world];
    size_t bytes = count * dt->size;
    if (bytes > shm.eager_max || p->sendq_head) return 0;
    shm_pair_out(p);
    uint32_t nlines = shm_pkt_lines(bytes);
    struct shm_pkt *pkt = shm_ring_reserve(p, nlines);
    if (!pkt) return 0;
    pkt->type = PKT_EAGER;
    pkt->flags = 0;
    pkt->ctx = ctx;
    pkt->src = src;
    pkt->tag = tag;
    pkt->len = bytes;
    char *payload = (char *)pkt + SHM_PKT_HDR;
    if (bytes) shm_pack_out(dt, buf, count, 0, payload, bytes); /* buf may be NULL when 0 */
    shm_ring_publish(p, pkt, nlines);
    tern_pv_sent(TERN_XPORT_SHM_EAGER, bytes);
    return 1;
}

/* Spins a little on one peer's ring for the next packet and takes it when
 * it is the eager message this receive wants.  Anything else (another
 * message first, a rendezvous, a long wait) returns 0 and leaves the ring
 * as it was for the general path.  The caller guarantees no earlier
 * receive is posted and no matching message is queued. */
int tern_shm_recv_fast(int world, void *buf, size_t count, const struct tern_datatype *dt,
                       uint32_t ctx, int src, int tag, MPI_Status *status)
{
    struct shm_peer *p = &shm.peers[world];
    size_t cap = count * dt->size;
    if (p->ctlq_head || p->sendq_head || shm.rndv_send.head || shm.rndv_recv.head ||
        shm.pipe_send.head || shm.pipe_recv_count)
        return 0; /* we owe others progress: take the general path */
    if (!p->in_open) {
        shm_doorbell_check();
        if (!p->in_open) return 0; /* nothing sent yet: its ring may not exist */
    }
    uint64_t pos = p->in_pos;
    struct shm_pkt *pkt = line_at(p->in_ring, pos);
    for (int spins = 0;; spins++) {
        if (atomic_load_explicit(&pkt->seq, memory_order_acquire) == (uint32_t)(pos + 1)) break;
        if (spins == 4096) return 0;
        tern_cpu_relax();
    }
    if (pkt->type != PKT_EAGER || pkt->ctx != ctx || pkt->src != src ||
        (tag != MPI_ANY_TAG && pkt->tag != tag) || pkt->len > cap || (pkt->flags & PKT_FLAG_SYNC))
        return 0;
    uint32_t nlines = pkt->nlines;
    const char *payload = (const char *)pkt + SHM_PKT_HDR;
    if (!pkt->len)
        ; /* buf may be NULL */
    else if (dt->contig)
        memcpy((char *)buf + dt->true_lb, payload, pkt->len);
    else {
        prefetch_payload(payload, pkt->len);
        tern_dt_unpack(dt, buf, count, 0, payload, pkt->len);
    }
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE = src;
        status->MPI_TAG = pkt->tag;
        status->count_hi_and_cancelled = 0;
        tern_status_set_bytes(status, pkt->len);
    }
    for (uint32_t i = 1; i < nlines; i++)
        atomic_store_explicit(&line_at(p->in_ring, pos + i)->seq, 0, memory_order_relaxed);
    p->in_pos = pos + nlines;
    atomic_store_explicit(&p->in_ctl->tail, p->in_pos, memory_order_release);
    return 1;
}

int tern_shm_cancel_send(struct tern_request *r)
{
    return shm_rndv_cancel(&shm.peers[r->world_peer], r);
}
