/* What the MPI-IO tests share: a private directory for their files (made by
 * rank 0 under the directory given as argv[1], removed at the end, which
 * fails when a file is left in it) and a path in it. */
#ifndef TERN_TESTS_IO_COMMON_H
#define TERN_TESTS_IO_COMMON_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tern_expect.h"
#include "tern_test.h"

static char io_dir[512];

static void io_dir_make(int argc, char **argv)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        snprintf(io_dir, sizeof io_dir, "%s/tern-io-test-XXXXXX", argc > 1 ? argv[1] : "/tmp");
        CHECK(mkdtemp(io_dir) != NULL, "cannot make a directory under %s",
              argc > 1 ? argv[1] : "/tmp");
    }
    MPI_Bcast(io_dir, sizeof io_dir, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static const char *io_path(const char *name)
{
    static char p[4][600];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", io_dir, name);
    return p[k];
}

/* Every file the test made is gone: the directory is empty. */
static void io_dir_remove(void)
{
    int rank;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) return;
    DIR *d = opendir(io_dir);
    CHECK(d != NULL, "cannot list %s", io_dir);
    struct dirent *e;
    while ((e = readdir(d)))
        CHECK(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0, "%s was left in %s",
              e->d_name, io_dir);
    closedir(d);
    CHECK(rmdir(io_dir) == 0, "cannot remove %s", io_dir);
}

#endif
