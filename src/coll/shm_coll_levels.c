/* The shared-memory collectives over a level of the machine (shm_coll.h
 * has the area's rules).  Flat, every rank reads the flag line of every
 * other and a root's slot is read by all: when the ranks lie in several L3
 * caches or NUMA nodes, most of those lines cross between them.  Grouped
 * by the instance of a level each rank lies in (topo/hw.h, as each rank
 * published it in the node segment at start-up), a group's highest rank
 * is its leader and does the crossing for it, as Open MPI's xhc does:
 *
 *   barrier    a leader posts its flag once its group's flags are there;
 *              every rank then waits for the leaders' flags only;
 *   bcast      the root's group reads the root's slot; each other leader
 *              copies it into its own slot and posts, and its group reads
 *              that;
 *   reduce and allreduce
 *              a leader combines its group's slots into its own (from its
 *              highest rank down, so rank order holds when the groups are
 *              ranges of consecutive ranks) and posts; the root, or every
 *              rank, combines the leaders' slots in group order.
 *
 * A leader posts its flag later than the flat algorithm would, never
 * earlier: a flag at s still says its rank is done with everything before
 * s, so the slot parities' rule (tern_shmc_may_write) holds unchanged. */
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "coll/shm_coll.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/pvars.h"
#include "topo/hw.h"
#include "transport/shm/shm.h"

struct tern_shmc_groups {
    int n;          /* groups, ordered by their lowest rank */
    int contiguous; /* each group is a range of consecutive ranks */
    int *group;     /* per rank */
    int *leader;    /* per group: its highest rank */
    int *start;     /* per group: where its ranks begin in 'members' (n + 1 entries) */
    int *members;   /* the ranks, group by group, each group's in rank order */
};

/* Each rank's instance of level 'kind', or the group SHMCOLL_GROUP makes
 * up in its place (of consecutive ranks, or dealt round-robin as ranks
 * bound in turn to a level's instances); 0 when some rank's is unknown. */
static int ids_of(const struct tern_comm *c, int kind, int *id)
{
    int per = (int)tern_param.shmcoll_group, groups = (c->size + per - 1) / (per ? per : 1);
    for (int i = 0; i < c->size; i++) {
        id[i] = !per ? tern_shm_hw_instance(tern_comm_world_rank(c, i), kind)
                : tern_param.shmcoll_group_deal ? i % groups
                                                : i / per;
        if (id[i] < 0) return 0;
    }
    return 1;
}

/* Whether the ids split the ranks in two groups or more, one of them of
 * two ranks or more (else the leaders are everyone, or no one shares). */
static int splits(const int *id, int n)
{
    int distinct = 0, shared = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = id[j] == id[i];
        distinct += !seen;
        shared |= seen;
    }
    return distinct > 1 && shared;
}

/* auto takes a level from this many ranks.  The leaders' step is a cost
 * that only the crossings it saves repay, and below this a flat rank reads
 * few lines; the saving could not be measured on the machine this was
 * built on (one L3), where forced groups of 2 took 1.1-2.7x the flat time
 * at 4 and 8 ranks (docs/comparison/runs/2026-11-27-levels). */
#define AUTO_MIN_RANKS 16

/* The level that groups c's ranks: its ids in id, or 0 for none. */
static int pick_level(const struct tern_comm *c, int *id)
{
    const char *want = tern_param.shmcoll_level;
    if (tern_param.shmcoll_group) return ids_of(c, 0, id) && splits(id, c->size);
    if (!strcmp(want, "none") || (!strcmp(want, "auto") && c->size < AUTO_MIN_RANKS)) return 0;
    static const struct {
        const char *name;
        enum tern_hw_kind kind;
    } levels[] = {{"l3", TERN_HW_L3}, {"numa", TERN_HW_NUMA}, {"package", TERN_HW_PACKAGE}};
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (strcmp(want, "auto") && strcmp(want, levels[l].name)) continue;
        if (ids_of(c, (int)levels[l].kind, id) && splits(id, c->size)) return 1;
    }
    return 0;
}

void tern_shmc_groups_make(struct tern_shmc *a, const struct tern_comm *c)
{
    int n = c->size;
    int *id = malloc((size_t)n * sizeof *id);
    if (!id) tern_fatal("out of memory for the levels of a communicator of %d ranks", n);
    if (!pick_level(c, id)) {
        free(id);
        return;
    }
    struct tern_shmc_groups *g = calloc(1, sizeof *g);
    int *ints = malloc((size_t)(4 * n + 1) * sizeof *ints);
    if (!g || !ints) tern_fatal("out of memory for the levels of a communicator of %d ranks", n);
    g->group = ints;
    g->leader = ints + n;
    g->start = ints + 2 * n;
    g->members = ints + 3 * n + 1;
    /* Groups numbered in the order of their lowest ranks. */
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < i && id[j] != id[i]) j++;
        g->group[i] = j < i ? g->group[j] : g->n++;
    }
    int at = 0;
    g->contiguous = 1;
    for (int k = 0; k < g->n; k++) {
        g->start[k] = at;
        for (int i = 0; i < n; i++)
            if (g->group[i] == k) {
                if (at > g->start[k] && g->members[at - 1] != i - 1) g->contiguous = 0;
                g->members[at++] = i;
                g->leader[k] = i;
            }
    }
    g->start[g->n] = at;
    free(id);
    a->groups = g;
}

void tern_shmc_groups_free(struct tern_shmc *a)
{
    if (!a->groups) return;
    free(a->groups->group);
    free(a->groups);
    a->groups = NULL;
}

static void wait_leaders(struct tern_shmc *a, uint64_t s)
{
    const struct tern_shmc_groups *g = a->groups;
    for (int k = 0; k < g->n; k++) tern_shmc_wait(a, g->leader[k], s);
    /* Every member posted before its leader did. */
    if (s > a->all_past) a->all_past = s;
}

void tern_shmc_barrier_levels(struct tern_shmc *a, int r)
{
    const struct tern_shmc_groups *g = a->groups;
    uint64_t s = tern_shmc_next(a);
    tern_pv.shmcoll_level_calls++;
    int k = g->group[r];
    if (g->leader[k] == r) /* the last of its group */
        for (int i = g->start[k]; i < g->start[k + 1] - 1; i++) tern_shmc_wait(a, g->members[i], s);
    tern_shmc_post(a, s);
    wait_leaders(a, s);
}

void tern_shmc_bcast_levels(struct tern_shmc *a, int r, void *buf, size_t count,
                            struct tern_datatype *dt, int root)
{
    const struct tern_shmc_groups *g = a->groups;
    uint64_t s = tern_shmc_next(a);
    tern_pv.shmcoll_level_calls++;
    if (r == root) {
        tern_shmc_may_write(a, s);
        tern_shmc_put(tern_shmc_slot(a, root, s), buf, count, dt);
        tern_shmc_post(a, s);
        return;
    }
    int k = g->group[r], from = g->leader[k];
    if (k == g->group[root]) {
        from = root;
    } else if (from == r) {
        tern_shmc_wait(a, root, s);
        tern_shmc_may_write(a, s);
        memcpy(tern_shmc_slot(a, r, s), tern_shmc_slot(a, root, s), count * dt->size);
    }
    tern_shmc_post(a, s);
    tern_shmc_wait(a, from, s);
    tern_shmc_unpack(tern_shmc_slot(a, from, s), buf, count, dt);
}

/* in op= over 'count' elements of a contiguous type, between slots. */
static void combine(struct tern_op *op, const char *in, char *inout, size_t count,
                    struct tern_datatype *dt)
{
    tern_op_apply(op, in - dt->true_lb, inout - dt->true_lb, count, dt);
}

int tern_shmc_reduce_levels(struct tern_shmc *a, int r, const void *sbuf, void *rbuf, size_t count,
                            struct tern_datatype *dt, struct tern_op *op, int root)
{
    const struct tern_shmc_groups *g = a->groups;
    if (!op->commutative && !g->contiguous) return -1;
    uint64_t s = tern_shmc_next(a);
    tern_pv.shmcoll_level_calls++;
    const void *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    int k = g->group[r];
    if (g->leader[k] != r) {
        tern_shmc_contribute(a, s, src, count, dt, TERN_SHMC_IN_SLOT);
    } else {
        /* x_first op (... op x_leader), the leader being the highest rank */
        char *mine = tern_shmc_slot(a, r, s);
        tern_shmc_may_write(a, s);
        memcpy(mine, (const char *)src + dt->true_lb, count * dt->size);
        for (int i = g->start[k + 1] - 2; i >= g->start[k]; i--) {
            int m = g->members[i];
            tern_shmc_wait(a, m, s);
            combine(op, tern_shmc_slot(a, m, s), mine, count, dt);
        }
        tern_shmc_post(a, s);
    }
    if (root >= 0 && r != root) return MPI_SUCCESS;
    wait_leaders(a, s);
    memcpy((char *)rbuf + dt->true_lb, tern_shmc_slot(a, g->leader[g->n - 1], s), count * dt->size);
    for (int h = g->n - 2; h >= 0; h--)
        tern_op_apply(op, tern_shmc_slot(a, g->leader[h], s) - dt->true_lb, rbuf, count, dt);
    return MPI_SUCCESS;
}
