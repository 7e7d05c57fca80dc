/* MPI_Comm_spawn_multiple: two blocks of this program with different
 * arguments and counts (2 and 3 children), and an info key (wdir) on the
 * second.  Each child checks its MPI_APPNUM, its arguments and its working
 * directory, and reports them to the parents, who check every child's. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int *appnum, flag, rank, report[3];
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
        CHECK(flag, "no MPI_APPNUM");
        char cwd[PATH_MAX];
        CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
        report[0] = *appnum;
        report[1] = argc > 2 ? atoi(argv[2]) : -1;
        report[2] = strcmp(cwd, "/tmp") == 0;
        CHECK(argc > 1 && strcmp(argv[1], "child") == 0, "argv[1] is %s", argc > 1 ? argv[1] : "");
        CHECK_MPI(MPI_Send(report, 3, MPI_INT, 0, rank, parent));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    char *cmds[2] = {argv[0], argv[0]};
    char *a0[] = {"child", "10", NULL}, *a1[] = {"child", "20", NULL};
    char **argvs[2] = {a0, a1};
    int maxprocs[2] = {2, 3}, codes[5];
    MPI_Info infos[2];
    infos[0] = MPI_INFO_NULL;
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "wdir", "/tmp");
    MPI_Comm ic;
    CHECK_MPI(
        MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &ic, codes));
    MPI_Info_free(&infos[1]);
    int rsize, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(rsize == 5, "remote size %d", rsize);
    for (int i = 0; i < 5; i++) CHECK(codes[i] == MPI_SUCCESS, "errcodes[%d] = %d", i, codes[i]);
    if (rank == 0) {
        for (int c = 0; c < 5; c++) {
            int r[3];
            CHECK_MPI(MPI_Recv(r, 3, MPI_INT, c, c, ic, MPI_STATUS_IGNORE));
            int block = c < 2 ? 0 : 1;
            CHECK(r[0] == block, "child %d: MPI_APPNUM %d", c, r[0]);
            CHECK(r[1] == (block ? 20 : 10), "child %d: argument %d", c, r[1]);
            CHECK(block == 0 || r[2], "child %d: not in the wdir /tmp", c);
        }
        printf("spawn_multiple: ok\n");
    }
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    MPI_Finalize();
    return 0;
}
