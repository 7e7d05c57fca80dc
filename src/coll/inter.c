/* Intercommunicator collectives from the intracommunicator ones over each
 * side's local communicator (c->local_comm, "lc") and messages between the
 * sides on c's collective context (ranks there name the remote group).
 * The leader of each side is its local rank 0.
 *
 *   rooted, root side -> other side: the root talks to the other leader,
 *     which spreads or collects locally (bcast, gather, scatter, reduce);
 *     the v forms go straight between the root and each remote rank.
 *   all-to-all kinds: each side reduces or gathers to its leader, the
 *     leaders swap, each side spreads what it got (allgather, allreduce,
 *     reduce_scatter); allgatherv sends every block to the other leader;
 *     alltoall(v,w) exchanges pairwise with every remote rank. */
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/inter.h"
#include "coll/op.h"

#define CTX TERN_COLL_CTX

static int is_leader(const struct tern_comm *c) { return c->rank == 0; }

int tern_inter_barrier(struct tern_comm *c)
{
    /* Nobody leaves the second local barrier before its leader has heard
     * that the whole other side entered. */
    int rc = tern_barrier(c->local_comm);
    if (!rc && is_leader(c))
        rc = tern_sendrecv(NULL, 0, tern_coll_byte(), 0, TERN_TAG_BARRIER, NULL, 0,
                           tern_coll_byte(), 0, TERN_TAG_BARRIER, c, CTX, MPI_STATUS_IGNORE);
    return rc ? rc : tern_barrier(c->local_comm);
}

int tern_inter_bcast(void *buf, size_t count, struct tern_datatype *dt, int root,
                     enum tern_inter_role role, struct tern_comm *c)
{
    int rc = MPI_SUCCESS;
    if (role == TERN_INTER_ROOT) return tern_send(buf, count, dt, 0, TERN_TAG_BCAST, c, CTX);
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    if (is_leader(c))
        rc = tern_recv(buf, count, dt, root, TERN_TAG_BCAST, c, CTX, MPI_STATUS_IGNORE);
    return rc ? rc : tern_bcast(buf, count, dt, 0, c->local_comm);
}

int tern_inter_gather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                      size_t rcount, struct tern_datatype *rdt, int root,
                      enum tern_inter_role role, struct tern_comm *c)
{
    if (role == TERN_INTER_ROOT)
        return tern_recv(rbuf, rcount * (size_t)c->peer_size, rdt, 0, TERN_TAG_GATHER, c, CTX,
                         MPI_STATUS_IGNORE);
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    /* The side's blocks, packed in rank order at the leader, go as one message. */
    size_t blk = scount * sdt->size, all = blk * (size_t)c->size;
    char *tmp = NULL;
    if (is_leader(c) && !(tmp = malloc(all ? all : 1))) return tern_coll_nomem("MPI_Gather", all);
    int rc = tern_gather(sbuf, scount, sdt, tmp, blk, tern_coll_byte(), 0, c->local_comm);
    if (!rc && is_leader(c))
        rc = tern_send(tmp, all, tern_coll_byte(), root, TERN_TAG_GATHER, c, CTX);
    free(tmp);
    return rc;
}

int tern_inter_gatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                       const int *rcounts, const int *displs, struct tern_datatype *rdt, int root,
                       enum tern_inter_role role, struct tern_comm *c)
{
    if (role == TERN_INTER_LEAF) {
        if (scount * sdt->size == 0) return MPI_SUCCESS;
        return tern_send(sbuf, scount, sdt, root, TERN_TAG_GATHERV, c, CTX);
    }
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    int n = c->peer_size, rc = MPI_SUCCESS;
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Gatherv", (size_t)n * sizeof *reqs);
    for (int i = 0; i < n && !rc; i++) {
        if ((size_t)rcounts[i] * rdt->size == 0) continue;
        rc = tern_irecv(tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, i,
                        TERN_TAG_GATHERV, c, CTX, &reqs[i]);
    }
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}

int tern_inter_scatter(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                       size_t rcount, struct tern_datatype *rdt, int root,
                       enum tern_inter_role role, struct tern_comm *c)
{
    if (role == TERN_INTER_ROOT)
        return tern_send(sbuf, scount * (size_t)c->peer_size, sdt, 0, TERN_TAG_SCATTER, c, CTX);
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    size_t blk = rcount * rdt->size, all = blk * (size_t)c->size;
    char *tmp = NULL;
    int rc = MPI_SUCCESS;
    if (is_leader(c)) {
        if (!(tmp = malloc(all ? all : 1))) return tern_coll_nomem("MPI_Scatter", all);
        rc = tern_recv(tmp, all, tern_coll_byte(), root, TERN_TAG_SCATTER, c, CTX,
                       MPI_STATUS_IGNORE);
    }
    if (!rc) rc = tern_scatter(tmp, blk, tern_coll_byte(), rbuf, rcount, rdt, 0, c->local_comm);
    free(tmp);
    return rc;
}

int tern_inter_scatterv(const void *sbuf, const int *scounts, const int *displs,
                        struct tern_datatype *sdt, void *rbuf, size_t rcount,
                        struct tern_datatype *rdt, int root, enum tern_inter_role role,
                        struct tern_comm *c)
{
    if (role == TERN_INTER_LEAF) {
        if (rcount * rdt->size == 0) return MPI_SUCCESS;
        return tern_recv(rbuf, rcount, rdt, root, TERN_TAG_SCATTERV, c, CTX, MPI_STATUS_IGNORE);
    }
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    int n = c->peer_size, rc = MPI_SUCCESS;
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Scatterv", (size_t)n * sizeof *reqs);
    for (int i = 0; i < n && !rc; i++) {
        if ((size_t)scounts[i] * sdt->size == 0) continue;
        rc = tern_isend(tern_coll_elem(sbuf, sdt, displs[i]), (size_t)scounts[i], sdt, i,
                        TERN_TAG_SCATTERV, c, CTX, TERN_MODE_STANDARD, &reqs[i]);
    }
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}

int tern_inter_allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                         size_t rcount, struct tern_datatype *rdt, struct tern_comm *c)
{
    size_t blk = scount * sdt->size, all = blk * (size_t)c->size;
    size_t rtotal = rcount * (size_t)c->peer_size;
    char *tmp = NULL;
    if (is_leader(c) && !(tmp = malloc(all ? all : 1)))
        return tern_coll_nomem("MPI_Allgather", all);
    int rc = tern_gather(sbuf, scount, sdt, tmp, blk, tern_coll_byte(), 0, c->local_comm);
    if (!rc && is_leader(c))
        rc = tern_sendrecv(tmp, all, tern_coll_byte(), 0, TERN_TAG_ALLGATHER, rbuf, rtotal, rdt, 0,
                           TERN_TAG_ALLGATHER, c, CTX, MPI_STATUS_IGNORE);
    free(tmp);
    return rc ? rc : tern_bcast(rbuf, rtotal, rdt, 0, c->local_comm);
}

int tern_inter_allgatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                          const int *rcounts, const int *displs, struct tern_datatype *rdt,
                          struct tern_comm *c)
{
    int n = c->peer_size, rc = MPI_SUCCESS, lead = is_leader(c);
    size_t total = 0;
    for (int i = 0; i < n; i++) total += (size_t)rcounts[i] * rdt->size;
    /* Every block goes to the other side's leader; every receive and send
     * is posted before anyone blocks, so the two sides cannot wait on each
     * other. */
    struct tern_request **reqs = calloc((size_t)n + 1, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Allgatherv", ((size_t)n + 1) * sizeof *reqs);
    for (int i = 0; lead && i < n && !rc; i++) {
        if ((size_t)rcounts[i] * rdt->size == 0) continue;
        rc = tern_irecv(tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, i,
                        TERN_TAG_ALLGATHERV, c, CTX, &reqs[i]);
    }
    if (!rc && scount * sdt->size > 0)
        rc = tern_isend(sbuf, scount, sdt, 0, TERN_TAG_ALLGATHERV, c, CTX, TERN_MODE_STANDARD,
                        &reqs[n]);
    if (lead) {
        int rc2 = tern_waitall(n + 1, reqs);
        if (!rc) rc = rc2;
    }
    /* The leader spreads the blocks packed in rank order. */
    char *tmp = NULL;
    if (!rc && !(tmp = malloc(total ? total : 1))) rc = tern_coll_nomem("MPI_Allgatherv", total);
    size_t off = 0;
    for (int i = 0; lead && !rc && i < n; i++)
        off += tern_dt_pack(rdt, tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], 0,
                            tmp + off, (size_t)rcounts[i] * rdt->size);
    if (!rc) rc = tern_bcast(tmp, total, tern_coll_byte(), 0, c->local_comm);
    off = 0;
    for (int i = 0; !lead && !rc && i < n; i++)
        off += tern_dt_unpack(rdt, tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], 0,
                              tmp + off, (size_t)rcounts[i] * rdt->size);
    free(tmp);
    int rc2 = tern_waitall(n + 1, reqs);
    free(reqs);
    return rc ? rc : rc2;
}

int tern_inter_alltoallw(const void *sbuf, const size_t *scounts, const MPI_Aint *sdispls,
                         struct tern_datatype *const *sdts, void *rbuf, const size_t *rcounts,
                         const MPI_Aint *rdispls, struct tern_datatype *const *rdts,
                         struct tern_comm *c)
{
    int n = c->peer_size, rc = MPI_SUCCESS;
    struct tern_request **reqs = calloc((size_t)n * 2, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("MPI_Alltoall", (size_t)n * 2 * sizeof *reqs);
    /* Receives first, then sends starting with the remote rank after mine,
     * so not every rank sends to the same peer at once. */
    for (int i = 0; i < n && !rc; i++)
        rc = tern_irecv((char *)rbuf + rdispls[i], rcounts[i], rdts[i], i, TERN_TAG_ALLTOALL, c,
                        CTX, &reqs[i]);
    for (int k = 0; k < n && !rc; k++) {
        int i = (c->rank + k) % n;
        rc = tern_isend((const char *)sbuf + sdispls[i], scounts[i], sdts[i], i, TERN_TAG_ALLTOALL,
                        c, CTX, TERN_MODE_STANDARD, &reqs[n + i]);
    }
    int rc2 = tern_waitall(2 * n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}

/* The reduction of this side's contributions at its leader (*acc, which
 * the caller frees through *mem); NULL elsewhere. */
static int reduce_to_leader(const void *sbuf, size_t count, struct tern_datatype *dt,
                            struct tern_op *op, struct tern_comm *c, void **acc, void **mem)
{
    *acc = *mem = NULL;
    if (is_leader(c) && !(*acc = tern_coll_tmpbuf(dt, count, mem)))
        return tern_coll_nomem("reduction", count * dt->size);
    return tern_reduce(sbuf, *acc, count, dt, op, 0, c->local_comm);
}

int tern_inter_reduce(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                      struct tern_op *op, int root, enum tern_inter_role role,
                      struct tern_comm *c)
{
    if (role == TERN_INTER_ROOT)
        return tern_recv(rbuf, count, dt, 0, TERN_TAG_REDUCE, c, CTX, MPI_STATUS_IGNORE);
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    void *acc, *mem;
    int rc = reduce_to_leader(sbuf, count, dt, op, c, &acc, &mem);
    if (!rc && is_leader(c)) rc = tern_send(acc, count, dt, root, TERN_TAG_REDUCE, c, CTX);
    free(mem);
    return rc;
}

/* Each side reduces to its leader; the leaders swap results into 'in'
 * (count elements of dt, at the leader only). */
static int reduce_and_swap(const void *sbuf, void *in, size_t count, struct tern_datatype *dt,
                           struct tern_op *op, int tag, struct tern_comm *c)
{
    void *acc, *mem;
    int rc = reduce_to_leader(sbuf, count, dt, op, c, &acc, &mem);
    if (!rc && is_leader(c))
        rc = tern_sendrecv(acc, count, dt, 0, tag, in, count, dt, 0, tag, c, CTX,
                           MPI_STATUS_IGNORE);
    free(mem);
    return rc;
}

int tern_inter_allreduce(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                         struct tern_op *op, struct tern_comm *c)
{
    int rc = reduce_and_swap(sbuf, rbuf, count, dt, op, TERN_TAG_ALLREDUCE, c);
    return rc ? rc : tern_bcast(rbuf, count, dt, 0, c->local_comm);
}

int tern_inter_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                              struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c)
{
    int n = c->size, rc = MPI_SUCCESS;
    size_t total;
    int *displs = tern_coll_displs_of(rcounts, n, &total);
    if (!displs) return tern_coll_nomem("MPI_Reduce_scatter", (size_t)n * sizeof *displs);
    /* Both sides reduce vectors of the same length (MPI requires it). */
    void *mem = NULL;
    char *in = NULL;
    if (is_leader(c) && !(in = tern_coll_tmpbuf(dt, total, &mem)))
        rc = tern_coll_nomem("MPI_Reduce_scatter", total * dt->size);
    if (!rc) rc = reduce_and_swap(sbuf, in, total, dt, op, TERN_TAG_REDUCE_SCATTER, c);
    if (!rc)
        rc = tern_scatterv(in, rcounts, displs, dt, rbuf, (size_t)rcounts[c->rank], dt, 0,
                           c->local_comm);
    free(mem);
    free(displs);
    return rc;
}
