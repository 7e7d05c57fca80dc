/* Hardware colours for MPI_Comm_split_type (HW_GUIDED, HW_UNGUIDED): the
 * instance of a resource this process lies in (topo/hw.h), combined with
 * the host's index, because sysfs numbers the instances of every host
 * alike.  Resource names are hwloc's, the names MPICH and Open MPI accept. */
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/errors.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "topo/hw.h"

static const struct {
    const char *name;
    enum tern_hw_kind kind;
} hw_names[] = {
    {"mpi_shared_memory", TERN_HW_NODE},
    {"Machine", TERN_HW_NODE},
    {"Package", TERN_HW_PACKAGE},
    {"NUMANode", TERN_HW_NUMA},
    {"L3Cache", TERN_HW_L3},
    {"L2Cache", TERN_HW_L2},
    {"L1Cache", TERN_HW_L1},
    {"L1dCache", TERN_HW_L1},
    {"Core", TERN_HW_CORE},
    {"PU", TERN_HW_PU},
};

/* The instance of kind k this process lies in, numbered within its host. */
static int kind_color(enum tern_hw_kind k)
{
    int id = tern_hw_instance_id(k);
    return id < 0 ? MPI_UNDEFINED : id;
}

#define HW_NAMES (sizeof hw_names / sizeof hw_names[0])

/* Instance ids below 2^16 per level (CPU, cache and NUMA numbers); a colour
 * is (host, level, id) in one int, which bounds the hosts a hardware split
 * can tell apart. */
#define HW_ID_BITS 16
#define HW_LEVEL_KINDS TERN_HW_KINDS
#define HW_MAX_HOSTS (INT_MAX / (HW_LEVEL_KINDS << HW_ID_BITS))

static int host_level_color(enum tern_hw_kind k, int id)
{
    if (id == MPI_UNDEFINED || id >= 1 << HW_ID_BITS) return MPI_UNDEFINED;
    int host = tern_g.host_of[tern_g.world_rank];
    return ((host * HW_LEVEL_KINDS + (int)k) << HW_ID_BITS) + id;
}

static int check_hosts(void)
{
    if (tern_g.nhosts <= HW_MAX_HOSTS) return MPI_SUCCESS;
    return tern_err_make(MPI_ERR_OTHER,
                         "a split by hardware resource tells at most %d hosts apart; this job "
                         "spans %d (use MPI_COMM_TYPE_SHARED, or split by host first)",
                         HW_MAX_HOSTS, tern_g.nhosts);
}

int tern_host_color(void) { return tern_g.host_of[tern_g.world_rank]; }

/* The kind of a known resource name; -1 for an unknown one. */
static int kind_of(const char *type)
{
    const char *known = tern_hw_type_name(type);
    for (size_t i = 0; known && i < HW_NAMES; i++)
        if (hw_names[i].name == known) return (int)hw_names[i].kind;
    return -1;
}

int tern_hw_instance(const char *type)
{
    int k = kind_of(type);
    return k < 0 ? MPI_UNDEFINED : kind_color((enum tern_hw_kind)k);
}

int tern_hw_color(const char *type, int *color)
{
    int k = kind_of(type), rc = MPI_SUCCESS;
    *color = MPI_UNDEFINED;
    if (k == TERN_HW_NODE)
        *color = tern_host_color();
    else if (k >= 0 && (rc = check_hosts()) == MPI_SUCCESS)
        *color = host_level_color((enum tern_hw_kind)k, kind_color((enum tern_hw_kind)k));
    return rc;
}

const char *tern_hw_type_name(const char *type)
{
    for (size_t i = 0; type && i < HW_NAMES; i++)
        if (strcmp(type, hw_names[i].name) == 0) return hw_names[i].name;
    return NULL;
}

/* The first name of kind k in hw_names, the one HW_UNGUIDED reports. */
static const char *kind_name(enum tern_hw_kind k)
{
    for (size_t i = 0; i < HW_NAMES; i++)
        if (hw_names[i].kind == k) return hw_names[i].name;
    return NULL;
}

/* Coarse to fine, from the host down. */
#define HW_LEVELS 8
static const enum tern_hw_kind unguided_levels[HW_LEVELS] = {
    TERN_HW_NODE, TERN_HW_PACKAGE, TERN_HW_NUMA, TERN_HW_L3,
    TERN_HW_L2,   TERN_HW_L1,      TERN_HW_CORE, TERN_HW_PU};

/* Distinct levels never share a colour: intercommunicator sides may settle
 * on different levels. */
static void level_colors(int *colors)
{
    for (int i = 0; i < HW_LEVELS; i++)
        colors[i] = host_level_color(unguided_levels[i], kind_color(unguided_levels[i]));
}

/* The first level, coarse to fine, that splits the group (not every
 * member in one instance), so each part is a strict subset as MPI asks;
 * the members outside any instance of it get MPI_COMM_NULL.  *type is the
 * level's name, which HW_GUIDED takes to make the same split. */
int tern_hw_unguided_color(struct tern_comm *c, int *color, const char **type)
{
    struct tern_comm *lc = c->is_inter ? c->local_comm : c;
    int n = lc->size, mine[HW_LEVELS];
    int rc = check_hosts();
    if (rc != MPI_SUCCESS) return rc;
    int *all = malloc((size_t)n * HW_LEVELS * sizeof(int));
    if (!all) return tern_err_make(MPI_ERR_NO_MEM, "out of memory for %d ranks", n);
    level_colors(mine);
    struct tern_datatype *it = tern_dt_get(MPI_INT);
    rc = tern_coll_allgather(mine, HW_LEVELS, it, all, HW_LEVELS, it, lc);
    *color = MPI_UNDEFINED;
    *type = NULL;
    for (int l = 0; l < HW_LEVELS && !rc; l++) {
        int first = all[l], split = 0;
        for (int i = 0; i < n; i++) split |= all[i * HW_LEVELS + l] != first;
        if (split || first == MPI_UNDEFINED) {
            *color = mine[l];
            *type = kind_name(unguided_levels[l]);
            break;
        }
    }
    free(all);
    return rc;
}
