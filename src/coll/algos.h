/* The algorithms of the collectives, private to src/coll: what the tables
 * of select.c point at.  Each has the signature of its collective's entry
 * point (coll/coll.h for the blocking ones, coll/nbc.h for the schedule
 * builders) and is named tern_coll_<collective>_<algorithm> or
 * tern_nbc_<collective>_<algorithm>.  An algorithm assumes the conditions
 * of its table entry hold; the checks of the arguments are done. */
#ifndef TERN_COLL_ALGOS_H
#define TERN_COLL_ALGOS_H

#include <stddef.h>

#include "coll/nbc.h"

struct tern_comm;
struct tern_datatype;
struct tern_op;
struct tern_sched;

/* ---- The shapes of the collectives ---- */

typedef int tern_coll_barrier_fn(struct tern_comm *c);
typedef int tern_coll_bcast_fn(void *buf, size_t count, struct tern_datatype *dt, int root,
                               struct tern_comm *c);
/* gather and scatter */
typedef int tern_coll_rooted_fn(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                void *rbuf, size_t rcount, struct tern_datatype *rdt, int root,
                                struct tern_comm *c);
typedef int tern_coll_gatherv_fn(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                 void *rbuf, const int *rcounts, const int *displs,
                                 struct tern_datatype *rdt, int root, struct tern_comm *c);
typedef int tern_coll_scatterv_fn(const void *sbuf, const int *scounts, const int *displs,
                                  struct tern_datatype *sdt, void *rbuf, size_t rcount,
                                  struct tern_datatype *rdt, int root, struct tern_comm *c);
/* allgather and alltoall */
typedef int tern_coll_all_block_fn(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                   void *rbuf, size_t rcount, struct tern_datatype *rdt,
                                   struct tern_comm *c);
typedef int tern_coll_allgatherv_fn(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                    void *rbuf, const int *rcounts, const int *displs,
                                    struct tern_datatype *rdt, struct tern_comm *c);
typedef int tern_coll_alltoallv_fn(const void *sbuf, const int *scounts, const int *sdispls,
                                   struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                                   const int *rdispls, struct tern_datatype *rdt,
                                   struct tern_comm *c);
typedef int tern_coll_alltoallw_fn(const void *sbuf, const int *scounts, const int *sdispls,
                                   struct tern_datatype *const *sdts, void *rbuf,
                                   const int *rcounts, const int *rdispls,
                                   struct tern_datatype *const *rdts, struct tern_comm *c);
typedef int tern_coll_reduce_fn(const void *sbuf, void *rbuf, size_t count,
                                struct tern_datatype *dt, struct tern_op *op, int root,
                                struct tern_comm *c);
/* allreduce, scan and exscan */
typedef int tern_coll_all_reduce_fn(const void *sbuf, void *rbuf, size_t count,
                                    struct tern_datatype *dt, struct tern_op *op,
                                    struct tern_comm *c);
typedef int tern_coll_reduce_scatter_fn(const void *sbuf, void *rbuf, const int *rcounts,
                                        struct tern_datatype *dt, struct tern_op *op,
                                        struct tern_comm *c);
typedef int tern_coll_reduce_scatter_block_fn(const void *sbuf, void *rbuf, size_t rcount,
                                              struct tern_datatype *dt, struct tern_op *op,
                                              struct tern_comm *c);

typedef int tern_nbc_barrier_fn(struct tern_sched *s);
typedef int tern_nbc_bcast_fn(struct tern_sched *s, void *buf, size_t count,
                              struct tern_datatype *dt, int root);
typedef int tern_nbc_rooted_fn(struct tern_sched *s, const void *sbuf, size_t scount,
                               struct tern_datatype *sdt, void *rbuf, size_t rcount,
                               struct tern_datatype *rdt, int root);
typedef int tern_nbc_gatherv_fn(struct tern_sched *s, const void *sbuf, size_t scount,
                                struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                                const int *displs, struct tern_datatype *rdt, int root);
typedef int tern_nbc_scatterv_fn(struct tern_sched *s, const void *sbuf, const int *scounts,
                                 const int *displs, struct tern_datatype *sdt, void *rbuf,
                                 size_t rcount, struct tern_datatype *rdt, int root);
typedef int tern_nbc_allgatherv_fn(struct tern_sched *s, const void *sbuf, size_t scount,
                                   struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                                   const int *displs, struct tern_datatype *rdt);
typedef int tern_nbc_alltoallv_fn(struct tern_sched *s, const void *sbuf, const int *scounts,
                                  const int *sdispls, struct tern_datatype *sdt, void *rbuf,
                                  const int *rcounts, const int *rdispls,
                                  struct tern_datatype *rdt);
typedef int tern_nbc_alltoallw_fn(struct tern_sched *s, const void *sbuf, const int *scounts,
                                  const int *sdispls, struct tern_datatype *const *sdts, void *rbuf,
                                  const int *rcounts, const int *rdispls,
                                  struct tern_datatype *const *rdts);
typedef int tern_nbc_reduce_fn(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                               struct tern_datatype *dt, struct tern_op *op, int root);
typedef int tern_nbc_reduce_scatter_fn(struct tern_sched *s, const void *sbuf, void *rbuf,
                                       const int *rcounts, struct tern_datatype *dt,
                                       struct tern_op *op);
typedef int tern_nbc_reduce_scatter_block_fn(struct tern_sched *s, const void *sbuf, void *rbuf,
                                             size_t rcount, struct tern_datatype *dt,
                                             struct tern_op *op);
/* tern_nbc_all_block_fn and tern_nbc_all_reduce_fn: coll/nbc.h */

/* ---- Blocking, intracommunicators (barrier.c, bcast.c, ...) ---- */

tern_coll_barrier_fn tern_coll_barrier_dissemination;
tern_coll_bcast_fn tern_coll_bcast_binomial;
/* The binomial broadcast up to its sends, which it leaves in flight in
 * reqs (at most TERN_COLL_BINOMIAL_SENDS) for the caller to wait on: a
 * broadcast by host overlaps them with the host's own. */
#define TERN_COLL_BINOMIAL_SENDS 32
struct tern_request;
int tern_coll_bcast_binomial_start(void *buf, size_t count, struct tern_datatype *dt, int root,
                                   struct tern_comm *c, struct tern_request **reqs, int *nreq);
tern_coll_rooted_fn tern_coll_gather_binomial;
tern_coll_rooted_fn tern_coll_scatter_binomial;
tern_coll_all_block_fn tern_coll_allgather_bruck, tern_coll_allgather_ring;
tern_coll_allgatherv_fn tern_coll_allgatherv_bruck, tern_coll_allgatherv_ring;
tern_coll_all_block_fn tern_coll_alltoall_bruck, tern_coll_alltoall_pairwise;
tern_coll_alltoallv_fn tern_coll_alltoallv_pairwise;
tern_coll_alltoallw_fn tern_coll_alltoallw_pairwise;
tern_coll_reduce_fn tern_coll_reduce_binomial;
tern_coll_all_reduce_fn tern_coll_allreduce_recursive_doubling;
tern_coll_reduce_scatter_fn tern_coll_reduce_scatter_pairwise,
    tern_coll_reduce_scatter_reduce_scatterv;
tern_coll_reduce_scatter_block_fn tern_coll_reduce_scatter_block_pairwise,
    tern_coll_reduce_scatter_block_reduce_scatterv;
tern_coll_all_reduce_fn tern_coll_scan_recursive_doubling, tern_coll_exscan_recursive_doubling;

/* ---- Blocking, intracommunicators whose ranks share this host: through
 * shared memory (shm_coll.c) ---- */

tern_coll_barrier_fn tern_coll_barrier_shm;
tern_coll_bcast_fn tern_coll_bcast_shm;
tern_coll_rooted_fn tern_coll_gather_shm, tern_coll_scatter_shm;
tern_coll_all_block_fn tern_coll_allgather_shm;
tern_coll_reduce_fn tern_coll_reduce_shm;
tern_coll_all_reduce_fn tern_coll_allreduce_shm;

/* shm_coll_v.c */
tern_coll_all_block_fn tern_coll_alltoall_shm;
tern_coll_gatherv_fn tern_coll_gatherv_shm;
tern_coll_scatterv_fn tern_coll_scatterv_shm;
tern_coll_allgatherv_fn tern_coll_allgatherv_shm;
tern_coll_alltoallv_fn tern_coll_alltoallv_shm;
tern_coll_alltoallw_fn tern_coll_alltoallw_shm;

/* shm_coll_scan.c */
tern_coll_reduce_scatter_fn tern_coll_reduce_scatter_shm;
tern_coll_reduce_scatter_block_fn tern_coll_reduce_scatter_block_shm;
tern_coll_all_reduce_fn tern_coll_scan_shm, tern_coll_exscan_shm;

/* shm_coll_partition.c */
tern_coll_all_reduce_fn tern_coll_allreduce_shm_partition;
tern_coll_reduce_scatter_fn tern_coll_reduce_scatter_shm_partition;
tern_coll_reduce_scatter_block_fn tern_coll_reduce_scatter_block_shm_partition;

/* ---- Blocking, running a schedule to completion (sched_blocking.c):
 * the intercommunicator algorithms, the linear ones and alltoall's
 * exchange ---- */

tern_coll_barrier_fn tern_coll_barrier_inter_leader;
tern_coll_bcast_fn tern_coll_bcast_inter_leader;
tern_coll_rooted_fn tern_coll_gather_inter_leader;
tern_coll_gatherv_fn tern_coll_gatherv_inter_direct;
tern_coll_rooted_fn tern_coll_scatter_inter_leader;
tern_coll_scatterv_fn tern_coll_scatterv_inter_direct;
tern_coll_all_block_fn tern_coll_allgather_inter_leader;
tern_coll_allgatherv_fn tern_coll_allgatherv_inter_leader;
tern_coll_bcast_fn tern_coll_bcast_linear;
tern_coll_rooted_fn tern_coll_gather_linear, tern_coll_scatter_linear;
tern_coll_gatherv_fn tern_coll_gatherv_linear;
tern_coll_scatterv_fn tern_coll_scatterv_linear;
tern_coll_all_block_fn tern_coll_allgather_linear;
tern_coll_allgatherv_fn tern_coll_allgatherv_linear;
tern_coll_all_block_fn tern_coll_alltoall_exchange;
tern_coll_alltoallv_fn tern_coll_alltoallv_exchange;
tern_coll_alltoallw_fn tern_coll_alltoallw_exchange;
tern_coll_reduce_fn tern_coll_reduce_inter_leader;
tern_coll_all_reduce_fn tern_coll_allreduce_inter_leader;
tern_coll_reduce_scatter_fn tern_coll_reduce_scatter_inter_leader;
tern_coll_reduce_scatter_block_fn tern_coll_reduce_scatter_block_inter_leader;

/* ---- Schedules, intracommunicators (nbc_all.c, nbc_rooted.c,
 * nbc_reduce.c); alltoall's exchange serves both kinds ---- */

tern_nbc_barrier_fn tern_nbc_barrier_dissemination;
tern_nbc_bcast_fn tern_nbc_bcast_binomial, tern_nbc_bcast_linear;
tern_nbc_rooted_fn tern_nbc_gather_binomial, tern_nbc_gather_linear;
tern_nbc_gatherv_fn tern_nbc_gatherv_linear;
tern_nbc_rooted_fn tern_nbc_scatter_binomial, tern_nbc_scatter_linear;
tern_nbc_scatterv_fn tern_nbc_scatterv_linear;
tern_nbc_all_block_fn tern_nbc_allgather_bruck, tern_nbc_allgather_ring, tern_nbc_allgather_linear;
tern_nbc_allgatherv_fn tern_nbc_allgatherv_ring, tern_nbc_allgatherv_linear;
tern_nbc_all_block_fn tern_nbc_alltoall_exchange;
tern_nbc_alltoallv_fn tern_nbc_alltoallv_exchange;
tern_nbc_alltoallw_fn tern_nbc_alltoallw_exchange;
tern_nbc_reduce_fn tern_nbc_reduce_binomial;
tern_nbc_all_reduce_fn tern_nbc_allreduce_recursive_doubling;
tern_nbc_reduce_scatter_fn tern_nbc_reduce_scatter_direct;
tern_nbc_reduce_scatter_block_fn tern_nbc_reduce_scatter_block_direct;
tern_nbc_all_reduce_fn tern_nbc_scan_recursive_doubling, tern_nbc_exscan_recursive_doubling;

/* ---- Schedules, intracommunicators whose ranks share this host: through
 * shared memory (shm_nbc.c) ---- */

tern_nbc_barrier_fn tern_nbc_barrier_shm;
tern_nbc_bcast_fn tern_nbc_bcast_shm;
tern_nbc_rooted_fn tern_nbc_gather_shm, tern_nbc_scatter_shm;
tern_nbc_gatherv_fn tern_nbc_gatherv_shm;
tern_nbc_scatterv_fn tern_nbc_scatterv_shm;
tern_nbc_all_block_fn tern_nbc_allgather_shm, tern_nbc_alltoall_shm;
tern_nbc_alltoallv_fn tern_nbc_alltoallv_shm;
tern_nbc_alltoallw_fn tern_nbc_alltoallw_shm;
tern_nbc_allgatherv_fn tern_nbc_allgatherv_shm;
tern_nbc_reduce_fn tern_nbc_reduce_shm;
tern_nbc_all_reduce_fn tern_nbc_allreduce_shm, tern_nbc_allreduce_shm_partition;
tern_nbc_reduce_scatter_fn tern_nbc_reduce_scatter_shm;
tern_nbc_reduce_scatter_block_fn tern_nbc_reduce_scatter_block_shm;
tern_nbc_all_reduce_fn tern_nbc_scan_shm, tern_nbc_exscan_shm;

/* ---- Schedules, intercommunicators: coll/nbc_inter.h, and these two
 * (nbc_reduce.c) in the reduce_scatter shapes ---- */

tern_nbc_reduce_scatter_fn tern_nbc_reduce_scatter_inter_leader;
tern_nbc_reduce_scatter_block_fn tern_nbc_reduce_scatter_block_inter_leader;

#endif
