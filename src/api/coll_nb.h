/* The bodies of the nonblocking collectives, shared with their persistent
 * forms: MPI_X_init checks the same arguments and builds the same schedule
 * as MPI_IX, but the request waits for MPI_Start (persistent != 0).  'fn'
 * is the MPI name reported in errors. */
#ifndef TERN_API_COLL_NB_H
#define TERN_API_COLL_NB_H

#include <mpi.h>

#include "api/count_vec.h"

#include "coll/nbc.h"

int tern_api_ibarrier(const char *fn, MPI_Comm comm, int persistent, MPI_Request *request);
int tern_api_ibcast(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                    MPI_Comm comm, int persistent, MPI_Request *request);
int tern_api_igather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, int persistent,
                     MPI_Request *request);
int tern_api_igatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts,
                      struct tern_vec displs, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      int persistent, MPI_Request *request);
int tern_api_iscatter(const char *fn, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, int persistent,
                      MPI_Request *request);
int tern_api_iscatterv(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                       struct tern_vec displs, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       int persistent, MPI_Request *request);
/* Allgather and alltoall share their arguments: 'build' is
 * tern_nbc_allgather or tern_nbc_alltoall. */
int tern_api_iall_block(const char *fn, tern_nbc_all_block_fn *build, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, int persistent,
                        MPI_Request *request);
int tern_api_iallgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts,
                         struct tern_vec displs, MPI_Datatype recvtype, MPI_Comm comm,
                         int persistent, MPI_Request *request);
int tern_api_ialltoallv(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                        struct tern_vec sdispls, MPI_Datatype sendtype, void *recvbuf,
                        struct tern_vec recvcounts, struct tern_vec rdispls, MPI_Datatype recvtype,
                        MPI_Comm comm, int persistent, MPI_Request *request);
int tern_api_ialltoallw(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                        struct tern_vec sdispls, const MPI_Datatype sendtypes[], void *recvbuf,
                        struct tern_vec recvcounts, struct tern_vec rdispls,
                        const MPI_Datatype recvtypes[], MPI_Comm comm, int persistent,
                        MPI_Request *request);
int tern_api_ireduce(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, int persistent,
                     MPI_Request *request);
/* Allreduce, scan and exscan share their arguments: 'build' is
 * tern_nbc_allreduce, tern_nbc_scan or tern_nbc_exscan. */
int tern_api_iall_reduce(const char *fn, tern_nbc_all_reduce_fn *build, const void *sendbuf,
                         void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, int persistent, MPI_Request *request);
int tern_api_ireduce_scatter(const char *fn, const void *sendbuf, void *recvbuf,
                             struct tern_vec recvcounts, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, int persistent, MPI_Request *request);
int tern_api_ireduce_scatter_block(const char *fn, const void *sendbuf, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm, int persistent, MPI_Request *request);

#endif
