/* Communicator construction (src/comm/): the constructors that agree
 * context ids with messages and run collectives, above coll/.  The entry
 * points of api/comm*.c and api/topo_*.c call them. */
#ifndef TERN_COMM_COMM_H
#define TERN_COMM_COMM_H

#include <stdint.h>

#include "core/comm_ctx.h"
#include "core/objects.h"

/* Where a context-id agreement reaches beyond its own participants: the
 * leader (participant 0) swaps its value with 'rank' of 'comm' (collective
 * context, 'tag'), so two disjoint groups end up with the same id. */
struct tern_ctx_peer {
    struct tern_comm *comm;
    int rank, tag;
    /* Where the other side is not reachable by messages yet (another
     * job, through a socket: comm/dyn_connect.c), the leader's exchange
     * of a round's two values: sends mine, fills theirs. */
    void (*swap)(void *arg, const uint32_t mine[2], uint32_t theirs[2]);
    void *arg;
};

/* The context id agreed among n participants of 'parent' (the
 * parent ranks prank[0..n), or ranks 0..n-1 when prank is NULL; this process
 * is number 'me'), exchanged with 'peer' when not NULL: a binomial reduction
 * to participant 0, then a binomial broadcast, with 'tag' on the parent's
 * collective context, in rounds until every offer is the same.  Keeps ids
 * [*out, *out + nids) in this process. */
int tern_ctx_agree(struct tern_comm *parent, int n, const int *prank, int me, int tag,
                   const struct tern_ctx_peer *peer, int nids, uint32_t *out);

/* Communicator construction shared by dup/split/create: builds a comm over
 * 'group' (taking a reference) with a fresh context id agreed over 'parent'.
 * Collective over parent; members not in group pass group == NULL and get
 * *out = NULL. */
int tern_comm_create_from(struct tern_comm *parent, struct tern_group *group,
                          struct tern_comm **out);
/* MPI_Comm_create_group: collective over the members of 'group' only (a
 * subset of parent's group); the context id is agreed with point-to-point
 * messages carrying 'tag' on parent's collective context.  Callers outside
 * group get *out = NULL. */
int tern_comm_create_group(struct tern_comm *parent, struct tern_group *group, int tag,
                           struct tern_comm **out);

/* MPI_Comm_idup's first half: *nc, a communicator like c (a handle, the
 * same groups and handler; no attributes, topology or hints yet) whose
 * context ids the progress engine agrees in the background, and *req, the
 * request that completes when they are agreed (then *nc is usable; an
 * error of the agreement is the request's).  Errors of the call itself
 * are raised on c. */
struct tern_request;
int tern_comm_idup_start(struct tern_comm *c, const char *fn, struct tern_comm **nc,
                         struct tern_request **req);

/* An intercommunicator (with a handle) over local and remote groups on
 * context ids ctx, ctx+1; its local intracommunicator gets ctx+2, ctx+3, so
 * intercommunicators reserve 4 ids. */
#define TERN_INTER_CTX_IDS 4
int tern_intercomm_build(struct tern_errhandler *errh, struct tern_group *local,
                         struct tern_group *remote, uint32_t ctx, struct tern_comm **out);

/* Intercommunicator constructors (collective; arguments checked).  *out is
 * NULL for processes that get MPI_COMM_NULL. */
int tern_intercomm_create(struct tern_comm *local, int local_leader, struct tern_comm *peer,
                          int remote_leader, int tag, struct tern_comm **out);
int tern_intercomm_dup(struct tern_comm *c, struct tern_comm **out);
int tern_intercomm_merge(struct tern_comm *c, int high, struct tern_comm **out);
int tern_intercomm_split(struct tern_comm *c, int color, int key, struct tern_comm **out);
/* MPI_Comm_create on an intercommunicator: g is this side's new local group. */
int tern_intercomm_subset(struct tern_comm *c, struct tern_group *g, struct tern_comm **out);

/* Which of two disjoint groups counts as the lower (merge ties, and the
 * order of the two sides wherever both must agree on one): the one whose
 * rank 0 has the lower world rank, as MPICH orders a tied merge. */
int tern_groups_low(const struct tern_group *a, const struct tern_group *b);
int tern_inter_is_low(const struct tern_comm *c);
/* 1 (and *who, a world rank in both) when a and b share a member. */
int tern_groups_overlap(const struct tern_group *a, const struct tern_group *b, int *who);

/* The group MPI_Comm_split gives the members of 'color': from pairs[2i] =
 * colour and pairs[2i+1] = key of rank i (n ranks), those of that colour
 * ordered by key then rank, as world ranks through world[].  NULL when out
 * of memory; an empty group when nobody has the colour. */
struct tern_group *tern_split_group(const int *pairs, int n, const int *world, int color);

/* MPI_Comm_split of intra- and intercommunicators (collective; *out NULL
 * for MPI_UNDEFINED and, on intercommunicators, colours the other side lacks). */
int tern_comm_split(struct tern_comm *c, int color, int key, struct tern_comm **out);

/* MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups: the
 * context id is agreed over MPI_COMM_WORLD's collective context (every
 * group member is a world rank) with a tag made from the string tag.
 * Collective over the members (both groups); errh goes on the result.
 * Non-members of g get *out = NULL. */
int tern_comm_from_group(struct tern_group *g, const char *stringtag, struct tern_errhandler *errh,
                         struct tern_comm **out);
int tern_intercomm_from_groups(struct tern_group *local, struct tern_group *remote,
                               const char *stringtag, struct tern_errhandler *errh,
                               struct tern_comm **out);

/* MPI_Comm_split_type colours.  HW_GUIDED: the instance of resource 'type'
 * (hwloc names: "NUMANode", "Package", "L3Cache", "Core", "PU"...; also
 * "mpi_shared_memory") holding this process, MPI_UNDEFINED when the type is
 * unknown or the process may run on CPUs of several instances.
 * HW_UNGUIDED (collective over c's local group): the coarsest level that
 * splits the group, and its name in *type (NULL with no colour).
 * tern_hw_type_name: the library's own copy of a known resource name (to
 * keep on a communicator), NULL for an unknown one. */
int tern_hw_color(const char *type, int *color);
/* The instance of resource 'type' holding this process as its host numbers
 * it (MPI_Get_hw_resource_info), MPI_UNDEFINED as for tern_hw_color. */
int tern_hw_instance(const char *type);
/* This process's host, the colour of MPI_COMM_TYPE_SHARED. */
int tern_host_color(void);
int tern_hw_unguided_color(struct tern_comm *c, int *color, const char **type);
const char *tern_hw_type_name(const char *type);

/* ---- Process topologies (topo_comm.c, dist_graph.c) ---- */
struct tern_topo;

/* Builds a communicator over group g (NULL at processes outside it, which
 * get *out = NULL) and gives it topology t.  Collective over parent; a
 * process that failed locally passes g = NULL so the others do not hang.
 * t is freed wherever it is not attached, on failure too; t == NULL at a
 * member means out of memory.  finish(t, rank), if not NULL, completes t for
 * the new rank before it is attached. */
int tern_topo_comm_build(struct tern_comm *parent, struct tern_group *g, struct tern_topo *t,
                         int (*finish)(struct tern_topo *t, int rank), struct tern_comm **out);
/* The same over the first 'members' ranks of parent (all when members ==
 * parent->size): grid and graph ranks are the old ranks. */
int tern_topo_comm_create(struct tern_comm *parent, int members, struct tern_topo *t,
                          int (*finish)(struct tern_topo *t, int rank), struct tern_comm **out);

/* MPI_Dist_graph_create's edge exchange: from the n sources with their
 * degrees and destinations (and weights, or NULL) given at each process,
 * fills t's in/out lists (and weights) for this process.  Collective over c. */
int tern_dist_graph_gather(struct tern_comm *c, int n, const int *sources, const int *degrees,
                           const int *dests, const int *weights, struct tern_topo *t);

#endif
