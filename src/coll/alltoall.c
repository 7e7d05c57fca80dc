/* Alltoall, alltoallv, alltoallw: pairwise exchange.  In step s (1..n-1)
 * rank r sends its block for r + s and receives the block from r - s, so
 * every step is a permutation and no rank is flooded.  The three calls
 * differ only in where block i lives, which a small descriptor answers.
 *
 * MPI_IN_PLACE: the blocks to send are packed first into scratch space
 * (they would be overwritten by the receives otherwise) and sent as bytes.
 *
 * Alltoall of small blocks: Bruck's algorithm, ceil(log2 n) steps instead
 * of n - 1 (see bruck()); coll/select.c decides when. */
#include <stdlib.h>
#include <string.h>

#include "coll/coll_util.h"

/* Where block i of one side lives. */
struct a2a_side {
    const char *buf;
    size_t count;                     /* alltoall */
    const int *counts, *displs;       /* alltoallv (displs in elements), alltoallw (bytes) */
    struct tern_datatype *dt;         /* alltoall, alltoallv */
    struct tern_datatype *const *dts; /* alltoallw */
    const size_t *offs;               /* packed in-place copy: byte offsets */
};

static void a2a_block(const struct a2a_side *s, int i, char **ptr, size_t *count,
                      struct tern_datatype **dt)
{
    if (s->offs) {
        *ptr = (char *)s->buf + s->offs[i];
        *count = s->offs[i + 1] - s->offs[i];
        *dt = tern_coll_byte();
    } else if (s->dts) {
        *ptr = (char *)s->buf + s->displs[i];
        *count = (size_t)s->counts[i];
        *dt = s->dts[i];
    } else if (s->counts) {
        *ptr = tern_coll_elem(s->buf, s->dt, s->displs[i]);
        *count = (size_t)s->counts[i];
        *dt = s->dt;
    } else {
        *ptr = tern_coll_elem(s->buf, s->dt, (MPI_Aint)i * (MPI_Aint)s->count);
        *count = s->count;
        *dt = s->dt;
    }
}

static int pairwise(struct a2a_side *snd, const struct a2a_side *rcv, int in_place,
                    struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    char *sp, *rp;
    size_t sc, rcnt;
    struct tern_datatype *sdt, *rdt;
    char *packed = NULL;
    size_t *offs = NULL;

    if (in_place) {
        /* Send from a packed copy of the receive buffer. */
        offs = malloc((size_t)(n + 1) * sizeof *offs);
        if (!offs) return tern_coll_nomem("MPI_Alltoall", (size_t)(n + 1) * sizeof *offs);
        offs[0] = 0;
        for (int i = 0; i < n; i++) {
            a2a_block(rcv, i, &rp, &rcnt, &rdt);
            offs[i + 1] = offs[i] + (i == r ? 0 : rcnt * rdt->size);
        }
        packed = malloc(offs[n] ? offs[n] : 1);
        if (!packed) {
            size_t bytes = offs[n];
            free(offs);
            return tern_coll_nomem("MPI_Alltoall", bytes);
        }
        for (int i = 0; i < n; i++) {
            if (i == r) continue;
            a2a_block(rcv, i, &rp, &rcnt, &rdt);
            tern_dt_pack(rdt, rp, rcnt, 0, packed + offs[i], offs[i + 1] - offs[i]);
        }
        snd->buf = packed;
        snd->offs = offs;
    } else {
        a2a_block(snd, r, &sp, &sc, &sdt);
        a2a_block(rcv, r, &rp, &rcnt, &rdt);
        tern_dt_copy(sp, sc, sdt, rp, rcnt, rdt);
    }

    for (int s = 1; s < n && !rc; s++) {
        int dst = (r + s) % n, src = (r - s + n) % n;
        a2a_block(snd, dst, &sp, &sc, &sdt);
        a2a_block(rcv, src, &rp, &rcnt, &rdt);
        rc = tern_sendrecv(sp, sc, sdt, dst, TERN_TAG_ALLTOALL, rp, rcnt, rdt, src,
                           TERN_TAG_ALLTOALL, c, TERN_COLL_CTX, MPI_STATUS_IGNORE);
    }
    free(packed);
    free(offs);
    return rc;
}

/* The blocks are packed in rotated order (slot i: the block for rank
 * r + i).  In the step of bit k every slot whose index has bit k set goes
 * to rank r + 2^k, into the same slot, and is replaced by the one from
 * r - 2^k: a block travels the binary digits of its distance, and at the
 * end slot i holds the block from rank r - i.  Sends from the packed copy,
 * so MPI_IN_PLACE needs nothing more. */
static int bruck(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                 size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    size_t blk = rcount * rdt->size, half = (size_t)(n / 2 + 1) * blk;
    char *tmp = malloc((size_t)n * blk + 2 * half);
    if (!tmp) return tern_coll_nomem("MPI_Alltoall", (size_t)n * blk + 2 * half);
    char *out = tmp + (size_t)n * blk, *in = out + half;
    if (sbuf == MPI_IN_PLACE) {
        sbuf = rbuf;
        scount = rcount;
        sdt = rdt;
    }
    for (int i = 0; i < n; i++)
        tern_dt_pack(sdt, tern_coll_elem(sbuf, sdt, (MPI_Aint)((r + i) % n) * (MPI_Aint)scount),
                     scount, 0, tmp + (size_t)i * blk, blk);
    struct tern_datatype *bt = tern_coll_byte();
    for (int bit = 1; bit < n && !rc; bit <<= 1) {
        size_t m = 0;
        for (int i = bit; i < n; i++)
            if (i & bit) memcpy(out + m++ * blk, tmp + (size_t)i * blk, blk);
        rc = tern_sendrecv(out, m * blk, bt, (r + bit) % n, TERN_TAG_ALLTOALL, in, m * blk, bt,
                           (r - bit + n) % n, TERN_TAG_ALLTOALL, c, TERN_COLL_CTX,
                           MPI_STATUS_IGNORE);
        m = 0;
        for (int i = bit; i < n && !rc; i++)
            if (i & bit) memcpy(tmp + (size_t)i * blk, in + m++ * blk, blk);
    }
    if (!rc)
        for (int i = 0; i < n; i++)
            tern_dt_unpack(
                rdt, tern_coll_elem(rbuf, rdt, (MPI_Aint)((r - i + n) % n) * (MPI_Aint)rcount),
                rcount, 0, tmp + (size_t)i * blk, blk);
    free(tmp);
    return rc;
}

int tern_coll_alltoall_bruck(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                             size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    if (rcount * rdt->size == 0) return MPI_SUCCESS;
    return bruck(sbuf, scount, sdt, rbuf, rcount, rdt, c);
}

int tern_coll_alltoall_pairwise(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                void *rbuf, size_t rcount, struct tern_datatype *rdt,
                                struct tern_comm *c)
{
    if (rcount * rdt->size == 0) return MPI_SUCCESS;
    struct a2a_side snd = {.buf = sbuf, .count = scount, .dt = sdt};
    struct a2a_side rcv = {.buf = rbuf, .count = rcount, .dt = rdt};
    return pairwise(&snd, &rcv, sbuf == MPI_IN_PLACE, c);
}

int tern_coll_alltoallv_pairwise(const void *sbuf, const int *scounts, const int *sdispls,
                                 struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                                 const int *rdispls, struct tern_datatype *rdt, struct tern_comm *c)
{
    struct a2a_side snd = {.buf = sbuf, .counts = scounts, .displs = sdispls, .dt = sdt};
    struct a2a_side rcv = {.buf = rbuf, .counts = rcounts, .displs = rdispls, .dt = rdt};
    return pairwise(&snd, &rcv, sbuf == MPI_IN_PLACE, c);
}

int tern_coll_alltoallw_pairwise(const void *sbuf, const int *scounts, const int *sdispls,
                                 struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                                 const int *rdispls, struct tern_datatype *const *rdts,
                                 struct tern_comm *c)
{
    struct a2a_side snd = {.buf = sbuf, .counts = scounts, .displs = sdispls, .dts = sdts};
    struct a2a_side rcv = {.buf = rbuf, .counts = rcounts, .displs = rdispls, .dts = rdts};
    return pairwise(&snd, &rcv, sbuf == MPI_IN_PLACE, c);
}
