/* MPI_Comm_spawn's arguments, from every rank of MPI_COMM_WORLD:
 *  - two spawns in a row (1 child, then 4), each child sending values to
 *    every parent, the intercommunicators freed (not disconnected);
 *  - argv: many arguments, long ones, ones that look like options or
 *    assignments, mpiexec's block separator ':', an empty one; MPI_ARGV_NULL (the child sees none);
 *  - arguments only the root passes (the others pass NULL and garbage),
 *    with root = the last rank;
 *  - in a process mpiexec started, MPI_Comm_get_parent is MPI_COMM_NULL
 *    and MPI_UNIVERSE_SIZE is set.
 * A child learns what to check from its parents (dyn_test.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dyn_test.h"

enum { MODE_VALUES = 1, MODE_ARGS, MODE_NOARGS };
enum { NARGS = 1000 };

/* Argument k of the long list: its length and characters vary with k. */
static void make_arg(int k, char *buf, size_t len)
{
    static const char *const fixed[] = {"-n",         "--",       "a=b", "",      "-wdir",
                                        "with space", "'\"$HOME", ":",   "-nargs"};
    if (k < (int)(sizeof fixed / sizeof fixed[0])) {
        snprintf(buf, len, "%s", fixed[k]);
        return;
    }
    size_t n = (size_t)(k * 37) % 700 + 1;
    if (n >= len) n = len - 1;
    for (size_t i = 0; i < n; i++) buf[i] = (char)('a' + (k + (int)i) % 26);
    buf[n] = 0;
}

static void child(int argc, char **argv, MPI_Comm parent)
{
    int rank, size, psize;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_remote_size(parent, &psize);
    int mode = dyn_recv_mode(parent);
    if (mode == MODE_VALUES) {
        for (int p = 0; p < psize; p++) {
            int v = 1000 * (rank + 1) + size;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, p, 1, parent));
        }
    } else {
        /* 0: argv is as expected; else 1 + the first argument that is not. */
        int bad = 0;
        if (mode == MODE_NOARGS) {
            bad = argc == 1 ? 0 : 1;
        } else {
            static char want[1024];
            if (argc != NARGS + 1) bad = NARGS + 2;
            for (int k = 0; k < NARGS && !bad; k++) {
                make_arg(k, want, sizeof want);
                if (strcmp(argv[k + 1], want) != 0) bad = k + 1;
            }
        }
        CHECK_MPI(MPI_Send(&bad, 1, MPI_INT, 0, 2, parent));
    }
    /* The two spawns in a row end with MPI_Comm_free, not a disconnect:
     * the jobs stay connected until MPI_Finalize. */
    if (mode == MODE_VALUES)
        CHECK_MPI(MPI_Comm_free(&parent));
    else
        CHECK_MPI(MPI_Comm_disconnect(&parent));
}

/* Every parent gets one value from each child. */
static void check_values(MPI_Comm ic, int n)
{
    int rsize;
    CHECK_MPI(MPI_Comm_remote_size(ic, &rsize));
    CHECK(rsize == n, "%d children, asked for %d", rsize, n);
    dyn_send_mode(ic, MODE_VALUES);
    int rank;
    MPI_Comm_rank(ic, &rank);
    for (int c = 0; c < n; c++) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, c, 1, ic, MPI_STATUS_IGNORE));
        CHECK(v == 1000 * (c + 1) + n, "parent %d: child %d sent %d", rank, c, v);
    }
}

/* The children report on their argv to parent 0. */
static void check_args(MPI_Comm ic, int mode, const char *what)
{
    int rsize, rank;
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_rank(ic, &rank);
    dyn_send_mode(ic, mode);
    if (rank != 0) return;
    for (int c = 0; c < rsize; c++) {
        int bad = -1;
        CHECK_MPI(MPI_Recv(&bad, 1, MPI_INT, c, 2, ic, MPI_STATUS_IGNORE));
        CHECK(bad == 0, "%s: child %d saw argument %d differ (%d: the count)", what, c, bad - 1,
              NARGS + 1);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL) {
        child(argc, argv, parent);
        MPI_Finalize();
        return 0;
    }
    int rank, size, flag = 0, *usize = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag));
    CHECK(flag && *usize >= size, "MPI_UNIVERSE_SIZE: flag %d value %d", flag, flag ? *usize : -1);

    /* Twice in a row, from every parent. */
    int ns[2] = {1, 4};
    for (int i = 0; i < 2; i++) {
        MPI_Comm ic;
        int codes[4] = {-1, -1, -1, -1};
        CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, ns[i], MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                                 &ic, codes));
        for (int c = 0; c < ns[i]; c++)
            CHECK(codes[c] == MPI_SUCCESS, "spawn %d: errcodes[%d] = %d", i, c, codes[c]);
        check_values(ic, ns[i]);
        CHECK_MPI(MPI_Comm_free(&ic));
    }

    /* Many long arguments, given only at the root (the last rank); the
     * others pass what the standard lets them: anything. */
    int root = size - 1;
    char **args = NULL;
    MPI_Comm ic;
    if (rank == root) {
        args = calloc(NARGS + 1, sizeof *args);
        for (int k = 0; k < NARGS; k++) {
            args[k] = malloc(1024);
            make_arg(k, args[k], 1024);
        }
        CHECK_MPI(MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, root, MPI_COMM_WORLD, &ic,
                                 MPI_ERRCODES_IGNORE));
        for (int k = 0; k < NARGS; k++) free(args[k]);
        free(args);
    } else {
        char *garbage[] = {(char *)(uintptr_t)0x8, NULL};
        CHECK_MPI(MPI_Comm_spawn(NULL, rank % 2 ? garbage : NULL, -1, (MPI_Info)0x5a5a5a5a, root,
                                 MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE));
    }
    check_args(ic, MODE_ARGS, "many arguments");
    CHECK_MPI(MPI_Comm_disconnect(&ic));

    /* MPI_ARGV_NULL: the children get no arguments. */
    CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                             MPI_ERRCODES_IGNORE));
    check_args(ic, MODE_NOARGS, "MPI_ARGV_NULL");
    CHECK_MPI(MPI_Comm_disconnect(&ic));

    if (rank == 0) printf("spawn arguments from %d parents: ok\n", size);
    MPI_Finalize();
    return 0;
}
