/* Gather: binomial tree over ranks relative to the root.  A rank collects
 * the packed blocks of its subtree in one scratch buffer (block j is
 * relative rank vr + j) and forwards it to its parent; leaves send their
 * own buffer directly.  The root unpacks every block into place, or at root
 * 0 receives each subtree straight into it.
 *
 * Gatherv: linear (only the root knows the counts). */
#include <stdlib.h>

#include "coll/coll_util.h"

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

    struct tern_request *reqs[32];
    int nreq = 0;
    /* At root 0 each subtree's blocks land as a run of the receive buffer,
     * received there; another root's last subtree wraps past rank n - 1, so
     * it unpacks them from relative order. */
    if (r == root && root == 0) {
        for (int mask = 1; mask < n && !rc; mask <<= 1) {
            int cnt = n - mask < mask ? n - mask : mask;
            rc = tern_irecv(tern_coll_elem(rbuf, rdt, (MPI_Aint)mask * (MPI_Aint)rcount),
                            (size_t)cnt * rcount, rdt, mask, TERN_TAG_GATHER, c, TERN_COLL_CTX,
                            &reqs[nreq]);
            if (!rc) nreq++;
        }
        int rc2 = tern_waitall(nreq, reqs);
        return rc ? rc : rc2;
    }
    struct tern_datatype *bt = tern_coll_byte();
    char *tmp = malloc((size_t)sub * blk);
    if (!tmp) return tern_coll_nomem("MPI_Gather", (size_t)sub * blk);
    if (r != root) tern_dt_pack(sdt, sbuf, scount, 0, tmp, blk);

    for (int mask = 1; mask < sub; mask <<= 1) {
        int cnt = sub - mask < mask ? sub - mask : mask;
        rc = tern_irecv(tmp + (size_t)mask * blk, (size_t)cnt * blk, bt, (vr + mask + root) % n,
                        TERN_TAG_GATHER, c, TERN_COLL_CTX, &reqs[nreq]);
        if (rc) break;
        nreq++;
    }
    int rc2 = tern_waitall(nreq, reqs);
    if (!rc) rc = rc2;
    if (!rc) {
        if (r != root) {
            rc = tern_send(tmp, (size_t)sub * blk, bt, parent, TERN_TAG_GATHER, c, TERN_COLL_CTX);
        } else {
            for (int j = 1; j < n; j++) {
                MPI_Aint dst = (MPI_Aint)((j + root) % n) * (MPI_Aint)rcount;
                tern_dt_unpack(rdt, tern_coll_elem(rbuf, rdt, dst), rcount, 0,
                               tmp + (size_t)j * blk, blk);
            }
        }
    }
    free(tmp);
    return rc;
}

int tern_coll_gatherv_linear(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                             const int *rcounts, const int *displs, struct tern_datatype *rdt,
                             int root, struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    if (r != root) {
        if (scount * sdt->size == 0) return MPI_SUCCESS;
        return tern_send(sbuf, scount, sdt, root, TERN_TAG_GATHERV, c, TERN_COLL_CTX);
    }
    if (sbuf != MPI_IN_PLACE)
        tern_dt_copy(sbuf, scount, sdt, tern_coll_elem(rbuf, rdt, displs[root]),
                     (size_t)rcounts[root], rdt);
    if (n == 1) return MPI_SUCCESS;
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Gatherv", (size_t)n * sizeof *reqs);
    for (int i = 0; i < n && !rc; i++) {
        if (i == root || (size_t)rcounts[i] * rdt->size == 0) continue;
        rc = tern_irecv(tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, i,
                        TERN_TAG_GATHERV, c, TERN_COLL_CTX, &reqs[i]);
    }
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}
