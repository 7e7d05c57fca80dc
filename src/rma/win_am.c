/* The request messages of windows that span hosts (win_am.h): what an
 * origin sends, and how a target applies it.
 *
 * A request is a header, the target's layout as (address, length) pieces,
 * then the packed origin data.  Its reply goes to a tag of its own (the
 * origin posts that receive before sending): the data of a get, a
 * get-accumulate or a compare-and-swap straight into the origin's buffer,
 * or a status word for the others.  A data reply of no bytes says the
 * target refused the access. */
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "coll/coll.h"
#include "coll/op_kernels.h"
#include "comm/comm.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "msg/match.h"
#include "p2p/p2p.h"
#include "p2p/p2p_internal.h"
#include "msg/status.h"
#include "rma/win_am.h"
#include "rma/win_seg.h"
#if defined(TERN_WITH_UCX)
#include "transport/ucx/ucx.h"
#endif

/* Requests use tag 0 of the window's context; replies the tags above. */
#define TAG_REQ 0
#define TAG_REPLY_SPAN (1u << 20)

struct hdr {
    uint32_t kind, reply_tag; /* reply_tag 0: none */
    int32_t op, basic;        /* MPI_Op and MPI_Datatype handles (accumulates), or a lock type */
    uint64_t nblocks, data_bytes;
};
struct block {
    uint64_t addr, len;
};

struct tern_win_am_op {
    struct tern_win_am_op *next;
    int target;
    struct tern_request *sreq, *rreq;
    char *msg;
    size_t expect; /* bytes of a data reply; 0: a status reply */
    int32_t status;
};
struct tern_win_am_in {
    struct tern_win_am_in *next;
    struct tern_request *req;
    char *buf;
    size_t bytes;
    int src;
};
struct tern_win_am_out {
    struct tern_win_am_out *next;
    struct tern_request *req;
    char *buf;
};

static struct tern_win_am *am_list;
/* The progress hook is registered with the first window that needs it, so
 * a job without one pays no call per progress pass; the progress engine
 * forgets its hooks at finalize, and tern_win_am_reset() this flag. */
static int hooked;

void tern_win_am_reset(void) { hooked = 0; }

int tern_win_am_open(struct tern_win *w, struct tern_comm *comm)
{
    struct tern_win_am *a = calloc(1, sizeof *a);
    if (!a) return tern_err_make(MPI_ERR_NO_MEM, "out of memory for a window");
    a->posts = calloc((size_t)w->size, sizeof *a->posts);
    a->dones = calloc((size_t)w->size, sizeof *a->dones);
    if (!a->posts || !a->dones) tern_fatal("out of memory for a window of %d ranks", w->size);
    uint32_t ctx;
    int rc = tern_ctx_agree(comm, comm->size, NULL, comm->rank, TERN_TAG_CTX, NULL, 2, &ctx);
    if (!rc) rc = tern_comm_build(comm->errh, comm->group, ctx, 0, &a->comm);
    if (rc) {
        free(a->posts);
        free(a->dones);
        free(a);
        return rc;
    }
    a->win = w;
    a->excl = -1;
    a->ops_tail = &a->ops;
    a->in_tail = &a->in;
    a->lq_tail = &a->lq;
    a->next = am_list;
    am_list = a;
    w->am = a;
    if (!hooked) {
        tern_progress_register(tern_win_am_progress);
        hooked = 1;
    }
#if defined(TERN_WITH_UCX)
    if (tern_param.rma_async) {
        rc = tern_ucx_async_hold();
        if (rc) return rc; /* the window is complete: MPI_Win_free releases it */
        a->async = 1;
    }
#endif
    return MPI_SUCCESS;
}

/* Frees the replies this target sent that have left. */
static void reap_replies(struct tern_win_am *a)
{
    for (struct tern_win_am_out **p = &a->out; *p;) {
        struct tern_win_am_out *o = *p;
        if (!o->req->complete) {
            p = &o->next;
            continue;
        }
        *p = o->next;
        tern_req_release(o->req);
        free(o->buf);
        free(o);
    }
}

void tern_win_am_close(struct tern_win *w)
{
    struct tern_win_am *a = w->am;
    if (!a) return;
    for (struct tern_win_am **p = &am_list; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            break;
        }
    /* Every reply has left: the closing barrier followed the last flush. */
    struct tern_waiter wt = TERN_WAITER_INIT;
    while (a->out) {
        tern_progress_wait(&wt);
        reap_replies(a);
    }
    tern_win_ucp_close(w);
#if defined(TERN_WITH_UCX)
    if (a->async) tern_ucx_async_release();
#endif
    tern_comm_release(a->comm);
    free(a->mem);
    free(a->posts);
    free(a->dones);
    free(a);
    w->am = NULL;
}

void tern_win_am_barrier(struct tern_win *w) { tern_coll_barrier(w->am->comm); }

/* ---- the origin's side ---- */

/* The target's pieces for tcount elements of tdt at raddr. */
static struct block *flatten(const struct tern_datatype *tdt, uint64_t raddr, size_t tcount,
                             size_t bytes, size_t *nblocks)
{
    struct tern_dt_view v;
    struct iovec iov[64];
    size_t n = 0, cap = 16;
    struct block *b = malloc(cap * sizeof *b);
    if (!b) return NULL;
    tern_dt_view_local(&v, tdt, (const void *)(uintptr_t)raddr, tcount);
    for (size_t off = 0; off < bytes;) {
        size_t got, k = tern_dt_view_iov(&v, off, bytes - off, iov, 64, &got);
        for (size_t i = 0; i < k; i++) {
            if (n == cap) {
                struct block *nb = realloc(b, 2 * cap * sizeof *b);
                if (!nb) {
                    free(b);
                    return NULL;
                }
                b = nb;
                cap *= 2;
            }
            b[n++] = (struct block){(uint64_t)(uintptr_t)iov[i].iov_base, iov[i].iov_len};
        }
        off += got;
    }
    *nblocks = n;
    return b;
}

/* Sends a request and posts the receive of its reply: into (rbuf, rcount,
 * rdt) when rbuf is given, else a status word. */
static int issue(struct tern_win *w, int rank, struct hdr h, const struct block *blk,
                 const void *data, size_t dbytes, void *rbuf, size_t rcount,
                 struct tern_datatype *rdt)
{
    struct tern_win_am *a = w->am;
    size_t bytes = sizeof h + h.nblocks * sizeof *blk + dbytes;
    struct tern_win_am_op *op = calloc(1, sizeof *op);
    char *msg = malloc(bytes);
    if (!op || !msg) {
        free(op);
        free(msg);
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory for a request of %zu bytes", bytes);
    }
    h.data_bytes = dbytes;
    h.reply_tag = 1 + a->seq++ % TAG_REPLY_SPAN;
    memcpy(msg, &h, sizeof h);
    if (h.nblocks) memcpy(msg + sizeof h, blk, h.nblocks * sizeof *blk);
    if (dbytes) memcpy(msg + sizeof h + h.nblocks * sizeof *blk, data, dbytes);
    op->target = rank;
    op->msg = msg;
    int rc;
    if (rbuf) {
        op->expect = rcount * rdt->size;
        rc =
            tern_irecv(rbuf, rcount, rdt, rank, (int)h.reply_tag, a->comm, TERN_CTX_P2P, &op->rreq);
    } else {
        rc = tern_irecv(&op->status, sizeof op->status, tern_dt_get(MPI_BYTE), rank,
                        (int)h.reply_tag, a->comm, TERN_CTX_P2P, &op->rreq);
    }
    if (!rc)
        rc = tern_isend(msg, bytes, tern_dt_get(MPI_BYTE), rank, TAG_REQ, a->comm, TERN_CTX_P2P,
                        TERN_MODE_STANDARD, &op->sreq);
    if (rc) tern_fatal("cannot send a one-sided request to rank %d of a window", rank);
    *a->ops_tail = op;
    a->ops_tail = &op->next;
    return MPI_SUCCESS;
}

int tern_win_am_send_ctl(struct tern_win *w, int rank, int kind, int arg, int reply)
{
    struct hdr h = {.kind = (uint32_t)kind, .op = arg};
    if (reply) return issue(w, rank, h, NULL, NULL, 0, NULL, 0, NULL);
    /* No reply: nothing to flush, only the message to see off. */
    struct tern_request *r;
    int rc = tern_isend(&h, sizeof h, tern_dt_get(MPI_BYTE), rank, TAG_REQ, w->am->comm,
                        TERN_CTX_P2P, TERN_MODE_STANDARD, &r);
    if (!rc) rc = tern_wait(r, MPI_STATUS_IGNORE);
    return rc;
}

static int issue_typed(const char *fn, struct tern_win *w, struct hdr h, int rank, uint64_t raddr,
                       size_t tcount, struct tern_datatype *tdt, const void *data, size_t dbytes,
                       void *rbuf, size_t rcount, struct tern_datatype *rdt)
{
    size_t n;
    struct block *blk = flatten(tdt, raddr, tcount, tcount * tdt->size, &n);
    if (!blk) return tern_win_err(w, MPI_ERR_NO_MEM, "%s: out of memory for the target layout", fn);
    h.nblocks = n;
    int rc = issue(w, rank, h, blk, data, dbytes, rbuf, rcount, rdt);
    free(blk);
    return rc ? tern_win_raise(w, rc) : MPI_SUCCESS;
}

int tern_win_am_put(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                    uint64_t raddr, size_t tcount, struct tern_datatype *tdt)
{
    int urc = tern_win_ucp_put(w, o, rank, raddr, tcount, tdt);
    if (urc >= 0) return urc;
    size_t tb = tcount * tdt->size;
    char *packed = malloc(tb);
    if (!packed) return tern_win_err(w, MPI_ERR_NO_MEM, "%s: out of memory for %zu bytes", fn, tb);
    tern_dt_pack(o.dt, o.buf, o.count, 0, packed, tb);
    struct hdr h = {.kind = TERN_AM_PUT};
    int rc = issue_typed(fn, w, h, rank, raddr, tcount, tdt, packed, tb, NULL, 0, NULL);
    free(packed);
    return rc;
}

int tern_win_am_get(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                    uint64_t raddr, size_t tcount, struct tern_datatype *tdt)
{
    int urc = tern_win_ucp_get(w, o, rank, raddr, tcount, tdt);
    if (urc >= 0) return urc;
    struct hdr h = {.kind = TERN_AM_GET};
    return issue_typed(fn, w, h, rank, raddr, tcount, tdt, NULL, 0, (void *)o.buf, o.count, o.dt);
}

int tern_win_am_acc(const char *fn, struct tern_win *w, const void *obuf, struct tern_rma_side res,
                    int rank, uint64_t raddr, size_t tcount, struct tern_datatype *tdt, MPI_Op op)
{
    struct hdr h = {.kind = res.buf ? TERN_AM_GACC : TERN_AM_ACC,
                    .op = (int32_t)op,
                    .basic = (int32_t)tdt->basic};
    size_t tb = obuf ? tcount * tdt->size : 0;
    return issue_typed(fn, w, h, rank, raddr, tcount, tdt, obuf, tb, (void *)res.buf, res.count,
                       res.dt);
}

int tern_win_am_cas(const char *fn, struct tern_win *w, const void *origin, const void *compare,
                    void *result, struct tern_datatype *dt, int rank, uint64_t raddr)
{
    char two[128];
    size_t es = dt->size;
    if (2 * es > sizeof two)
        return tern_win_err(w, MPI_ERR_TYPE, "%s: elements of %zu bytes are not supported", fn, es);
    memcpy(two, origin, es);
    memcpy(two + es, compare, es);
    struct hdr h = {.kind = TERN_AM_CAS};
    return issue_typed(fn, w, h, rank, raddr, 1, dt, two, 2 * es, result, 1, dt);
}

/* Reaps op when both its messages are done; 1 if it was. */
static int reap(struct tern_win *w, struct tern_win_am_op *op)
{
    if (!op->sreq->complete || !op->rreq->complete) return 0;
    size_t got = tern_status_get_bytes(&op->rreq->status);
    int bad = op->expect ? got != op->expect : op->status != MPI_SUCCESS;
    if (bad && !w->am->err)
        w->am->err = tern_err_make(MPI_ERR_RMA_RANGE,
                                   "rank %d of %s refused an access: it lies outside its window "
                                   "(for a dynamic window: in no region it attached)",
                                   op->target, tern_win_name(w));
    tern_req_release(op->sreq);
    tern_req_release(op->rreq);
    free(op->msg);
    free(op);
    return 1;
}

void tern_win_am_wait_ops(struct tern_win *w, int rank)
{
    struct tern_win_am *a = w->am;
    struct tern_waiter wt = TERN_WAITER_INIT;
    tern_win_ucp_flush(w, rank);
    for (;;) {
        int left = 0;
        for (struct tern_win_am_op **p = &a->ops; *p;) {
            struct tern_win_am_op *op = *p, *next = op->next;
            if ((rank < 0 || op->target == rank) && reap(w, op)) {
                *p = next;
                continue;
            }
            left += rank < 0 || op->target == rank;
            p = &op->next;
        }
        a->ops_tail = &a->ops;
        while (*a->ops_tail) a->ops_tail = &(*a->ops_tail)->next;
        if (!left) break;
        tern_progress_wait(&wt);
    }
}

int tern_win_am_flush(const char *fn, struct tern_win *w, int rank)
{
    struct tern_win_am *a = w->am;
    tern_win_am_wait_ops(w, rank);
    int err = a->err;
    a->err = 0;
    return err ? tern_win_raise(
                     w, tern_err_make(tern_err_class_of(err), "%s: %s", fn, tern_err_text(err)))
               : MPI_SUCCESS;
}

/* ---- the target's side ---- */

void tern_win_am_reply(struct tern_win *w, int dest, int tag, const void *data, size_t bytes)
{
    struct tern_win_am_out *o = calloc(1, sizeof *o);
    if (!o || !(o->buf = malloc(bytes ? bytes : 1)))
        tern_fatal("out of memory for a one-sided reply of %zu bytes", bytes);
    memcpy(o->buf, data, bytes);
    if (tern_isend(o->buf, bytes, tern_dt_get(MPI_BYTE), dest, tag, w->am->comm, TERN_CTX_P2P,
                   TERN_MODE_STANDARD, &o->req))
        tern_fatal("cannot send a one-sided reply to rank %d", dest);
    o->next = w->am->out;
    w->am->out = o;
}

/* Every piece lies in this rank's window. */
static int pieces_ok(struct tern_win *w, const struct block *b, size_t n)
{
    const struct tern_win_peer *me = &w->peer[w->rank];
    for (size_t i = 0; i < n; i++) {
        if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
            if (!tern_win_dyn_find(w, w->rank, b[i].addr, b[i].len)) return 0;
        } else if (b[i].addr < me->base || b[i].len > (uint64_t)me->size ||
                   b[i].addr - me->base > (uint64_t)me->size - b[i].len) {
            return 0;
        }
    }
    return 1;
}

static void gather(const struct block *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; out += b[i].len, i++)
        memcpy(out, (const void *)(uintptr_t)b[i].addr, b[i].len);
}
static void scatter(const struct block *b, size_t n, const char *in)
{
    for (size_t i = 0; i < n; in += b[i].len, i++)
        memcpy((void *)(uintptr_t)b[i].addr, in, b[i].len);
}

/* Applies one accumulate (kind ACC or GACC); 0 or MPI_ERR_*. */
static void apply_acc(struct tern_win *w, int src, const struct hdr *h, const struct block *b,
                      const char *data, int ok)
{
    size_t tb = 0;
    for (size_t i = 0; i < h->nblocks; i++) tb += b[i].len;
    char *old = malloc(tb ? tb : 1);
    if (!old) tern_fatal("out of memory for an accumulate of %zu bytes", tb);
    MPI_Op op = (MPI_Op)h->op;
    if (ok) gather(b, h->nblocks, old);
    if (h->kind == TERN_AM_GACC) tern_win_am_reply(w, src, (int)h->reply_tag, old, ok ? tb : 0);
    if (ok && op != MPI_NO_OP) {
        if (op == MPI_REPLACE) {
            scatter(b, h->nblocks, data);
        } else {
            struct tern_datatype *bt = tern_dt_get((MPI_Datatype)h->basic);
            tern_op_kernel k = tern_op_kernel_get(op, (MPI_Datatype)h->basic, 1);
            /* The origin checked the op is defined on the type. */
            if (k && bt && bt->size) k(data, old, tb / bt->size);
            scatter(b, h->nblocks, old);
        }
    }
    if (h->kind == TERN_AM_ACC) {
        int32_t st = ok ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
        tern_win_am_reply(w, src, (int)h->reply_tag, &st, sizeof st);
    }
    free(old);
}

static void apply(struct tern_win *w, int src, const char *msg, size_t bytes)
{
    struct hdr h;
    if (bytes < sizeof h) tern_fatal("a one-sided request of %zu bytes is cut short", bytes);
    memcpy(&h, msg, sizeof h);
    struct block *b = NULL;
    if (h.nblocks) {
        b = malloc(h.nblocks * sizeof *b);
        if (!b) tern_fatal("out of memory for a one-sided request");
        memcpy(b, msg + sizeof h, h.nblocks * sizeof *b);
    }
    const char *data = msg + sizeof h + h.nblocks * sizeof *b;
    int ok = pieces_ok(w, b, h.nblocks);
    int32_t st = ok ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
    switch (h.kind) {
    case TERN_AM_PUT:
        if (ok) scatter(b, h.nblocks, data);
        tern_win_am_reply(w, src, (int)h.reply_tag, &st, sizeof st);
        break;
    case TERN_AM_GET: {
        size_t tb = 0;
        for (size_t i = 0; i < h.nblocks; i++) tb += b[i].len;
        char *out = malloc(tb ? tb : 1);
        if (!out) tern_fatal("out of memory for a get of %zu bytes", tb);
        if (ok) gather(b, h.nblocks, out);
        tern_win_am_reply(w, src, (int)h.reply_tag, out, ok ? tb : 0);
        free(out);
        break;
    }
    case TERN_AM_ACC:
    case TERN_AM_GACC: apply_acc(w, src, &h, b, data, ok); break;
    case TERN_AM_CAS: {
        size_t es = h.data_bytes / 2;
        char old[64] = {0};
        if (ok && es <= sizeof old && h.nblocks == 1) {
            gather(b, 1, old);
            if (memcmp(old, data + es, es) == 0) scatter(b, 1, data);
        } else {
            ok = 0;
        }
        tern_win_am_reply(w, src, (int)h.reply_tag, old, ok ? es : 0);
        break;
    }
    case TERN_AM_LOCK:
        tern_win_am_lock_request(w, src, h.op == MPI_LOCK_EXCLUSIVE, (int)h.reply_tag);
        break;
    case TERN_AM_UNLOCK:
        tern_win_am_unlock_request(w, src);
        st = MPI_SUCCESS;
        tern_win_am_reply(w, src, (int)h.reply_tag, &st, sizeof st);
        break;
    case TERN_AM_POST: w->am->posts[src]++; break;
    case TERN_AM_DONE: w->am->dones[src]++; break;
    default: tern_fatal("a one-sided request of unknown kind %u", h.kind);
    }
    free(b);
}

static int poll_one(struct tern_win_am *a)
{
    int n = 0;
    uint32_t ctx = a->comm->ctx + TERN_CTX_P2P;
    struct tern_unexp *u;
    while ((u = tern_match_unexp(ctx, MPI_ANY_SOURCE, TAG_REQ, 1))) {
        struct tern_win_am_in *in = calloc(1, sizeof *in);
        if (!in || !(in->buf = malloc(u->bytes ? u->bytes : 1)))
            tern_fatal("out of memory for a one-sided request of %zu bytes", u->bytes);
        in->bytes = u->bytes;
        in->src = u->src;
        struct tern_request *r = tern_req_alloc(TERN_REQ_RECV);
        if (!r) tern_fatal("out of memory for a request");
        tern_req_bind(r, in->buf, u->bytes, tern_dt_get(MPI_BYTE), u->src, u->tag, a->comm,
                      TERN_CTX_P2P);
        tern_recv_matched(r, u);
        in->req = r;
        *a->in_tail = in;
        a->in_tail = &in->next;
    }
    /* In arrival order: each origin's operations apply in the order it made them. */
    while (a->in && a->in->req->complete) {
        struct tern_win_am_in *in = a->in;
        a->in = in->next;
        if (!a->in) a->in_tail = &a->in;
        apply(a->win, in->src, in->buf, in->bytes);
        tern_req_release(in->req);
        free(in->buf);
        free(in);
        n++;
    }
    reap_replies(a);
    return n;
}

int tern_win_am_progress(void)
{
    /* A send below may progress, which would come back here. */
    static int busy;
    if (busy || !am_list) return 0;
    busy = 1;
    int n = 0;
    for (struct tern_win_am *a = am_list; a; a = a->next) n += poll_one(a);
    busy = 0;
    return n;
}
