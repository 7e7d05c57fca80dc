/* The host parts of a communicator that spans hosts, shared by the
 * hierarchical algorithms (coll_hier.c, coll_hier_rooted.c,
 * coll_hier_reduce_scatter.c); private to src/coll. */
#ifndef TERN_COLL_COLL_HIER_PARTS_H
#define TERN_COLL_COLL_HIER_PARTS_H

#include <stddef.h>

struct tern_comm;
struct tern_sched;

struct tern_coll_hier {
    struct tern_comm *node;    /* this host's ranks of c */
    struct tern_comm *leaders; /* one rank per host; NULL on the ranks that lead none */
    int nhosts;                /* hosts of c, numbered in the order of their leaders */
    /* One allocation of 4 x c's size ints: */
    int *leader_of; /* rank of c -> its host's number (its leader's rank among the leaders) */
    int *node_rank; /* rank of c -> its rank in its host's node part */
    int *lead_rank; /* host -> its leader's rank in c (the host's first rank) */
    int *nn_of;     /* host -> its number of ranks */
    /* Every host's ranks follow one another in c (host l's are lead_rank[l]
     * to lead_rank[l] + nn_of[l] - 1): a vector laid out by rank is then
     * laid out by host too. */
    int consecutive;
};

/* c's parts, made at its first hierarchical collective (no message). */
struct tern_coll_hier *tern_coll_hier_of(struct tern_comm *c);

/* Blocks of 'blk' bytes, one per rank of c, laid out by host (hosts in
 * their order, each host's ranks in node order): the bytes and offset of
 * each host's (counts and displs, h->nhosts each), and where rank r's is. */
void tern_coll_hier_layout(const struct tern_coll_hier *h, size_t blk, int *counts, int *displs);
static inline size_t tern_coll_hier_at(const struct tern_coll_hier *h, const int *displs, int r,
                                       size_t blk)
{
    return (size_t)displs[h->leader_of[r]] + (size_t)h->node_rank[r] * blk;
}

/* For schedules: ends the round of the phase before (a builder may leave
 * its last send or receive in an open round, and the next phase must not
 * start before it completes), then adds the next steps over 'part': a
 * host part, or the communicator the builder was given (tern_sched_comm
 * when it began: an intercommunicator's local one in its local phases, so
 * never NULL, which would mean the intercommunicator).  Returns rc, or the
 * round's error. */
int tern_coll_hier_phase(struct tern_sched *s, int rc, struct tern_comm *part);

#endif
