/* The bodies of the MPI-4 persistent collectives: the nonblocking forms'
 * checks and schedules (coll_nb.c), kept in an inactive persistent request
 * that MPI_Start runs again and again.  Initialisation is local: the
 * schedule is built here, and its tag is taken in the order of the *_init
 * calls, which MPI requires to be the same on every rank.  The entry points
 * (src/api/gen/bindings_coll_persist.c) check the communicator, then the
 * info argument; no key changes anything. */
#include "api/coll_nb.h"
#include "api/gen/bindings.h"

int tern_api_barrier_init(const char *fn, struct tern_comm *comm_o, struct tern_info *info_o,
                          MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_barrier(fn, comm_o, 1, request);
}

int tern_api_bcast_init(const char *fn, void *buffer, int count, MPI_Datatype datatype, int root,
                        struct tern_comm *comm_o, struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_bcast(fn, buffer, count, datatype, root, comm_o, 1, request);
}

int tern_api_bcast_init_c(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                          int root, struct tern_comm *comm_o, struct tern_info *info_o,
                          MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_bcast(fn, buffer, count, datatype, root, comm_o, 1, request);
}

int tern_api_gather_init(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                         struct tern_comm *comm_o, struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_gather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm_o, 1, request);
}

int tern_api_gather_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                           struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_gather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm_o, 1, request);
}

int tern_api_gatherv_init(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[], const int displs[],
                          MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                          struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_gatherv(fn, sendbuf, sendcount, sendtype, recvbuf, tern_vec_int(recvcounts),
                                tern_vec_int(displs), recvtype, root, comm_o, 1, request);
}

int tern_api_gatherv_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                            const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                            struct tern_comm *comm_o, struct tern_info *info_o,
                            MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_gatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                tern_vec_long(recvcounts), tern_vec_long(displs), recvtype, root,
                                comm_o, 1, request);
}

int tern_api_scatter_init(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                          struct tern_comm *comm_o, struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_scatter(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, comm_o, 1, request);
}

int tern_api_scatter_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                            struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_scatter(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, comm_o, 1, request);
}

int tern_api_scatterv_init(const char *fn, const void *sendbuf, const int sendcounts[],
                           const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, struct tern_comm *comm_o,
                           struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_scatterv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(displs),
                                 sendtype, recvbuf, recvcount, recvtype, root, comm_o, 1, request);
}

int tern_api_scatterv_init_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, int root,
                             struct tern_comm *comm_o, struct tern_info *info_o,
                             MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_scatterv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(displs),
                                 sendtype, recvbuf, recvcount, recvtype, root, comm_o, 1, request);
}

int tern_api_allgather_init(const char *fn, const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, struct tern_comm *comm_o,
                            struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_block(fn, tern_nbc_allgather, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 1, request);
}

int tern_api_allgather_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, struct tern_comm *comm_o,
                              struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_block(fn, tern_nbc_allgather, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 1, request);
}

int tern_api_allgatherv_init(const char *fn, const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int displs[], MPI_Datatype recvtype, struct tern_comm *comm_o,
                             struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_int(recvcounts), tern_vec_int(displs), recvtype, comm_o,
                                   1, request);
}

int tern_api_allgatherv_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype,
                               struct tern_comm *comm_o, struct tern_info *info_o,
                               MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf,
                                   tern_vec_long(recvcounts), tern_vec_long(displs), recvtype,
                                   comm_o, 1, request);
}

int tern_api_alltoall_init(const char *fn, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, struct tern_comm *comm_o,
                           struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_block(fn, tern_nbc_alltoall, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 1, request);
}

int tern_api_alltoall_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                             MPI_Datatype recvtype, struct tern_comm *comm_o,
                             struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_block(fn, tern_nbc_alltoall, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm_o, 1, request);
}

int tern_api_alltoallv_init(const char *fn, const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            struct tern_comm *comm_o, struct tern_info *info_o,
                            MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_alltoallv(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                  sendtype, recvbuf, tern_vec_int(recvcounts),
                                  tern_vec_int(rdispls), recvtype, comm_o, 1, request);
}

int tern_api_alltoallv_init_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, struct tern_comm *comm_o,
                              struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_alltoallv(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                                  sendtype, recvbuf, tern_vec_long(recvcounts),
                                  tern_vec_long(rdispls), recvtype, comm_o, 1, request);
}

int tern_api_alltoallw_init(const char *fn, const void *sendbuf, const int sendcounts[],
                            const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const int rdispls[],
                            const MPI_Datatype recvtypes[], struct tern_comm *comm_o,
                            struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_alltoallw(fn, sendbuf, tern_vec_int(sendcounts), tern_vec_int(sdispls),
                                  sendtypes, recvbuf, tern_vec_int(recvcounts),
                                  tern_vec_int(rdispls), recvtypes, comm_o, 1, request);
}

int tern_api_alltoallw_init_c(const char *fn, const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], struct tern_comm *comm_o,
                              struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_alltoallw(fn, sendbuf, tern_vec_long(sendcounts), tern_vec_long(sdispls),
                                  sendtypes, recvbuf, tern_vec_long(recvcounts),
                                  tern_vec_long(rdispls), recvtypes, comm_o, 1, request);
}

int tern_api_reduce_init(const char *fn, const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *comm_o,
                         struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_reduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm_o, 1, request);
}

int tern_api_reduce_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *comm_o,
                           struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_reduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm_o, 1, request);
}

int tern_api_allreduce_init(const char *fn, const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                            struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_reduce(fn, tern_nbc_allreduce, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 1, request);
}

int tern_api_allreduce_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                              struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_reduce(fn, tern_nbc_allreduce, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 1, request);
}

int tern_api_reduce_scatter_init(const char *fn, const void *sendbuf, void *recvbuf,
                                 const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                 struct tern_comm *comm_o, struct tern_info *info_o,
                                 MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_reduce_scatter(fn, sendbuf, recvbuf, tern_vec_int(recvcounts), datatype, op,
                                       comm_o, 1, request);
}

int tern_api_reduce_scatter_init_c(const char *fn, const void *sendbuf, void *recvbuf,
                                   const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                   struct tern_comm *comm_o, struct tern_info *info_o,
                                   MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_reduce_scatter(fn, sendbuf, recvbuf, tern_vec_long(recvcounts), datatype,
                                       op, comm_o, 1, request);
}

int tern_api_reduce_scatter_block_init(const char *fn, const void *sendbuf, void *recvbuf,
                                       int recvcount, MPI_Datatype datatype, MPI_Op op,
                                       struct tern_comm *comm_o, struct tern_info *info_o,
                                       MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_reduce_scatter_block(fn, sendbuf, recvbuf, recvcount, datatype, op, comm_o,
                                             1, request);
}

int tern_api_reduce_scatter_block_init_c(const char *fn, const void *sendbuf, void *recvbuf,
                                         MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                         struct tern_comm *comm_o, struct tern_info *info_o,
                                         MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_reduce_scatter_block(fn, sendbuf, recvbuf, recvcount, datatype, op, comm_o,
                                             1, request);
}

int tern_api_scan_init(const char *fn, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                       struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_reduce(fn, tern_nbc_scan, sendbuf, recvbuf, count, datatype, op, comm_o,
                                   1, request);
}

int tern_api_scan_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                         struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_reduce(fn, tern_nbc_scan, sendbuf, recvbuf, count, datatype, op, comm_o,
                                   1, request);
}

int tern_api_exscan_init(const char *fn, const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                         struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_reduce(fn, tern_nbc_exscan, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 1, request);
}

int tern_api_exscan_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, struct tern_comm *comm_o,
                           struct tern_info *info_o, MPI_Request *request)
{
    (void)info_o;
    return tern_api_nbc_all_reduce(fn, tern_nbc_exscan, sendbuf, recvbuf, count, datatype, op,
                                   comm_o, 1, request);
}
