/* Schedules of the nonblocking and persistent collectives, and of the
 * blocking ones on intercommunicators.  Each of these entry points adds
 * the steps of the algorithm the selection layer picks for the schedule's
 * communicator (coll/select.h; intercommunicator algorithms in
 * coll/nbc_inter.h) to a fresh schedule (coll/sched.h) and returns
 * MPI_SUCCESS or an error code; the
 * arguments are those of the blocking forms in coll/coll.h, already
 * checked.  Count and displacement arrays are read while building only. */
#ifndef TERN_COLL_NBC_H
#define TERN_COLL_NBC_H

#include <stddef.h>

struct tern_sched;
struct tern_datatype;
struct tern_op;

/* The shapes shared by allgather and alltoall, and by allreduce, scan and
 * exscan. */
typedef int tern_nbc_all_block_fn(struct tern_sched *s, const void *sbuf, size_t scount,
                                  struct tern_datatype *sdt, void *rbuf, size_t rcount,
                                  struct tern_datatype *rdt);
typedef int tern_nbc_all_reduce_fn(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                                   struct tern_datatype *dt, struct tern_op *op);

int tern_nbc_barrier(struct tern_sched *s);
int tern_nbc_bcast(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                   int root);
int tern_nbc_gather(struct tern_sched *s, const void *sbuf, size_t scount,
                    struct tern_datatype *sdt, void *rbuf, size_t rcount, struct tern_datatype *rdt,
                    int root);
int tern_nbc_gatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                     struct tern_datatype *sdt, void *rbuf, const int *rcounts, const int *displs,
                     struct tern_datatype *rdt, int root);
int tern_nbc_scatter(struct tern_sched *s, const void *sbuf, size_t scount,
                     struct tern_datatype *sdt, void *rbuf, size_t rcount,
                     struct tern_datatype *rdt, int root);
int tern_nbc_scatterv(struct tern_sched *s, const void *sbuf, const int *scounts, const int *displs,
                      struct tern_datatype *sdt, void *rbuf, size_t rcount,
                      struct tern_datatype *rdt, int root);
tern_nbc_all_block_fn tern_nbc_allgather;
int tern_nbc_allgatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                        struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                        const int *displs, struct tern_datatype *rdt);
tern_nbc_all_block_fn tern_nbc_alltoall;
int tern_nbc_alltoallv(struct tern_sched *s, const void *sbuf, const int *scounts,
                       const int *sdispls, struct tern_datatype *sdt, void *rbuf,
                       const int *rcounts, const int *rdispls, struct tern_datatype *rdt);
/* Displacements in bytes, one datatype per peer. */
int tern_nbc_alltoallw(struct tern_sched *s, const void *sbuf, const int *scounts,
                       const int *sdispls, struct tern_datatype *const *sdts, void *rbuf,
                       const int *rcounts, const int *rdispls, struct tern_datatype *const *rdts);
int tern_nbc_reduce(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                    struct tern_datatype *dt, struct tern_op *op, int root);
tern_nbc_all_reduce_fn tern_nbc_allreduce;
int tern_nbc_reduce_scatter(struct tern_sched *s, const void *sbuf, void *rbuf, const int *rcounts,
                            struct tern_datatype *dt, struct tern_op *op);
int tern_nbc_reduce_scatter_block(struct tern_sched *s, const void *sbuf, void *rbuf, size_t rcount,
                                  struct tern_datatype *dt, struct tern_op *op);
tern_nbc_all_reduce_fn tern_nbc_scan;
tern_nbc_all_reduce_fn tern_nbc_exscan;

#endif
