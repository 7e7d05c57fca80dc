/* Unnamed shared-memory files (anon_file.h). */
#include "bootstrap/anon_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* O_TMPFILE in /dev/shm puts the file on the same tmpfs as a named segment,
 * so that file system's size limit and its huge= mount option still apply;
 * O_EXCL forbids linking it into the tree later.  Where /dev/shm refuses
 * O_TMPFILE (missing, or not a tmpfs) a memfd serves: unnamed too, on the
 * kernel's internal tmpfs. */
int tern_anon_file_create(const char *memfd_name, int *tmpfile_errno)
{
    int fd = open("/dev/shm", O_TMPFILE | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    if (tmpfile_errno) *tmpfile_errno = errno;
    return memfd_create(memfd_name, MFD_CLOEXEC);
}

int tern_anon_file_open_peer(long pid, int fd, char *path, unsigned path_len)
{
    char own[64];
    if (!path || path_len == 0) {
        path = own;
        path_len = sizeof own;
    }
    snprintf(path, path_len, "/proc/%ld/fd/%d", pid, fd);
    int mine = open(path, O_RDWR | O_CLOEXEC);
    if (mine < 0) return -1;
    /* A descriptor number the peer reused for something else, or a file
     * that has a name, is not the segment: mapping it would share or size
     * the wrong file. */
    struct stat st;
    if (fstat(mine, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 0) {
        close(mine);
        errno = EINVAL;
        return TERN_ANON_FILE_NOT_UNNAMED;
    }
    return mine;
}
