/* Communicators built on the intercommunicator of a spawn:
 *  - MPI_Intercomm_merge with the parents low, then high, then both sides
 *    passing the same value (an order both sides agree on), with
 *    collectives on each merged communicator;
 *  - MPI_Intercomm_create between two groups that each mix parents and
 *    children (split of the merged communicator, which is the peer);
 *  - with 2 parents or more: parent 0 spawns one child on MPI_COMM_SELF;
 *    {parent 0, child} and {the other parents} make an intercommunicator
 *    through MPI_COMM_WORLD, so the child talks to parents it never met. */
#include <string.h>

#include "dyn_test.h"

enum { MODE_MERGES = 1, MODE_SELF_CHILD };

/* Merged with 'high': both groups are contiguous, each in its local order;
 * the low group first when the values differ. */
static void check_merge(MPI_Comm ic, int is_parent, int high, int other_high)
{
    int rank, size, rsize, mrank, msize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(ic, high, &merged));
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == size + rsize, "merged size %d", msize);
    int key = is_parent * 1000 + rank, *keys = malloc((size_t)msize * sizeof(int));
    CHECK_MPI(MPI_Allgather(&key, 1, MPI_INT, keys, 1, MPI_INT, merged));
    int first_side = keys[0] / 1000, first_n = first_side == is_parent ? size : rsize;
    for (int i = 0; i < msize; i++) {
        int side = i < first_n ? first_side : 1 - first_side;
        int want = side * 1000 + (i < first_n ? i : i - first_n);
        CHECK(keys[i] == want, "high %d/%d: merged rank %d is %d, expected %d", high, other_high, i,
              keys[i], want);
    }
    if (high != other_high)
        CHECK(first_side == (high ? !is_parent : is_parent), "high %d: the wrong group came first",
              high);
    free(keys);
    int sum = 0, b = mrank == msize - 1 ? 4242 : 0;
    CHECK_MPI(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(sum == msize * (msize - 1) / 2, "allreduce on the merged comm: %d", sum);
    CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, msize - 1, merged));
    CHECK(b == 4242, "bcast on the merged comm: %d", b);
    CHECK_MPI(MPI_Barrier(merged));
    CHECK_MPI(MPI_Comm_free(&merged));
}

/* Each process sends 'value' to every remote rank and checks what each
 * sends back against want(remote rank); then an allreduce across. */
static void exchange(MPI_Comm ic, int value, int (*want)(int), const char *what)
{
    int rsize;
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Request *reqs = malloc((size_t)rsize * sizeof *reqs);
    for (int r = 0; r < rsize; r++) CHECK_MPI(MPI_Isend(&value, 1, MPI_INT, r, 11, ic, &reqs[r]));
    int total = 0;
    for (int r = 0; r < rsize; r++) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, r, 11, ic, MPI_STATUS_IGNORE));
        CHECK(v == want(r), "%s: remote %d sent %d, expected %d", what, r, v, want(r));
        total += v;
    }
    for (int r = 0; r < rsize; r++) CHECK_MPI(MPI_Wait(&reqs[r], MPI_STATUS_IGNORE));
    free(reqs);
    int sum = -1;
    CHECK_MPI(MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == total, "%s: allreduce gave %d, expected %d", what, sum, total);
    CHECK_MPI(MPI_Barrier(ic));
}

static int want_even(int r) { return 2 * r; }
static int want_odd(int r) { return 2 * r + 1; }

/* Odd and even ranks of the merged communicator (parents first). */
static void mixed_groups(MPI_Comm ic, int is_parent)
{
    MPI_Comm merged, half, ic2;
    CHECK_MPI(MPI_Intercomm_merge(ic, !is_parent, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    int color = mrank % 2;
    CHECK_MPI(MPI_Comm_split(merged, color, mrank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, merged, color == 0 ? 1 : 0, 123, &ic2));
    int rsize;
    MPI_Comm_remote_size(ic2, &rsize);
    CHECK(rsize == (color == 0 ? msize / 2 : (msize + 1) / 2), "mixed groups: remote size %d",
          rsize);
    exchange(ic2, mrank, color == 0 ? want_odd : want_even, "mixed groups");
    CHECK_MPI(MPI_Comm_free(&ic2));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&merged));
}

static void merges(MPI_Comm ic, int is_parent)
{
    check_merge(ic, is_parent, !is_parent, is_parent);
    check_merge(ic, is_parent, is_parent, !is_parent);
    check_merge(ic, is_parent, 1, 1);
    check_merge(ic, is_parent, 0, 0);
    mixed_groups(ic, is_parent);
}

static int want_a(int r) { return 100 + r; }
static int want_b(int r) { return 200 + r; }

/* {parent 0, its own child} against {parents 1..}: 'local' is the caller's
 * group, 'peer' and 'remote_leader' significant at the leaders. */
static void self_child_groups(MPI_Comm local, int side_a, MPI_Comm peer, int remote_leader)
{
    MPI_Comm ic2;
    CHECK_MPI(MPI_Intercomm_create(local, 0, peer, remote_leader, 77, &ic2));
    int lrank;
    MPI_Comm_rank(local, &lrank);
    exchange(ic2, (side_a ? 100 : 200) + lrank, side_a ? want_b : want_a, "never met");
    CHECK_MPI(MPI_Comm_free(&ic2));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        if (dyn_recv_mode(parent) == MODE_MERGES) {
            merges(parent, 0);
        } else {
            MPI_Comm a;
            CHECK_MPI(MPI_Intercomm_merge(parent, 1, &a));
            self_child_groups(a, 1, MPI_COMM_WORLD, 0);
            CHECK_MPI(MPI_Comm_free(&a));
        }
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                             MPI_ERRCODES_IGNORE));
    dyn_send_mode(ic, MODE_MERGES);
    merges(ic, 1);
    CHECK_MPI(MPI_Comm_disconnect(&ic));

    if (size > 1) {
        MPI_Comm mine;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0, rank, &mine));
        if (rank == 0) {
            CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF,
                                     &ic, MPI_ERRCODES_IGNORE));
            dyn_send_mode(ic, MODE_SELF_CHILD);
            MPI_Comm a;
            CHECK_MPI(MPI_Intercomm_merge(ic, 0, &a));
            self_child_groups(a, 1, MPI_COMM_WORLD, 1);
            CHECK_MPI(MPI_Comm_free(&a));
            CHECK_MPI(MPI_Comm_disconnect(&ic));
        } else {
            self_child_groups(mine, 0, MPI_COMM_WORLD, 0);
        }
        CHECK_MPI(MPI_Comm_free(&mine));
    }
    if (rank == 0) printf("intercommunicators of %d parents and their children: ok\n", size);
    MPI_Finalize();
    return 0;
}
