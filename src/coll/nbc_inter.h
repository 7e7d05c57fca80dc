/* Schedules of the collectives on intercommunicators (nbc_inter.c): the
 * algorithms coll/select.c picks for an intercommunicator schedule.  Their
 * local phases call the entry points of coll/nbc.h, which pick again for
 * the local communicator.  The arguments are those of coll/nbc.h (root:
 * MPI_ROOT, MPI_PROC_NULL or a remote rank; count arrays per remote rank,
 * reduce_scatter's per local rank), already checked. */
#ifndef TERN_COLL_NBC_INTER_H
#define TERN_COLL_NBC_INTER_H

#include <stddef.h>

struct tern_sched;
struct tern_datatype;
struct tern_op;

int tern_nbc_inter_barrier(struct tern_sched *s);
int tern_nbc_inter_bcast(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                         int root);
int tern_nbc_inter_gather(struct tern_sched *s, const void *sbuf, size_t scount,
                          struct tern_datatype *sdt, void *rbuf, size_t rcount,
                          struct tern_datatype *rdt, int root);
int tern_nbc_inter_gatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                           struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                           const int *displs, struct tern_datatype *rdt, int root);
int tern_nbc_inter_scatter(struct tern_sched *s, const void *sbuf, size_t scount,
                           struct tern_datatype *sdt, void *rbuf, size_t rcount,
                           struct tern_datatype *rdt, int root);
int tern_nbc_inter_scatterv(struct tern_sched *s, const void *sbuf, const int *scounts,
                            const int *displs, struct tern_datatype *sdt, void *rbuf, size_t rcount,
                            struct tern_datatype *rdt, int root);
int tern_nbc_inter_allgather(struct tern_sched *s, const void *sbuf, size_t scount,
                             struct tern_datatype *sdt, void *rbuf, size_t rcount,
                             struct tern_datatype *rdt);
int tern_nbc_inter_allgatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                              struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                              const int *displs, struct tern_datatype *rdt);
int tern_nbc_inter_reduce(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                          struct tern_datatype *dt, struct tern_op *op, int root);
int tern_nbc_inter_allreduce(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                             struct tern_datatype *dt, struct tern_op *op);
/* Block i is rcounts[i] elements, or rcount for every rank when rcounts is NULL. */
int tern_nbc_inter_reduce_scatter(struct tern_sched *s, const void *sbuf, void *rbuf,
                                  const int *rcounts, size_t rcount, struct tern_datatype *dt,
                                  struct tern_op *op);

#endif
