/* Gather: binomial tree over ranks relative to the root.  A rank collects
 * the packed blocks of its subtree in one scratch buffer (block j is
 * relative rank vr + j) and forwards it to its parent; leaves send their
 * own buffer directly.  The root receives each subtree straight into its
 * buffer (unpacking only the one subtree whose ranks wrap past n - 1).
 *
 * Linear gather and gatherv run the nonblocking schedule (nbc_rooted.c,
 * through sched_blocking.c). */
#include <stdlib.h>

#include "coll/coll_util.h"

/* The root's receives: each subtree's blocks (relative ranks [m, m + cnt))
 * straight into the receive buffer, except the one subtree whose ranks
 * wrap past n - 1, received packed and unpacked into place. */
static int gather_to_root(void *rbuf, size_t rcount, struct tern_datatype *rdt, size_t blk,
                          int root, struct tern_comm *c)
{
    int n = c->size, rc = MPI_SUCCESS, nreq = 0, wrap_first = -1, wrap_cnt = 0;
    struct tern_request *reqs[32];
    char *tmp = NULL;
    for (int mask = 1; mask < n && !rc; mask <<= 1) {
        int cnt = n - mask < mask ? n - mask : mask, first = (root + mask) % n;
        if (first + cnt <= n) {
            rc = tern_irecv(tern_coll_elem(rbuf, rdt, (MPI_Aint)first * (MPI_Aint)rcount),
                            (size_t)cnt * rcount, rdt, first, TERN_TAG_GATHER, c, TERN_COLL_CTX,
                            &reqs[nreq]);
        } else if (!(tmp = malloc((size_t)cnt * blk))) {
            rc = tern_coll_nomem("MPI_Gather", (size_t)cnt * blk);
        } else {
            wrap_first = first;
            wrap_cnt = cnt;
            rc = tern_irecv(tmp, (size_t)cnt * blk, tern_coll_byte(), first, TERN_TAG_GATHER, c,
                            TERN_COLL_CTX, &reqs[nreq]);
        }
        if (!rc) nreq++;
    }
    int rc2 = tern_waitall(nreq, reqs);
    if (!rc) rc = rc2;
    for (int j = 0; !rc && j < wrap_cnt; j++)
        tern_dt_unpack(
            rdt, tern_coll_elem(rbuf, rdt, (MPI_Aint)((wrap_first + j) % n) * (MPI_Aint)rcount),
            rcount, 0, tmp + (size_t)j * blk, blk);
    free(tmp);
    return rc;
}

int tern_coll_gather_binomial(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                              void *rbuf, size_t rcount, struct tern_datatype *rdt, int root,
                              struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    int vr = (r - root + n) % n;
    size_t blk = r == root ? rcount * rdt->size : scount * sdt->size;
    if (blk == 0) return MPI_SUCCESS; /* every rank has an empty block then */

    if (r == root && sbuf != MPI_IN_PLACE)
        tern_dt_copy(sbuf, scount, sdt,
                     tern_coll_elem(rbuf, rdt, (MPI_Aint)root * (MPI_Aint)rcount), rcount, rdt);
    if (n == 1) return MPI_SUCCESS;

    /* Subtree of vr: [vr, vr + sub). */
    int sub = vr == 0 ? n : tern_coll_lowbit(vr);
    if (sub > n - vr) sub = n - vr;
    int parent = vr == 0 ? -1 : (vr - tern_coll_lowbit(vr) + root) % n;
    if (sub == 1) return tern_send(sbuf, scount, sdt, parent, TERN_TAG_GATHER, c, TERN_COLL_CTX);

    if (r == root) return gather_to_root(rbuf, rcount, rdt, blk, root, c);

    struct tern_request *reqs[32];
    int nreq = 0;
    struct tern_datatype *bt = tern_coll_byte();
    char *tmp = malloc((size_t)sub * blk);
    if (!tmp) return tern_coll_nomem("MPI_Gather", (size_t)sub * blk);
    tern_dt_pack(sdt, sbuf, scount, 0, tmp, blk);

    for (int mask = 1; mask < sub; mask <<= 1) {
        int cnt = sub - mask < mask ? sub - mask : mask;
        rc = tern_irecv(tmp + (size_t)mask * blk, (size_t)cnt * blk, bt, (vr + mask + root) % n,
                        TERN_TAG_GATHER, c, TERN_COLL_CTX, &reqs[nreq]);
        if (rc) break;
        nreq++;
    }
    int rc2 = tern_waitall(nreq, reqs);
    if (!rc) rc = rc2;
    if (!rc) rc = tern_send(tmp, (size_t)sub * blk, bt, parent, TERN_TAG_GATHER, c, TERN_COLL_CTX);
    free(tmp);
    return rc;
}
