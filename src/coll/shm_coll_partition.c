/* Partitioned reductions in shared memory, for vectors larger than a slot
 * (rules of the area: shm_coll.h): allreduce and reduce_scatter(_block).
 *
 * Allreduce.  The vector goes in chunks of a slot;
 * for each chunk, two collectives on the area:
 *   s      every rank copies its chunk into its slot;
 *   s + 1  every rank combines its own slice of the chunk from all the
 *          slots at once (rank order) into the same place of its slot of
 *          the other parity, then every rank copies all the slices out.
 * So each rank reduces 1/n of the vector instead of all of it, and no
 * point-to-point message is sent.  Chunk k + 1 writes the slots of chunk
 * k's step s only once every rank has entered s + 1 (tern_shmc_may_write),
 * so a rank runs at most one step ahead of the slowest.
 *
 * Each element is combined once, by one rank, so every rank gets the same
 * bits; the slices change the grouping of a floating-point sum against the
 * other algorithms, hence commutative predefined operations only (and
 * contiguous types, whose layout is the packed one); other calls run
 * recursive doubling.
 *
 * Reduce_scatter: the blocks go in rounds of a slot; in round k every rank
 * copies the k-th piece of every block into its slot (piece i at i * m
 * elements) and posts, then combines piece r of every slot, in rank order,
 * straight into its own result.  One collective per round: a rank's next
 * post comes after its combining, so the slots of a parity are written
 * again only once every rank is done reading them.  Each element is
 * combined once, in rank order, so any operation on a contiguous type is
 * served. */
#include <string.h>

#include "coll/coll_util.h"
#include "coll/op.h"
#include "coll/shm_coll.h"

void tern_shmc_slice_of(size_t m, int n, int i, size_t *first, size_t *len)
{
    *first = m * (size_t)i / (size_t)n;
    *len = m * (size_t)(i + 1) / (size_t)n - *first;
}

int tern_coll_allreduce_shm_partition(const void *sbuf, void *rbuf, size_t count,
                                      struct tern_datatype *dt, struct tern_op *op,
                                      struct tern_comm *c)
{
    size_t esize = dt->size;
    if (count * esize == 0) return MPI_SUCCESS;
    int builtin = op->predefined != MPI_OP_NULL && op->commutative;
    struct tern_shmc *a = dt->contig && builtin ? tern_shmc_for(c, 0) : NULL;
    if (!a || a->slot_bytes < esize)
        return tern_coll_allreduce_recursive_doubling(sbuf, rbuf, count, dt, op, c);
    int r = c->rank, n = c->size;
    tern_shmc_reserve_slots(a, r);
    const char *src = (const char *)(sbuf == MPI_IN_PLACE ? rbuf : sbuf) + dt->true_lb;
    char *dst = (char *)rbuf + dt->true_lb;
    size_t per_chunk = a->slot_bytes / esize;
    for (size_t done = 0; done < count; done += per_chunk) {
        size_t m = count - done < per_chunk ? count - done : per_chunk;
        size_t at = done * esize;
        uint64_t s = tern_shmc_next(a);
        tern_shmc_may_write(a, s);
        memcpy(tern_shmc_slot(a, r, s), src + at, m * esize);
        tern_shmc_post(a, s);
        tern_shmc_wait_all(a, s);

        uint64_t s1 = tern_shmc_next(a); /* every flag is at s: the other parity is free */
        size_t first, len;
        tern_shmc_slice_of(m, n, r, &first, &len);
        if (len) {
            char *out = tern_shmc_slot(a, r, s1) + first * esize;
            tern_shmc_fold(a, s, 0, n - 1, first * esize, TERN_SHMC_IN_SLOT, out - dt->true_lb, len,
                           dt, op, NULL);
        }
        tern_shmc_post(a, s1);
        for (int k = 0; k < n; k++) {
            int i = (r + k) % n;
            tern_shmc_slice_of(m, n, i, &first, &len);
            tern_shmc_wait(a, i, s1);
            if (len)
                memcpy(dst + at + first * esize, tern_shmc_slot(a, i, s1) + first * esize,
                       len * esize);
        }
        if (s1 > a->all_past) a->all_past = s1;
    }
    return MPI_SUCCESS;
}

static size_t piece_len(size_t count, size_t at, size_t m)
{
    return count <= at ? 0 : count - at < m ? count - at : m;
}

/* 1: done; 0: the area cannot serve the call, the caller falls back. */
static int rs_partition(const void *sbuf, void *rbuf, const int *rcounts, size_t rcount,
                        struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c)
{
    int r = c->rank, n = c->size;
    size_t esize = dt->size, longest = 0;
    for (int i = 0; i < n; i++)
        if (tern_coll_block_count(rcounts, rcount, i) > longest)
            longest = tern_coll_block_count(rcounts, rcount, i);
    struct tern_shmc *a = dt->contig ? tern_shmc_for(c, 0) : NULL;
    if (!a || a->slot_bytes < (size_t)n * esize) return 0;
    if (longest * esize == 0) return 1;
    tern_shmc_reserve_slots(a, r);
    const char *src = (const char *)(sbuf == MPI_IN_PLACE ? rbuf : sbuf) + dt->true_lb;
    size_t m = a->slot_bytes / ((size_t)n * esize),
           mine = tern_coll_block_count(rcounts, rcount, r);
    for (size_t at = 0; at < longest; at += m) {
        uint64_t s = tern_shmc_next(a);
        tern_shmc_may_write(a, s);
        char *slot = tern_shmc_slot(a, r, s);
        size_t displ = 0;
        for (int i = 0; i < n; i++) {
            size_t count = tern_coll_block_count(rcounts, rcount, i), len = piece_len(count, at, m);
            if (len) memcpy(slot + (size_t)i * m * esize, src + (displ + at) * esize, len * esize);
            displ += count;
        }
        tern_shmc_post(a, s);
        tern_shmc_wait_all(a, s);
        size_t len = piece_len(mine, at, m);
        if (len)
            tern_shmc_fold(a, s, 0, n - 1, (size_t)r * m * esize, TERN_SHMC_IN_SLOT,
                           tern_coll_elem(rbuf, dt, (MPI_Aint)at), len, dt, op, NULL);
    }
    return 1;
}

int tern_coll_reduce_scatter_shm_partition(const void *sbuf, void *rbuf, const int *rcounts,
                                           struct tern_datatype *dt, struct tern_op *op,
                                           struct tern_comm *c)
{
    if (rs_partition(sbuf, rbuf, rcounts, 0, dt, op, c)) return MPI_SUCCESS;
    return op->commutative
               ? tern_coll_reduce_scatter_pairwise(sbuf, rbuf, rcounts, dt, op, c)
               : tern_coll_reduce_scatter_reduce_scatterv(sbuf, rbuf, rcounts, dt, op, c);
}

int tern_coll_reduce_scatter_block_shm_partition(const void *sbuf, void *rbuf, size_t rcount,
                                                 struct tern_datatype *dt, struct tern_op *op,
                                                 struct tern_comm *c)
{
    if (rs_partition(sbuf, rbuf, NULL, rcount, dt, op, c)) return MPI_SUCCESS;
    return op->commutative
               ? tern_coll_reduce_scatter_block_pairwise(sbuf, rbuf, rcount, dt, op, c)
               : tern_coll_reduce_scatter_block_reduce_scatterv(sbuf, rbuf, rcount, dt, op, c);
}
