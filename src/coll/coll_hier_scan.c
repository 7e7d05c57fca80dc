/* Scan and exscan by host, as schedules (their blocking forms run them:
 * sched_blocking.c).
 *
 * Where every host's ranks follow one another in the communicator, a
 * prefix over the ranks is a prefix over the hosts before this one, then
 * over this host's ranks: each host takes the prefixes of its ranks in
 * shared memory, its last rank hands the host's total to the leader, the
 * leaders exscan the totals among themselves, and each leader broadcasts
 * over its host what the hosts before it hold, which each of its ranks
 * puts in front of its own prefix.  Rank order is kept, so every operation
 * serves, commutative or not; the vector crosses the network in
 * ceil(log2 hosts) rounds instead of up to ceil(log2 ranks).  Where hosts'
 * ranks interleave, the flat algorithm runs. */
#include <mpi.h>

#include "coll/algos.h"
#include "coll/coll_hier.h"
#include "coll/coll_hier_parts.h"
#include "coll/nbc.h"
#include "coll/sched.h"
#include "core/objects.h"
#include "datatype/datatype.h"

/* Both; 1 when the hosts' ranks interleave, for the caller's flat
 * algorithm. */
static int scan_hier(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                     struct tern_datatype *dt, struct tern_op *op, int exclusive, int *rc)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    if (!h->consecutive) return 1;
    int me = c->rank, host = h->leader_of[me], nn = h->nn_of[host], i = h->node_rank[me];
    int last = i == nn - 1;
    *rc = MPI_SUCCESS;
    if (count * dt->size == 0) return 0;
    /* Scratch: an in-place exscan's last rank keeps its input aside, where
     * the node phase will not overwrite it, to add to its prefix for the
     * host's total (tot, which the leader receives); 'pre' is what the
     * hosts before hold. */
    int keep = exclusive && last && sbuf == MPI_IN_PLACE, has_tot = last || i == 0,
        has_pre = host > 0 || h->leaders;
    void *aside = keep ? tern_sched_tmp(s, dt, count) : NULL;
    void *tot = has_tot ? tern_sched_tmp(s, dt, count) : NULL;
    void *pre = has_pre ? tern_sched_tmp(s, dt, count) : NULL;
    if ((keep && !aside) || (has_tot && !tot) || (has_pre && !pre)) {
        *rc = tern_sched_round(s);
        return 0;
    }
    const void *x = keep ? aside : sbuf;
    if (keep) {
        tern_sched_copy(s, rbuf, count, dt, aside, count, dt);
        *rc = tern_sched_round(s);
    }

    *rc = tern_coll_hier_phase(s, *rc, h->node);
    if (*rc == MPI_SUCCESS)
        *rc = exclusive ? tern_nbc_exscan(s, sbuf, rbuf, count, dt, op)
                        : tern_nbc_scan(s, sbuf, rbuf, count, dt, op);
    *rc = tern_coll_hier_phase(s, *rc, h->node);
    if (*rc != MPI_SUCCESS) return 0;
    /* The host's total: the last rank's prefix (with its own input after
     * it in an exscan), to the leader. */
    if (last) {
        tern_sched_copy(s, exclusive ? x : rbuf, count, dt, tot, count, dt);
        if (exclusive && i > 0) {
            *rc = tern_sched_round(s);
            tern_sched_reduce(s, rbuf, tot, count, dt, op);
        }
        if (nn > 1) {
            *rc = tern_sched_round(s);
            tern_sched_send(s, tot, count, dt, 0);
        }
    } else if (i == 0) {
        tern_sched_recv(s, tot, count, dt, nn - 1);
    }
    if (h->leaders) {
        *rc = tern_coll_hier_phase(s, *rc, h->leaders);
        if (*rc == MPI_SUCCESS) *rc = tern_nbc_exscan(s, tot, pre, count, dt, op);
    }
    if (host > 0) {
        /* What the hosts before hold, in front of each rank's prefix (the
         * whole of it for an exscan's first rank, which has none). */
        *rc = tern_coll_hier_phase(s, *rc, h->node);
        if (*rc == MPI_SUCCESS) *rc = tern_nbc_bcast(s, pre, count, dt, 0);
        *rc = tern_coll_hier_phase(s, *rc, h->node);
        if (*rc != MPI_SUCCESS) return 0;
        if (exclusive && i == 0)
            tern_sched_copy(s, pre, count, dt, rbuf, count, dt);
        else
            tern_sched_reduce(s, pre, rbuf, count, dt, op);
    }
    *rc = tern_coll_hier_phase(s, *rc, c);
    return 0;
}

int tern_nbc_scan_hier(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                       struct tern_datatype *dt, struct tern_op *op)
{
    int rc;
    if (scan_hier(s, sbuf, rbuf, count, dt, op, 0, &rc))
        return tern_nbc_scan_recursive_doubling(s, sbuf, rbuf, count, dt, op);
    return rc;
}

int tern_nbc_exscan_hier(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                         struct tern_datatype *dt, struct tern_op *op)
{
    int rc;
    if (scan_hier(s, sbuf, rbuf, count, dt, op, 1, &rc))
        return tern_nbc_exscan_recursive_doubling(s, sbuf, rbuf, count, dt, op);
    return rc;
}
