/* The collective selection parameters as MPI_T control variables: every
 * TERN_<COLL>_ALGORITHM exists, is an MPI_INT enumeration whose items are
 * "auto" then the collective's algorithms, in this order, and set before
 * MPI_Init by every rank alike (scope MPI_T_SCOPE_ALL_EQ until then,
 * MPI_T_SCOPE_READONLY once MPI_Init has read it).  Its value is 0 (auto), or, with an
 * argument NAME=word (the test also sets TERN_NAME=word in the
 * environment), the position of the word. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "tern_test.h"

static const struct {
    const char *name;
    const char *algos[6];
} want[] = {
    {"TERN_BARRIER_ALGORITHM", {"hier", "shm", "dissemination", "inter_leader"}},
    {"TERN_BCAST_ALGORITHM", {"hier", "shm", "linear", "binomial", "inter_leader"}},
    {"TERN_GATHER_ALGORITHM", {"hier", "shm", "linear", "binomial", "inter_leader"}},
    {"TERN_GATHERV_ALGORITHM", {"shm", "linear", "inter_direct"}},
    {"TERN_SCATTER_ALGORITHM", {"hier", "shm", "linear", "binomial", "inter_leader"}},
    {"TERN_SCATTERV_ALGORITHM", {"shm", "linear", "inter_direct"}},
    {"TERN_ALLGATHER_ALGORITHM", {"hier", "shm", "bruck", "linear", "ring", "inter_leader"}},
    {"TERN_ALLGATHERV_ALGORITHM", {"hier", "shm", "bruck", "linear", "ring", "inter_leader"}},
    {"TERN_ALLTOALL_ALGORITHM", {"hier", "shm", "bruck", "pairwise", "exchange"}},
    {"TERN_ALLTOALLV_ALGORITHM", {"shm", "pairwise", "exchange"}},
    {"TERN_ALLTOALLW_ALGORITHM", {"shm", "pairwise", "exchange"}},
    {"TERN_REDUCE_ALGORITHM", {"hier", "shm", "binomial", "inter_leader"}},
    {"TERN_ALLREDUCE_ALGORITHM",
     {"hier", "shm", "shm_partition", "recursive_doubling", "inter_leader"}},
    {"TERN_REDUCE_SCATTER_ALGORITHM",
     {"hier", "shm", "shm_partition", "pairwise", "reduce_scatterv", "inter_leader"}},
    {"TERN_REDUCE_SCATTER_BLOCK_ALGORITHM",
     {"hier", "shm", "shm_partition", "pairwise", "reduce_scatterv", "inter_leader"}},
    {"TERN_SCAN_ALGORITHM", {"hier", "shm", "recursive_doubling"}},
    {"TERN_EXSCAN_ALGORITHM", {"hier", "shm", "recursive_doubling"}},
    {"TERN_IBARRIER_ALGORITHM", {"hier", "shm", "dissemination", "inter_leader"}},
    {"TERN_IBCAST_ALGORITHM", {"hier", "shm", "linear", "binomial", "inter_leader"}},
    {"TERN_IGATHER_ALGORITHM", {"hier", "shm", "linear", "binomial", "inter_leader"}},
    {"TERN_IGATHERV_ALGORITHM", {"shm", "linear", "inter_direct"}},
    {"TERN_ISCATTER_ALGORITHM", {"hier", "shm", "linear", "binomial", "inter_leader"}},
    {"TERN_ISCATTERV_ALGORITHM", {"shm", "linear", "inter_direct"}},
    {"TERN_IALLGATHER_ALGORITHM", {"hier", "shm", "bruck", "linear", "ring", "inter_leader"}},
    {"TERN_IALLGATHERV_ALGORITHM", {"hier", "shm", "linear", "ring", "inter_leader"}},
    {"TERN_IALLTOALL_ALGORITHM", {"hier", "shm", "exchange"}},
    {"TERN_IALLTOALLV_ALGORITHM", {"shm", "exchange"}},
    {"TERN_IALLTOALLW_ALGORITHM", {"shm", "exchange"}},
    {"TERN_IREDUCE_ALGORITHM", {"hier", "shm", "binomial", "inter_leader"}},
    {"TERN_IALLREDUCE_ALGORITHM",
     {"hier", "shm", "shm_partition", "recursive_doubling", "inter_leader"}},
    {"TERN_IREDUCE_SCATTER_ALGORITHM", {"hier", "shm", "direct", "inter_leader"}},
    {"TERN_IREDUCE_SCATTER_BLOCK_ALGORITHM", {"hier", "shm", "direct", "inter_leader"}},
    {"TERN_ISCAN_ALGORITHM", {"hier", "shm", "recursive_doubling"}},
    {"TERN_IEXSCAN_ALGORITHM", {"hier", "shm", "recursive_doubling"}},
};
#define NWANT ((int)(sizeof want / sizeof want[0]))

static int read_int(int index)
{
    MPI_T_cvar_handle h;
    int n, v = -1;
    CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &n));
    CHECK(n == 1, "cvar %d: count %d", index, n);
    CHECK_MPI(MPI_T_cvar_read(h, &v));
    CHECK_MPI(MPI_T_cvar_handle_free(&h));
    return v;
}

int main(int argc, char **argv)
{
    /* NAME=word: the one parameter the environment sets. */
    char set_name[96] = "";
    const char *set_word = NULL;
    if (argc > 1) {
        const char *eq = strchr(argv[1], '=');
        CHECK(eq && eq - argv[1] < (int)sizeof set_name, "argument '%s' is not NAME=word", argv[1]);
        memcpy(set_name, argv[1], (size_t)(eq - argv[1]));
        set_word = eq + 1;
    }
    int provided, found_set = 0;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    for (int k = 0; k < NWANT; k++) {
        int index = -1, scope = -1;
        CHECK(MPI_T_cvar_get_index(want[k].name, &index) == MPI_SUCCESS, "%s does not exist",
              want[k].name);
        CHECK_MPI(
            MPI_T_cvar_get_info(index, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &scope));
        CHECK(scope == MPI_T_SCOPE_ALL_EQ,
              "%s: scope %d before MPI_Init, expected MPI_T_SCOPE_ALL_EQ", want[k].name, scope);
    }
    MPI_Init(&argc, &argv);

    int seen = 0, ncvar;
    CHECK_MPI(MPI_T_cvar_get_num(&ncvar));
    for (int i = 0; i < ncvar; i++) {
        char name[128];
        int len = sizeof name;
        CHECK_MPI(MPI_T_cvar_get_info(i, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
        if (strstr(name, "_ALGORITHM")) seen++;
    }
    CHECK(seen == NWANT, "%d *_ALGORITHM control variables, expected %d", seen, NWANT);

    for (int k = 0; k < NWANT; k++) {
        int index = -1, verbosity, bind, scope, num = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK(MPI_T_cvar_get_index(want[k].name, &index) == MPI_SUCCESS, "%s does not exist",
              want[k].name);
        CHECK_MPI(MPI_T_cvar_get_info(index, NULL, NULL, &verbosity, &dt, &et, NULL, NULL, &bind,
                                      &scope));
        CHECK(dt == MPI_INT && et != MPI_T_ENUM_NULL, "%s: not an MPI_INT enumeration",
              want[k].name);
        CHECK(scope == MPI_T_SCOPE_READONLY,
              "%s: scope %d after MPI_Init, expected MPI_T_SCOPE_READONLY", want[k].name, scope);
        char ename[128];
        int elen = sizeof ename;
        CHECK_MPI(MPI_T_enum_get_info(et, &num, ename, &elen));
        CHECK(!strcmp(ename, want[k].name), "%s: enumeration named %s", want[k].name, ename);
        int nalg = 0;
        while (nalg < (int)(sizeof want[k].algos / sizeof *want[k].algos) && want[k].algos[nalg])
            nalg++;
        CHECK(num == nalg + 1, "%s: %d items, expected auto and %d algorithms", want[k].name, num,
              nalg);
        int expect = 0;
        for (int j = 0; j < num; j++) {
            char item[64];
            int ilen = sizeof item, value = -1;
            CHECK_MPI(MPI_T_enum_get_item(et, j, &value, item, &ilen));
            const char *w = j == 0 ? "auto" : want[k].algos[j - 1];
            CHECK(value == j && !strcmp(item, w), "%s: item %d is %s (%d), expected %s",
                  want[k].name, j, item, value, w);
            if (set_word && !strcmp(set_name, want[k].name) && !strcmp(w, set_word)) expect = j;
        }
        if (set_word && !strcmp(set_name, want[k].name)) {
            CHECK(expect != 0, "%s has no algorithm %s", set_name, set_word);
            found_set = 1;
        }
        int v = read_int(index);
        CHECK(v == expect, "%s reads %d, expected %d", want[k].name, v, expect);
    }
    CHECK(!set_word || found_set, "%s is not a selection parameter", set_name);
    MPI_Finalize();
    CHECK_MPI(MPI_T_finalize());
    if (tt_rank() == 0) printf("PASS: %d selection parameters\n", NWANT);
    return 0;
}
