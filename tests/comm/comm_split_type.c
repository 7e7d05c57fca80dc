/* MPI_Comm_split_type (SHARED, HW_GUIDED, HW_UNGUIDED, MPI_UNDEFINED) and
 * the MPI-4 MPI_Comm_create_from_group. */
#include "tern_expect.h"

static int rank, size;

static void expect_comm(MPI_Comm c, int want_rank, int want_size, const char *what)
{
    int r, s;
    CHECK(c != MPI_COMM_NULL, "%s: MPI_COMM_NULL", what);
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK(r == want_rank && s == want_size, "%s: rank %d size %d want %d %d", what, r, s, want_rank, want_size);
    int sum = 0, want = 0;
    CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c));
    want = s * (s - 1) / 2;
    CHECK(sum == want, "%s: allreduce %d want %d", what, sum, want);
}

/* HW_GUIDED, or MPI-4.1's RESOURCE_GUIDED (the same split), with the
 * resource in an info object. */
static int guided_type = MPI_COMM_TYPE_HW_GUIDED;

static int guided(const char *resource, MPI_Comm *out)
{
    MPI_Info info;
    if (MPI_Info_create(&info) != MPI_SUCCESS) return 0;
    CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", resource));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, guided_type, 0, info, out));
    MPI_Info_free(&info);
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm c;
    int res;

    /* One node: SHARED keeps everyone, ordered by key. */
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &c));
    expect_comm(c, size - 1 - rank, size, "shared, reversed keys");
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &res));
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "shared reversed compares %d", res);
    MPI_Comm_free(&c);
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED split type gave a communicator");

    const int guided_types[2] = {MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED};
    for (int g = 0; g < 2; g++) {
        guided_type = guided_types[g];
        /* HW_GUIDED without the info key: no resource named, MPI_COMM_NULL. */
        CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, guided_type, 0, MPI_INFO_NULL, &c));
        CHECK(c == MPI_COMM_NULL, "HW_GUIDED without a resource gave a communicator");
        if (guided("mpi_shared_memory", &c)) {
            CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &res));
            CHECK(res == MPI_CONGRUENT, "HW_GUIDED mpi_shared_memory compares %d", res);
            MPI_Comm_free(&c);
            CHECK(guided("no such resource", &c), "info vanished");
            CHECK(c == MPI_COMM_NULL, "HW_GUIDED with an unknown resource gave a communicator");
            /* Each PU holds at most one bound process per CPU: a proper split or none. */
            CHECK(guided("PU", &c), "info vanished");
            if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
        }
    }

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

    expect(MPI_Comm_create_from_group(world, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_ARG,
           "MPI_Comm_create_from_group", "stringtag");
    expect(MPI_Comm_create_from_group(world, "x", MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &c), MPI_ERR_ARG,
           "MPI_Comm_create_from_group", "errhandler");
    expect(MPI_Comm_create_from_group(MPI_GROUP_NULL, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP,
           "MPI_Comm_create_from_group", "group");

    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&rest);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
