/* Allgather and allgatherv: ring.  In step s every rank passes the block it
 * received in step s - 1 (its own at first) to its right neighbour and
 * receives a new one from its left; n - 1 steps, each rank sends and
 * receives every block once.  Blocks move straight between the users'
 * buffers in the receive datatype. */
#include "coll/coll_util.h"

static int ring(void *rbuf, const int *rcounts, const int *displs, size_t rcount,
                struct tern_datatype *rdt, int tag, struct tern_comm *c)
{
    int n = c->size, r = c->rank;
    int left = (r - 1 + n) % n, right = (r + 1) % n;
    for (int s = 0; s < n - 1; s++) {
        int sb = (r - s + n) % n, rb = (r - s - 1 + n) % n;
        MPI_Aint soff = rcounts ? displs[sb] : (MPI_Aint)sb * (MPI_Aint)rcount;
        MPI_Aint roff = rcounts ? displs[rb] : (MPI_Aint)rb * (MPI_Aint)rcount;
        size_t scnt = rcounts ? (size_t)rcounts[sb] : rcount;
        size_t rcnt = rcounts ? (size_t)rcounts[rb] : rcount;
        int rc = tern_sendrecv(tern_coll_elem(rbuf, rdt, soff), scnt, rdt, right, tag,
                               tern_coll_elem(rbuf, rdt, roff), rcnt, rdt, left, tag, c,
                               TERN_COLL_CTX, MPI_STATUS_IGNORE);
        if (rc) return rc;
    }
    return MPI_SUCCESS;
}

int tern_allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                   size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    if (rcount * rdt->size == 0) return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE)
        tern_dt_copy(sbuf, scount, sdt,
                     tern_coll_elem(rbuf, rdt, (MPI_Aint)c->rank * (MPI_Aint)rcount), rcount, rdt);
    return ring(rbuf, NULL, NULL, rcount, rdt, TERN_TAG_ALLGATHER, c);
}

int tern_allgatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                    const int *rcounts, const int *displs, struct tern_datatype *rdt,
                    struct tern_comm *c)
{
    size_t total = 0;
    for (int i = 0; i < c->size; i++) total += (size_t)rcounts[i];
    if (total * rdt->size == 0) return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE)
        tern_dt_copy(sbuf, scount, sdt, tern_coll_elem(rbuf, rdt, displs[c->rank]),
                     (size_t)rcounts[c->rank], rdt);
    return ring(rbuf, rcounts, displs, 0, rdt, TERN_TAG_ALLGATHERV, c);
}
