/* MPI_Info_create_env describes the launch, so it says the same before
 * MPI_Init, after it (MPI_INFO_ENV too) and after MPI_Finalize: every key
 * of MPI-4.1's list has the same value, or is absent, each time, whether
 * built from the process's own command line or from an argv given.
 * argv[1] is the number of processes the job was launched with. */
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

static const char *const keys[] = {"command", "argv", "maxprocs", "soft",        "host",
                                   "arch",    "wdir", "file",     "thread_level"};
#define NKEYS (int)(sizeof keys / sizeof keys[0])
#define NWHEN 4 /* before, after MPI_Init, MPI_INFO_ENV, after MPI_Finalize */

struct snap {
    int have[NKEYS];
    char val[NKEYS][MPI_MAX_INFO_VAL + 1];
    int nkeys;
};

static void take(MPI_Info info, struct snap *s)
{
    CHECK_MPI(MPI_Info_get_nkeys(info, &s->nkeys));
    for (int k = 0; k < NKEYS; k++) {
        int len = MPI_MAX_INFO_VAL + 1;
        CHECK_MPI(MPI_Info_get_string(info, keys[k], &len, s->val[k], &s->have[k]));
    }
}

static void create(int argc, char **argv, struct snap *s)
{
    MPI_Info info;
    CHECK_MPI(MPI_Info_create_env(argc, argv, &info));
    take(info, s);
    CHECK_MPI(MPI_Info_free(&info));
}

static const char *when_name[NWHEN] = {"before MPI_Init", "after MPI_Init", "MPI_INFO_ENV",
                                       "after MPI_Finalize"};

static void same(const struct snap *s, int n, const char *form)
{
    for (int w = 1; w < n; w++) {
        CHECK(s[w].nkeys == s[0].nkeys, "%s: %d keys %s, %d %s", form, s[0].nkeys, when_name[0],
              s[w].nkeys, when_name[w]);
        for (int k = 0; k < NKEYS; k++) {
            CHECK(s[w].have[k] == s[0].have[k], "%s: key %s %s %s but %s %s", form, keys[k],
                  s[0].have[k] ? "present" : "absent", when_name[0],
                  s[w].have[k] ? "present" : "absent", when_name[w]);
            CHECK(!s[0].have[k] || strcmp(s[w].val[k], s[0].val[k]) == 0,
                  "%s: %s is '%s' %s but '%s' %s", form, keys[k], s[0].val[k], when_name[0],
                  s[w].val[k], when_name[w]);
        }
    }
}

static const char *value(const struct snap *s, const char *key)
{
    for (int k = 0; k < NKEYS; k++)
        if (strcmp(keys[k], key) == 0) return s->have[k] ? s->val[k] : NULL;
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(argc == 4, "usage: info_env NPROCS ARG ARG");
    int nprocs = atoi(argv[1]);
    char *given[] = {"prog", "-x", "y z", NULL};
    struct snap own[NWHEN], args[NWHEN];
    memset(own, 0, sizeof own);
    memset(args, 0, sizeof args);

    create(0, NULL, &own[0]);
    create(3, given, &args[0]);
    int provided;
    /* A thread level asked of MPI_Init_thread is no launch fact. */
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    create(0, NULL, &own[1]);
    create(3, given, &args[1]);
    take(MPI_INFO_ENV, &own[2]);
    args[2] = args[1];
    MPI_Finalize();
    create(0, NULL, &own[3]);
    create(3, given, &args[3]);

    same(own, NWHEN, "own command line");
    same(args, NWHEN, "argv given");

    const char *v = value(&own[0], "maxprocs");
    CHECK(v && atoi(v) == nprocs, "maxprocs '%s', launched with %d", v ? v : "(absent)", nprocs);
    v = value(&own[0], "command");
    CHECK(v && strstr(v, "info_env"), "command '%s'", v ? v : "(absent)");
    v = value(&own[0], "argv");
    char want[64];
    snprintf(want, sizeof want, "%s %s %s", argv[1], argv[2], argv[3]);
    CHECK(v && strcmp(v, want) == 0, "argv '%s', want '%s'", v ? v : "(absent)", want);
    v = value(&args[0], "command");
    CHECK(v && strcmp(v, "prog") == 0, "command of the argv given: '%s'", v ? v : "(absent)");
    v = value(&args[0], "argv");
    CHECK(v && strcmp(v, "-x y z") == 0, "argv of the argv given: '%s'", v ? v : "(absent)");
    CHECK(value(&args[0], "maxprocs") &&
              strcmp(value(&args[0], "maxprocs"), value(&own[0], "maxprocs")) == 0,
          "maxprocs depends on the argv given");
    const char *present[] = {"host", "arch", "wdir"};
    for (int i = 0; i < 3; i++) CHECK(value(&own[0], present[i]), "no '%s'", present[i]);
    printf("info_env: ok\n");
    return 0;
}
