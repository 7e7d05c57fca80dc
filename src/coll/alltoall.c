/* Alltoall, alltoallv, alltoallw: pairwise exchange.  In step s (1..n-1)
 * rank r sends its block for r + s and receives the block from r - s, so
 * every step is a permutation and no rank is flooded.  The three calls
 * differ only in where block i lives, which a small descriptor answers.
 *
 * MPI_IN_PLACE: the blocks to send are packed first into scratch space
 * (they would be overwritten by the receives otherwise) and sent as bytes. */
#include <stdlib.h>

#include "coll/coll_util.h"

/* Where block i of one side lives. */
struct a2a_side {
    const char *buf;
    size_t count;                         /* alltoall */
    const int *counts, *displs;           /* alltoallv (displs in elements), alltoallw (bytes) */
    struct tern_datatype *dt;             /* alltoall, alltoallv */
    struct tern_datatype *const *dts;     /* alltoallw */
    const size_t *offs;                   /* packed in-place copy: byte offsets */
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

int tern_alltoall(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                  size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    if (rcount * rdt->size == 0) return MPI_SUCCESS;
    struct a2a_side snd = {.buf = sbuf, .count = scount, .dt = sdt};
    struct a2a_side rcv = {.buf = rbuf, .count = rcount, .dt = rdt};
    return pairwise(&snd, &rcv, sbuf == MPI_IN_PLACE, c);
}

int tern_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                   struct tern_datatype *sdt, void *rbuf, const int *rcounts, const int *rdispls,
                   struct tern_datatype *rdt, struct tern_comm *c)
{
    struct a2a_side snd = {.buf = sbuf, .counts = scounts, .displs = sdispls, .dt = sdt};
    struct a2a_side rcv = {.buf = rbuf, .counts = rcounts, .displs = rdispls, .dt = rdt};
    return pairwise(&snd, &rcv, sbuf == MPI_IN_PLACE, c);
}

int tern_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                   struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                   const int *rdispls, struct tern_datatype *const *rdts, struct tern_comm *c)
{
    struct a2a_side snd = {.buf = sbuf, .counts = scounts, .displs = sdispls, .dts = sdts};
    struct a2a_side rcv = {.buf = rbuf, .counts = rcounts, .displs = rdispls, .dts = rdts};
    return pairwise(&snd, &rcv, sbuf == MPI_IN_PLACE, c);
}
