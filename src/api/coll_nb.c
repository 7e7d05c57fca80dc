/* MPI nonblocking collective entry points: the argument checks of the
 * blocking forms (coll_check.h), then a schedule (coll/nbc.h, which also
 * builds the intercommunicator ones) wrapped in a request.  The tern_api_i*
 * bodies also serve the persistent forms (coll_persist.c).  Count arrays
 * have one entry per peer (c->peer_size: the remote group of an
 * intercommunicator), except reduce_scatter's, one per local rank. */
#include <stdlib.h>

#include "api/check.h"
#include "api/coll_check.h"
#include "api/coll_nb.h"
#include "api/count_vec.h"
#include "coll/sched.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"

/* The communicator argument. */
static int begin(const char *fn, MPI_Comm comm, struct tern_comm **c)
{
    return tern_comm_check(comm, fn, "comm", c);
}

/* Whether this rank gives the root's count arrays. */
static int is_root(const struct tern_comm *c, int root)
{
    return c->is_inter ? root == MPI_ROOT : c->rank == root;
}

/* The request argument, then a schedule for the call (which takes the
 * communicator's next collective tag: only calls that passed every check
 * take one, so all ranks count alike). */
static int create(struct tern_comm *c, const char *fn, MPI_Request *request, struct tern_sched **s)
{
    if (!request) return tern_err_comm(c, MPI_ERR_ARG, "%s: request is NULL", fn);
    int rc = tern_sched_create(c, fn, s);
    return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
}

int tern_api_ibarrier(const char *fn, MPI_Comm comm, int persistent, MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s, tern_nbc_barrier(s), persistent, request);
out:
    tern_unlock();
    return rc;
}

int tern_api_ibcast(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                    MPI_Comm comm, int persistent, MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_datatype *dt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_coll_check_bcast(c, fn, buffer, count, datatype, root, &dt));
    TRY(create(c, fn, request, &s));
    rc =
        tern_sched_post(s, tern_nbc_bcast(s, buffer, (size_t)count, dt, root), persistent, request);
out:
    tern_unlock();
    return rc;
}

int tern_api_igather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, int persistent,
                     MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_coll_check_gather(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, &sdt, &rdt));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_gather(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt, root),
        persistent, request);
out:
    tern_unlock();
    return rc;
}

int tern_api_igatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts_v,
                      struct tern_vec displs_v, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL, *displs = NULL;
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, is_root(c, root), &tmp,
                      &recvcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, is_root(c, root), &tmp, &displs));
    TRY(tern_coll_check_gatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, root, &sdt, &rdt));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s,
                         tern_nbc_gatherv(s, sendbuf, (size_t)sendcount, sdt, recvbuf, recvcounts,
                                          displs, rdt, root),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    tern_unlock();
    return rc;
}

int tern_api_iscatter(const char *fn, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, int persistent,
                      MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_coll_check_scatter(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, &sdt, &rdt));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_scatter(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt, root),
        persistent, request);
out:
    tern_unlock();
    return rc;
}

int tern_api_iscatterv(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                       struct tern_vec displs_v, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *displs = NULL;
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, is_root(c, root), &tmp,
                      &sendcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, is_root(c, root), &tmp, &displs));
    TRY(tern_coll_check_scatterv(c, fn, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, &sdt, &rdt));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s,
                         tern_nbc_scatterv(s, sendbuf, sendcounts, displs, sdt, recvbuf,
                                           (size_t)recvcount, rdt, root),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    tern_unlock();
    return rc;
}

int tern_api_iall_block(const char *fn, tern_nbc_all_block_fn *build, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, int persistent,
                        MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_coll_check_all_block(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  &sdt, &rdt));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s,
                         build(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt),
                         persistent, request);
out:
    tern_unlock();
    return rc;
}

int tern_api_iallgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts_v,
                         struct tern_vec displs_v, MPI_Datatype recvtype, MPI_Comm comm,
                         int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL, *displs = NULL;
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, c->peer_size, 1, &tmp, &displs));
    TRY(tern_coll_check_allgatherv(c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, &sdt, &rdt));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_allgatherv(s, sendbuf, (size_t)sendcount, sdt, recvbuf, recvcounts, displs, rdt),
        persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    tern_unlock();
    return rc;
}

int tern_api_ialltoallv(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                        struct tern_vec sdispls_v, MPI_Datatype sendtype, void *recvbuf,
                        struct tern_vec recvcounts_v, struct tern_vec rdispls_v,
                        MPI_Datatype recvtype, MPI_Comm comm, int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *sdispls = NULL, *recvcounts = NULL, *rdispls = NULL;
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, sendbuf != MPI_IN_PLACE,
                      &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "sdispls", sdispls_v, c->peer_size, sendbuf != MPI_IN_PLACE, &tmp,
                      &sdispls));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "rdispls", rdispls_v, c->peer_size, 1, &tmp, &rdispls));
    TRY(tern_coll_check_alltoallv(c, fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                  recvcounts, rdispls, recvtype, &sdt, &rdt));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(
        s,
        tern_nbc_alltoallv(s, sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts, rdispls, rdt),
        persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    tern_unlock();
    return rc;
}

int tern_api_ialltoallw(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                        struct tern_vec sdispls_v, const MPI_Datatype sendtypes[], void *recvbuf,
                        struct tern_vec recvcounts_v, struct tern_vec rdispls_v,
                        const MPI_Datatype recvtypes[], MPI_Comm comm, int persistent,
                        MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *sdispls = NULL, *recvcounts = NULL, *rdispls = NULL;
    struct tern_comm *c;
    struct tern_datatype **dts = NULL;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, c->peer_size, sendbuf != MPI_IN_PLACE,
                      &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "sdispls", sdispls_v, c->peer_size, sendbuf != MPI_IN_PLACE, &tmp,
                      &sdispls));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->peer_size, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "rdispls", rdispls_v, c->peer_size, 1, &tmp, &rdispls));
    TRY(tern_coll_check_alltoallw(c, fn, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                  recvcounts, rdispls, recvtypes, &dts));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s,
                         tern_nbc_alltoallw(s, sendbuf, sendcounts, sdispls, dts, recvbuf,
                                            recvcounts, rdispls, dts + c->peer_size),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    free(dts);
    tern_unlock();
    return rc;
}

int tern_api_ireduce(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, int persistent,
                     MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_coll_check_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, root, &dt, &o));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s, tern_nbc_reduce(s, sendbuf, recvbuf, (size_t)count, dt, o, root),
                         persistent, request);
out:
    tern_unlock();
    return rc;
}

int tern_api_iall_reduce(const char *fn, tern_nbc_all_reduce_fn *build, const void *sendbuf,
                         void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, int persistent, MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    if (build != tern_nbc_allreduce) TRY(tern_coll_check_intra(c, fn));
    TRY(tern_coll_check_all_reduce(c, fn, sendbuf, recvbuf, count, datatype, op, &dt, &o));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s, build(s, sendbuf, recvbuf, (size_t)count, dt, o), persistent, request);
out:
    tern_unlock();
    return rc;
}

int tern_api_ireduce_scatter(const char *fn, const void *sendbuf, void *recvbuf,
                             struct tern_vec recvcounts_v, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, int persistent, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL;
    struct tern_comm *c;
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, c->size, 1, &tmp, &recvcounts));
    TRY(tern_coll_check_reduce_scatter(c, fn, sendbuf, recvbuf, recvcounts, datatype, op, &dt, &o));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(s, tern_nbc_reduce_scatter(s, sendbuf, recvbuf, recvcounts, dt, o),
                         persistent, request);
out:
    tern_vec_tmp_free(&tmp);
    tern_unlock();
    return rc;
}

int tern_api_ireduce_scatter_block(const char *fn, const void *sendbuf, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm, int persistent, MPI_Request *request)
{
    struct tern_comm *c;
    struct tern_datatype *dt;
    struct tern_op *o;
    struct tern_sched *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(begin(fn, comm, &c));
    TRY(tern_coll_check_reduce_scatter_block(c, fn, sendbuf, recvbuf, recvcount, datatype, op, &dt,
                                             &o));
    TRY(create(c, fn, request, &s));
    rc = tern_sched_post(
        s, tern_nbc_reduce_scatter_block(s, sendbuf, recvbuf, (size_t)recvcount, dt, o), persistent,
        request);
out:
    tern_unlock();
    return rc;
}

/* ---- the MPI entry points ---- */

TERN_WEAK_ALIAS(MPI_Ibarrier)
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return tern_api_ibarrier("MPI_Ibarrier", comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ibcast)
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return tern_api_ibcast("MPI_Ibcast", buffer, count, datatype, root, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ibcast_c)
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return tern_api_ibcast("MPI_Ibcast_c", buffer, count, datatype, root, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Igather)
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return tern_api_igather("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, root, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Igather_c)
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    return tern_api_igather("MPI_Igather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, root, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Igatherv)
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    return tern_api_igatherv("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf,
                             tern_vec_int(recvcounts), tern_vec_int(displs), recvtype, root, comm,
                             0, request);
}

TERN_WEAK_ALIAS(MPI_Igatherv_c)
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_igatherv("MPI_Igatherv_c", sendbuf, sendcount, sendtype, recvbuf,
                             tern_vec_long(recvcounts), tern_vec_long(displs), recvtype, root, comm,
                             0, request);
}

TERN_WEAK_ALIAS(MPI_Iscatter)
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return tern_api_iscatter("MPI_Iscatter", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, root, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iscatter_c)
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    return tern_api_iscatter("MPI_Iscatter_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, root, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iscatterv)
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iscatterv("MPI_Iscatterv", sendbuf, tern_vec_int(sendcounts),
                              tern_vec_int(displs), sendtype, recvbuf, recvcount, recvtype, root,
                              comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iscatterv_c)
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iscatterv("MPI_Iscatterv_c", sendbuf, tern_vec_long(sendcounts),
                              tern_vec_long(displs), sendtype, recvbuf, recvcount, recvtype, root,
                              comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iallgather)
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_block("MPI_Iallgather", tern_nbc_allgather, sendbuf, sendcount, sendtype,
                               recvbuf, recvcount, recvtype, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iallgather_c)
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    return tern_api_iall_block("MPI_Iallgather_c", tern_nbc_allgather, sendbuf, sendcount, sendtype,
                               recvbuf, recvcount, recvtype, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iallgatherv)
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iallgatherv("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf,
                                tern_vec_int(recvcounts), tern_vec_int(displs), recvtype, comm, 0,
                                request);
}

TERN_WEAK_ALIAS(MPI_Iallgatherv_c)
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iallgatherv("MPI_Iallgatherv_c", sendbuf, sendcount, sendtype, recvbuf,
                                tern_vec_long(recvcounts), tern_vec_long(displs), recvtype, comm, 0,
                                request);
}

TERN_WEAK_ALIAS(MPI_Ialltoall)
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_block("MPI_Ialltoall", tern_nbc_alltoall, sendbuf, sendcount, sendtype,
                               recvbuf, recvcount, recvtype, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ialltoall_c)
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    return tern_api_iall_block("MPI_Ialltoall_c", tern_nbc_alltoall, sendbuf, sendcount, sendtype,
                               recvbuf, recvcount, recvtype, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ialltoallv)
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_ialltoallv("MPI_Ialltoallv", sendbuf, tern_vec_int(sendcounts),
                               tern_vec_int(sdispls), sendtype, recvbuf, tern_vec_int(recvcounts),
                               tern_vec_int(rdispls), recvtype, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ialltoallv_c)
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    return tern_api_ialltoallv("MPI_Ialltoallv_c", sendbuf, tern_vec_long(sendcounts),
                               tern_vec_long(sdispls), sendtype, recvbuf, tern_vec_long(recvcounts),
                               tern_vec_long(rdispls), recvtype, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ialltoallw)
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    return tern_api_ialltoallw("MPI_Ialltoallw", sendbuf, tern_vec_int(sendcounts),
                               tern_vec_int(sdispls), sendtypes, recvbuf, tern_vec_int(recvcounts),
                               tern_vec_int(rdispls), recvtypes, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ialltoallw_c)
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request)
{
    return tern_api_ialltoallw(
        "MPI_Ialltoallw_c", sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls), sendtypes,
        recvbuf, tern_vec_long(recvcounts), tern_vec_long(rdispls), recvtypes, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ireduce)
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_ireduce("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, 0,
                            request);
}

TERN_WEAK_ALIAS(MPI_Ireduce_c)
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_ireduce("MPI_Ireduce_c", sendbuf, recvbuf, count, datatype, op, root, comm, 0,
                            request);
}

TERN_WEAK_ALIAS(MPI_Iallreduce)
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_reduce("MPI_Iallreduce", tern_nbc_allreduce, sendbuf, recvbuf, count,
                                datatype, op, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iallreduce_c)
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_reduce("MPI_Iallreduce_c", tern_nbc_allreduce, sendbuf, recvbuf, count,
                                datatype, op, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ireduce_scatter)
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_ireduce_scatter("MPI_Ireduce_scatter", sendbuf, recvbuf,
                                    tern_vec_int(recvcounts), datatype, op, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ireduce_scatter_c)
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_ireduce_scatter("MPI_Ireduce_scatter_c", sendbuf, recvbuf,
                                    tern_vec_long(recvcounts), datatype, op, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ireduce_scatter_block)
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    return tern_api_ireduce_scatter_block("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount,
                                          datatype, op, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Ireduce_scatter_block_c)
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    return tern_api_ireduce_scatter_block("MPI_Ireduce_scatter_block_c", sendbuf, recvbuf,
                                          recvcount, datatype, op, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iscan)
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_reduce("MPI_Iscan", tern_nbc_scan, sendbuf, recvbuf, count, datatype, op,
                                comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iscan_c)
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_reduce("MPI_Iscan_c", tern_nbc_scan, sendbuf, recvbuf, count, datatype, op,
                                comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iexscan)
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_reduce("MPI_Iexscan", tern_nbc_exscan, sendbuf, recvbuf, count, datatype,
                                op, comm, 0, request);
}

TERN_WEAK_ALIAS(MPI_Iexscan_c)
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_iall_reduce("MPI_Iexscan_c", tern_nbc_exscan, sendbuf, recvbuf, count, datatype,
                                op, comm, 0, request);
}
