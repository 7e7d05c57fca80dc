/* The MPI neighbourhood collective entry points: blocking
 * (MPI_Neighbor_x), nonblocking (MPI_Ineighbor_x) and persistent
 * (MPI_Neighbor_x_init, MPI-4) forms of each collective share one body
 * (coll_neighbor.c), so they check the same arguments and move data the
 * same way.  The persistent forms also check their info argument; no key
 * changes anything. */
#include <stddef.h>

#include "api/coll_neighbor.h"
#include "api/coll_persist.h"
#include "core/api.h"

TERN_WEAK_ALIAS(MPI_Neighbor_allgather)
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return tern_api_neighbor_allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Neighbor_allgather_c)
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    return tern_api_neighbor_allgather("MPI_Neighbor_allgather_c", sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_allgather)
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return tern_api_neighbor_allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, comm, TERN_NBR_NONBLOCKING,
                                       request);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_allgather_c)
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    return tern_api_neighbor_allgather("MPI_Ineighbor_allgather_c", sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, comm, TERN_NBR_NONBLOCKING,
                                       request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_allgather_init)
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_allgather_init";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                       recvtype, comm, TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_allgather_init_c)
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_allgather_init_c";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                       recvtype, comm, TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_allgatherv)
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return tern_api_neighbor_allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype,
                                        recvbuf, tern_vec_int(recvcounts), tern_vec_int(displs),
                                        recvtype, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Neighbor_allgatherv_c)
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm)
{
    return tern_api_neighbor_allgatherv("MPI_Neighbor_allgatherv_c", sendbuf, sendcount, sendtype,
                                        recvbuf, tern_vec_long(recvcounts), tern_vec_long(displs),
                                        recvtype, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_allgatherv)
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_neighbor_allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype,
                                        recvbuf, tern_vec_int(recvcounts), tern_vec_int(displs),
                                        recvtype, comm, TERN_NBR_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_allgatherv_c)
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request)
{
    return tern_api_neighbor_allgatherv("MPI_Ineighbor_allgatherv_c", sendbuf, sendcount, sendtype,
                                        recvbuf, tern_vec_long(recvcounts), tern_vec_long(displs),
                                        recvtype, comm, TERN_NBR_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_allgatherv_init)
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_allgatherv_init";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                        tern_vec_int(recvcounts), tern_vec_int(displs), recvtype,
                                        comm, TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_allgatherv_init_c)
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_allgatherv_init_c";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                        tern_vec_long(recvcounts), tern_vec_long(displs), recvtype,
                                        comm, TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoall)
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return tern_api_neighbor_alltoall("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoall_c)
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    return tern_api_neighbor_alltoall("MPI_Neighbor_alltoall_c", sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_alltoall)
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return tern_api_neighbor_alltoall("MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, comm, TERN_NBR_NONBLOCKING,
                                      request);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_alltoall_c)
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    return tern_api_neighbor_alltoall("MPI_Ineighbor_alltoall_c", sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, comm, TERN_NBR_NONBLOCKING,
                                      request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoall_init)
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_alltoall_init";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                      recvtype, comm, TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoall_init_c)
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_alltoall_init_c";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                      recvtype, comm, TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallv)
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return tern_api_neighbor_alltoallv("MPI_Neighbor_alltoallv", sendbuf, tern_vec_int(sendcounts),
                                       tern_vec_int(sdispls), sendtype, recvbuf,
                                       tern_vec_int(recvcounts), tern_vec_int(rdispls), recvtype,
                                       comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallv_c)
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm)
{
    return tern_api_neighbor_alltoallv("MPI_Neighbor_alltoallv_c", sendbuf,
                                       tern_vec_long(sendcounts), tern_vec_long(sdispls), sendtype,
                                       recvbuf, tern_vec_long(recvcounts), tern_vec_long(rdispls),
                                       recvtype, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_alltoallv)
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return tern_api_neighbor_alltoallv("MPI_Ineighbor_alltoallv", sendbuf, tern_vec_int(sendcounts),
                                       tern_vec_int(sdispls), sendtype, recvbuf,
                                       tern_vec_int(recvcounts), tern_vec_int(rdispls), recvtype,
                                       comm, TERN_NBR_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_alltoallv_c)
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return tern_api_neighbor_alltoallv("MPI_Ineighbor_alltoallv_c", sendbuf,
                                       tern_vec_long(sendcounts), tern_vec_long(sdispls), sendtype,
                                       recvbuf, tern_vec_long(recvcounts), tern_vec_long(rdispls),
                                       recvtype, comm, TERN_NBR_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallv_init)
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_alltoallv_init";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_alltoallv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                       sendtype, recvbuf, tern_vec_int(recvcounts),
                                       tern_vec_int(rdispls), recvtype, comm, TERN_NBR_PERSISTENT,
                                       request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallv_init_c)
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_alltoallv_init_c";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_alltoallv(fn, sendbuf, tern_vec_long(sendcounts),
                                       tern_vec_long(sdispls), sendtype, recvbuf,
                                       tern_vec_long(recvcounts), tern_vec_long(rdispls), recvtype,
                                       comm, TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallw)
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return tern_api_neighbor_alltoallw("MPI_Neighbor_alltoallw", sendbuf, tern_vec_int(sendcounts),
                                       sdispls, sendtypes, recvbuf, tern_vec_int(recvcounts),
                                       rdispls, recvtypes, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallw_c)
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return tern_api_neighbor_alltoallw(
        "MPI_Neighbor_alltoallw_c", sendbuf, tern_vec_long(sendcounts), sdispls, sendtypes, recvbuf,
        tern_vec_long(recvcounts), rdispls, recvtypes, comm, TERN_NBR_BLOCKING, NULL);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_alltoallw)
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request)
{
    return tern_api_neighbor_alltoallw("MPI_Ineighbor_alltoallw", sendbuf, tern_vec_int(sendcounts),
                                       sdispls, sendtypes, recvbuf, tern_vec_int(recvcounts),
                                       rdispls, recvtypes, comm, TERN_NBR_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Ineighbor_alltoallw_c)
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request)
{
    return tern_api_neighbor_alltoallw("MPI_Ineighbor_alltoallw_c", sendbuf,
                                       tern_vec_long(sendcounts), sdispls, sendtypes, recvbuf,
                                       tern_vec_long(recvcounts), rdispls, recvtypes, comm,
                                       TERN_NBR_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallw_init)
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_alltoallw_init";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_alltoallw(fn, sendbuf, tern_vec_int(sendcounts), sdispls, sendtypes,
                                       recvbuf, tern_vec_int(recvcounts), rdispls, recvtypes, comm,
                                       TERN_NBR_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Neighbor_alltoallw_init_c)
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Neighbor_alltoallw_init_c";
    int rc = tern_api_persist_info(fn, comm, info);
    if (rc) return rc;
    return tern_api_neighbor_alltoallw(fn, sendbuf, tern_vec_long(sendcounts), sdispls, sendtypes,
                                       recvbuf, tern_vec_long(recvcounts), rdispls, recvtypes, comm,
                                       TERN_NBR_PERSISTENT, request);
}
