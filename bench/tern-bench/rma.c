/* One-sided benchmarks, after OMB 7.x's one-sided set (osu_put_latency,
 * osu_get_latency, osu_put_bw, osu_get_bw, osu_put_bibw, osu_acc_latency,
 * osu_get_acc_latency, osu_fop_latency, osu_cas_latency), between ranks 0
 * and 1 (the other ranks wait at the barriers):
 *   latency: rank 0's mean time of one operation and its synchronisation;
 *            with fence and pscw a ping-pong of epochs (rank 0 acts, then
 *            rank 1), the time halved;
 *   bandwidth: a window of -w operations to consecutive places of the
 *            target, then the synchronisation; bytes over rank 0's time
 *            (both directions for put-bibw).
 * The window is made for every size, as OMB does: --win create (user
 * memory from the heap), allocate (the default, OMB's), dynamic (attached
 * memory) or alloc_mem (create on memory of MPI_Alloc_mem); the
 * synchronisation is --sync (OMB's -s): lock (shared for put and get,
 * exclusive for the accumulates, as OMB), lock_all, flush and flush_local
 * (one shared lock around the whole loop), fence, pscw.  Defaults are
 * OMB's: flush, and pscw for put-bibw (which offers fence and pscw only).
 * Put and get move MPI_CHAR; the accumulates MPI_SUM on -T's type
 * (MPI_CHAR by default, as OMB); fetch_and_op (MPI_SUM) and
 * compare_and_swap one MPI_LONG_LONG, so they have one size, 8 B. */
#include "rma.h"

#include <stdio.h>
#include <string.h>

enum op { OP_PUT, OP_GET, OP_ACC, OP_GACC, OP_FOP, OP_CAS };
enum pat { LAT, BW, BIBW };

struct rma_kind {
    enum op op;
    enum pat pat;
    enum tb_sync def_sync;
    unsigned syncs; /* bit per enum tb_sync offered */
};

#define ALL_SYNCS ((1u << TB_NSYNC) - 1)
#define ACTIVE_SYNCS ((1u << TB_SYNC_FENCE) | (1u << TB_SYNC_PSCW))

/* After each message's bytes in the target's window comes a guard, which
 * must stay as it was. */
#define GUARD 64

struct rma {
    const struct rma_kind *k;
    enum tb_sync sync;
    struct tb_rma_win w;
    MPI_Datatype type; /* of the elements */
    int esize;
    size_t size; /* bytes of one operation */
    int count;   /* elements of one operation */
    int nmsg;    /* operations per iteration */
    char *obuf, *rbuf, *cbuf;
    MPI_Group peer_group;
};

/* ---- windows ---------------------------------------------------------------------------------- */

enum tb_win tb_rma_kind(const struct tb_ctx *c)
{
    return c->o->win_kind >= 0 ? (enum tb_win)c->o->win_kind : TB_WIN_ALLOCATE;
}

int tb_rma_pair(struct tb_ctx *c, struct tb_rma_win *w)
{
    memset(w, 0, sizeof *w);
    w->win = MPI_WIN_NULL;
    w->kind = tb_rma_kind(c);
    w->in_pair = c->rank < 2;
    w->prank = c->rank;
    TB_MPI(c, MPI_Comm_split(c->comm, w->in_pair ? 0 : MPI_UNDEFINED, c->rank, &w->comm));
    if (w->in_pair) tb_track_comm(c, w->comm);
    return 0;
}

int tb_rma_open(struct tb_ctx *c, struct tb_rma_win *w, MPI_Comm comm, size_t bytes, char *user)
{
    int n;
    TB_MPI(c, MPI_Comm_size(comm, &n));
    if (!w->disp) {
        w->disp = tb_alloc(c, (size_t)n * sizeof *w->disp);
        if (!w->disp) return -1;
    }
    memset(w->disp, 0, (size_t)n * sizeof *w->disp);
    switch (w->kind) {
    case TB_WIN_CREATE:
    case TB_WIN_ALLOC_MEM:
        w->base = user;
        TB_MPI(c, MPI_Win_create(user, (MPI_Aint)bytes, 1, MPI_INFO_NULL, comm, &w->win));
        break;
    case TB_WIN_ALLOCATE:
        TB_MPI(c, MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, comm, &w->base, &w->win));
        memset(w->base, 0, bytes);
        break;
    default: {
        /* a dynamic window's displacements are the target's addresses */
        MPI_Aint mine;
        w->base = user;
        TB_MPI(c, MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        TB_MPI(c, MPI_Win_attach(w->win, user, (MPI_Aint)(bytes ? bytes : 1)));
        w->attached = user;
        TB_MPI(c, MPI_Get_address(user, &mine));
        TB_MPI(c, MPI_Allgather(&mine, 1, MPI_AINT, w->disp, 1, MPI_AINT, comm));
        break;
    }
    }
    return 0;
}

int tb_rma_close(struct tb_ctx *c, struct tb_rma_win *w)
{
    if (w->win == MPI_WIN_NULL) return 0;
    if (w->attached) {
        int rc = MPI_Win_detach(w->win, w->attached);
        w->attached = NULL;
        if (rc != MPI_SUCCESS) {
            MPI_Win_free(&w->win);
            return tb_mpi_error(c, "MPI_Win_detach", rc);
        }
    }
    TB_MPI(c, MPI_Win_free(&w->win));
    w->win = MPI_WIN_NULL;
    return 0;
}

int tb_rma_sync_of(struct tb_ctx *c, enum tb_sync def, unsigned offered, enum tb_sync *out)
{
    *out = c->o->sync >= 0 ? (enum tb_sync)c->o->sync : def;
    if (offered & (1u << *out)) return 0;
    char list[96] = "";
    for (int s = 0; s < TB_NSYNC; s++)
        if (offered & (1u << s))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                     tb_sync_names[s]);
    return tb_fail(c, "--sync %s is not offered by %s (as in OMB: %s)", tb_sync_names[*out],
                   c->b->name, list);
}

/* ---- one iteration ------------------------------------------------------------------------------ */

/* Operation j of an iteration, toward 'target' (a rank of the pair). */
static int issue(struct tb_ctx *c, struct rma *r, int target, int j)
{
    MPI_Win win = r->w.win;
    MPI_Aint disp = r->w.disp[target] + (MPI_Aint)((size_t)j * r->size);
    size_t off = (size_t)j * r->size;
    char *o = r->obuf + off, *res = r->rbuf + off;
    int n = r->count;
    MPI_Datatype t = r->type;
    switch (r->k->op) {
    case OP_PUT: TB_MPI(c, MPI_Put(o, n, t, target, disp, n, t, win)); break;
    case OP_GET: TB_MPI(c, MPI_Get(res, n, t, target, disp, n, t, win)); break;
    case OP_ACC: TB_MPI(c, MPI_Accumulate(o, n, t, target, disp, n, t, MPI_SUM, win)); break;
    case OP_GACC:
        TB_MPI(c, MPI_Get_accumulate(o, n, t, res, n, t, target, disp, n, t, MPI_SUM, win));
        break;
    case OP_FOP: TB_MPI(c, MPI_Fetch_and_op(o, res, t, target, disp, MPI_SUM, win)); break;
    case OP_CAS: TB_MPI(c, MPI_Compare_and_swap(o, r->cbuf, res, t, target, disp, win)); break;
    }
    return 0;
}

static int issue_all(struct tb_ctx *c, struct rma *r, int target)
{
    for (int j = 0; j < r->nmsg; j++) TB_TRY(issue(c, r, target, j));
    return 0;
}

/* Does this rank act as an origin, and is it a target, in one iteration? */
static int is_origin(const struct rma *r)
{
    int both = r->k->pat == BIBW ||
               (r->k->pat == LAT && (r->sync == TB_SYNC_FENCE || r->sync == TB_SYNC_PSCW));
    return r->w.in_pair && (both || r->w.prank == 0);
}
static int is_target(const struct rma *r)
{
    int both = r->k->pat == BIBW ||
               (r->k->pat == LAT && (r->sync == TB_SYNC_FENCE || r->sync == TB_SYNC_PSCW));
    return r->w.in_pair && (both || r->w.prank == 1);
}

static int lock_type(const struct rma *r)
{
    return r->k->op == OP_PUT || r->k->op == OP_GET ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
}

/* The passive epoch around the whole loop of flush and flush_local. */
static int loop_begin(struct tb_ctx *c, struct rma *r)
{
    if (r->w.prank == 0 && (r->sync == TB_SYNC_FLUSH || r->sync == TB_SYNC_FLUSH_LOCAL))
        TB_MPI(c, MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, r->w.win));
    return 0;
}
static int loop_end(struct tb_ctx *c, struct rma *r)
{
    if (r->w.prank == 0 && (r->sync == TB_SYNC_FLUSH || r->sync == TB_SYNC_FLUSH_LOCAL))
        TB_MPI(c, MPI_Win_unlock(1, r->w.win));
    return 0;
}

static int step(struct tb_ctx *c, void *arg)
{
    struct rma *r = arg;
    MPI_Win win = r->w.win;
    int me = r->w.prank, peer = 1 - me;
    switch (r->sync) {
    case TB_SYNC_LOCK:
        if (me == 0) {
            TB_MPI(c, MPI_Win_lock(lock_type(r), 1, 0, win));
            TB_TRY(issue_all(c, r, 1));
            TB_MPI(c, MPI_Win_unlock(1, win));
        }
        return 0;
    case TB_SYNC_LOCK_ALL:
        if (me == 0) {
            TB_MPI(c, MPI_Win_lock_all(0, win));
            TB_TRY(issue_all(c, r, 1));
            TB_MPI(c, MPI_Win_unlock_all(win));
        }
        return 0;
    case TB_SYNC_FLUSH:
        if (me == 0) {
            TB_TRY(issue_all(c, r, 1));
            TB_MPI(c, MPI_Win_flush(1, win));
        }
        return 0;
    case TB_SYNC_FLUSH_LOCAL:
        if (me == 0) {
            TB_TRY(issue_all(c, r, 1));
            TB_MPI(c, MPI_Win_flush_local(1, win));
        }
        return 0;
    case TB_SYNC_FENCE:
        TB_MPI(c, MPI_Win_fence(0, win));
        if (r->k->pat == LAT) {
            /* rank 0's epoch, then rank 1's */
            if (me == 0) TB_TRY(issue_all(c, r, peer));
            TB_MPI(c, MPI_Win_fence(0, win));
            if (me == 1) TB_TRY(issue_all(c, r, peer));
        } else if (is_origin(r)) {
            TB_TRY(issue_all(c, r, peer));
        }
        TB_MPI(c, MPI_Win_fence(0, win));
        return 0;
    case TB_SYNC_PSCW:
    default:
        if (r->k->pat == LAT) {
            for (int turn = 0; turn < 2; turn++) {
                if (me == turn) {
                    TB_MPI(c, MPI_Win_start(r->peer_group, 0, win));
                    TB_TRY(issue_all(c, r, peer));
                    TB_MPI(c, MPI_Win_complete(win));
                } else {
                    TB_MPI(c, MPI_Win_post(r->peer_group, 0, win));
                    TB_MPI(c, MPI_Win_wait(win));
                }
            }
        } else {
            if (is_target(r)) TB_MPI(c, MPI_Win_post(r->peer_group, 0, win));
            if (is_origin(r)) {
                TB_MPI(c, MPI_Win_start(r->peer_group, 0, win));
                TB_TRY(issue_all(c, r, peer));
                TB_MPI(c, MPI_Win_complete(win));
            }
            if (is_target(r)) TB_MPI(c, MPI_Win_wait(win));
        }
        return 0;
    }
}

/* ---- validation ---------------------------------------------------------------------------------- */

/* Patterns: bytes for put and get, small integers for the accumulates
 * (exact in every type, and MPI_CHAR sums compared modulo 256), and for
 * fetch_and_op and compare_and_swap values a rank's own. */
static unsigned seed_of(int rank, size_t size, int j)
{
    return (unsigned)(rank + 1) * 1000003u + (unsigned)size * 7919u + (unsigned)j * 104729u;
}
static long av(int rank, size_t i) { return tb_pat((unsigned)rank * 7u + 5u, i) % 29; }
static long old_of(int rank) { return 1000 + 17L * rank; }

/* What the window of 'rank' holds before the validated iteration. */
static void fill_window(struct rma *r, int rank)
{
    char *b = r->w.base;
    size_t data = (size_t)r->nmsg * r->size;
    if (r->k->op == OP_PUT) {
        memset(b, 0, data);
    } else if (r->k->op == OP_GET) {
        for (int j = 0; j < r->nmsg; j++)
            tb_fill(b + (size_t)j * r->size, r->size, seed_of(rank, r->size, j));
    } else if (r->k->op == OP_FOP || r->k->op == OP_CAS) {
        tb_elem_set(r->type, b, 0, old_of(rank));
    } else {
        for (int i = 0; i < r->count; i++)
            tb_elem_set(r->type, b, (size_t)i, av(rank + 2, (size_t)i));
    }
    tb_fill(b + data, GUARD, seed_of(rank, r->size, -1));
}

static void fill_origin(struct rma *r, int rank)
{
    size_t data = (size_t)r->nmsg * r->size;
    memset(r->rbuf, 0, data + GUARD);
    tb_fill(r->rbuf + data, GUARD, seed_of(rank, r->size, -2));
    if (r->k->op == OP_PUT) {
        for (int j = 0; j < r->nmsg; j++)
            tb_fill(r->obuf + (size_t)j * r->size, r->size, seed_of(rank, r->size, j));
    } else if (r->k->op == OP_FOP) {
        tb_elem_set(r->type, r->obuf, 0, 5 + rank);
    } else if (r->k->op == OP_CAS) {
        tb_elem_set(r->type, r->cbuf, 0, old_of(1 - rank));
        tb_elem_set(r->type, r->obuf, 0, old_of(1 - rank) + 7 + rank);
    } else if (r->k->op != OP_GET) {
        for (int i = 0; i < r->count; i++)
            tb_elem_set(r->type, r->obuf, (size_t)i, av(rank, (size_t)i));
    }
}

static int check_elems(struct tb_ctx *c, struct rma *r, void *buf, int n, long (*want)(int, size_t),
                       int who, int add, const char *what)
{
    tb_tamper(c, buf, (size_t)n * (size_t)r->esize);
    for (int i = 0; i < n; i++) {
        long w = want(who, (size_t)i) + (add >= 0 ? av(add, (size_t)i) : 0);
        if (!tb_elem_match(r->type, buf, (size_t)i, w))
            return tb_fail(c, "validation: rank %d, %s: element %d of %d is %.17g, expected %ld",
                           c->rank, what, i, n, tb_elem_get(r->type, buf, (size_t)i), w);
    }
    return 0;
}

static long old_val(int rank, size_t i)
{
    (void)i;
    return old_of(rank);
}

static int check_value(struct tb_ctx *c, struct rma *r, void *buf, long want, const char *what)
{
    tb_tamper(c, buf, (size_t)r->esize);
    if (!tb_elem_match(r->type, buf, 0, want))
        return tb_fail(c, "validation: rank %d, %s is %.17g, expected %ld", c->rank, what,
                       tb_elem_get(r->type, buf, 0), want);
    return 0;
}

/* What one iteration must have left: in the target's window (and the
 * guard after it), in the origin's result buffer, and the origin's data
 * unchanged. */
static int check(struct tb_ctx *c, struct rma *r)
{
    int me = r->w.prank, peer = 1 - me;
    size_t data = (size_t)r->nmsg * r->size;
    char what[80];
    char *b = r->w.base;
    if (is_target(r)) {
        switch (r->k->op) {
        case OP_PUT:
            for (int j = 0; j < r->nmsg; j++) {
                snprintf(what, sizeof what, "window, message %d of %d put", j, r->nmsg);
                TB_TRY(
                    tb_check(c, b + (size_t)j * r->size, r->size, seed_of(peer, r->size, j), what));
            }
            break;
        case OP_GET:
            for (int j = 0; j < r->nmsg; j++) {
                snprintf(what, sizeof what, "window, message %d of %d after the get", j, r->nmsg);
                TB_TRY(tb_check_sent(c, b + (size_t)j * r->size, r->size, seed_of(me, r->size, j),
                                     what));
            }
            break;
        case OP_ACC:
        case OP_GACC:
            TB_TRY(check_elems(c, r, b, r->count, av, me + 2, peer, "window after the accumulate"));
            break;
        case OP_FOP:
            TB_TRY(check_value(c, r, b, old_of(me) + 5 + peer, "window after fetch_and_op"));
            break;
        case OP_CAS:
            TB_TRY(check_value(c, r, b, old_of(me) + 7 + peer, "window after compare_and_swap"));
            break;
        }
        TB_TRY(tb_check(c, b + data, GUARD, seed_of(me, r->size, -1),
                        "guard after the window's data"));
    }
    if (is_origin(r)) {
        switch (r->k->op) {
        case OP_PUT:
            for (int j = 0; j < r->nmsg; j++) {
                snprintf(what, sizeof what, "origin buffer of message %d after the put", j);
                TB_TRY(tb_check_sent(c, r->obuf + (size_t)j * r->size, r->size,
                                     seed_of(me, r->size, j), what));
            }
            break;
        case OP_GET:
            for (int j = 0; j < r->nmsg; j++) {
                snprintf(what, sizeof what, "message %d of %d got", j, r->nmsg);
                TB_TRY(tb_check(c, r->rbuf + (size_t)j * r->size, r->size,
                                seed_of(peer, r->size, j), what));
            }
            break;
        case OP_GACC:
        case OP_ACC:
            if (r->k->op == OP_GACC)
                TB_TRY(check_elems(c, r, r->rbuf, r->count, av, peer + 2, -1,
                                   "result of get_accumulate (the target's old data)"));
            TB_TRY(check_elems(c, r, r->obuf, r->count, av, me, -1,
                               "origin data after the accumulate"));
            break;
        case OP_FOP:
        case OP_CAS:
            TB_TRY(check_elems(c, r, r->rbuf, 1, old_val, peer, -1,
                               r->k->op == OP_FOP ? "result of fetch_and_op"
                                                  : "result of compare_and_swap"));
            break;
        }
        if (r->k->op == OP_GET || r->k->op == OP_GACC || r->k->op == OP_FOP || r->k->op == OP_CAS)
            TB_TRY(tb_check(c, r->rbuf + data, GUARD, seed_of(me, r->size, -2),
                            "guard after the result buffer"));
    }
    return 0;
}

/* One untimed iteration with known data, then every rank checks its part.
 * The epoch of the iteration has ended before the barrier, so the target
 * sees the data in its window (the unified memory model). */
static int validate(struct tb_ctx *c, struct rma *r)
{
    if (r->w.in_pair) {
        fill_window(r, r->w.prank);
        fill_origin(r, r->w.prank);
    }
    TB_MPI(c, MPI_Barrier(c->comm));
    if (r->w.in_pair) {
        TB_TRY(loop_begin(c, r));
        TB_TRY(step(c, r));
        TB_TRY(loop_end(c, r));
    }
    TB_MPI(c, MPI_Barrier(c->comm));
    return r->w.in_pair ? check(c, r) : 0;
}

/* ---- the run ---------------------------------------------------------------------------------------- */

static int one_size(struct tb_ctx *c, struct rma *r, char *user, size_t size)
{
    r->size = size;
    r->count = (int)(size / (size_t)r->esize);
    /* whole pages, as OMB's windows are: MPICH 4.0.2 lands accumulates at
     * a wrong place in MPI_Win_allocate windows of other sizes (65, 72 B) */
    size_t bytes = ((size_t)r->nmsg * size + GUARD + 4095) & ~(size_t)4095;
    if (r->w.in_pair) TB_TRY(tb_rma_open(c, &r->w, r->w.comm, bytes, user));
    if (c->o->validate) TB_TRY(tb_validated(c, size, validate(c, r)));
    enum tb_kind kind = r->k->pat == LAT ? TB_LAT : TB_BW;
    int iters = tb_iters(c, kind, size), warm = tb_warmup(c, kind, size);
    double t = 0;
    if (r->w.in_pair) TB_TRY(loop_begin(c, r));
    TB_TRY(tb_time_omb(c, r->w.in_pair, warm, iters, 0, step, r, &t));
    if (r->w.in_pair) TB_TRY(loop_end(c, r));
    /* rank 0's time, as OMB prints it */
    TB_MPI(c, MPI_Bcast(&t, 1, MPI_DOUBLE, 0, c->comm));
    if (r->w.in_pair) TB_TRY(tb_rma_close(c, &r->w));
    double row[2] = {(double)size, 0};
    if (r->k->pat == LAT) {
        int halves = r->sync == TB_SYNC_FENCE || r->sync == TB_SYNC_PSCW ? 2 : 1;
        row[1] = t * 1e6 / iters / halves;
    } else {
        double bytes_moved = (double)size * r->nmsg * iters * (r->k->pat == BIBW ? 2 : 1);
        row[1] = t > 0 ? bytes_moved / t / 1e6 : 0;
    }
    tb_row(c, row);
    return 0;
}

static int run(struct tb_ctx *c, struct rma *r)
{
    const struct rma_kind *k = r->k;
    TB_TRY(tb_rma_sync_of(c, k->def_sync, k->syncs, &r->sync));
    TB_TRY(tb_rma_pair(c, &r->w));
    int atomic = k->op == OP_FOP || k->op == OP_CAS;
    r->type = atomic                                ? MPI_LONG_LONG
              : k->op == OP_ACC || k->op == OP_GACC ? tb_reduction_type(c->o)
                                                    : MPI_CHAR;
    TB_MPI(c, MPI_Type_size(r->type, &r->esize));
    c->granule = (size_t)r->esize;
    r->nmsg = k->pat == LAT ? 1 : c->o->window;
    size_t max = atomic ? (size_t)r->esize : tb_max_size(c);
    size_t room = ((size_t)r->nmsg * max + GUARD + 4095) & ~(size_t)4095;
    r->obuf = tb_alloc(c, room);
    r->rbuf = tb_alloc(c, room);
    r->cbuf = tb_alloc(c, 64);
    char *user = r->w.kind == TB_WIN_ALLOCATE    ? NULL
                 : r->w.kind == TB_WIN_ALLOC_MEM ? tb_alloc_mpi(c, room)
                                                 : tb_alloc(c, room);
    if (!r->obuf || !r->rbuf || !r->cbuf || (r->w.kind != TB_WIN_ALLOCATE && !user)) return -1;
    if (r->w.in_pair) {
        MPI_Group all;
        int peer = 1 - r->w.prank;
        TB_MPI(c, MPI_Comm_group(r->w.comm, &all));
        int rc = MPI_Group_incl(all, 1, &peer, &r->peer_group);
        MPI_Group_free(&all);
        if (rc != MPI_SUCCESS) return tb_mpi_error(c, "MPI_Group_incl", rc);
    }
    snprintf(c->note, sizeof c->note, "window: %s, synchronisation: %s, element: %s%s",
             tb_win_names[r->w.kind], tb_sync_names[r->sync],
             atomic                ? "MPI_LONG_LONG"
             : r->type == MPI_CHAR ? "MPI_CHAR"
             : r->type == MPI_INT  ? "MPI_INT"
                                   : "MPI_FLOAT",
             k->pat == LAT  ? ""
             : k->pat == BW ? ", window of -w operations"
                            : ", both ways");
    static const struct tb_col lat[] = {{"size", "B", 0, 0}, {"latency", "us", 2, -1}};
    static const struct tb_col bw[] = {{"size", "B", 0, 0}, {"bandwidth", "MB/s", 2, +1}};
    tb_columns(c, 2, k->pat == LAT ? lat : bw);
    if (atomic) return one_size(c, r, user, (size_t)r->esize);
    for (size_t size = (size_t)-1; tb_next_size(c, &size);) TB_TRY(one_size(c, r, user, size));
    return 0;
}

static int run_rma(struct tb_ctx *c)
{
    struct rma r;
    memset(&r, 0, sizeof r);
    r.k = c->b->arg;
    r.peer_group = MPI_GROUP_NULL;
    r.w.win = MPI_WIN_NULL;
    int rc = run(c, &r);
    /* whatever happened: a window left open would hang MPI_Finalize */
    if (r.w.win != MPI_WIN_NULL) tb_rma_close(c, &r.w);
    if (r.peer_group != MPI_GROUP_NULL) MPI_Group_free(&r.peer_group);
    return rc;
}

static const struct rma_kind put_lat = {OP_PUT, LAT, TB_SYNC_FLUSH, ALL_SYNCS};
static const struct rma_kind get_lat = {OP_GET, LAT, TB_SYNC_FLUSH, ALL_SYNCS};
static const struct rma_kind put_bw = {OP_PUT, BW, TB_SYNC_FLUSH, ALL_SYNCS};
static const struct rma_kind get_bw = {OP_GET, BW, TB_SYNC_FLUSH, ALL_SYNCS};
static const struct rma_kind put_bibw = {OP_PUT, BIBW, TB_SYNC_PSCW, ACTIVE_SYNCS};
static const struct rma_kind acc_lat = {OP_ACC, LAT, TB_SYNC_FLUSH, ALL_SYNCS};
static const struct rma_kind gacc_lat = {OP_GACC, LAT, TB_SYNC_FLUSH, ALL_SYNCS};
static const struct rma_kind fop_lat = {OP_FOP, LAT, TB_SYNC_FLUSH, ALL_SYNCS};
static const struct rma_kind cas_lat = {OP_CAS, LAT, TB_SYNC_FLUSH, ALL_SYNCS};

#define MiB4 ((size_t)4 << 20)

const struct tb_bench tb_rma_benches[] = {
    {"put-latency", "rma", "MPI_Put latency 0->1 (--win, --sync; default allocate, flush)", 2, 1,
     MiB4, 1, run_rma, &put_lat},
    {"get-latency", "rma", "MPI_Get latency 0<-1 (--win, --sync; default allocate, flush)", 2, 1,
     MiB4, 1, run_rma, &get_lat},
    {"put-bw", "rma", "MPI_Put bandwidth 0->1, window of 64 puts, then the synchronisation", 2, 1,
     MiB4, 1, run_rma, &put_bw},
    {"get-bw", "rma", "MPI_Get bandwidth 0<-1, window of 64 gets, then the synchronisation", 2, 1,
     MiB4, 1, run_rma, &get_bw},
    {"put-bibw", "rma", "MPI_Put bidirectional bandwidth 0<->1, windows of 64 (pscw or fence)", 2,
     1, MiB4, 1, run_rma, &put_bibw},
    {"acc-latency", "rma", "MPI_Accumulate (MPI_SUM) latency 0->1", 2, 1, MiB4, 1, run_rma,
     &acc_lat},
    {"get-acc-latency", "rma", "MPI_Get_accumulate (MPI_SUM) latency 0<->1", 2, 1, MiB4, 1, run_rma,
     &gacc_lat},
    {"fop-latency", "rma", "MPI_Fetch_and_op (MPI_SUM, MPI_LONG_LONG) latency 0<->1", 2, 8, 8, 8,
     run_rma, &fop_lat},
    {"cas-latency", "rma", "MPI_Compare_and_swap (MPI_LONG_LONG) latency 0<->1", 2, 8, 8, 8,
     run_rma, &cas_lat},
    {"halo2d-put", "rma", "2D halo exchange (halo2d's strips) by MPI_Put in a fence or pscw epoch",
     1, 1024, (size_t)16 << 20, 8, tb_run_rma_halo, &tb_halo2d},
    {"halo3d-put", "rma", "3D halo exchange (halo3d's pencils) by MPI_Put in a fence or pscw epoch",
     1, 1024, (size_t)16 << 20, 8, tb_run_rma_halo, &tb_halo3d},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL},
};
