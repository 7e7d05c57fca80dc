/* Intercommunicators between the two halves of MPI_COMM_WORLD (side A =
 * world ranks [0, n/2), side B = the rest; sizes differ at odd n):
 * creation with different leaders, the queries, point-to-point both ways
 * with the sender's local rank as MPI_SOURCE, merge with every high
 * setting, dup, split, create, split_type, compare, idup, the MPI-4
 * constructors from groups, and the argument errors. */
#include <stdlib.h>

#include "tern_expect.h"
#include "tern_hosts.h"

static int wrank, wsize, half, side_a; /* side_a: this process is in A */
static MPI_Group wgroup;

static int lsize(int a) { return a ? half : wsize - half; }
static int first(int a) { return a ? 0 : half; } /* world rank of local rank 0 */

/* g's members as world ranks must be first_w..first_w+n-1 in that order. */
static void expect_span(MPI_Group g, int first_w, int n, const char *what)
{
    int gs, *in = malloc(sizeof(int) * (size_t)(n + 1)),
            *out = malloc(sizeof(int) * (size_t)(n + 1));
    CHECK_MPI(MPI_Group_size(g, &gs));
    CHECK(gs == n, "%s: size %d want %d", what, gs, n);
    for (int i = 0; i < n; i++) in[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, in, wgroup, out));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == first_w + i, "%s: member %d is world %d want %d", what, i, out[i],
              first_w + i);
    free(in);
    free(out);
}

/* Every process sends its world rank to every remote process and receives
 * from each, half with MPI_ANY_SOURCE (the value tells the sender); the remote
 * group is world ranks rfirst, rfirst+1, ... */
static void p2p_all(MPI_Comm ic, int rfirst, const char *what)
{
    int lr, ls, rs;
    MPI_Comm_rank(ic, &lr);
    MPI_Comm_size(ic, &ls);
    MPI_Comm_remote_size(ic, &rs);
    int *in = malloc(sizeof(int) * (size_t)rs), *seen = calloc((size_t)rs, sizeof(int));
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(2 * rs));
    MPI_Status *st = malloc(sizeof(MPI_Status) * (size_t)(2 * rs));
    /* Named receives go first: a wildcard posted earlier could take the
     * message a named one waits for. */
    for (int i = 0; i < rs; i += 2) CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, i, 100, ic, &rq[i]));
    for (int i = 1; i < rs; i += 2)
        CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, 100, ic, &rq[i]));
    for (int i = 0; i < rs; i++) CHECK_MPI(MPI_Isend(&wrank, 1, MPI_INT, i, 100, ic, &rq[rs + i]));
    CHECK_MPI(MPI_Waitall(2 * rs, rq, st));
    for (int i = 0; i < rs; i++) {
        int src = st[i].MPI_SOURCE;
        CHECK(src >= 0 && src < rs, "%s: MPI_SOURCE %d not a remote rank (remote size %d)", what,
              src, rs);
        CHECK(st[i].MPI_TAG == 100, "%s: tag %d from %d", what, st[i].MPI_TAG, src);
        CHECK(in[i] == rfirst + src, "%s: from remote %d got world %d want %d", what, src, in[i],
              rfirst + src);
        if (!(i % 2)) CHECK(src == i, "%s: named source %d answered by %d", what, i, src);
        seen[src]++;
    }
    for (int i = 0; i < rs; i++)
        CHECK(seen[i] == 1, "%s: %d messages from remote %d", what, seen[i], i);
    /* Sendrecv with the partner of the same local rank modulo the remote size. */
    int peer = lr % rs, got = -1;
    MPI_Status s;
    CHECK_MPI(
        MPI_Sendrecv(&wrank, 1, MPI_INT, peer, 7, &got, 1, MPI_INT, MPI_PROC_NULL, 7, ic, &s));
    CHECK(s.MPI_SOURCE == MPI_PROC_NULL, "%s: PROC_NULL source %d", what, s.MPI_SOURCE);
    for (int j = 0; j < rs; j++) {
        if (j % ls != lr) continue;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, j, 7, ic, &s));
        CHECK(got == rfirst + j && s.MPI_SOURCE == j, "%s: sendrecv from %d got %d", what, j, got);
    }
    free(in);
    free(seen);
    free(rq);
    free(st);
}

static void expect_rank_size(MPI_Comm c, int rank, int size, int rsize, const char *what)
{
    int r, s, rs, inter;
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK_MPI(MPI_Comm_test_inter(c, &inter));
    CHECK(r == rank && s == size, "%s: rank %d size %d want %d %d", what, r, s, rank, size);
    CHECK(inter == (rsize >= 0), "%s: test_inter %d", what, inter);
    if (rsize >= 0) {
        CHECK_MPI(MPI_Comm_remote_size(c, &rs));
        CHECK(rs == rsize, "%s: remote size %d want %d", what, rs, rsize);
    }
}

/* Merge with the given high flag; the expected first side. */
static void check_merge(MPI_Comm ic, int high, int a_first, const char *what)
{
    MPI_Comm m;
    int lr;
    MPI_Comm_rank(ic, &lr);
    CHECK_MPI(MPI_Intercomm_merge(ic, high, &m));
    int want = (side_a == a_first) ? lr : lsize(!side_a) + lr;
    expect_rank_size(m, want, wsize, -1, what);
    /* The merged communicator works: sum of world ranks, and rank order. */
    int sum = 0, *all = malloc(sizeof(int) * (size_t)wsize);
    CHECK_MPI(MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, m));
    CHECK(sum == wsize * (wsize - 1) / 2, "%s: allreduce %d", what, sum);
    CHECK_MPI(MPI_Allgather(&wrank, 1, MPI_INT, all, 1, MPI_INT, m));
    int lb = lsize(0);
    for (int i = 0; i < wsize; i++) {
        int w = a_first ? i : (i < lb ? half + i : i - lb);
        CHECK(all[i] == w, "%s: merged rank %d is world %d want %d", what, i, all[i], w);
    }
    free(all);
    CHECK_MPI(MPI_Comm_free(&m));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize >= 2, "needs 2 ranks");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wgroup));
    half = wsize / 2;
    side_a = wrank < half;
    int lrank = wrank - first(side_a), ls = lsize(side_a), rs = lsize(!side_a);

    MPI_Comm local, ic, ic2;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side_a, wrank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, first(!side_a), 12, &ic));
    expect_rank_size(ic, lrank, ls, rs, "intercomm");
    MPI_Group g;
    CHECK_MPI(MPI_Comm_remote_group(ic, &g));
    expect_span(g, first(!side_a), rs, "remote group");
    MPI_Group_free(&g);
    CHECK_MPI(MPI_Comm_group(ic, &g));
    expect_span(g, first(side_a), ls, "local group");
    MPI_Group_free(&g);
    p2p_all(ic, first(!side_a), "intercomm");

    /* Other leaders: the last local rank, and the remote's last (world
     * rank), with another tag; the same groups result. */
    CHECK_MPI(
        MPI_Intercomm_create(local, ls - 1, MPI_COMM_WORLD, first(!side_a) + rs - 1, 0, &ic2));
    expect_rank_size(ic2, lrank, ls, rs, "intercomm, last leaders");
    int res;
    CHECK_MPI(MPI_Comm_compare(ic, ic2, &res));
    CHECK(res == MPI_CONGRUENT, "compare two intercomms on the same groups: %d", res);
    p2p_all(ic2, first(!side_a), "intercomm, last leaders");

    /* Merges: A's high=0/B's high=1 puts A first; the opposite puts B
     * first; equal flags order by the lower world rank at rank 0 (A). */
    check_merge(ic, !side_a, 1, "merge A low");
    check_merge(ic, side_a, 0, "merge B low");
    check_merge(ic, 0, 1, "merge both low");
    check_merge(ic2, 1, 1, "merge both high");

    /* dup: congruent, own context (a message on one is not seen on the other). */
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(ic, &d));
    expect_rank_size(d, lrank, ls, rs, "dup");
    CHECK_MPI(MPI_Comm_compare(ic, d, &res));
    CHECK(res == MPI_CONGRUENT, "compare dup %d", res);
    CHECK_MPI(MPI_Comm_compare(ic, ic, &res));
    CHECK(res == MPI_IDENT, "compare self %d", res);
    CHECK_MPI(MPI_Comm_compare(ic, local, &res));
    CHECK(res == MPI_UNEQUAL, "compare inter/intra %d", res);
    if (lrank == 0) {
        int x = 1000 + wrank, y = 2000 + wrank;
        CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 0, 3, ic));
        CHECK_MPI(MPI_Send(&y, 1, MPI_INT, 0, 3, d));
        int gx = 0, gy = 0;
        CHECK_MPI(MPI_Recv(&gy, 1, MPI_INT, 0, 3, d, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(&gx, 1, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE));
        CHECK(gx == 1000 + first(!side_a) && gy == 2000 + first(!side_a),
              "dup contexts mixed: %d %d", gx, gy);
    }
    p2p_all(d, first(!side_a), "dup");
    CHECK_MPI(MPI_Comm_free(&d));

    /* idup: a completed request, a working congruent copy. */
    MPI_Request rq;
    MPI_Status st;
    CHECK_MPI(MPI_Comm_idup(ic, &d, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK(rq == MPI_REQUEST_NULL, "idup request not freed");
    CHECK_MPI(MPI_Comm_compare(ic, d, &res));
    CHECK(res == MPI_CONGRUENT, "compare idup %d", res);
    p2p_all(d, first(!side_a), "idup");
    CHECK_MPI(MPI_Comm_free(&d));

    /* split by parity of the local rank, reversed: each side's members of
     * my parity, highest local rank first; NULL where the other side has
     * no member of that parity. */
    CHECK_MPI(MPI_Comm_split(ic, lrank % 2, -lrank, &d));
    int mine_n = (ls - lrank % 2 + 1) / 2, their_n = (rs - lrank % 2 + 1) / 2;
    if (their_n == 0) {
        CHECK(d == MPI_COMM_NULL, "split: no partner parity but got a communicator");
    } else {
        CHECK(d != MPI_COMM_NULL, "split: MPI_COMM_NULL");
        int want = 0;
        for (int r = ls - 1; r > lrank; r--)
            if (r % 2 == lrank % 2) want++;
        expect_rank_size(d, want, mine_n, their_n, "split");
        CHECK_MPI(MPI_Comm_remote_group(d, &g));
        int *in = malloc(sizeof(int) * (size_t)their_n),
            *out = malloc(sizeof(int) * (size_t)their_n);
        for (int i = 0; i < their_n; i++) in[i] = i;
        CHECK_MPI(MPI_Group_translate_ranks(g, their_n, in, wgroup, out));
        int r = rs - 1;
        for (int i = 0; i < their_n; i++, r--) {
            while (r % 2 != lrank % 2) r--;
            CHECK(out[i] == first(!side_a) + r, "split remote %d is world %d want %d", i, out[i],
                  first(!side_a) + r);
        }
        free(in);
        free(out);
        MPI_Group_free(&g);
        CHECK_MPI(MPI_Comm_free(&d));
    }
    CHECK_MPI(MPI_Comm_split(ic, MPI_UNDEFINED, 0, &d));
    CHECK(d == MPI_COMM_NULL, "split MPI_UNDEFINED");

    /* create: A drops its local rank 0 (when it has more than one), B keeps all. */
    MPI_Group lg, sub;
    CHECK_MPI(MPI_Comm_group(ic, &lg));
    int zero = 0;
    if (side_a)
        CHECK_MPI(MPI_Group_excl(lg, 1, &zero, &sub));
    else
        sub = lg;
    CHECK_MPI(MPI_Comm_create(ic, sub, &d));
    int a_new = lsize(1) - 1;
    if (a_new == 0 || (side_a && lrank == 0)) {
        CHECK(d == MPI_COMM_NULL, "create: expected MPI_COMM_NULL");
    } else {
        CHECK(d != MPI_COMM_NULL, "create: MPI_COMM_NULL");
        expect_rank_size(d, side_a ? lrank - 1 : lrank, side_a ? a_new : ls, side_a ? rs : a_new,
                         "create");
        p2p_all(d, side_a ? half : 1, "create");
        CHECK_MPI(MPI_Comm_free(&d));
    }
    if (side_a) MPI_Group_free(&sub);
    /* An empty group on one side: MPI_COMM_NULL everywhere. */
    CHECK_MPI(MPI_Comm_create(ic, side_a ? MPI_GROUP_EMPTY : lg, &d));
    CHECK(d == MPI_COMM_NULL, "create with one side empty");
    MPI_Group_free(&lg);

    /* split_type SHARED: each side's ranks on this host, facing the other
     * side's ranks on it; no one there, MPI_COMM_NULL. */
    int same_local = 0, same_remote = 0;
    for (int r = 0; r < wsize; r++)
        if (tt_host_of(r) == tt_host_of(wrank)) {
            if ((r < half) == side_a)
                same_local++;
            else
                same_remote++;
        }
    CHECK_MPI(MPI_Comm_split_type(ic, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &d));
    if (same_remote == 0) {
        CHECK(d == MPI_COMM_NULL,
              "split_type shared on an intercomm: no one on this host faces us");
    } else {
        CHECK(d != MPI_COMM_NULL, "split_type shared on an intercomm: MPI_COMM_NULL");
        CHECK_MPI(MPI_Comm_compare(ic, d, &res));
        int whole = same_local == lsize(side_a) && same_remote == lsize(!side_a);
        CHECK(res == (whole ? MPI_CONGRUENT : MPI_UNEQUAL), "split_type shared on an intercomm: %d",
              res);
        CHECK_MPI(MPI_Comm_free(&d));
    }

    /* From groups (MPI-4): the same halves without a parent communicator. */
    MPI_Group ga, gb;
    int ra[1][3] = {{0, half - 1, 1}}, rb[1][3] = {{half, wsize - 1, 1}};
    CHECK_MPI(MPI_Group_range_incl(wgroup, 1, ra, &ga));
    CHECK_MPI(MPI_Group_range_incl(wgroup, 1, rb, &gb));
    /* Leaders: A's rank 0 and B's last rank, as both sides name them. */
    CHECK_MPI(MPI_Intercomm_create_from_groups(
        side_a ? ga : gb, side_a ? 0 : ls - 1, side_a ? gb : ga, side_a ? rs - 1 : 0,
        "tern inter test", MPI_INFO_NULL, MPI_ERRORS_RETURN, &d));
    expect_rank_size(d, lrank, ls, rs, "from groups");
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(d, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "from groups: errhandler 0x%x", (unsigned)eh);
    p2p_all(d, first(!side_a), "from groups");
    check_merge(d, side_a, 0, "merge from groups, B low");
    CHECK_MPI(MPI_Comm_free(&d));

    /* Errors. */
    int x;
    expect(MPI_Intercomm_merge(local, 0, &d), MPI_ERR_COMM, "MPI_Intercomm_merge",
           "not an intercommunicator");
    expect(MPI_Comm_create_group(ic, ga, 0, &d), MPI_ERR_COMM, "MPI_Comm_create_group",
           "intercommunicator");
    expect(MPI_Intercomm_create(local, ls, MPI_COMM_WORLD, 0, 1, &d), MPI_ERR_RANK,
           "MPI_Intercomm_create", "local_leader");
    expect(MPI_Intercomm_create(ic, 0, MPI_COMM_WORLD, 0, 1, &d), MPI_ERR_COMM,
           "MPI_Intercomm_create", "intracommunicator is required");
    expect(MPI_Send(&x, 1, MPI_INT, rs, 0, ic), MPI_ERR_RANK, "MPI_Send", "remote group");
    expect(MPI_Recv(&x, 1, MPI_INT, rs, 0, ic, MPI_STATUS_IGNORE), MPI_ERR_RANK, "MPI_Recv",
           "remote group");
    expect(MPI_Intercomm_create_from_groups(side_a ? gb : ga, 0, side_a ? ga : gb, 0, "x",
                                            MPI_INFO_NULL, MPI_ERRORS_RETURN, &d),
           MPI_ERR_GROUP, "MPI_Intercomm_create_from_groups", "not in local_group");
    expect(MPI_Intercomm_create_from_groups(side_a ? ga : gb, 0, wgroup, 0, "x", MPI_INFO_NULL,
                                            MPI_ERRORS_RETURN, &d),
           MPI_ERR_GROUP, "MPI_Intercomm_create_from_groups", "overlap");
    expect(MPI_Intercomm_create_from_groups(side_a ? ga : gb, ls, side_a ? gb : ga, 0, "x",
                                            MPI_INFO_NULL, MPI_ERRORS_RETURN, &d),
           MPI_ERR_RANK, "MPI_Intercomm_create_from_groups", "local_leader");
    CHECK_MPI(MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, ic));
    MPI_Group_free(&ga);
    MPI_Group_free(&gb);

    CHECK_MPI(MPI_Comm_free(&ic2));
    CHECK_MPI(MPI_Comm_free(&ic));
    CHECK(ic == MPI_COMM_NULL, "freed intercomm handle");
    CHECK_MPI(MPI_Comm_free(&local));
    MPI_Group_free(&wgroup);
    MPI_Finalize();
    return 0;
}
