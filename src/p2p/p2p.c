/* Starting sends and receives: pick the path (none, self, the peer's
 * transport) and match receives against messages that arrived first. */
#include "p2p/p2p.h"
#include "msg/procs.h"

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/pvars.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "msg/match.h"
#include "p2p/p2p_internal.h"
#include "msg/status.h"
#include "p2p/transport.h"

/* ---- requests keep their communicator and datatype alive ---- */

void tern_req_bind(struct tern_request *r, void *buf, size_t count, struct tern_datatype *dt,
                   int peer, int tag, struct tern_comm *comm, int ctx_offset)
{
    r->buf = buf;
    r->count = count;
    r->dt = dt;
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
    r->ctx = comm->ctx + (uint32_t)ctx_offset;
    r->bytes = count * dt->size;
    if (r->on_stack) return; /* the caller holds its arguments until it returns */
    comm->refcount++;
    tern_dt_retain(dt);
}

void tern_req_release(struct tern_request *r)
{
    if (r->on_stack) return;
    if (r->kind == TERN_REQ_SEND || r->kind == TERN_REQ_RECV) tern_dt_release(r->dt);
    if (r->comm) tern_comm_release(r->comm);
    if (r->free_fn) r->free_fn(r);
    tern_req_free(r);
}

/* ---- sends ---- */

static int self_send(struct tern_request *r);

int tern_send_start(struct tern_request *r)
{
    r->complete = 0;
    r->cancelled = 0;
    r->state = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    if (r->peer == MPI_PROC_NULL) {
        tern_status_empty(&r->status, MPI_PROC_NULL);
        tern_req_complete(r);
        return MPI_SUCCESS;
    }
    if (r->mode == TERN_MODE_BUFFERED) return tern_bsend_start(r);
    r->world_peer = tern_comm_world_rank(r->comm, r->peer);
    if (r->world_peer == tern_g.world_rank) return self_send(r);
    const struct tern_transport *t = TERN_XPORT_OF(r->world_peer);
    return TERN_XPORT_CALL(t, send, r);
}

int tern_isend(const void *buf, size_t count, struct tern_datatype *dt, int dest, int tag,
               struct tern_comm *comm, int ctx_offset, enum tern_send_mode mode,
               struct tern_request **out)
{
    struct tern_request *r = tern_req_alloc(TERN_REQ_SEND);
    if (!r) return tern_err_make(MPI_ERR_NO_MEM, "out of memory allocating a send request");
    tern_req_bind(r, (void *)buf, count, dt, dest, tag, comm, ctx_offset);
    r->mode = (uint8_t)mode;
    int rc = tern_send_start(r);
    if (rc != MPI_SUCCESS) {
        tern_req_release(r);
        r = NULL;
    }
    *out = r;
    return rc;
}

/* ---- receives ---- */

/* A receive meets a message that arrived before it was posted. */
static void recv_from_unexp(struct tern_request *r, struct tern_unexp *u)
{
    switch (u->kind) {
    case TERN_UNEXP_EAGER:
        tern_msg_deliver(r, u->data, u->bytes, u->src, u->tag);
        if (u->sync) u->xport->sync_ack(u->world_src, u->sync_cookie);
        break;
    case TERN_UNEXP_RNDV:
        tern_msg_accept(r, u->src, u->tag, u->bytes);
        u->xport->recv_rndv(r, u->world_src, u->data, u->bytes);
        break;
    case TERN_UNEXP_SELF: {
        struct tern_request *s = u->self_send;
        size_t n = tern_msg_accept(r, u->src, u->tag, u->bytes);
        if (n) tern_dt_copy(s->buf, s->count, s->dt, r->buf, r->count, r->dt);
        tern_req_complete(r);
        s->state = TERN_SEND_DONE;
        tern_req_complete(s);
        break;
    }
    }
    tern_unexp_free(u);
}

int tern_recv_start(struct tern_request *r)
{
    r->complete = 0;
    r->cancelled = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    if (r->peer == MPI_PROC_NULL) {
        tern_status_empty(&r->status, MPI_PROC_NULL);
        tern_req_complete(r);
        return MPI_SUCCESS;
    }
    struct tern_unexp *u = tern_match_unexp(r->ctx, r->peer, r->tag, 1);
    if (u)
        recv_from_unexp(r, u);
    else
        tern_match_post(r);
    return MPI_SUCCESS;
}

int tern_irecv(void *buf, size_t count, struct tern_datatype *dt, int src, int tag,
               struct tern_comm *comm, int ctx_offset, struct tern_request **out)
{
    struct tern_request *r = tern_req_alloc(TERN_REQ_RECV);
    if (!r) return tern_err_make(MPI_ERR_NO_MEM, "out of memory allocating a receive request");
    tern_req_bind(r, buf, count, dt, src, tag, comm, ctx_offset);
    *out = r;
    return tern_recv_start(r);
}

/* Mrecv: a receive for a message already taken out of the queue by Mprobe. */
void tern_recv_matched(struct tern_request *r, struct tern_unexp *u)
{
    r->complete = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    recv_from_unexp(r, u);
}

/* ---- sends to self bypass every transport ---- */

static int self_send(struct tern_request *r)
{
    tern_pv_sent(TERN_XPORT_SELF, r->bytes);
    struct tern_request *rr = tern_match_posted(r->ctx, r->comm->rank, r->tag);
    if (rr) {
        size_t n = tern_msg_accept(rr, r->comm->rank, r->tag, r->bytes);
        if (n) tern_dt_copy(r->buf, r->count, r->dt, rr->buf, rr->count, rr->dt);
        tern_req_complete(rr);
        r->state = TERN_SEND_DONE;
        tern_req_complete(r);
        return MPI_SUCCESS;
    }
    /* Small standard sends to self are buffered, as they would be in a ring
     * to another rank; synchronous and large ones wait for their receive. */
    int buffered = r->mode != TERN_MODE_SYNC && r->bytes <= (size_t)tern_param.smp_eagersize;
    struct tern_unexp *u = tern_unexp_alloc(buffered ? r->bytes : 0);
    if (!u)
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory buffering a %zu-byte message to self",
                             r->bytes);
    u->ctx = r->ctx;
    u->src = r->comm->rank;
    u->tag = r->tag;
    u->bytes = r->bytes;
    u->world_src = tern_g.world_rank;
    if (buffered) {
        u->kind = TERN_UNEXP_EAGER;
        if (r->bytes) tern_dt_pack(r->dt, r->buf, r->count, 0, u->data, r->bytes);
        r->state = TERN_SEND_DONE;
        tern_req_complete(r);
    } else {
        u->kind = TERN_UNEXP_SELF;
        u->self_send = r;
    }
    tern_unexp_enqueue(u);
    return MPI_SUCCESS;
}

/* ---- MPI_Cancel of a send ---- */

static int is_self_send(const struct tern_unexp *u, int unused, uint64_t req)
{
    (void)unused;
    return u->kind == TERN_UNEXP_SELF && (uint64_t)(uintptr_t)u->self_send == req;
}

void tern_cancel_send(struct tern_request *r)
{
    if (r->complete || r->peer == MPI_PROC_NULL) return;
    int now;
    if (r->world_peer == tern_g.world_rank) {
        struct tern_unexp *u = tern_unexp_find(is_self_send, 0, (uint64_t)(uintptr_t)r);
        if (u) tern_unexp_free(u);
        now = u != NULL;
    } else {
        now = tern_p2p_route[r->world_peer]->cancel_send(r);
    }
    if (!now) return;
    r->cancelled = 1;
    tern_status_set_cancelled(&r->status, 1);
    r->state = TERN_SEND_DONE;
    tern_req_complete(r);
}

/* ---- requests nobody waits for ---- */

/* Releases the orphaned requests (msg/request.h) that have completed. */
static int reap_orphans(void)
{
    int n = 0;
    struct tern_request **pp = &tern_orphans;
    while (*pp) {
        struct tern_request *r = *pp;
        if (!r->complete) {
            pp = &r->orphan_next;
            continue;
        }
        *pp = r->orphan_next;
        tern_req_release(r);
        n++;
    }
    return n;
}

/* ---- the layer's life ---- */

/* The progress engine's pass over point-to-point. */
static int p2p_progress(void)
{
    int n = tern_p2p_transports_progress();
    /* After the transports, so a schedule sees what this pass delivered. */
    if (tern_req_polled) n += tern_req_poll_all();
    if (tern_orphans) n += reap_orphans();
    return n;
}

int tern_p2p_init(void)
{
    tern_progress_register(p2p_progress);
    tern_progress_register_liveness(tern_p2p_find_dead_peer);
    tern_p2p_foreign_watch_init();
    int rc = tern_procs_init(tern_p2p_route_new_proc);
    return rc ? rc : tern_p2p_transports_init();
}

void tern_p2p_quiesce(void) { tern_p2p_transports_quiesce(); }

void tern_p2p_finalize(void)
{
    tern_p2p_transports_finalize();
    tern_procs_finalize();
    tern_progress_unregister_all();
}

/* ---- waiting ---- */

void tern_status_copy_out(const struct tern_request *r, MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = r->status.MPI_SOURCE;
    status->MPI_TAG = r->status.MPI_TAG;
    status->count_lo = r->status.count_lo;
    status->count_hi_and_cancelled = r->status.count_hi_and_cancelled;
}

int tern_wait(struct tern_request *r, MPI_Status *status)
{
    struct tern_waiter w = TERN_WAITER_INIT;
    while (!r->complete) tern_progress_wait(&w);
    tern_status_copy_out(r, status);
    int rc = r->status.MPI_ERROR;
    if (r->persistent)
        r->active = 0;
    else
        tern_req_release(r);
    return rc;
}

int tern_waitall(int n, struct tern_request **reqs)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        if (!reqs[i]) continue;
        int e = tern_wait(reqs[i], MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS && rc == MPI_SUCCESS) rc = e;
        reqs[i] = NULL;
    }
    return rc;
}

int tern_send(const void *buf, size_t count, struct tern_datatype *dt, int dest, int tag,
              struct tern_comm *comm, int ctx_offset)
{
    struct tern_request r;
    tern_req_init_local(&r, TERN_REQ_SEND);
    tern_req_bind(&r, (void *)buf, count, dt, dest, tag, comm, ctx_offset);
    int rc = tern_send_start(&r);
    return rc != MPI_SUCCESS ? rc : tern_wait(&r, MPI_STATUS_IGNORE);
}

int tern_recv(void *buf, size_t count, struct tern_datatype *dt, int src, int tag,
              struct tern_comm *comm, int ctx_offset, MPI_Status *status)
{
    struct tern_request r;
    tern_req_init_local(&r, TERN_REQ_RECV);
    tern_req_bind(&r, buf, count, dt, src, tag, comm, ctx_offset);
    tern_recv_start(&r);
    return tern_wait(&r, status);
}

int tern_sendrecv(const void *sbuf, size_t scount, struct tern_datatype *sdt, int dest, int stag,
                  void *rbuf, size_t rcount, struct tern_datatype *rdt, int src, int rtag,
                  struct tern_comm *comm, int ctx_offset, MPI_Status *status)
{
    struct tern_request rr, sr;
    tern_req_init_local(&rr, TERN_REQ_RECV);
    tern_req_bind(&rr, rbuf, rcount, rdt, src, rtag, comm, ctx_offset);
    tern_recv_start(&rr);
    tern_req_init_local(&sr, TERN_REQ_SEND);
    tern_req_bind(&sr, (void *)sbuf, scount, sdt, dest, stag, comm, ctx_offset);
    int rc = tern_send_start(&sr);
    if (rc != MPI_SUCCESS) {
        /* The receive lives in this frame: it must not stay posted. */
        if (!tern_match_unpost(&rr)) tern_wait(&rr, MPI_STATUS_IGNORE);
        return rc;
    }
    int e1 = tern_wait(&sr, MPI_STATUS_IGNORE);
    int e2 = tern_wait(&rr, status);
    return e2 != MPI_SUCCESS ? e2 : e1;
}
