/* Allgather and allgatherv.
 *
 * Ring (large totals): in step s every rank passes the block it received in
 * step s - 1 (its own at first) to its right neighbour and receives a new
 * one from its left; n - 1 steps, each rank sends and receives every block
 * once, straight between the users' buffers in the receive datatype.
 *
 * Bruck (small totals, any n): ceil(log2 n) steps.  In the step of distance
 * d a rank sends the blocks it holds (those of ranks r .. r+d-1, packed) to
 * r - d and appends those of r + d .. r + 2d - 1 from r + d; at the end
 * block i of the scratch buffer is rank r + i's.  Every rank knows every
 * block's size, so allgatherv's unequal blocks work the same way.
 *
 * Which one runs: coll/select.c. */
#include <stdlib.h>

#include "coll/coll_util.h"

/* Where rank i's block lives: rcounts/displs (allgatherv) or i * rcount;
 * and where this rank's own block is read from: the send buffer, or its
 * place in rbuf in place.  Sending from the send buffer spares the peers a
 * read of lines this rank has just written. */
struct ag_layout {
    char *rbuf;
    const int *rcounts, *displs;
    size_t rcount;
    struct tern_datatype *rdt;
    const void *own;
    size_t own_count;
    struct tern_datatype *own_dt;
};

static size_t ag_count(const struct ag_layout *l, int i)
{
    return l->rcounts ? (size_t)l->rcounts[i] : l->rcount;
}

static char *ag_block(const struct ag_layout *l, int i)
{
    MPI_Aint e = l->rcounts ? l->displs[i] : (MPI_Aint)i * (MPI_Aint)l->rcount;
    return tern_coll_elem(l->rbuf, l->rdt, e);
}

static int ring(const struct ag_layout *l, int tag, struct tern_comm *c)
{
    int n = c->size, r = c->rank;
    int left = (r - 1 + n) % n, right = (r + 1) % n;
    for (int s = 0; s < n - 1; s++) {
        int sb = (r - s + n) % n, rb = (r - s - 1 + n) % n;
        int rc = tern_sendrecv(s ? ag_block(l, sb) : l->own, s ? ag_count(l, sb) : l->own_count,
                               s ? l->rdt : l->own_dt, right, tag, ag_block(l, rb), ag_count(l, rb),
                               l->rdt, left, tag, c, TERN_COLL_CTX, MPI_STATUS_IGNORE);
        if (rc) return rc;
    }
    return MPI_SUCCESS;
}

static int bruck(const struct ag_layout *l, int tag, const char *fn, struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    /* off[i]: where relative block i (rank r + i) starts in the scratch */
    size_t *off = malloc((size_t)(n + 1) * sizeof *off);
    if (!off) return tern_coll_nomem(fn, (size_t)(n + 1) * sizeof *off);
    off[0] = 0;
    for (int i = 0; i < n; i++) off[i + 1] = off[i] + ag_count(l, (r + i) % n) * l->rdt->size;
    struct tern_datatype *bt = tern_coll_byte();
    void *mem;
    char *tmp = tern_coll_tmpbuf(bt, off[n] ? off[n] : 1, &mem);
    if (!tmp) {
        rc = tern_coll_nomem(fn, off[n]);
        free(off);
        return rc;
    }
    tern_dt_pack(l->own_dt, l->own, l->own_count, 0, tmp, off[1]);
    for (int d = 1; d < n && !rc; d <<= 1) {
        int cnt = d < n - d ? d : n - d; /* the scratch holds blocks 0 .. d-1 */
        rc = tern_sendrecv(tmp, off[cnt], bt, (r - d + n) % n, tag, tmp + off[d],
                           off[d + cnt] - off[d], bt, (r + d) % n, tag, c, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
    }
    if (!rc)
        for (int i = 1; i < n; i++) {
            int src = (r + i) % n;
            tern_dt_unpack(l->rdt, ag_block(l, src), ag_count(l, src), 0, tmp + off[i],
                           off[i + 1] - off[i]);
        }
    tern_coll_tmpfree(mem);
    free(off);
    return rc;
}

/* The exchange of the blocks, then this rank's own block put in place
 * (nothing reads it from rbuf but in place). */
static int exchange(const void *sbuf, size_t scount, struct tern_datatype *sdt, struct ag_layout *l,
                    size_t total_bytes, int tag, const char *fn, int use_bruck, struct tern_comm *c)
{
    if (total_bytes == 0) return MPI_SUCCESS;
    int r = c->rank, rc = MPI_SUCCESS, in_place = sbuf == MPI_IN_PLACE;
    l->own = in_place ? ag_block(l, r) : sbuf;
    l->own_count = in_place ? ag_count(l, r) : scount;
    l->own_dt = in_place ? l->rdt : sdt;
    if (c->size > 1) rc = use_bruck ? bruck(l, tag, fn, c) : ring(l, tag, c);
    if (!in_place) tern_dt_copy(sbuf, scount, sdt, ag_block(l, r), ag_count(l, r), l->rdt);
    return rc;
}

static int allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                     size_t rcount, struct tern_datatype *rdt, struct tern_comm *c, int use_bruck)
{
    struct ag_layout l = {.rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    return exchange(sbuf, scount, sdt, &l, rcount * rdt->size, TERN_TAG_ALLGATHER, "MPI_Allgather",
                    use_bruck, c);
}

int tern_coll_allgather_bruck(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                              void *rbuf, size_t rcount, struct tern_datatype *rdt,
                              struct tern_comm *c)
{
    return allgather(sbuf, scount, sdt, rbuf, rcount, rdt, c, 1);
}

int tern_coll_allgather_ring(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                             size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    return allgather(sbuf, scount, sdt, rbuf, rcount, rdt, c, 0);
}

static int allgatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                      const int *rcounts, const int *displs, struct tern_datatype *rdt,
                      struct tern_comm *c, int use_bruck)
{
    size_t total = 0;
    for (int i = 0; i < c->size; i++) total += (size_t)rcounts[i];
    struct ag_layout l = {.rbuf = rbuf, .rcounts = rcounts, .displs = displs, .rdt = rdt};
    return exchange(sbuf, scount, sdt, &l, total * rdt->size, TERN_TAG_ALLGATHERV, "MPI_Allgatherv",
                    use_bruck, c);
}

int tern_coll_allgatherv_bruck(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                               void *rbuf, const int *rcounts, const int *displs,
                               struct tern_datatype *rdt, struct tern_comm *c)
{
    return allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, c, 1);
}

int tern_coll_allgatherv_ring(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                              void *rbuf, const int *rcounts, const int *displs,
                              struct tern_datatype *rdt, struct tern_comm *c)
{
    return allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, c, 0);
}
