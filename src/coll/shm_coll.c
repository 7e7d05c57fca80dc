/* Shared-memory collectives for small messages (the area and its rules:
 * shm_coll.h).  Data goes through the slots, packed; no point-to-point
 * message is sent.  A call whose data does not fit a slot, or on a
 * communicator that found no free area, runs the point-to-point algorithm
 * instead: the sizes and the area are the same on every rank, so every
 * rank takes the same way.
 *
 * Reductions combine the slots in rank order, x0 op (x1 op (... op
 * x(n-1))), so non-commutative operations are served and every rank of an
 * allreduce computes the same bits.  They take contiguous types only (the
 * operation's kernels work on the user's layout, which then is the packed
 * one). */
#include <string.h>

#include "coll/coll_util.h"
#include "coll/op.h"
#include "coll/shm_coll.h"
#include "core/progress.h"
#include "transport/shm/shm.h"

/* c's area when 'bytes' fit what a slot carries for the others, or with
 * 'move' for the data movers; attached at c's first call. */
static struct tern_shmc *area_within(struct tern_comm *c, size_t bytes, int move)
{
    struct tern_shmc *a = c->coll_shm;
    if (!a) {
        struct tern_shm_coll_pool p;
        tern_shm_coll_pool(&p);
        if (!p.base || bytes > (move ? p.move_bytes : tern_shmc_carry(p.slot_bytes))) return NULL;
        a = tern_shmc_get(c);
    }
    return a && a->area && bytes <= (move ? a->move_bytes : a->carry_bytes) ? a : NULL;
}

struct tern_shmc *tern_shmc_for(struct tern_comm *c, size_t bytes)
{
    return area_within(c, bytes, 0);
}

struct tern_shmc *tern_shmc_for_move(struct tern_comm *c, size_t bytes, int all)
{
    struct tern_shmc *a = area_within(c, bytes, 1);
    if (a) tern_shmc_reserve_for(a, c->rank, bytes, all);
    return a;
}

void tern_shmc_put(char *slot, const void *buf, size_t count, const struct tern_datatype *dt)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return; /* buf may be NULL then */
    if (dt->contig)
        memcpy(slot, (const char *)buf + dt->true_lb, bytes);
    else
        tern_dt_pack(dt, buf, count, 0, slot, bytes);
}

void tern_shmc_unpack(const char *slot, void *buf, size_t count, const struct tern_datatype *dt)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return; /* buf may be NULL then */
    if (dt->contig)
        memcpy((char *)buf + dt->true_lb, slot, bytes);
    else
        tern_dt_unpack(dt, buf, count, 0, slot, bytes);
}

void tern_shmc_post_own(struct tern_shmc *a, uint64_t s, char *dst, const void *sbuf, size_t scount,
                        const struct tern_datatype *sdt, char *mine, size_t own,
                        const struct tern_datatype *rdt)
{
    tern_shmc_may_write(a, s);
    if (sbuf == MPI_IN_PLACE)
        tern_shmc_put(dst, mine, own, rdt);
    else
        tern_shmc_put(dst, sbuf, scount, sdt);
    tern_shmc_post(a, s);
    if (sbuf != MPI_IN_PLACE) tern_dt_copy(sbuf, scount, sdt, mine, own, rdt);
}

int tern_coll_barrier_shm(struct tern_comm *c)
{
    struct tern_shmc *a = tern_shmc_for(c, 0);
    if (!a) return tern_coll_barrier_dissemination(c);
    if (a->groups) {
        tern_shmc_barrier_levels(a, c->rank);
    } else {
        uint64_t s = tern_shmc_next(a);
        tern_shmc_post(a, s);
        tern_shmc_wait_all(a, s);
    }
    /* Programs count on a barrier to land the messages sent before it (a
     * request freed before completion, its buffer going out of scope after
     * the barrier): a peer's eager packets entered its rings before its
     * flag, so one pass now takes them in, as a barrier of messages behind
     * them would. */
    tern_progress();
    return MPI_SUCCESS;
}

int tern_coll_bcast_shm(void *buf, size_t count, struct tern_datatype *dt, int root,
                        struct tern_comm *c)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = tern_shmc_for_move(c, bytes, 0);
    if (!a) return tern_coll_bcast_binomial(buf, count, dt, root, c);
    if (a->groups) {
        tern_shmc_bcast_levels(a, c->rank, buf, count, dt, root);
        return MPI_SUCCESS;
    }
    uint64_t s = tern_shmc_next(a);
    if (c->rank == root) {
        tern_shmc_may_write(a, s);
        tern_shmc_put(tern_shmc_data(a, root, s, bytes), buf, count, dt);
        tern_shmc_post(a, s);
        return MPI_SUCCESS;
    }
    tern_shmc_post(a, s);
    tern_shmc_wait(a, root, s);
    tern_shmc_unpack(tern_shmc_data(a, root, s, bytes), buf, count, dt);
    return MPI_SUCCESS;
}

int tern_coll_gather_shm(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                         size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    int r = c->rank;
    size_t bytes = r == root ? rcount * rdt->size : scount * sdt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = tern_shmc_for_move(c, bytes, 0);
    if (!a) return tern_coll_gather_binomial(sbuf, scount, sdt, rbuf, rcount, rdt, root, c);
    uint64_t s = tern_shmc_next(a);
    if (r != root) {
        tern_shmc_may_write(a, s);
        tern_shmc_put(tern_shmc_data(a, r, s, bytes), sbuf, scount, sdt);
        tern_shmc_post(a, s);
        return MPI_SUCCESS;
    }
    tern_shmc_post(a, s);
    MPI_Aint block = (MPI_Aint)rcount;
    if (sbuf != MPI_IN_PLACE)
        tern_dt_copy(sbuf, scount, sdt, tern_coll_elem(rbuf, rdt, root * block), rcount, rdt);
    for (int i = 0; i < c->size; i++) {
        if (i == root) continue;
        tern_shmc_wait(a, i, s);
        tern_shmc_unpack(tern_shmc_data(a, i, s, bytes), tern_coll_elem(rbuf, rdt, i * block),
                         rcount, rdt);
    }
    return MPI_SUCCESS;
}

int tern_coll_scatter_shm(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                          size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    int r = c->rank;
    size_t bytes = r == root ? scount * sdt->size : rcount * rdt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = tern_shmc_for_move(c, bytes, r == root);
    if (!a) return tern_coll_scatter_binomial(sbuf, scount, sdt, rbuf, rcount, rdt, root, c);
    uint64_t s = tern_shmc_next(a);
    MPI_Aint block = (MPI_Aint)scount;
    /* The root writes each rank's block into that rank's slot, or all of
     * them into its flag line when they fit there. */
    size_t all = bytes * (size_t)c->size;
    char *line = all <= TERN_SHMC_INLINE ? tern_shmc_data(a, root, s, all) : NULL;
    if (r == root) {
        tern_shmc_may_write(a, s);
        for (int i = 0; i < c->size; i++)
            if (i != root)
                tern_shmc_put(line ? line + (size_t)i * bytes : tern_shmc_slot(a, i, s),
                              tern_coll_elem(sbuf, sdt, i * block), scount, sdt);
        tern_shmc_post(a, s);
        if (rbuf != MPI_IN_PLACE)
            tern_dt_copy(tern_coll_elem(sbuf, sdt, root * block), scount, sdt, rbuf, rcount, rdt);
        return MPI_SUCCESS;
    }
    tern_shmc_post(a, s);
    tern_shmc_wait(a, root, s);
    tern_shmc_unpack(line ? line + (size_t)r * bytes : tern_shmc_slot(a, r, s), rbuf, rcount, rdt);
    return MPI_SUCCESS;
}

int tern_coll_allgather_shm(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                            size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    int r = c->rank;
    size_t bytes = rcount * rdt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = tern_shmc_for_move(c, bytes, 0);
    if (!a) return tern_coll_allgather_bruck(sbuf, scount, sdt, rbuf, rcount, rdt, c);
    uint64_t s = tern_shmc_next(a);
    MPI_Aint block = (MPI_Aint)rcount;
    char *mine = tern_coll_elem(rbuf, rdt, r * block);
    tern_shmc_post_own(a, s, tern_shmc_data(a, r, s, bytes), sbuf, scount, sdt, mine, rcount, rdt);
    for (int i = 0; i < c->size; i++) {
        if (i == r) continue;
        tern_shmc_wait(a, i, s);
        tern_shmc_unpack(tern_shmc_data(a, i, s, bytes), tern_coll_elem(rbuf, rdt, i * block),
                         rcount, rdt);
    }
    if (s > a->all_past) a->all_past = s;
    return MPI_SUCCESS;
}

static const char *fold_operand(struct tern_shmc *a, uint64_t s, int i, size_t off, size_t total,
                                const struct tern_datatype *dt, const void *own)
{
    if (own && i == a->rank) return (const char *)own + dt->true_lb + off;
    return tern_shmc_data(a, i, s, total) + off;
}

void tern_shmc_fold(struct tern_shmc *a, uint64_t s, int first, int last, size_t off, size_t total,
                    void *rbuf, size_t count, struct tern_datatype *dt, struct tern_op *op,
                    const void *own)
{
    memcpy((char *)rbuf + dt->true_lb, fold_operand(a, s, last, off, total, dt, own),
           count * dt->size);
    for (int i = last - 1; i >= first; i--)
        tern_op_apply(op, fold_operand(a, s, i, off, total, dt, own) - dt->true_lb, rbuf, count,
                      dt);
}

void tern_shmc_contribute(struct tern_shmc *a, uint64_t s, const void *src, size_t count,
                          const struct tern_datatype *dt, size_t total)
{
    tern_shmc_may_write(a, s);
    memcpy(tern_shmc_data(a, a->rank, s, total), (const char *)src + dt->true_lb, count * dt->size);
    tern_shmc_post(a, s);
}

int tern_coll_reduce_shm(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                         struct tern_op *op, int root, struct tern_comm *c)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = dt->contig ? tern_shmc_for(c, bytes) : NULL;
    if (!a) return tern_coll_reduce_binomial(sbuf, rbuf, count, dt, op, root, c);
    if (a->groups && tern_shmc_reduce_levels(a, c->rank, sbuf, rbuf, count, dt, op, root) == 0)
        return MPI_SUCCESS;
    uint64_t s = tern_shmc_next(a);
    /* In the slots even when small: the ranks other than the root post and
     * run on into their next collective, whose flag writes would take the
     * line back from a root still reading data there (1.21-1.26x the time
     * of the slots at 1-16 bytes, 2 ranks, docs/comparison/runs/2026-11-29-inline). */
    tern_shmc_contribute(a, s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dt, TERN_SHMC_IN_SLOT);
    if (c->rank != root) return MPI_SUCCESS;
    tern_shmc_wait_all(a, s);
    tern_shmc_fold(a, s, 0, a->size - 1, 0, TERN_SHMC_IN_SLOT, rbuf, count, dt, op,
                   sbuf == MPI_IN_PLACE ? NULL : sbuf);
    return MPI_SUCCESS;
}

int tern_coll_allreduce_shm(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                            struct tern_op *op, struct tern_comm *c)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = dt->contig ? tern_shmc_for(c, bytes) : NULL;
    if (!a) return tern_coll_allreduce_recursive_doubling(sbuf, rbuf, count, dt, op, c);
    if (a->groups && tern_shmc_reduce_levels(a, c->rank, sbuf, rbuf, count, dt, op, -1) == 0)
        return MPI_SUCCESS;
    uint64_t s = tern_shmc_next(a);
    tern_shmc_contribute(a, s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dt, bytes);
    tern_shmc_wait_all(a, s);
    tern_shmc_fold(a, s, 0, a->size - 1, 0, bytes, rbuf, count, dt, op,
                   sbuf == MPI_IN_PLACE ? NULL : sbuf);
    return MPI_SUCCESS;
}
