/* Shared-memory reductions that give each rank a different result
 * (rules: shm_coll.h): reduce_scatter(_block), scan and exscan.  Every
 * rank writes its whole input vector into its slot; each then combines,
 * in rank order, the part it is owed: its block of every slot
 * (reduce_scatter) or the slots of the ranks up to it (scan).  So
 * non-commutative operations are served, and the bits are those of the
 * other shared-memory reductions.  Contiguous types only, as there;
 * otherwise, or when a vector does not fit a slot (sizes every rank
 * knows), the point-to-point algorithm runs. */
#include "coll/coll_util.h"
#include "coll/shm_coll.h"

/* Every rank's vector of 'total' elements in its slot; this rank's block
 * of 'count' elements from element 'first' combined into rbuf. */
static void reduce_block(struct tern_shmc *a, const void *sbuf, void *rbuf, size_t total,
                         size_t first, size_t count, struct tern_datatype *dt, struct tern_op *op)
{
    uint64_t s = tern_shmc_next(a);
    int in_place = sbuf == MPI_IN_PLACE;
    tern_shmc_contribute(a, s, in_place ? rbuf : sbuf, total, dt, total * dt->size);
    tern_shmc_wait_all(a, s);
    if (count)
        tern_shmc_fold(a, s, 0, a->size - 1, first * dt->size, total * dt->size, rbuf, count, dt,
                       op, in_place ? NULL : sbuf);
}

int tern_coll_reduce_scatter_block_shm(const void *sbuf, void *rbuf, size_t rcount,
                                       struct tern_datatype *dt, struct tern_op *op,
                                       struct tern_comm *c)
{
    size_t total = rcount * (size_t)c->size;
    if (total * dt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = dt->contig ? tern_shmc_for(c, total * dt->size) : NULL;
    if (!a) return tern_coll_reduce_scatter_block_reduce_scatterv(sbuf, rbuf, rcount, dt, op, c);
    reduce_block(a, sbuf, rbuf, total, rcount * (size_t)c->rank, rcount, dt, op);
    return MPI_SUCCESS;
}

int tern_coll_reduce_scatter_shm(const void *sbuf, void *rbuf, const int *rcounts,
                                 struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c)
{
    size_t total = 0, first = 0;
    for (int i = 0; i < c->size; i++) {
        if (i == c->rank) first = total;
        total += (size_t)rcounts[i];
    }
    if (total * dt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = dt->contig ? tern_shmc_for(c, total * dt->size) : NULL;
    if (!a) return tern_coll_reduce_scatter_reduce_scatterv(sbuf, rbuf, rcounts, dt, op, c);
    reduce_block(a, sbuf, rbuf, total, first, (size_t)rcounts[c->rank], dt, op);
    return MPI_SUCCESS;
}

/* rbuf = x0 op ... op x(last), where last is the rank itself (scan) or
 * the one before it (exscan, whose rank 0 gets nothing).  A rank waits
 * only for the ranks below it: the slots of collective s are written
 * again at s + 2, after every rank has entered s + 1, done with s. */
static int prefix(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                  struct tern_op *op, struct tern_shmc *a, int r, int exclusive)
{
    uint64_t s = tern_shmc_next(a);
    int last = exclusive ? r - 1 : r;
    /* Nobody reads the last rank's input in an exscan. */
    if (exclusive && r == a->size - 1)
        tern_shmc_post(a, s);
    else
        tern_shmc_contribute(a, s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dt, count * dt->size);
    if (last < 0) return MPI_SUCCESS;
    for (int i = 0; i <= last; i++) tern_shmc_wait(a, i, s);
    tern_shmc_fold(a, s, 0, last, 0, count * dt->size, rbuf, count, dt, op,
                   sbuf == MPI_IN_PLACE ? NULL : sbuf);
    return MPI_SUCCESS;
}

/* Both prefix reductions: through the slots when the data fit, else the
 * point-to-point algorithm (every rank decides alike). */
static int scan_or_fallback(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                            struct tern_op *op, struct tern_comm *c, int exclusive)
{
    size_t bytes = count * dt->size;
    if (bytes == 0) return MPI_SUCCESS;
    struct tern_shmc *a = dt->contig ? tern_shmc_for(c, bytes) : NULL;
    if (a) return prefix(sbuf, rbuf, count, dt, op, a, c->rank, exclusive);
    return exclusive ? tern_coll_exscan_recursive_doubling(sbuf, rbuf, count, dt, op, c)
                     : tern_coll_scan_recursive_doubling(sbuf, rbuf, count, dt, op, c);
}

int tern_coll_scan_shm(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                       struct tern_op *op, struct tern_comm *c)
{
    return scan_or_fallback(sbuf, rbuf, count, dt, op, c, 0);
}

int tern_coll_exscan_shm(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                         struct tern_op *op, struct tern_comm *c)
{
    return scan_or_fallback(sbuf, rbuf, count, dt, op, c, 1);
}
