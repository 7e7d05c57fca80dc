/* Blocking collectives on intercommunicators (MPI-4.1 6.2.2).
 *
 * tern_inter_*_call: the whole entry point after the communicator check
 * (argument checks, the operation, errors raised on c); api/coll.c calls
 * them when c->is_inter.  The algorithms below them take checked
 * arguments. */
#ifndef TERN_COLL_INTER_H
#define TERN_COLL_INTER_H

#include <mpi.h>
#include <stddef.h>

struct tern_comm;
struct tern_datatype;
struct tern_op;

/* ---- entry points ---- */

int tern_inter_barrier_call(struct tern_comm *c);
int tern_inter_bcast_call(const char *fn, struct tern_comm *c, void *buf, MPI_Count count,
                          MPI_Datatype type, int root);
int tern_inter_gather_call(const char *fn, struct tern_comm *c, const void *sbuf, MPI_Count scount,
                           MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
                           int root);
int tern_inter_gatherv_call(const char *fn, struct tern_comm *c, const void *sbuf, MPI_Count scount,
                            MPI_Datatype stype, void *rbuf, const int *rcounts, const int *displs,
                            MPI_Datatype rtype, int root);
int tern_inter_scatter_call(const char *fn, struct tern_comm *c, const void *sbuf, MPI_Count scount,
                            MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
                            int root);
int tern_inter_scatterv_call(const char *fn, struct tern_comm *c, const void *sbuf,
                             const int *scounts, const int *displs, MPI_Datatype stype, void *rbuf,
                             MPI_Count rcount, MPI_Datatype rtype, int root);
/* Allgather (alltoall when !gather): blocks of one size. */
int tern_inter_all_block_call(const char *fn, int gather, struct tern_comm *c, const void *sbuf,
                              MPI_Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount,
                              MPI_Datatype rtype);
int tern_inter_allgatherv_call(const char *fn, struct tern_comm *c, const void *sbuf,
                               MPI_Count scount, MPI_Datatype stype, void *rbuf, const int *rcounts,
                               const int *displs, MPI_Datatype rtype);
int tern_inter_alltoallv_call(const char *fn, struct tern_comm *c, const void *sbuf,
                              const int *scounts, const int *sdispls, MPI_Datatype stype,
                              void *rbuf, const int *rcounts, const int *rdispls,
                              MPI_Datatype rtype);
int tern_inter_alltoallw_call(const char *fn, struct tern_comm *c, const void *sbuf,
                              const int *scounts, const int *sdispls, const MPI_Datatype *stypes,
                              void *rbuf, const int *rcounts, const int *rdispls,
                              const MPI_Datatype *rtypes);
int tern_inter_reduce_call(const char *fn, struct tern_comm *c, const void *sbuf, void *rbuf,
                           MPI_Count count, MPI_Datatype type, MPI_Op op, int root);
/* Allreduce; Scan and Exscan (which MPI does not define on
 * intercommunicators) get MPI_ERR_COMM when !allreduce. */
int tern_inter_allreduce_call(const char *fn, int allreduce, struct tern_comm *c, const void *sbuf,
                              void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op);
/* Reduce_scatter (rcounts) and reduce_scatter_block (rcounts NULL, rcount). */
int tern_inter_reduce_scatter_call(const char *fn, struct tern_comm *c, const void *sbuf,
                                   void *rbuf, const int *rcounts, MPI_Count rcount,
                                   MPI_Datatype type, MPI_Op op);

/* ---- algorithms ----
 * Rooted operations take the caller's role: the root (MPI_ROOT), idle
 * (MPI_PROC_NULL: the root's other group members), or a member of the
 * other group giving the root's remote rank. */
enum tern_inter_role { TERN_INTER_ROOT, TERN_INTER_IDLE, TERN_INTER_LEAF };

int tern_inter_barrier(struct tern_comm *c);
int tern_inter_bcast(void *buf, size_t count, struct tern_datatype *dt, int root,
                     enum tern_inter_role role, struct tern_comm *c);
int tern_inter_gather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                      size_t rcount, struct tern_datatype *rdt, int root,
                      enum tern_inter_role role, struct tern_comm *c);
int tern_inter_gatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                       const int *rcounts, const int *displs, struct tern_datatype *rdt, int root,
                       enum tern_inter_role role, struct tern_comm *c);
int tern_inter_scatter(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                       size_t rcount, struct tern_datatype *rdt, int root,
                       enum tern_inter_role role, struct tern_comm *c);
int tern_inter_scatterv(const void *sbuf, const int *scounts, const int *displs,
                        struct tern_datatype *sdt, void *rbuf, size_t rcount,
                        struct tern_datatype *rdt, int root, enum tern_inter_role role,
                        struct tern_comm *c);
int tern_inter_allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                         size_t rcount, struct tern_datatype *rdt, struct tern_comm *c);
int tern_inter_allgatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                          const int *rcounts, const int *displs, struct tern_datatype *rdt,
                          struct tern_comm *c);
/* One (count, displacement in bytes, type) per remote rank on each side:
 * alltoall, alltoallv and alltoallw all come down to this. */
int tern_inter_alltoallw(const void *sbuf, const size_t *scounts, const MPI_Aint *sdispls,
                         struct tern_datatype *const *sdts, void *rbuf, const size_t *rcounts,
                         const MPI_Aint *rdispls, struct tern_datatype *const *rdts,
                         struct tern_comm *c);
int tern_inter_reduce(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                      struct tern_op *op, int root, enum tern_inter_role role,
                      struct tern_comm *c);
int tern_inter_allreduce(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                         struct tern_op *op, struct tern_comm *c);
/* rcounts: one per local rank (the same at every local rank). */
int tern_inter_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                              struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c);

#endif
