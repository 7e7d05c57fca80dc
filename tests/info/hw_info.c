/* MPI_Get_hw_resource_info: the keys src/api/hw_info.c documents are there
 * and parse, the counts agree with the process's affinity, and each
 * resource key agrees with MPI_Comm_split_type(MPI_COMM_TYPE_HW_GUIDED): a
 * process has the key exactly when the split puts it in a communicator,
 * and the members of each part report the same value. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

/* The value of key as a decimal integer; -1 when absent. */
static long get_long(MPI_Info info, const char *key)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_MPI(MPI_Info_get_string(info, key, &(int){sizeof val}, val, &flag));
    if (!flag) return -1;
    char *end;
    long v = strtol(val, &end, 10);
    CHECK(*val && !*end && v >= 0, "%s=\"%s\" is not a non-negative decimal integer", key, val);
    return v;
}

static const char *const resources[] = {"Package", "NUMANode", "L3Cache", "L2Cache",
                                        "L1Cache", "Core",     "PU"};

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Info info = MPI_INFO_NULL;
    CHECK_MPI(MPI_Get_hw_resource_info(&info));
    CHECK(info != MPI_INFO_NULL, "no info object");
    long online = get_long(info, "tern_cpus_online"), bound = get_long(info, "tern_cpus_bound");
    long mem = get_long(info, "tern_memory_kib");
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
    CHECK(online >= 1 && bound == CPU_COUNT(&set) && bound <= online,
          "cpus online %ld bound %ld (affinity %d)", online, bound, CPU_COUNT(&set));
    CHECK(mem > 1024, "tern_memory_kib %ld", mem);
    if (bound == 1) {
        /* one CPU: the PU key is that CPU */
        int cpu = 0;
        while (!CPU_ISSET(cpu, &set)) cpu++;
        CHECK(get_long(info, "PU") == cpu, "PU %ld, bound to CPU %d", get_long(info, "PU"), cpu);
    } else {
        CHECK(get_long(info, "PU") == -1, "PU %ld given while bound to %ld CPUs",
              get_long(info, "PU"), bound);
    }

    for (size_t i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        long mine = get_long(info, resources[i]);
        MPI_Info hint;
        MPI_Comm part;
        CHECK_MPI(MPI_Info_create(&hint));
        CHECK_MPI(MPI_Info_set(hint, "mpi_hw_resource_type", resources[i]));
        CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, hint, &part));
        CHECK_MPI(MPI_Info_free(&hint));
        CHECK((mine >= 0) == (part != MPI_COMM_NULL), "%s: value %ld but the split gave %s",
              resources[i], mine, part == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
        if (part == MPI_COMM_NULL) continue;
        int n;
        MPI_Comm_size(part, &n);
        long *all = malloc(sizeof(long) * (size_t)n);
        CHECK_MPI(MPI_Allgather(&mine, 1, MPI_LONG, all, 1, MPI_LONG, part));
        for (int k = 0; k < n; k++)
            CHECK(all[k] == mine, "%s: member %d of my part reports %ld, I %ld", resources[i], k,
                  all[k], mine);
        free(all);
        CHECK_MPI(MPI_Comm_free(&part));
    }
    /* a second call gives a new, independent object */
    MPI_Info again;
    CHECK_MPI(MPI_Get_hw_resource_info(&again));
    CHECK(again != info, "the same handle twice");
    int nkeys = -1, nkeys2 = -2;
    CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
    CHECK_MPI(MPI_Info_get_nkeys(again, &nkeys2));
    CHECK(nkeys == nkeys2 && nkeys >= 3, "nkeys %d and %d", nkeys, nkeys2);
    CHECK_MPI(MPI_Info_free(&again));
    CHECK_MPI(MPI_Info_free(&info));

    int cls, rc = MPI_Get_hw_resource_info(NULL);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "NULL hw_info: class %d", cls);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("hw_info: OK (%d keys)\n", nkeys);
    MPI_Finalize();
    return 0;
}
