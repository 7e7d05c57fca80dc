/* The bodies of the nonblocking collectives, shared with their persistent
 * forms: MPI_X_init checks the same arguments and builds the same schedule
 * as MPI_IX, but the request waits for MPI_Start (persistent != 0).  'fn'
 * is the MPI name reported in errors; c is the call's communicator, already
 * checked. */
#ifndef TERN_API_COLL_NB_H
#define TERN_API_COLL_NB_H

#include <mpi.h>

#include "api/count_vec.h"

#include "coll/nbc.h"

struct tern_comm;

int tern_api_nbc_barrier(const char *fn, struct tern_comm *c, int persistent, MPI_Request *request);
int tern_api_nbc_bcast(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                       int root, struct tern_comm *c, int persistent, MPI_Request *request);
int tern_api_nbc_gather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, struct tern_comm *c, int persistent,
                        MPI_Request *request);
int tern_api_nbc_gatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts,
                         struct tern_vec displs, MPI_Datatype recvtype, int root,
                         struct tern_comm *c, int persistent, MPI_Request *request);
int tern_api_nbc_scatter(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, struct tern_comm *c, int persistent,
                         MPI_Request *request);
int tern_api_nbc_scatterv(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                          struct tern_vec displs, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root, struct tern_comm *c,
                          int persistent, MPI_Request *request);
/* Allgather and alltoall share their arguments: 'build' is
 * tern_nbc_allgather or tern_nbc_alltoall. */
int tern_api_nbc_all_block(const char *fn, tern_nbc_all_block_fn *build, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, struct tern_comm *c,
                           int persistent, MPI_Request *request);
int tern_api_nbc_allgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts,
                            struct tern_vec displs, MPI_Datatype recvtype, struct tern_comm *c,
                            int persistent, MPI_Request *request);
int tern_api_nbc_alltoallv(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                           struct tern_vec sdispls, MPI_Datatype sendtype, void *recvbuf,
                           struct tern_vec recvcounts, struct tern_vec rdispls,
                           MPI_Datatype recvtype, struct tern_comm *c, int persistent,
                           MPI_Request *request);
int tern_api_nbc_alltoallw(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                           struct tern_vec sdispls, const MPI_Datatype sendtypes[], void *recvbuf,
                           struct tern_vec recvcounts, struct tern_vec rdispls,
                           const MPI_Datatype recvtypes[], struct tern_comm *c, int persistent,
                           MPI_Request *request);
int tern_api_nbc_reduce(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, int root, struct tern_comm *c,
                        int persistent, MPI_Request *request);
/* Allreduce, scan and exscan share their arguments: 'build' is
 * tern_nbc_allreduce, tern_nbc_scan or tern_nbc_exscan. */
int tern_api_nbc_all_reduce(const char *fn, tern_nbc_all_reduce_fn *build, const void *sendbuf,
                            void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                            struct tern_comm *c, int persistent, MPI_Request *request);
int tern_api_nbc_reduce_scatter(const char *fn, const void *sendbuf, void *recvbuf,
                                struct tern_vec recvcounts, MPI_Datatype datatype, MPI_Op op,
                                struct tern_comm *c, int persistent, MPI_Request *request);
int tern_api_nbc_reduce_scatter_block(const char *fn, const void *sendbuf, void *recvbuf,
                                      MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                      struct tern_comm *c, int persistent, MPI_Request *request);

#endif
