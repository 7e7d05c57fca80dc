/* Helpers shared by the tests of dynamic processes (on top of tern_test.h). */
#ifndef TERN_DYN_TEST_H
#define TERN_DYN_TEST_H

#include <dirent.h>
#include <string.h>

#include "tern_test.h"

/* The class of an error code (-1 if it is none). */
static inline int dyn_err_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* The entries of a folder other than . and .. (-1 if it cannot be read);
 * with 'prefix', only those whose names start with it. */
static inline int dyn_dir_entries(const char *path, const char *prefix)
{
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (prefix && strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
        n++;
    }
    closedir(d);
    return n;
}

/* The entries of /dev/shm that this stack would make (Tern's own are
 * unnamed; UCX names its segments ucx*): other programs on the machine
 * come and go there. */
static inline int dyn_shm_entries(void)
{
    return dyn_dir_entries("/dev/shm", "tern") + dyn_dir_entries("/dev/shm", "ucx");
}

/* The names published in TERN_NAMESERVER_DIR (0 when it is unset or not
 * made yet). */
static inline int dyn_names_count(void)
{
    const char *dir = getenv("TERN_NAMESERVER_DIR");
    int n = dir ? dyn_dir_entries(dir, NULL) : 0;
    return n > 0 ? n : 0;
}

/* This process's open file descriptors (the folder's own one included). */
static inline int dyn_open_fds(void) { return dyn_dir_entries("/proc/self/fd", NULL); }

/* A child's instruction from its parents: rank 0 of the parents sends one
 * int with tag DYN_TAG_MODE to every child. */
enum { DYN_TAG_MODE = 900 };

static inline void dyn_send_mode(MPI_Comm ic, int mode)
{
    int rank, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_remote_size(ic, &rsize);
    if (rank != 0) return;
    for (int c = 0; c < rsize; c++) CHECK_MPI(MPI_Send(&mode, 1, MPI_INT, c, DYN_TAG_MODE, ic));
}

static inline int dyn_recv_mode(MPI_Comm parent)
{
    int mode = -1;
    CHECK_MPI(MPI_Recv(&mode, 1, MPI_INT, 0, DYN_TAG_MODE, parent, MPI_STATUS_IGNORE));
    return mode;
}

#endif
