/* Group algebra against hand-computed lists: incl, excl, range_incl,
 * range_excl, union, intersection, difference, translate_ranks, compare. */
#include <stdlib.h>

#include "tern_test.h"

static int rank, size;
static MPI_Group world;

/* The group's members as world ranks must be exactly want[0..n). */
static void expect_members(MPI_Group g, const int *want, int n, const char *what)
{
    int gs, gr;
    CHECK_MPI(MPI_Group_size(g, &gs));
    CHECK(gs == n, "%s: size %d want %d", what, gs, n);
    if (n == 0) {
        CHECK(g == MPI_GROUP_EMPTY, "%s: empty result is not MPI_GROUP_EMPTY", what);
        return;
    }
    int *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) in[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, in, world, out));
    int my = MPI_UNDEFINED;
    for (int i = 0; i < n; i++) {
        CHECK(out[i] == want[i], "%s: member %d is world %d want %d", what, i, out[i], want[i]);
        if (want[i] == rank) my = i;
    }
    CHECK_MPI(MPI_Group_rank(g, &gr));
    CHECK(gr == my, "%s: my rank %d want %d", what, gr, my);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *w = malloc(sizeof(int) * (size_t)(size + 2)), n;
    MPI_Group g, evens, odds, rev, u, x;
    int res;

    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    for (int i = 0; i < size; i++) w[i] = i;
    expect_members(world, w, size, "world");

    /* incl: last then first. */
    int sel[2] = {size - 1, 0};
    CHECK_MPI(MPI_Group_incl(world, size > 1 ? 2 : 1, sel, &g));
    expect_members(g, sel, size > 1 ? 2 : 1, "incl {n-1, 0}");
    MPI_Group_free(&g);
    CHECK(g == MPI_GROUP_NULL, "freed group not MPI_GROUP_NULL");
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &g));
    expect_members(g, NULL, 0, "incl nothing");

    /* excl rank 0. */
    int zero = 0;
    CHECK_MPI(MPI_Group_excl(world, 1, &zero, &g));
    for (int i = 1; i < size; i++) w[i - 1] = i;
    expect_members(g, w, size - 1, "excl {0}");
    MPI_Group_free(&g);

    /* ranges: evens, reversed, odds by exclusion. */
    int r1[1][3] = {{0, size - 1, 2}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, r1, &evens));
    n = 0;
    for (int i = 0; i < size; i += 2) w[n++] = i;
    expect_members(evens, w, n, "range_incl evens");
    int r2[1][3] = {{size - 1, 0, -1}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, r2, &rev));
    for (int i = 0; i < size; i++) w[i] = size - 1 - i;
    expect_members(rev, w, size, "range_incl reversed");
    CHECK_MPI(MPI_Group_range_excl(world, 1, r1, &odds));
    n = 0;
    for (int i = 1; i < size; i += 2) w[n++] = i;
    expect_members(odds, w, n, "range_excl evens");
    /* two triplets: {0} and {n-1 .. 1 step -2} */
    if (size >= 3) {
        int r3[2][3] = {{0, 0, 1}, {size - 1, 1, -2}};
        CHECK_MPI(MPI_Group_range_incl(world, 2, r3, &g));
        n = 0;
        w[n++] = 0;
        for (int i = size - 1; i >= 1; i -= 2) w[n++] = i;
        expect_members(g, w, n, "range_incl two triplets");
        MPI_Group_free(&g);
    }

    /* union: group1 order, then group2's new members. */
    CHECK_MPI(MPI_Group_union(odds, evens, &u));
    n = 0;
    for (int i = 1; i < size; i += 2) w[n++] = i;
    for (int i = 0; i < size; i += 2) w[n++] = i;
    expect_members(u, w, n, "union odds+evens");
    CHECK_MPI(MPI_Group_union(rev, evens, &x));
    for (int i = 0; i < size; i++) w[i] = size - 1 - i;
    expect_members(x, w, size, "union reversed+evens");
    MPI_Group_free(&x);

    /* intersection keeps group1's order. */
    CHECK_MPI(MPI_Group_intersection(rev, evens, &x));
    n = 0;
    for (int i = size - 1; i >= 0; i--)
        if (i % 2 == 0) w[n++] = i;
    expect_members(x, w, n, "intersection reversed & evens");
    MPI_Group_free(&x);
    CHECK_MPI(MPI_Group_intersection(odds, evens, &x));
    expect_members(x, NULL, 0, "intersection odds & evens");

    /* difference */
    CHECK_MPI(MPI_Group_difference(rev, odds, &x));
    n = 0;
    for (int i = size - 1; i >= 0; i--)
        if (i % 2 == 0) w[n++] = i;
    expect_members(x, w, n, "difference reversed - odds");
    MPI_Group_free(&x);
    CHECK_MPI(MPI_Group_difference(evens, world, &x));
    expect_members(x, NULL, 0, "difference evens - world");

    /* translate_ranks: into odds (evens are absent), MPI_PROC_NULL passes. */
    int in[3] = {0, size - 1, MPI_PROC_NULL}, out[3];
    CHECK_MPI(MPI_Group_translate_ranks(world, 3, in, odds, out));
    CHECK(out[0] == MPI_UNDEFINED, "world 0 in odds: %d", out[0]);
    CHECK(out[1] == ((size - 1) % 2 ? (size - 1) / 2 : MPI_UNDEFINED), "world n-1 in odds: %d",
          out[1]);
    CHECK(out[2] == MPI_PROC_NULL, "MPI_PROC_NULL became %d", out[2]);
    CHECK_MPI(MPI_Group_translate_ranks(rev, 1, &zero, world, out));
    CHECK(out[0] == size - 1, "rev 0 in world: %d", out[0]);

    /* compare */
    MPI_Group w2;
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_group(dup, &w2));
    CHECK_MPI(MPI_Group_compare(world, w2, &res));
    CHECK(res == MPI_IDENT, "world/dup group: %d", res);
    CHECK_MPI(MPI_Group_compare(world, rev, &res));
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "world/reversed: %d", res);
    CHECK_MPI(MPI_Group_compare(world, u, &res));
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "world/union: %d", res);
    CHECK_MPI(MPI_Group_compare(world, evens, &res));
    CHECK(res == (size > 1 ? MPI_UNEQUAL : MPI_IDENT), "world/evens: %d", res);
    CHECK_MPI(MPI_Group_compare(MPI_GROUP_EMPTY, odds, &res));
    CHECK(res == (size > 1 ? MPI_UNEQUAL : MPI_IDENT), "empty/odds: %d", res);
    MPI_Group_free(&w2);
    MPI_Comm_free(&dup);

    /* The group of MPI_COMM_SELF. */
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &g));
    expect_members(g, &rank, 1, "self");
    MPI_Group_free(&g);

    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&rev);
    MPI_Group_free(&u);
    MPI_Group_free(&world);
    free(w);
    MPI_Finalize();
    return 0;
}
