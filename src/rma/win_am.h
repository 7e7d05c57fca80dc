/* Private to rma/: windows whose members span hosts (win_am.c,
 * win_am_sync.c).
 *
 * Load and store and CMA do not reach another host, so an origin sends
 * each operation on another member as a request message over
 * point-to-point, on a communicator of the window's own (a context id
 * agreed at creation, invisible to the program), and the target applies it
 * in its progress pass (tern_win_am_progress).  Operations on the origin
 * itself are done directly, as on one host.  Every member other than the
 * origin goes through messages, even one on the origin's host: one path
 * keeps locks, accumulate atomicity and ordering in one place (the
 * target), where a mix would need them in shared memory and in messages.
 *
 * The target applies requests in the order they were matched (MPI's
 * non-overtaking rule keeps each origin's order), each whole within one
 * pass under the library lock: accumulates to a target are atomic with
 * each other per element, and in fact per operation.
 *
 * Passive target needs the target's progress, which the program need not
 * give: while such a window exists, the UCX transport's progress thread
 * (transport/ucx/ucx_async.c, parameter RMA_ASYNC) makes the passes that
 * apply requests, so a target computing outside MPI delays an origin by
 * at most a wakeup.  (UCX over TCP would need it even for UCP's own put,
 * get and atomics: it emulates them with messages the target applies.)
 *
 * Windows on memory MPI can register go to it through UCP where they can
 * (win_ucp.c): contiguous puts and gets, integer atomics under
 * accumulate_ops=same_op, and locks on a lock word. 
 *
 * Target datatypes of any kind: the origin flattens the target's layout
 * into (address, length) pieces in the target's address space and sends
 * them with the packed data; the target checks every piece lies in its
 * window (for dynamic windows, in a region it attached) before touching
 * memory. */
#ifndef TERN_RMA_WIN_AM_H
#define TERN_RMA_WIN_AM_H

#include "rma/win.h"

struct tern_win_am_op;
struct tern_win_am_in;
struct tern_win_am_out;
struct tern_win_am_lockreq;
struct tern_win_ucp;

struct tern_win_am {
    struct tern_win *win;
    struct tern_win_am *next; /* every such window of this process */
    struct tern_comm *comm;   /* the window's own context */
    void *mem;                /* MPI_Win_allocate's memory */
    uint32_t seq;             /* names replies (their tag) */
    /* as an origin: operations whose reply has not been reaped */
    struct tern_win_am_op *ops, **ops_tail;
    int err; /* the first error a target reported, raised at the next synchronisation */
    /* as a target */
    struct tern_win_am_in *in, **in_tail; /* requests received, applied in this order */
    struct tern_win_am_out *out;          /* replies still leaving */
    int excl;                             /* exclusive holder's rank, or -1 */
    int nshared;                          /* shared holders */
    struct tern_win_am_lockreq *lq, **lq_tail;
    int self_granted;
    uint32_t *posts;          /* MPI_Win_post calls received, per target */
    uint32_t *dones;          /* MPI_Win_complete calls received, per origin */
    int async;                /* holds transport/ucx's progress thread */
    struct tern_win_ucp *ucp; /* put and get through UCP (win_ucp.c), or NULL */
};

/* Collective over comm: sets up w->am (its context, this rank in the list
 * the progress pass serves).  MPI_SUCCESS or an error code (made). */
int tern_win_am_open(struct tern_win *w, struct tern_comm *comm);
void tern_win_am_close(struct tern_win *w);
void tern_win_am_barrier(struct tern_win *w);
/* Registered with the progress engine: applies what arrived. */
int tern_win_am_progress(void);
/* At each MPI_Init: the progress hook is to be registered again. */
void tern_win_am_reset(void);

/* Operations on member rank != w->rank; raddr is where the target's data
 * starts in its address space (what tdt's layout is relative to).  They
 * return once the request left: completion is the synchronisation's. */
int tern_win_am_put(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                    uint64_t raddr, size_t tcount, struct tern_datatype *tdt);
int tern_win_am_get(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                    uint64_t raddr, size_t tcount, struct tern_datatype *tdt);
/* obuf: the origin's data packed (NULL for MPI_NO_OP); res.buf NULL: no result. */
int tern_win_am_acc(const char *fn, struct tern_win *w, const void *obuf, struct tern_rma_side res,
                    int rank, uint64_t raddr, size_t tcount, struct tern_datatype *tdt, MPI_Op op);
int tern_win_am_cas(const char *fn, struct tern_win *w, const void *origin, const void *compare,
                    void *result, struct tern_datatype *dt, int rank, uint64_t raddr);

/* ---- synchronisation (win_am_sync.c) ---- */
/* Waits for every operation on rank (< 0: on all) to be applied; raises
 * the first error a target reported. */
int tern_win_am_flush(const char *fn, struct tern_win *w, int rank);
/* The same without raising: a target's error waits for the next flush. */
void tern_win_am_wait_ops(struct tern_win *w, int rank);
void tern_win_am_lock(struct tern_win *w, int rank, int exclusive);
/* Shared locks on every member. */
void tern_win_am_lock_all(struct tern_win *w);
void tern_win_am_unlock(struct tern_win *w, int rank);
void tern_win_am_post(struct tern_win *w, const uint8_t *origins);
void tern_win_am_start_wait(struct tern_win *w, int target);
void tern_win_am_complete(struct tern_win *w, const uint8_t *targets);
int tern_win_am_all_done(struct tern_win *w, const uint8_t *origins);

/* ---- shared by the two files (win_am.c) ---- */
enum tern_win_am_kind {
    TERN_AM_PUT = 1,
    TERN_AM_GET,
    TERN_AM_ACC,
    TERN_AM_GACC,
    TERN_AM_CAS,
    TERN_AM_LOCK,
    TERN_AM_UNLOCK,
    TERN_AM_POST,
    TERN_AM_DONE,
};
/* Sends a request that carries no data (lock, unlock, post, done);
 * reply: whether to expect one (an operation to flush). */
int tern_win_am_send_ctl(struct tern_win *w, int rank, int kind, int arg, int reply);
/* The target's side of locks (win_am_sync.c), for requests from 'origin'
 * (reply_tag < 0: this rank itself). */
void tern_win_am_lock_request(struct tern_win *w, int origin, int exclusive, int reply_tag);
void tern_win_am_unlock_request(struct tern_win *w, int origin);
void tern_win_am_reply(struct tern_win *w, int dest, int tag, const void *data, size_t bytes);

/* ---- put and get through UCP (win_ucp.c) ---- */
/* Collective over comm, after tern_win_am_open, for this rank's window
 * memory [base, base + size): sets w->am->ucp when every member could
 * register its memory and RMA_UCP allows; otherwise the window keeps the
 * message path.  MPI_SUCCESS, or the error of the exchange. */
int tern_win_ucp_open(struct tern_win *w, struct tern_comm *comm, void *base, size_t size);
void tern_win_ucp_close(struct tern_win *w);
/* A put or get through UCP: MPI_SUCCESS or an error raised, or -1 when
 * this one is for the message path (no UCP for the window, a derived
 * datatype, a target without memory). */
int tern_win_ucp_put(struct tern_win *w, struct tern_rma_side o, int rank, uint64_t raddr,
                     size_t tcount, struct tern_datatype *tdt);
int tern_win_ucp_get(struct tern_win *w, struct tern_rma_side o, int rank, uint64_t raddr,
                     size_t tcount, struct tern_datatype *tdt);
/* Accumulate-family operations through UCP atomics, element by element,
 * where accumulate atomicity allows it (win_ucp.c): windows whose info
 * says accumulate_ops=same_op, MPI_SUM and MPI_REPLACE with or without a
 * result, and compare-and-swap, on 4- and 8-byte integers at aligned
 * addresses, whatever the datatypes' layouts.  The caller checked the
 * operation (MPI_NO_OP is refused under same_op); taddr is where the
 * target's data starts (this rank's own memory too: it is reached through
 * UCP as well, for atomicity with the others).  -1: not for UCP. */
int tern_win_ucp_acc(struct tern_win *w, int rank, uint64_t taddr, size_t tcount,
                     struct tern_datatype *tdt, struct tern_rma_side o, struct tern_rma_side res,
                     size_t es, int is_int, MPI_Op op);
int tern_win_ucp_cas(struct tern_win *w, int rank, uint64_t taddr, const void *origin,
                     const void *compare, void *result, size_t es, int is_int);
/* Passive-target locks through UCP atomics on a lock word per member
 * (win_ucp.c), for every window with UCP (has_locks): the target's own
 * lock messages are then never used. */
int tern_win_ucp_has_locks(const struct tern_win *w);
void tern_win_ucp_lock(struct tern_win *w, int rank, int exclusive);
void tern_win_ucp_unlock(struct tern_win *w, int rank, int exclusive);
/* Completes at their targets the puts and gets to rank (< 0: to all);
 * errors go to w->am->err. */
void tern_win_ucp_flush(struct tern_win *w, int rank);

#endif
