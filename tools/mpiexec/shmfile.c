/* The job's shared-memory file: created here before any rank exists,
 * inherited by every rank (its number is in TERN_SHM_FD), and never given a
 * name.  The kernel frees it with its last descriptor, so however the job
 * ends -- mpiexec and every rank SIGKILLed in the middle of start-up
 * included -- nothing is left in /dev/shm.
 *
 * Why not a name: a segment unlinked once every rank has mapped it leaks
 * when the job dies between its creation and the last attach, and mpiexec
 * removing the job's names at the end cannot help when mpiexec itself is
 * SIGKILLed.  With no name there is nothing to remove.
 *
 * The file is empty here: its size follows parameters the ranks read
 * (queue length, pipeline chunks, the number of ranks), so local rank 0
 * sizes it (src/transport/shm/shm_segment.c) and the others map it after a
 * fence.  O_TMPFILE in /dev/shm puts it on the same tmpfs as a named
 * segment, so that file system's size limit (which the ranks check) and
 * its huge= mount option still apply; O_EXCL forbids linking it into the
 * tree later.  Where /dev/shm refuses O_TMPFILE (missing, or not a tmpfs) a
 * memfd serves: unnamed too, on the kernel's internal tmpfs. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int shmfile_create(void)
{
    int fd = open("/dev/shm", O_TMPFILE | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    int tmpfile_errno = errno;
    fd = memfd_create("tern-node", MFD_CLOEXEC);
    if (fd >= 0) return fd;
    fprintf(stderr,
            "mpiexec: cannot create the job's shared-memory file: O_TMPFILE in /dev/shm: %s; "
            "memfd_create: %s\n",
            strerror(tmpfile_errno), strerror(errno));
    return -1;
}
