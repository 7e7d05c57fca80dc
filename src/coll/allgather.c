/* Allgather and allgatherv.
 *
 * Ring (allgatherv, and allgather of large blocks): in step s every rank
 * passes the block it received in step s - 1 (its own at first) to its
 * right neighbour and receives a new one from its left; n - 1 steps, each
 * rank sends and receives every block once, straight between the users'
 * buffers in the receive datatype.
 *
 * Bruck (allgather of small blocks, any n): ceil(log2 n) steps.  In the
 * step of distance d a rank sends the blocks it holds (those of ranks
 * r .. r+d-1, packed) to r - d and appends those of r + d .. r + 2d - 1
 * from r + d; at the end block i of the scratch buffer is rank r + i's. */
#include <stdlib.h>

#include "coll/coll_util.h"

/* Total bytes below which allgather takes Bruck's algorithm. */
#define TERN_ALLGATHER_BRUCK_MAX (64 * 1024)

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

static int bruck(const void *own, void *rbuf, size_t rcount, struct tern_datatype *rdt,
                 struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    size_t blk = rcount * rdt->size;
    char *tmp = malloc((size_t)n * blk);
    if (!tmp) return tern_coll_nomem("MPI_Allgather", (size_t)n * blk);
    tern_dt_pack(rdt, own, rcount, 0, tmp, blk);
    struct tern_datatype *bt = tern_coll_byte();
    int have = 1;
    for (int d = 1; d < n && !rc; d <<= 1) {
        int cnt = d < n - d ? d : n - d;
        rc = tern_sendrecv(tmp, (size_t)cnt * blk, bt, (r - d + n) % n, TERN_TAG_ALLGATHER,
                           tmp + (size_t)have * blk, (size_t)cnt * blk, bt, (r + d) % n,
                           TERN_TAG_ALLGATHER, c, TERN_COLL_CTX, MPI_STATUS_IGNORE);
        have += cnt;
    }
    if (!rc)
        for (int i = 1; i < n; i++)
            tern_dt_unpack(rdt, tern_coll_elem(rbuf, rdt, (MPI_Aint)((r + i) % n) * (MPI_Aint)rcount),
                           rcount, 0, tmp + (size_t)i * blk, blk);
    free(tmp);
    return rc;
}

int tern_allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                   size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    if (rcount * rdt->size == 0) return MPI_SUCCESS;
    char *mine = tern_coll_elem(rbuf, rdt, (MPI_Aint)c->rank * (MPI_Aint)rcount);
    if (sbuf != MPI_IN_PLACE) tern_dt_copy(sbuf, scount, sdt, mine, rcount, rdt);
    if (c->size == 1) return MPI_SUCCESS;
    if (rcount * rdt->size * (size_t)c->size <= TERN_ALLGATHER_BRUCK_MAX)
        return bruck(mine, rbuf, rcount, rdt, c);
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
