/* MPI_Comm_create (one group, disjoint groups, the empty group, a reversed
 * group) and MPI_Comm_create_group (collective over the group only). */
#include <stdlib.h>

#include "tern_test.h"

static int rank, size;

static void check_comm(MPI_Comm c, int want_rank, int want_size, const char *what)
{
    int r, s;
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK(r == want_rank && s == want_size, "%s: rank %d size %d, want %d %d", what, r, s,
          want_rank, want_size);
    int v = rank, sum = 0, want = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
    MPI_Group g, wg;
    MPI_Comm_group(c, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int i = 0; i < s; i++) {
        int w;
        MPI_Group_translate_ranks(g, 1, &i, wg, &w);
        want += w;
    }
    CHECK(sum == want, "%s: allreduce %d want %d", what, sum, want);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world, evens, odds, rev;
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int r_evens[1][3] = {{0, size - 1, 2}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, r_evens, &evens));
    CHECK_MPI(MPI_Group_difference(world, evens, &odds));
    int r_rev[1][3] = {{size - 1, 0, -1}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, r_rev, &rev));
    int nevens = (size + 1) / 2, nodds = size / 2;

    /* One group: the evens. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &c));
    if (rank % 2 == 0) {
        check_comm(c, rank / 2, nevens, "create evens");
        MPI_Comm_free(&c);
    } else {
        CHECK(c == MPI_COMM_NULL, "odd rank got a communicator");
    }

    /* Disjoint groups: each rank passes its own half. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? odds : evens, &c));
    check_comm(c, rank / 2, rank % 2 ? nodds : nevens, "create disjoint halves");
    MPI_Comm_free(&c);

    /* Reversed order. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, rev, &c));
    check_comm(c, size - 1 - rank, size, "create reversed");
    MPI_Comm_free(&c);

    /* Empty group. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_COMM_NULL, "empty group gave a communicator");

    /* create_group: only the odds call it, while the evens run their own
     * collectives on a communicator of theirs. */
    MPI_Comm evencomm;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 0, rank, &evencomm));
    for (int round = 0; round < 3; round++) {
        if (rank % 2) {
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 42 + round, &c));
            check_comm(c, rank / 2, nodds, "create_group odds");
            MPI_Comm_free(&c);
        } else {
            check_comm(evencomm, rank / 2, nevens, "evens meanwhile");
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &c));
            check_comm(c, rank / 2, nevens, "create_group evens");
            MPI_Comm_free(&c);
        }
    }
    if (evencomm != MPI_COMM_NULL) MPI_Comm_free(&evencomm);

    /* create_group of a derived communicator, in reversed order. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_create_group(dup, rev, 0, &c));
    check_comm(c, size - 1 - rank, size, "create_group reversed on a dup");
    MPI_Comm_free(&c);
    MPI_Comm_free(&dup);

    MPI_Group_free(&world);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&rev);
    MPI_Finalize();
    return 0;
}
