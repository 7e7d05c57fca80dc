/* Nonblocking and persistent collectives through the shared-memory area
 * (its rules: shm_coll.h), for the calls the blocking ones carry in one
 * slot: barrier, bcast, gather(v), scatter(v), allgather(v), alltoall(v,w),
 * and the reductions reduce, allreduce, reduce_scatter(_block), scan and
 * exscan; and the partitioned allreduce, in chunks of a slot
 * (partition_step).
 *
 * Each call is one schedule step (coll/sched.h tern_sched_machine) that
 * takes the next number of the area's nonblocking lane when the schedule
 * starts, so at the call (or at each MPI_Start); then it joins the lane's
 * queue of this rank's collectives in progress.  The queue advances from
 * its head, without ever waiting: a step that cannot go on (its slot still
 * read by a slow rank, a peer's flag not there yet) stays put and is tried
 * again at the next poll of any of them.  So the rank's flag rises one
 * collective at a time, as shm_coll.h requires, and no call blocks: a post
 * that may not write its slot yet defers the write.  The blocking
 * collectives have their own lane and never wait for these.
 *
 * Attaching the area is a blocking agreement (tern_shmc_get), which a
 * nonblocking call must not make: only MPI_COMM_WORLD's area, which needs
 * no agreement, or one that a blocking collective already attached,
 * serves.  Every rank makes the blocking calls in the same order, so at a
 * given call all agree whether it is there; without one, or when the data
 * does not fit a slot, the call takes the
 * point-to-point algorithm that follows shm in its table.  In gatherv and
 * scatterv a block too large for a slot travels point to point in the same
 * round, as in the blocking ones.  Alltoallv and alltoallw, whose sizes no
 * rank knows all of, divide each slot into one part per destination: a
 * block that fits its part goes through it, a larger one point to point in
 * the same round (both of its ends know its size).  Schedules whose
 * starts may come in another order on each rank (tern_sched_in_order:
 * persistent collectives, MPI_Comm_idup's rounds) take it too. */
#include <string.h>

#include "coll/algos.h"
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/op.h"
#include "coll/sched.h"
#include "coll/shm_coll.h"
#include "core/progress.h"

/* One call on the area; lives in its schedule's memory. */
struct tern_shmc_op {
    struct tern_shmc_op *next; /* in the area's queue */
    struct tern_shmc *a;
    uint64_t s;                         /* its number, taken at each start */
    int (*step)(struct tern_shmc_op *); /* advances it without waiting; 1 when done */
    int posted;  /* this rank's flag is at s (barrier: 2 once all were seen) */
    int done;    /* every part of it here is over */
    int at;      /* the next flag or rank to look at */
    int r, root; /* this rank; the root of a rooted call */
    size_t fits; /* the most a block may carry through a slot in this call */
    const void *sbuf;
    void *rbuf;
    size_t scount, rcount;
    struct tern_datatype *sdt, *rdt;
    /* The v-variants: the blocks of the root's buffer (the all-gather's
     * receive buffer), a copy of the call's arrays kept after the op;
     * NULL: blocks of one count, one after the other. */
    const int *counts, *displs;
    int fixed; /* not a v-variant: every rank knows every block's size */
    /* Alltoallv and alltoallw: the blocks sent (NULL: in place, rbuf's)
     * and received, and the bytes of a slot's part for one destination. */
    const struct tern_coll_blocks *snd, *rcv;
    size_t part;
    /* Reductions: 'total' elements from each rank; fold_count of them from
     * element 'first' of ranks 0..last combined into rbuf here (0: this
     * rank combines none). */
    struct tern_op *op;
    size_t total, first, fold_count;
    int last;
    /* The partitioned allreduce: the numbers it takes (two per chunk; 1
     * for every other call), its chunk and the phase of that chunk. */
    uint64_t nseq;
    size_t chunk;
    int phase;
};

/* ---- Flags, without waiting ---- */

static inline int flag_at(const struct tern_shmc *a, int r, uint64_t s)
{
    return tern_shmc_own_at(a, r, s) ||
           atomic_load_explicit(&a->flags[r].seq, memory_order_acquire) >= s;
}

/* Whether the flags of ranks 0..last have reached s; o->at keeps the
 * ranks already seen there, and is 0 again once all are. */
static int upto_at(struct tern_shmc_op *o, uint64_t s, int last)
{
    struct tern_shmc *a = o->a;
    if (a->all_past >= s) {
        o->at = 0;
        return 1;
    }
    while (o->at <= last && flag_at(a, o->at, s)) o->at++;
    if (o->at <= last) return 0;
    o->at = 0;
    if (last == a->size - 1) a->all_past = s;
    return 1;
}

static int all_at(struct tern_shmc_op *o, uint64_t s) { return upto_at(o, s, o->a->size - 1); }

/* tern_shmc_may_write, asked instead of waited for. */
static int may_write(struct tern_shmc_op *o) { return all_at(o, o->s - 1); }

static void post(struct tern_shmc_op *o)
{
    tern_shmc_post(o->a, o->s);
    o->posted = 1;
    o->at = 0;
}

static char *slot(const struct tern_shmc_op *o, int i) { return tern_shmc_slot(o->a, i, o->s); }

/* Where rank i's data of 'total' bytes is (both ends know 'total'): in its
 * flag line when it fits there, as in the blocking collectives, else in
 * its slot. */
static char *data(const struct tern_shmc_op *o, int i, size_t total)
{
    return tern_shmc_data(o->a, i, o->s, total);
}

/* Block i of the root's buffer (or the all-gather's): its count and where
 * it starts, in elements; 'count' is the block of the fixed-size calls. */
static size_t blk_count(const struct tern_shmc_op *o, int i, size_t count)
{
    return o->counts ? (size_t)o->counts[i] : count;
}

static MPI_Aint blk_at(const struct tern_shmc_op *o, int i, size_t count)
{
    return o->counts ? (MPI_Aint)o->displs[i] : (MPI_Aint)i * (MPI_Aint)count;
}

/* A block too large for a slot, which gatherv and scatterv send point to
 * point. */
static int beyond_slot(const struct tern_shmc *a, size_t count, const struct tern_datatype *dt)
{
    return count * dt->size > a->carry_bytes;
}

/* Whether a block goes through a slot: not empty, and not beyond it. */
static int slotted(const struct tern_shmc_op *o, size_t count, const struct tern_datatype *dt)
{
    return count * dt->size > 0 && count * dt->size <= o->fits;
}

/* ---- The collectives' steps ---- */

static int barrier_step(struct tern_shmc_op *o)
{
    if (!o->posted) post(o);
    if (o->posted == 1) {
        if (!all_at(o, o->s)) return 0;
        /* As the blocking barrier does with a pass of its own (shm_coll.c):
         * the peers' eager packets, in their rings before their flags, are
         * taken in by the progress pass before the request completes. */
        o->posted = 2;
        return 0;
    }
    return 1;
}

static int bcast_step(struct tern_shmc_op *o)
{
    size_t bytes = o->rcount * o->rdt->size;
    if (o->r == o->root) {
        if (!may_write(o)) return 0;
        tern_shmc_put(data(o, o->root, bytes), o->rbuf, o->rcount, o->rdt);
        post(o);
        return 1;
    }
    if (!o->posted) post(o);
    if (!flag_at(o->a, o->root, o->s)) return 0;
    tern_shmc_unpack(data(o, o->root, bytes), o->rbuf, o->rcount, o->rdt);
    return 1;
}

/* gather and gatherv */
static int gather_step(struct tern_shmc_op *o)
{
    if (o->r != o->root) {
        if (slotted(o, o->scount, o->sdt)) {
            if (!may_write(o)) return 0;
            tern_shmc_put(data(o, o->r, o->scount * o->sdt->size), o->sbuf, o->scount, o->sdt);
        }
        post(o);
        return 1;
    }
    if (!o->posted) {
        post(o);
        if (o->sbuf != MPI_IN_PLACE)
            tern_dt_copy(o->sbuf, o->scount, o->sdt,
                         tern_coll_elem(o->rbuf, o->rdt, blk_at(o, o->r, o->rcount)),
                         blk_count(o, o->r, o->rcount), o->rdt);
    }
    for (; o->at < o->a->size; o->at++) {
        int i = o->at;
        size_t count = blk_count(o, i, o->rcount);
        if (i == o->root || !slotted(o, count, o->rdt)) continue;
        if (!flag_at(o->a, i, o->s)) return 0;
        tern_shmc_unpack(data(o, i, count * o->rdt->size),
                         tern_coll_elem(o->rbuf, o->rdt, blk_at(o, i, o->rcount)), count, o->rdt);
    }
    return 1;
}

/* Where scatter's block for rank i is: every block in the root's flag line
 * when all fit there (not scatterv's, whose sizes only the root knows),
 * else in rank i's slot. */
static char *scatter_block(const struct tern_shmc_op *o, int i)
{
    size_t blk = o->r == o->root ? o->scount * o->sdt->size : o->rcount * o->rdt->size;
    size_t all = blk * (size_t)o->a->size;
    if (o->fixed && all <= TERN_SHMC_INLINE) return data(o, o->root, all) + (size_t)i * blk;
    return slot(o, i);
}

/* scatter and scatterv */
static int scatter_step(struct tern_shmc_op *o)
{
    if (o->r == o->root) {
        if (!may_write(o)) return 0;
        for (int i = 0; i < o->a->size; i++) {
            size_t count = blk_count(o, i, o->scount);
            if (i != o->root && slotted(o, count, o->sdt))
                tern_shmc_put(scatter_block(o, i),
                              tern_coll_elem(o->sbuf, o->sdt, blk_at(o, i, o->scount)), count,
                              o->sdt);
        }
        post(o);
        if (o->rbuf != MPI_IN_PLACE)
            tern_dt_copy(tern_coll_elem(o->sbuf, o->sdt, blk_at(o, o->r, o->scount)),
                         blk_count(o, o->r, o->scount), o->sdt, o->rbuf, o->rcount, o->rdt);
        return 1;
    }
    if (!o->posted) post(o);
    if (!slotted(o, o->rcount, o->rdt)) return 1;
    if (!flag_at(o->a, o->root, o->s)) return 0;
    tern_shmc_unpack(scatter_block(o, o->r), o->rbuf, o->rcount, o->rdt);
    return 1;
}

/* Reads rank i's block of the other ranks' data, from this rank's
 * successor on (as the blocking ones do, so ranks do not all read one slot
 * at once); each rank's data is 'all' bytes (0: its block's), this rank's
 * block 'off' bytes into it. */
static int read_blocks(struct tern_shmc_op *o, size_t all, size_t off)
{
    int n = o->a->size;
    for (; o->at < n - 1; o->at++) {
        int i = (o->r + 1 + o->at) % n;
        size_t count = blk_count(o, i, o->rcount);
        if (!flag_at(o->a, i, o->s)) return 0;
        tern_shmc_unpack(data(o, i, all ? all : count * o->rdt->size) + off,
                         tern_coll_elem(o->rbuf, o->rdt, blk_at(o, i, o->rcount)), count, o->rdt);
    }
    if (o->s > o->a->all_past) o->a->all_past = o->s;
    return 1;
}

/* allgather and allgatherv */
static int allgather_step(struct tern_shmc_op *o)
{
    if (!o->posted) {
        if (!may_write(o)) return 0;
        char *mine = tern_coll_elem(o->rbuf, o->rdt, blk_at(o, o->r, o->rcount));
        size_t own = blk_count(o, o->r, o->rcount);
        char *dst = data(o, o->r, own * o->rdt->size);
        if (o->sbuf == MPI_IN_PLACE)
            tern_shmc_put(dst, mine, own, o->rdt);
        else
            tern_shmc_put(dst, o->sbuf, o->scount, o->sdt);
        post(o);
        if (o->sbuf != MPI_IN_PLACE) tern_dt_copy(o->sbuf, o->scount, o->sdt, mine, own, o->rdt);
    }
    return read_blocks(o, 0, 0);
}

static int alltoall_step(struct tern_shmc_op *o)
{
    size_t blk = o->rcount * o->rdt->size, all = blk * (size_t)o->a->size;
    if (!o->posted) {
        if (!may_write(o)) return 0;
        /* In place, the blocks to send are rbuf's: all in the area before
         * any is overwritten, and this rank's own is where it belongs. */
        int in_place = o->sbuf == MPI_IN_PLACE;
        const void *src = in_place ? o->rbuf : o->sbuf;
        size_t scount = in_place ? o->rcount : o->scount;
        struct tern_datatype *sdt = in_place ? o->rdt : o->sdt;
        char *mine = data(o, o->r, all);
        for (int i = 0; i < o->a->size; i++)
            if (i != o->r)
                tern_shmc_put(mine + (size_t)i * blk,
                              tern_coll_elem(src, sdt, i * (MPI_Aint)scount), scount, sdt);
        post(o);
        if (!in_place)
            tern_dt_copy(tern_coll_elem(src, sdt, o->r * (MPI_Aint)scount), scount, sdt,
                         tern_coll_elem(o->rbuf, o->rdt, o->r * (MPI_Aint)o->rcount), o->rcount,
                         o->rdt);
    }
    return read_blocks(o, all, (size_t)o->r * blk);
}

/* Alltoallv and alltoallw: block (i -> j) travels in part j of rank i's
 * slot when it fits one. */
static int in_part(const struct tern_shmc_op *o, size_t bytes) { return bytes && bytes <= o->part; }

static int alltoallv_step(struct tern_shmc_op *o)
{
    const struct tern_coll_blocks *rcv = o->rcv;
    int n = o->a->size, r = o->r;
    if (!o->posted) {
        if (!may_write(o)) return 0;
        /* In place, every block is in the slot before any is overwritten. */
        const struct tern_coll_blocks *snd = o->snd ? o->snd : rcv;
        const char *src = o->snd ? o->sbuf : o->rbuf;
        char *mine = slot(o, r);
        for (int j = 0; j < n; j++)
            if (j != r && in_part(o, tern_coll_blocks_size(snd, j)))
                tern_shmc_put(mine + (size_t)j * o->part, src + snd->off[j], snd->count[j],
                              snd->dt[j]);
        post(o);
    }
    for (; o->at < n - 1; o->at++) {
        int i = (r + 1 + o->at) % n;
        if (!in_part(o, tern_coll_blocks_size(rcv, i))) continue;
        if (!flag_at(o->a, i, o->s)) return 0;
        tern_shmc_unpack(slot(o, i) + (size_t)r * o->part, (char *)o->rbuf + rcv->off[i],
                         rcv->count[i], rcv->dt[i]);
    }
    return 1;
}

/* Every reduction, the prefix ones included: a rank waits only for the
 * ranks it combines (0..last), as the blocking scan does. */
static int reduce_step(struct tern_shmc_op *o)
{
    if (!o->posted) {
        if (!may_write(o)) return 0;
        const void *src = o->sbuf == MPI_IN_PLACE ? o->rbuf : o->sbuf;
        memcpy(slot(o, o->r), (const char *)src + o->rdt->true_lb, o->total * o->rdt->size);
        post(o);
        if (!o->fold_count) return 1;
    }
    if (!upto_at(o, o->s, o->last)) return 0;
    tern_shmc_fold(o->a, o->s, 0, o->last, o->first * o->rdt->size, TERN_SHMC_IN_SLOT, o->rbuf,
                   o->fold_count, o->rdt, o->op, o->sbuf == MPI_IN_PLACE ? NULL : o->sbuf);
    return 1;
}

/* The partitioned allreduce of shm_coll_partition.c, one chunk of a slot
 * at a time, each in three phases that never wait: (0) once the slots of
 * the chunk's first number are free, copy the chunk in and post; (1) once
 * every rank has, combine this rank's slice of the chunk from all the
 * slots into its slot of the second number, and post; (2) copy each rank's
 * slice out as its flag shows it there. */
static int partition_step(struct tern_shmc_op *o)
{
    struct tern_shmc *a = o->a;
    struct tern_datatype *dt = o->rdt;
    size_t esize = dt->size, per = a->slot_bytes / esize, first, len;
    const char *src = (const char *)(o->sbuf == MPI_IN_PLACE ? o->rbuf : o->sbuf) + dt->true_lb;
    char *dst = (char *)o->rbuf + dt->true_lb;
    int n = a->size;
    for (; o->chunk * per < o->total; o->chunk++, o->phase = 0) {
        size_t done = o->chunk * per, m = o->total - done < per ? o->total - done : per;
        uint64_t s0 = o->s + 2 * o->chunk, s1 = s0 + 1;
        if (o->phase == 0) {
            if (!all_at(o, s0 - 1)) return 0;
            memcpy(tern_shmc_slot(a, o->r, s0), src + done * esize, m * esize);
            tern_shmc_post(a, s0);
            o->phase = 1;
        }
        if (o->phase == 1) {
            if (!all_at(o, s0)) return 0;
            tern_shmc_slice_of(m, n, o->r, &first, &len);
            if (len)
                tern_shmc_fold(a, s0, 0, n - 1, first * esize, TERN_SHMC_IN_SLOT,
                               tern_shmc_slot(a, o->r, s1) + first * esize - dt->true_lb, len, dt,
                               o->op, NULL);
            tern_shmc_post(a, s1);
            o->phase = 2;
            o->at = 0;
        }
        for (; o->at < n; o->at++) {
            int i = (o->r + o->at) % n;
            if (!flag_at(a, i, s1)) return 0;
            tern_shmc_slice_of(m, n, i, &first, &len);
            if (len)
                memcpy(dst + (done + first) * esize, tern_shmc_slot(a, i, s1) + first * esize,
                       len * esize);
        }
        o->at = 0;
        if (s1 > a->all_past) a->all_past = s1;
    }
    return 1;
}

/* ---- The area's queue ---- */

/* Advances the queue from its head as far as it goes. */
static void run(struct tern_shmc *a)
{
    struct tern_shmc_op *o;
    while ((o = a->head) && o->step(o)) {
        o->done = 1;
        a->head = o->next;
        if (!a->head) a->tail = NULL;
    }
}

static void op_start(void *arg)
{
    struct tern_shmc_op *o = arg;
    struct tern_shmc *a = o->a;
    o->s = a->seq + 1;
    a->seq += o->nseq;
    o->posted = o->done = o->at = o->phase = 0;
    o->chunk = 0;
    o->next = NULL;
    if (a->tail)
        a->tail->next = o;
    else
        a->head = o;
    a->tail = o;
}

static int op_poll(void *arg)
{
    struct tern_shmc_op *o = arg;
    if (!o->done) run(o->a);
    return o->done;
}

static const struct tern_sched_machine machine = {op_start, op_poll};

/* The nonblocking lane for a call of s that carries 'bytes' in one slot,
 * or NULL: up to what a slot carries for the others, or with 'move' for
 * the data movers (move_bytes); 'all': every rank's slots
 * reserved (a scatter's root writes them), not only this rank's. */
static struct tern_shmc *lane_for(struct tern_sched *s, size_t bytes, int move, int all)
{
    struct tern_comm *c = tern_sched_comm(s);
    if (!tern_sched_in_order(s)) return NULL;
    struct tern_shmc *a = c->coll_shm             ? (c->coll_shm->area ? c->coll_shm : NULL)
                          : c == &tern_comm_world ? tern_shmc_get(c)
                                                  : NULL;
    if (!a || bytes > (move ? a->nbc->move_bytes : a->nbc->carry_bytes)) return NULL;
    tern_shmc_reserve_for(a->nbc, c->rank, bytes, all);
    return a->nbc;
}

static struct tern_shmc *area_for(struct tern_sched *s, size_t bytes)
{
    return lane_for(s, bytes, 0, 0);
}

/* A call on a that 'step' advances, filled in by the caller and added by
 * add(); 'extra' bytes follow it in the same allocation. */
static struct tern_shmc_op *op_new(struct tern_sched *s, struct tern_shmc *a,
                                   int (*step)(struct tern_shmc_op *), size_t extra)
{
    struct tern_shmc_op *o = tern_sched_buf(s, sizeof *o + extra);
    if (!o) return NULL;
    memset(o, 0, sizeof *o);
    o->a = a;
    o->step = step;
    o->r = tern_sched_comm(s)->rank;
    o->root = -1;
    o->fits = a->carry_bytes;
    o->nseq = 1;
    return o;
}

static int add(struct tern_sched *s, struct tern_shmc_op *o)
{
    if (!o) return tern_sched_round(s); /* the error stuck to s */
    tern_sched_machine(s, &machine, o, o->sdt, o->rdt, o->op);
    return tern_sched_round(s);
}

/* ---- The algorithms (coll/algos.h) ---- */

int tern_nbc_barrier_shm(struct tern_sched *s)
{
    struct tern_shmc *a = area_for(s, 0);
    if (!a) return tern_nbc_barrier_dissemination(s);
    return add(s, op_new(s, a, barrier_step, 0));
}

int tern_nbc_bcast_shm(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                       int root)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = lane_for(s, bytes, 1, 0);
    if (!a) return tern_nbc_bcast_binomial(s, buf, count, dt, root);
    struct tern_shmc_op *o = op_new(s, a, bcast_step, 0);
    if (o) {
        o->rbuf = buf;
        o->rcount = count;
        o->rdt = dt;
        o->root = root;
    }
    return add(s, o);
}

/* The calls that move blocks: sbuf/rbuf as the call gives them; the
 * v-variants' counts and displacements (copied: MPI forbids changing them
 * before completion, but a persistent request outlives many habits), or
 * NULL. */
static int rooted(struct tern_sched *s, struct tern_shmc *a, int (*step)(struct tern_shmc_op *),
                  const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                  size_t rcount, struct tern_datatype *rdt, const int *counts, const int *displs,
                  int root, int move)
{
    size_t arrays = counts ? 2 * (size_t)a->size * sizeof *counts : 0;
    struct tern_shmc_op *o = op_new(s, a, step, arrays);
    if (o) {
        if (counts) {
            int *copy = (int *)(o + 1);
            memcpy(copy, counts, arrays / 2);
            memcpy(copy + a->size, displs, arrays / 2);
            o->counts = copy;
            o->displs = copy + a->size;
        }
        o->sbuf = sbuf;
        o->scount = scount;
        o->sdt = sdt;
        o->rbuf = rbuf;
        o->rcount = rcount;
        o->rdt = rdt;
        o->root = root;
        if (move) o->fits = a->move_bytes;
        o->fixed = move;
    }
    return add(s, o);
}

int tern_nbc_gather_shm(struct tern_sched *s, const void *sbuf, size_t scount,
                        struct tern_datatype *sdt, void *rbuf, size_t rcount,
                        struct tern_datatype *rdt, int root)
{
    int root_here = tern_sched_comm(s)->rank == root;
    size_t bytes = root_here ? rcount * rdt->size : scount * sdt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = lane_for(s, bytes, 1, 0);
    if (!a) return tern_nbc_gather_binomial(s, sbuf, scount, sdt, rbuf, rcount, rdt, root);
    /* Only the root's receive arguments mean anything. */
    return rooted(s, a, gather_step, sbuf, scount, sbuf == MPI_IN_PLACE ? NULL : sdt, rbuf,
                  root_here ? rcount : 0, root_here ? rdt : NULL, NULL, NULL, root, 1);
}

int tern_nbc_scatter_shm(struct tern_sched *s, const void *sbuf, size_t scount,
                         struct tern_datatype *sdt, void *rbuf, size_t rcount,
                         struct tern_datatype *rdt, int root)
{
    int root_here = tern_sched_comm(s)->rank == root;
    size_t bytes = root_here ? scount * sdt->size : rcount * rdt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = lane_for(s, bytes, 1, root_here);
    if (!a) return tern_nbc_scatter_binomial(s, sbuf, scount, sdt, rbuf, rcount, rdt, root);
    return rooted(s, a, scatter_step, sbuf, root_here ? scount : 0, root_here ? sdt : NULL, rbuf,
                  rcount, rbuf == MPI_IN_PLACE ? NULL : rdt, NULL, NULL, root, 1);
}

int tern_nbc_allgather_shm(struct tern_sched *s, const void *sbuf, size_t scount,
                           struct tern_datatype *sdt, void *rbuf, size_t rcount,
                           struct tern_datatype *rdt)
{
    size_t bytes = rcount * rdt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = lane_for(s, bytes, 1, 0);
    if (!a) {
        /* What the table takes after shm (select.c). */
        int n = tern_sched_comm(s)->size;
        if (n >= 4 && bytes * (size_t)n <= 64 * 1024)
            return tern_nbc_allgather_bruck(s, sbuf, scount, sdt, rbuf, rcount, rdt);
        if (n >= 3) return tern_nbc_allgather_linear(s, sbuf, scount, sdt, rbuf, rcount, rdt);
        return tern_nbc_allgather_ring(s, sbuf, scount, sdt, rbuf, rcount, rdt);
    }
    return rooted(s, a, allgather_step, sbuf, scount, sbuf == MPI_IN_PLACE ? NULL : sdt, rbuf,
                  rcount, rdt, NULL, NULL, -1, 1);
}

int tern_nbc_alltoall_shm(struct tern_sched *s, const void *sbuf, size_t scount,
                          struct tern_datatype *sdt, void *rbuf, size_t rcount,
                          struct tern_datatype *rdt)
{
    size_t blk = rcount * rdt->size;
    if (blk == 0) return MPI_SUCCESS;
    struct tern_shmc *a = lane_for(s, blk * (size_t)tern_sched_comm(s)->size, 1, 0);
    if (!a) return tern_nbc_alltoall_exchange(s, sbuf, scount, sdt, rbuf, rcount, rdt);
    return rooted(s, a, alltoall_step, sbuf, scount, sbuf == MPI_IN_PLACE ? NULL : sdt, rbuf,
                  rcount, rdt, NULL, NULL, -1, 1);
}

/* Gatherv and scatterv take the area whatever their sizes: a block too
 * large for a slot travels point to point in the op's round, known as such
 * at both of its ends (their type signatures match), so no rank needs
 * another's counts. */
int tern_nbc_gatherv_shm(struct tern_sched *s, const void *sbuf, size_t scount,
                         struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                         const int *displs, struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_shmc *a = area_for(s, 0);
    if (!a) return tern_nbc_gatherv_linear(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root);
    if (c->rank != root) {
        if (beyond_slot(a, scount, sdt)) tern_sched_send(s, sbuf, scount, sdt, root);
        return rooted(s, a, gather_step, sbuf, scount, sdt, NULL, 0, NULL, NULL, NULL, root, 0);
    }
    for (int i = 0; i < c->size; i++)
        if (i != root && beyond_slot(a, (size_t)rcounts[i], rdt))
            tern_sched_recv(s, tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, i);
    return rooted(s, a, gather_step, sbuf, scount, sbuf == MPI_IN_PLACE ? NULL : sdt, rbuf, 0, rdt,
                  rcounts, displs, root, 0);
}

int tern_nbc_scatterv_shm(struct tern_sched *s, const void *sbuf, const int *scounts,
                          const int *displs, struct tern_datatype *sdt, void *rbuf, size_t rcount,
                          struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_shmc *a = area_for(s, 0);
    if (!a) return tern_nbc_scatterv_linear(s, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root);
    if (c->rank != root) {
        if (beyond_slot(a, rcount, rdt)) tern_sched_recv(s, rbuf, rcount, rdt, root);
        return rooted(s, a, scatter_step, NULL, 0, NULL, rbuf, rcount, rdt, NULL, NULL, root, 0);
    }
    for (int i = 0; i < c->size; i++)
        if (i != root && beyond_slot(a, (size_t)scounts[i], sdt))
            tern_sched_send(s, tern_coll_elem(sbuf, sdt, displs[i]), (size_t)scounts[i], sdt, i);
    return rooted(s, a, scatter_step, sbuf, 0, sdt, rbuf, rcount, rbuf == MPI_IN_PLACE ? NULL : rdt,
                  scounts, displs, root, 0);
}

/* Allgatherv: every rank knows every count, so all decide alike from the
 * largest block. */
int tern_nbc_allgatherv_shm(struct tern_sched *s, const void *sbuf, size_t scount,
                            struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                            const int *displs, struct tern_datatype *rdt)
{
    int n = tern_sched_comm(s)->size;
    size_t largest = tern_coll_max_count(rcounts, n);
    if (largest * rdt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = area_for(s, largest * rdt->size);
    if (!a) { /* what the table takes after shm (select.c) */
        if (n >= 3)
            return tern_nbc_allgatherv_linear(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt);
        return tern_nbc_allgatherv_ring(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt);
    }
    return rooted(s, a, allgather_step, sbuf, scount, sbuf == MPI_IN_PLACE ? NULL : sdt, rbuf, 0,
                  rdt, rcounts, displs, -1, 0);
}

/* Alltoallv (dts NULL) and alltoallw (displacements in bytes, a datatype
 * per peer).  A slot's part for one destination is a whole number of
 * words; where the ranks are too many for that, the point-to-point
 * exchange serves (decided alike everywhere: from the size and the slot). */
static int alltoallvw(struct tern_sched *s, const void *sbuf, const int *scounts,
                      const int *sdispls, struct tern_datatype *sdt,
                      struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                      const int *rdispls, struct tern_datatype *rdt,
                      struct tern_datatype *const *rdts)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank, in_place = sbuf == MPI_IN_PLACE;
    struct tern_shmc *a = area_for(s, 0);
    size_t part = a ? (a->carry_bytes / (size_t)n) & ~(size_t)7 : 0;
    if (!part)
        return sdts || rdts ? tern_nbc_alltoallw_exchange(s, sbuf, scounts, sdispls, sdts, rbuf,
                                                          rcounts, rdispls, rdts)
                            : tern_nbc_alltoallv_exchange(s, sbuf, scounts, sdispls, sdt, rbuf,
                                                          rcounts, rdispls, rdt);
    size_t arrays = tern_coll_blocks_bytes(n);
    struct tern_shmc_op *o =
        op_new(s, a, alltoallv_step, 2 * (sizeof(struct tern_coll_blocks) + arrays));
    if (!o) return tern_sched_round(s);
    struct tern_coll_blocks *b = (struct tern_coll_blocks *)(o + 1);
    char *mem = (char *)(b + 2);
    tern_coll_blocks_describe(&b[1], mem + arrays, n, 0, rcounts, rdispls, rdt, rdts);
    if (!in_place) tern_coll_blocks_describe(&b[0], mem, n, 0, scounts, sdispls, sdt, sdts);
    const struct tern_coll_blocks *snd = in_place ? &b[1] : &b[0], *rcv = &b[1];
    o->snd = in_place ? NULL : &b[0];
    o->rcv = rcv;
    o->sbuf = sbuf;
    o->rbuf = rbuf;
    o->part = part;
    /* In place, the blocks too large for a part are packed first: a
     * receive may overwrite the block that goes to its sender. */
    const char *src = in_place ? rbuf : sbuf;
    char **packed = NULL;
    if (in_place) {
        if (!(packed = tern_sched_buf(s, (size_t)n * sizeof *packed))) return tern_sched_round(s);
        for (int j = 0; j < n; j++) {
            size_t bytes = tern_coll_blocks_size(rcv, j);
            packed[j] = NULL;
            if (j == r || bytes <= part) continue;
            if (!(packed[j] = tern_sched_buf(s, bytes))) return tern_sched_round(s);
            tern_sched_copy(s, src + rcv->off[j], rcv->count[j], rcv->dt[j], packed[j], bytes,
                            tern_coll_byte());
        }
        tern_sched_round(s);
    }
    /* The slots first, so that the peers read the small blocks while the
     * large ones travel. */
    tern_sched_machine(s, &machine, o, sdts || in_place ? NULL : sdt, rdts ? NULL : rdt, NULL);
    for (int j = 0; j < n; j++) {
        if (sdts && !in_place && (j == 0 || sdts[j] != sdts[j - 1])) tern_sched_keep(s, sdts[j]);
        if (rdts && (j == 0 || rdts[j] != rdts[j - 1])) tern_sched_keep(s, rdts[j]);
    }
    if (!in_place)
        tern_sched_copy(s, src + snd->off[r], snd->count[r], snd->dt[r], (char *)rbuf + rcv->off[r],
                        rcv->count[r], rcv->dt[r]);
    for (int j = 0; j < n; j++)
        if (j != r && tern_coll_blocks_size(rcv, j) > part)
            tern_sched_recv(s, (char *)rbuf + rcv->off[j], rcv->count[j], rcv->dt[j], j);
    for (int j = 0; j < n; j++) {
        size_t bytes = tern_coll_blocks_size(snd, j);
        if (j == r || bytes <= part) continue;
        if (in_place)
            tern_sched_send(s, packed[j], bytes, tern_coll_byte(), j);
        else
            tern_sched_send(s, src + snd->off[j], snd->count[j], snd->dt[j], j);
    }
    return tern_sched_round(s);
}

int tern_nbc_alltoallv_shm(struct tern_sched *s, const void *sbuf, const int *scounts,
                           const int *sdispls, struct tern_datatype *sdt, void *rbuf,
                           const int *rcounts, const int *rdispls, struct tern_datatype *rdt)
{
    return alltoallvw(s, sbuf, scounts, sdispls, sdt, NULL, rbuf, rcounts, rdispls, rdt, NULL);
}

int tern_nbc_alltoallw_shm(struct tern_sched *s, const void *sbuf, const int *scounts,
                           const int *sdispls, struct tern_datatype *const *sdts, void *rbuf,
                           const int *rcounts, const int *rdispls,
                           struct tern_datatype *const *rdts)
{
    return alltoallvw(s, sbuf, scounts, sdispls, NULL, sdts, rbuf, rcounts, rdispls, NULL, rdts);
}

/* Every rank contributes 'total' elements; this one combines fold_count of
 * them from element 'first' of ranks 0..last into rbuf (none: 0). */
static int reduction(struct tern_sched *s, struct tern_shmc *a, const void *sbuf, void *rbuf,
                     size_t total, size_t first, size_t fold_count, int last,
                     struct tern_datatype *dt, struct tern_op *op)
{
    struct tern_shmc_op *o = op_new(s, a, reduce_step, 0);
    if (o) {
        o->sbuf = sbuf;
        o->rbuf = rbuf;
        o->sdt = o->rdt = dt; /* sdt: the one the step pins for a user's function */
        o->op = op;
        o->total = total;
        o->first = first;
        o->fold_count = fold_count;
        o->last = last;
    }
    return add(s, o);
}

/* The area for a reduction of 'bytes' in all: contiguous types only, as
 * the blocking ones (shm_coll.c). */
static struct tern_shmc *reduce_area(struct tern_sched *s, size_t bytes,
                                     const struct tern_datatype *dt)
{
    return dt->contig ? area_for(s, bytes) : NULL;
}

int tern_nbc_reduce_shm(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                        struct tern_datatype *dt, struct tern_op *op, int root)
{
    if (count * dt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = reduce_area(s, count * dt->size, dt);
    if (!a) return tern_nbc_reduce_binomial(s, sbuf, rbuf, count, dt, op, root);
    int root_here = tern_sched_comm(s)->rank == root;
    return reduction(s, a, sbuf, rbuf, count, 0, root_here ? count : 0, a->size - 1, dt, op);
}

int tern_nbc_allreduce_shm(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                           struct tern_datatype *dt, struct tern_op *op)
{
    if (count * dt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = reduce_area(s, count * dt->size, dt);
    if (!a) return tern_nbc_allreduce_recursive_doubling(s, sbuf, rbuf, count, dt, op);
    return reduction(s, a, sbuf, rbuf, count, 0, count, a->size - 1, dt, op);
}

/* Partitioned: commutative predefined operations on contiguous types, as
 * the blocking one; others take recursive doubling. */
int tern_nbc_allreduce_shm_partition(struct tern_sched *s, const void *sbuf, void *rbuf,
                                     size_t count, struct tern_datatype *dt, struct tern_op *op)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return MPI_SUCCESS;
    int builtin = op->predefined != MPI_OP_NULL && op->commutative;
    struct tern_shmc *a = dt->contig && builtin ? area_for(s, 0) : NULL;
    if (!a || a->slot_bytes < dt->size)
        return tern_nbc_allreduce_recursive_doubling(s, sbuf, rbuf, count, dt, op);
    struct tern_comm *c = tern_sched_comm(s);
    tern_shmc_reserve_for(a, c->rank, bytes < a->slot_bytes ? bytes : a->slot_bytes, 0);
    struct tern_shmc_op *o = op_new(s, a, partition_step, 0);
    if (o) {
        o->sbuf = sbuf;
        o->rbuf = rbuf;
        o->sdt = o->rdt = dt;
        o->op = op;
        o->total = count;
        o->nseq = 2 * ((count + a->slot_bytes / dt->size - 1) / (a->slot_bytes / dt->size));
    }
    return add(s, o);
}

int tern_nbc_reduce_scatter_shm(struct tern_sched *s, const void *sbuf, void *rbuf,
                                const int *rcounts, struct tern_datatype *dt, struct tern_op *op)
{
    struct tern_comm *c = tern_sched_comm(s);
    size_t total = 0, first = 0;
    for (int i = 0; i < c->size; i++) {
        if (i == c->rank) first = total;
        total += (size_t)rcounts[i];
    }
    if (total * dt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = reduce_area(s, total * dt->size, dt);
    if (!a) return tern_nbc_reduce_scatter_direct(s, sbuf, rbuf, rcounts, dt, op);
    return reduction(s, a, sbuf, rbuf, total, first, (size_t)rcounts[c->rank], a->size - 1, dt, op);
}

int tern_nbc_reduce_scatter_block_shm(struct tern_sched *s, const void *sbuf, void *rbuf,
                                      size_t rcount, struct tern_datatype *dt, struct tern_op *op)
{
    struct tern_comm *c = tern_sched_comm(s);
    size_t total = rcount * (size_t)c->size;
    if (total * dt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = reduce_area(s, total * dt->size, dt);
    if (!a) return tern_nbc_reduce_scatter_block_direct(s, sbuf, rbuf, rcount, dt, op);
    return reduction(s, a, sbuf, rbuf, total, rcount * (size_t)c->rank, rcount, a->size - 1, dt,
                     op);
}

/* Scan and exscan: rank r combines ranks 0..r (exscan: 0..r-1; its rank 0
 * none) in rank order, waiting for those alone. */
static int prefix(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                  struct tern_datatype *dt, struct tern_op *op, int exclusive)
{
    if (count * dt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = reduce_area(s, count * dt->size, dt);
    if (!a)
        return exclusive ? tern_nbc_exscan_recursive_doubling(s, sbuf, rbuf, count, dt, op)
                         : tern_nbc_scan_recursive_doubling(s, sbuf, rbuf, count, dt, op);
    int r = tern_sched_comm(s)->rank, last = exclusive ? r - 1 : r;
    return reduction(s, a, sbuf, rbuf, count, 0, last < 0 ? 0 : count, last, dt, op);
}

int tern_nbc_scan_shm(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                      struct tern_datatype *dt, struct tern_op *op)
{
    return prefix(s, sbuf, rbuf, count, dt, op, 0);
}

int tern_nbc_exscan_shm(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                        struct tern_datatype *dt, struct tern_op *op)
{
    return prefix(s, sbuf, rbuf, count, dt, op, 1);
}
