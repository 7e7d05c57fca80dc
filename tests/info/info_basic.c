/* MPI_Info: round trips, insertion order, dup independence, the length
 * limits and error classes, MPI_Info_get/get_string/get_valuelen
 * semantics, MPI_INFO_ENV and MPI_Info_create_env, info calls before
 * MPI_Init, and communicator hints (set/get/dup/dup_with_info). */
#include <string.h>

#include "tern_expect.h"

static void expect_keys(MPI_Info info, const char *const *keys, const char *const *vals, int n)
{
    int nk;
    CHECK_MPI(MPI_Info_get_nkeys(info, &nk));
    CHECK(nk == n, "nkeys %d, want %d", nk, n);
    for (int i = 0; i < n; i++) {
        char k[MPI_MAX_INFO_KEY + 1], v[MPI_MAX_INFO_VAL + 1];
        int flag, len = sizeof v;
        CHECK_MPI(MPI_Info_get_nthkey(info, i, k));
        CHECK(strcmp(k, keys[i]) == 0, "key %d is '%s', want '%s'", i, k, keys[i]);
        CHECK_MPI(MPI_Info_get_string(info, k, &len, v, &flag));
        CHECK(flag && strcmp(v, vals[i]) == 0 && len == (int)strlen(vals[i]) + 1,
              "value of '%s' is '%s' (len %d), want '%s'", k, v, len, vals[i]);
    }
}

static void round_trips(void)
{
    MPI_Info info, dup;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK(info != MPI_INFO_NULL, "Info_create gave MPI_INFO_NULL");
    CHECK_MPI(MPI_Info_set(info, "zeta", "1"));
    CHECK_MPI(MPI_Info_set(info, "alpha", "two"));
    CHECK_MPI(MPI_Info_set(info, "mid", ""));
    CHECK_MPI(MPI_Info_set(info, "zeta", "3")); /* keeps its place */
    const char *k1[] = {"zeta", "alpha", "mid"}, *v1[] = {"3", "two", ""};
    expect_keys(info, k1, v1, 3);

    CHECK_MPI(MPI_Info_dup(info, &dup));
    CHECK(dup != info, "dup is the same handle");
    expect_keys(dup, k1, v1, 3);
    CHECK_MPI(MPI_Info_set(dup, "alpha", "changed"));
    CHECK_MPI(MPI_Info_delete(dup, "zeta"));
    expect_keys(info, k1, v1, 3); /* the original is independent */
    const char *k2[] = {"alpha", "mid"}, *v2[] = {"changed", ""};
    expect_keys(dup, k2, v2, 2);

    /* MPI_Info_get: truncation is reported as MPICH does; flag stays 1 */
    char v[16];
    int flag = 0, len;
    CHECK_MPI(MPI_Info_get(info, "alpha", 15, v, &flag));
    CHECK(flag && strcmp(v, "two") == 0, "Info_get");
    memset(v, '#', sizeof v);
    expect(MPI_Info_get(info, "alpha", 2, v, &flag), MPI_ERR_INFO_VALUE, "MPI_Info_get",
           "valuelen=2");
    CHECK(flag && strcmp(v, "tw") == 0, "truncated Info_get gave '%s'", v);
    flag = 1;
    strcpy(v, "keep");
    CHECK_MPI(MPI_Info_get(info, "absent", 15, v, &flag));
    CHECK(!flag && strcmp(v, "keep") == 0, "absent key changed value or flag");
    CHECK_MPI(MPI_Info_get_valuelen(info, "alpha", &len, &flag));
    CHECK(flag && len == 3, "valuelen %d", len);
    CHECK_MPI(MPI_Info_get_valuelen(info, "absent", &len, &flag));
    CHECK(!flag, "valuelen of absent key");

    /* MPI_Info_get_string: the length with its terminator; a short buffer
     * truncates; buflen 0 only asks the length */
    len = 3;
    CHECK_MPI(MPI_Info_get_string(info, "alpha", &len, v, &flag));
    CHECK(flag && len == 4 && strcmp(v, "tw") == 0, "short get_string: len %d v '%s'", len, v);
    len = 0;
    CHECK_MPI(MPI_Info_get_string(info, "alpha", &len, NULL, &flag));
    CHECK(flag && len == 4, "length query %d", len);
    len = 77;
    CHECK_MPI(MPI_Info_get_string(info, "absent", &len, v, &flag));
    CHECK(!flag && len == 77, "absent get_string changed buflen to %d", len);

    CHECK_MPI(MPI_Info_delete(info, "zeta"));
    CHECK_MPI(MPI_Info_delete(info, "alpha"));
    CHECK_MPI(MPI_Info_delete(info, "mid"));
    expect_keys(info, NULL, NULL, 0);
    CHECK_MPI(MPI_Info_free(&dup));
    CHECK(dup == MPI_INFO_NULL, "freed info not MPI_INFO_NULL");
    CHECK_MPI(MPI_Info_free(&info));
}

static void limits_and_errors(void)
{
    MPI_Info info, freed;
    char key[MPI_MAX_INFO_KEY + 2], val[MPI_MAX_INFO_VAL + 2], out[MPI_MAX_INFO_KEY + 1];
    int flag, len;
    CHECK_MPI(MPI_Info_create(&info));
    memset(key, 'k', sizeof key);
    key[MPI_MAX_INFO_KEY] = 0; /* the longest key */
    CHECK_MPI(MPI_Info_set(info, key, "v"));
    CHECK_MPI(MPI_Info_get_nthkey(info, 0, out));
    CHECK(strcmp(out, key) == 0, "longest key round trip");
    key[MPI_MAX_INFO_KEY] = 'k';
    key[MPI_MAX_INFO_KEY + 1] = 0;
    expect(MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set", "MPI_MAX_INFO_KEY");
    expect(MPI_Info_get(info, key, 1, val, &flag), MPI_ERR_INFO_KEY, "MPI_Info_get", NULL);
    expect(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY, "MPI_Info_set", "empty");
    expect(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set", "key");
    memset(val, 'v', sizeof val);
    val[MPI_MAX_INFO_VAL] = 0; /* the longest value */
    CHECK_MPI(MPI_Info_set(info, "long", val));
    CHECK_MPI(MPI_Info_get_valuelen(info, "long", &len, &flag));
    CHECK(flag && len == MPI_MAX_INFO_VAL, "longest value length %d", len);
    val[MPI_MAX_INFO_VAL] = 'v';
    val[MPI_MAX_INFO_VAL + 1] = 0;
    expect(MPI_Info_set(info, "long", val), MPI_ERR_INFO_VALUE, "MPI_Info_set", "MPI_MAX_INFO_VAL");
    expect(MPI_Info_set(info, "k", NULL), MPI_ERR_INFO_VALUE, "MPI_Info_set", "value");
    expect(MPI_Info_delete(info, "nope"), MPI_ERR_INFO_NOKEY, "MPI_Info_delete", "nope");
    expect(MPI_Info_get_nthkey(info, 2, out), MPI_ERR_ARG, "MPI_Info_get_nthkey", "n=2");
    expect(MPI_Info_get_nthkey(info, -1, out), MPI_ERR_ARG, "MPI_Info_get_nthkey", "n=-1");
    expect(MPI_Info_get(info, "long", -1, val, &flag), MPI_ERR_ARG, "MPI_Info_get", "valuelen");
    expect(MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys");
    expect(MPI_Info_set(MPI_INFO_NULL, "a", "b"), MPI_ERR_INFO, "MPI_Info_set", "MPI_INFO_NULL");
    expect(MPI_Info_get_nkeys((MPI_Info)0x12345, &len), MPI_ERR_INFO, "MPI_Info_get_nkeys",
           "0x12345");
    CHECK_MPI(MPI_Info_dup(info, &freed));
    MPI_Info stale = freed;
    CHECK_MPI(MPI_Info_free(&freed));
    expect(MPI_Info_set(stale, "a", "b"), MPI_ERR_INFO, "MPI_Info_set", NULL);
    expect(MPI_Info_create(NULL), MPI_ERR_ARG, "MPI_Info_create", "info");
    MPI_Info env = MPI_INFO_ENV;
    expect(MPI_Info_free(&env), MPI_ERR_INFO, "MPI_Info_free", "MPI_INFO_ENV");
    CHECK_MPI(MPI_Info_free(&info));
}

static void env(int size)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag, len = sizeof v;
    CHECK_MPI(MPI_Info_get_string(MPI_INFO_ENV, "maxprocs", &len, v, &flag));
    CHECK(flag && atoi(v) == size, "maxprocs '%s'", flag ? v : "");
    len = sizeof v;
    CHECK_MPI(MPI_Info_get_string(MPI_INFO_ENV, "command", &len, v, &flag));
    CHECK(flag && strstr(v, "info_basic") != NULL, "command '%s'", flag ? v : "");
    len = sizeof v;
    CHECK_MPI(MPI_Info_get_string(MPI_INFO_ENV, "argv", &len, v, &flag));
    CHECK(flag && strcmp(v, "one two") == 0, "argv '%s'", flag ? v : "");
    len = sizeof v;
    /* a level requested before the program started: our launcher takes none */
    CHECK_MPI(MPI_Info_get_string(MPI_INFO_ENV, "thread_level", &len, v, &flag));
    CHECK(!flag, "thread_level '%s'", v);
    const char *present[] = {"host", "arch", "wdir"};
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Info_get_valuelen(MPI_INFO_ENV, present[i], &len, &flag));
        CHECK(flag && len > 0, "MPI_INFO_ENV has no '%s'", present[i]);
    }
    MPI_Info e;
    char *args[] = {"prog", "x", NULL};
    CHECK_MPI(MPI_Info_create_env(2, args, &e));
    len = sizeof v;
    CHECK_MPI(MPI_Info_get_string(e, "command", &len, v, &flag));
    CHECK(flag && strcmp(v, "prog") == 0, "create_env command '%s'", v);
    len = sizeof v;
    CHECK_MPI(MPI_Info_get_string(e, "argv", &len, v, &flag));
    CHECK(flag && strcmp(v, "x") == 0, "create_env argv '%s'", v);
    CHECK_MPI(MPI_Info_free(&e));
}

static int hint(MPI_Comm c, const char *key)
{
    MPI_Info info;
    char v[16];
    int flag, len = sizeof v;
    CHECK_MPI(MPI_Comm_get_info(c, &info));
    CHECK_MPI(MPI_Info_get_string(info, key, &len, v, &flag));
    CHECK(flag, "Comm_get_info has no '%s'", key);
    CHECK_MPI(MPI_Info_free(&info));
    return strcmp(v, "true") == 0;
}

static void comm_hints(void)
{
    MPI_Info info, got;
    MPI_Comm d, d2;
    int n;
    CHECK_MPI(MPI_Comm_get_info(MPI_COMM_WORLD, &got));
    CHECK_MPI(MPI_Info_get_nkeys(got, &n));
    CHECK(n == 5, "world info has %d keys", n);
    CHECK_MPI(MPI_Info_free(&got));
    CHECK(!hint(MPI_COMM_WORLD, "mpi_assert_no_any_tag"), "default hint true");
    CHECK(!hint(MPI_COMM_WORLD, "mpi_assert_strict_persistent_collective_ordering"),
          "default hint true");

    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_allow_overtaking", "true"));
    CHECK_MPI(MPI_Info_set(info, "unknown_hint", "x"));
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &d));
    CHECK(hint(d, "mpi_assert_no_any_tag") && hint(d, "mpi_assert_allow_overtaking") &&
              !hint(d, "mpi_assert_exact_length"),
          "dup_with_info hints");
    CHECK_MPI(MPI_Comm_get_info(d, &got));
    int flag;
    CHECK_MPI(MPI_Info_get_valuelen(got, "unknown_hint", &n, &flag));
    CHECK(!flag, "an unknown hint was kept");
    CHECK_MPI(MPI_Info_free(&got));
    /* the plain dup duplicates the hints (MPI-4.1 7.4.2) */
    CHECK_MPI(MPI_Comm_dup(d, &d2));
    CHECK(hint(d2, "mpi_assert_no_any_tag"), "dup lost the hints");
    CHECK_MPI(MPI_Comm_free(&d2));
    /* set_info changes only what it names */
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "false"));
    CHECK_MPI(MPI_Info_delete(info, "mpi_assert_allow_overtaking"));
    CHECK_MPI(MPI_Comm_set_info(d, info));
    CHECK(!hint(d, "mpi_assert_no_any_tag") && hint(d, "mpi_assert_allow_overtaking"), "set_info");
    /* dup_with_info does not take the parent's hints */
    CHECK_MPI(MPI_Comm_dup_with_info(d, MPI_INFO_NULL, &d2));
    CHECK(!hint(d2, "mpi_assert_allow_overtaking"), "dup_with_info kept the parent's hints");
    CHECK_MPI(MPI_Comm_free(&d2));
    expect(MPI_Comm_dup_with_info(d, (MPI_Info)0x12345, &d2), MPI_ERR_INFO,
           "MPI_Comm_dup_with_info", "info");
    expect(MPI_Comm_set_info(d, (MPI_Info)0x12345), MPI_ERR_INFO, "MPI_Comm_set_info", "info");
    expect(MPI_Comm_get_info(d, NULL), MPI_ERR_ARG, "MPI_Comm_get_info", "info_used");
    expect(MPI_Win_set_info(MPI_WIN_NULL, info), MPI_ERR_WIN, "MPI_Win_set_info", "MPI_WIN_NULL");
    expect(MPI_Win_get_info((MPI_Win)0x12345, &got), MPI_ERR_WIN, "MPI_Win_get_info", "window");
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
    int size, rank;
    /* info objects may be used before MPI_Init (MPI-4.1 11.4.1) */
    MPI_Info early;
    char v[8];
    int flag;
    CHECK_MPI(MPI_Info_create(&early));
    CHECK_MPI(MPI_Info_set(early, "k", "early"));
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Info_get(early, "k", 7, v, &flag));
    CHECK(flag && strcmp(v, "early") == 0, "info made before MPI_Init");
    round_trips();
    limits_and_errors();
    env(size);
    comm_hints();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("info_basic: all passed\n");
    MPI_Finalize();
    /* ... and after MPI_Finalize */
    if (MPI_Info_free(&early) != MPI_SUCCESS || early != MPI_INFO_NULL) {
        fprintf(stderr, "FAIL info_basic: MPI_Info_free after MPI_Finalize\n");
        return 1;
    }
    return 0;
}
