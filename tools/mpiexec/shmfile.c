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
 * fence.  Where it lives (/dev/shm, whose size limit the ranks check, or a
 * memfd) is src/bootstrap/anon_file.c's choice, shared with the library. */
#include "mpiexec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bootstrap/anon_file.h"

int shmfile_create(void)
{
    int tmpfile_errno = 0;
    int fd = tern_anon_file_create("tern-node", &tmpfile_errno);
    if (fd >= 0) return fd;
    fprintf(stderr,
            "mpiexec: cannot create the job's shared-memory file: O_TMPFILE in /dev/shm: %s; "
            "memfd_create: %s\n",
            strerror(tmpfile_errno), strerror(errno));
    return -1;
}
