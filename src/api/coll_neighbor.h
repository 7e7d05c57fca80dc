/* The bodies of the neighbourhood collective entry points, one per
 * collective for its blocking (MPI_Neighbor_x), nonblocking
 * (MPI_Ineighbor_x) and persistent (MPI_Neighbor_x_init) forms: the same
 * argument checks and the same schedule (coll/neighbor.h); the blocking
 * form waits for it before returning, the nonblocking one starts it, the
 * persistent one leaves it for MPI_Start.  'fn' is the MPI name reported in
 * errors; c is the call's communicator, already checked; 'request' is not
 * looked at in the blocking form. */
#ifndef TERN_API_COLL_NEIGHBOR_H
#define TERN_API_COLL_NEIGHBOR_H

#include <mpi.h>

#include "api/count_vec.h"

struct tern_comm;

enum tern_nbr_mode { TERN_NBR_BLOCKING, TERN_NBR_NONBLOCKING, TERN_NBR_PERSISTENT };

int tern_api_nbr_allgather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, struct tern_comm *c, enum tern_nbr_mode mode,
                           MPI_Request *request);
int tern_api_nbr_allgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts,
                            struct tern_vec displs, MPI_Datatype recvtype, struct tern_comm *c,
                            enum tern_nbr_mode mode, MPI_Request *request);
int tern_api_nbr_alltoall(const char *fn, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, struct tern_comm *c, enum tern_nbr_mode mode,
                          MPI_Request *request);
int tern_api_nbr_alltoallv(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                           struct tern_vec sdispls, MPI_Datatype sendtype, void *recvbuf,
                           struct tern_vec recvcounts, struct tern_vec rdispls,
                           MPI_Datatype recvtype, struct tern_comm *c, enum tern_nbr_mode mode,
                           MPI_Request *request);
int tern_api_nbr_alltoallw(const char *fn, const void *sendbuf, struct tern_vec sendcounts,
                           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                           struct tern_vec recvcounts, const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], struct tern_comm *c,
                           enum tern_nbr_mode mode, MPI_Request *request);

#endif
