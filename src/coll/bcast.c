/* Broadcast: binomial tree over ranks relative to the root.  The user's
 * buffer travels as is (point-to-point handles any datatype); a rank
 * forwards to all its children at once so large messages overlap.
 *
 * Linear runs the nonblocking schedule (nbc_rooted.c, through
 * sched_blocking.c). */

#include "coll/coll_util.h"

int tern_coll_bcast_binomial_start(void *buf, size_t count, struct tern_datatype *dt, int root,
                                   struct tern_comm *c, struct tern_request **reqs, int *nreq)
{
    int n = c->size, r = c->rank;
    *nreq = 0;
    if (n == 1 || count == 0 || dt->size == 0) return MPI_SUCCESS;
    int vr = (r - root + n) % n, mask = 1, rc;

    while (mask < n) {
        if (vr & mask) {
            rc = tern_recv(buf, count, dt, (r - mask + n) % n, TERN_TAG_BCAST, c, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
            if (rc) return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < n) {
            rc = tern_isend(buf, count, dt, (r + mask) % n, TERN_TAG_BCAST, c, TERN_COLL_CTX,
                            TERN_MODE_STANDARD, &reqs[*nreq]);
            if (rc) {
                tern_waitall(*nreq, reqs);
                *nreq = 0;
                return rc;
            }
            (*nreq)++;
        }
    }
    return MPI_SUCCESS;
}

int tern_coll_bcast_binomial(void *buf, size_t count, struct tern_datatype *dt, int root,
                             struct tern_comm *c)
{
    struct tern_request *reqs[TERN_COLL_BINOMIAL_SENDS];
    int nreq;
    int rc = tern_coll_bcast_binomial_start(buf, count, dt, root, c, reqs, &nreq);
    if (rc) return rc;
    return tern_waitall(nreq, reqs);
}
