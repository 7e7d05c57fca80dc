/* Partitioned point-to-point: the hello that pairs the two sides, one
 * message per send partition, and the receive side's bookkeeping of which
 * of its partitions are whole.  See part.h for the design. */
#include "p2p/part.h"

#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/objects.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "msg/match.h"
#include "p2p/p2p.h"
#include "p2p/p2p_internal.h"
#include "msg/status.h"

/* What the receiver learns of the sender's cut of the buffer. */
struct hello {
    uint64_t parts;      /* send partitions */
    uint64_t part_bytes; /* packed bytes in each */
    uint64_t tag_first;  /* see data_tag() */
};

struct part {
    int is_send;
    int parts;                  /* this side's partitions */
    size_t part_bytes;          /* packed bytes in one of them */
    struct tern_request *hello; /* until it completed and was read */
    /* One message per send partition: the send side's own partitions, or
     * on the receive side the sender's (known once the hello is in). */
    struct tern_request **sub;
    int nsub;
    uint8_t *flag; /* per sub: readied (send) / landed (receive) this round */
    int nflag;
    int scan; /* subs below this index are known complete this round */
    uint32_t tag_first;

    /* receive side */
    int matched;       /* the hello has been read and the subs exist */
    int posted;        /* this round's receives are posted */
    int listed;        /* in the progress engine's poll list */
    int failed;        /* setting up after the hello failed: every round ends with it */
    size_t peer_bytes; /* bytes of one send partition */
    size_t total;      /* bytes that land: min(what is sent, what fits) */
    char *staging;     /* send partitions do not fall on whole elements: they land here first */
};

/* ---- tags ---- */

/* Data tags are -2, -3, ... -INT_MAX: never a user tag, never MPI_ANY_TAG.
 * Each send request takes a run of them, one per partition; the run only
 * has to differ from the runs of this process's other live send requests,
 * since a receiver also tells senders apart by rank. */
#define TAG_SPAN ((uint64_t)INT_MAX - 1u)
static uint64_t next_tag;

static int data_tag(uint32_t first, int p)
{
    return -2 - (int)(((uint64_t)first + (uint64_t)p) % TAG_SPAN);
}

/* ---- requests ---- */

static struct tern_datatype *byte_type(void) { return tern_dt_get(MPI_BYTE); }

static void hello_buf_free(struct tern_request *h) { free(h->buf); }

/* A receive that will never be read (its request was freed before its
 * partner's hello arrived) still takes that hello, so later requests of
 * the same envelope pair as MPI says; the bytes go here. */
static struct hello discarded_hello;

static void part_free(struct tern_request *r)
{
    struct part *pt = r->sched;
    if (!pt) return;
    if (pt->listed) tern_req_poll_remove(r);
    for (int k = 0; k < pt->nsub; k++) {
        struct tern_request *s = pt->sub[k];
        if (s && s->comm)
            tern_req_release(s);
        else if (s)
            tern_req_free(s); /* allocation failed before it was bound */
    }
    struct tern_request *h = pt->hello;
    if (h && h->complete) {
        tern_req_release(h);
    } else if (h) {
        if (!pt->is_send) {
            free(h->buf);
            h->buf = &discarded_hello;
            h->free_fn = NULL;
        }
        tern_req_orphan(h);
    }
    free(pt->sub);
    free(pt->flag);
    free(pt->staging);
    free(pt);
    r->sched = NULL;
    tern_dt_release(r->dt);
}

static int recv_poll(struct tern_request *r);
static int send_poll(struct tern_request *r);

/* The request and its state, bound to the user's arguments. */
static int part_new(int is_send, void *buf, int partitions, size_t count, struct tern_datatype *dt,
                    int peer, int tag, struct tern_comm *comm, struct tern_request **out)
{
    struct tern_request *r = tern_req_alloc(TERN_REQ_PART);
    struct part *pt = calloc(1, sizeof *pt);
    *out = NULL; /* on every path, so the callers' reads never look uninitialised */
    if (!r || !pt) {
        if (r) tern_req_free(r);
        free(pt);
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory allocating a partitioned request");
    }
    tern_req_bind(r, buf, count, dt, peer, tag, comm, TERN_CTX_PART);
    r->persistent = 1;
    r->sched = pt;
    r->free_fn = part_free;
    r->poll_fn = is_send ? send_poll : recv_poll;
    pt->is_send = is_send;
    pt->parts = partitions;
    pt->part_bytes = count * dt->size;
    *out = r;
    return MPI_SUCCESS;
}

/* The hello exchange: the send side's goes out now; the receive side's
 * receive is posted now, in initialisation order. */
static int hello_start(struct tern_request *r, struct hello *msg)
{
    struct hello *buf = malloc(sizeof *buf);
    if (!buf)
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory for a partitioned request's handshake");
    struct part *pt = r->sched;
    int rc;
    if (msg) {
        *buf = *msg;
        rc = tern_isend(buf, sizeof *buf, byte_type(), r->peer, r->tag, r->comm, TERN_CTX_PART,
                        TERN_MODE_STANDARD, &pt->hello);
    } else {
        rc = tern_irecv(buf, sizeof *buf, byte_type(), r->peer, r->tag, r->comm, TERN_CTX_PART,
                        &pt->hello);
    }
    if (rc != MPI_SUCCESS) {
        free(buf);
        return rc;
    }
    pt->hello->free_fn = hello_buf_free;
    return MPI_SUCCESS;
}

/* ns sub-requests and their flags. */
static int subs_alloc(struct part *pt, int ns)
{
    pt->sub = calloc(ns ? (size_t)ns : 1, sizeof *pt->sub);
    pt->flag = calloc(ns ? (size_t)ns : 1, 1);
    if (!pt->sub || !pt->flag)
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory for %d partitions", ns);
    pt->nsub = ns;
    for (int k = 0; k < ns; k++) {
        pt->sub[k] = tern_req_alloc(pt->is_send ? TERN_REQ_SEND : TERN_REQ_RECV);
        if (!pt->sub[k])
            return tern_err_make(MPI_ERR_NO_MEM, "out of memory for %d partitions", ns);
        pt->sub[k]->persistent = 1;
    }
    return MPI_SUCCESS;
}

int tern_part_send_init(const void *buf, int partitions, size_t count, struct tern_datatype *dt,
                        int dest, int tag, struct tern_comm *comm, struct tern_request **out)
{
    struct tern_request *r;
    int rc = part_new(1, (void *)buf, partitions, count, dt, dest, tag, comm, &r);
    if (rc != MPI_SUCCESS) return rc;
    struct part *pt = r->sched;
    pt->tag_first = (uint32_t)next_tag;
    next_tag = (next_tag + (uint64_t)partitions) % TAG_SPAN;
    rc = subs_alloc(pt, partitions);
    for (int p = 0; rc == MPI_SUCCESS && p < partitions; p++) {
        const char *at = (const char *)buf + (MPI_Aint)((size_t)p * count) * dt->extent;
        tern_req_bind(pt->sub[p], (void *)at, count, dt, dest, data_tag(pt->tag_first, p), comm,
                      TERN_CTX_PART);
        pt->sub[p]->mode = TERN_MODE_STANDARD;
    }
    if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {
        struct hello h = {(uint64_t)partitions, pt->part_bytes, pt->tag_first};
        rc = hello_start(r, &h);
    }
    if (rc != MPI_SUCCESS) {
        tern_req_release(r);
        return rc;
    }
    *out = r;
    return MPI_SUCCESS;
}

int tern_part_recv_init(void *buf, int partitions, size_t count, struct tern_datatype *dt,
                        int source, int tag, struct tern_comm *comm, struct tern_request **out)
{
    struct tern_request *r;
    int rc = part_new(0, buf, partitions, count, dt, source, tag, comm, &r);
    if (rc != MPI_SUCCESS) return rc;
    struct part *pt = r->sched;
    if (source == MPI_PROC_NULL) {
        /* Nothing will come: a round ends as soon as it starts. */
        pt->matched = 1;
        rc = subs_alloc(pt, 0);
    } else {
        rc = hello_start(r, NULL);
    }
    if (rc != MPI_SUCCESS) {
        tern_req_release(r);
        return rc;
    }
    *out = r;
    return MPI_SUCCESS;
}

int tern_part_is_send(const struct tern_request *r)
{
    return ((const struct part *)r->sched)->is_send;
}
int tern_part_count(const struct tern_request *r) { return ((const struct part *)r->sched)->parts; }

/* ---- the receive side ---- */

/* Reads the hello and makes one receive per send partition: straight into
 * the user's buffer when every send partition is a whole number of
 * receive elements, else into a staging copy unpacked as each lands. */
static int recv_match(struct tern_request *r)
{
    struct part *pt = r->sched;
    struct tern_request *h = pt->hello;
    int rc = h->status.MPI_ERROR;
    struct hello msg = *(const struct hello *)h->buf;
    tern_req_release(h);
    pt->hello = NULL;
    pt->matched = 1;
    if (rc != MPI_SUCCESS) return rc;
    if (msg.parts > (uint64_t)INT_MAX)
        return tern_err_make(MPI_ERR_INTERN,
                             "partitioned receive: corrupt handshake (%llu partitions)",
                             (unsigned long long)msg.parts);
    size_t cap = (size_t)pt->parts * pt->part_bytes, esize = r->dt->size;
    size_t sent = (size_t)msg.parts * (size_t)msg.part_bytes;
    pt->peer_bytes = (size_t)msg.part_bytes;
    pt->tag_first = (uint32_t)msg.tag_first;
    pt->total = sent < cap ? sent : cap;
    int direct = sent == cap && (esize == 0 || pt->peer_bytes % esize == 0);
    if (!direct && pt->total && !(pt->staging = malloc(pt->total)))
        return tern_err_make(MPI_ERR_NO_MEM,
                             "partitioned receive: out of memory for a %zu-byte staging buffer",
                             pt->total);
    if ((rc = subs_alloc(pt, (int)msg.parts)) != MPI_SUCCESS) return rc;
    size_t elems = esize ? pt->peer_bytes / esize : 0;
    for (int k = 0; k < pt->nsub; k++) {
        size_t off = (size_t)k * pt->peer_bytes;
        int tag = data_tag(pt->tag_first, k);
        if (direct) {
            char *at = (char *)r->buf + (MPI_Aint)((size_t)k * elems) * r->dt->extent;
            tern_req_bind(pt->sub[k], at, elems, r->dt, r->peer, tag, r->comm, TERN_CTX_PART);
        } else {
            /* What does not fit is received into nothing: point-to-point
             * then reports the truncation. */
            size_t len = off >= pt->total                   ? 0
                         : pt->total - off < pt->peer_bytes ? pt->total - off
                                                            : pt->peer_bytes;
            tern_req_bind(pt->sub[k], len ? pt->staging + off : NULL, len, byte_type(), r->peer,
                          tag, r->comm, TERN_CTX_PART);
        }
    }
    return MPI_SUCCESS;
}

static void unlist(struct tern_request *r)
{
    struct part *pt = r->sched;
    if (!pt->listed) return;
    tern_req_poll_remove(r);
    pt->listed = 0;
}

/* Send partition k's receive completed: its bytes go into place. */
static void land(struct tern_request *r, int k)
{
    struct part *pt = r->sched;
    struct tern_request *s = pt->sub[k];
    if (pt->staging && s->count)
        tern_dt_unpack(r->dt, r->buf, (size_t)pt->parts * r->count, (size_t)k * pt->peer_bytes,
                       s->buf, s->count);
    if (s->status.MPI_ERROR != MPI_SUCCESS && r->status.MPI_ERROR == MPI_SUCCESS)
        r->status.MPI_ERROR = s->status.MPI_ERROR;
    pt->flag[k] = 1;
    pt->nflag++;
}

/* Whether send partitions lo..hi have all landed (landing those that completed). */
static int landed(struct tern_request *r, int lo, int hi)
{
    struct part *pt = r->sched;
    int all = 1;
    for (int k = lo; k <= hi; k++) {
        if (pt->flag[k]) continue;
        if (pt->sub[k]->complete)
            land(r, k);
        else
            all = 0;
    }
    return all;
}

/* Gets a started receive as far as it can go without waiting: read the
 * hello, post the round's receives.  Returns 0 while the hello is out. */
static int recv_advance(struct tern_request *r)
{
    struct part *pt = r->sched;
    if (pt->posted) return 1;
    if (!pt->matched) {
        if (!pt->hello->complete) return 0;
        pt->failed = recv_match(r);
    }
    unlist(r);
    pt->posted = 1;
    if (pt->failed) {
        r->status.MPI_ERROR = pt->failed;
        return 1;
    }
    for (int k = 0; k < pt->nsub; k++) tern_recv_start(pt->sub[k]);
    return 1;
}

static int recv_poll(struct tern_request *r)
{
    struct part *pt = r->sched;
    if (r->complete || !recv_advance(r)) return 0;
    if (!pt->failed) {
        while (pt->scan < pt->nsub && (pt->flag[pt->scan] || pt->sub[pt->scan]->complete)) {
            if (!pt->flag[pt->scan]) land(r, pt->scan);
            pt->scan++;
        }
        if (pt->scan < pt->nsub) return 0;
    }
    int err = r->status.MPI_ERROR;
    if (r->peer == MPI_PROC_NULL) {
        tern_status_empty(&r->status, MPI_PROC_NULL);
    } else {
        r->status.MPI_SOURCE = r->peer;
        r->status.MPI_TAG = r->tag;
        tern_status_set_cancelled(&r->status, 0);
        tern_status_set_bytes(&r->status, pt->failed ? 0 : pt->total);
    }
    r->status.MPI_ERROR = err;
    tern_req_complete(r);
    return 1;
}

int tern_part_arrived(struct tern_request *r, int p)
{
    struct part *pt = r->sched;
    for (int pass = 0;; pass++) {
        if (recv_advance(r)) {
            if (pt->failed) return 1;
            /* The bytes of partition p that will land: those that fit and are sent. */
            size_t lo = (size_t)p * pt->part_bytes, hi = lo + pt->part_bytes;
            if (hi > pt->total) hi = pt->total;
            if (lo >= hi) {
                /* An empty partition (or one beyond what is sent) is there
                 * once the whole message is. */
                if (recv_poll(r) || r->complete) return 1;
            } else if (landed(r, (int)(lo / pt->peer_bytes), (int)((hi - 1) / pt->peer_bytes))) {
                return 1;
            }
        }
        if (pass) {
            /* Callers poll this in a loop: when ranks outnumber cores the
             * sender needs the core more than this rank does. */
            if (tern_g.wait_yield) sched_yield();
            return 0;
        }
        tern_progress();
    }
}

/* ---- the send side ---- */

static int send_poll(struct tern_request *r)
{
    struct part *pt = r->sched;
    if (pt->hello && pt->hello->complete) {
        if (pt->hello->status.MPI_ERROR != MPI_SUCCESS && r->status.MPI_ERROR == MPI_SUCCESS)
            r->status.MPI_ERROR = pt->hello->status.MPI_ERROR;
        tern_req_release(pt->hello);
        pt->hello = NULL;
    }
    if (r->complete || pt->nflag < pt->parts) return 0;
    while (pt->scan < pt->nsub && pt->sub[pt->scan]->complete) {
        int e = pt->sub[pt->scan++]->status.MPI_ERROR;
        if (e != MPI_SUCCESS && r->status.MPI_ERROR == MPI_SUCCESS) r->status.MPI_ERROR = e;
    }
    if (pt->scan < pt->nsub) return 0;
    int err = r->status.MPI_ERROR;
    tern_status_empty(&r->status, r->peer == MPI_PROC_NULL ? MPI_PROC_NULL : MPI_ANY_SOURCE);
    r->status.MPI_ERROR = err;
    tern_req_complete(r);
    return 1;
}

static int bad_partition(const char *fn, struct part *pt, int p, const char *why)
{
    if (why)
        return tern_err_make(MPI_ERR_ARG,
                             "%s: partition %d %s in this round (each partition is marked ready "
                             "once per MPI_Start)",
                             fn, p, why);
    return tern_err_make(
        MPI_ERR_ARG, "%s: partition %d is out of range (the request has %d partition%s%s)", fn, p,
        pt->parts, pt->parts == 1 ? "" : "s", pt->parts ? "" : ": none can be marked ready");
}

int tern_part_ready(const char *fn, struct tern_request *r, const int *list, int first, int n)
{
    struct part *pt = r->sched;
    /* Flag 2 marks a partition this call claims, so nothing is sent unless
     * every one is valid, and a partition named twice is caught. */
    int i, rc = MPI_SUCCESS;
    for (i = 0; i < n; i++) {
        int p = list ? list[i] : first + i;
        if (p < 0 || p >= pt->parts)
            rc = bad_partition(fn, pt, p, NULL);
        else if (pt->flag[p])
            rc = bad_partition(fn, pt, p,
                               pt->flag[p] == 2 ? "is named twice" : "was already marked ready");
        if (rc != MPI_SUCCESS) break;
        pt->flag[p] = 2;
    }
    if (rc != MPI_SUCCESS) {
        while (i-- > 0) pt->flag[list ? list[i] : first + i] = 0;
        return rc;
    }
    for (i = 0; i < n; i++) {
        int p = list ? list[i] : first + i;
        pt->flag[p] = 1;
        pt->nflag++;
        int e = tern_send_start(pt->sub[p]);
        if (e != MPI_SUCCESS) {
            /* The partition is lost: the request completes with the error. */
            pt->sub[p]->status.MPI_ERROR = e;
            tern_req_complete(pt->sub[p]);
            if (rc == MPI_SUCCESS) rc = e;
        }
    }
    return rc;
}

/* ---- starting a round ---- */

int tern_part_start(struct tern_request *r)
{
    struct part *pt = r->sched;
    r->complete = 0;
    r->cancelled = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    if (pt->nsub) memset(pt->flag, 0, (size_t)pt->nsub);
    pt->nflag = 0;
    pt->scan = 0;
    if (pt->is_send) {
        send_poll(r); /* no partitions: done at once */
        return MPI_SUCCESS;
    }
    pt->posted = 0;
    if (!recv_advance(r)) {
        /* The hello is still out: every progress pass looks for it, so the
         * receives get posted even while this rank waits on something else. */
        tern_req_poll_add(r);
        pt->listed = 1;
    }
    recv_poll(r);
    return MPI_SUCCESS;
}
