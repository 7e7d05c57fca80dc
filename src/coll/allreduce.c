/* Allreduce: recursive doubling.  With n not a power of two, the first 2*rem
 * ranks pair up (even into odd) so that p = 2^k ranks remain, each standing
 * for a contiguous range of ranks; they exchange and combine in log2 p
 * steps, then hand the result back to the ranks that sat out.  Every
 * combination puts the lower range first, so non-commutative operations
 * come out in rank order. */
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/op.h"

int tern_coll_allreduce_recursive_doubling(const void *sbuf, void *rbuf, size_t count,
                                           struct tern_datatype *dt, struct tern_op *op,
                                           struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    if (count == 0) return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE) tern_dt_copy(sbuf, count, dt, rbuf, count, dt);
    if (n == 1) return MPI_SUCCESS;

    void *mem;
    char *tmp = tern_coll_tmpbuf(dt, count, &mem);
    if (!tmp) return tern_coll_nomem("MPI_Allreduce", count * dt->size);

    int pof2 = 1;
    while (pof2 * 2 <= n) pof2 *= 2;
    int rem = n - pof2, newrank;

    if (r < 2 * rem) {
        if (r % 2 == 0) {
            rc = tern_send(rbuf, count, dt, r + 1, TERN_TAG_ALLREDUCE, c, TERN_COLL_CTX);
            newrank = -1;
        } else {
            rc = tern_recv(tmp, count, dt, r - 1, TERN_TAG_ALLREDUCE, c, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
            if (!rc) tern_op_apply(op, tmp, rbuf, count, dt); /* tmp is the lower rank */
            newrank = r / 2;
        }
    } else {
        newrank = r - rem;
    }

    if (newrank >= 0) {
        for (int mask = 1; mask < pof2 && !rc; mask <<= 1) {
            int nd = newrank ^ mask;
            int dst = nd < rem ? nd * 2 + 1 : nd + rem;
            rc = tern_sendrecv(rbuf, count, dt, dst, TERN_TAG_ALLREDUCE, tmp, count, dt, dst,
                               TERN_TAG_ALLREDUCE, c, TERN_COLL_CTX, MPI_STATUS_IGNORE);
            if (rc) break;
            if (dst < r || op->commutative) {
                tern_op_apply(op, tmp, rbuf, count, dt);
            } else { /* rbuf = rbuf op tmp */
                tern_op_apply(op, rbuf, tmp, count, dt);
                tern_dt_copy(tmp, count, dt, rbuf, count, dt);
            }
        }
    }

    if (!rc && r < 2 * rem) {
        if (r % 2)
            rc = tern_send(rbuf, count, dt, r - 1, TERN_TAG_ALLREDUCE, c, TERN_COLL_CTX);
        else
            rc = tern_recv(rbuf, count, dt, r + 1, TERN_TAG_ALLREDUCE, c, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
    }
    tern_coll_tmpfree(mem);
    return rc;
}
