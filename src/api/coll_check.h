/* Argument checks of the collectives, shared by the blocking (coll.c),
 * nonblocking (coll_nb.c) and persistent (coll_persist.c) forms so all
 * three refuse the same arguments with the same messages.  Each takes a
 * communicator already validated, returns MPI_SUCCESS or an error code
 * that has been through c's error handler, and hands back the datatype and
 * op objects the algorithms need.  On an intercommunicator they check by
 * its rules instead (coll_check_inter.c: roots MPI_ROOT / MPI_PROC_NULL /
 * remote rank, count arrays per remote rank, no MPI_IN_PLACE); objects a
 * rank does not use stay NULL there. */
#ifndef TERN_API_COLL_CHECK_H
#define TERN_API_COLL_CHECK_H

#include <mpi.h>

struct tern_comm;
struct tern_datatype;
struct tern_op;

int tern_coll_check_bcast(struct tern_comm *c, const char *fn, void *buffer, MPI_Count count,
                          MPI_Datatype datatype, int root, struct tern_datatype **dt);
int tern_coll_check_gather(struct tern_comm *c, const char *fn, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, int root,
                           struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_gatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                            int root, struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_scatter(struct tern_comm *c, const char *fn, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root,
                            struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_scatterv(struct tern_comm *c, const char *fn, const void *sendbuf,
                             const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                             struct tern_datatype **sdt, struct tern_datatype **rdt);
/* Allgather and alltoall (*sdt is NULL for MPI_IN_PLACE). */
int tern_coll_check_all_block(struct tern_comm *c, const char *fn, const void *sendbuf,
                              MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_allgatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                               MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                               struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_alltoallv(struct tern_comm *c, const char *fn, const void *sendbuf,
                              const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int rdispls[],
                              MPI_Datatype recvtype, struct tern_datatype **sdt,
                              struct tern_datatype **rdt);
/* *dts (allocated here, to free() on every path) holds the c->peer_size
 * send types, then the c->peer_size receive types; entries with count 0
 * are MPI_BYTE. */
int tern_coll_check_alltoallw(struct tern_comm *c, const char *fn, const void *sendbuf,
                              const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[],
                              struct tern_datatype ***dts);
int tern_coll_check_reduce(struct tern_comm *c, const char *fn, const void *sendbuf, void *recvbuf,
                           MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                           struct tern_datatype **dt, struct tern_op **o);
/* Scan and exscan, which MPI defines on intracommunicators only: MPI_ERR_COMM
 * on an intercommunicator, before any other check. */
int tern_coll_check_intra(struct tern_comm *c, const char *fn);
/* Allreduce, scan and exscan. */
int tern_coll_check_all_reduce(struct tern_comm *c, const char *fn, const void *sendbuf,
                               void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                               struct tern_datatype **dt, struct tern_op **o);
int tern_coll_check_reduce_scatter(struct tern_comm *c, const char *fn, const void *sendbuf,
                                   void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                   MPI_Op op, struct tern_datatype **dt, struct tern_op **o);
int tern_coll_check_reduce_scatter_block(struct tern_comm *c, const char *fn, const void *sendbuf,
                                         void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                         MPI_Op op, struct tern_datatype **dt, struct tern_op **o);

#endif
