/* MPI_Comm_spawn: the parents (every rank of MPI_COMM_WORLD) start N
 * copies of this program (argv[1], default 2) and both sides use the
 * intercommunicator: point-to-point both ways, a broadcast and an
 * allreduce across it, MPI_Intercomm_merge.  With argv[2] = "nest" each
 * child job spawns one grandchild and exchanges a value with it. */
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

static void grandchild(MPI_Comm parent)
{
    int v = 0, rsize = 0;
    CHECK_MPI(MPI_Comm_remote_size(parent, &rsize));
    CHECK(rsize >= 1, "the grandchild's parents: %d", rsize);
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 7, parent, MPI_STATUS_IGNORE));
    v += 1;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 8, parent));
    CHECK_MPI(MPI_Comm_disconnect(&parent));
}

/* Children and parents check the same things from their side. */
static void exchange(MPI_Comm ic, int is_parent)
{
    int rank, size, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    CHECK_MPI(MPI_Comm_remote_size(ic, &rsize));
    int flag = 0;
    MPI_Comm_test_inter(ic, &flag);
    CHECK(flag, "not an intercommunicator");

    /* Parent rank 0 sends each child its number; each replies doubled. */
    if (is_parent && rank == 0) {
        for (int c = 0; c < rsize; c++) {
            int v = 1000 + c;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, c, 1, ic));
        }
        for (int c = 0; c < rsize; c++) {
            int v = 0;
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2, ic, &st));
            CHECK(v == 2 * (1000 + st.MPI_SOURCE), "child %d replied %d", st.MPI_SOURCE, v);
        }
    } else if (!is_parent) {
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, ic, MPI_STATUS_IGNORE));
        CHECK(v == 1000 + rank, "child %d got %d", rank, v);
        v *= 2;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, ic));
    }

    /* A large message, by rendezvous: parent 0 to the last child. */
    enum { BIG = 1 << 20 };
    int *big = malloc(BIG * sizeof(int));
    if (is_parent && rank == 0) {
        for (int i = 0; i < BIG; i++) big[i] = i ^ 0x5a5a;
        CHECK_MPI(MPI_Send(big, BIG, MPI_INT, rsize - 1, 3, ic));
    } else if (!is_parent && rank == size - 1) {
        CHECK_MPI(MPI_Recv(big, BIG, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE));
        for (int i = 0; i < BIG; i++) CHECK(big[i] == (i ^ 0x5a5a), "big[%d] = %d", i, big[i]);
    }
    free(big);

    /* Broadcast from parent 0 to every child. */
    int b = is_parent ? 77 : 0;
    if (is_parent)
        CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic));
    else
        CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, ic));
    if (!is_parent) CHECK(b == 77, "bcast gave %d", b);

    /* Allreduce: each side gets the sum of the other side's values. */
    int mine = is_parent ? 1 : 100 + rank, sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic));
    int expect = is_parent ? 100 * rsize + rsize * (rsize - 1) / 2 : rsize;
    CHECK(sum == expect, "allreduce gave %d, expected %d", sum, expect);

    /* Merged: the parents first. */
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(ic, is_parent ? 0 : 1, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == size + rsize, "merged size %d", msize);
    CHECK(mrank == (is_parent ? rank : rsize + rank), "merged rank %d", mrank);
    int total = 0;
    CHECK_MPI(MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged));
    CHECK(total == msize * (msize - 1) / 2, "merged allreduce %d", total);
    CHECK_MPI(MPI_Comm_free(&merged));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    int n = argc > 1 ? atoi(argv[1]) : 2;
    int nest = argc > 2 && strcmp(argv[2], "nest") == 0;
    if (parent != MPI_COMM_NULL && argc > 1 && strcmp(argv[1], "grandchild") == 0) {
        grandchild(parent);
        MPI_Finalize();
        return 0;
    }
    if (parent == MPI_COMM_NULL) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int *usize, flag, wsize;
        MPI_Comm_size(MPI_COMM_WORLD, &wsize);
        CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag));
        const char *want = getenv("TERN_UNIVERSE_SIZE");
        CHECK(flag && *usize >= wsize && (!want || *usize == atoi(want)), "MPI_UNIVERSE_SIZE %d",
              flag ? *usize : -1);
        int *codes = malloc((size_t)n * sizeof(int));
        for (int i = 0; i < n; i++) codes[i] = -1;
        char *args[] = {argv[1] ? argv[1] : "2", nest ? "nest" : NULL, NULL};
        MPI_Comm ic;
        CHECK_MPI(MPI_Comm_spawn(argv[0], args, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, codes));
        for (int i = 0; i < n; i++)
            CHECK(codes[i] == MPI_SUCCESS, "errcodes[%d] = %d", i, codes[i]);
        free(codes);
        int rsize;
        MPI_Comm_remote_size(ic, &rsize);
        CHECK(rsize == n, "%d children, asked for %d", rsize, n);
        exchange(ic, 1);
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        CHECK(ic == MPI_COMM_NULL, "disconnect left the handle");
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0) printf("spawn of %d: ok\n", n);
    } else {
        int wsize, *appnum, flag;
        MPI_Comm_size(MPI_COMM_WORLD, &wsize);
        CHECK(wsize == n, "the children's world has %d, expected %d", wsize, n);
        CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
        CHECK(flag && *appnum == 0, "MPI_APPNUM %d", flag ? *appnum : -1);
        exchange(parent, 0);
        if (nest) {
            MPI_Comm gc;
            char *args[] = {"grandchild", NULL};
            CHECK_MPI(MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &gc,
                                     MPI_ERRCODES_IGNORE));
            int rank, v = 5;
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
            if (rank == 0) {
                CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 7, gc));
                CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 8, gc, MPI_STATUS_IGNORE));
                CHECK(v == 6, "grandchild replied %d", v);
            }
            CHECK_MPI(MPI_Comm_disconnect(&gc));
        }
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Comm p2;
        MPI_Comm_get_parent(&p2);
        CHECK(p2 == MPI_COMM_NULL, "the parent after disconnect");
    }
    MPI_Finalize();
    return 0;
}
