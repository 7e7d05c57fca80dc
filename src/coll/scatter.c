/* Scatter: binomial tree over ranks relative to the root, the mirror of
 * gather.  The root sends each subtree's blocks from its buffer (packing
 * only the one subtree whose ranks wrap past n - 1); each rank receives its
 * subtree's blocks in one message and passes the upper halves on.  Leaves receive straight
 * into the user's buffer.
 *
 * Linear scatter and scatterv run the nonblocking schedule (nbc_rooted.c,
 * through sched_blocking.c). */
#include <stdlib.h>

#include "coll/coll_util.h"

/* The root's sends: each subtree's blocks (relative ranks [m, m + cnt))
 * straight from the send buffer, except the one subtree whose ranks wrap
 * past n - 1, packed in relative order. */
static int scatter_from_root(const void *sbuf, size_t scount, struct tern_datatype *sdt, size_t blk,
                             void *rbuf, size_t rcount, struct tern_datatype *rdt, int root,
                             struct tern_comm *c)
{
    int n = c->size, rc = MPI_SUCCESS, nreq = 0, top = 1;
    struct tern_request *reqs[32];
    char *tmp = NULL;
    while (top * 2 < n) top *= 2;
    for (int mask = top; mask > 0 && !rc; mask >>= 1) {
        int cnt = n - mask < mask ? n - mask : mask, first = (root + mask) % n;
        if (first + cnt <= n) {
            rc = tern_isend(tern_coll_elem(sbuf, sdt, (MPI_Aint)first * (MPI_Aint)scount),
                            (size_t)cnt * scount, sdt, first, TERN_TAG_SCATTER, c, TERN_COLL_CTX,
                            TERN_MODE_STANDARD, &reqs[nreq]);
        } else if (!(tmp = malloc((size_t)cnt * blk))) {
            rc = tern_coll_nomem("MPI_Scatter", (size_t)cnt * blk);
        } else {
            for (int j = 0; j < cnt; j++)
                tern_dt_pack(
                    sdt, tern_coll_elem(sbuf, sdt, (MPI_Aint)((first + j) % n) * (MPI_Aint)scount),
                    scount, 0, tmp + (size_t)j * blk, blk);
            rc = tern_isend(tmp, (size_t)cnt * blk, tern_coll_byte(), first, TERN_TAG_SCATTER, c,
                            TERN_COLL_CTX, TERN_MODE_STANDARD, &reqs[nreq]);
        }
        if (!rc) nreq++;
    }
    /* The root's own block while the first children take theirs (a large
     * one by CMA from sbuf, started by the send above). */
    if (rbuf != MPI_IN_PLACE)
        tern_dt_copy(tern_coll_elem(sbuf, sdt, (MPI_Aint)root * (MPI_Aint)scount), scount, sdt,
                     rbuf, rcount, rdt);
    int rc2 = tern_waitall(nreq, reqs);
    free(tmp);
    return rc ? rc : rc2;
}

int tern_coll_scatter_binomial(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                               void *rbuf, size_t rcount, struct tern_datatype *rdt, int root,
                               struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    int vr = (r - root + n) % n;
    size_t blk = r == root ? scount * sdt->size : rcount * rdt->size;
    if (blk == 0) return MPI_SUCCESS;

    if (n == 1) {
        if (rbuf != MPI_IN_PLACE) tern_dt_copy(sbuf, scount, sdt, rbuf, rcount, rdt);
        return MPI_SUCCESS;
    }

    int sub = vr == 0 ? n : tern_coll_lowbit(vr);
    if (sub > n - vr) sub = n - vr;
    int parent = vr == 0 ? -1 : (vr - tern_coll_lowbit(vr) + root) % n;
    if (sub == 1)
        return tern_recv(rbuf, rcount, rdt, parent, TERN_TAG_SCATTER, c, TERN_COLL_CTX,
                         MPI_STATUS_IGNORE);

    struct tern_datatype *bt = tern_coll_byte();
    if (r == root) return scatter_from_root(sbuf, scount, sdt, blk, rbuf, rcount, rdt, root, c);
    char *tmp = malloc((size_t)sub * blk);
    if (!tmp) return tern_coll_nomem("MPI_Scatter", (size_t)sub * blk);
    rc = tern_recv(tmp, (size_t)sub * blk, bt, parent, TERN_TAG_SCATTER, c, TERN_COLL_CTX,
                   MPI_STATUS_IGNORE);
    struct tern_request *reqs[32];
    int nreq = 0;
    if (!rc) {
        int mask = 1;
        while (mask < sub) mask <<= 1;
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (mask >= sub) continue;
            int cnt = sub - mask < mask ? sub - mask : mask;
            rc = tern_isend(tmp + (size_t)mask * blk, (size_t)cnt * blk, bt, (vr + mask + root) % n,
                            TERN_TAG_SCATTER, c, TERN_COLL_CTX, TERN_MODE_STANDARD, &reqs[nreq]);
            if (rc) break;
            nreq++;
        }
        if (!rc) tern_dt_unpack(rdt, rbuf, rcount, 0, tmp, blk);
    }
    int rc2 = tern_waitall(nreq, reqs);
    free(tmp);
    return rc ? rc : rc2;
}
