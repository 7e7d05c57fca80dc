/* Scan and exscan: recursive doubling.  Each rank keeps 'partial', the
 * reduction of the aligned block of ranks it has heard about so far, and
 * exchanges it with rank ^ mask.  What comes from a lower rank is folded
 * into both partial and the result; what comes from a higher rank only
 * into partial (after it, for non-commutative operations). log2 n steps. */
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/op.h"

static int scan_common(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                       struct tern_op *op, struct tern_comm *c, int exclusive)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    int tag = exclusive ? TERN_TAG_EXSCAN : TERN_TAG_SCAN;
    if (count == 0) return MPI_SUCCESS;
    const void *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (!exclusive && src != rbuf) tern_dt_copy(src, count, dt, rbuf, count, dt);
    if (n == 1) return MPI_SUCCESS;

    void *m1, *m2;
    char *partial = tern_coll_tmpbuf(dt, count, &m1);
    char *tmp = tern_coll_tmpbuf(dt, count, &m2);
    if (!partial || !tmp) {
        tern_coll_tmpfree(m1);
        tern_coll_tmpfree(m2);
        return tern_coll_nomem(exclusive ? "MPI_Exscan" : "MPI_Scan", 2 * count * dt->size);
    }
    tern_dt_copy(src, count, dt, partial, count, dt);
    int have_result = !exclusive; /* exscan: rbuf is set by the first lower contribution */

    for (int mask = 1; mask < n && !rc; mask <<= 1) {
        int peer = r ^ mask;
        if (peer >= n) continue;
        rc = tern_sendrecv(partial, count, dt, peer, tag, tmp, count, dt, peer, tag, c,
                           TERN_COLL_CTX, MPI_STATUS_IGNORE);
        if (rc) break;
        if (peer < r) {
            /* tmp covers ranks below everything we hold. */
            tern_op_apply(op, tmp, partial, count, dt);
            if (have_result) {
                tern_op_apply(op, tmp, rbuf, count, dt);
            } else {
                tern_dt_copy(tmp, count, dt, rbuf, count, dt);
                have_result = 1;
            }
        } else if (op->commutative) {
            tern_op_apply(op, tmp, partial, count, dt);
        } else { /* partial = partial op tmp */
            tern_op_apply(op, partial, tmp, count, dt);
            char *t = partial;
            partial = tmp;
            tmp = t;
        }
    }
    tern_coll_tmpfree(m1);
    tern_coll_tmpfree(m2);
    return rc;
}

int tern_coll_scan_recursive_doubling(const void *sbuf, void *rbuf, size_t count,
                                      struct tern_datatype *dt, struct tern_op *op,
                                      struct tern_comm *c)
{
    return scan_common(sbuf, rbuf, count, dt, op, c, 0);
}

int tern_coll_exscan_recursive_doubling(const void *sbuf, void *rbuf, size_t count,
                                        struct tern_datatype *dt, struct tern_op *op,
                                        struct tern_comm *c)
{
    return scan_common(sbuf, rbuf, count, dt, op, c, 1);
}
