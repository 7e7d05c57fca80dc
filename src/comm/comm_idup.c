/* MPI_Comm_idup's context-id agreement, run by the progress engine so the
 * call returns at once and the parent stays usable meanwhile.
 *
 * The agreement is the blocking one's (comm.c, tern_ctx_agree) in rounds:
 * each participant offers the lowest range of ids free here at or above
 * the largest offer of the last round, until all offers are equal.  One
 * round is a persistent schedule on the parent (coll/sched.h): an
 * allreduce of (offer, -offer) with MPI_MAX gives the largest and the
 * smallest offer at once; on an intercommunicator each group reduces over
 * its local communicator, the leaders swap and merge, and each leader
 * spreads the result.  The schedule takes one tag of the parent when the
 * call is made, as every nonblocking collective does, and each round
 * restarts it on that tag, so rounds match across ranks whatever other
 * collectives a rank starts on the parent between them.
 *
 * Several agreements may be under way in one process, each holding its
 * offer (comm_ctx.c).  When a round's largest offer is held here by an
 * agreement of higher priority, this one waits for it to keep or drop it
 * instead of offering beyond: two agreements that offered past each other
 * in turn at two processes would otherwise do so forever.  The priority
 * is (the parent's context id, the tag's sequence number), the same at
 * every participant and different for any two agreements that share one.
 * The wait is bounded: the agreement of higher priority may not have begun
 * at some of its participants, which may be waiting for this one to end
 * (a thread that duplicates one communicator only after another thread's
 * duplicate of another is done: MPICH's idup_deadlock).  Past
 * YIELD_NS this one offers beyond the ids held here; two agreements that
 * both run everywhere settle long before that. */
#include <stdint.h>
#include <stdlib.h>

#include "coll/nbc.h"
#include "coll/op.h"
#include "coll/sched.h"
#include "comm/comm.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/progress.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/p2p_internal.h"
#include "msg/request.h"
#include "msg/status.h"

struct idup {
    struct tern_comm *nc;       /* the new communicator (a reference), ids pending */
    struct tern_request *round; /* the persistent round on the parent */
    int64_t offer[2];           /* (id, -id) */
    int64_t result[2];          /* (largest, -smallest) */
    int64_t theirs[2];          /* intercommunicator leaders: the other group's */
    uint32_t mine, nids, want;
    uint64_t owner;
    int holding;            /* 'mine' is held here */
    int waiting;            /* no offer out: waits until 'want' may be held */
    uint64_t waiting_since; /* ns */
};

#define YIELD_NS (20 * 1000000ull)

/* Whether 'want' is held here by an agreement of higher priority that this
 * one should still wait for. */
static int yields(struct idup *d)
{
    if (!tern_ctx_yields(d->want, d->nids, d->owner)) return 0;
    return tern_progress_now_ns() - d->waiting_since < YIELD_NS;
}

/* The round's schedule: the result of all offers at every participant. */
static int build_round(struct tern_sched *s, struct idup *d)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_datatype *dt = tern_dt_get(MPI_INT64_T);
    struct tern_op *max = tern_op_get(MPI_MAX);
    if (!c->is_inter) return tern_nbc_allreduce(s, d->offer, d->result, 2, dt, max);
    tern_sched_local(s, 1);
    tern_nbc_allreduce(s, d->offer, d->result, 2, dt, max);
    tern_sched_round(s);
    tern_sched_local(s, 0);
    if (c->rank == 0) {
        tern_sched_send(s, d->result, 2, dt, 0);
        tern_sched_recv(s, d->theirs, 2, dt, 0);
        tern_sched_round(s);
        tern_sched_reduce(s, d->theirs, d->result, 2, dt, max);
        tern_sched_round(s);
    }
    tern_sched_local(s, 1);
    tern_nbc_bcast(s, d->result, 2, dt, 0);
    tern_sched_round(s);
    tern_sched_local(s, 0);
    return tern_sched_round(s);
}

/* Holds the lowest free range at or above 'from' and sends it out. */
static int offer(struct idup *d, uint32_t from)
{
    int rc = tern_ctx_hold(from, d->nids, d->owner, &d->mine);
    if (rc) return rc;
    d->holding = 1;
    d->waiting = 0;
    d->offer[0] = d->mine;
    d->offer[1] = -(int64_t)d->mine;
    return tern_sched_restart(d->round);
}

static void finish(struct tern_request *r, struct idup *d, int err)
{
    if (d->holding) {
        if (err == MPI_SUCCESS) {
            tern_ctx_keep(d->mine);
            d->nc->ctx = d->mine;
            if (d->nc->local_comm) d->nc->local_comm->ctx = d->mine + 2;
        } else {
            tern_ctx_drop(d->mine);
        }
        d->holding = 0;
    }
    r->status.MPI_ERROR = err;
    tern_req_poll_remove(r);
    tern_req_complete(r);
}

static int poll_idup(struct tern_request *r)
{
    struct idup *d = r->sched;
    if (r->complete) return 1;
    if (d->waiting) {
        if (yields(d)) return 0;
        int rc = offer(d, d->want);
        if (rc) finish(r, d, rc);
        return rc != MPI_SUCCESS;
    }
    if (!d->round->complete) return 0;
    int rc = d->round->status.MPI_ERROR;
    uint32_t hi = (uint32_t)d->result[0], lo = (uint32_t)-d->result[1];
    if (rc == MPI_SUCCESS && hi == lo) {
        finish(r, d, MPI_SUCCESS);
        return 1;
    }
    tern_ctx_drop(d->mine);
    d->holding = 0;
    if (rc == MPI_SUCCESS) {
        d->want = hi;
        d->waiting = 1;
        d->waiting_since = tern_progress_now_ns();
        if (yields(d)) return 0;
        rc = offer(d, hi);
    }
    if (rc) finish(r, d, rc);
    return rc != MPI_SUCCESS;
}

static void free_idup(struct tern_request *r)
{
    struct idup *d = r->sched;
    if (!d) return;
    if (d->holding) tern_ctx_drop(d->mine);
    if (d->round) tern_req_release(d->round);
    tern_comm_release(d->nc);
    free(d);
    r->sched = NULL;
}

/* The new communicator, its ids still to be agreed. */
static int build_pending(struct tern_comm *c, struct tern_comm **nc)
{
    if (c->is_inter)
        return tern_intercomm_build(c->errh, c->group, c->remote_group, TERN_CTX_PENDING, nc);
    int rc = tern_comm_build(c->errh, c->group, TERN_CTX_PENDING, 1, nc);
    if (rc == MPI_SUCCESS) tern_comm_inherit_session(*nc, c);
    return rc;
}

int tern_comm_idup_start(struct tern_comm *c, const char *fn, struct tern_comm **nc,
                         struct tern_request **req)
{
    struct idup *d = calloc(1, sizeof *d);
    struct tern_request *r = tern_req_alloc(TERN_REQ_COLL);
    struct tern_sched *s;
    MPI_Request h;
    int rc;
    *nc = NULL;
    if (!d || !r) {
        free(d);
        if (r) tern_req_free(r);
        return tern_err_raise(c,
                              tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory for a request", fn));
    }
    d->nids = c->is_inter ? TERN_INTER_CTX_IDS : 2;
    d->owner = 1 + ((uint64_t)c->ctx << 30 | (c->coll_seq % (uint32_t)TERN_SCHED_TAG_SPAN));
    if ((rc = build_pending(c, &d->nc)) == MPI_SUCCESS)
        tern_comm_retain(d->nc); /* this request's */
    if (rc == MPI_SUCCESS && (rc = tern_sched_create(c, fn, &s)) == MPI_SUCCESS) {
        tern_sched_unordered(s); /* rounds restart from the progress engine */
        /* On failure the schedule is freed and the error already raised. */
        if ((rc = tern_sched_post(s, build_round(s, d), 1, &h)) == MPI_SUCCESS)
            d->round = tern_req_get(h);
    } else {
        rc = tern_err_raise(c, rc);
    }
    if (rc != MPI_SUCCESS) {
        if (d->nc) {
            tern_comm_release(d->nc);
            tern_comm_free_handle(d->nc);
        }
        free(d);
        tern_req_free(r);
        return rc;
    }
    r->comm = c;
    tern_comm_retain(c);
    r->sched = d;
    r->poll_fn = poll_idup;
    r->free_fn = free_idup;
    tern_status_empty(&r->status, MPI_ANY_SOURCE);
    tern_req_poll_add(r);
    /* An error here reaches the user through the request, as one in a
     * later round does. */
    if ((rc = offer(d, 0))) finish(r, d, rc);
    *nc = d->nc;
    *req = r;
    return MPI_SUCCESS;
}
