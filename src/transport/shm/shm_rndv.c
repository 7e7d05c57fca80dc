/* Rendezvous with single-copy Cross Memory Attach, cooperative and
 * zero-copy for derived datatypes.
 *
 * The sender posts a request-to-send describing its buffer as it lies in
 * memory (a tern_dt_desc: the loop nest of its datatype, never packed) and
 * naming a slot in the sender->receiver area.  When a receive matches, the
 * receiver fills in the slot (how many bytes, and the shape of its own
 * buffer) and copies chunks from the sender's pieces into its own with
 * process_vm_readv, both sides as iovecs.  A sender that is inside MPI
 * meanwhile (waiting on this very send, typically) sees the slot become
 * active and writes chunks into the receiver with process_vm_writev.  Both
 * claim chunks of the packed stream from one shared counter, so two cores
 * move one message and a busy sender simply leaves all of it to the
 * receiver.
 *
 * The kernel pins each remote piece on its own, so a side whose pieces are
 * short is only ever the local side of a call: the receiver reads only
 * long pieces, the sender writes only into long ones, and when both are
 * short the receiver answers with the pipeline's grant instead
 * (tern_shm_rndv_recv_start says who copies).
 *
 * When every slot of the pair is taken, the request-to-send goes without
 * one: the receiver then copies alone, with its bookkeeping in private
 * memory, and tells the sender with a FIN packet.  Slots make the copy
 * cooperative; they never limit how many sends can be outstanding. */
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/objects.h"
#include "core/pvars.h"
#include "datatype/datatype.h"
#include "msg/deliver.h"
#include "msg/status.h"
#include "msg/transport_ops.h"
#include "transport/shm/shm.h"
#include "transport/shm/shm_internal.h"

static int alloc_slot(struct shm_peer *p)
{
    for (int k = 0; k < SHM_RNDV_SLOTS; k++) {
        if (p->out_slot_state[k] == 0) return k;
        if (p->out_slot_state[k] == 2 &&
            atomic_load_explicit(&p->out_slots[k].recv_released, memory_order_acquire)) {
            p->out_slot_state[k] = 0;
            return k;
        }
    }
    return -1;
}

/* The slot of a send whose request-to-send asked for the pipeline. */
#define SLOT_PIPE (-2)

int shm_rndv_try_post(struct shm_peer *p, struct tern_request *r)
{
    int use_pipe = !p->peer_can_read || shm.prefer_pipe;
    int k = use_pipe ? SLOT_PIPE : alloc_slot(p);
    struct shm_pkt *pkt = shm_ring_reserve(p, shm_pkt_lines(sizeof(struct shm_rts)));
    if (!pkt) return 0;
    if (k >= 0) {
        struct shm_rndv_slot *s = &p->out_slots[k];
        atomic_store_explicit(&s->next_off, 0, memory_order_relaxed);
        atomic_store_explicit(&s->done, 0, memory_order_relaxed);
        atomic_store_explicit(&s->recv_released, 0, memory_order_relaxed);
        atomic_store_explicit(&s->state, SLOT_POSTED, memory_order_relaxed);
        p->out_slot_state[k] = 1;
    }
    shm_req(r)->slot = k;
    pkt->type = PKT_RTS;
    pkt->flags = 0;
    pkt->ctx = r->ctx;
    pkt->src = r->comm->rank;
    pkt->tag = r->tag;
    pkt->len = r->bytes;
    pkt->cookie = (uint64_t)(uintptr_t)r;
    struct shm_rts *body = (struct shm_rts *)((char *)pkt + SHM_PKT_HDR);
    struct tern_dt_view mine;
    tern_dt_view_local(&mine, r->dt, r->buf, r->count);
    tern_dt_describe(&mine, &body->src);
    body->slot = k >= 0 ? (uint32_t)k : SHM_NO_SLOT;
    body->use_pipe = (uint32_t)use_pipe;
    shm_ring_publish(p, pkt, shm_pkt_lines(sizeof(struct shm_rts)));
    tern_pv_sent(use_pipe ? TERN_XPORT_SHM_PIPE : TERN_XPORT_SHM_CMA, r->bytes);
    r->state = TERN_SEND_RNDV;
    if (k >= 0) shm_list_append(&shm.rndv_send, r);
    return 1;
}

void shm_rndv_to_pipe(struct shm_peer *p, struct tern_request *r)
{
    if (shm_req(r)->slot == SLOT_PIPE) return;
    /* The receiver chose the pipeline over our CMA offer: the slot was
     * never activated, and the message is counted where it travels. */
    if (shm_req(r)->slot >= 0) {
        shm_list_remove(&shm.rndv_send, r);
        p->out_slot_state[shm_req(r)->slot] = 0;
    }
    shm_req(r)->slot = SLOT_PIPE;
    tern_pv_resent(TERN_XPORT_SHM_CMA, TERN_XPORT_SHM_PIPE, r->bytes);
}

static void copy_failed(const char *what, int peer, int rc)
{
    tern_fatal("%s of a rendezvous message with rank %d failed: %s", what, peer, strerror(-rc));
}

/* Claims chunks until none are left; the receiver reads, the sender writes. */
static void copy_chunks(struct shm_peer *p, struct shm_rndv_slot *s,
                        const struct tern_dt_view *mine, const struct tern_dt_view *theirs,
                        int as_sender)
{
    uint64_t limit = s->limit, chunk = s->chunk;
    for (;;) {
        uint64_t off = atomic_fetch_add_explicit(&s->next_off, chunk, memory_order_relaxed);
        if (off >= limit) break;
        size_t len = (size_t)(limit - off < chunk ? limit - off : chunk);
        int rc = shm_cma_copy(p->pid, as_sender, mine, theirs, (size_t)off, len);
        if (rc) copy_failed(as_sender ? "process_vm_writev" : "process_vm_readv", p->world, rc);
        atomic_fetch_add_explicit(&s->done, len, memory_order_release);
    }
}

/* A rendezvous receive under way (its shm_req xfer). */
struct rndv_recv {
    struct shm_rndv_slot own; /* the slot, when the sender had none left */
    struct tern_dt_view dst;  /* our receive buffer */
    struct tern_dt_view src;  /* the sender's buffer, when we read it */
    int reads;                /* we copy; else the sender writes it all */
};

static struct shm_rndv_slot *recv_slot(struct shm_peer *p, struct tern_request *r)
{
    return shm_req(r)->slot >= 0 ? &p->in_slots[shm_req(r)->slot]
                                 : &((struct rndv_recv *)shm_req(r)->xfer)->own;
}

/* Receiver: done when every byte has landed, whoever copied it. */
static int recv_try_finish(struct shm_peer *p, struct shm_rndv_slot *s, struct tern_request *r)
{
    if (atomic_load_explicit(&s->done, memory_order_acquire) != s->limit) return 0;
    if (shm_req(r)->slot < 0)
        shm_send_ctl(p, PKT_RNDV_FIN, shm_req(r)->rts_cookie, 0);
    else
        atomic_store_explicit(&s->recv_released, 1, memory_order_release);
    struct rndv_recv *x = shm_req(r)->xfer;
    tern_dt_view_free(&x->src);
    free(x);
    shm_req(r)->xfer = NULL;
    shm_list_remove(&shm.rndv_recv, r);
    tern_req_complete(r);
    return 1;
}

/* The sender's buffer made walkable here: a block list beyond the one the
 * description carries is read from the sender. */
static void open_src(struct shm_peer *p, const struct tern_dt_desc *d, struct tern_dt_view *v)
{
    struct tern_dt_block *blocks = NULL;
    if (d->nblocks > 1) {
        size_t n = (size_t)d->nblocks * sizeof *blocks;
        blocks = malloc(n);
        if (!blocks)
            tern_fatal("out of memory reading the layout of a message from rank %d", p->world);
        int rc = shm_cma_read(p->pid, blocks, d->blocks, n);
        if (rc) copy_failed("process_vm_readv (the sender's datatype layout)", p->world, rc);
    }
    if (tern_dt_view_remote(v, d, blocks))
        tern_fatal("out of memory reading the layout of a message from rank %d", p->world);
}

/* Who copies: the kernel pins every remote piece on its own, so a CMA call
 * wants long pieces on the peer's side; short ones are fine locally (or
 * go through the bounce buffer).  The receiver reads when the sender's
 * pieces are long, the sender writes when ours are (and has the slot to
 * learn where they are); when neither is, the pipeline packs and unpacks. */
void tern_shm_recv_rndv(struct tern_request *r, int world_src, const void *rts_blob, size_t bytes)
{
    (void)bytes;
    const struct shm_rts_info *rts = rts_blob;
    struct shm_peer *p = &shm.peers[world_src];
    r->world_peer = world_src;
    *shm_req(r) = (struct shm_req){.slot = -1, .rts_cookie = rts->cookie};
    if (rts->use_pipe) {
        shm_pipe_recv_request(p, r);
        return;
    }
    struct rndv_recv *x = calloc(1, sizeof *x);
    if (!x) tern_fatal("out of memory starting a rendezvous receive from rank %d", p->world);
    tern_dt_view_local(&x->dst, r->dt, r->buf, r->count);
    int slotted = rts->slot != SHM_NO_SLOT;
    x->reads = tern_dt_desc_piece(&rts->src) >= shm.iov_remote_min;
    int sender_writes = shm.coop && slotted && p->peer_can_read && x->dst.nblocks == 1 &&
                        tern_dt_view_piece(&x->dst) >= shm.iov_remote_min;
    if (!x->reads && !sender_writes) {
        free(x);
        shm_pipe_recv_request(p, r);
        return;
    }
    if (x->reads) open_src(p, &rts->src, &x->src);
    shm_req(r)->xfer = x;
    shm_req(r)->slot = slotted ? (int)rts->slot : -1;
    struct shm_rndv_slot *s = recv_slot(p, r);
    s->limit = r->limit;
    /* Without cooperation one call moves it all, as the peers do. */
    s->chunk = shm.coop ? shm.coop_chunk : (r->limit ? r->limit : 1);
    s->sender_may_copy = (uint32_t)sender_writes;
    if (sender_writes) tern_dt_describe(&x->dst, &s->dst);
    atomic_store_explicit(&s->state, SLOT_ACTIVE, memory_order_release);
    /* Copying waits for the progress pass after the ring poll: by then every
     * request-to-send that arrived is active, and the sender can work on
     * some of them while we work on others. */
    shm_list_append(&shm.rndv_recv, r);
}

/* The receiver copies oldest first, the sender newest first, so with many
 * messages in flight they mostly work on different ones. */
int shm_rndv_progress(void)
{
    int n = 0;
    struct tern_request *r, *next;
    for (r = shm.rndv_recv.head; r; r = next) {
        next = r->next;
        struct shm_peer *p = &shm.peers[r->world_peer];
        struct shm_rndv_slot *s = recv_slot(p, r);
        struct rndv_recv *x = shm_req(r)->xfer;
        if (x->reads) copy_chunks(p, s, &x->dst, &x->src, 0);
        n += recv_try_finish(p, s, r);
    }
    for (r = shm.rndv_send.tail; r; r = next) {
        next = r->prev;
        struct shm_peer *p = &shm.peers[r->world_peer];
        struct shm_rndv_slot *s = &p->out_slots[shm_req(r)->slot];
        if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_ACTIVE) continue;
        if (s->sender_may_copy && p->i_can_read &&
            atomic_load_explicit(&s->next_off, memory_order_relaxed) < s->limit) {
            struct tern_dt_view mine, theirs;
            tern_dt_view_local(&mine, r->dt, r->buf, r->count);
            tern_dt_view_remote(&theirs, &s->dst, NULL); /* one block: nothing to allocate */
            copy_chunks(p, s, &mine, &theirs, 1);
        }
        if (atomic_load_explicit(&s->done, memory_order_acquire) != s->limit) continue;
        shm_list_remove(&shm.rndv_send, r);
        p->out_slot_state[shm_req(r)->slot] = 2;
        r->state = TERN_SEND_DONE;
        tern_req_complete(r);
        n++;
    }
    return n;
}

void shm_rndv_on_fin(struct tern_request *r)
{
    r->state = TERN_SEND_DONE;
    tern_req_complete(r);
}

/* ---- MPI_Cancel of a send ----
 *
 * A send still queued here is simply withdrawn.  One whose request-to-send
 * (or synchronous eager message) already left is withdrawn only if the
 * receiver has not matched it: we ask, and it answers.  Returns 1 when the
 * send was cancelled at once. */
int shm_rndv_cancel(struct shm_peer *p, struct tern_request *r)
{
    if (r->state == TERN_SEND_QUEUED) {
        if (r->prev)
            r->prev->next = r->next;
        else
            p->sendq_head = r->next;
        if (r->next)
            r->next->prev = r->prev;
        else
            p->sendq_tail = r->prev;
        r->next = r->prev = NULL;
        return 1;
    }
    if ((r->state == TERN_SEND_RNDV || r->state == TERN_SEND_WAIT_ACK) &&
        !shm_req(r)->cancel_pending) {
        shm_req(r)->cancel_pending = 1;
        shm_send_ctl(p, PKT_REVOKE, (uint64_t)(uintptr_t)r, 0);
    }
    return 0;
}

static int owns_cookie(const struct tern_unexp *u, int world, uint64_t cookie)
{
    if (u->world_src != world || u->xport != &tern_shm_transport) return 0;
    return (u->kind == TERN_UNEXP_RNDV &&
            ((const struct shm_rts_info *)u->data)->cookie == cookie) ||
           (u->kind == TERN_UNEXP_EAGER && u->sync && u->sync_cookie == cookie);
}

void shm_on_revoke(struct shm_peer *p, uint64_t cookie)
{
    struct tern_unexp *u = tern_unexp_find(owns_cookie, p->world, cookie);
    if (u) tern_unexp_free(u);
    shm_send_ctl(p, PKT_REVOKE_REPLY, cookie, u != NULL);
}

void shm_on_revoke_reply(struct shm_peer *p, uint64_t cookie, uint64_t withdrawn)
{
    /* "Too late" needs no answer, and the request may be gone by now: the
     * match that made it too late also completes it. */
    if (!withdrawn) return;
    struct tern_request *r = (struct tern_request *)(uintptr_t)cookie;
    if (shm_req(r)->slot >= 0) {
        shm_list_remove(&shm.rndv_send, r);
        p->out_slot_state[shm_req(r)->slot] = 0;
    }
    r->cancelled = 1;
    tern_status_set_cancelled(&r->status, 1);
    r->state = TERN_SEND_DONE;
    tern_req_complete(r);
}
