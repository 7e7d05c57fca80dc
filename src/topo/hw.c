/* Which instance of each level of the machine this process lies in, read
 * from Linux sysfs (topo/hw.h). */
#include "topo/hw.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

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

static int instance_of(int cpu, enum tern_hw_kind k)
{
    char path[128];
    switch (k) {
    case TERN_HW_NODE: return 0;
    case TERN_HW_PACKAGE:
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/topology/physical_package_id", cpu);
        return read_first_int(path);
    case TERN_HW_NUMA: return numa_id(cpu);
    case TERN_HW_L3: return cache_id(cpu, 3);
    case TERN_HW_L2: return cache_id(cpu, 2);
    case TERN_HW_L1: return cache_id(cpu, 1);
    case TERN_HW_CORE:
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/topology/core_cpus_list", cpu);
        int v = read_first_int(path);
        if (v >= 0) return v;
        snprintf(path, sizeof path, SYS_CPU "/cpu%d/topology/thread_siblings_list", cpu);
        return read_first_int(path);
    case TERN_HW_PU: return cpu;
    }
    return -1;
}

int tern_hw_instance_id(enum tern_hw_kind k)
{
    if (k == TERN_HW_NODE) return 0;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int id = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        int v = instance_of(cpu, k);
        if (v < 0 || (id >= 0 && v != id)) return -1; /* unknown, or spans several */
        id = v;
    }
    return id;
}
