/* Schedules: building (a flat array of steps cut into rounds) and running
 * them from the progress engine.  See sched.h for the model. */
#include "coll/sched.h"

#include <stdint.h>
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/op.h"
#include "core/progress.h"
#include "msg/match.h"
#include "p2p/p2p_internal.h"
#include "msg/status.h"

enum step_kind {
    STEP_SEND,
    STEP_RECV,
    STEP_REDUCE,
    STEP_COPY,
    STEP_CALLBACK,
    STEP_MACHINE,
    STEP_KEEP
};

struct step {
    uint8_t kind;
    uint8_t pinned;  /* reduce with a user's function: dt's handle kept valid for it */
    uint8_t running; /* a machine started and not yet done */
    int peer;
    struct tern_comm *comm; /* send, recv: the schedule's or its local communicator */
    const void *src;        /* send, reduce 'in', copy source */
    void *dst;              /* recv, reduce 'inout', copy destination */
    size_t count, dcount;
    struct tern_datatype *dt, *ddt;
    struct tern_op *op;
    tern_sched_fn *fn;
    const struct tern_sched_machine *mach;
    void *arg;
    struct tern_request *req; /* a send or receive in flight */
};

struct tern_sched {
    struct tern_comm *c;
    struct tern_comm *cur; /* where sends and receives added now go (tern_sched_local) */
    const char *fn;
    int tag;
    int err;       /* stuck while building */
    int unordered; /* tern_sched_unordered */
    int machines;  /* steps of kind STEP_MACHINE */
    struct step *steps;
    int nsteps, step_cap;
    int *round_end; /* round i is steps [round_end[i-1], round_end[i]) */
    int nrounds, round_cap;
    void **mem; /* scratch allocations */
    int nmem, mem_cap;

    /* running */
    int round;   /* the round whose steps have started; -1 before */
    int pending; /* its sends and receives not yet complete */
    int aborted; /* a step could not start: no further rounds */
    int busy;    /* inside advance(): nested polls do nothing */
    int run_err; /* the first error of this run */
};

/* Grows *arr (of *cap elements of size sz) to hold n + 1. */
static int reserve(void *arr, int *cap, int n, size_t sz)
{
    if (n < *cap) return 0;
    int ncap = *cap ? 2 * *cap : 8;
    void *p = realloc(*(void **)arr, (size_t)ncap * sz);
    if (!p) return -1;
    *(void **)arr = p;
    *cap = ncap;
    return 0;
}

static int stick(struct tern_sched *s, size_t bytes)
{
    if (!s->err)
        s->err = tern_err_make(MPI_ERR_NO_MEM,
                               "%s: out of memory building the schedule (%zu bytes)", s->fn, bytes);
    return s->err;
}

int tern_sched_create(struct tern_comm *c, const char *fn, struct tern_sched **out)
{
    struct tern_sched *s = calloc(1, sizeof *s);
    *out = s;
    if (!s) return tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory for a schedule", fn);
    s->c = c;
    s->fn = fn;
    s->tag = TERN_SCHED_TAG_TOP - (int)(c->coll_seq++ % (uint32_t)TERN_SCHED_TAG_SPAN);
    s->round = -1;
    s->cur = c;
    tern_comm_retain(c);
    return MPI_SUCCESS;
}

struct tern_comm *tern_sched_comm(const struct tern_sched *s) { return s->cur; }

int tern_sched_in_order(const struct tern_sched *s) { return !s->unordered && s->cur == s->c; }

void tern_sched_unordered(struct tern_sched *s) { s->unordered = 1; }

void tern_sched_local(struct tern_sched *s, int local) { s->cur = local ? s->c->local_comm : s->c; }

void tern_sched_over(struct tern_sched *s, struct tern_comm *part) { s->cur = part ? part : s->c; }

void tern_sched_free(struct tern_sched *s)
{
    if (!s) return;
    for (int i = 0; i < s->nsteps; i++) {
        if (s->steps[i].pinned) tern_dt_unpin_handle(s->steps[i].dt);
        tern_dt_release(s->steps[i].dt);
        tern_dt_release(s->steps[i].ddt);
        tern_op_release(s->steps[i].op);
    }
    for (int i = 0; i < s->nmem; i++) tern_coll_tmpfree(s->mem[i]);
    free(s->mem);
    free(s->steps);
    free(s->round_end);
    tern_comm_release(s->c);
    free(s);
}

static struct step *add(struct tern_sched *s, enum step_kind kind)
{
    if (s->err) return NULL;
    if (reserve(&s->steps, &s->step_cap, s->nsteps, sizeof *s->steps)) {
        stick(s, sizeof *s->steps * (size_t)(s->nsteps + 1));
        return NULL;
    }
    struct step *st = &s->steps[s->nsteps++];
    *st = (struct step){.kind = (uint8_t)kind, .comm = s->cur};
    return st;
}

static struct step *add_typed(struct tern_sched *s, enum step_kind kind, struct tern_datatype *dt,
                              struct tern_datatype *ddt)
{
    struct step *st = add(s, kind);
    if (!st) return NULL;
    st->dt = dt;
    st->ddt = ddt;
    tern_dt_retain(dt);
    tern_dt_retain(ddt);
    return st;
}

/* The user's function of an operation gets the datatype's handle, which
 * MPI_Type_free may have released while the operation is pending. */
static void pin_for(struct step *st, struct tern_datatype *dt, struct tern_op *op)
{
    if (op && (op->user_fn || op->user_fn_c)) {
        tern_dt_pin_handle(dt);
        st->pinned = 1;
    }
}

int tern_sched_send(struct tern_sched *s, const void *buf, size_t count, struct tern_datatype *dt,
                    int peer)
{
    struct step *st = add_typed(s, STEP_SEND, dt, NULL);
    if (!st) return s->err;
    st->src = buf;
    st->count = count;
    st->peer = peer;
    return MPI_SUCCESS;
}

int tern_sched_recv(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                    int peer)
{
    struct step *st = add_typed(s, STEP_RECV, dt, NULL);
    if (!st) return s->err;
    st->dst = buf;
    st->count = count;
    st->peer = peer;
    return MPI_SUCCESS;
}

int tern_sched_reduce(struct tern_sched *s, const void *in, void *inout, size_t count,
                      struct tern_datatype *dt, struct tern_op *op)
{
    struct step *st = add_typed(s, STEP_REDUCE, dt, NULL);
    if (!st) return s->err;
    st->src = in;
    st->dst = inout;
    st->count = count;
    st->op = op;
    tern_op_retain(op);
    pin_for(st, dt, op);
    return MPI_SUCCESS;
}

int tern_sched_copy(struct tern_sched *s, const void *src, size_t scount, struct tern_datatype *sdt,
                    void *dst, size_t dcount, struct tern_datatype *ddt)
{
    struct step *st = add_typed(s, STEP_COPY, sdt, ddt);
    if (!st) return s->err;
    st->src = src;
    st->count = scount;
    st->dst = dst;
    st->dcount = dcount;
    return MPI_SUCCESS;
}

int tern_sched_callback(struct tern_sched *s, tern_sched_fn *fn, void *arg)
{
    struct step *st = add(s, STEP_CALLBACK);
    if (!st) return s->err;
    st->fn = fn;
    st->arg = arg;
    return MPI_SUCCESS;
}

int tern_sched_machine(struct tern_sched *s, const struct tern_sched_machine *m, void *arg,
                       struct tern_datatype *dt, struct tern_datatype *ddt, struct tern_op *op)
{
    struct step *st = add_typed(s, STEP_MACHINE, dt, ddt);
    if (!st) return s->err;
    st->mach = m;
    st->arg = arg;
    st->op = op;
    if (op) {
        tern_op_retain(op);
        pin_for(st, dt, op);
    }
    s->machines++;
    return MPI_SUCCESS;
}

int tern_sched_keep(struct tern_sched *s, struct tern_datatype *dt)
{
    return add_typed(s, STEP_KEEP, dt, NULL) ? MPI_SUCCESS : s->err;
}

int tern_sched_round(struct tern_sched *s)
{
    if (s->err) return s->err;
    int last = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (s->nsteps == last) return MPI_SUCCESS;
    if (reserve(&s->round_end, &s->round_cap, s->nrounds, sizeof *s->round_end))
        return stick(s, sizeof *s->round_end * (size_t)(s->nrounds + 1));
    s->round_end[s->nrounds++] = s->nsteps;
    return MPI_SUCCESS;
}

static void *keep(struct tern_sched *s, void *mem, size_t bytes)
{
    if (!mem || reserve(&s->mem, &s->mem_cap, s->nmem, sizeof *s->mem)) {
        tern_coll_tmpfree(mem);
        stick(s, bytes);
        return NULL;
    }
    s->mem[s->nmem++] = mem;
    return mem;
}

void *tern_sched_buf(struct tern_sched *s, size_t bytes)
{
    if (s->err) return NULL;
    void *mem;
    tern_coll_tmpbuf(tern_coll_byte(), bytes, &mem);
    return keep(s, mem, bytes);
}

void *tern_sched_tmp(struct tern_sched *s, const struct tern_datatype *dt, size_t count)
{
    if (s->err) return NULL;
    void *mem;
    char *p = tern_coll_tmpbuf(dt, count, &mem);
    return keep(s, mem, count * dt->size) ? p : NULL;
}

/* ---- running ---- */

static void note_error(struct tern_sched *s, int rc)
{
    if (rc != MPI_SUCCESS && s->run_err == MPI_SUCCESS) s->run_err = rc;
}

/* A send or receive of the current round has completed (or just started
 * complete): its error, if any, becomes the collective's. */
static void retire(struct tern_sched *s, struct step *st)
{
    note_error(s, st->req->status.MPI_ERROR);
    tern_req_release(st->req);
    st->req = NULL;
}

static int first_step(const struct tern_sched *s, int round)
{
    return round ? s->round_end[round - 1] : 0;
}

/* Collects the completed sends and receives of the current round; returns
 * how many are still in flight. */
static int reap(struct tern_sched *s)
{
    for (int i = first_step(s, s->round); i < s->round_end[s->round] && s->pending; i++) {
        struct step *st = &s->steps[i];
        if (st->req && st->req->complete) {
            retire(s, st);
            s->pending--;
        } else if (st->running && st->mach->poll(st->arg)) {
            st->running = 0;
            s->pending--;
        }
    }
    return s->pending;
}

/* A send or receive could not start (out of memory): receives of this
 * round nobody will send to are withdrawn; what already matched finishes. */
static void abort_round(struct tern_sched *s, int rc)
{
    note_error(s, rc);
    s->aborted = 1;
    for (int i = first_step(s, s->round); i < s->round_end[s->round]; i++) {
        struct step *st = &s->steps[i];
        if (st->req && st->kind == STEP_RECV && !st->req->complete && tern_match_unpost(st->req)) {
            tern_req_release(st->req);
            st->req = NULL;
            s->pending--;
        }
    }
}

static void start_round(struct tern_sched *s)
{
    int tag = s->tag;
    for (int i = first_step(s, s->round); i < s->round_end[s->round]; i++) {
        struct step *st = &s->steps[i];
        int rc = MPI_SUCCESS;
        switch (st->kind) {
        case STEP_SEND:
            rc = tern_isend(st->src, st->count, st->dt, st->peer, tag, st->comm, TERN_CTX_COLL,
                            TERN_MODE_STANDARD, &st->req);
            break;
        case STEP_RECV:
            rc = tern_irecv(st->dst, st->count, st->dt, st->peer, tag, st->comm, TERN_CTX_COLL,
                            &st->req);
            break;
        case STEP_REDUCE:
            if (st->count) tern_op_apply(st->op, st->src, st->dst, st->count, st->dt);
            break;
        case STEP_COPY:
            tern_dt_copy(st->src, st->count, st->dt, st->dst, st->dcount, st->ddt);
            break;
        case STEP_CALLBACK: note_error(s, st->fn(st->arg)); break;
        case STEP_MACHINE:
            if (!st->mach->poll(st->arg)) {
                st->running = 1;
                s->pending++;
            }
            break;
        case STEP_KEEP: break;
        }
        if (rc != MPI_SUCCESS) {
            if (st->req) {
                tern_req_release(st->req);
                st->req = NULL;
            }
            abort_round(s, rc);
            return;
        }
        if (!st->req) continue;
        if (st->req->complete)
            retire(s, st);
        else
            s->pending++;
    }
}

/* Runs the schedule as far as it goes without waiting; 1 when finished. */
static int advance(struct tern_sched *s)
{
    for (;;) {
        if (s->round >= 0 && reap(s)) return 0;
        if (s->aborted || s->round + 1 >= s->nrounds) return 1;
        s->round++;
        start_round(s);
    }
}

/* ---- the request ---- */

/* poll_fn: the progress engine and the completion calls come here. */
static int poll_request(struct tern_request *r)
{
    struct tern_sched *s = r->sched;
    if (r->complete) return 1;
    if (s->busy) return 0;
    s->busy = 1;
    int done = advance(s);
    s->busy = 0;
    if (!done) return 0;
    r->status.MPI_ERROR = s->run_err;
    tern_req_poll_remove(r);
    tern_req_complete(r);
    return 1;
}

static void free_request(struct tern_request *r)
{
    tern_sched_free(r->sched);
    r->sched = NULL;
}

/* Starts a run: the first round goes out now, not at the next poll, so the
 * peers see this rank's messages as early as possible. */
static void start(struct tern_request *r)
{
    struct tern_sched *s = r->sched;
    s->round = -1;
    s->pending = 0;
    s->aborted = 0;
    s->run_err = MPI_SUCCESS;
    for (int i = 0; s->machines && i < s->nsteps; i++)
        if (s->steps[i].kind == STEP_MACHINE) s->steps[i].mach->start(s->steps[i].arg);
    r->complete = 0;
    tern_status_empty(&r->status, MPI_ANY_SOURCE);
    tern_req_poll_add(r);
    poll_request(r);
}

/* Wraps s in a collective request, or frees s and returns the error
 * raised on its communicator (rc is the builder's result). */
/* 'raise': whether a failure is raised on the communicator here. */
static int wrap(struct tern_sched *s, int rc, int persistent, int raise, struct tern_request **out)
{
    struct tern_comm *c = s->c;
    struct tern_request *r = NULL;
    *out = NULL; /* on every path, so the callers' reads never look uninitialised */
    if (rc == MPI_SUCCESS) rc = tern_sched_round(s);
    if (rc == MPI_SUCCESS && !(r = tern_req_alloc(TERN_REQ_COLL)))
        rc = tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory allocating a request", s->fn);
    if (rc != MPI_SUCCESS) {
        if (raise) rc = tern_err_raise(c, rc);
        tern_sched_free(s);
        return rc;
    }
    r->comm = c;
    tern_comm_retain(c);
    r->sched = s;
    r->poll_fn = poll_request;
    r->free_fn = free_request;
    r->persistent = (uint8_t)(persistent != 0);
    *out = r;
    return MPI_SUCCESS;
}

int tern_sched_post(struct tern_sched *s, int rc, int persistent, MPI_Request *out)
{
    struct tern_request *r = NULL;
    if ((rc = wrap(s, rc, persistent, 1, &r)) != MPI_SUCCESS) return rc;
    *out = r->handle;
    if (!persistent) start(r);
    return MPI_SUCCESS;
}

int tern_sched_run(struct tern_sched *s, int rc)
{
    struct tern_request *r = NULL;
    if ((rc = wrap(s, rc, 0, 0, &r)) != MPI_SUCCESS) return rc;
    start(r);
    return tern_wait(r, MPI_STATUS_IGNORE); /* frees r; the caller's handle keeps c */
}

int tern_sched_restart(struct tern_request *r)
{
    start(r);
    return MPI_SUCCESS;
}
