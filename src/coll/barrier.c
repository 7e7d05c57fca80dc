/* Barrier: dissemination.  In round k (k = 1, 2, 4, ...) every rank sends an
 * empty message to rank + k and waits for one from rank - k; after
 * ceil(log2 n) rounds each rank has heard, directly or not, from all. */
#include "coll/coll_util.h"

int tern_coll_barrier_dissemination(struct tern_comm *c)
{
    int n = c->size, r = c->rank;
    struct tern_datatype *bt = tern_coll_byte();
    char dummy = 0; /* an address for the empty messages */
    for (int k = 1; k < n; k <<= 1) {
        int rc =
            tern_sendrecv(&dummy, 0, bt, (r + k) % n, TERN_TAG_BARRIER, &dummy, 0, bt,
                          (r - k + n) % n, TERN_TAG_BARRIER, c, TERN_COLL_CTX, MPI_STATUS_IGNORE);
        if (rc) return rc;
    }
    return MPI_SUCCESS;
}
