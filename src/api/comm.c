/* MPI communicator entry points: size/rank, construction (dup, split,
 * create), comparison, names.  Attributes are src/api/attr.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "api/check.h"
#include "core/api.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "topo/topo.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        if ((rc = (expr)) != MPI_SUCCESS) goto out;                                                \
    } while (0)

static int chk_intra(struct tern_comm *c, const char *fn)
{
    if (__builtin_expect(c->is_inter, 0)) {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_COMM, "%s: %s is an intercommunicator (not supported yet)",
                             fn, tern_comm_label(c, lb, sizeof lb));
    }
    return MPI_SUCCESS;
}

static int chk_group(struct tern_comm *c, const char *fn, const char *arg, MPI_Group h,
                     struct tern_group **out)
{
    if (h == MPI_GROUP_NULL) return tern_err_comm(c, MPI_ERR_GROUP, "%s: %s is MPI_GROUP_NULL", fn, arg);
    *out = tern_group_get(h);
    if (!*out)
        return tern_err_comm(c, MPI_ERR_GROUP, "%s: %s=0x%x is not a valid group", fn, arg,
                             (unsigned)h);
    return MPI_SUCCESS;
}

/* Every member of g must belong to comm. */
static int chk_subgroup(struct tern_comm *c, const char *fn, struct tern_group *g)
{
    int *ranks = malloc((size_t)(g->size > 0 ? g->size : 1) * sizeof(int));
    if (!ranks) return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    int rc = tern_group_ranks_in(g, c->group, ranks);
    if (rc == MPI_ERR_GROUP) {
        char lb[64];
        int i = 0;
        while (ranks[i] != MPI_UNDEFINED) i++;
        rc = tern_err_comm(c, MPI_ERR_GROUP,
                           "%s: group member %d (world rank %d) is not in %s", fn, i, g->world[i],
                           tern_comm_label(c, lb, sizeof lb));
    } else if (rc) {
        rc = tern_err_comm(c, rc, "%s: out of memory", fn);
    }
    free(ranks);
    return rc;
}

/* What every constructor checks after its own arguments. */
static int chk_new(struct tern_comm *c, const char *fn, MPI_Comm *newcomm)
{
    int rc = tern_check_ptr(c, newcomm, fn, "newcomm");
    return rc ? rc : chk_intra(c, fn);
}

/* The end of every constructor: on failure a half-made communicator goes
 * and the error through c's handler; else the new handle goes out. */
static int finish_new(struct tern_comm *c, int rc, struct tern_comm *nc, MPI_Comm *newcomm)
{
    if (rc) {
        if (nc) tern_comm_free_handle(nc);
        return tern_err_raise(c, rc);
    }
    *newcomm = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* A query of one communicator with one output argument: the checks, then
 * answer() under the lock. */
typedef int (*comm_answer_fn)(struct tern_comm *c, const char *fn, void *out);

static int comm_query(const char *fn, MPI_Comm comm, const char *arg, void *out,
                      comm_answer_fn answer)
{
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_check_ptr(c, out, fn, arg));
    rc = answer(c, fn, out);
out:
    tern_unlock();
    return rc;
}

static int answer_size(struct tern_comm *c, const char *fn, void *out)
{
    (void)fn;
    *(int *)out = c->size;
    return MPI_SUCCESS;
}

static int answer_rank(struct tern_comm *c, const char *fn, void *out)
{
    (void)fn;
    *(int *)out = c->rank;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Comm_size)
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    return comm_query("MPI_Comm_size", comm, "size", size, answer_size);
}

TERN_WEAK_ALIAS(MPI_Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    return comm_query("MPI_Comm_rank", comm, "rank", rank, answer_rank);
}

/* MPI_Comm_dup and MPI_Comm_dup_with_info (info_arg NULL: the plain dup). */
static int comm_dup(const char *fn, MPI_Comm comm, const MPI_Info *info_arg, MPI_Comm *newcomm)
{
    struct tern_comm *c, *nc = NULL;
    struct tern_info *info = NULL;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    if (info_arg) TRY(tern_info_check(*info_arg, 1, fn, "info", c, &info));
    TRY(chk_new(c, fn, newcomm));
    rc = tern_comm_create_from(c, c->group, &nc);
    if (rc == MPI_SUCCESS) rc = tern_topo_copy(c, nc);
    /* [attr] The copy callbacks, then the hints: the parent's, or those
     * of dup_with_info's argument. */
    if (rc == MPI_SUCCESS) rc = tern_attr_comm_copy(c, nc);
    if (rc == MPI_SUCCESS) {
        if (info_arg)
            tern_comm_hints_apply(nc, info);
        else
            nc->hints = c->hints;
    }
    rc = finish_new(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return comm_dup("MPI_Comm_dup", comm, NULL, newcomm);
}

TERN_WEAK_ALIAS(MPI_Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return comm_dup("MPI_Comm_dup_with_info", comm, &info, newcomm);
}

struct split_entry {
    int key, rank;
};

static int split_cmp(const void *a, const void *b)
{
    const struct split_entry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Collective over c: the members with my colour, ordered by key then rank
 * in c, become a new communicator. */
static int comm_split(struct tern_comm *c, int color, int key, struct tern_comm **out)
{
    int n = c->size, rc;
    int mine[2] = {color, key};
    struct tern_group *g = NULL;
    int *all = malloc((size_t)n * 2 * sizeof(int));
    struct split_entry *ent = malloc((size_t)n * sizeof *ent);
    *out = NULL;
    if (!all || !ent) {
        free(all);
        free(ent);
        return tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory for %d ranks", n);
    }
    struct tern_datatype *it = tern_dt_get(MPI_INT);
    rc = tern_allgather(mine, 2, it, all, 2, it, c);
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (all[2 * i] == color) {
                ent[m].key = all[2 * i + 1];
                ent[m].rank = i;
                m++;
            }
        }
        qsort(ent, (size_t)m, sizeof *ent, split_cmp);
        g = tern_group_new(m);
        if (!g) {
            rc = tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory for a group");
        } else {
            for (int i = 0; i < m; i++) g->world[i] = tern_comm_world_rank(c, ent[i].rank);
            tern_group_set_rank(g);
        }
    }
    free(all);
    free(ent);
    /* Every rank takes part in the context agreement, even after a local
     * failure, so the others do not hang. */
    int rc2 = tern_comm_create_from(c, g, out);
    if (g) tern_group_release(g);
    return rc ? rc : rc2;
}

TERN_WEAK_ALIAS(MPI_Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split";
    struct tern_comm *c, *nc = NULL;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(chk_new(c, fn, newcomm));
    if (color < 0 && color != MPI_UNDEFINED) {
        rc = tern_err_comm(c, MPI_ERR_ARG,
                           "%s: color=%d is negative (only MPI_UNDEFINED may be)", fn, color);
        goto out;
    }
    rc = comm_split(c, color, key, &nc);
    rc = finish_new(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split_type";
    struct tern_comm *c, *nc = NULL;
    int rc, color;
    (void)info; /* no hints are understood yet */
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(chk_new(c, fn, newcomm));
    switch (split_type) {
    case MPI_UNDEFINED:
        color = MPI_UNDEFINED;
        break;
    case MPI_COMM_TYPE_SHARED:
        color = 0; /* every rank runs on this node */
        break;
#ifdef MPI_COMM_TYPE_HW_GUIDED
    case MPI_COMM_TYPE_HW_GUIDED:
#endif
#ifdef MPI_COMM_TYPE_HW_UNGUIDED
    case MPI_COMM_TYPE_HW_UNGUIDED:
#endif
#ifdef MPI_COMM_TYPE_RESOURCE_GUIDED
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
#endif
#ifdef MPIX_COMM_TYPE_NEIGHBORHOOD
    case MPIX_COMM_TYPE_NEIGHBORHOOD:
#endif
        color = MPI_UNDEFINED; /* no finer hardware level is known: MPI_COMM_NULL */
        break;
    default:
        rc = tern_err_comm(c, MPI_ERR_ARG, "%s: split_type=%d is not a known split type", fn,
                           split_type);
        goto out;
    }
    rc = comm_split(c, color, key, &nc);
    rc = finish_new(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create";
    struct tern_comm *c, *nc = NULL;
    struct tern_group *g;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(chk_group(c, fn, "group", group, &g));
    TRY(chk_new(c, fn, newcomm));
    TRY(chk_subgroup(c, fn, g));
    rc = tern_comm_create_from(c, g->rank == MPI_UNDEFINED ? NULL : g, &nc);
    rc = finish_new(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_group";
    struct tern_comm *c, *nc = NULL;
    struct tern_group *g;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(chk_group(c, fn, "group", group, &g));
    TRY(chk_new(c, fn, newcomm));
    if (tag < 0) {
        rc = tern_err_comm(c, MPI_ERR_TAG, "%s: tag=%d is outside 0..MPI_TAG_UB (%d)", fn, tag,
                           TERN_TAG_UB);
        goto out;
    }
    TRY(chk_subgroup(c, fn, g));
    rc = tern_comm_create_group(c, g, tag, &nc);
    rc = finish_new(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_free)
int PMPI_Comm_free(MPI_Comm *comm)
{
    static const char fn[] = "MPI_Comm_free";
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_check_ptr(NULL, comm, fn, "comm"));
    TRY(tern_comm_check(*comm, fn, "*comm", &c));
    if (c == &tern_comm_world || c == &tern_comm_self) {
        rc = tern_err_comm(c, MPI_ERR_COMM, "%s: %s cannot be freed", fn,
                           c == &tern_comm_world ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
        goto out;
    }
    /* [attr] Delete callbacks first; when one fails the communicator stays. */
    if ((rc = tern_attr_comm_free(c)) != MPI_SUCCESS) {
        rc = tern_err_raise(c, rc);
        goto out;
    }
    tern_comm_free_handle(c);
    *comm = MPI_COMM_NULL;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    static const char fn[] = "MPI_Comm_compare";
    struct tern_comm *c1, *c2;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm1, fn, "comm1", &c1));
    TRY(tern_comm_check(comm2, fn, "comm2", &c2));
    TRY(tern_check_ptr(c1, result, fn, "result"));
    if (c1 == c2) {
        *result = MPI_IDENT;
    } else if (c1->is_inter != c2->is_inter) {
        *result = MPI_UNEQUAL;
    } else {
        int g = tern_group_compare(c1->group, c2->group);
        *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    }
out:
    tern_unlock();
    return rc;
}

static int answer_group(struct tern_comm *c, const char *fn, void *out)
{
    tern_group_retain(c->group);
    int rc = tern_group_publish(c->group, out);
    if (rc) rc = tern_err_comm(c, rc, "%s: out of memory for a group handle", fn);
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    return comm_query("MPI_Comm_group", comm, "group", group, answer_group);
}

static int answer_set_name(struct tern_comm *c, const char *fn, void *out)
{
    (void)fn;
    /* Longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters. */
    snprintf(c->name, sizeof c->name, "%s", (const char *)out);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Comm_set_name)
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    /* comm_query's "output" is the name read here. */
    return comm_query("MPI_Comm_set_name", comm, "comm_name", (void *)comm_name, answer_set_name);
}

TERN_WEAK_ALIAS(MPI_Comm_get_name)
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    static const char fn[] = "MPI_Comm_get_name";
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_check_ptr(c, comm_name, fn, "comm_name"));
    TRY(tern_check_ptr(c, resultlen, fn, "resultlen"));
    size_t len = strnlen(c->name, sizeof c->name - 1);
    memcpy(comm_name, c->name, len);
    comm_name[len] = 0;
    *resultlen = (int)len;
out:
    tern_unlock();
    return rc;
}

static int answer_test_inter(struct tern_comm *c, const char *fn, void *out)
{
    (void)fn;
    *(int *)out = c->is_inter != 0;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Comm_test_inter)
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    return comm_query("MPI_Comm_test_inter", comm, "flag", flag, answer_test_inter);
}

/* The remote side of an intercommunicator; intercommunicators come with the
 * object-model issue, so every comm is refused for now. */
static int not_inter(struct tern_comm *c, const char *fn, void *out)
{
    char lb[64];
    (void)out;
    return tern_err_comm(c, MPI_ERR_COMM, "%s: comm=%s is not an intercommunicator", fn,
                         tern_comm_label(c, lb, sizeof lb));
}

TERN_WEAK_ALIAS(MPI_Comm_remote_size)
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    return comm_query("MPI_Comm_remote_size", comm, "size", size, not_inter);
}

TERN_WEAK_ALIAS(MPI_Comm_remote_group)
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    return comm_query("MPI_Comm_remote_group", comm, "group", group, not_inter);
}
