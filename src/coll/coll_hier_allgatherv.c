/* Allgatherv by host, as a schedule (the blocking form runs it:
 * sched_blocking.c).
 *
 * As the allgather by host (coll_hier.c), with blocks of any size: each
 * host's blocks meet at its leader in shared memory, packed by host into
 * one vector every rank lays out alike (hosts in their order, each host's
 * ranks in node order), the leaders allgatherv the hosts' parts of it in
 * place, each leader broadcasts the whole over its host, and every rank
 * unpacks each block to where its displacement puts it.  Each host's data
 * crosses the network once per other host instead of once per rank. */
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

/* The packed vector's plan, every rank's alike: per host its bytes and
 * offset (the leaders' counts and displacements), per rank its block's
 * offset, and this host's blocks' bytes and offsets within its part (the
 * leader's gatherv). */
struct agv_plan {
    int *host_counts, *host_displs; /* nhosts each */
    int *at;                        /* per rank of c */
    int *node_counts, *node_displs; /* per rank of this host */
    size_t total;
};

/* 0; 1 where a count passes an int (the caller's flat algorithm); -1 out
 * of memory (the error sticks to the schedule). */
static int agv_plan(struct tern_sched *s, struct tern_coll_hier *h, int n, int mine,
                    const int *rcounts, size_t esize, struct agv_plan *p)
{
    int nh = h->nhosts, nn = h->node->size;
    int *ints = tern_sched_buf(s, (2 * (size_t)nh + (size_t)n + 2 * (size_t)nn) * sizeof *ints);
    if (!ints) return -1;
    p->host_counts = ints;
    p->host_displs = ints + nh;
    p->at = p->host_displs + nh;
    p->node_counts = p->at + n;
    p->node_displs = p->node_counts + nn;
    for (int l = 0; l < nh; l++) p->host_counts[l] = 0;
    /* Each block's offset in its host's part (c's order is node order
     * within each host), then in the whole. */
    for (int r = 0; r < n; r++) {
        int l = h->leader_of[r];
        size_t bytes = (size_t)rcounts[r] * esize;
        if ((size_t)p->host_counts[l] + bytes > INT_MAX) return 1;
        p->at[r] = p->host_counts[l];
        p->host_counts[l] += (int)bytes;
        if (l == mine) {
            p->node_counts[h->node_rank[r]] = (int)bytes;
            p->node_displs[h->node_rank[r]] = p->at[r];
        }
    }
    p->total = 0;
    for (int l = 0; l < nh; l++) {
        if (p->total + (size_t)p->host_counts[l] > INT_MAX) return 1;
        p->host_displs[l] = (int)p->total;
        p->total += (size_t)p->host_counts[l];
    }
    for (int r = 0; r < n; r++) p->at[r] += p->host_displs[h->leader_of[r]];
    return 0;
}

int tern_nbc_allgatherv_hier(struct tern_sched *s, const void *sbuf, size_t scount,
                             struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                             const int *displs, struct tern_datatype *rdt)
{
    struct tern_comm *c = tern_sched_comm(s);
    struct tern_coll_hier *h = tern_coll_hier_of(c);
    int n = c->size, me = c->rank, mine = h->leader_of[me];
    struct agv_plan p;
    int how = agv_plan(s, h, n, mine, rcounts, rdt->size, &p);
    if (how > 0) return tern_nbc_allgatherv_ring(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt);
    if (how < 0) return tern_sched_round(s);
    if (p.total == 0) return MPI_SUCCESS;
    int in_place = sbuf == MPI_IN_PLACE;
    if (in_place) {
        sbuf = tern_coll_elem(rbuf, rdt, displs[me]);
        scount = (size_t)rcounts[me];
        sdt = rdt;
    }
    char *pack = tern_sched_buf(s, p.total);
    if (!pack) return tern_sched_round(s);
    struct tern_datatype *bt = tern_coll_byte();

    tern_sched_over(s, h->node);
    int rc = tern_nbc_gatherv(s, sbuf, scount, sdt, pack + p.host_displs[mine], p.node_counts,
                              p.node_displs, bt, 0);
    if (h->leaders) {
        rc = tern_coll_hier_phase(s, rc, h->leaders);
        if (rc == MPI_SUCCESS)
            rc =
                tern_nbc_allgatherv(s, MPI_IN_PLACE, 0, bt, pack, p.host_counts, p.host_displs, bt);
    }
    rc = tern_coll_hier_phase(s, rc, h->node);
    if (rc == MPI_SUCCESS) rc = tern_nbc_bcast(s, pack, p.total, bt, 0);
    rc = tern_coll_hier_phase(s, rc, h->node);
    for (int r = 0; r < n && rc == MPI_SUCCESS; r++)
        if (rcounts[r] && !(in_place && r == me))
            rc = tern_sched_copy(s, pack + p.at[r], (size_t)rcounts[r] * rdt->size, bt,
                                 tern_coll_elem(rbuf, rdt, displs[r]), (size_t)rcounts[r], rdt);
    return tern_coll_hier_phase(s, rc, c);
}
