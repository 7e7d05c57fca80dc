/* Broadcast: binomial tree over ranks relative to the root.  The user's
 * buffer travels as is (point-to-point handles any datatype); a rank
 * forwards to all its children at once so large messages overlap.
 *
 * Linear: the root sends to every rank at once.  Above the eager size on
 * one host each receiver then copies from the root's buffer itself (CMA),
 * all of them at the same time and each when it runs, where a tree makes
 * a rank wait for its parent's copy (log2 n handshakes in a row, each
 * needing both sides on a core when ranks outnumber cores). */
#include <stdlib.h>

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

int tern_coll_bcast_linear(void *buf, size_t count, struct tern_datatype *dt, int root,
                           struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    if (n == 1 || count == 0 || dt->size == 0) return MPI_SUCCESS;
    if (r != root)
        return tern_recv(buf, count, dt, root, TERN_TAG_BCAST, c, TERN_COLL_CTX, MPI_STATUS_IGNORE);
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Bcast", (size_t)n * sizeof *reqs);
    for (int i = 1; i < n && !rc; i++)
        rc = tern_isend(buf, count, dt, (root + i) % n, TERN_TAG_BCAST, c, TERN_COLL_CTX,
                        TERN_MODE_STANDARD, &reqs[(root + i) % n]);
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}
