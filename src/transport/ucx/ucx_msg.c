/* Messages through UCX: sends, arrivals offered to Tern's matching, the
 * rendezvous fetch into the matched buffer, and the control messages
 * (synchronous acknowledgement, revoking a send to cancel it).
 *
 * Eager or rendezvous is Tern's choice (TERN_UCX_EAGERSIZE), forced with
 * UCP's send flags, so the MPI_T counters say what really happened and a
 * synchronous send knows whether it needs an acknowledgement: a rendezvous
 * send completes only once the receiver fetched the data, which it does
 * after the match.
 *
 * Cancel: a send whose message waits unmatched at the receiver is withdrawn
 * by asking the receiver (REVOKE); the answer says whether the message was
 * still there.  Until it comes the request stays incomplete, so the answer
 * never finds a freed request. */
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "core/errors.h"
#include "core/objects.h"
#include "core/pvars.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "msg/match.h"
#include "msg/procs.h"
#include "msg/deliver.h"
#include "msg/status.h"
#include "transport/ucx/ucx.h"
#include "transport/ucx/ucx_internal.h"

/* ---- datatypes as UCP buffers ---- */

/* The iovecs of the first 'bytes' of a view: the blocks themselves, no pack. */
static ucp_dt_iov_t *make_iov(const struct tern_dt_view *v, size_t bytes, size_t *n_out)
{
    size_t n = 0, cap = 0, off = 0;
    ucp_dt_iov_t *iov = NULL;
    struct iovec part[64];
    while (off < bytes) {
        size_t got = 0, k = tern_dt_view_iov(v, off, bytes - off, part, 64, &got);
        if (!k || !got) break;
        if (n + k > cap) {
            cap = cap ? 2 * cap : 64;
            while (cap < n + k) cap *= 2;
            ucp_dt_iov_t *grown = realloc(iov, cap * sizeof *iov);
            if (!grown) tern_fatal("out of memory for %zu iovecs of a derived datatype", cap);
            iov = grown;
        }
        for (size_t i = 0; i < k; i++)
            iov[n + i] = (ucp_dt_iov_t){part[i].iov_base, part[i].iov_len};
        n += k;
        off += got;
    }
    *n_out = n;
    return iov;
}

/* The UCP buffer of (buf, count, dt) holding 'bytes': the buffer itself
 * when contiguous, its blocks as iovecs when they are long enough to be
 * worth it (TERN_UCX_IOV_MIN), else NULL: the caller packs. */
struct ucx_buf {
    void *buffer;
    size_t count;
    ucp_datatype_t dt;
    void *aux; /* what to free at completion */
};

static int layout(void *buf, size_t count, const struct tern_datatype *dt, size_t bytes,
                  struct ucx_buf *b)
{
    b->aux = NULL;
    b->dt = ucp_dt_make_contig(1);
    if (dt->contig) {
        b->buffer = (char *)buf + dt->true_lb;
        b->count = bytes;
        return 1;
    }
    struct tern_dt_view v;
    tern_dt_view_local(&v, dt, buf, count);
    int iov = tern_dt_view_piece(&v) >= ucx.iov_min;
    if (iov) {
        b->aux = b->buffer = make_iov(&v, bytes, &b->count);
        b->dt = ucp_dt_make_iov();
    }
    tern_dt_view_free(&v);
    return iov;
}

/* ---- control messages ---- */

static void ctl_sent(void *req, ucs_status_t status, void *user_data)
{
    (void)status;
    free(user_data);
    ucp_request_free(req);
    ucx.outstanding--;
}

/* 'data': on the data endpoint, behind the rendezvous messages it carries. */
static void send_ctl(int world, int data, uint32_t type, uint64_t cookie, uint64_t value)
{
    int err;
    ucp_ep_h ep = data ? ucx_data_ep(world, &err) : ucx_ep(world, &err);
    if (!ep) return; /* the peer is gone: the liveness check reports it */
    struct ucx_ctl *c = malloc(sizeof *c);
    if (!c) tern_fatal("out of memory for a UCX control message");
    *c = (struct ucx_ctl){.type = type,
                          .world_src = tern_g.world_rank,
                          .job = tern_procs_job_key(),
                          .cookie = cookie,
                          .value = value};
    ucp_request_param_t rp = {
        .op_attr_mask =
            UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS,
        .flags = UCP_AM_SEND_FLAG_EAGER,
        .cb.send = ctl_sent,
        .user_data = c,
    };
    void *req = ucp_am_send_nbx(ep, UCX_AM_CTL, c, sizeof *c, NULL, 0, &rp);
    if (req && !UCS_PTR_IS_ERR(req))
        ucx.outstanding++;
    else
        free(c);
}

void tern_ucx_sync_ack(int world_dst, uint64_t cookie)
{
    send_ctl(world_dst, 0, UCX_CTL_ACK, cookie, 0);
}

/* ---- sends ---- */

static void send_try_complete(struct tern_request *r)
{
    struct ucx_sreq *s = ucx_sreq(r);
    if (!s->data_done || s->cancel_pending || (s->need_ack && !s->acked && !s->withdrawn)) return;
    free(s->aux);
    s->aux = NULL;
    if (s->withdrawn) {
        r->cancelled = 1;
        tern_status_set_cancelled(&r->status, 1);
        r->status.MPI_ERROR = MPI_SUCCESS; /* a dropped rendezvous reports its drop */
    }
    r->state = TERN_SEND_DONE;
    tern_req_complete(r);
}

static void sent(void *req, ucs_status_t status, void *user_data)
{
    struct tern_request *r = user_data;
    ucp_request_free(req);
    ucx.outstanding--;
    if (status != UCS_OK && r->status.MPI_ERROR == MPI_SUCCESS)
        r->status.MPI_ERROR =
            tern_err_make(MPI_ERR_OTHER, "UCX: the %zu-byte message to rank %d failed: %s",
                          r->bytes, r->world_peer, ucs_status_string(status));
    ucx_sreq(r)->data_done = 1;
    send_try_complete(r);
}

int tern_ucx_send(struct tern_request *r)
{
    int err, eager = r->bytes <= ucx.eager_max;
    ucp_ep_h ep = eager ? ucx_ep(r->world_peer, &err) : ucx_data_ep(r->world_peer, &err);
    if (!ep) return err;
    struct ucx_peer *p = ucx_peer(r->world_peer);
    struct ucx_sreq *s = ucx_sreq(r);
    memset(s, 0, sizeof *s);
    int sync = r->mode == TERN_MODE_SYNC && eager;
    s->hdr = (struct ucx_hdr){.ctx = r->ctx,
                              .src = r->comm->rank,
                              .tag = r->tag,
                              .world_src = tern_g.world_rank,
                              .job = tern_procs_job_key(),
                              .seq = p->send_seq,
                              .sync = (uint32_t)sync,
                              .cookie = (uint64_t)(uintptr_t)r};
    s->need_ack = (uint8_t)sync;

    struct ucx_buf b;
    if (!layout(r->buf, r->count, r->dt, r->bytes, &b)) {
        /* Short pieces: one packed copy costs less than many iovecs. */
        b.aux = b.buffer = malloc(r->bytes ? r->bytes : 1);
        if (!b.aux)
            return tern_err_make(MPI_ERR_NO_MEM, "out of memory packing a %zu-byte message",
                                 r->bytes);
        tern_dt_pack(r->dt, r->buf, r->count, 0, b.buffer, r->bytes);
        b.count = r->bytes;
    }
    s->aux = b.aux;
    ucp_request_param_t rp = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                        UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_FLAGS,
        .flags = eager ? UCP_AM_SEND_FLAG_EAGER : UCP_AM_SEND_FLAG_RNDV,
        .cb.send = sent,
        .user_data = r,
        .datatype = b.dt,
    };
    void *req = ucp_am_send_nbx(ep, UCX_AM_MSG, &s->hdr, sizeof s->hdr, b.buffer, b.count, &rp);
    if (UCS_PTR_IS_ERR(req)) {
        free(s->aux);
        s->aux = NULL;
        return tern_err_make(MPI_ERR_OTHER, "UCX: cannot send %zu bytes to rank %d: %s", r->bytes,
                             r->world_peer, ucs_status_string(UCS_PTR_STATUS(req)));
    }
    p->send_seq++;
    tern_pv_sent(eager ? TERN_XPORT_UCX_EAGER : TERN_XPORT_UCX_RNDV, r->bytes);
    r->state = eager ? (sync ? TERN_SEND_WAIT_ACK : TERN_SEND_QUEUED) : TERN_SEND_RNDV;
    if (req)
        ucx.outstanding++;
    else
        s->data_done = 1;
    send_try_complete(r);
    return MPI_SUCCESS;
}

int tern_ucx_cancel_send(struct tern_request *r)
{
    struct ucx_sreq *s = ucx_sreq(r);
    if (!s->cancel_pending) {
        s->cancel_pending = 1;
        /* Behind the message on its own endpoint, so that it is there. */
        send_ctl(r->world_peer, r->bytes > ucx.eager_max, UCX_CTL_REVOKE, (uint64_t)(uintptr_t)r,
                 0);
    }
    return 0;
}

/* ---- receives ---- */

static void fetch_done(struct tern_request *r, ucs_status_t status)
{
    struct ucx_rreq *q = ucx_rreq(r);
    if (status == UCS_OK && q->unpack && r->limit) tern_msg_unpack_at(r, 0, q->aux, r->limit);
    free(q->aux);
    q->aux = NULL;
    if (status != UCS_OK && r->status.MPI_ERROR == MPI_SUCCESS)
        r->status.MPI_ERROR =
            tern_err_make(MPI_ERR_OTHER, "UCX: fetching the message from rank %d failed: %s",
                          r->status.MPI_SOURCE, ucs_status_string(status));
    tern_req_complete(r);
}

static void fetched(void *req, ucs_status_t status, size_t length, void *user_data)
{
    (void)length;
    ucp_request_free(req);
    ucx.outstanding--;
    fetch_done(user_data, status);
}

/* A matched rendezvous message (tern_msg_accept done): UCP moves it
 * straight into the receive buffer, or its blocks; into a whole-message
 * copy only when truncated or made of short pieces. */
static void fetch(struct tern_request *r, void *desc, size_t len)
{
    struct ucx_rreq *q = ucx_rreq(r);
    memset(q, 0, sizeof *q);
    struct ucx_buf b;
    if (r->limit != len || !layout(r->buf, r->count, r->dt, len, &b)) {
        b.aux = b.buffer = malloc(len);
        if (!b.aux) tern_fatal("out of memory receiving a %zu-byte message", len);
        b.count = len;
        b.dt = ucp_dt_make_contig(1);
        q->unpack = 1;
    }
    q->aux = b.aux;
    ucp_request_param_t rp = {
        .op_attr_mask =
            UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_DATATYPE,
        .cb.recv_am = fetched,
        .user_data = r,
        .datatype = b.dt,
    };
    void *req = ucp_am_recv_data_nbx(ucx.worker, desc, b.buffer, b.count, &rp);
    if (UCS_PTR_IS_ERR(req))
        fetch_done(r, UCS_PTR_STATUS(req));
    else if (!req)
        fetch_done(r, UCS_OK);
    else
        ucx.outstanding++;
}

void tern_ucx_recv_rndv(struct tern_request *r, int world_src, const void *rts, size_t bytes)
{
    (void)world_src;
    fetch(r, ((const struct ucx_rts *)rts)->desc, bytes);
}

/* A message in its turn: to a posted receive, or to the unexpected queue.
 * Returns 1 when a rendezvous descriptor was kept for later. */
static int arrive(const struct ucx_hdr *h, void *data, size_t len, int rndv)
{
    struct tern_request *r = tern_match_posted(h->ctx, h->src, h->tag);
    if (r) {
        if (!rndv) {
            tern_msg_deliver(r, data, len, h->src, h->tag);
            if (h->sync) tern_ucx_sync_ack(h->world_src, h->cookie);
        } else {
            tern_msg_accept(r, h->src, h->tag, len);
            fetch(r, data, len);
        }
        return 0;
    }
    struct tern_unexp *u = tern_unexp_alloc(rndv ? sizeof(struct ucx_rts) : len);
    if (!u) tern_fatal("out of memory queueing a %zu-byte message from rank %d", len, h->world_src);
    u->ctx = h->ctx;
    u->src = h->src;
    u->tag = h->tag;
    u->bytes = len;
    u->world_src = h->world_src;
    u->xport = &tern_ucx_transport;
    u->sync_cookie = h->cookie; /* names the send for a revoke, synchronous or not */
    if (rndv) {
        u->kind = TERN_UNEXP_RNDV;
        *(struct ucx_rts *)u->data = (struct ucx_rts){.desc = data, .cookie = h->cookie};
    } else {
        u->kind = TERN_UNEXP_EAGER;
        u->sync = (uint8_t)h->sync;
        if (len) memcpy(u->data, data, len);
    }
    tern_unexp_enqueue(u);
    return rndv;
}

static void held_release(struct ucx_held *x)
{
    if (x->rndv)
        ucp_am_data_release(ucx.worker, x->data);
    else
        free(x->data);
}

/* Keeps a message that overtook an earlier one, in seq order. */
static void hold(struct ucx_peer *p, const struct ucx_hdr *h, void *data, size_t len, int rndv)
{
    struct ucx_held *x = malloc(sizeof *x);
    if (!x) tern_fatal("out of memory holding a message from rank %d", h->world_src);
    *x = (struct ucx_held){.hdr = *h, .data = data, .len = len, .rndv = rndv};
    if (!rndv) {
        x->data = malloc(len ? len : 1);
        if (!x->data)
            tern_fatal("out of memory holding a %zu-byte message from rank %d", len, h->world_src);
        memcpy(x->data, data, len);
    }
    struct ucx_held **pp = &p->held;
    while (*pp && (*pp)->hdr.seq - p->recv_seq < h->seq - p->recv_seq) pp = &(*pp)->next;
    x->next = *pp;
    *pp = x;
}

ucs_status_t ucx_on_msg(void *arg, const void *header, size_t header_length, void *data,
                        size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg;
    struct ucx_hdr h;
    if (header_length != sizeof h)
        tern_fatal("UCX: a message with a %zu-byte header is not Tern's", header_length);
    memcpy(&h, header, sizeof h);
    h.world_src = ucx_sender(h.job, h.world_src);
    int rndv = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
    struct ucx_peer *p = ucx_peer(h.world_src);
    if (!p) tern_fatal("out of memory for the UCX state of peer rank %d", h.world_src);
    if (h.seq != p->recv_seq) {
        hold(p, &h, data, length, rndv);
        return rndv ? UCS_INPROGRESS : UCS_OK;
    }
    int kept = arrive(&h, data, length, rndv);
    p->recv_seq++;
    while (p->held && p->held->hdr.seq == p->recv_seq) {
        struct ucx_held *x = p->held;
        p->held = x->next;
        /* A rendezvous descriptor that arrived is the receive's now. */
        if (!x->revoked) arrive(&x->hdr, x->data, x->len, x->rndv);
        if (x->revoked || !x->rndv) held_release(x);
        free(x);
        p->recv_seq++;
    }
    return kept ? UCS_INPROGRESS : UCS_OK;
}

void ucx_peer_free_held(struct ucx_peer *p)
{
    while (p->held) {
        struct ucx_held *x = p->held;
        p->held = x->next;
        held_release(x);
        free(x);
    }
}

/* A revoked message still waiting for an earlier one: it keeps its place
 * in the sequence, and is dropped when its turn comes. */
static int revoke_held(struct ucx_peer *p, uint64_t cookie)
{
    for (struct ucx_held *x = p ? p->held : NULL; x; x = x->next)
        if (x->hdr.cookie == cookie && !x->revoked) return x->revoked = 1;
    return 0;
}

static int owns_cookie(const struct tern_unexp *u, int world, uint64_t cookie)
{
    return u->world_src == world && u->xport == &tern_ucx_transport && u->sync_cookie == cookie;
}

ucs_status_t ucx_on_ctl(void *arg, const void *header, size_t header_length, void *data,
                        size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct ucx_ctl c;
    if (header_length != sizeof c)
        tern_fatal("UCX: a control message with a %zu-byte header", header_length);
    memcpy(&c, header, sizeof c);
    c.world_src = ucx_sender(c.job, c.world_src);
    struct tern_request *r = (struct tern_request *)(uintptr_t)c.cookie;
    switch (c.type) {
    case UCX_CTL_ACK:
        ucx_sreq(r)->acked = 1;
        send_try_complete(r);
        break;
    case UCX_CTL_REVOKE: {
        struct tern_unexp *u = tern_unexp_find(owns_cookie, c.world_src, c.cookie);
        if (u) {
            if (u->kind == TERN_UNEXP_RNDV)
                ucp_am_data_release(ucx.worker, ((struct ucx_rts *)u->data)->desc);
            tern_unexp_free(u);
        }
        int found = u || revoke_held(ucx_peer_if_made(c.world_src), c.cookie);
        send_ctl(c.world_src, 0, UCX_CTL_REVOKE_REPLY, c.cookie, found);
        break;
    }
    case UCX_CTL_REVOKE_REPLY:
        ucx_sreq(r)->cancel_pending = 0;
        if (c.value) ucx_sreq(r)->withdrawn = 1;
        send_try_complete(r);
        break;
    default: tern_fatal("UCX: unknown control message %u from rank %d", c.type, c.world_src);
    }
    return UCS_OK;
}
