/* Collectives that follow the hosts: on each host in shared memory, between
 * hosts among one leader per host (coll_hier.c). */
#ifndef TERN_COLL_COLL_HIER_H
#define TERN_COLL_COLL_HIER_H

#include "coll/algos.h"

struct tern_comm;

/* Whether the hierarchical algorithms can serve c: an intracommunicator of
 * this job whose ranks span two hosts or more, with two ranks or more on
 * some host (otherwise there is no level to split).  Every rank of c gets
 * the same answer. */
int tern_coll_hier_usable(const struct tern_comm *c);

tern_coll_barrier_fn tern_coll_barrier_hier;
tern_coll_bcast_fn tern_coll_bcast_hier;
tern_coll_reduce_fn tern_coll_reduce_hier;
tern_coll_all_reduce_fn tern_coll_allreduce_hier;
tern_coll_all_block_fn tern_coll_allgather_hier;
tern_coll_all_block_fn tern_coll_alltoall_hier;
/* Run as schedules (sched_blocking.c): */
tern_coll_rooted_fn tern_coll_gather_hier, tern_coll_scatter_hier;
tern_coll_reduce_scatter_fn tern_coll_reduce_scatter_hier;
tern_coll_reduce_scatter_block_fn tern_coll_reduce_scatter_block_hier;
tern_coll_all_reduce_fn tern_coll_scan_hier, tern_coll_exscan_hier;
tern_coll_allgatherv_fn tern_coll_allgatherv_hier;

/* The same as schedules (nonblocking and persistent forms): each part's
 * phase added over that part (tern_sched_over), in rounds one after the
 * other. */
tern_nbc_barrier_fn tern_nbc_barrier_hier;
tern_nbc_bcast_fn tern_nbc_bcast_hier;
tern_nbc_reduce_fn tern_nbc_reduce_hier;
tern_nbc_all_reduce_fn tern_nbc_allreduce_hier;
tern_nbc_all_block_fn tern_nbc_allgather_hier;
tern_nbc_all_block_fn tern_nbc_alltoall_hier;
tern_nbc_rooted_fn tern_nbc_gather_hier, tern_nbc_scatter_hier; /* coll_hier_rooted.c */
/* coll_hier_reduce_scatter.c: where the hosts' ranks interleave, the flat
 * algorithm ('direct'). */
tern_nbc_reduce_scatter_fn tern_nbc_reduce_scatter_hier;
tern_nbc_reduce_scatter_block_fn tern_nbc_reduce_scatter_block_hier;
/* coll_hier_scan.c: where the hosts' ranks interleave, the flat algorithm
 * (recursive doubling). */
tern_nbc_all_reduce_fn tern_nbc_scan_hier, tern_nbc_exscan_hier;
tern_nbc_allgatherv_fn tern_nbc_allgatherv_hier; /* coll_hier_allgatherv.c */

/* Destruction hook (core/objects.h tern_comm_on_destroy). */
void tern_coll_hier_release(struct tern_comm *c);

#endif
