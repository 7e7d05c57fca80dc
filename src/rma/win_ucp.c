/* UCP put and get for windows that span hosts (win_am.h): the memory of
 * windows MPI can register (MPI_Win_create, MPI_Win_allocate) is
 * registered with UCP at creation and every member's packed remote key
 * allgathered; a key is unpacked the first time this rank reaches that
 * member, so a window over many ranks costs one pointer per member never
 * touched.  Contiguous puts and gets then go to the target's memory with
 * ucp_put_nbx and ucp_get_nbx; flushes and unlocks complete them
 * (requests, then ucp_ep_flush_nbx for remote completion of puts) before
 * the message path's own completion.
 *
 * Accumulate-family operations take UCP's atomics only where atomicity
 * allows a second path: the window's info says accumulate_ops=same_op, so
 * every concurrent accumulate to a location uses one op, and MPI_SUM and
 * MPI_REPLACE (fetching or not) and compare-and-swap on 4- and 8-byte
 * integers go through UCP always, this rank's own memory included, while
 * every other op and type goes through the target's messages always.  A
 * location thus sees one path for all its concurrent accumulates.  With
 * the default same_op_no_op a location may see MPI_NO_OP beside any op,
 * and UCP has no atomic for most ops: everything keeps the messages.
 *
 * Passive-target locks of these windows are UCP atomics on a lock word
 * per member (a registered line of its own): the target's lock messages
 * are never used for them.  Unlocking waits until the operations on
 * messages are applied, then releases the word.
 *
 * Also on messages: derived datatypes of puts and gets, dynamic windows
 * (memory attached later would need keys sent per region), fences and
 * post-start-complete-wait.  Put and get against an accumulate to the same
 * bytes conflict in MPI's terms whichever path they take. */
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "coll/coll.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/pvars.h"
#include "rma/win_am.h"

#if defined(TERN_WITH_UCX)
#include "transport/ucx/ucx.h"

/* Requests this rank keeps before it tests them all for completion. */
#define REQS_REAP 256

struct tern_win_ucp {
    void *memh;     /* this rank's registration, NULL for no bytes */
    char *keys;     /* every member's packed keys, stride bytes apart: */
    uint32_t *klen; /* the window's (0: that member registered nothing), */
    size_t kmax;    /* then at this offset its lock word's */
    size_t stride;
    void **rkey;     /* unpacked on first use, per member */
    uint64_t *lockw; /* this rank's lock word */
    void *lmemh;
    uint64_t *laddr;      /* every member's lock word */
    void **lrkey;         /* unpacked on first use */
    struct ucp_req *reqs; /* started, not yet seen complete */
    size_t nreqs, cap;
    int *dirty; /* members with puts not yet flushed to them */
    int ndirty;
    uint8_t *is_dirty;
};
struct ucp_req {
    void *req;
    int target;
};

struct key_offer {
    int32_t ok;
    uint32_t len, llen, pad_;
    uint64_t laddr;
};

static void ucp_free(struct tern_win_ucp *u)
{
    tern_ucx_mem_unmap(u->lmemh);
    tern_ucx_mem_unmap(u->memh);
    free(u->lockw);
    free(u->laddr);
    free(u->lrkey);
    free(u->keys);
    free(u->klen);
    free(u->rkey);
    free(u->reqs);
    free(u->dirty);
    free(u->is_dirty);
    free(u);
}

int tern_win_ucp_open(struct tern_win *w, struct tern_comm *comm, void *base, size_t size)
{
    int n = w->size;
    struct key_offer mine = {0}, *all = calloc((size_t)n, sizeof *all);
    struct tern_win_ucp *u = calloc(1, sizeof *u);
    if (!all || !u) tern_fatal("out of memory for a window of %d ranks", n);
    void *packed = NULL, *lpacked = NULL;
    size_t plen = 0, lplen = 0;
    mine.ok = tern_param.rma_ucp && tern_ucx_up() &&
              (w->flavor == MPI_WIN_FLAVOR_CREATE || w->flavor == MPI_WIN_FLAVOR_ALLOCATE);
    /* A registration that fails leaves the window on messages, for all. */
    if (mine.ok && size > 0 && tern_ucx_mem_map(base, size, &u->memh, &packed, &plen)) mine.ok = 0;
    /* The lock word: a line of its own, registered apart from the window
     * (user memory, or none at all). */
    if (mine.ok && (!(u->lockw = aligned_alloc(64, 64)) ||
                    tern_ucx_mem_map(u->lockw, 64, &u->lmemh, &lpacked, &lplen)))
        mine.ok = 0;
    if (u->lockw) *u->lockw = 0;
    mine.len = (uint32_t)plen;
    mine.llen = (uint32_t)lplen;
    mine.laddr = (uint64_t)(uintptr_t)u->lockw;
    struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
    int rc = tern_coll_allgather(&mine, sizeof mine, byte, all, sizeof mine, byte, comm);
    int ok = !rc;
    size_t lmax = 0;
    for (int r = 0; r < n && ok; r++) {
        ok = all[r].ok;
        if (all[r].len > u->kmax) u->kmax = all[r].len;
        if (all[r].llen > lmax) lmax = all[r].llen;
    }
    if (ok) {
        u->stride = u->kmax + lmax;
        char *pad = calloc(1, u->stride);
        u->keys = malloc((size_t)n * u->stride);
        u->klen = malloc((size_t)n * sizeof *u->klen);
        u->rkey = calloc((size_t)n, sizeof *u->rkey);
        u->laddr = malloc((size_t)n * sizeof *u->laddr);
        u->lrkey = calloc((size_t)n, sizeof *u->lrkey);
        if (!pad || !u->keys || !u->klen || !u->rkey || !u->laddr || !u->lrkey)
            tern_fatal("out of memory for the remote keys of a window of %d ranks", n);
        if (plen) memcpy(pad, packed, plen);
        memcpy(pad + u->kmax, lpacked, lplen);
        rc = tern_coll_allgather(pad, u->stride, byte, u->keys, u->stride, byte, comm);
        free(pad);
        for (int r = 0; r < n; r++) {
            u->klen[r] = all[r].len;
            u->laddr[r] = all[r].laddr;
        }
    }
    free(packed);
    free(lpacked);
    free(all);
    if (!ok || rc) {
        ucp_free(u);
        return rc;
    }
    w->am->ucp = u;
    return MPI_SUCCESS;
}

void tern_win_ucp_close(struct tern_win *w)
{
    struct tern_win_ucp *u = w->am->ucp;
    if (!u) return;
    tern_win_ucp_flush(w, -1);
    for (int r = 0; r < w->size; r++) {
        tern_ucx_rkey_destroy(u->rkey[r]);
        tern_ucx_rkey_destroy(u->lrkey[r]);
    }
    ucp_free(u);
    w->am->ucp = NULL;
}

/* Drops the requests found complete (of 'target', or all when < 0); the
 * first error stays in the window for its next synchronisation. */
static size_t reap(struct tern_win *w, int target)
{
    struct tern_win_ucp *u = w->am->ucp;
    size_t k = 0, left = 0;
    for (size_t i = 0; i < u->nreqs; i++) {
        struct ucp_req q = u->reqs[i];
        int err = MPI_SUCCESS;
        if ((target < 0 || q.target == target) && tern_ucx_req_test(q.req, &err)) {
            if (err && !w->am->err) w->am->err = err;
            continue;
        }
        left += target < 0 || q.target == target;
        u->reqs[k++] = q;
    }
    u->nreqs = k;
    return left;
}

static int keep(struct tern_win *w, void *req, int target)
{
    struct tern_win_ucp *u = w->am->ucp;
    if (!req) return MPI_SUCCESS;
    if (u->nreqs == u->cap && u->nreqs >= REQS_REAP) reap(w, -1);
    if (u->nreqs == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 16;
        struct ucp_req *t = realloc(u->reqs, cap * sizeof *t);
        if (!t) tern_fatal("out of memory for one-sided requests");
        u->reqs = t;
        u->cap = cap;
    }
    u->reqs[u->nreqs++] = (struct ucp_req){req, target};
    return MPI_SUCCESS;
}

static int mark_dirty(struct tern_win *w, int target)
{
    struct tern_win_ucp *u = w->am->ucp;
    if (!u->is_dirty) {
        u->is_dirty = calloc((size_t)w->size, 1);
        u->dirty = malloc((size_t)w->size * sizeof *u->dirty);
        if (!u->is_dirty || !u->dirty) tern_fatal("out of memory for a window's flush list");
    }
    if (!u->is_dirty[target]) {
        u->is_dirty[target] = 1;
        u->dirty[u->ndirty++] = target;
    }
    return MPI_SUCCESS;
}

/* The key of 'rank', or NULL when this operation is not for UCP. */
static void *rkey_for(struct tern_win *w, int rank, const struct tern_datatype *odt,
                      const struct tern_datatype *tdt, int *rc)
{
    struct tern_win_ucp *u = w->am->ucp;
    *rc = MPI_SUCCESS;
    if (!u || !odt->contig || !tdt->contig || !u->klen[rank]) return NULL;
    if (!u->rkey[rank]) {
        *rc = tern_ucx_rkey_unpack(w->peer[rank].world, u->keys + (size_t)rank * u->stride,
                                   &u->rkey[rank]);
        if (*rc) *rc = tern_win_raise(w, *rc);
    }
    return u->rkey[rank];
}

int tern_win_ucp_put(struct tern_win *w, struct tern_rma_side o, int rank, uint64_t raddr,
                     size_t tcount, struct tern_datatype *tdt)
{
    int rc;
    void *rkey = rkey_for(w, rank, o.dt, tdt, &rc), *req = NULL;
    if (!rkey) return rc ? rc : -1;
    rc = tern_ucx_put(w->peer[rank].world, (const char *)o.buf + o.dt->true_lb, tcount * tdt->size,
                      raddr + (uint64_t)tdt->true_lb, rkey, &req);
    if (rc) return tern_win_raise(w, rc);
    tern_pv.ucx_rma.ops++;
    tern_pv.ucx_rma.bytes += tcount * tdt->size;
    mark_dirty(w, rank);
    return keep(w, req, rank);
}

int tern_win_ucp_get(struct tern_win *w, struct tern_rma_side o, int rank, uint64_t raddr,
                     size_t tcount, struct tern_datatype *tdt)
{
    int rc;
    void *rkey = rkey_for(w, rank, o.dt, tdt, &rc), *req = NULL;
    if (!rkey) return rc ? rc : -1;
    rc = tern_ucx_get(w->peer[rank].world, (char *)o.buf + o.dt->true_lb, tcount * tdt->size,
                      raddr + (uint64_t)tdt->true_lb, rkey, &req);
    if (rc) return tern_win_raise(w, rc);
    tern_pv.ucx_rma.ops++;
    tern_pv.ucx_rma.bytes += tcount * tdt->size;
    return keep(w, req, rank);
}

static int amo_ok(struct tern_win *w, int rank, uint64_t taddr, size_t es, int is_int)
{
    struct tern_win_ucp *u = w->am->ucp;
    return u && u->klen[rank] && is_int && (es == 4 || es == 8) && taddr % es == 0 &&
           strcmp(w->acc_ops, "same_op") == 0;
}

static void *amo_rkey(struct tern_win *w, int rank, int *rc)
{
    static struct tern_datatype *byte;
    if (!byte) byte = tern_dt_get(MPI_BYTE);
    return rkey_for(w, rank, byte, byte, rc);
}

/* Issues n atomics on consecutive elements from taddr; reply: each old
 * value (n * es bytes), or NULL. */
static int amo_run(struct tern_win *w, int rank, void *rkey, enum tern_ucx_amo code, uint64_t taddr,
                   const char *obuf, char *reply, size_t n, size_t es)
{
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < n && !rc; i++) {
        void *req = NULL;
        rc = tern_ucx_atomic(w->peer[rank].world, code, obuf + i * es, es, taddr + i * es, rkey,
                             reply ? reply + i * es : NULL, &req);
        if (!rc) rc = keep(w, req, rank);
    }
    if (!rc) {
        tern_pv.ucx_rma.ops += n;
        tern_pv.ucx_rma.bytes += n * es;
        mark_dirty(w, rank);
    }
    return rc;
}

/* Whether every piece of tdt's layout at taddr holds whole aligned
 * elements. */
static int layout_aligned(uint64_t taddr, size_t tcount, const struct tern_datatype *tdt, size_t es)
{
    struct tern_dt_view v;
    struct iovec iov[64];
    size_t bytes = tcount * tdt->size;
    tern_dt_view_local(&v, tdt, (const void *)(uintptr_t)taddr, tcount);
    for (size_t off = 0; off < bytes;) {
        size_t got, k = tern_dt_view_iov(&v, off, bytes - off, iov, 64, &got);
        for (size_t i = 0; i < k; i++)
            if ((uintptr_t)iov[i].iov_base % es || iov[i].iov_len % es) return 0;
        off += got;
    }
    return 1;
}

int tern_win_ucp_acc(struct tern_win *w, int rank, uint64_t taddr, size_t tcount,
                     struct tern_datatype *tdt, struct tern_rma_side o, struct tern_rma_side res,
                     size_t es, int is_int, MPI_Op op)
{
    struct tern_win_ucp *u = w->am->ucp;
    if (!u || !u->klen[rank] || !is_int || (es != 4 && es != 8) ||
        (op != MPI_SUM && op != MPI_REPLACE) || strcmp(w->acc_ops, "same_op") != 0 ||
        !layout_aligned(taddr, tcount, tdt, es))
        return -1;
    int rc;
    void *rkey = amo_rkey(w, rank, &rc);
    if (!rkey) return rc ? rc : -1;
    enum tern_ucx_amo code = op == MPI_SUM ? TERN_UCX_AMO_ADD : TERN_UCX_AMO_SWAP;
    size_t tb = tcount * tdt->size;
    /* Contiguous everywhere, with a place for the old values: straight
     * between the user's buffers, completed by the synchronisation. */
    if (tdt->contig && o.dt->contig && (res.buf ? res.dt->contig : op == MPI_SUM)) {
        rc = amo_run(w, rank, rkey, code, taddr + (uint64_t)tdt->true_lb,
                     (const char *)o.buf + o.dt->true_lb,
                     res.buf ? (char *)res.buf + res.dt->true_lb : NULL, tb / es, es);
        return rc ? tern_win_raise(w, rc) : MPI_SUCCESS;
    }
    /* Otherwise through packed copies, which live until the atomics are
     * done: this call waits for them (a swap always returns the old value,
     * so MPI_REPLACE needs a place for it even without a result). */
    char *obuf = malloc(tb), *old = res.buf || op == MPI_REPLACE ? malloc(tb) : NULL;
    if (!obuf || (!old && (res.buf || op == MPI_REPLACE))) {
        free(obuf);
        free(old);
        return tern_win_err(w, MPI_ERR_NO_MEM, "out of memory for %zu bytes", tb);
    }
    tern_dt_pack(o.dt, o.buf, o.count, 0, obuf, tb);
    struct tern_dt_view v;
    struct iovec iov[64];
    tern_dt_view_local(&v, tdt, (const void *)(uintptr_t)taddr, tcount);
    for (size_t off = 0; off < tb && !rc;) {
        size_t got, k = tern_dt_view_iov(&v, off, tb - off, iov, 64, &got);
        for (size_t i = 0, at = off; i < k && !rc; at += iov[i].iov_len, i++)
            rc = amo_run(w, rank, rkey, code, (uint64_t)(uintptr_t)iov[i].iov_base, obuf + at,
                         old ? old + at : NULL, iov[i].iov_len / es, es);
        off += got;
    }
    struct tern_waiter wt = TERN_WAITER_INIT;
    while (reap(w, rank)) tern_progress_wait(&wt);
    if (!rc && res.buf) tern_dt_unpack(res.dt, (void *)res.buf, res.count, 0, old, tb);
    free(obuf);
    free(old);
    return rc ? tern_win_raise(w, rc) : MPI_SUCCESS;
}

int tern_win_ucp_cas(struct tern_win *w, int rank, uint64_t taddr, const void *origin,
                     const void *compare, void *result, size_t es, int is_int)
{
    if (!amo_ok(w, rank, taddr, es, is_int)) return -1;
    int rc;
    void *rkey = amo_rkey(w, rank, &rc);
    if (!rkey) return rc ? rc : -1;
    void *req = NULL;
    /* The new value goes in the reply buffer, which the old one replaces. */
    memmove(result, origin, es);
    rc = tern_ucx_atomic(w->peer[rank].world, TERN_UCX_AMO_CSWAP, compare, es, taddr, rkey, result,
                         &req);
    if (!rc) rc = keep(w, req, rank);
    if (rc) return tern_win_raise(w, rc);
    tern_pv.ucx_rma.ops++;
    tern_pv.ucx_rma.bytes += es;
    return MPI_SUCCESS;
}

/* ---- locks ---- */

/* The lock word: shared holders count in the low half, an exclusive
 * holder sets EXCL.  Exclusive: compare-and-swap 0 -> EXCL.  Shared: add
 * one; finding EXCL, take it back and retry.  Unlock: subtract.  Waiting
 * backs off by progress passes (serving this rank's own targets), doubling
 * up to a limit: each try is a round trip to the target. */
#define EXCL ((uint64_t)1 << 32)
#define BACKOFF_MAX 256

int tern_win_ucp_has_locks(const struct tern_win *w) { return w->am->ucp != NULL; }

/* One atomic on rank's lock word, waited for; the old value. */
static uint64_t lock_amo(struct tern_win *w, int rank, enum tern_ucx_amo code, uint64_t val,
                         uint64_t swap)
{
    struct tern_win_ucp *u = w->am->ucp;
    int world = w->peer[rank].world, rc = MPI_SUCCESS, err = MPI_SUCCESS;
    if (!u->lrkey[rank])
        rc = tern_ucx_rkey_unpack(world, u->keys + (size_t)rank * u->stride + u->kmax,
                                  &u->lrkey[rank]);
    uint64_t reply = swap;
    void *req = NULL;
    tern_pv.ucx_rma.lock_amos++;
    if (!rc)
        rc = tern_ucx_atomic(world, code, &val, 8, u->laddr[rank], u->lrkey[rank], &reply, &req);
    struct tern_waiter wt = TERN_WAITER_INIT;
    if (!rc && req)
        while (!tern_ucx_req_test(req, &err)) tern_progress_wait(&wt);
    if (rc || err)
        tern_fatal("cannot reach the lock of rank %d of %s: %s", rank, tern_win_name(w),
                   tern_err_text(rc ? rc : err));
    return reply;
}

static void backoff(unsigned *n)
{
    struct tern_waiter wt = TERN_WAITER_INIT;
    for (unsigned i = 0; i < *n; i++) tern_progress_wait(&wt);
    if (*n < BACKOFF_MAX) *n *= 2;
}

void tern_win_ucp_lock(struct tern_win *w, int rank, int exclusive)
{
    unsigned n = 1;
    if (exclusive) {
        while (lock_amo(w, rank, TERN_UCX_AMO_CSWAP, 0, EXCL) != 0) backoff(&n);
        return;
    }
    while (lock_amo(w, rank, TERN_UCX_AMO_ADD, 1, 0) & EXCL) {
        lock_amo(w, rank, TERN_UCX_AMO_ADD, (uint64_t)-1, 0);
        backoff(&n);
    }
}

void tern_win_ucp_unlock(struct tern_win *w, int rank, int exclusive)
{
    lock_amo(w, rank, TERN_UCX_AMO_ADD, exclusive ? (uint64_t)0 - EXCL : (uint64_t)-1, 0);
}

/* Waits for one endpoint flush; its error into the window. */
static void flush_ep(struct tern_win *w, int target)
{
    void *req = NULL;
    int rc = tern_ucx_flush(w->peer[target].world, &req), err = MPI_SUCCESS;
    struct tern_waiter wt = TERN_WAITER_INIT;
    if (!rc && req)
        while (!tern_ucx_req_test(req, &err)) tern_progress_wait(&wt);
    if (!rc) rc = err;
    if (rc && !w->am->err) w->am->err = rc;
}

void tern_win_ucp_flush(struct tern_win *w, int rank)
{
    struct tern_win_ucp *u = w->am->ucp;
    if (!u) return;
    struct tern_waiter wt = TERN_WAITER_INIT;
    while (reap(w, rank)) tern_progress_wait(&wt);
    for (int i = 0; i < u->ndirty;) {
        int t = u->dirty[i];
        if (rank >= 0 && t != rank) {
            i++;
            continue;
        }
        flush_ep(w, t);
        u->is_dirty[t] = 0;
        u->dirty[i] = u->dirty[--u->ndirty];
    }
}

#else

int tern_win_ucp_open(struct tern_win *w, struct tern_comm *comm, void *base, size_t size)
{
    (void)w, (void)comm, (void)base, (void)size;
    return MPI_SUCCESS;
}
void tern_win_ucp_close(struct tern_win *w) { (void)w; }
int tern_win_ucp_put(struct tern_win *w, struct tern_rma_side o, int rank, uint64_t raddr,
                     size_t tcount, struct tern_datatype *tdt)
{
    (void)w, (void)o, (void)rank, (void)raddr, (void)tcount, (void)tdt;
    return -1;
}
int tern_win_ucp_get(struct tern_win *w, struct tern_rma_side o, int rank, uint64_t raddr,
                     size_t tcount, struct tern_datatype *tdt)
{
    (void)w, (void)o, (void)rank, (void)raddr, (void)tcount, (void)tdt;
    return -1;
}
void tern_win_ucp_flush(struct tern_win *w, int rank) { (void)w, (void)rank; }
int tern_win_ucp_has_locks(const struct tern_win *w)
{
    (void)w;
    return 0;
}
void tern_win_ucp_lock(struct tern_win *w, int rank, int exclusive)
{
    (void)w, (void)rank, (void)exclusive;
}
void tern_win_ucp_unlock(struct tern_win *w, int rank, int exclusive)
{
    (void)w, (void)rank, (void)exclusive;
}
int tern_win_ucp_acc(struct tern_win *w, int rank, uint64_t taddr, size_t tcount,
                     struct tern_datatype *tdt, struct tern_rma_side o, struct tern_rma_side res,
                     size_t es, int is_int, MPI_Op op)
{
    (void)w, (void)rank, (void)taddr, (void)tcount, (void)tdt, (void)o, (void)res, (void)es;
    (void)is_int, (void)op;
    return -1;
}
int tern_win_ucp_cas(struct tern_win *w, int rank, uint64_t taddr, const void *origin,
                     const void *compare, void *result, size_t es, int is_int)
{
    (void)w, (void)rank, (void)taddr, (void)origin, (void)compare, (void)result, (void)es;
    (void)is_int;
    return -1;
}

#endif
