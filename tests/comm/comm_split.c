/* MPI_Comm_split and MPI_Comm_split_type: colours, keys (ties broken by
 * the parent rank), MPI_UNDEFINED, nested splits, and many create/free
 * cycles. */
#include <stdlib.h>

#include "tern_hosts.h"
#include "tern_test.h"

static int rank, size;

/* Sum of world ranks over the members, computed through the new comm. */
static void check_members(MPI_Comm c, const int *world_members, int n, const char *what)
{
    int csize, crank;
    CHECK_MPI(MPI_Comm_size(c, &csize));
    CHECK_MPI(MPI_Comm_rank(c, &crank));
    CHECK(csize == n, "%s: size %d want %d", what, csize, n);
    CHECK(world_members[crank] == rank, "%s: my rank %d maps to world %d, I am %d", what, crank,
          world_members[crank], rank);
    /* The group translates back to exactly these world ranks. */
    MPI_Group g, wg;
    CHECK_MPI(MPI_Comm_group(c, &g));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) in[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, in, wg, out));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == world_members[i], "%s: member %d is world %d want %d", what, i, out[i],
              world_members[i]);
    /* Communication works and stays inside. */
    long want = 0, got = 0, mine = rank;
    for (int i = 0; i < n; i++) want += world_members[i];
    CHECK_MPI(MPI_Allreduce(&mine, &got, 1, MPI_LONG, MPI_SUM, c));
    CHECK(got == want, "%s: allreduce %ld want %ld", what, got, want);
    int token = crank == 0 ? 4242 : -1;
    CHECK_MPI(MPI_Bcast(&token, 1, MPI_INT, 0, c));
    CHECK(token == 4242, "%s: bcast %d", what, token);
    free(in);
    free(out);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *members = calloc((size_t)size, sizeof(int));
    MPI_Comm c, c2;

    /* colour rank % 3, key -rank: each colour in descending world order. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &c));
    int n = 0;
    for (int r = size - 1; r >= 0; r--)
        if (r % 3 == rank % 3) members[n++] = r;
    check_members(c, members, n, "split mod 3 reversed");

    /* Nested: split the colour comm in halves by its own rank, equal keys. */
    int crank;
    MPI_Comm_rank(c, &crank);
    CHECK_MPI(MPI_Comm_split(c, crank % 2, 0, &c2));
    int m = 0;
    for (int i = 0; i < n; i++)
        if (i % 2 == crank % 2) members[m++] = members[i];
    check_members(c2, members, m, "nested split");
    CHECK_MPI(MPI_Comm_free(&c2));
    CHECK(c2 == MPI_COMM_NULL, "freed handle not MPI_COMM_NULL");
    CHECK_MPI(MPI_Comm_free(&c));

    /* MPI_UNDEFINED: the last rank stays out. Equal keys keep world order. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1 ? MPI_UNDEFINED : 7, 0, &c));
    if (rank == size - 1) {
        CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED colour gave a communicator");
    } else {
        for (int r = 0; r < size - 1; r++) members[r] = r;
        check_members(c, members, size - 1, "split undefined");
        MPI_Comm_free(&c);
    }

    /* Keys with ties: key = rank / 2, so pairs keep their world order. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, (size - rank) / 2, &c));
    n = 0;
    for (int k = 0; k <= size; k++)
        for (int r = 0; r < size; r++)
            if ((size - r) / 2 == k) members[n++] = r;
    check_members(c, members, size, "split with tied keys");
    MPI_Comm_free(&c);

    /* split_type: the ranks of this host. */
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &c));
    n = 0;
    for (int r = size - 1; r >= 0; r--)
        if (tt_host_of(r) == tt_host_of(rank)) members[n++] = r;
    check_members(c, members, n, "split_type shared");
    MPI_Comm_free(&c);
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
                                  0, MPI_INFO_NULL, &c));
    if (rank % 2) {
        CHECK(c == MPI_COMM_NULL, "split_type MPI_UNDEFINED gave a communicator");
    } else {
        n = 0;
        for (int r = 0; r < size; r += 2)
            if (tt_host_of(r) == tt_host_of(rank)) members[n++] = r;
        check_members(c, members, n, "split_type shared, evens");
        MPI_Comm_free(&c);
    }

    /* Many create/free cycles: context ids keep advancing, nothing leaks
     * into the next communicator. */
    for (int i = 0; i < 200; i++) {
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, i % 2 ? rank % 2 : 0, rank, &c));
        int v = 1, s = 0;
        CHECK_MPI(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, c));
        int csize;
        MPI_Comm_size(c, &csize);
        CHECK(s == csize, "cycle %d: allreduce %d size %d", i, s, csize);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    free(members);
    MPI_Finalize();
    return 0;
}
