/* What one-sided communication (rma/) takes from this transport: the pid
 * of a peer whose memory CMA reaches, and the copy itself, so that an
 * origin reads and writes a window on user memory without the target's
 * help.  The probe at start-up (shm_cma.c) decided which pairs may. */
#include <errno.h>
#include <unistd.h>

#include "transport/shm/shm.h"
#include "transport/shm/shm_internal.h"

int tern_shm_cma_pid(int world)
{
    if (!shm.peers || world < 0 || world >= shm.n || world == shm.me) return 0;
    const struct shm_peer *p = &shm.peers[world];
    return p->i_can_read && p->peer_can_read ? (int)p->pid : 0;
}

int tern_shm_cma_rw(int world, int write, const struct tern_dt_view *local,
                    const struct tern_dt_view *remote, size_t len)
{
    int pid = tern_shm_cma_pid(world);
    if (!pid) return -EPERM;
    return shm_cma_copy((pid_t)pid, write, local, remote, 0, len);
}
