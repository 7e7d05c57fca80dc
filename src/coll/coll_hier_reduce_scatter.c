/* Reduce_scatter and reduce_scatter_block by host, as schedules (their
 * blocking forms run them: sched_blocking.c).
 *
 * Each host reduces the whole vector into its leader in shared memory, the
 * leaders reduce_scatter it among themselves by host (each host's part is
 * the parts of its ranks), and each leader scatters its host's part over
 * its host: the vector crosses the network once per host instead of once
 * per rank.  A host's part is one piece of the vector only when every
 * host's ranks follow one another in the communicator; elsewhere the flat
 * algorithm runs.  The reductions reorder the operands by host:
 * commutative operations only (select.c). */
#include <limits.h>
#include <mpi.h>

#include "coll/algos.h"
#include "coll/coll_hier.h"
#include "coll/coll_hier_parts.h"
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/sched.h"
#include "core/objects.h"
#include "datatype/datatype.h"

/* Both forms; 1 when the hosts' parts cannot be cut (ranks of hosts
 * interleaved, or a host's part beyond an int), for the caller's flat
 * algorithm. */
static int rs_hier(struct tern_sched *s, const void *sbuf, void *rbuf, const int *rcounts,
                   size_t rcount, struct tern_datatype *dt, struct tern_op *op, int *rc)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int me = c->rank, mine = h->leader_of[me], nh = h->nhosts;
    if (!h->consecutive) return 1;
    int first = h->lead_rank[mine], nn = h->nn_of[mine];
    /* Every host's part (the leaders' counts), then this host's ranks'
     * counts and offsets in it (the scatter's). */
    int *parts = tern_sched_buf(s, ((size_t)nh + 2 * (size_t)nn) * sizeof *parts);
    if (!parts) {
        *rc = tern_sched_round(s);
        return 0;
    }
    size_t total = 0;
    for (int l = 0; l < nh; l++) {
        size_t part = 0;
        for (int r = h->lead_rank[l]; r < h->lead_rank[l] + h->nn_of[l]; r++)
            part += tern_coll_block_count(rcounts, rcount, r);
        if (part > INT_MAX) return 1;
        parts[l] = (int)part;
        total += part;
    }
    int *node_counts = parts + nh, *node_displs = node_counts + nn;
    for (int i = 0, at = 0; i < nn; at += node_counts[i++]) {
        node_counts[i] = (int)tern_coll_block_count(rcounts, rcount, first + i);
        node_displs[i] = at;
    }
    *rc = MPI_SUCCESS;
    if (total == 0) return 0;
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf;
    void *acc = NULL;
    if (h->leaders && !(acc = tern_sched_tmp(s, dt, total))) {
        *rc = tern_sched_round(s);
        return 0;
    }
    tern_sched_over(s, h->node);
    *rc = tern_nbc_reduce(s, sbuf, acc, total, dt, op, 0);
    if (h->leaders) {
        *rc = tern_coll_hier_phase(s, *rc, h->leaders);
        if (*rc == MPI_SUCCESS) *rc = tern_nbc_reduce_scatter(s, MPI_IN_PLACE, acc, parts, dt, op);
    }
    *rc = tern_coll_hier_phase(s, *rc, h->node);
    if (*rc == MPI_SUCCESS) {
        if (rcounts)
            *rc = tern_nbc_scatterv(s, acc, node_counts, node_displs, dt, rbuf, (size_t)rcounts[me],
                                    dt, 0);
        else
            *rc = tern_nbc_scatter(s, acc, rcount, dt, rbuf, rcount, dt, 0);
    }
    *rc = tern_coll_hier_phase(s, *rc, c);
    return 0;
}

int tern_nbc_reduce_scatter_hier(struct tern_sched *s, const void *sbuf, void *rbuf,
                                 const int *rcounts, struct tern_datatype *dt, struct tern_op *op)
{
    int rc;
    if (rs_hier(s, sbuf, rbuf, rcounts, 0, dt, op, &rc))
        return tern_nbc_reduce_scatter_direct(s, sbuf, rbuf, rcounts, dt, op);
    return rc;
}

int tern_nbc_reduce_scatter_block_hier(struct tern_sched *s, const void *sbuf, void *rbuf,
                                       size_t rcount, struct tern_datatype *dt, struct tern_op *op)
{
    int rc;
    if (rs_hier(s, sbuf, rbuf, NULL, rcount, dt, op, &rc))
        return tern_nbc_reduce_scatter_block_direct(s, sbuf, rbuf, rcount, dt, op);
    return rc;
}
