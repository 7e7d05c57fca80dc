/* Schedules of the unrooted data movers: barrier, allgather(v),
 * alltoall(v, w) (intercommunicators: nbc_inter.c, but for alltoall; which
 * algorithm runs: select.c).
 *
 * Barrier: dissemination, ceil(log2 n) rounds of an empty message to
 * r + k and one from r - k.
 *
 * Allgather: Bruck's algorithm for small totals (ceil(log2 n) rounds on a
 * packed scratch copy, any n), a ring beyond (n - 1 rounds, each block sent
 * once per rank, straight between user buffers), or linear (one round: the
 * own block to every rank, every other block from its rank; on one host
 * each rank then reads the blocks itself when it runs, where a ring makes
 * each wait for its left neighbour's previous step).  Allgatherv: the
 * ring or linear.
 *
 * Alltoall(v, w): one round with every send and receive posted at once (a
 * round never blocks, so nothing waits on anything else), peers in the
 * order r + 1, r + 2, ... so ranks do not all start on the same peer.  The
 * three forms are brought to one description: count, byte offset and
 * datatype of each peer's block. */
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/sched.h"

int tern_nbc_barrier_dissemination(struct tern_sched *s)
{
    static char none; /* an address for the empty messages */
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    struct tern_datatype *bt = tern_coll_byte();
    for (int k = 1; k < n; k <<= 1) {
        tern_sched_send(s, &none, 0, bt, (r + k) % n);
        tern_sched_recv(s, &none, 0, bt, (r - k + n) % n);
        tern_sched_round(s);
    }
    return tern_sched_round(s);
}

/* Ring over the blocks of rbuf: block i is rcounts[i] elements at displs[i],
 * or rcount elements at i * rcount when rcounts is NULL. */
static int ring(struct tern_sched *s, void *rbuf, const int *rcounts, const int *displs,
                size_t rcount, struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank, left = (r - 1 + n) % n, right = (r + 1) % n;
    for (int k = 0; k < n - 1; k++) {
        int sb = (r - k + n) % n, rb = (r - k - 1 + n) % n;
        MPI_Aint soff = rcounts ? displs[sb] : (MPI_Aint)sb * (MPI_Aint)rcount;
        MPI_Aint roff = rcounts ? displs[rb] : (MPI_Aint)rb * (MPI_Aint)rcount;
        tern_sched_send(s, tern_coll_elem(rbuf, rdt, soff), rcounts ? (size_t)rcounts[sb] : rcount,
                        rdt, right);
        tern_sched_recv(s, tern_coll_elem(rbuf, rdt, roff), rcounts ? (size_t)rcounts[rb] : rcount,
                        rdt, left);
        tern_sched_round(s);
    }
    return tern_sched_round(s);
}

/* Bruck: in the round of distance d a rank sends the blocks it holds
 * (ranks r .. r+d-1, packed) to r - d and appends those of r + d .. from
 * r + d; block i of tmp ends as rank r + i's. */
static int bruck(struct tern_sched *s, void *rbuf, size_t rcount, struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    size_t blk = rcount * rdt->size;
    struct tern_datatype *bt = tern_coll_byte();
    char *tmp = tern_sched_buf(s, (size_t)n * blk);
    if (!tmp) return tern_sched_round(s);
    tern_sched_copy(s, tern_coll_elem(rbuf, rdt, (MPI_Aint)r * (MPI_Aint)rcount), rcount, rdt, tmp,
                    blk, bt);
    int have = 1;
    for (int d = 1; d < n; d <<= 1) {
        int cnt = d < n - d ? d : n - d;
        tern_sched_send(s, tmp, (size_t)cnt * blk, bt, (r - d + n) % n);
        tern_sched_recv(s, tmp + (size_t)have * blk, (size_t)cnt * blk, bt, (r + d) % n);
        tern_sched_round(s);
        have += cnt;
    }
    for (int i = 1; i < n; i++)
        tern_sched_copy(s, tmp + (size_t)i * blk, blk, bt,
                        tern_coll_elem(rbuf, rdt, (MPI_Aint)((r + i) % n) * (MPI_Aint)rcount),
                        rcount, rdt);
    return tern_sched_round(s);
}

/* Puts this rank's own block in place; *more = 0 when nothing moves
 * beyond it. */
static int own_block(struct tern_sched *s, const void *sbuf, size_t scount,
                     struct tern_datatype *sdt, void *rbuf, size_t rcount,
                     struct tern_datatype *rdt, int *more)
{
    struct tern_comm *c = tern_sched_comm(s);
    *more = 0;
    if (rcount * rdt->size == 0) return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE)
        tern_sched_copy(s, sbuf, scount, sdt,
                        tern_coll_elem(rbuf, rdt, (MPI_Aint)c->rank * (MPI_Aint)rcount), rcount,
                        rdt);
    if (c->size == 1) return tern_sched_round(s);
    *more = 1;
    return MPI_SUCCESS;
}

int tern_nbc_allgather_bruck(struct tern_sched *s, const void *sbuf, size_t scount,
                             struct tern_datatype *sdt, void *rbuf, size_t rcount,
                             struct tern_datatype *rdt)
{
    int more, rc = own_block(s, sbuf, scount, sdt, rbuf, rcount, rdt, &more);
    return more ? bruck(s, rbuf, rcount, rdt) : rc;
}

int tern_nbc_allgather_ring(struct tern_sched *s, const void *sbuf, size_t scount,
                            struct tern_datatype *sdt, void *rbuf, size_t rcount,
                            struct tern_datatype *rdt)
{
    int more, rc = own_block(s, sbuf, scount, sdt, rbuf, rcount, rdt, &more);
    return more ? ring(s, rbuf, NULL, NULL, rcount, rdt) : rc;
}

int tern_nbc_allgatherv_ring(struct tern_sched *s, const void *sbuf, size_t scount,
                             struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                             const int *displs, struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    size_t total = 0;
    for (int i = 0; i < c->size; i++) total += (size_t)rcounts[i];
    if (total * rdt->size == 0) return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE)
        tern_sched_copy(s, sbuf, scount, sdt, tern_coll_elem(rbuf, rdt, displs[c->rank]),
                        (size_t)rcounts[c->rank], rdt);
    return ring(s, rbuf, rcounts, displs, 0, rdt);
}

/* Linear over the blocks of rbuf (as ring), this rank's own sent from
 * (src, cnt, dt), peers in the order r + 1, r + 2, ... */
static int linear(struct tern_sched *s, const void *src, size_t cnt, struct tern_datatype *dt,
                  void *rbuf, const int *rcounts, const int *displs, size_t rcount,
                  struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    for (int k = 1; k < n; k++) {
        int from = (r - k + n) % n;
        MPI_Aint roff = rcounts ? displs[from] : (MPI_Aint)from * (MPI_Aint)rcount;
        tern_sched_send(s, src, cnt, dt, (r + k) % n);
        tern_sched_recv(s, tern_coll_elem(rbuf, rdt, roff),
                        rcounts ? (size_t)rcounts[from] : rcount, rdt, from);
    }
    return tern_sched_round(s);
}

int tern_nbc_allgather_linear(struct tern_sched *s, const void *sbuf, size_t scount,
                              struct tern_datatype *sdt, void *rbuf, size_t rcount,
                              struct tern_datatype *rdt)
{
    int more, rc = own_block(s, sbuf, scount, sdt, rbuf, rcount, rdt, &more);
    if (!more) return rc;
    int r = tern_sched_comm(s)->rank;
    if (sbuf == MPI_IN_PLACE)
        return linear(s, tern_coll_elem(rbuf, rdt, (MPI_Aint)r * (MPI_Aint)rcount), rcount, rdt,
                      rbuf, NULL, NULL, rcount, rdt);
    return linear(s, sbuf, scount, sdt, rbuf, NULL, NULL, rcount, rdt);
}

int tern_nbc_allgatherv_linear(struct tern_sched *s, const void *sbuf, size_t scount,
                               struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                               const int *displs, struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    int r = c->rank;
    size_t total = 0;
    for (int i = 0; i < c->size; i++) total += (size_t)rcounts[i];
    if (total * rdt->size == 0) return MPI_SUCCESS;
    void *own = tern_coll_elem(rbuf, rdt, displs[r]);
    if (sbuf == MPI_IN_PLACE)
        return linear(s, own, (size_t)rcounts[r], rdt, rbuf, rcounts, displs, 0, rdt);
    tern_sched_copy(s, sbuf, scount, sdt, own, (size_t)rcounts[r], rdt);
    return linear(s, sbuf, scount, sdt, rbuf, rcounts, displs, 0, rdt);
}

/* ---- alltoall family ---- */

/* snd == NULL: MPI_IN_PLACE, the blocks to send are rbuf's, packed into
 * scratch before any receive is posted.  On an intercommunicator the peers
 * are the n remote ranks, none of them this rank (so no block of its own,
 * and never in place), the order starting from the local rank mod n. */
static int exchange(struct tern_sched *s, const char *sbuf, const struct tern_coll_blocks *snd,
                    char *rbuf, const struct tern_coll_blocks *rcv)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->peer_size, r = c->rank % n, first = c->is_inter ? 0 : 1;
    struct tern_datatype *bt = tern_coll_byte();
    char *packed = NULL;
    MPI_Aint *poff = NULL;
    if (!snd) {
        poff = tern_sched_buf(s, (size_t)(n + 1) * sizeof *poff);
        if (!poff) return tern_sched_round(s);
        poff[0] = 0;
        for (int i = 0; i < n; i++)
            poff[i + 1] = poff[i] + (MPI_Aint)(i == r ? 0 : tern_coll_blocks_size(rcv, i));
        if (!(packed = tern_sched_buf(s, (size_t)poff[n]))) return tern_sched_round(s);
        for (int i = 0; i < n; i++)
            if (i != r)
                tern_sched_copy(s, rbuf + rcv->off[i], rcv->count[i], rcv->dt[i], packed + poff[i],
                                tern_coll_blocks_size(rcv, i), bt);
    } else if (first) {
        tern_sched_copy(s, sbuf + snd->off[r], snd->count[r], snd->dt[r], rbuf + rcv->off[r],
                        rcv->count[r], rcv->dt[r]);
    }
    for (int k = first; k < n; k++) {
        int from = (r - k + n) % n;
        if (tern_coll_blocks_size(rcv, from))
            tern_sched_recv(s, rbuf + rcv->off[from], rcv->count[from], rcv->dt[from], from);
    }
    for (int k = first; k < n; k++) {
        int to = (r + k) % n;
        if (!snd) {
            if (poff[to + 1] > poff[to])
                tern_sched_send(s, packed + poff[to], (size_t)(poff[to + 1] - poff[to]), bt, to);
        } else if (tern_coll_blocks_size(snd, to)) {
            tern_sched_send(s, sbuf + snd->off[to], snd->count[to], snd->dt[to], to);
        }
    }
    return tern_sched_round(s);
}

/* The arrays of one side (tern_coll_blocks_describe), in the schedule's
 * memory. */
static int describe(struct tern_sched *s, struct tern_coll_blocks *b, size_t count,
                    const int *counts, const int *displs, struct tern_datatype *dt,
                    struct tern_datatype *const *dts)
{
    int n = tern_sched_comm(s)->peer_size;
    void *mem = tern_sched_buf(s, tern_coll_blocks_bytes(n));
    if (!mem) return tern_sched_round(s);
    tern_coll_blocks_describe(b, mem, n, count, counts, displs, dt, dts);
    return MPI_SUCCESS;
}

static int alltoall_any(struct tern_sched *s, const void *sbuf, size_t scount, const int *scounts,
                        const int *sdispls, struct tern_datatype *sdt,
                        struct tern_datatype *const *sdts, void *rbuf, size_t rcount,
                        const int *rcounts, const int *rdispls, struct tern_datatype *rdt,
                        struct tern_datatype *const *rdts)
{
    struct tern_coll_blocks snd, rcv;
    int in_place = sbuf == MPI_IN_PLACE, rc;
    if ((rc = describe(s, &rcv, rcount, rcounts, rdispls, rdt, rdts))) return rc;
    if (!in_place && (rc = describe(s, &snd, scount, scounts, sdispls, sdt, sdts))) return rc;
    return exchange(s, sbuf, in_place ? NULL : &snd, rbuf, &rcv);
}

int tern_nbc_alltoall_exchange(struct tern_sched *s, const void *sbuf, size_t scount,
                               struct tern_datatype *sdt, void *rbuf, size_t rcount,
                               struct tern_datatype *rdt)
{
    /* On an intercommunicator one group may send while it receives
     * nothing (the other receives what it sends), so only a call with
     * nothing to move either way is empty. */
    size_t sbytes = sbuf == MPI_IN_PLACE ? rcount * rdt->size : scount * sdt->size;
    if (rcount * rdt->size == 0 && sbytes == 0) return MPI_SUCCESS;
    return alltoall_any(s, sbuf, scount, NULL, NULL, sdt, NULL, rbuf, rcount, NULL, NULL, rdt,
                        NULL);
}

int tern_nbc_alltoallv_exchange(struct tern_sched *s, const void *sbuf, const int *scounts,
                                const int *sdispls, struct tern_datatype *sdt, void *rbuf,
                                const int *rcounts, const int *rdispls, struct tern_datatype *rdt)
{
    return alltoall_any(s, sbuf, 0, scounts, sdispls, sdt, NULL, rbuf, 0, rcounts, rdispls, rdt,
                        NULL);
}

int tern_nbc_alltoallw_exchange(struct tern_sched *s, const void *sbuf, const int *scounts,
                                const int *sdispls, struct tern_datatype *const *sdts, void *rbuf,
                                const int *rcounts, const int *rdispls,
                                struct tern_datatype *const *rdts)
{
    return alltoall_any(s, sbuf, 0, scounts, sdispls, NULL, sdts, rbuf, 0, rcounts, rdispls, NULL,
                        rdts);
}
