/* The argument checks of the collectives on intercommunicators, behind
 * the tern_coll_check_* of coll_check.h (which hand over here when
 * c->is_inter), so the blocking, nonblocking and persistent forms refuse
 * the same arguments.  Rooted calls check by role: the root (MPI_ROOT) its
 * own side, its group's other members (MPI_PROC_NULL) nothing more, the
 * other group (the root's rank there) theirs.  Count arrays have one entry
 * per remote rank, except reduce_scatter's, one per local rank.
 * MPI_IN_PLACE is not defined on intercommunicators. */
#include "api/coll_check_inter.h"

#include <stdio.h>
#include <stdlib.h>

#include "api/check.h"
#include "api/count_vec.h"
#include "coll/op.h"
#include "core/errors.h"
#include "core/objects.h"
#include "datatype/datatype.h"

int tern_coll_check_intra(struct tern_comm *c, const char *fn)
{
    if (!c->is_inter) return MPI_SUCCESS;
    char lb[64];
    return tern_err_comm(c, MPI_ERR_COMM,
                         "%s: %s is an intercommunicator; MPI defines this operation on "
                         "intracommunicators only",
                         fn, tern_comm_label(c, lb, sizeof lb));
}

/* *idle: this rank is MPI_PROC_NULL, and checks nothing more. */
static int chk_role(struct tern_comm *c, const char *fn, int root, int *idle)
{
    *idle = root == MPI_PROC_NULL;
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->peer_size))
        return MPI_SUCCESS;
    char lb[64];
    return tern_err_comm(c, MPI_ERR_ROOT,
                         "%s: root=%d on intercommunicator %s is not MPI_ROOT, MPI_PROC_NULL "
                         "or a rank of the remote group (size %d)",
                         fn, root, tern_comm_label(c, lb, sizeof lb), c->peer_size);
}

/* The argument names of one side of a collective, for the messages. */
struct side {
    const char *buf, *count, *counts, *type;
};
static const struct side SEND = {"sendbuf", "sendcount", "sendcounts", "sendtype"};
static const struct side RECV = {"recvbuf", "recvcount", "recvcounts", "recvtype"};

static int chk_not_in_place(struct tern_comm *c, const char *fn, const char *arg, const void *buf)
{
    if (buf != MPI_IN_PLACE) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_BUFFER,
                         "%s: %s is MPI_IN_PLACE, which is not allowed on an intercommunicator", fn,
                         arg);
}

/* A side given as (buf, count, type). */
static int chk_block(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                     MPI_Count count, MPI_Datatype type, struct tern_datatype **dt)
{
    int rc;
    if ((rc = tern_check_count(c, count, fn, s->count))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    if ((rc = chk_not_in_place(c, fn, s->buf, buf))) return rc;
    return tern_check_buffer(c, buf, count, *dt, fn, s->buf);
}

/* A side given as (buf, counts[remote size], displs, type). */
static int chk_vector(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                      const int *counts, const char *displs_arg, const int *displs,
                      MPI_Datatype type, struct tern_datatype **dt)
{
    size_t total;
    int rc;
    if ((rc = tern_check_counts(c, fn, s->counts, counts, c->peer_size, &total))) return rc;
    if (!displs) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, displs_arg);
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    if ((rc = chk_not_in_place(c, fn, s->buf, buf))) return rc;
    return tern_check_buffer(c, buf, (long)total, *dt, fn, s->buf);
}

int tern_coll_check_inter_bcast(struct tern_comm *c, const char *fn, void *buffer, MPI_Count count,
                                MPI_Datatype datatype, int root, struct tern_datatype **dt)
{
    int rc, idle;
    *dt = NULL;
    if ((rc = chk_role(c, fn, root, &idle)) || idle) return rc;
    return chk_block(c, fn, &(struct side){"buffer", "count", NULL, "datatype"}, buffer, count,
                     datatype, dt);
}

/* Gather and scatter: the root's side is the whole (one block per remote
 * rank), the other group's one block; sdt or rdt stays NULL where unused. */
int tern_coll_check_inter_rooted(struct tern_comm *c, const char *fn, int gather,
                                 const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc, idle;
    *sdt = *rdt = NULL;
    if ((rc = chk_role(c, fn, root, &idle)) || idle) return rc;
    if (root == MPI_ROOT ? gather : !gather)
        return chk_block(c, fn, &RECV, recvbuf, recvcount, recvtype, rdt);
    return chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, sdt);
}

int tern_coll_check_inter_gatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                  MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                  int root, struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc, idle;
    *sdt = *rdt = NULL;
    if ((rc = chk_role(c, fn, root, &idle)) || idle) return rc;
    if (root == MPI_ROOT)
        return chk_vector(c, fn, &RECV, recvbuf, recvcounts, "displs", displs, recvtype, rdt);
    return chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, sdt);
}

int tern_coll_check_inter_scatterv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                   const int sendcounts[], const int displs[],
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, int root, struct tern_datatype **sdt,
                                   struct tern_datatype **rdt)
{
    int rc, idle;
    *sdt = *rdt = NULL;
    if ((rc = chk_role(c, fn, root, &idle)) || idle) return rc;
    if (root == MPI_ROOT)
        return chk_vector(c, fn, &SEND, sendbuf, sendcounts, "displs", displs, sendtype, sdt);
    return chk_block(c, fn, &RECV, recvbuf, recvcount, recvtype, rdt);
}

int tern_coll_check_inter_all_block(struct tern_comm *c, const char *fn, const void *sendbuf,
                                    MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype,
                                    struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc = chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, sdt);
    return rc ? rc : chk_block(c, fn, &RECV, recvbuf, recvcount, recvtype, rdt);
}

int tern_coll_check_inter_allgatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                     MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[], const int displs[],
                                     MPI_Datatype recvtype, struct tern_datatype **sdt,
                                     struct tern_datatype **rdt)
{
    int rc = chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, sdt);
    return rc ? rc : chk_vector(c, fn, &RECV, recvbuf, recvcounts, "displs", displs, recvtype, rdt);
}

int tern_coll_check_inter_alltoallv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                    const int sendcounts[], const int sdispls[],
                                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                    const int rdispls[], MPI_Datatype recvtype,
                                    struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc = chk_vector(c, fn, &SEND, sendbuf, sendcounts, "sdispls", sdispls, sendtype, sdt);
    return rc ? rc
              : chk_vector(c, fn, &RECV, recvbuf, recvcounts, "rdispls", rdispls, recvtype, rdt);
}

/* One side of alltoallw: counts, byte displacements and a datatype per
 * remote rank into dts[0..n) (any type where the count is 0: MPI_BYTE
 * stands in). */
static int chk_wside(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                     const int *counts, const char *displs_arg, const int *displs,
                     const char *types_arg, const MPI_Datatype *types, struct tern_datatype **dts)
{
    int rc, n = c->peer_size;
    char name[48];
    if ((rc = tern_check_counts(c, fn, s->counts, counts, n, NULL))) return rc;
    if (!displs) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, displs_arg);
    if (!types) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, types_arg);
    if ((rc = chk_not_in_place(c, fn, s->buf, buf))) return rc;
    for (int i = 0; i < n; i++) {
        dts[i] = tern_dt_get(MPI_BYTE);
        if (counts[i] == 0) continue;
        snprintf(name, sizeof name, "%s[%d]", types_arg, i);
        if ((rc = tern_check_datatype(c, types[i], fn, name, &dts[i]))) return rc;
        if ((rc = tern_check_buffer(c, buf, counts[i], dts[i], fn, s->buf))) return rc;
    }
    return MPI_SUCCESS;
}

int tern_coll_check_inter_alltoallw(struct tern_comm *c, const char *fn, const void *sendbuf,
                                    const int sendcounts[], const int sdispls[],
                                    const MPI_Datatype sendtypes[], void *recvbuf,
                                    const int recvcounts[], const int rdispls[],
                                    const MPI_Datatype recvtypes[], struct tern_datatype ***dts)
{
    int rc, n = c->peer_size;
    struct tern_datatype **d = calloc((size_t)n * 2, sizeof *d);
    *dts = d;
    if (!d)
        return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory for %d datatypes", fn, 2 * n);
    if ((rc = chk_wside(c, fn, &SEND, sendbuf, sendcounts, "sdispls", sdispls, "sendtypes",
                        sendtypes, d)))
        return rc;
    return chk_wside(c, fn, &RECV, recvbuf, recvcounts, "rdispls", rdispls, "recvtypes", recvtypes,
                     d + n);
}

/* count, datatype and op of the reductions. */
static int chk_reduction(struct tern_comm *c, const char *fn, long count, MPI_Datatype type,
                         MPI_Op op, struct tern_datatype **dt, struct tern_op **o)
{
    int rc;
    if ((rc = tern_check_count(c, count, fn, "count"))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, "datatype", dt))) return rc;
    if ((rc = tern_op_check_valid(op, fn, o)) || (rc = tern_op_check(*o, *dt, fn)))
        return tern_err_raise(c, rc);
    return MPI_SUCCESS;
}

/* A reduction buffer of n elements. */
static int chk_rbuf(struct tern_comm *c, const char *fn, const char *arg, const void *buf, long n,
                    struct tern_datatype *dt)
{
    int rc = chk_not_in_place(c, fn, arg, buf);
    return rc ? rc : tern_check_buffer(c, buf, n, dt, fn, arg);
}

int tern_coll_check_inter_reduce(struct tern_comm *c, const char *fn, const void *sendbuf,
                                 void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                                 int root, struct tern_datatype **dt, struct tern_op **o)
{
    int rc, idle;
    *dt = NULL;
    *o = NULL;
    if ((rc = chk_role(c, fn, root, &idle)) || idle) return rc;
    if ((rc = chk_reduction(c, fn, count, datatype, op, dt, o))) return rc;
    if (root == MPI_ROOT) return chk_rbuf(c, fn, "recvbuf", recvbuf, count, *dt);
    return chk_rbuf(c, fn, "sendbuf", sendbuf, count, *dt);
}

int tern_coll_check_inter_all_reduce(struct tern_comm *c, const char *fn, const void *sendbuf,
                                     void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                     MPI_Op op, struct tern_datatype **dt, struct tern_op **o)
{
    int rc;
    if ((rc = chk_reduction(c, fn, count, datatype, op, dt, o))) return rc;
    if ((rc = chk_rbuf(c, fn, "sendbuf", sendbuf, count, *dt))) return rc;
    return chk_rbuf(c, fn, "recvbuf", recvbuf, count, *dt);
}

/* rcounts: one per local rank, or NULL and rcount for every one. */
int tern_coll_check_inter_reduce_scatter(struct tern_comm *c, const char *fn, const void *sendbuf,
                                         void *recvbuf, const int *rcounts, MPI_Count rcount,
                                         MPI_Datatype datatype, MPI_Op op,
                                         struct tern_datatype **dt, struct tern_op **o)
{
    int rc, n = c->size;
    size_t total;
    if (rcounts) {
        if ((rc = tern_check_counts(c, fn, "recvcounts", rcounts, n, &total))) return rc;
        rcount = rcounts[c->rank];
    } else {
        if ((rc = tern_check_count(c, rcount, fn, "recvcount"))) return rc;
        /* the schedule describes the blocks with ints */
        if ((rc = tern_count_fits_int(c, fn, "recvcount", rcount))) return rc;
        total = (size_t)rcount * (size_t)n;
    }
    if ((rc = chk_reduction(c, fn, 0, datatype, op, dt, o))) return rc;
    if ((rc = chk_rbuf(c, fn, "sendbuf", sendbuf, (long)total, *dt))) return rc;
    return chk_rbuf(c, fn, "recvbuf", recvbuf, rcount, *dt);
}
