/* Shared-memory collectives that move blocks (rules: shm_coll.h; the
 * common ones are in shm_coll.c): alltoall, alltoallw and the v-variants
 * of gather, scatter, allgather and alltoall.
 *
 * Whether data fits the slots must be decided alike on every rank that
 * touches it.  Alltoall and allgatherv decide from sizes every rank knows
 * (all blocks of one rank in its slot; the largest block) and otherwise
 * run the point-to-point algorithm.  In gatherv and scatterv only the root
 * knows every count, but each block's size is known to both of its ends
 * (the type signatures match), so the choice is made block by block: a
 * block that fits goes through its rank's slot, a larger one goes point to
 * point between that rank and the root in the same call.  In alltoallv
 * and alltoallw only a sender knows the size of all it sends: every rank states in its
 * slot whether its blocks fit, and all read every answer first. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/shm_coll.h"

int tern_coll_alltoall_shm(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                           size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    int r = c->rank, n = c->size;
    size_t blk = rcount * rdt->size;
    if (blk == 0) return MPI_SUCCESS;
    /* Every block this rank sends, in its slot, destination by destination. */
    struct tern_shmc *a = tern_shmc_for_move(c, blk * (size_t)n, 0);
    if (!a) {
        /* What the table takes after shm (select.c). */
        if (n >= 3 && blk <= 256)
            return tern_coll_alltoall_bruck(sbuf, scount, sdt, rbuf, rcount, rdt, c);
        if (n >= 3) return tern_coll_alltoall_exchange(sbuf, scount, sdt, rbuf, rcount, rdt, c);
        return tern_coll_alltoall_pairwise(sbuf, scount, sdt, rbuf, rcount, rdt, c);
    }
    int in_place = sbuf == MPI_IN_PLACE;
    if (in_place) {
        sbuf = rbuf;
        scount = rcount;
        sdt = rdt;
    }
    uint64_t s = tern_shmc_next(a);
    size_t all = blk * (size_t)n;
    char *mine = tern_shmc_data(a, r, s, all);
    tern_shmc_may_write(a, s);
    for (int i = 0; i < n; i++)
        if (i != r)
            tern_shmc_put(mine + (size_t)i * blk,
                          tern_coll_elem(sbuf, sdt, (MPI_Aint)i * (MPI_Aint)scount), scount, sdt);
    tern_shmc_post(a, s);
    /* The rank's own block goes straight across (in place it is there
     * already), not back out of the area (tern_shmc_fold says why). */
    if (!in_place)
        tern_dt_copy(tern_coll_elem(sbuf, sdt, (MPI_Aint)r * (MPI_Aint)scount), scount, sdt,
                     tern_coll_elem(rbuf, rdt, (MPI_Aint)r * (MPI_Aint)rcount), rcount, rdt);
    /* Then its successors' slots, so ranks do not all read one at once. */
    for (int k = 1; k < n; k++) {
        int i = (r + k) % n;
        tern_shmc_wait(a, i, s);
        tern_shmc_unpack(tern_shmc_data(a, i, s, all) + (size_t)r * blk,
                         tern_coll_elem(rbuf, rdt, (MPI_Aint)i * (MPI_Aint)rcount), rcount, rdt);
    }
    if (s > a->all_past) a->all_past = s;
    return MPI_SUCCESS;
}

int tern_coll_allgatherv_shm(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                             const int *rcounts, const int *displs, struct tern_datatype *rdt,
                             struct tern_comm *c)
{
    int r = c->rank, n = c->size;
    size_t largest = tern_coll_max_count(rcounts, n);
    if (largest * rdt->size == 0) return MPI_SUCCESS;
    struct tern_shmc *a = tern_shmc_for(c, largest * rdt->size);
    if (!a) return tern_coll_allgatherv_bruck(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, c);
    uint64_t s = tern_shmc_next(a);
    char *mine = tern_coll_elem(rbuf, rdt, displs[r]);
    size_t own = (size_t)rcounts[r];
    tern_shmc_post_own(a, s, tern_shmc_slot(a, r, s), sbuf, scount, sdt, mine, own, rdt);
    for (int k = 1; k < n; k++) {
        int i = (r + k) % n;
        tern_shmc_wait(a, i, s);
        tern_shmc_unpack(tern_shmc_slot(a, i, s), tern_coll_elem(rbuf, rdt, displs[i]),
                         (size_t)rcounts[i], rdt);
    }
    if (s > a->all_past) a->all_past = s;
    return MPI_SUCCESS;
}

int tern_coll_gatherv_shm(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                          const int *rcounts, const int *displs, struct tern_datatype *rdt,
                          int root, struct tern_comm *c)
{
    int r = c->rank, n = c->size, rc = MPI_SUCCESS;
    struct tern_shmc *a = tern_shmc_for(c, 0);
    if (!a) return tern_coll_gatherv_linear(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, c);
    uint64_t s = tern_shmc_next(a);
    if (r != root) {
        size_t bytes = scount * sdt->size;
        if (bytes > a->carry_bytes) {
            tern_shmc_post(a, s);
            return tern_send(sbuf, scount, sdt, root, TERN_TAG_GATHERV, c, TERN_COLL_CTX);
        }
        if (bytes) {
            tern_shmc_may_write(a, s);
            tern_shmc_put(tern_shmc_slot(a, r, s), sbuf, scount, sdt);
        }
        tern_shmc_post(a, s);
        return MPI_SUCCESS;
    }
    tern_shmc_post(a, s);
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Gatherv", (size_t)n * sizeof *reqs);
    for (int i = 0; i < n && !rc; i++)
        if (i != root && (size_t)rcounts[i] * rdt->size > a->carry_bytes)
            rc = tern_irecv(tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, i,
                            TERN_TAG_GATHERV, c, TERN_COLL_CTX, &reqs[i]);
    if (sbuf != MPI_IN_PLACE)
        tern_dt_copy(sbuf, scount, sdt, tern_coll_elem(rbuf, rdt, displs[root]),
                     (size_t)rcounts[root], rdt);
    for (int i = 0; i < n; i++) {
        size_t bytes = (size_t)rcounts[i] * rdt->size;
        if (i == root || bytes == 0 || bytes > a->carry_bytes) continue;
        tern_shmc_wait(a, i, s);
        tern_shmc_unpack(tern_shmc_slot(a, i, s), tern_coll_elem(rbuf, rdt, displs[i]),
                         (size_t)rcounts[i], rdt);
    }
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}

int tern_coll_scatterv_shm(const void *sbuf, const int *scounts, const int *displs,
                           struct tern_datatype *sdt, void *rbuf, size_t rcount,
                           struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    int r = c->rank, n = c->size, rc = MPI_SUCCESS;
    struct tern_shmc *a = tern_shmc_for(c, 0);
    if (!a)
        return tern_coll_scatterv_linear(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, c);
    uint64_t s = tern_shmc_next(a);
    if (r != root) {
        size_t bytes = rcount * rdt->size;
        tern_shmc_post(a, s);
        if (bytes > a->carry_bytes)
            return tern_recv(rbuf, rcount, rdt, root, TERN_TAG_SCATTERV, c, TERN_COLL_CTX,
                             MPI_STATUS_IGNORE);
        if (bytes) {
            tern_shmc_wait(a, root, s);
            tern_shmc_unpack(tern_shmc_slot(a, r, s), rbuf, rcount, rdt);
        }
        return MPI_SUCCESS;
    }
    /* The root writes each small block into its rank's slot. */
    tern_shmc_may_write(a, s);
    for (int i = 0; i < n; i++) {
        size_t bytes = (size_t)scounts[i] * sdt->size;
        if (i != root && bytes && bytes <= a->carry_bytes)
            tern_shmc_put(tern_shmc_slot(a, i, s), tern_coll_elem(sbuf, sdt, displs[i]),
                          (size_t)scounts[i], sdt);
    }
    tern_shmc_post(a, s);
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Scatterv", (size_t)n * sizeof *reqs);
    for (int i = 0; i < n && !rc; i++)
        if (i != root && (size_t)scounts[i] * sdt->size > a->carry_bytes)
            rc = tern_isend(tern_coll_elem(sbuf, sdt, displs[i]), (size_t)scounts[i], sdt, i,
                            TERN_TAG_SCATTERV, c, TERN_COLL_CTX, TERN_MODE_STANDARD, &reqs[i]);
    if (rbuf != MPI_IN_PLACE)
        tern_dt_copy(tern_coll_elem(sbuf, sdt, displs[root]), (size_t)scounts[root], sdt, rbuf,
                     rcount, rdt);
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}

/* What the table takes after shm for alltoallv, and alltoallw when dts
 * are given (select.c). */
static int alltoallvw_after_shm(const void *sbuf, const int *scounts, const int *sdispls,
                                struct tern_datatype *sdt, struct tern_datatype *const *sdts,
                                void *rbuf, const int *rcounts, const int *rdispls,
                                struct tern_datatype *rdt, struct tern_datatype *const *rdts,
                                struct tern_comm *c)
{
    if (rdts)
        return c->size >= 3 ? tern_coll_alltoallw_exchange(sbuf, scounts, sdispls, sdts, rbuf,
                                                           rcounts, rdispls, rdts, c)
                            : tern_coll_alltoallw_pairwise(sbuf, scounts, sdispls, sdts, rbuf,
                                                           rcounts, rdispls, rdts, c);
    return c->size >= 3 ? tern_coll_alltoallv_exchange(sbuf, scounts, sdispls, sdt, rbuf, rcounts,
                                                       rdispls, rdt, c)
                        : tern_coll_alltoallv_pairwise(sbuf, scounts, sdispls, sdt, rbuf, rcounts,
                                                       rdispls, rdt, c);
}

/* Alltoallv (dts NULL) and alltoallw (displacements in bytes, a datatype
 * per peer): only the sender knows the size of all it sends, so each rank
 * says in its slot whether its blocks fit, and every rank reads every
 * answer before it takes any data: when one rank's blocks do not fit, all
 * run the point-to-point algorithm.  A slot holds that answer, the offset
 * of the block for each destination, then the blocks, packed. */
static int alltoallvw_shm(const void *sbuf, const int *scounts, const int *sdispls,
                          struct tern_datatype *sdt, struct tern_datatype *const *sdts, void *rbuf,
                          const int *rcounts, const int *rdispls, struct tern_datatype *rdt,
                          struct tern_datatype *const *rdts, struct tern_comm *c)
{
    int r = c->rank, n = c->size;
    struct tern_shmc *a = tern_shmc_for(c, 0);
    size_t head = sizeof(uint64_t) * (1 + (size_t)n), arrays = tern_coll_blocks_bytes(n);
    if (!a || a->carry_bytes < sizeof(uint64_t))
        return alltoallvw_after_shm(sbuf, scounts, sdispls, sdt, sdts, rbuf, rcounts, rdispls, rdt,
                                    rdts, c);
    /* The small calls this serves describe their blocks on the stack: no
     * malloc per call below 64 ranks. */
    _Alignas(max_align_t) char small[2 * 64 * (sizeof(size_t) + sizeof(MPI_Aint) + sizeof(void *))];
    char *mem = 2 * arrays <= sizeof small ? small : malloc(2 * arrays);
    if (!mem) return tern_coll_nomem(rdts ? "MPI_Alltoallw" : "MPI_Alltoallv", 2 * arrays);
    struct tern_coll_blocks snd, rcv;
    tern_coll_blocks_describe(&rcv, mem + arrays, n, 0, rcounts, rdispls, rdt, rdts);
    const char *src = rbuf;
    snd = rcv; /* in place: the blocks to send are rbuf's */
    if (sbuf != MPI_IN_PLACE) {
        tern_coll_blocks_describe(&snd, mem, n, 0, scounts, sdispls, sdt, sdts);
        src = sbuf;
    }
    size_t total = head;
    for (int i = 0; i < n; i++) total += tern_coll_blocks_size(&snd, i);
    uint64_t s = tern_shmc_next(a);
    char *mine = tern_shmc_slot(a, r, s);
    uint64_t *hdr = (uint64_t *)mine;
    tern_shmc_may_write(a, s);
    hdr[0] = total <= a->carry_bytes;
    if (hdr[0]) {
        size_t at = head;
        for (int i = 0; i < n; i++) {
            hdr[1 + i] = at;
            tern_shmc_put(mine + at, src + snd.off[i], snd.count[i], snd.dt[i]);
            at += tern_coll_blocks_size(&snd, i);
        }
    }
    tern_shmc_post(a, s);
    tern_shmc_wait_all(a, s);
    int fit = 1;
    for (int i = 0; i < n && fit; i++) fit = ((const uint64_t *)tern_shmc_slot(a, i, s))[0] != 0;
    for (int k = 0; k < n && fit; k++) {
        int i = (r + k) % n;
        const char *slot = tern_shmc_slot(a, i, s);
        tern_shmc_unpack(slot + ((const uint64_t *)slot)[1 + r], (char *)rbuf + rcv.off[i],
                         rcv.count[i], rcv.dt[i]);
    }
    if (mem != small) free(mem);
    if (!fit)
        return alltoallvw_after_shm(sbuf, scounts, sdispls, sdt, sdts, rbuf, rcounts, rdispls, rdt,
                                    rdts, c);
    return MPI_SUCCESS;
}

int tern_coll_alltoallv_shm(const void *sbuf, const int *scounts, const int *sdispls,
                            struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                            const int *rdispls, struct tern_datatype *rdt, struct tern_comm *c)
{
    return alltoallvw_shm(sbuf, scounts, sdispls, sdt, NULL, rbuf, rcounts, rdispls, rdt, NULL, c);
}

int tern_coll_alltoallw_shm(const void *sbuf, const int *scounts, const int *sdispls,
                            struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                            const int *rdispls, struct tern_datatype *const *rdts,
                            struct tern_comm *c)
{
    return alltoallvw_shm(sbuf, scounts, sdispls, NULL, sdts, rbuf, rcounts, rdispls, NULL, rdts,
                          c);
}
