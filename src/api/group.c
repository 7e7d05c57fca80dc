/* The bodies of the MPI group procedures: queries, constructors
 * (incl/excl/ranges and the set operations), translation, comparison.
 * Their entry points, with the init test, the lock and the checks of the
 * group handles and result pointers, are generated (src/api/gen/
 * bindings_group.c; see tools/gen/gen_bindings.py).  Groups are lists of
 * world ranks (core/group.c). */
#include <stdlib.h>
#include <string.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"

static int nomem(const char *fn)
{
    return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory", fn);
}

/* process index -> rank in g, or -1; an array of tern_g.nprocs entries. */
static int *world_map(const struct tern_group *g)
{
    int n = tern_g.nprocs > 0 ? tern_g.nprocs : 1;
    int *m = malloc((size_t)n * sizeof(int));
    if (!m) return NULL;
    for (int i = 0; i < n; i++) m[i] = -1;
    for (int i = 0; i < g->size; i++)
        if (g->world[i] >= 0 && g->world[i] < n) m[g->world[i]] = i;
    return m;
}

/* Builds a group from 'n' world ranks and hands it to the user. */
static int make_group(const char *fn, const int *world, int n, MPI_Group *out)
{
    if (n == 0) {
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    struct tern_group *g = tern_group_new(n);
    if (!g) return nomem(fn);
    memcpy(g->world, world, (size_t)n * sizeof(int));
    tern_group_set_rank(g);
    if (tern_group_publish(g, out)) return nomem(fn);
    return MPI_SUCCESS;
}

int tern_api_group_size(const char *fn, struct tern_group *group_o, int *size)
{
    (void)fn;
    *size = group_o->size;
    return MPI_SUCCESS;
}

int tern_api_group_rank(const char *fn, struct tern_group *group_o, int *rank)
{
    (void)fn;
    *rank = group_o->rank;
    return MPI_SUCCESS;
}

/* ranks[0..n) must be distinct ranks of g; marks them in 'seen'. */
static int chk_rank_list(const char *fn, const struct tern_group *g, int n, const int *ranks,
                         char *seen)
{
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size)
            return tern_err_comm(NULL, MPI_ERR_RANK,
                                 "%s: ranks[%d]=%d is not a rank of the group (size %d)", fn, i, r,
                                 g->size);
        if (seen[r])
            return tern_err_comm(NULL, MPI_ERR_RANK, "%s: ranks[%d]=%d appears twice", fn, i, r);
        seen[r] = 1;
    }
    return MPI_SUCCESS;
}

/* The new group of the (range_)incl/excl calls, in w: the members of g not
 * marked in seen (excl), or those at list[0..n) in that order. */
static int pick_members(const char *fn, const struct tern_group *g, const char *seen,
                        const int *list, int n, int excl, int *w, MPI_Group *newgroup)
{
    int m = 0;
    if (excl) {
        for (int i = 0; i < g->size; i++)
            if (!seen[i]) w[m++] = g->world[i];
    } else {
        for (int i = 0; i < n; i++) w[m++] = g->world[list[i]];
    }
    return make_group(fn, w, m, newgroup);
}

static int incl_excl(const char *fn, struct tern_group *g, int n, const int ranks[],
                     MPI_Group *newgroup, int excl)
{
    char *seen = NULL;
    int *w = NULL;
    int rc;
    if (n < 0 || n > g->size) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: n=%d is outside 0..%d (the group's size)", fn, n,
                           g->size);
        goto out;
    }
    if (n > 0) TRY(tern_check_ptr(NULL, ranks, fn, "ranks"));
    seen = calloc((size_t)g->size + 1, 1);
    w = malloc(((size_t)g->size + 1) * sizeof(int));
    if (!seen || !w) {
        rc = nomem(fn);
        goto out;
    }
    TRY(chk_rank_list(fn, g, n, ranks, seen));
    rc = pick_members(fn, g, seen, ranks, n, excl, w, newgroup);
out:
    free(seen);
    free(w);
    return rc;
}

int tern_api_group_incl(const char *fn, struct tern_group *group_o, int n, const int ranks[],
                        MPI_Group *newgroup)
{
    return incl_excl(fn, group_o, n, ranks, newgroup, 0);
}

int tern_api_group_excl(const char *fn, struct tern_group *group_o, int n, const int ranks[],
                        MPI_Group *newgroup)
{
    return incl_excl(fn, group_o, n, ranks, newgroup, 1);
}

/* Expands the triplets into a rank list (at most g->size entries, all
 * distinct, or an error).  A triplet whose stride points away from its
 * last rank (first > last with a positive stride, or first < last with a
 * negative one) is refused rather than read as empty, and every problem
 * is MPI_ERR_ARG, as MPICH does. */
static int expand_ranges(const char *fn, const struct tern_group *g, int n, int ranges[][3],
                         int *list, int *count, char *seen)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0)
            return tern_err_comm(NULL, MPI_ERR_ARG, "%s: ranges[%d] has stride 0", fn, i);
        if (first < 0 || first >= g->size)
            return tern_err_comm(NULL, MPI_ERR_ARG,
                                 "%s: ranges[%d] first=%d is not a rank of the group (size %d)", fn,
                                 i, first, g->size);
        if (last < 0 || last >= g->size)
            return tern_err_comm(NULL, MPI_ERR_ARG,
                                 "%s: ranges[%d] last=%d is not a rank of the group (size %d)", fn,
                                 i, last, g->size);
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            return tern_err_comm(NULL, MPI_ERR_ARG,
                                 "%s: ranges[%d] = (%d, %d, %d) never reaches its last rank: the "
                                 "stride has the wrong sign",
                                 fn, i, first, last, stride);
        for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (seen[r])
                return tern_err_comm(NULL, MPI_ERR_ARG,
                                     "%s: rank %ld appears twice (in ranges[%d])", fn, r, i);
            seen[r] = 1;
            list[m++] = (int)r;
        }
    }
    *count = m;
    return MPI_SUCCESS;
}

static int range_incl_excl(const char *fn, struct tern_group *g, int n, int ranges[][3],
                           MPI_Group *newgroup, int excl)
{
    char *seen = NULL;
    int *list = NULL, *w = NULL;
    int rc, m = 0;
    if (n < 0) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: n=%d is negative", fn, n);
        goto out;
    }
    if (n > 0) TRY(tern_check_ptr(NULL, ranges, fn, "ranges"));
    seen = calloc((size_t)g->size + 1, 1);
    list = malloc(((size_t)g->size + 1) * sizeof(int));
    w = malloc(((size_t)g->size + 1) * sizeof(int));
    if (!seen || !list || !w) {
        rc = nomem(fn);
        goto out;
    }
    TRY(expand_ranges(fn, g, n, ranges, list, &m, seen));
    rc = pick_members(fn, g, seen, list, m, excl, w, newgroup);
out:
    free(seen);
    free(list);
    free(w);
    return rc;
}

int tern_api_group_range_incl(const char *fn, struct tern_group *group_o, int n, int ranges[][3],
                              MPI_Group *newgroup)
{
    return range_incl_excl(fn, group_o, n, ranges, newgroup, 0);
}

int tern_api_group_range_excl(const char *fn, struct tern_group *group_o, int n, int ranges[][3],
                              MPI_Group *newgroup)
{
    return range_incl_excl(fn, group_o, n, ranges, newgroup, 1);
}

enum set_op { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE };

static int set_op(const char *fn, struct tern_group *a, struct tern_group *b, MPI_Group *newgroup,
                  enum set_op what)
{
    int *in_b = NULL, *w = NULL;
    int rc, m = 0;
    in_b = world_map(b);
    w = malloc(((size_t)a->size + (size_t)b->size + 1) * sizeof(int));
    if (!in_b || !w) {
        rc = nomem(fn);
        goto out;
    }
    /* Members of group1 in its order, then (union) those of group2 not in group1. */
    for (int i = 0; i < a->size; i++) {
        int member = in_b[a->world[i]] >= 0;
        if (what == SET_UNION || (what == SET_INTERSECTION) == member) w[m++] = a->world[i];
    }
    if (what == SET_UNION) {
        int *in_a = world_map(a);
        if (!in_a) {
            rc = nomem(fn);
            goto out;
        }
        for (int i = 0; i < b->size; i++)
            if (in_a[b->world[i]] < 0) w[m++] = b->world[i];
        free(in_a);
    }
    rc = make_group(fn, w, m, newgroup);
out:
    free(in_b);
    free(w);
    return rc;
}

int tern_api_group_union(const char *fn, struct tern_group *group1_o, struct tern_group *group2_o,
                         MPI_Group *newgroup)
{
    return set_op(fn, group1_o, group2_o, newgroup, SET_UNION);
}

int tern_api_group_intersection(const char *fn, struct tern_group *group1_o,
                                struct tern_group *group2_o, MPI_Group *newgroup)
{
    return set_op(fn, group1_o, group2_o, newgroup, SET_INTERSECTION);
}

int tern_api_group_difference(const char *fn, struct tern_group *group1_o,
                              struct tern_group *group2_o, MPI_Group *newgroup)
{
    return set_op(fn, group1_o, group2_o, newgroup, SET_DIFFERENCE);
}

int tern_api_group_translate_ranks(const char *fn, struct tern_group *group1_o, int n,
                                   const int ranks1[], struct tern_group *group2_o, int ranks2[])
{
    struct tern_group *a = group1_o, *b = group2_o;
    int *in_b = NULL;
    int rc = MPI_SUCCESS;
    if (n < 0) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: n=%d is negative", fn, n);
        goto out;
    }
    if (n == 0) goto out;
    TRY(tern_check_ptr(NULL, ranks1, fn, "ranks1"));
    TRY(tern_check_ptr(NULL, ranks2, fn, "ranks2"));
    for (int i = 0; i < n; i++) {
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size)) {
            rc = tern_err_comm(NULL, MPI_ERR_RANK,
                               "%s: ranks1[%d]=%d is not a rank of group1 (size %d)", fn, i,
                               ranks1[i], a->size);
            goto out;
        }
    }
    if (!(in_b = world_map(b))) {
        rc = nomem(fn);
        goto out;
    }
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
        } else {
            int r = in_b[a->world[ranks1[i]]];
            ranks2[i] = r >= 0 ? r : MPI_UNDEFINED;
        }
    }
out:
    free(in_b);
    return rc;
}

int tern_api_group_compare(const char *fn, struct tern_group *group1_o, struct tern_group *group2_o,
                           int *result)
{
    (void)fn;
    *result = tern_group_compare(group1_o, group2_o);
    return MPI_SUCCESS;
}

int tern_api_group_free(const char *fn, MPI_Group *group, struct tern_group *group_o)
{
    (void)fn;
    tern_group_release(group_o); /* no-op for MPI_GROUP_EMPTY */
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
