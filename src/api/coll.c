/* The bodies of the blocking MPI collectives: argument checks, then the
 * collective of src/coll, which picks its algorithm (coll/select.h).  Their
 * entry points, with the init test, the lock and the check of the
 * communicator, are generated (src/api/gen/bindings_coll.c).  One helper
 * serves MPI_X and its large-count form MPI_X_c (count arrays through
 * api/count_vec.h). */
#include <stdio.h>
#include <stdlib.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/coll_check.h"
#include "api/count_vec.h"
#include "coll/coll.h"
#include "api/coll_check_inter.h"
#include "coll/op.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"

/* Every entry point: checks in sequence, stopping at the first failure. */
static int chk_not_in_place(struct tern_comm *c, const char *fn, const char *arg, const void *buf,
                            const char *why)
{
    if (__builtin_expect(buf == MPI_IN_PLACE, 0))
        return tern_err_comm(c, MPI_ERR_BUFFER, "%s: %s is MPI_IN_PLACE, which is not allowed %s",
                             fn, arg, why);
    return MPI_SUCCESS;
}

static int chk_alias(struct tern_comm *c, const char *fn, const void *sbuf, const void *rbuf,
                     size_t bytes)
{
    if (__builtin_expect(sbuf == rbuf && sbuf != NULL && bytes > 0, 0))
        return tern_err_comm(c, MPI_ERR_BUFFER,
                             "%s: sendbuf and recvbuf are the same buffer (%p); use MPI_IN_PLACE",
                             fn, sbuf);
    return MPI_SUCCESS;
}

static int chk_root(struct tern_comm *c, const char *fn, int root)
{
    if (__builtin_expect(root < 0 || root >= c->size, 0)) {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_ROOT, "%s: root=%d is not a rank of %s (size %d)", fn, root,
                             tern_comm_label(c, lb, sizeof lb), c->size);
    }
    return MPI_SUCCESS;
}

static int chk_op(struct tern_comm *c, const char *fn, MPI_Op h, struct tern_datatype *dt,
                  struct tern_op **out)
{
    struct tern_op *op = h == MPI_OP_NULL ? NULL : tern_op_get(h);
    if (!op) {
        if (h == MPI_OP_NULL) return tern_err_comm(c, MPI_ERR_OP, "%s: op is MPI_OP_NULL", fn);
        return tern_err_comm(c, MPI_ERR_OP, "%s: op=0x%x is not a valid operation", fn,
                             (unsigned)h);
    }
    int rc = tern_op_check(op, dt, fn);
    if (rc) return tern_err_raise(c, rc);
    *out = op;
    return MPI_SUCCESS;
}

/* An array argument of n counts: present, none negative; *sum their total. */
static int chk_array(struct tern_comm *c, const char *fn, const char *arg, const void *a)
{
    if (!a) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
    return MPI_SUCCESS;
}

/* Whether the root's arguments (a vector collective's counts) apply here. */
static int is_root(const struct tern_comm *c, int root)
{
    return c->is_inter ? root == MPI_ROOT : c->rank == root;
}

static int coll_result(struct tern_comm *c, int rc)
{
    return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
}

int tern_api_barrier(const char *fn, struct tern_comm *comm_o)
{
    (void)fn;
    return coll_result(comm_o, tern_coll_barrier(comm_o));
}

int tern_coll_check_bcast(struct tern_comm *c, const char *fn, void *buffer, MPI_Count count,
                          MPI_Datatype datatype, int root, struct tern_datatype **dt)
{
    int rc;
    if (c->is_inter) return tern_coll_check_inter_bcast(c, fn, buffer, count, datatype, root, dt);
    if ((rc = chk_root(c, fn, root))) return rc;
    if ((rc = chk_not_in_place(c, fn, "buffer", buffer, "in a broadcast"))) return rc;
    if ((rc = tern_check_count(c, count, fn, "count"))) return rc;
    if ((rc = tern_check_datatype(c, datatype, fn, "datatype", dt))) return rc;
    return tern_check_buffer(c, buffer, count, *dt, fn, "buffer");
}

static int bcast_body(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                      int root, struct tern_comm *c)
{
    struct tern_datatype *dt;
    int rc;
    TRY(tern_coll_check_bcast(c, fn, buffer, count, datatype, root, &dt));
    rc = coll_result(c, tern_coll_bcast(buffer, (size_t)count, dt, root, c));
out:
    return rc;
}

int tern_api_bcast(const char *fn, void *buffer, int count, MPI_Datatype datatype, int root,
                   struct tern_comm *comm_o)
{
    return bcast_body(fn, buffer, count, datatype, root, comm_o);
}

int tern_api_bcast_c(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                     struct tern_comm *comm_o)
{
    return bcast_body(fn, buffer, count, datatype, root, comm_o);
}

/* The argument names of one side of a collective, for the messages. */
struct side {
    const char *buf, *count, *counts, *type;
    const char *whole; /* why MPI_IN_PLACE is refused for this side's buffer */
};
static const struct side SEND = {"sendbuf", "sendcount", "sendcounts", "sendtype",
                                 "for the send buffer"};
static const struct side RECV = {"recvbuf", "recvcount", "recvcounts", "recvtype",
                                 "for the receive buffer"};

/* A side given as (buf, count, type). */
static int chk_block(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                     MPI_Count count, MPI_Datatype type, struct tern_datatype **dt)
{
    int rc;
    if ((rc = tern_check_count(c, count, fn, s->count))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    if ((rc = chk_not_in_place(c, fn, s->buf, buf, s->whole))) return rc;
    return tern_check_buffer(c, buf, count, *dt, fn, s->buf);
}

/* A side given as (buf, counts[c->size], displs, type); *total is the sum of
 * the counts. */
static int chk_vector(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                      const int *counts, const char *displs_arg, const int *displs,
                      MPI_Datatype type, struct tern_datatype **dt, size_t *total)
{
    int rc;
    if ((rc = tern_check_counts(c, fn, s->counts, counts, c->size, total))) return rc;
    if ((rc = chk_array(c, fn, displs_arg, displs))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    if ((rc = chk_not_in_place(c, fn, s->buf, buf, s->whole))) return rc;
    return tern_check_buffer(c, buf, (long)*total, *dt, fn, s->buf);
}

/* The per-rank side of gather and scatter, once the root has checked its
 * whole buffer (total elements of wdt): MPI_IN_PLACE only at the root, where
 * it means "no part of mine to move". */
static int chk_part(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                    MPI_Count count, MPI_Datatype type, int root, const void *whole, size_t total,
                    const struct tern_datatype *wdt, struct tern_datatype **dt)
{
    int rc;
    if (c->rank != root &&
        (rc = chk_not_in_place(c, fn, s->buf, buf, "at a rank other than the root")))
        return rc;
    if (buf == MPI_IN_PLACE) return MPI_SUCCESS;
    if ((rc = chk_block(c, fn, s, buf, count, type, dt))) return rc;
    if (c->rank == root) return chk_alias(c, fn, buf, whole, total * wdt->size);
    return MPI_SUCCESS;
}

/* Gather and scatter: the root's whole buffer (one block per rank), then
 * every rank's own block, which at the root may be MPI_IN_PLACE. */
static int chk_rooted(struct tern_comm *c, const char *fn, int root, const struct side *ws,
                      const void *wbuf, MPI_Count wcount, MPI_Datatype wtype,
                      struct tern_datatype **wdt, const struct side *ps, const void *pbuf,
                      MPI_Count pcount, MPI_Datatype ptype, struct tern_datatype **pdt)
{
    int rc;
    *wdt = *pdt = NULL;
    if ((rc = chk_root(c, fn, root))) return rc;
    if (c->rank == root && (rc = chk_block(c, fn, ws, wbuf, wcount, wtype, wdt))) return rc;
    return chk_part(c, fn, ps, pbuf, pcount, ptype, root, wbuf, (size_t)wcount, *wdt, pdt);
}

int tern_coll_check_gather(struct tern_comm *c, const char *fn, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, int root,
                           struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    if (c->is_inter)
        return tern_coll_check_inter_rooted(c, fn, 1, sendbuf, sendcount, sendtype, recvbuf,
                                            recvcount, recvtype, root, sdt, rdt);
    return chk_rooted(c, fn, root, &RECV, recvbuf, recvcount, recvtype, rdt, &SEND, sendbuf,
                      sendcount, sendtype, sdt);
}

static int gather_body(const char *fn, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, struct tern_comm *c)
{
    struct tern_datatype *sdt = NULL, *rdt = NULL;
    int rc;
    TRY(tern_coll_check_gather(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, &sdt, &rdt));
    rc = coll_result(c, tern_coll_gather(sendbuf, (size_t)sendcount, sdt, recvbuf,
                                         (size_t)recvcount, rdt, root, c));
out:
    return rc;
}

int tern_api_gather(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                    struct tern_comm *comm_o)
{
    return gather_body(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                       comm_o);
}

int tern_api_gather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, struct tern_comm *comm_o)
{
    return gather_body(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                       comm_o);
}

int tern_coll_check_gatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                            int root, struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc;
    size_t total = 0;
    if (c->is_inter)
        return tern_coll_check_inter_gatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf,
                                             recvcounts, displs, recvtype, root, sdt, rdt);
    *sdt = *rdt = NULL;
    if ((rc = chk_root(c, fn, root))) return rc;
    if (c->rank == root && (rc = chk_vector(c, fn, &RECV, recvbuf, recvcounts, "displs", displs,
                                            recvtype, rdt, &total)))
        return rc;
    return chk_part(c, fn, &SEND, sendbuf, sendcount, sendtype, root, recvbuf, total, *rdt, sdt);
}

static int gatherv_body(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts_v,
                        struct tern_vec displs_v, MPI_Datatype recvtype, int root,
                        struct tern_comm *c)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL, *displs = NULL;
    struct tern_datatype *sdt = NULL, *rdt = NULL;
    int rc;
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, is_root(c, root), &tmp,
                      &recvcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, is_root(c, root), &tmp, &displs));
    TRY(tern_coll_check_gatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, root, &sdt, &rdt));
    rc = coll_result(c, tern_coll_gatherv(sendbuf, (size_t)sendcount, sdt, recvbuf, recvcounts,
                                          displs, rdt, root, c));
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_gatherv(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const int recvcounts[], const int displs[],
                     MPI_Datatype recvtype, int root, struct tern_comm *comm_o)
{
    return gatherv_body(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_int(recvcounts),
                        tern_vec_int(displs), recvtype, root, comm_o);
}

int tern_api_gatherv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                       const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                       struct tern_comm *comm_o)
{
    return gatherv_body(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_long(recvcounts),
                        tern_vec_long(displs), recvtype, root, comm_o);
}

int tern_coll_check_scatter(struct tern_comm *c, const char *fn, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root,
                            struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    if (c->is_inter)
        return tern_coll_check_inter_rooted(c, fn, 0, sendbuf, sendcount, sendtype, recvbuf,
                                            recvcount, recvtype, root, sdt, rdt);
    return chk_rooted(c, fn, root, &SEND, sendbuf, sendcount, sendtype, sdt, &RECV, recvbuf,
                      recvcount, recvtype, rdt);
}

static int scatter_body(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, struct tern_comm *c)
{
    struct tern_datatype *sdt = NULL, *rdt = NULL;
    int rc;
    TRY(tern_coll_check_scatter(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, &sdt, &rdt));
    rc = coll_result(c, tern_coll_scatter(sendbuf, (size_t)sendcount, sdt, recvbuf,
                                          (size_t)recvcount, rdt, root, c));
out:
    return rc;
}

int tern_api_scatter(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                     struct tern_comm *comm_o)
{
    return scatter_body(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                        comm_o);
}

int tern_api_scatter_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, struct tern_comm *comm_o)
{
    return scatter_body(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                        comm_o);
}

int tern_coll_check_scatterv(struct tern_comm *c, const char *fn, const void *sendbuf,
                             const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                             struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc;
    size_t total = 0;
    if (c->is_inter)
        return tern_coll_check_inter_scatterv(c, fn, sendbuf, sendcounts, displs, sendtype, recvbuf,
                                              recvcount, recvtype, root, sdt, rdt);
    *sdt = *rdt = NULL;
    if ((rc = chk_root(c, fn, root))) return rc;
    if (c->rank == root && (rc = chk_vector(c, fn, &SEND, sendbuf, sendcounts, "displs", displs,
                                            sendtype, sdt, &total)))
        return rc;
    return chk_part(c, fn, &RECV, recvbuf, recvcount, recvtype, root, sendbuf, total, *sdt, rdt);
}

static int scatterv_body(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                         struct tern_vec displs_v, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, struct tern_comm *c)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *displs = NULL;
    struct tern_datatype *sdt = NULL, *rdt = NULL;
    int rc;
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, is_root(c, root), &tmp,
                      &sendcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, is_root(c, root), &tmp, &displs));
    TRY(tern_coll_check_scatterv(c, fn, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, &sdt, &rdt));
    rc = coll_result(c, tern_coll_scatterv(sendbuf, sendcounts, displs, sdt, recvbuf,
                                           (size_t)recvcount, rdt, root, c));
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_scatterv(const char *fn, const void *sendbuf, const int sendcounts[],
                      const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, struct tern_comm *comm_o)
{
    return scatterv_body(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(displs), sendtype,
                         recvbuf, recvcount, recvtype, root, comm_o);
}

int tern_api_scatterv_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                        const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        struct tern_comm *comm_o)
{
    return scatterv_body(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(displs), sendtype,
                         recvbuf, recvcount, recvtype, root, comm_o);
}

/* The send side of the "all" calls, which may be MPI_IN_PLACE everywhere. */
static int chk_send_side(struct tern_comm *c, const char *fn, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype, struct tern_datatype **sdt)
{
    *sdt = NULL;
    if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
    return chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, sdt);
}

/* Allgather and alltoall: the same arguments, the same checks. */
int tern_coll_check_all_block(struct tern_comm *c, const char *fn, const void *sendbuf,
                              MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc;
    if (c->is_inter)
        return tern_coll_check_inter_all_block(c, fn, sendbuf, sendcount, sendtype, recvbuf,
                                               recvcount, recvtype, sdt, rdt);
    if ((rc = chk_send_side(c, fn, sendbuf, sendcount, sendtype, sdt))) return rc;
    if ((rc = chk_block(c, fn, &RECV, recvbuf, recvcount, recvtype, rdt))) return rc;
    return chk_alias(c, fn, sendbuf, recvbuf, (size_t)recvcount * (*rdt)->size);
}

typedef int (*all_block_fn)(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                            size_t rcount, struct tern_datatype *rdt, struct tern_comm *c);

static int all_block(const char *fn, all_block_fn coll, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, struct tern_comm *c)
{
    struct tern_datatype *sdt, *rdt;
    int rc;
    TRY(tern_coll_check_all_block(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  &sdt, &rdt));
    rc = coll_result(c, coll(sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt, c));
out:
    return rc;
}

int tern_api_allgather(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       struct tern_comm *comm_o)
{
    return all_block(fn, tern_coll_allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm_o);
}

int tern_api_allgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return all_block(fn, tern_coll_allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm_o);
}

int tern_coll_check_allgatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                               MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                               struct tern_datatype **sdt, struct tern_datatype **rdt)
{
    int rc;
    size_t total = 0;
    if (c->is_inter)
        return tern_coll_check_inter_allgatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf,
                                                recvcounts, displs, recvtype, sdt, rdt);
    if ((rc = chk_send_side(c, fn, sendbuf, sendcount, sendtype, sdt))) return rc;
    if ((rc = chk_vector(c, fn, &RECV, recvbuf, recvcounts, "displs", displs, recvtype, rdt,
                         &total)))
        return rc;
    return chk_alias(c, fn, sendbuf, recvbuf, total * (*rdt)->size);
}

static int allgatherv_body(const char *fn, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts_v,
                           struct tern_vec displs_v, MPI_Datatype recvtype, struct tern_comm *c)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL, *displs = NULL;
    struct tern_datatype *sdt, *rdt;
    int rc;
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, 1, &tmp, &displs));
    TRY(tern_coll_check_allgatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, &sdt, &rdt));
    rc = coll_result(c, tern_coll_allgatherv(sendbuf, (size_t)sendcount, sdt, recvbuf, recvcounts,
                                             displs, rdt, c));
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_allgatherv(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return allgatherv_body(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_int(recvcounts),
                           tern_vec_int(displs), recvtype, comm_o);
}

int tern_api_allgatherv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint displs[], MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return allgatherv_body(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_long(recvcounts),
                           tern_vec_long(displs), recvtype, comm_o);
}

int tern_api_alltoall(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return all_block(fn, tern_coll_alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm_o);
}

int tern_api_alltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return all_block(fn, tern_coll_alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm_o);
}

int tern_coll_check_alltoallv(struct tern_comm *c, const char *fn, const void *sendbuf,
                              const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int rdispls[],
                              MPI_Datatype recvtype, struct tern_datatype **sdt,
                              struct tern_datatype **rdt)
{
    int rc;
    size_t stotal = 0, rtotal = 0;
    if (c->is_inter)
        return tern_coll_check_inter_alltoallv(c, fn, sendbuf, sendcounts, sdispls, sendtype,
                                               recvbuf, recvcounts, rdispls, recvtype, sdt, rdt);
    *sdt = NULL;
    if (sendbuf != MPI_IN_PLACE && (rc = chk_vector(c, fn, &SEND, sendbuf, sendcounts, "sdispls",
                                                    sdispls, sendtype, sdt, &stotal)))
        return rc;
    if ((rc = chk_vector(c, fn, &RECV, recvbuf, recvcounts, "rdispls", rdispls, recvtype, rdt,
                         &rtotal)))
        return rc;
    return chk_alias(c, fn, sendbuf, recvbuf, rtotal * (*rdt)->size);
}

static int alltoallv_body(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                          struct tern_vec sdispls_v, MPI_Datatype sendtype, void *recvbuf,
                          struct tern_vec recvcounts_v, struct tern_vec rdispls_v,
                          MPI_Datatype recvtype, struct tern_comm *c)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *sdispls = NULL, *recvcounts = NULL, *rdispls = NULL;
    struct tern_datatype *sdt, *rdt;
    int rc;
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, sendbuf != MPI_IN_PLACE,
                      &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "sdispls", sdispls_v, c->peer_size, sendbuf != MPI_IN_PLACE, &tmp,
                      &sdispls));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "rdispls", rdispls_v, c->peer_size, 1, &tmp, &rdispls));
    TRY(tern_coll_check_alltoallv(c, fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                  recvcounts, rdispls, recvtype, &sdt, &rdt));
    rc = coll_result(c, tern_coll_alltoallv(sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts,
                                            rdispls, rdt, c));
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_alltoallv(const char *fn, const void *sendbuf, const int sendcounts[],
                       const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       struct tern_comm *comm_o)
{
    return alltoallv_body(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls), sendtype,
                          recvbuf, tern_vec_int(recvcounts), tern_vec_int(rdispls), recvtype,
                          comm_o);
}

int tern_api_alltoallv_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return alltoallv_body(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls), sendtype,
                          recvbuf, tern_vec_long(recvcounts), tern_vec_long(rdispls), recvtype,
                          comm_o);
}

/* Datatype handles of alltoallw -> objects; entries with count 0 may be
 * anything (MPI_DATATYPE_NULL is common) and become MPI_BYTE.  Buffers are
 * not checked: a NULL one is MPI_BOTTOM, and the byte displacements may
 * hold absolute addresses even for predefined types. */
static int w_types(struct tern_comm *c, const char *fn, const char *arg, const int *counts,
                   const MPI_Datatype *types, struct tern_datatype **out)
{
    char name[32];
    for (int i = 0; i < c->size; i++) {
        if (counts[i] == 0) {
            out[i] = tern_dt_get(MPI_BYTE);
            continue;
        }
        /* The element's name is made only for an error's message: made for
         * every element, it kept MPI_Ialltoallw 0.25 us behind
         * MPI_Ialltoallv on 2 ranks (1.35 against 1.09 us). */
        if (tern_dt_check(types[i], fn, arg, &out[i]) == MPI_SUCCESS) continue;
        snprintf(name, sizeof name, "%s[%d]", arg, i);
        return tern_check_datatype(c, types[i], fn, name, &out[i]);
    }
    return MPI_SUCCESS;
}

int tern_coll_check_alltoallw(struct tern_comm *c, const char *fn, const void *sendbuf,
                              const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[],
                              struct tern_datatype ***dts)
{
    int rc;
    if (c->is_inter)
        return tern_coll_check_inter_alltoallw(c, fn, sendbuf, sendcounts, sdispls, sendtypes,
                                               recvbuf, recvcounts, rdispls, recvtypes, dts);
    struct tern_datatype **sdts = calloc((size_t)c->peer_size * 2, sizeof *sdts), **rdts;
    *dts = sdts;
    if (!sdts)
        return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory for %d datatypes", fn,
                             2 * c->peer_size);
    rdts = sdts + c->peer_size;
    if (sendbuf != MPI_IN_PLACE) {
        if ((rc = tern_check_counts(c, fn, "sendcounts", sendcounts, c->size, NULL))) return rc;
        if ((rc = chk_array(c, fn, "sdispls", sdispls))) return rc;
        if ((rc = chk_array(c, fn, "sendtypes", sendtypes))) return rc;
        if ((rc = w_types(c, fn, "sendtypes", sendcounts, sendtypes, sdts))) return rc;
        if ((rc = chk_alias(c, fn, sendbuf, recvbuf, 1))) return rc;
    }
    if ((rc = tern_check_counts(c, fn, "recvcounts", recvcounts, c->size, NULL))) return rc;
    if ((rc = chk_array(c, fn, "rdispls", rdispls))) return rc;
    if ((rc = chk_array(c, fn, "recvtypes", recvtypes))) return rc;
    if ((rc = w_types(c, fn, "recvtypes", recvcounts, recvtypes, rdts))) return rc;
    return chk_not_in_place(c, fn, "recvbuf", recvbuf, "for the receive buffer");
}

static int alltoallw_body(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                          struct tern_vec sdispls_v, const MPI_Datatype sendtypes[], void *recvbuf,
                          struct tern_vec recvcounts_v, struct tern_vec rdispls_v,
                          const MPI_Datatype recvtypes[], struct tern_comm *c)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *sdispls = NULL, *recvcounts = NULL, *rdispls = NULL;
    struct tern_datatype **sdts = NULL;
    int rc;
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, sendbuf != MPI_IN_PLACE,
                      &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "sdispls", sdispls_v, c->peer_size, sendbuf != MPI_IN_PLACE, &tmp,
                      &sdispls));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "rdispls", rdispls_v, c->peer_size, 1, &tmp, &rdispls));
    TRY(tern_coll_check_alltoallw(c, fn, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                  recvcounts, rdispls, recvtypes, &sdts));
    rc = coll_result(c, tern_coll_alltoallw(sendbuf, sendcounts, sdispls, sdts, recvbuf, recvcounts,
                                            rdispls, sdts + c->peer_size, c));
out:
    tern_vec_tmp_free(&tmp);
    free(sdts);
    return rc;
}

int tern_api_alltoallw(const char *fn, const void *sendbuf, const int sendcounts[],
                       const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                       const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                       struct tern_comm *comm_o)
{
    return alltoallw_body(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls), sendtypes,
                          recvbuf, tern_vec_int(recvcounts), tern_vec_int(rdispls), recvtypes,
                          comm_o);
}

int tern_api_alltoallw_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         const MPI_Datatype recvtypes[], struct tern_comm *comm_o)
{
    return alltoallw_body(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls), sendtypes,
                          recvbuf, tern_vec_long(recvcounts), tern_vec_long(rdispls), recvtypes,
                          comm_o);
}

/* The common checks of the reductions. */
static int chk_reduction(struct tern_comm *c, const char *fn, const void *sendbuf, void *recvbuf,
                         MPI_Count count, MPI_Datatype datatype, MPI_Op op, int check_recv,
                         struct tern_datatype **dt, struct tern_op **o)
{
    int rc;
    if ((rc = tern_check_count(c, count, fn, "count"))) return rc;
    if ((rc = tern_check_datatype(c, datatype, fn, "datatype", dt))) return rc;
    if ((rc = chk_op(c, fn, op, *dt, o))) return rc;
    if (sendbuf != MPI_IN_PLACE && (rc = tern_check_buffer(c, sendbuf, count, *dt, fn, "sendbuf")))
        return rc;
    if (check_recv) {
        if ((rc = chk_not_in_place(c, fn, "recvbuf", recvbuf, "for the receive buffer"))) return rc;
        if ((rc = tern_check_buffer(c, recvbuf, count, *dt, fn, "recvbuf"))) return rc;
        if ((rc = chk_alias(c, fn, sendbuf, recvbuf, (size_t)count * (*dt)->size))) return rc;
    }
    return MPI_SUCCESS;
}

int tern_coll_check_reduce(struct tern_comm *c, const char *fn, const void *sendbuf, void *recvbuf,
                           MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                           struct tern_datatype **dt, struct tern_op **o)
{
    int rc;
    if (c->is_inter)
        return tern_coll_check_inter_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, root, dt,
                                            o);
    if ((rc = chk_root(c, fn, root))) return rc;
    if (c->rank != root &&
        (rc = chk_not_in_place(c, fn, "sendbuf", sendbuf, "at a rank other than the root")))
        return rc;
    return chk_reduction(c, fn, sendbuf, recvbuf, count, datatype, op, c->rank == root, dt, o);
}

static int reduce_body(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *c)
{
    struct tern_datatype *dt;
    struct tern_op *o = NULL;
    int rc;
    TRY(tern_coll_check_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, root, &dt, &o));
    rc = coll_result(c, tern_coll_reduce(sendbuf, recvbuf, (size_t)count, dt, o, root, c));
out:
    return rc;
}

int tern_api_reduce(const char *fn, const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *comm_o)
{
    return reduce_body(fn, sendbuf, recvbuf, count, datatype, op, root, comm_o);
}

int tern_api_reduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *comm_o)
{
    return reduce_body(fn, sendbuf, recvbuf, count, datatype, op, root, comm_o);
}

/* Allreduce, scan and exscan: the same arguments, the same checks. */
int tern_coll_check_all_reduce(struct tern_comm *c, const char *fn, const void *sendbuf,
                               void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                               struct tern_datatype **dt, struct tern_op **o)
{
    if (c->is_inter)
        return tern_coll_check_inter_all_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, dt,
                                                o);
    return chk_reduction(c, fn, sendbuf, recvbuf, count, datatype, op, 1, dt, o);
}

typedef int (*all_reduce_fn)(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                             struct tern_op *op, struct tern_comm *c);

static int all_reduce(const char *fn, all_reduce_fn coll, const void *sendbuf, void *recvbuf,
                      MPI_Count count, MPI_Datatype datatype, MPI_Op op, struct tern_comm *c)
{
    struct tern_datatype *dt;
    struct tern_op *o = NULL;
    int rc;
    if (coll != tern_coll_allreduce) TRY(tern_coll_check_intra(c, fn));
    TRY(tern_coll_check_all_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, &dt, &o));
    rc = coll_result(c, coll(sendbuf, recvbuf, (size_t)count, dt, o, c));
out:
    return rc;
}

int tern_api_allreduce(const char *fn, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o)
{
    return all_reduce(fn, tern_coll_allreduce, sendbuf, recvbuf, count, datatype, op, comm_o);
}

int tern_api_allreduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o)
{
    return all_reduce(fn, tern_coll_allreduce, sendbuf, recvbuf, count, datatype, op, comm_o);
}

/* The buffers of reduce_scatter(_block): total elements in, mine out. */
static int chk_scattered(struct tern_comm *c, const char *fn, const void *sendbuf, void *recvbuf,
                         size_t total, MPI_Count mine, struct tern_datatype *dt)
{
    int rc;
    if (sendbuf != MPI_IN_PLACE &&
        (rc = tern_check_buffer(c, sendbuf, (long)total, dt, fn, "sendbuf")))
        return rc;
    if ((rc = chk_not_in_place(c, fn, "recvbuf", recvbuf, "for the receive buffer"))) return rc;
    if ((rc = tern_check_buffer(c, recvbuf, mine, dt, fn, "recvbuf"))) return rc;
    return chk_alias(c, fn, sendbuf, recvbuf, total * dt->size);
}

int tern_coll_check_reduce_scatter(struct tern_comm *c, const char *fn, const void *sendbuf,
                                   void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                   MPI_Op op, struct tern_datatype **dt, struct tern_op **o)
{
    int rc;
    size_t total = 0;
    if (c->is_inter)
        return tern_coll_check_inter_reduce_scatter(c, fn, sendbuf, recvbuf, recvcounts, 0,
                                                    datatype, op, dt, o);
    if ((rc = tern_check_counts(c, fn, "recvcounts", recvcounts, c->size, &total))) return rc;
    if ((rc = chk_reduction(c, fn, sendbuf, NULL, 0, datatype, op, 0, dt, o))) return rc;
    return chk_scattered(c, fn, sendbuf, recvbuf, total, recvcounts[c->rank], *dt);
}

static int reduce_scatter_body(const char *fn, const void *sendbuf, void *recvbuf,
                               struct tern_vec recvcounts_v, MPI_Datatype datatype, MPI_Op op,
                               struct tern_comm *c)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL;
    struct tern_datatype *dt;
    struct tern_op *o = NULL;
    int rc;
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->size, 1, &tmp, &recvcounts));
    TRY(tern_coll_check_reduce_scatter(c, fn, sendbuf, recvbuf, recvcounts, datatype, op, &dt, &o));
    rc = coll_result(c, tern_coll_reduce_scatter(sendbuf, recvbuf, recvcounts, dt, o, c));
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_reduce_scatter(const char *fn, const void *sendbuf, void *recvbuf,
                            const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                            struct tern_comm *comm_o)
{
    return reduce_scatter_body(fn, sendbuf, recvbuf, tern_vec_int(recvcounts), datatype, op,
                               comm_o);
}

int tern_api_reduce_scatter_c(const char *fn, const void *sendbuf, void *recvbuf,
                              const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
                              struct tern_comm *comm_o)
{
    return reduce_scatter_body(fn, sendbuf, recvbuf, tern_vec_long(recvcounts), datatype, op,
                               comm_o);
}

int tern_coll_check_reduce_scatter_block(struct tern_comm *c, const char *fn, const void *sendbuf,
                                         void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                         MPI_Op op, struct tern_datatype **dt, struct tern_op **o)
{
    int rc;
    if (c->is_inter)
        return tern_coll_check_inter_reduce_scatter(c, fn, sendbuf, recvbuf, NULL, recvcount,
                                                    datatype, op, dt, o);
    if ((rc = tern_check_count(c, recvcount, fn, "recvcount"))) return rc;
    if ((rc = chk_reduction(c, fn, sendbuf, NULL, 0, datatype, op, 0, dt, o))) return rc;
    return chk_scattered(c, fn, sendbuf, recvbuf, (size_t)recvcount * (size_t)c->size, recvcount,
                         *dt);
}

static int reduce_scatter_block_body(const char *fn, const void *sendbuf, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                     struct tern_comm *c)
{
    struct tern_datatype *dt;
    struct tern_op *o = NULL;
    int rc;
    TRY(tern_coll_check_reduce_scatter_block(c, fn, sendbuf, recvbuf, recvcount, datatype, op, &dt,
                                             &o));
    rc = coll_result(c,
                     tern_coll_reduce_scatter_block(sendbuf, recvbuf, (size_t)recvcount, dt, o, c));
out:
    return rc;
}

int tern_api_reduce_scatter_block(const char *fn, const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o)
{
    return reduce_scatter_block_body(fn, sendbuf, recvbuf, recvcount, datatype, op, comm_o);
}

int tern_api_reduce_scatter_block_c(const char *fn, const void *sendbuf, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                    struct tern_comm *comm_o)
{
    return reduce_scatter_block_body(fn, sendbuf, recvbuf, recvcount, datatype, op, comm_o);
}

int tern_api_scan(const char *fn, const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o)
{
    return all_reduce(fn, tern_coll_scan, sendbuf, recvbuf, count, datatype, op, comm_o);
}

int tern_api_scan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o)
{
    return all_reduce(fn, tern_coll_scan, sendbuf, recvbuf, count, datatype, op, comm_o);
}

int tern_api_exscan(const char *fn, const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o)
{
    return all_reduce(fn, tern_coll_exscan, sendbuf, recvbuf, count, datatype, op, comm_o);
}

int tern_api_exscan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o)
{
    return all_reduce(fn, tern_coll_exscan, sendbuf, recvbuf, count, datatype, op, comm_o);
}
