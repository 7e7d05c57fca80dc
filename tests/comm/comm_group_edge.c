/* Group operations at their edges, answers as MPICH gives them: ranges
 * with large and negative strides and their errors (all MPI_ERR_ARG),
 * MPI_GROUP_EMPTY as input and as result, translate_ranks with
 * MPI_PROC_NULL and non-members, compare, freeing. */
#include "tern_expect.h"

static int rank, size;
static MPI_Group world;

/* g's members as world ranks are want[0..n). */
static void members(MPI_Group g, const int *want, int n, const char *what)
{
    int gs, in[64], out[64];
    CHECK_MPI(MPI_Group_size(g, &gs));
    CHECK(gs == n, "%s: size %d want %d", what, gs, n);
    if (n == 0) CHECK(g == MPI_GROUP_EMPTY, "%s: empty result is not MPI_GROUP_EMPTY", what);
    for (int i = 0; i < n; i++) in[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, in, world, out));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == want[i], "%s: member %d is %d want %d", what, i, out[i], want[i]);
}

static void range(int first, int last, int stride, int excl, const int *want, int n,
                  const char *what)
{
    int r[1][3] = {{first, last, stride}};
    MPI_Group g;
    if (excl)
        CHECK_MPI(MPI_Group_range_excl(world, 1, r, &g));
    else
        CHECK_MPI(MPI_Group_range_incl(world, 1, r, &g));
    members(g, want, n, what);
    if (g != MPI_GROUP_EMPTY) MPI_Group_free(&g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int w[64], n, x;
    MPI_Group g = MPI_GROUP_NULL, e;

    /* Strides past the last rank, negative strides, single ranks. */
    int zero = 0;
    range(0, size - 1, size + 5, 0, &zero, 1, "range (0, n-1, n+5)");
    n = 0;
    for (int r = size - 1; r >= 0; r -= 2) w[n++] = r;
    range(size - 1, 0, -2, 0, w, n, "range (n-1, 0, -2)");
    int last = size - 1;
    range(last, last, -1, 0, &last, 1, "range (n-1, n-1, -1)");
    range(0, size - 1, 1, 1, NULL, 0, "range_excl everything");
    n = 0;
    for (int r = 1; r < size; r += 2) w[n++] = r;
    range(0, size - 1, 2, 1, w, n, "range_excl evens");

    /* Range errors: MPI_ERR_ARG, as MPICH. */
    if (size >= 3) {
        int down[1][3] = {{2, 0, 1}}, up[1][3] = {{0, 2, -1}}, twice[2][3] = {{0, 2, 1}, {2, 2, 1}};
        expect(MPI_Group_range_incl(world, 1, down, &g), MPI_ERR_ARG, "MPI_Group_range_incl",
               "wrong sign");
        expect(MPI_Group_range_excl(world, 1, up, &g), MPI_ERR_ARG, "MPI_Group_range_excl",
               "wrong sign");
        expect(MPI_Group_range_incl(world, 2, twice, &g), MPI_ERR_ARG, "MPI_Group_range_incl",
               "twice");
    }
    int neg_first[1][3] = {{-1, 0, 1}}, past[1][3] = {{0, size, 1}};
    expect(MPI_Group_range_incl(world, 1, neg_first, &g), MPI_ERR_ARG, "MPI_Group_range_incl",
           "first=-1");
    expect(MPI_Group_range_excl(world, 1, past, &g), MPI_ERR_ARG, "MPI_Group_range_excl", "last=");
    expect(MPI_Group_range_incl(world, -1, past, &g), MPI_ERR_ARG, "MPI_Group_range_incl", "n=-1");
    CHECK(g == MPI_GROUP_NULL, "a failed call set newgroup");
    CHECK_MPI(MPI_Group_range_incl(world, 0, NULL, &g));
    CHECK(g == MPI_GROUP_EMPTY, "range_incl of nothing");

    /* incl/excl of nothing and of everything. */
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &g));
    CHECK(g == MPI_GROUP_EMPTY, "incl of nothing");
    for (int i = 0; i < size; i++) w[i] = i;
    CHECK_MPI(MPI_Group_excl(world, size, w, &g));
    CHECK(g == MPI_GROUP_EMPTY, "excl of everything");
    expect(MPI_Group_incl(world, 1, (int[]){-1}, &g), MPI_ERR_RANK, "MPI_Group_incl",
           "ranks[0]=-1");
    expect(MPI_Group_excl(world, -1, w, &g), MPI_ERR_ARG, "MPI_Group_excl", "n=-1");

    /* MPI_GROUP_EMPTY as input. */
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &x));
    CHECK(x == 0, "size of MPI_GROUP_EMPTY %d", x);
    CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &x));
    CHECK(x == MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY %d", x);
    CHECK_MPI(MPI_Group_incl(MPI_GROUP_EMPTY, 0, NULL, &g));
    CHECK(g == MPI_GROUP_EMPTY, "incl of nothing from MPI_GROUP_EMPTY");
    expect(MPI_Group_incl(MPI_GROUP_EMPTY, 1, &zero, &g), MPI_ERR_ARG, "MPI_Group_incl", "n=1");
    CHECK_MPI(MPI_Group_union(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &g));
    CHECK(g == MPI_GROUP_EMPTY, "union of empties");
    CHECK_MPI(MPI_Group_difference(world, world, &g));
    CHECK(g == MPI_GROUP_EMPTY, "world minus world");
    CHECK_MPI(MPI_Group_intersection(world, MPI_GROUP_EMPTY, &g));
    CHECK(g == MPI_GROUP_EMPTY, "world and empty");
    CHECK_MPI(MPI_Group_union(world, MPI_GROUP_EMPTY, &g));
    int res;
    CHECK_MPI(MPI_Group_compare(world, g, &res));
    CHECK(res == MPI_IDENT, "world union empty compares %d", res);
    MPI_Group_free(&g);
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &e));
    CHECK_MPI(MPI_Group_compare(MPI_GROUP_EMPTY, e, &res));
    CHECK(res == MPI_IDENT, "empty vs empty %d", res);

    /* compare: reversed is similar, a subset unequal. */
    int rv[1][3] = {{size - 1, 0, -1}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, rv, &g));
    CHECK_MPI(MPI_Group_compare(world, g, &res));
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "reversed compares %d", res);
    MPI_Group_free(&g);
    CHECK_MPI(MPI_Group_compare(world, MPI_GROUP_EMPTY, &res));
    CHECK(res == MPI_UNEQUAL, "world vs empty %d", res);

    /* translate_ranks: MPI_PROC_NULL stays, non-members are MPI_UNDEFINED. */
    int r1[3] = {MPI_PROC_NULL, 0, size - 1}, r2[3] = {7, 7, 7};
    CHECK_MPI(MPI_Group_translate_ranks(world, 3, r1, MPI_GROUP_EMPTY, r2));
    CHECK(r2[0] == MPI_PROC_NULL && r2[1] == MPI_UNDEFINED && r2[2] == MPI_UNDEFINED,
          "translate into empty: %d %d %d", r2[0], r2[1], r2[2]);
    CHECK_MPI(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, r1, world, r2));
    CHECK(r2[0] == MPI_PROC_NULL, "translate PROC_NULL from empty: %d", r2[0]);
    expect(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, &zero, world, r2), MPI_ERR_RANK,
           "MPI_Group_translate_ranks", "ranks1[0]=0");
    CHECK_MPI(MPI_Group_translate_ranks(world, 0, NULL, world, NULL));
    expect(MPI_Group_translate_ranks(world, -1, r1, world, r2), MPI_ERR_ARG,
           "MPI_Group_translate_ranks", "n=-1");
    MPI_Group self;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
    CHECK_MPI(MPI_Group_translate_ranks(self, 1, &zero, world, r2));
    CHECK(r2[0] == rank, "self's rank 0 is world %d", r2[0]);
    CHECK_MPI(MPI_Group_rank(self, &x));
    CHECK(x == 0, "rank in self group %d", x);
    MPI_Group_free(&self);

    /* Freeing: MPI_GROUP_EMPTY may be freed; a second MPI_Comm_group handle
     * is freed on its own. */
    e = MPI_GROUP_EMPTY;
    CHECK_MPI(MPI_Group_free(&e));
    CHECK(e == MPI_GROUP_NULL, "freed MPI_GROUP_EMPTY handle");
    MPI_Group w2, w3;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &w2));
    w3 = w2;
    CHECK_MPI(MPI_Group_free(&w2));
    CHECK_MPI(MPI_Group_size(world, &x)); /* the first handle still works */
    CHECK(x == size, "world group size after freeing another handle %d", x);
    (void)w3;

    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
