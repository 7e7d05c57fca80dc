/* The levels of the machine, as Linux sysfs describes them
 * (/sys/devices/system/cpu): which package, NUMA node, cache and core this
 * process lies in.  A process lies in an instance when every CPU it may run
 * on (its affinity, narrowed by binding at MPI_Init) does.  Levels are
 * hwloc's, coarse to fine. */
#ifndef TERN_TOPO_HW_H
#define TERN_TOPO_HW_H

enum tern_hw_kind {
    TERN_HW_NODE,
    TERN_HW_PACKAGE,
    TERN_HW_NUMA,
    TERN_HW_L3,
    TERN_HW_L2,
    TERN_HW_L1,
    TERN_HW_CORE,
    TERN_HW_PU
};
#define TERN_HW_KINDS (TERN_HW_PU + 1)

/* The id of the instance of kind k that holds this process, the same in
 * every process of the host (a package or NUMA node number, the lowest CPU
 * of a cache or core; 0 for the node); -1 when sysfs does not say, or when
 * the process may run in several instances. */
int tern_hw_instance_id(enum tern_hw_kind k);

#endif
