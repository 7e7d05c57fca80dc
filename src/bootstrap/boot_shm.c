/* The shared-memory file of one host when no launcher made it (PMI2, PMIx).
 *
 * The file never has a name, for the reason tools/mpiexec/shmfile.c gives:
 * however the ranks die, nothing is left in /dev/shm.  One rank of the host
 * makes it and publishes "<pid>.<fd>"; the others open /proc/<pid>/fd/<fd>,
 * the same file, while the maker still holds it (boot.h says until when).
 * Opening another process's descriptor needs what reading its memory needs
 * (the same user, not made undumpable), which the ranks of one job have,
 * and CMA needs anyway. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootstrap/anon_file.h"
#include "bootstrap/boot.h"
#include "bootstrap/boot_backend.h"

static int create_unnamed(void)
{
    int tmpfile_errno = 0;
    int fd = tern_anon_file_create("tern-node", &tmpfile_errno);
    if (fd >= 0) return fd;
    fprintf(stderr,
            "tern: cannot create this host's shared-memory file: O_TMPFILE in /dev/shm: %s; "
            "memfd_create: %s\n",
            strerror(tmpfile_errno), strerror(errno));
    return -1;
}

static int open_published(const char *key, const char *val)
{
    long pid;
    int n, used = 0;
    if (sscanf(val, "%ld.%d%n", &pid, &n, &used) != 2 || val[used] != '\0' || pid <= 0 || n < 0) {
        fprintf(stderr, "tern: '%s' = '%.80s' does not name a shared-memory file\n", key, val);
        return -1;
    }
    char path[64];
    int fd = tern_anon_file_open_peer(pid, n, path, sizeof path);
    if (fd == TERN_ANON_FILE_NOT_UNNAMED) {
        fprintf(stderr, "tern: %s is not the unnamed shared-memory file of this host\n", path);
        return -1;
    }
    if (fd < 0) {
        fprintf(stderr,
                "tern: cannot open %s, this host's shared-memory file held by process %ld: %s\n",
                path, pid, strerror(errno));
        return -1;
    }
    return fd;
}

int tern_boot_shm_share(int first, int me)
{
    char key[64], val[64];
    snprintf(key, sizeof key, "shm.%d", first);
    int fd = -1, creator = first == me;
    if (creator) {
        fd = create_unnamed();
        if (fd < 0) return -1;
        snprintf(val, sizeof val, "%ld.%d", (long)getpid(), fd);
        if (tern_boot_put(key, val) != 0) {
            close(fd);
            return -1;
        }
    }
    if (tern_boot_fence() != 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    if (creator) return fd;
    if (tern_boot_get(first, key, val, sizeof val) != 0) {
        fprintf(stderr, "tern: the first rank of this host published no shared-memory file\n");
        return -1;
    }
    return open_published(key, val);
}
