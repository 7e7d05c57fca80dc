/* The intercommunicator halves of the checks in coll_check.h (same
 * arguments, same contract); only coll_check's functions call these. */
#ifndef TERN_API_COLL_CHECK_INTER_H
#define TERN_API_COLL_CHECK_INTER_H

#include <mpi.h>

struct tern_comm;
struct tern_datatype;
struct tern_op;

int tern_coll_check_inter_bcast(struct tern_comm *c, const char *fn, void *buffer, MPI_Count count,
                                MPI_Datatype datatype, int root, struct tern_datatype **dt);
/* Gather (gather != 0) and scatter. */
int tern_coll_check_inter_rooted(struct tern_comm *c, const char *fn, int gather,
                                 const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_inter_gatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                  MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                  int root, struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_inter_scatterv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                   const int sendcounts[], const int displs[],
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, int root, struct tern_datatype **sdt,
                                   struct tern_datatype **rdt);
int tern_coll_check_inter_all_block(struct tern_comm *c, const char *fn, const void *sendbuf,
                                    MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype,
                                    struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_inter_allgatherv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                     MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[], const int displs[],
                                     MPI_Datatype recvtype, struct tern_datatype **sdt,
                                     struct tern_datatype **rdt);
int tern_coll_check_inter_alltoallv(struct tern_comm *c, const char *fn, const void *sendbuf,
                                    const int sendcounts[], const int sdispls[],
                                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                    const int rdispls[], MPI_Datatype recvtype,
                                    struct tern_datatype **sdt, struct tern_datatype **rdt);
int tern_coll_check_inter_alltoallw(struct tern_comm *c, const char *fn, const void *sendbuf,
                                    const int sendcounts[], const int sdispls[],
                                    const MPI_Datatype sendtypes[], void *recvbuf,
                                    const int recvcounts[], const int rdispls[],
                                    const MPI_Datatype recvtypes[], struct tern_datatype ***dts);
int tern_coll_check_inter_reduce(struct tern_comm *c, const char *fn, const void *sendbuf,
                                 void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                                 int root, struct tern_datatype **dt, struct tern_op **o);
int tern_coll_check_inter_all_reduce(struct tern_comm *c, const char *fn, const void *sendbuf,
                                     void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                     MPI_Op op, struct tern_datatype **dt, struct tern_op **o);
/* Reduce_scatter (rcounts) and reduce_scatter_block (rcounts NULL, rcount). */
int tern_coll_check_inter_reduce_scatter(struct tern_comm *c, const char *fn, const void *sendbuf,
                                         void *recvbuf, const int *rcounts, MPI_Count rcount,
                                         MPI_Datatype datatype, MPI_Op op,
                                         struct tern_datatype **dt, struct tern_op **o);

#endif
