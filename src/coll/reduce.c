/* Reduce: binomial tree.  For a commutative operation the tree is rooted at
 * the root (ranks relative to it).  For a non-commutative one the tree is
 * rooted at rank 0, where every subtree is a contiguous range of ranks and
 * each combination is "lower range op upper range", so the result is in
 * rank order; rank 0 then sends it to the root. */
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/op.h"

int tern_coll_reduce_binomial(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                              struct tern_op *op, int root, struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    if (count == 0) return MPI_SUCCESS;
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf; /* only at the root */
    if (n == 1) {
        if (sbuf != rbuf) tern_dt_copy(sbuf, count, dt, rbuf, count, dt);
        return MPI_SUCCESS;
    }

    int troot = op->commutative ? root : 0;
    int vr = (r - troot + n) % n;
    void *m1 = NULL, *m2 = NULL;
    /* A commutative reduction accumulates where it can: a leaf sends its own
     * buffer, the root combines into rbuf, an inner rank into scratch; the
     * first child's vector lands there and this rank's own is combined into
     * it, which saves copying the own vector first.  The non-commutative
     * one swaps its two buffers, so both are scratch. */
    char *acc = (char *)sbuf, *tmp = NULL;
    int first_in_acc = 0;
    if (!op->commutative || (vr & 1) == 0) {
        int own_apart = op->commutative && vr + 1 < n;
        if (op->commutative && r == root) {
            acc = rbuf;
            first_in_acc = own_apart && sbuf != rbuf;
        } else {
            acc = tern_coll_tmpbuf(dt, count, &m1);
            if (!acc) return tern_coll_nomem("MPI_Reduce", count * dt->size);
            first_in_acc = own_apart;
        }
        if (!first_in_acc && acc != sbuf) tern_dt_copy(sbuf, count, dt, acc, count, dt);
    }

    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            rc = tern_send(acc, count, dt, (vr - mask + troot) % n, TERN_TAG_REDUCE, c,
                           TERN_COLL_CTX);
            break;
        }
        if (vr + mask >= n) continue;
        if (mask == 1 && first_in_acc) {
            rc = tern_recv(acc, count, dt, (vr + 1 + troot) % n, TERN_TAG_REDUCE, c, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
            if (rc) break;
            tern_op_apply(op, sbuf, acc, count, dt);
            continue;
        }
        if (!tmp && !(tmp = tern_coll_tmpbuf(dt, count, &m2))) {
            rc = tern_coll_nomem("MPI_Reduce", count * dt->size);
            break;
        }
        rc = tern_recv(tmp, count, dt, (vr + mask + troot) % n, TERN_TAG_REDUCE, c, TERN_COLL_CTX,
                       MPI_STATUS_IGNORE);
        if (rc) break;
        if (op->commutative) {
            tern_op_apply(op, tmp, acc, count, dt);
        } else { /* acc holds the lower ranks: tmp = acc op tmp */
            tern_op_apply(op, acc, tmp, count, dt);
            char *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (!rc) {
        if (r == troot && r == root) {
            if (acc != rbuf) tern_dt_copy(acc, count, dt, rbuf, count, dt);
        } else if (r == troot) {
            rc = tern_send(acc, count, dt, root, TERN_TAG_REDUCE, c, TERN_COLL_CTX);
        } else if (r == root) {
            rc = tern_recv(rbuf, count, dt, troot, TERN_TAG_REDUCE, c, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
        }
    }
    tern_coll_tmpfree(m1);
    tern_coll_tmpfree(m2);
    return rc;
}
