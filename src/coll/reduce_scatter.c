/* Reduce_scatter and reduce_scatter_block.
 *
 * Commutative operations on large vectors: pairwise exchange.  In step s
 * rank r sends its contribution to the block of r + s and receives the
 * contribution of r - s to its own block, combining as it goes: each rank
 * moves only the data that is not its own, once (n - 1 messages a rank).
 *
 * Small vectors and non-commutative operations: reduce the whole vector to
 * rank 0 (a binomial tree, in rank order, see reduce.c), then scatterv the
 * blocks: 2(n - 1) messages in all.  coll/select.c decides which. */
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/op.h"

/* The pairwise exchange: commutative operations only. */
static int pairwise(const char *src, void *rbuf, const int *rcounts, const int *displs,
                    struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    size_t mine = (size_t)rcounts[r];
    void *m1, *m2;
    char *acc = tern_coll_tmpbuf(dt, mine, &m1);
    char *tmp = tern_coll_tmpbuf(dt, mine, &m2);
    if (!acc || !tmp) {
        rc = tern_coll_nomem("MPI_Reduce_scatter", 2 * mine * dt->size);
    } else {
        tern_dt_copy(tern_coll_elem(src, dt, displs[r]), mine, dt, acc, mine, dt);
        for (int s = 1; s < n && !rc; s++) {
            int dst = (r + s) % n, from = (r - s + n) % n;
            rc = tern_sendrecv(tern_coll_elem(src, dt, displs[dst]), (size_t)rcounts[dst], dt, dst,
                               TERN_TAG_REDUCE_SCATTER, tmp, mine, dt, from,
                               TERN_TAG_REDUCE_SCATTER, c, TERN_COLL_CTX, MPI_STATUS_IGNORE);
            if (!rc && mine) tern_op_apply(op, tmp, acc, mine, dt);
        }
        /* Every send is complete: rbuf may be overwritten even in place. */
        if (!rc) tern_dt_copy(acc, mine, dt, rbuf, mine, dt);
    }
    tern_coll_tmpfree(m1);
    tern_coll_tmpfree(m2);
    return rc;
}

static int reduce_then_scatterv(const char *src, void *rbuf, const int *rcounts, const int *displs,
                                size_t total, struct tern_datatype *dt, struct tern_op *op,
                                struct tern_comm *c)
{
    int rc = MPI_SUCCESS;
    void *m = NULL;
    char *full = NULL;
    if (c->rank == 0 && !(full = tern_coll_tmpbuf(dt, total, &m)))
        rc = tern_coll_nomem("MPI_Reduce_scatter", total * dt->size);
    /* A failed allocation at rank 0 would leave the others waiting:
     * the error is fatal by default and the job ends. */
    if (!rc) rc = tern_coll_reduce(src, full, total, dt, op, 0, c);
    if (!rc)
        rc =
            tern_coll_scatterv(full, rcounts, displs, dt, rbuf, (size_t)rcounts[c->rank], dt, 0, c);
    tern_coll_tmpfree(m);
    return rc;
}

/* The cases every algorithm shares (nothing to reduce, one rank), then
 * the algorithm. */
static int reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                          struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c,
                          int use_pairwise)
{
    int n = c->size, rc = MPI_SUCCESS;
    size_t total;
    int *displs = tern_coll_displs_of(rcounts, n, &total);
    if (!displs) return tern_coll_nomem("MPI_Reduce_scatter", (size_t)n * sizeof *displs);
    const char *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t mine = (size_t)rcounts[c->rank];

    if (total == 0) {
        /* nothing to do */
    } else if (n == 1) {
        if (src != rbuf) tern_dt_copy(src, mine, dt, rbuf, mine, dt);
    } else if (use_pairwise) {
        rc = pairwise(src, rbuf, rcounts, displs, dt, op, c);
    } else {
        rc = reduce_then_scatterv(src, rbuf, rcounts, displs, total, dt, op, c);
    }
    free(displs);
    return rc;
}

int tern_coll_reduce_scatter_pairwise(const void *sbuf, void *rbuf, const int *rcounts,
                                      struct tern_datatype *dt, struct tern_op *op,
                                      struct tern_comm *c)
{
    return reduce_scatter(sbuf, rbuf, rcounts, dt, op, c, 1);
}

int tern_coll_reduce_scatter_reduce_scatterv(const void *sbuf, void *rbuf, const int *rcounts,
                                             struct tern_datatype *dt, struct tern_op *op,
                                             struct tern_comm *c)
{
    return reduce_scatter(sbuf, rbuf, rcounts, dt, op, c, 0);
}

/* Every block rcount elements. */
static int reduce_scatter_block(const void *sbuf, void *rbuf, size_t rcount,
                                struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c,
                                int use_pairwise)
{
    int n = c->size;
    if (rcount == 0) return MPI_SUCCESS;
    int *counts = malloc((size_t)n * sizeof *counts);
    if (!counts) return tern_coll_nomem("MPI_Reduce_scatter_block", (size_t)n * sizeof *counts);
    for (int i = 0; i < n; i++) counts[i] = (int)rcount;
    int rc = reduce_scatter(sbuf, rbuf, counts, dt, op, c, use_pairwise);
    free(counts);
    return rc;
}

int tern_coll_reduce_scatter_block_pairwise(const void *sbuf, void *rbuf, size_t rcount,
                                            struct tern_datatype *dt, struct tern_op *op,
                                            struct tern_comm *c)
{
    return reduce_scatter_block(sbuf, rbuf, rcount, dt, op, c, 1);
}

int tern_coll_reduce_scatter_block_reduce_scatterv(const void *sbuf, void *rbuf, size_t rcount,
                                                   struct tern_datatype *dt, struct tern_op *op,
                                                   struct tern_comm *c)
{
    return reduce_scatter_block(sbuf, rbuf, rcount, dt, op, c, 0);
}
