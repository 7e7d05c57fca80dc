/* The info keys "path" and "wdir" of a spawn: the command is the program's
 * bare name, found through "path"; each child checks that it runs in the
 * "wdir" it was given, and its MPI_APPNUM.  First MPI_Comm_spawn, then
 * MPI_Comm_spawn_multiple with an info of its own per command (two
 * working directories). */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dyn_test.h"

/* argv[1] = "child", argv[2] = the working directory expected,
 * argv[3] = the MPI_APPNUM expected. */
static void child(char **argv, MPI_Comm parent)
{
    char cwd[PATH_MAX], want[PATH_MAX];
    int *appnum, flag = 0, rank, report[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    CHECK(realpath(argv[2], want) != NULL, "no folder %s", argv[2]);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    report[0] = strcmp(cwd, want) == 0;
    report[1] = flag && *appnum == atoi(argv[3]);
    if (!report[0]) fprintf(stderr, "child in %s, expected %s\n", cwd, want);
    CHECK_MPI(MPI_Send(report, 2, MPI_INT, 0, 3, parent));
    CHECK_MPI(MPI_Comm_disconnect(&parent));
}

static void check_reports(MPI_Comm ic, int n, const char *what)
{
    int rank, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(rsize == n, "%s: %d children, expected %d", what, rsize, n);
    if (rank != 0) return;
    for (int c = 0; c < n; c++) {
        int r[2] = {-1, -1};
        CHECK_MPI(MPI_Recv(r, 2, MPI_INT, c, 3, ic, MPI_STATUS_IGNORE));
        CHECK(r[0] == 1, "%s: child %d is not in its wdir", what, c);
        CHECK(r[1] == 1, "%s: child %d has the wrong MPI_APPNUM", what, c);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        CHECK(argc == 4 && strcmp(argv[1], "child") == 0, "child arguments: %d", argc);
        child(argv, parent);
        MPI_Finalize();
        return 0;
    }
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char self[PATH_MAX], dir[PATH_MAX], name[PATH_MAX], wdir[PATH_MAX] = "/tmp/tern-wdir-XXXXXX";
    CHECK(realpath(argv[0], self) != NULL, "realpath %s", argv[0]);
    /* basename and dirname may write into their argument. */
    snprintf(dir, sizeof dir, "%s", self);
    snprintf(name, sizeof name, "%s", basename(dir));
    snprintf(dir, sizeof dir, "%s", dirname(self));
    /* Only the root's info and arguments count. */
    if (rank == 0) CHECK(mkdtemp(wdir) != NULL, "mkdtemp");

    MPI_Info info = MPI_INFO_NULL;
    if (rank == 0) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "path", dir);
        MPI_Info_set(info, "wdir", wdir);
    }
    char *a1[] = {"child", wdir, "0", NULL};
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_spawn(name, a1, 2, info, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE));
    check_reports(ic, 2, "spawn with path and wdir");
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);

    /* One info per command. */
    MPI_Info infos[2];
    char *cmds[2] = {name, name};
    char *b0[] = {"child", "/tmp", "0", NULL}, *b1[] = {"child", wdir, "1", NULL};
    char **argvs[2] = {b0, b1};
    int maxprocs[2] = {1, 2}, codes[3] = {-1, -1, -1};
    for (int i = 0; i < 2; i++) {
        MPI_Info_create(&infos[i]);
        MPI_Info_set(infos[i], "path", dir);
        MPI_Info_set(infos[i], "wdir", i == 0 ? "/tmp" : wdir);
    }
    CHECK_MPI(
        MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &ic, codes));
    for (int i = 0; i < 3; i++) CHECK(codes[i] == MPI_SUCCESS, "errcodes[%d] = %d", i, codes[i]);
    for (int i = 0; i < 2; i++) MPI_Info_free(&infos[i]);
    check_reports(ic, 3, "spawn_multiple with an info per command");
    CHECK_MPI(MPI_Comm_disconnect(&ic));

    if (rank == 0) {
        CHECK(rmdir(wdir) == 0, "the wdir %s is not empty or gone", wdir);
        printf("spawn info path/wdir: ok\n");
    }
    MPI_Finalize();
    return 0;
}
