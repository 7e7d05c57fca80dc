/* MPI_Get_hw_resource_info: what Linux (sysfs, /proc) tells about the
 * hardware this process runs on, as a new info object.  The keys:
 *
 *   Package, NUMANode, L3Cache, L2Cache, L1Cache, Core, PU
 *       the instance of that resource this process is confined to: the
 *       colour MPI_Comm_split_type(MPI_COMM_TYPE_HW_GUIDED) gives for the
 *       same mpi_hw_resource_type (a package or NUMA node number, or the
 *       lowest CPU of a cache or core), in decimal.  Absent when the
 *       process may run in several instances, or the machine does not say.
 *   tern_cpus_online     CPUs online on the node
 *   tern_cpus_bound      CPUs this process may run on (its affinity)
 *   tern_memory_kib      the node's memory, /proc/meminfo's MemTotal in KiB
 *                        (absent when unreadable)
 *
 * Values are decimal integers.  The entry point, with the init test, the
 * lock and the check of the result pointer, is generated
 * (src/api/gen/bindings_hw_info.c). */
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "api/gen/bindings.h"
#include "comm/comm.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/state.h"

static const char *const resources[] = {"Package", "NUMANode", "L3Cache", "L2Cache",
                                        "L1Cache", "Core",     "PU"};

static long mem_total_kib(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    long kib = -1;
    if (!f) return -1;
    char line[128];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

static int set_long(struct tern_info *info, const char *key, long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%ld", v);
    return tern_info_set(info, key, buf);
}

static int fill(struct tern_info *info)
{
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < sizeof resources / sizeof resources[0] && !rc; i++) {
        int id = tern_hw_instance(resources[i]);
        if (id != MPI_UNDEFINED) rc = set_long(info, resources[i], id);
    }
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN), kib = mem_total_kib();
    if (!rc && online > 0) rc = set_long(info, "tern_cpus_online", online);
    if (!rc && sched_getaffinity(0, sizeof set, &set) == 0)
        rc = set_long(info, "tern_cpus_bound", CPU_COUNT(&set));
    if (!rc && kib > 0) rc = set_long(info, "tern_memory_kib", kib);
    return rc;
}

int tern_api_get_hw_resource_info(const char *fn, MPI_Info *hw_info)
{
    struct tern_info *info = tern_info_new();
    int rc = info ? fill(info) : MPI_ERR_NO_MEM;
    if (!rc) rc = tern_info_publish(info, hw_info);
    if (rc) {
        if (info) tern_info_destroy(info);
        rc = tern_err_comm(NULL, rc, "%s: out of memory building the info object", fn);
    }
    return rc;
}
