/* MPI_Comm_split_type (SHARED, HW_GUIDED, HW_UNGUIDED, MPI_UNDEFINED), the
 * mpi_hw_resource_type the hardware splits report, and the MPI-4
 * MPI_Comm_create_from_group. */
#include <stdlib.h>
#include <string.h>

#include "tern_expect.h"
#include "tern_hosts.h"

static int rank, size;

static void expect_comm(MPI_Comm c, int want_rank, int want_size, const char *what)
{
    int r, s;
    CHECK(c != MPI_COMM_NULL, "%s: MPI_COMM_NULL", what);
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK(r == want_rank && s == want_size, "%s: rank %d size %d want %d %d", what, r, s, want_rank,
          want_size);
    int sum = 0, want = 0;
    CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c));
    want = s * (s - 1) / 2;
    CHECK(sum == want, "%s: allreduce %d want %d", what, sum, want);
}

/* HW_GUIDED, or MPI-4.1's RESOURCE_GUIDED (the same split), with the
 * resource in an info object. */
static int guided_type = MPI_COMM_TYPE_HW_GUIDED;

static int guided_on(MPI_Comm comm, const char *resource, MPI_Comm *out)
{
    MPI_Info info;
    if (MPI_Info_create(&info) != MPI_SUCCESS) return 0;
    CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", resource));
    CHECK_MPI(MPI_Comm_split_type(comm, guided_type, 0, info, out));
    MPI_Info_free(&info);
    return 1;
}

static int guided(const char *resource, MPI_Comm *out)
{
    return guided_on(MPI_COMM_WORLD, resource, out);
}

/* The value of mpi_hw_resource_type on c's info ("" when absent). */
static void hw_type_of(MPI_Comm c, char *value, int len)
{
    MPI_Info info;
    int flag = 0, vlen = len;
    CHECK_MPI(MPI_Comm_get_info(c, &info));
    CHECK_MPI(MPI_Info_get_string(info, "mpi_hw_resource_type", &vlen, value, &flag));
    if (!flag) value[0] = 0;
    MPI_Info_free(&info);
}

/* Whether every process is bound to one PU and not all to the same one:
 * then HW_UNGUIDED on the world has a level that splits it with every
 * process inside an instance, so nobody may get MPI_COMM_NULL. */
static int bound_apart(void)
{
    MPI_Info hw;
    char v[32];
    int flag = 0, len = sizeof v, pu = -1, lo, hi, all;
    CHECK_MPI(MPI_Get_hw_resource_info(&hw));
    CHECK_MPI(MPI_Info_get_string(hw, "PU", &len, v, &flag));
    MPI_Info_free(&hw);
    if (flag) pu = atoi(v);
    CHECK_MPI(MPI_Allreduce(&pu, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&pu, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&flag, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    return all && lo != hi;
}

/* HW_UNGUIDED level by level, as MPI-4.1's example walks the hierarchy:
 * each new communicator names in mpi_hw_resource_type the resource it was
 * split by, HW_GUIDED with that name over the same parent gives the same
 * groups, and a dup keeps the key.  Stops where some member of the parent
 * got MPI_COMM_NULL (the next calls would not be collective). */
static void unguided_walk(void)
{
    MPI_Comm parent = MPI_COMM_WORLD;
    int must = bound_apart(), levels = 0;
    for (;;) {
        MPI_Comm c, g, d;
        char type[64], again[64];
        int got, all, res;
        MPI_Info told;
        CHECK_MPI(MPI_Info_create(&told));
        CHECK_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_UNGUIDED, 0, told, &c));
        got = c != MPI_COMM_NULL;
        char in_info[64] = "";
        int len = sizeof in_info, found = 0;
        CHECK_MPI(MPI_Info_get_string(told, "mpi_hw_resource_type", &len, in_info, &found));
        MPI_Info_free(&told);
        CHECK(!got || found, "HW_UNGUIDED did not set mpi_hw_resource_type in the caller's info");
        if (levels == 0 && must)
            CHECK(got, "HW_UNGUIDED gave MPI_COMM_NULL to a process bound to one PU");
        CHECK_MPI(MPI_Allreduce(&got, &all, 1, MPI_INT, MPI_LAND, parent));
        if (!all) {
            if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
            break;
        }
        levels++;
        hw_type_of(c, type, sizeof type);
        CHECK(type[0] != 0, "HW_UNGUIDED level %d: no mpi_hw_resource_type on the new communicator",
              levels);
        CHECK(strcmp(in_info, type) == 0, "HW_UNGUIDED told '%s' in the info and '%s' on the comm",
              in_info, type);
        CHECK(guided_on(parent, type, &g), "info vanished");
        CHECK(g != MPI_COMM_NULL, "HW_GUIDED %s after HW_UNGUIDED chose it gave MPI_COMM_NULL",
              type);
        CHECK_MPI(MPI_Comm_compare(c, g, &res));
        CHECK(res == MPI_CONGRUENT, "HW_GUIDED %s and HW_UNGUIDED differ (compare %d)", type, res);
        hw_type_of(g, again, sizeof again);
        CHECK(strcmp(again, type) == 0, "HW_GUIDED %s reports mpi_hw_resource_type '%s'", type,
              again);
        MPI_Comm_free(&g);
        CHECK_MPI(MPI_Comm_dup(c, &d));
        hw_type_of(d, again, sizeof again);
        CHECK(strcmp(again, type) == 0, "dup of a %s communicator reports '%s'", type, again);
        MPI_Comm_free(&d);
        if (parent != MPI_COMM_WORLD) MPI_Comm_free(&parent);
        parent = c;
    }
    if (parent != MPI_COMM_WORLD) MPI_Comm_free(&parent);
    if (must) CHECK(levels > 0, "no HW_UNGUIDED level");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm c;
    int res;

    /* SHARED keeps the ranks of this host, ordered by key. */
    int on_host = 0, above = 0, hosts = 0;
    for (int r = 0; r < size; r++) {
        on_host += tt_host_of(r) == tt_host_of(rank);
        above += r > rank && tt_host_of(r) == tt_host_of(rank);
        hosts = tt_host_of(r) + 1 > hosts ? tt_host_of(r) + 1 : hosts;
    }
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &c));
    expect_comm(c, above, on_host, "shared, reversed keys");
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &res));
    CHECK(res == (hosts > 1  ? MPI_UNEQUAL
                  : size > 1 ? MPI_SIMILAR
                             : MPI_CONGRUENT),
          "shared reversed compares %d", res);
    MPI_Comm_free(&c);
    MPI_Comm shared;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED split type gave a communicator");

    const int guided_types[2] = {MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED};
    for (int g = 0; g < 2; g++) {
        guided_type = guided_types[g];
        /* HW_GUIDED without the info key: no resource named, MPI_COMM_NULL. */
        CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, guided_type, 0, MPI_INFO_NULL, &c));
        CHECK(c == MPI_COMM_NULL, "HW_GUIDED without a resource gave a communicator");
        if (guided("mpi_shared_memory", &c)) {
            CHECK_MPI(MPI_Comm_compare(shared, c, &res));
            CHECK(res == MPI_CONGRUENT, "HW_GUIDED mpi_shared_memory and SHARED compare %d", res);
            char type[64];
            hw_type_of(c, type, sizeof type);
            CHECK(strcmp(type, "mpi_shared_memory") == 0,
                  "HW_GUIDED mpi_shared_memory reports '%s'", type);
            MPI_Comm_free(&c);
            CHECK(guided("no such resource", &c), "info vanished");
            CHECK(c == MPI_COMM_NULL, "HW_GUIDED with an unknown resource gave a communicator");
            /* Each PU holds at most one bound process per CPU: a proper split or none. */
            CHECK(guided("PU", &c), "info vanished");
            if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
        }
    }

    MPI_Comm_free(&shared);

    /* HW_UNGUIDED: each part a strict subset of the parent, or none (always
     * none for one process). */
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &c));
    if (size == 1) CHECK(c == MPI_COMM_NULL, "HW_UNGUIDED on one process gave a communicator");
    if (c != MPI_COMM_NULL) {
        int s, in = 1, total = 0;
        CHECK_MPI(MPI_Comm_size(c, &s));
        CHECK(s < size, "HW_UNGUIDED part of size %d is not a strict subset of %d", s, size);
        CHECK_MPI(MPI_Allreduce(&in, &total, 1, MPI_INT, MPI_SUM, c));
        CHECK(total == s, "HW_UNGUIDED part does not work: %d of %d", total, s);
        MPI_Comm_free(&c);
    }
    unguided_walk();
    /* A split by colour is no hardware split. */
    char type[64];
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c));
    hw_type_of(c, type, sizeof type);
    CHECK(type[0] == 0, "MPI_Comm_split reports mpi_hw_resource_type '%s'", type);
    MPI_Comm_free(&c);

    /* MPI_Comm_create_from_group: everyone but world rank 0 (which gets
     * MPI_COMM_NULL), with the handler given. */
    MPI_Group world, rest, evens, odds;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int zero = 0;
    CHECK_MPI(MPI_Group_excl(world, 1, &zero, &rest));
    CHECK_MPI(MPI_Comm_create_from_group(rest, "tern: rest", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    if (rank == 0) {
        CHECK(c == MPI_COMM_NULL, "non-member got a communicator");
    } else {
        expect_comm(c, rank - 1, size - 1, "from group (rest)");
        MPI_Errhandler eh;
        CHECK_MPI(MPI_Comm_get_errhandler(c, &eh));
        CHECK(eh == MPI_ERRORS_RETURN, "from group: errhandler 0x%x", (unsigned)eh);
        MPI_Comm_free(&c);
    }
    /* Two disjoint groups at once with the same tag, then the whole world. */
    int ev[1][3] = {{0, size - 1, 2}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, ev, &evens));
    CHECK_MPI(MPI_Group_difference(world, evens, &odds));
    CHECK_MPI(MPI_Comm_create_from_group(rank % 2 ? odds : evens, "tern: halves", MPI_INFO_NULL,
                                         MPI_ERRORS_ARE_FATAL, &c));
    expect_comm(c, rank / 2, rank % 2 ? size / 2 : (size + 1) / 2, "from group (parity)");
    MPI_Comm_free(&c);
    CHECK_MPI(MPI_Comm_create_from_group(world, "tern: all", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    expect_comm(c, rank, size, "from group (world)");
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &res));
    CHECK(res == MPI_CONGRUENT, "from world group compares %d", res);
    MPI_Comm_free(&c);

    expect(MPI_Comm_create_from_group(world, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
           MPI_ERR_ARG, "MPI_Comm_create_from_group", "stringtag");
    expect(MPI_Comm_create_from_group(world, "x", MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &c),
           MPI_ERR_ARG, "MPI_Comm_create_from_group", "errhandler");
    expect(MPI_Comm_create_from_group(MPI_GROUP_NULL, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
           MPI_ERR_GROUP, "MPI_Comm_create_from_group", "group");

    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&rest);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
