/* Scatter: binomial tree over ranks relative to the root, the mirror of
 * gather.  The root packs the blocks in relative order (root 0 sends each
 * subtree's from its buffer); each rank receives its subtree's blocks in
 * one message and passes the upper halves on.  Leaves receive straight
 * into the user's buffer.
 *
 * Scatterv: linear (only the root knows the counts). */
#include <stdlib.h>

#include "coll/coll_util.h"

int tern_coll_scatter_binomial(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                               void *rbuf, size_t rcount, struct tern_datatype *rdt, int root,
                               struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    int vr = (r - root + n) % n;
    size_t blk = r == root ? scount * sdt->size : rcount * rdt->size;
    if (blk == 0) return MPI_SUCCESS;

    if (r == root && rbuf != MPI_IN_PLACE)
        tern_dt_copy(tern_coll_elem(sbuf, sdt, (MPI_Aint)root * (MPI_Aint)scount), scount, sdt,
                     rbuf, rcount, rdt);
    if (n == 1) return MPI_SUCCESS;

    int sub = vr == 0 ? n : tern_coll_lowbit(vr);
    if (sub > n - vr) sub = n - vr;
    int parent = vr == 0 ? -1 : (vr - tern_coll_lowbit(vr) + root) % n;
    if (sub == 1)
        return tern_recv(rbuf, rcount, rdt, parent, TERN_TAG_SCATTER, c, TERN_COLL_CTX,
                         MPI_STATUS_IGNORE);

    struct tern_datatype *bt = tern_coll_byte();
    /* At root 0 each subtree's blocks are a run of the send buffer, sent
     * from there; another root's last subtree wraps past rank n - 1, so it
     * packs them in relative order. */
    if (r == root && root == 0) {
        struct tern_request *reqs[32];
        int nreq = 0, mask = 1;
        while (mask < n) mask <<= 1;
        for (mask >>= 1; mask > 0 && !rc; mask >>= 1) {
            if (mask >= n) continue;
            int cnt = n - mask < mask ? n - mask : mask;
            rc = tern_isend(tern_coll_elem(sbuf, sdt, (MPI_Aint)mask * (MPI_Aint)scount),
                            (size_t)cnt * scount, sdt, mask, TERN_TAG_SCATTER, c, TERN_COLL_CTX,
                            TERN_MODE_STANDARD, &reqs[nreq]);
            if (!rc) nreq++;
        }
        int rc2 = tern_waitall(nreq, reqs);
        return rc ? rc : rc2;
    }
    char *tmp = malloc((size_t)sub * blk);
    if (!tmp) return tern_coll_nomem("MPI_Scatter", (size_t)sub * blk);
    if (r == root) {
        for (int j = 1; j < n; j++) {
            MPI_Aint src = (MPI_Aint)((j + root) % n) * (MPI_Aint)scount;
            tern_dt_pack(sdt, tern_coll_elem(sbuf, sdt, src), scount, 0, tmp + (size_t)j * blk,
                         blk);
        }
    } else {
        rc = tern_recv(tmp, (size_t)sub * blk, bt, parent, TERN_TAG_SCATTER, c, TERN_COLL_CTX,
                       MPI_STATUS_IGNORE);
    }
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
        if (!rc && r != root) tern_dt_unpack(rdt, rbuf, rcount, 0, tmp, blk);
    }
    int rc2 = tern_waitall(nreq, reqs);
    free(tmp);
    return rc ? rc : rc2;
}

int tern_coll_scatterv_linear(const void *sbuf, const int *scounts, const int *displs,
                              struct tern_datatype *sdt, void *rbuf, size_t rcount,
                              struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    if (r != root) {
        if (rcount * rdt->size == 0) return MPI_SUCCESS;
        return tern_recv(rbuf, rcount, rdt, root, TERN_TAG_SCATTERV, c, TERN_COLL_CTX,
                         MPI_STATUS_IGNORE);
    }
    if (rbuf != MPI_IN_PLACE)
        tern_dt_copy(tern_coll_elem(sbuf, sdt, displs[root]), (size_t)scounts[root], sdt, rbuf,
                     rcount, rdt);
    if (n == 1) return MPI_SUCCESS;
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Scatterv", (size_t)n * sizeof *reqs);
    for (int i = 0; i < n && !rc; i++) {
        if (i == root || (size_t)scounts[i] * sdt->size == 0) continue;
        rc = tern_isend(tern_coll_elem(sbuf, sdt, displs[i]), (size_t)scounts[i], sdt, i,
                        TERN_TAG_SCATTERV, c, TERN_COLL_CTX, TERN_MODE_STANDARD, &reqs[i]);
    }
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}
