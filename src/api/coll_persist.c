/* MPI-4 persistent collectives: the nonblocking forms' checks and
 * schedules (coll_nb.c), kept in an inactive persistent request that
 * MPI_Start runs again and again.  Initialisation is local: the schedule is
 * built here, and its tag is taken in the order of the *_init calls, which
 * MPI requires to be the same on every rank.  The info argument is checked
 * first; no key changes anything. */
#include "api/coll_persist.h"

#include "api/coll_nb.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/state.h"

int tern_api_persist_info(const char *fn, MPI_Comm comm, MPI_Info info)
{
    struct tern_comm *c;
    struct tern_info *ti;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc = tern_comm_check(comm, fn, "comm", &c);
    if (rc == MPI_SUCCESS) rc = tern_info_check(info, 1, fn, "info", c, &ti);
    tern_unlock();
    return rc;
}

/* Before each body, with the 'fn' and 'comm' the body gets. */
#define CHECK_INFO(fn, comm, info)                       \
    do {                                                 \
        int rc_ = tern_api_persist_info(fn, comm, info); \
        if (rc_ != MPI_SUCCESS) return rc_;              \
    } while (0)

TERN_WEAK_ALIAS(MPI_Barrier_init)
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Barrier_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_ibarrier(fn, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Bcast_init)
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Bcast_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_ibcast(fn, buffer, count, datatype, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Bcast_init_c)
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Bcast_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_ibcast(fn, buffer, count, datatype, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Gather_init)
int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    static const char fn[] = "MPI_Gather_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_igather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Gather_init_c)
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Gather_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_igather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Gatherv_init)
int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Gatherv_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_igatherv(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_int(recvcounts),
                             tern_vec_int(displs), recvtype, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Gatherv_init_c)
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    static const char fn[] = "MPI_Gatherv_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_igatherv(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_long(recvcounts),
                             tern_vec_long(displs), recvtype, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Scatter_init)
int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    static const char fn[] = "MPI_Scatter_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iscatter(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Scatter_init_c)
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scatter_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iscatter(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Scatterv_init)
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scatterv_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iscatterv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(displs), sendtype,
                              recvbuf, recvcount, recvtype, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Scatterv_init_c)
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    static const char fn[] = "MPI_Scatterv_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iscatterv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(displs),
                              sendtype, recvbuf, recvcount, recvtype, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Allgather_init)
int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    static const char fn[] = "MPI_Allgather_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_block(fn, tern_nbc_allgather, sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Allgather_init_c)
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Allgather_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_block(fn, tern_nbc_allgather, sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Allgatherv_init)
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Allgatherv_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iallgatherv(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_int(recvcounts),
                                tern_vec_int(displs), recvtype, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Allgatherv_init_c)
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    static const char fn[] = "MPI_Allgatherv_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iallgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                tern_vec_long(recvcounts), tern_vec_long(displs), recvtype, comm, 1,
                                request);
}

TERN_WEAK_ALIAS(MPI_Alltoall_init)
int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoall_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_block(fn, tern_nbc_alltoall, sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Alltoall_init_c)
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoall_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_block(fn, tern_nbc_alltoall, sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Alltoallv_init)
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallv_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_ialltoallv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                               sendtype, recvbuf, tern_vec_int(recvcounts), tern_vec_int(rdispls),
                               recvtype, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Alltoallv_init_c)
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallv_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_ialltoallv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                               sendtype, recvbuf, tern_vec_long(recvcounts), tern_vec_long(rdispls),
                               recvtype, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Alltoallw_init)
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallw_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_ialltoallw(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                               sendtypes, recvbuf, tern_vec_int(recvcounts), tern_vec_int(rdispls),
                               recvtypes, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Alltoallw_init_c)
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallw_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_ialltoallw(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                               sendtypes, recvbuf, tern_vec_long(recvcounts),
                               tern_vec_long(rdispls), recvtypes, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Reduce_init)
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_ireduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Reduce_init_c)
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_ireduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Allreduce_init)
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Allreduce_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_reduce(fn, tern_nbc_allreduce, sendbuf, recvbuf, count, datatype, op, comm,
                                1, request);
}

TERN_WEAK_ALIAS(MPI_Allreduce_init_c)
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    static const char fn[] = "MPI_Allreduce_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_reduce(fn, tern_nbc_allreduce, sendbuf, recvbuf, count, datatype, op, comm,
                                1, request);
}

TERN_WEAK_ALIAS(MPI_Reduce_scatter_init)
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_ireduce_scatter(fn, sendbuf, recvbuf, tern_vec_int(recvcounts), datatype, op,
                                    comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Reduce_scatter_init_c)
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_ireduce_scatter(fn, sendbuf, recvbuf, tern_vec_long(recvcounts), datatype, op,
                                    comm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Reduce_scatter_block_init)
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_block_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_ireduce_scatter_block(fn, sendbuf, recvbuf, recvcount, datatype, op, comm, 1,
                                          request);
}

TERN_WEAK_ALIAS(MPI_Reduce_scatter_block_init_c)
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_block_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_ireduce_scatter_block(fn, sendbuf, recvbuf, recvcount, datatype, op, comm, 1,
                                          request);
}

TERN_WEAK_ALIAS(MPI_Scan_init)
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scan_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_reduce(fn, tern_nbc_scan, sendbuf, recvbuf, count, datatype, op, comm, 1,
                                request);
}

TERN_WEAK_ALIAS(MPI_Scan_init_c)
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scan_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_reduce(fn, tern_nbc_scan, sendbuf, recvbuf, count, datatype, op, comm, 1,
                                request);
}

TERN_WEAK_ALIAS(MPI_Exscan_init)
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Exscan_init";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_reduce(fn, tern_nbc_exscan, sendbuf, recvbuf, count, datatype, op, comm, 1,
                                request);
}

TERN_WEAK_ALIAS(MPI_Exscan_init_c)
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Exscan_init_c";
    CHECK_INFO(fn, comm, info);
    return tern_api_iall_reduce(fn, tern_nbc_exscan, sendbuf, recvbuf, count, datatype, op, comm, 1,
                                request);
}
