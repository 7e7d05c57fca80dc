/* Schedules of the collectives on intercommunicators (MPI-4.1 6.2.2), for
 * the nonblocking, persistent and blocking forms alike.  Messages between
 * the two groups go over the intercommunicator (ranks there name the remote
 * group); each group's own part runs the intracommunicator builders over
 * its local communicator (tern_sched_local).  The leader of a group is its
 * local rank 0.
 *
 *   rooted, root -> other group: the root talks to the other leader, which
 *     spreads or collects locally (bcast, gather, scatter, reduce); the v
 *     forms go straight between the root and each remote rank.
 *   all-to-all kinds: each group gathers or reduces to its leader, the
 *     leaders swap, each group spreads what it got (barrier, allgather,
 *     allreduce, reduce_scatter); allgatherv sends every block to the other
 *     leader.  Alltoall(v, w) is the intracommunicator exchange (nbc_all.c),
 *     which serves both kinds.
 *
 * Roots: MPI_ROOT at the root, MPI_PROC_NULL at the other members of its
 * group (which take no part), the root's rank in the remote group at the
 * other group.  MPI_IN_PLACE is not defined on intercommunicators. */
#include "coll/nbc_inter.h"

#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/sched.h"

static int leader(struct tern_sched *s) { return tern_sched_comm(s)->rank == 0; }

/* Adds the steps of 'call' over the local communicator, closing its last
 * round (an intracommunicator builder may leave it open). */
#define LOCAL(s, call)          \
    do {                        \
        tern_sched_local(s, 1); \
        call;                   \
        tern_sched_round(s);    \
        tern_sched_local(s, 0); \
    } while (0)

int tern_nbc_inter_barrier(struct tern_sched *s)
{
    /* Nobody leaves the second local barrier before its leader has heard
     * that the whole other group entered. */
    static char none;
    struct tern_datatype *bt = tern_coll_byte();
    LOCAL(s, tern_nbc_barrier(s));
    if (leader(s)) {
        tern_sched_send(s, &none, 0, bt, 0);
        tern_sched_recv(s, &none, 0, bt, 0);
        tern_sched_round(s);
    }
    LOCAL(s, tern_nbc_barrier(s));
    return tern_sched_round(s);
}

int tern_nbc_inter_bcast(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                         int root)
{
    if (root == MPI_PROC_NULL) return MPI_SUCCESS;
    if (root == MPI_ROOT) return tern_sched_send(s, buf, count, dt, 0);
    if (leader(s)) {
        tern_sched_recv(s, buf, count, dt, root);
        tern_sched_round(s);
    }
    LOCAL(s, tern_nbc_bcast(s, buf, count, dt, 0));
    return tern_sched_round(s);
}

/* The group's blocks of blk bytes packed in local rank order at the
 * leader's *tmp (NULL elsewhere). */
static int gather_to_leader(struct tern_sched *s, const void *sbuf, size_t scount,
                            struct tern_datatype *sdt, char **tmp)
{
    size_t blk = scount * sdt->size;
    *tmp = NULL;
    if (leader(s) && !(*tmp = tern_sched_buf(s, blk * (size_t)tern_sched_comm(s)->size)))
        return tern_sched_round(s);
    LOCAL(s, tern_nbc_gather(s, sbuf, scount, sdt, *tmp, blk, tern_coll_byte(), 0));
    return tern_sched_round(s);
}

int tern_nbc_inter_gather(struct tern_sched *s, const void *sbuf, size_t scount,
                          struct tern_datatype *sdt, void *rbuf, size_t rcount,
                          struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    if (root == MPI_PROC_NULL) return MPI_SUCCESS;
    if (root == MPI_ROOT) return tern_sched_recv(s, rbuf, rcount * (size_t)c->peer_size, rdt, 0);
    char *tmp;
    int rc = gather_to_leader(s, sbuf, scount, sdt, &tmp);
    if (rc || !leader(s)) return rc;
    return tern_sched_send(s, tmp, scount * sdt->size * (size_t)c->size, tern_coll_byte(), root);
}

int tern_nbc_inter_gatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                           struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                           const int *displs, struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    if (root == MPI_PROC_NULL) return MPI_SUCCESS;
    if (root != MPI_ROOT)
        return scount * sdt->size != 0 ? tern_sched_send(s, sbuf, scount, sdt, root) : MPI_SUCCESS;
    for (int i = 0; i < c->peer_size; i++)
        if ((size_t)rcounts[i] * rdt->size != 0)
            tern_sched_recv(s, tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, i);
    return tern_sched_round(s);
}

int tern_nbc_inter_scatter(struct tern_sched *s, const void *sbuf, size_t scount,
                           struct tern_datatype *sdt, void *rbuf, size_t rcount,
                           struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    if (root == MPI_PROC_NULL) return MPI_SUCCESS;
    if (root == MPI_ROOT) return tern_sched_send(s, sbuf, scount * (size_t)c->peer_size, sdt, 0);
    size_t blk = rcount * rdt->size, all = blk * (size_t)c->size;
    char *tmp = NULL;
    if (leader(s)) {
        if (!(tmp = tern_sched_buf(s, all))) return tern_sched_round(s);
        tern_sched_recv(s, tmp, all, tern_coll_byte(), root);
        tern_sched_round(s);
    }
    LOCAL(s, tern_nbc_scatter(s, tmp, blk, tern_coll_byte(), rbuf, rcount, rdt, 0));
    return tern_sched_round(s);
}

int tern_nbc_inter_scatterv(struct tern_sched *s, const void *sbuf, const int *scounts,
                            const int *displs, struct tern_datatype *sdt, void *rbuf, size_t rcount,
                            struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    if (root == MPI_PROC_NULL) return MPI_SUCCESS;
    if (root != MPI_ROOT)
        return rcount * rdt->size != 0 ? tern_sched_recv(s, rbuf, rcount, rdt, root) : MPI_SUCCESS;
    for (int i = 0; i < c->peer_size; i++)
        if ((size_t)scounts[i] * sdt->size != 0)
            tern_sched_send(s, tern_coll_elem(sbuf, sdt, displs[i]), (size_t)scounts[i], sdt, i);
    return tern_sched_round(s);
}

int tern_nbc_inter_allgather(struct tern_sched *s, const void *sbuf, size_t scount,
                             struct tern_datatype *sdt, void *rbuf, size_t rcount,
                             struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    size_t rtotal = rcount * (size_t)c->peer_size;
    char *tmp;
    int rc = gather_to_leader(s, sbuf, scount, sdt, &tmp);
    if (rc) return rc;
    if (leader(s)) {
        tern_sched_send(s, tmp, scount * sdt->size * (size_t)c->size, tern_coll_byte(), 0);
        tern_sched_recv(s, rbuf, rtotal, rdt, 0);
        tern_sched_round(s);
    }
    LOCAL(s, tern_nbc_bcast(s, rbuf, rtotal, rdt, 0));
    return tern_sched_round(s);
}

int tern_nbc_inter_allgatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                              struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                              const int *displs, struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_datatype *bt = tern_coll_byte();
    int n = c->peer_size, lead = leader(s);
    size_t total = 0, off = 0;
    for (int i = 0; i < n; i++) total += (size_t)rcounts[i] * rdt->size;
    /* Every block goes to the other leader, all at once. */
    for (int i = 0; lead && i < n; i++)
        if ((size_t)rcounts[i] * rdt->size != 0)
            tern_sched_recv(s, tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, i);
    if (scount * sdt->size != 0) tern_sched_send(s, sbuf, scount, sdt, 0);
    tern_sched_round(s);
    if (total == 0) return MPI_SUCCESS;
    /* The leader spreads the blocks packed in remote rank order. */
    char *tmp = tern_sched_buf(s, total);
    if (!tmp) return tern_sched_round(s);
    for (int i = 0; lead && i < n; off += (size_t)rcounts[i++] * rdt->size)
        tern_sched_copy(s, tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt, tmp + off,
                        (size_t)rcounts[i] * rdt->size, bt);
    LOCAL(s, tern_nbc_bcast(s, tmp, total, bt, 0));
    for (int i = 0; !lead && i < n; off += (size_t)rcounts[i++] * rdt->size)
        tern_sched_copy(s, tmp + off, (size_t)rcounts[i] * rdt->size, bt,
                        tern_coll_elem(rbuf, rdt, displs[i]), (size_t)rcounts[i], rdt);
    return tern_sched_round(s);
}

/* The reduction of the group's contributions at the leader's *acc (NULL
 * elsewhere). */
static int reduce_to_leader(struct tern_sched *s, const void *sbuf, size_t count,
                            struct tern_datatype *dt, struct tern_op *op, char **acc)
{
    *acc = NULL;
    if (leader(s) && !(*acc = tern_sched_tmp(s, dt, count))) return tern_sched_round(s);
    LOCAL(s, tern_nbc_reduce(s, sbuf, *acc, count, dt, op, 0));
    return tern_sched_round(s);
}

int tern_nbc_inter_reduce(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                          struct tern_datatype *dt, struct tern_op *op, int root)
{
    if (root == MPI_PROC_NULL || count == 0) return MPI_SUCCESS;
    if (root == MPI_ROOT) return tern_sched_recv(s, rbuf, count, dt, 0);
    char *acc;
    int rc = reduce_to_leader(s, sbuf, count, dt, op, &acc);
    if (rc || !leader(s)) return rc;
    return tern_sched_send(s, acc, count, dt, root);
}

/* Each group reduces to its leader; the leaders swap their results, the
 * other group's landing in 'in' (count elements of dt, at the leader). */
static int reduce_and_swap(struct tern_sched *s, const void *sbuf, void *in, size_t count,
                           struct tern_datatype *dt, struct tern_op *op)
{
    char *acc;
    int rc = reduce_to_leader(s, sbuf, count, dt, op, &acc);
    if (rc || !leader(s)) return rc;
    tern_sched_send(s, acc, count, dt, 0);
    tern_sched_recv(s, in, count, dt, 0);
    return tern_sched_round(s);
}

int tern_nbc_inter_allreduce(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                             struct tern_datatype *dt, struct tern_op *op)
{
    if (count == 0) return MPI_SUCCESS;
    int rc = reduce_and_swap(s, sbuf, rbuf, count, dt, op);
    if (rc) return rc;
    LOCAL(s, tern_nbc_bcast(s, rbuf, count, dt, 0));
    return tern_sched_round(s);
}

int tern_nbc_inter_reduce_scatter(struct tern_sched *s, const void *sbuf, void *rbuf,
                                  const int *rcounts, size_t rcount, struct tern_datatype *dt,
                                  struct tern_op *op)
{
    /* Both groups reduce vectors of the same length (MPI requires it). */
    int n = tern_sched_comm(s)->size;
    int *counts = tern_sched_buf(s, (size_t)n * sizeof *counts);
    int *displs = tern_sched_buf(s, (size_t)n * sizeof *displs);
    if (!counts || !displs) return tern_sched_round(s);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        counts[i] = rcounts ? rcounts[i] : (int)rcount;
        displs[i] = (int)total;
        total += (size_t)counts[i];
    }
    if (total == 0) return MPI_SUCCESS;
    char *in = NULL;
    if (leader(s) && !(in = tern_sched_tmp(s, dt, total))) return tern_sched_round(s);
    int rc = reduce_and_swap(s, sbuf, in, total, dt, op);
    if (rc) return rc;
    LOCAL(s, tern_nbc_scatterv(s, in, counts, displs, dt, rbuf,
                               (size_t)counts[tern_sched_comm(s)->rank], dt, 0));
    return tern_sched_round(s);
}
