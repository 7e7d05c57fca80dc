/* The bodies of the MPI neighbourhood collectives: blocking
 * (MPI_Neighbor_x), nonblocking (MPI_Ineighbor_x) and persistent
 * (MPI_Neighbor_x_init, MPI-4) forms of each collective share one helper
 * (coll_neighbor.c), so they check the same arguments and move data the
 * same way.  Their entry points (src/api/gen/bindings_coll_neighbor_api.c)
 * check the communicator, and the persistent forms' info argument; no key
 * changes anything. */
#include <stddef.h>

#include "api/coll_neighbor.h"
#include "api/gen/bindings.h"

int tern_api_neighbor_allgather(const char *fn, const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return tern_api_nbr_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm_o, TERN_NBR_BLOCKING, NULL);
}

int tern_api_neighbor_allgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return tern_api_nbr_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm_o, TERN_NBR_BLOCKING, NULL);
}

int tern_api_ineighbor_allgather(const char *fn, const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                 MPI_Datatype recvtype, struct tern_comm *comm_o,
                                 MPI_Request *request)
{
    return tern_api_nbr_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm_o, TERN_NBR_NONBLOCKING, request);
}

int tern_api_ineighbor_allgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, struct tern_comm *comm_o,
                                   MPI_Request *request)
{
    return tern_api_nbr_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm_o, TERN_NBR_NONBLOCKING, request);
}

int tern_api_neighbor_allgather_init(const char *fn, const void *sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                     MPI_Datatype recvtype, struct tern_comm *comm_o,
                                     struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm_o, TERN_NBR_PERSISTENT, request);
}

int tern_api_neighbor_allgather_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                       MPI_Datatype recvtype, struct tern_comm *comm_o,
                                       struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm_o, TERN_NBR_PERSISTENT, request);
}

int tern_api_neighbor_allgatherv(const char *fn, const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int displs[], MPI_Datatype recvtype,
                                 struct tern_comm *comm_o)
{
    return tern_api_nbr_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_int(recvcounts), tern_vec_int(displs), recvtype, comm_o,
                                   TERN_NBR_BLOCKING, NULL);
}

int tern_api_neighbor_allgatherv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint displs[],
                                   MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return tern_api_nbr_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_long(recvcounts), tern_vec_long(displs), recvtype,
                                   comm_o, TERN_NBR_BLOCKING, NULL);
}

int tern_api_ineighbor_allgatherv(const char *fn, const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                  const int displs[], MPI_Datatype recvtype,
                                  struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbr_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_int(recvcounts), tern_vec_int(displs), recvtype, comm_o,
                                   TERN_NBR_NONBLOCKING, request);
}

int tern_api_ineighbor_allgatherv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                                    MPI_Datatype recvtype, struct tern_comm *comm_o,
                                    MPI_Request *request)
{
    return tern_api_nbr_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_long(recvcounts), tern_vec_long(displs), recvtype,
                                   comm_o, TERN_NBR_NONBLOCKING, request);
}

int tern_api_neighbor_allgatherv_init(const char *fn, const void *sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                      const int displs[], MPI_Datatype recvtype,
                                      struct tern_comm *comm_o, struct tern_info *info_o,
                                      MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_int(recvcounts), tern_vec_int(displs), recvtype, comm_o,
                                   TERN_NBR_PERSISTENT, request);
}

int tern_api_neighbor_allgatherv_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        const MPI_Count recvcounts[], const MPI_Aint displs[],
                                        MPI_Datatype recvtype, struct tern_comm *comm_o,
                                        struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_long(recvcounts), tern_vec_long(displs), recvtype,
                                   comm_o, TERN_NBR_PERSISTENT, request);
}

int tern_api_neighbor_alltoall(const char *fn, const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return tern_api_nbr_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 comm_o, TERN_NBR_BLOCKING, NULL);
}

int tern_api_neighbor_alltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return tern_api_nbr_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 comm_o, TERN_NBR_BLOCKING, NULL);
}

int tern_api_ineighbor_alltoall(const char *fn, const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, struct tern_comm *comm_o,
                                MPI_Request *request)
{
    return tern_api_nbr_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 comm_o, TERN_NBR_NONBLOCKING, request);
}

int tern_api_ineighbor_alltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype recvtype, struct tern_comm *comm_o,
                                  MPI_Request *request)
{
    return tern_api_nbr_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 comm_o, TERN_NBR_NONBLOCKING, request);
}

int tern_api_neighbor_alltoall_init(const char *fn, const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                    MPI_Datatype recvtype, struct tern_comm *comm_o,
                                    struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 comm_o, TERN_NBR_PERSISTENT, request);
}

int tern_api_neighbor_alltoall_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                      MPI_Datatype recvtype, struct tern_comm *comm_o,
                                      struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_alltoall(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 comm_o, TERN_NBR_PERSISTENT, request);
}

int tern_api_neighbor_alltoallv(const char *fn, const void *sendbuf, const int sendcounts[],
                                const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                struct tern_comm *comm_o)
{
    return tern_api_nbr_alltoallv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                  sendtype, recvbuf, tern_vec_int(recvcounts),
                                  tern_vec_int(rdispls), recvtype, comm_o, TERN_NBR_BLOCKING, NULL);
}

int tern_api_neighbor_alltoallv_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                  MPI_Datatype recvtype, struct tern_comm *comm_o)
{
    return tern_api_nbr_alltoallv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                                  sendtype, recvbuf, tern_vec_long(recvcounts),
                                  tern_vec_long(rdispls), recvtype, comm_o, TERN_NBR_BLOCKING,
                                  NULL);
}

int tern_api_ineighbor_alltoallv(const char *fn, const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                 struct tern_comm *comm_o, MPI_Request *request)
{
    return tern_api_nbr_alltoallv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                  sendtype, recvbuf, tern_vec_int(recvcounts),
                                  tern_vec_int(rdispls), recvtype, comm_o, TERN_NBR_NONBLOCKING,
                                  request);
}

int tern_api_ineighbor_alltoallv_c(const char *fn, const void *sendbuf,
                                   const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, struct tern_comm *comm_o,
                                   MPI_Request *request)
{
    return tern_api_nbr_alltoallv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                                  sendtype, recvbuf, tern_vec_long(recvcounts),
                                  tern_vec_long(rdispls), recvtype, comm_o, TERN_NBR_NONBLOCKING,
                                  request);
}

int tern_api_neighbor_alltoallv_init(const char *fn, const void *sendbuf, const int sendcounts[],
                                     const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[], const int rdispls[],
                                     MPI_Datatype recvtype, struct tern_comm *comm_o,
                                     struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_alltoallv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                  sendtype, recvbuf, tern_vec_int(recvcounts),
                                  tern_vec_int(rdispls), recvtype, comm_o, TERN_NBR_PERSISTENT,
                                  request);
}

int tern_api_neighbor_alltoallv_init_c(const char *fn, const void *sendbuf,
                                       const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                       MPI_Datatype sendtype, void *recvbuf,
                                       const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                       MPI_Datatype recvtype, struct tern_comm *comm_o,
                                       struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_alltoallv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                                  sendtype, recvbuf, tern_vec_long(recvcounts),
                                  tern_vec_long(rdispls), recvtype, comm_o, TERN_NBR_PERSISTENT,
                                  request);
}

int tern_api_neighbor_alltoallw(const char *fn, const void *sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], struct tern_comm *comm_o)
{
    return tern_api_nbr_alltoallw(fn, sendbuf, tern_vec_int(sendcounts), sdispls, sendtypes,
                                  recvbuf, tern_vec_int(recvcounts), rdispls, recvtypes, comm_o,
                                  TERN_NBR_BLOCKING, NULL);
}

int tern_api_neighbor_alltoallw_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                  void *recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                  struct tern_comm *comm_o)
{
    return tern_api_nbr_alltoallw(fn, sendbuf, tern_vec_long(sendcounts), sdispls, sendtypes,
                                  recvbuf, tern_vec_long(recvcounts), rdispls, recvtypes, comm_o,
                                  TERN_NBR_BLOCKING, NULL);
}

int tern_api_ineighbor_alltoallw(const char *fn, const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], struct tern_comm *comm_o,
                                 MPI_Request *request)
{
    return tern_api_nbr_alltoallw(fn, sendbuf, tern_vec_int(sendcounts), sdispls, sendtypes,
                                  recvbuf, tern_vec_int(recvcounts), rdispls, recvtypes, comm_o,
                                  TERN_NBR_NONBLOCKING, request);
}

int tern_api_ineighbor_alltoallw_c(const char *fn, const void *sendbuf,
                                   const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   const MPI_Datatype recvtypes[], struct tern_comm *comm_o,
                                   MPI_Request *request)
{
    return tern_api_nbr_alltoallw(fn, sendbuf, tern_vec_long(sendcounts), sdispls, sendtypes,
                                  recvbuf, tern_vec_long(recvcounts), rdispls, recvtypes, comm_o,
                                  TERN_NBR_NONBLOCKING, request);
}

int tern_api_neighbor_alltoallw_init(const char *fn, const void *sendbuf, const int sendcounts[],
                                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                     void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                     struct tern_comm *comm_o, struct tern_info *info_o,
                                     MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_alltoallw(fn, sendbuf, tern_vec_int(sendcounts), sdispls, sendtypes,
                                  recvbuf, tern_vec_int(recvcounts), rdispls, recvtypes, comm_o,
                                  TERN_NBR_PERSISTENT, request);
}

int tern_api_neighbor_alltoallw_init_c(const char *fn, const void *sendbuf,
                                       const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void *recvbuf,
                                       const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                       const MPI_Datatype recvtypes[], struct tern_comm *comm_o,
                                       struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbr_alltoallw(fn, sendbuf, tern_vec_long(sendcounts), sdispls, sendtypes,
                                  recvbuf, tern_vec_long(recvcounts), rdispls, recvtypes, comm_o,
                                  TERN_NBR_PERSISTENT, request);
}
