/* Hardware colours for MPI_Comm_split_type (HW_GUIDED, HW_UNGUIDED), read
 * from Linux sysfs.  A process belongs to an instance of a resource when
 * every CPU it may run on (its affinity, narrowed by binding at MPI_Init)
 * lies in that instance; the colour is an id of the instance that is the
 * same in every process of the node (a package or NUMA node number, or the
 * lowest CPU of a core or cache), combined with the host's index, because
 * sysfs numbers the instances of every host alike.  Resource names are
 * hwloc's, the names MPICH and Open MPI accept. */
#include <dirent.h>
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

#define SYS_CPU "/sys/devices/system/cpu"

/* The first integer of a sysfs file ("3", or "0-3,8-11" for a CPU list). */
static int read_first_int(const char *path)
{
    FILE *f = fopen(path, "r");
    int v = -1;
    if (!f) return -1;
    if (fscanf(f, "%d", &v) != 1) v = -1;
    fclose(f);
    return v;
}

/* The lowest CPU sharing the level-'level' data or unified cache of cpu. */
static int cache_id(int cpu, int level)
{
    char path[160];
    for (int i = 0;; i++) {
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/cache/index%d/level", cpu, i);
        int l = read_first_int(path);
        if (l < 0) return -1;
        if (l != level) continue;
        char type[32] = "";
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/cache/index%d/type", cpu, i);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "%31s", type) != 1) type[0] = 0;
            fclose(f);
        }
        if (strcmp(type, "Instruction") == 0) continue;
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/cache/index%d/shared_cpu_list", cpu, i);
        return read_first_int(path);
    }
}

/* The NUMA node of cpu: its "nodeN" entry; a machine without NUMA
 * information is one node. */
static int numa_id(int cpu)
{
    char path[96];
    snprintf(path, sizeof path, SYS_CPU "/cpu%d", cpu);
    DIR *d = opendir(path);
    if (!d) return -1;
    int id = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int n;
        if (sscanf(e->d_name, "node%d", &n) == 1) {
            id = n;
            break;
        }
    }
    closedir(d);
    return id;
}

enum hw_kind { HW_NODE, HW_PACKAGE, HW_NUMA, HW_L3, HW_L2, HW_L1, HW_CORE, HW_PU };

static const struct {
    const char *name;
    enum hw_kind kind;
} hw_names[] = {
    {"mpi_shared_memory", HW_NODE},
    {"Machine", HW_NODE},
    {"Package", HW_PACKAGE},
    {"NUMANode", HW_NUMA},
    {"L3Cache", HW_L3},
    {"L2Cache", HW_L2},
    {"L1Cache", HW_L1},
    {"L1dCache", HW_L1},
    {"Core", HW_CORE},
    {"PU", HW_PU},
};

static int instance_of(int cpu, enum hw_kind k)
{
    char path[128];
    switch (k) {
    case HW_NODE: return 0;
    case HW_PACKAGE:
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/topology/physical_package_id", cpu);
        return read_first_int(path);
    case HW_NUMA: return numa_id(cpu);
    case HW_L3: return cache_id(cpu, 3);
    case HW_L2: return cache_id(cpu, 2);
    case HW_L1: return cache_id(cpu, 1);
    case HW_CORE:
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/topology/core_cpus_list", cpu);
        int v = read_first_int(path);
        if (v >= 0) return v;
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/topology/thread_siblings_list", cpu);
        return read_first_int(path);
    case HW_PU: return cpu;
    }
    return -1;
}

/* The instance of kind k this process lies in, numbered within its host. */
static int kind_color(enum hw_kind k)
{
    if (k == HW_NODE) return 0;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return MPI_UNDEFINED;
    int id = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        int v = instance_of(cpu, k);
        if (v < 0 || (id >= 0 && v != id)) return MPI_UNDEFINED; /* unknown, or spans several */
        id = v;
    }
    return id < 0 ? MPI_UNDEFINED : id;
}

#define HW_NAMES (sizeof hw_names / sizeof hw_names[0])

/* Instance ids below 2^16 per level (CPU, cache and NUMA numbers); a colour
 * is (host, level, id) in one int, which bounds the hosts a hardware split
 * can tell apart. */
#define HW_ID_BITS 16
#define HW_LEVEL_KINDS (HW_PU + 1)
#define HW_MAX_HOSTS (INT_MAX / (HW_LEVEL_KINDS << HW_ID_BITS))

static int host_level_color(enum hw_kind k, int id)
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
    return k < 0 ? MPI_UNDEFINED : kind_color((enum hw_kind)k);
}

int tern_hw_color(const char *type, int *color)
{
    int k = kind_of(type), rc = MPI_SUCCESS;
    *color = MPI_UNDEFINED;
    if (k == HW_NODE)
        *color = tern_host_color();
    else if (k >= 0 && (rc = check_hosts()) == MPI_SUCCESS)
        *color = host_level_color((enum hw_kind)k, kind_color((enum hw_kind)k));
    return rc;
}

const char *tern_hw_type_name(const char *type)
{
    for (size_t i = 0; type && i < HW_NAMES; i++)
        if (strcmp(type, hw_names[i].name) == 0) return hw_names[i].name;
    return NULL;
}

/* The first name of kind k in hw_names, the one HW_UNGUIDED reports. */
static const char *kind_name(enum hw_kind k)
{
    for (size_t i = 0; i < HW_NAMES; i++)
        if (hw_names[i].kind == k) return hw_names[i].name;
    return NULL;
}

/* Coarse to fine, from the host down. */
#define HW_LEVELS 8
static const enum hw_kind unguided_levels[HW_LEVELS] = {HW_NODE, HW_PACKAGE, HW_NUMA, HW_L3,
                                                        HW_L2,   HW_L1,      HW_CORE, HW_PU};

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
