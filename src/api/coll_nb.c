/* The bodies of the MPI nonblocking collectives: the argument checks of
 * the blocking forms (coll_check.h), then a schedule (coll/nbc.h, which
 * also builds the intercommunicator ones) wrapped in a request.  Their
 * entry points, with the init test, the lock and the check of the
 * communicator, are generated (src/api/gen/bindings_coll_nb.c).  The
 * tern_api_nbc_* helpers also serve the persistent forms (coll_persist.c).
 * Count arrays have one entry per peer (c->peer_size: the remote group of
 * an intercommunicator), except reduce_scatter's, one per local rank. */
#include <stdlib.h>

#include "api/check.h"
#include "api/coll_check.h"
#include "api/coll_nb.h"
#include "api/gen/bindings.h"
#include "api/count_vec.h"
#include "coll/sched.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"

/* Whether this rank gives the root's count arrays. */
static int is_root(const struct tern_comm *c, int root)
{
    return c->is_inter ? root == MPI_ROOT : c->rank == root;
}

/* The request argument, then a schedule for the call (which takes the
 * communicator's next collective tag: only calls that passed every check
 * take one, so all ranks count alike).  A persistent collective is matched
 * by the order of the *_init calls, and its starts may come in another
 * order on each rank (MPI-4.1 6.13): its steps may take nothing in the
 * order of the starts, unless the communicator asserts that they come in
 * the same order. */
static int create(struct tern_comm *c, const char *fn, int persistent, MPI_Request *request,
                  struct tern_sched **s)
{
    if (!request) return tern_err_comm(c, MPI_ERR_ARG, "%s: request is NULL", fn);
    int rc = tern_sched_create(c, fn, s);
    if (rc != MPI_SUCCESS) return tern_err_raise(c, rc);
    if (persistent && !(c->hints & TERN_COMM_STRICT_PCOLL)) tern_sched_unordered(*s);
    return MPI_SUCCESS;
}

int tern_api_nbc_barrier(const char *fn, struct tern_comm *c, int persistent, MPI_Request *request)
{
    struct tern_sched *s;
    int rc;
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s, tern_nbc_barrier(s), persistent, request);
out:
    return rc;
}

int tern_api_nbc_bcast(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                       int root, struct tern_comm *c, int persistent, MPI_Request *request)
{
    struct tern_datatype *dt;
    struct tern_sched *s;
    int rc;
    TRY(tern_coll_check_bcast(c, fn, buffer, count, datatype, root, &dt));
    TRY(create(c, fn, persistent, request, &s));
    rc =
        tern_sched_post(s, tern_nbc_bcast(s, buffer, (size_t)count, dt, root), persistent, request);
out:
    return rc;
}

int tern_api_nbc_gather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, struct tern_comm *c, int persistent,
                        MPI_Request *request)
{
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TRY(tern_coll_check_gather(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, &sdt, &rdt));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_gather(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt, root),
        persistent, request);
out:
    return rc;
}

int tern_api_nbc_gatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts_v,
                         struct tern_vec displs_v, MPI_Datatype recvtype, int root,
                         struct tern_comm *c, int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL, *displs = NULL;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, is_root(c, root), &tmp,
                      &recvcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, is_root(c, root), &tmp, &displs));
    TRY(tern_coll_check_gatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, root, &sdt, &rdt));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s,
                         tern_nbc_gatherv(s, sendbuf, (size_t)sendcount, sdt, recvbuf, recvcounts,
                                          displs, rdt, root),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_nbc_scatter(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, struct tern_comm *c, int persistent,
                         MPI_Request *request)
{
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TRY(tern_coll_check_scatter(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, &sdt, &rdt));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_scatter(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt, root),
        persistent, request);
out:
    return rc;
}

int tern_api_nbc_scatterv(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                          struct tern_vec displs_v, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root, struct tern_comm *c,
                          int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *displs = NULL;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, is_root(c, root), &tmp,
                      &sendcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, is_root(c, root), &tmp, &displs));
    TRY(tern_coll_check_scatterv(c, fn, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, &sdt, &rdt));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s,
                         tern_nbc_scatterv(s, sendbuf, sendcounts, displs, sdt, recvbuf,
                                           (size_t)recvcount, rdt, root),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_nbc_all_block(const char *fn, tern_nbc_all_block_fn *build, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, struct tern_comm *c,
                           int persistent, MPI_Request *request)
{
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TRY(tern_coll_check_all_block(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  &sdt, &rdt));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s,
                         build(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt),
                         persistent, request);
out:
    return rc;
}

int tern_api_nbc_allgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts_v,
                            struct tern_vec displs_v, MPI_Datatype recvtype, struct tern_comm *c,
                            int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL, *displs = NULL;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, 1, &tmp, &displs));
    TRY(tern_coll_check_allgatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, &sdt, &rdt));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_allgatherv(s, sendbuf, (size_t)sendcount, sdt, recvbuf, recvcounts, displs, rdt),
        persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_nbc_alltoallv(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                           struct tern_vec sdispls_v, MPI_Datatype sendtype, void *recvbuf,
                           struct tern_vec recvcounts_v, struct tern_vec rdispls_v,
                           MPI_Datatype recvtype, struct tern_comm *c, int persistent,
                           MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *sdispls = NULL, *recvcounts = NULL, *rdispls = NULL;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, sendbuf != MPI_IN_PLACE,
                      &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "sdispls", sdispls_v, c->peer_size, sendbuf != MPI_IN_PLACE, &tmp,
                      &sdispls));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "rdispls", rdispls_v, c->peer_size, 1, &tmp, &rdispls));
    TRY(tern_coll_check_alltoallv(c, fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                  recvcounts, rdispls, recvtype, &sdt, &rdt));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_alltoallv(s, sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts, rdispls, rdt),
        persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_nbc_alltoallw(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                           struct tern_vec sdispls_v, const MPI_Datatype sendtypes[], void *recvbuf,
                           struct tern_vec recvcounts_v, struct tern_vec rdispls_v,
                           const MPI_Datatype recvtypes[], struct tern_comm *c, int persistent,
                           MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *sdispls = NULL, *recvcounts = NULL, *rdispls = NULL;
    struct tern_datatype **dts = NULL;
    struct tern_sched *s;
    int rc;
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, sendbuf != MPI_IN_PLACE,
                      &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "sdispls", sdispls_v, c->peer_size, sendbuf != MPI_IN_PLACE, &tmp,
                      &sdispls));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "rdispls", rdispls_v, c->peer_size, 1, &tmp, &rdispls));
    TRY(tern_coll_check_alltoallw(c, fn, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                  recvcounts, rdispls, recvtypes, &dts));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s,
                         tern_nbc_alltoallw(s, sendbuf, sendcounts, sdispls, dts, recvbuf,
                                            recvcounts, rdispls, dts + c->peer_size),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    free(dts);
    return rc;
}

int tern_api_nbc_reduce(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *c,
                        int persistent, MPI_Request *request)
{
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    TRY(tern_coll_check_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, root, &dt, &o));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s, tern_nbc_reduce(s, sendbuf, recvbuf, (size_t)count, dt, o, root),
                         persistent, request);
out:
    return rc;
}

int tern_api_nbc_all_reduce(const char *fn, tern_nbc_all_reduce_fn *build, const void *sendbuf,
                            void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                            struct tern_comm *c, int persistent, MPI_Request *request)
{
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    if (build != tern_nbc_allreduce) TRY(tern_coll_check_intra(c, fn));
    TRY(tern_coll_check_all_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, &dt, &o));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s, build(s, sendbuf, recvbuf, (size_t)count, dt, o), persistent, request);
out:
    return rc;
}

int tern_api_nbc_reduce_scatter(const char *fn, const void *sendbuf, void *recvbuf,
                                struct tern_vec recvcounts_v, MPI_Datatype datatype, MPI_Op op,
                                struct tern_comm *c, int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL;
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->size, 1, &tmp, &recvcounts));
    TRY(tern_coll_check_reduce_scatter(c, fn, sendbuf, recvbuf, recvcounts, datatype, op, &dt, &o));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(s, tern_nbc_reduce_scatter(s, sendbuf, recvbuf, recvcounts, dt, o),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_nbc_reduce_scatter_block(const char *fn, const void *sendbuf, void *recvbuf,
                                      MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                      struct tern_comm *c, int persistent, MPI_Request *request)
{
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    TRY(tern_coll_check_reduce_scatter_block(c, fn, sendbuf, recvbuf, recvcount, datatype, op, &dt,
                                             &o));
    TRY(create(c, fn, persistent, request, &s));
    rc = tern_sched_post(
        s, tern_nbc_reduce_scatter_block(s, sendbuf, recvbuf, (size_t)recvcount, dt, o), persistent,
        request);
out:
    return rc;
}

/* ---- the MPI entry points ---- */

int tern_api_ibarrier(const char *fn, struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_barrier(fn, comm_o, 0, request);
}

int tern_api_ibcast(const char *fn, void *buffer, int count, MPI_Datatype datatype, int root,
                    struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_bcast(fn, buffer, count, datatype, root, comm_o, 0, request);
}

int tern_api_ibcast_c(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                      int root, struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_bcast(fn, buffer, count, datatype, root, comm_o, 0, request);
}

int tern_api_igather(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                     struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_gather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm_o, 0, request);
}

int tern_api_igather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                       MPI_Request *request)
{
    return tern_api_nbc_gather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm_o, 0, request);
}

int tern_api_igatherv(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                      MPI_Request *request)
{
    return tern_api_nbc_gatherv(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_int(recvcounts),
                                tern_vec_int(displs), recvtype, root, comm_o, 0, request);
}

int tern_api_igatherv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                        const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                        struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_gatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                tern_vec_long(recvcounts), tern_vec_long(displs), recvtype, root,
                                comm_o, 0, request);
}

int tern_api_iscatter(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                      struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_scatter(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, comm_o, 0, request);
}

int tern_api_iscatter_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                        MPI_Request *request)
{
    return tern_api_nbc_scatter(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, comm_o, 0, request);
}

int tern_api_iscatterv(const char *fn, const void *sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                       MPI_Request *request)
{
    return tern_api_nbc_scatterv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(displs),
                                 sendtype, recvbuf, recvcount, recvtype, root, comm_o, 0, request);
}

int tern_api_iscatterv_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_scatterv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(displs),
                                 sendtype, recvbuf, recvcount, recvtype, root, comm_o, 0, request);
}

int tern_api_iallgather(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_all_block(fn, tern_nbc_allgather, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 0, request);
}

int tern_api_iallgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_all_block(fn, tern_nbc_allgather, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 0, request);
}

int tern_api_iallgatherv(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_int(recvcounts), tern_vec_int(displs), recvtype, comm_o,
                                   0, request);
}

int tern_api_iallgatherv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                           const MPI_Aint displs[], MPI_Datatype recvtype, struct tern_comm *comm_o,
                           MPI_Request *request)
{
    return tern_api_nbc_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_long(recvcounts), tern_vec_long(displs), recvtype,
                                   comm_o, 0, request);
}

int tern_api_ialltoall(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_all_block(fn, tern_nbc_alltoall, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 0, request);
}

int tern_api_ialltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_all_block(fn, tern_nbc_alltoall, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 0, request);
}

int tern_api_ialltoallv(const char *fn, const void *sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_alltoallv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                  sendtype, recvbuf, tern_vec_int(recvcounts),
                                  tern_vec_int(rdispls), recvtype, comm_o, 0, request);
}

int tern_api_ialltoallv_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_alltoallv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                                  sendtype, recvbuf, tern_vec_long(recvcounts),
                                  tern_vec_long(rdispls), recvtype, comm_o, 0, request);
}

int tern_api_ialltoallw(const char *fn, const void *sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                        const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                        struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_alltoallw(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                  sendtypes, recvbuf, tern_vec_int(recvcounts),
                                  tern_vec_int(rdispls), recvtypes, comm_o, 0, request);
}

int tern_api_ialltoallw_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], struct tern_comm *comm_o,
                          MPI_Request *request)
{
    return tern_api_nbc_alltoallw(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                                  sendtypes, recvbuf, tern_vec_long(recvcounts),
                                  tern_vec_long(rdispls), recvtypes, comm_o, 0, request);
}

int tern_api_ireduce(const char *fn, const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *comm_o,
                     MPI_Request *request)
{
    return tern_api_nbc_reduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm_o, 0, request);
}

int tern_api_ireduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *comm_o,
                       MPI_Request *request)
{
    return tern_api_nbc_reduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm_o, 0, request);
}

int tern_api_iallreduce(const char *fn, const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                        MPI_Request *request)
{
    return tern_api_nbc_all_reduce(fn, tern_nbc_allreduce, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 0, request);
}

int tern_api_iallreduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                          MPI_Request *request)
{
    return tern_api_nbc_all_reduce(fn, tern_nbc_allreduce, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 0, request);
}

int tern_api_ireduce_scatter(const char *fn, const void *sendbuf, void *recvbuf,
                             const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                             struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_reduce_scatter(fn, sendbuf, recvbuf, tern_vec_int(recvcounts), datatype, op,
                                       comm_o, 0, request);
}

int tern_api_ireduce_scatter_c(const char *fn, const void *sendbuf, void *recvbuf,
                               const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
                               struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_reduce_scatter(fn, sendbuf, recvbuf, tern_vec_long(recvcounts), datatype,
                                       op, comm_o, 0, request);
}

int tern_api_ireduce_scatter_block(const char *fn, const void *sendbuf, void *recvbuf,
                                   int recvcount, MPI_Datatype datatype, MPI_Op op,
                                   struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_reduce_scatter_block(fn, sendbuf, recvbuf, recvcount, datatype, op, comm_o,
                                             0, request);
}

int tern_api_ireduce_scatter_block_c(const char *fn, const void *sendbuf, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                     struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_reduce_scatter_block(fn, sendbuf, recvbuf, recvcount, datatype, op, comm_o,
                                             0, request);
}

int tern_api_iscan(const char *fn, const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbc_all_reduce(fn, tern_nbc_scan, sendbuf, recvbuf, count, datatype, op, comm_o,
                                   0, request);
}

int tern_api_iscan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                     MPI_Request *request)
{
    return tern_api_nbc_all_reduce(fn, tern_nbc_scan, sendbuf, recvbuf, count, datatype, op, comm_o,
                                   0, request);
}

int tern_api_iexscan(const char *fn, const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                     MPI_Request *request)
{
    return tern_api_nbc_all_reduce(fn, tern_nbc_exscan, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 0, request);
}

int tern_api_iexscan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                       MPI_Request *request)
{
    return tern_api_nbc_all_reduce(fn, tern_nbc_exscan, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 0, request);
}
