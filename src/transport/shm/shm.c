/* Setting up and tearing down the shared-memory transport. */
#include "transport/shm/shm.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/state.h"
#include "msg/transport_ops.h"
#include "transport/shm/shm_internal.h"

int tern_shm_init(void)
{
    if (tern_g.world_size < 2) return 0;
    shm_segment_setup();

    /* An eager packet may take at most half the ring, so one large message
     * never has to wait for the whole ring to drain. */
    size_t eager = (size_t)tern_param.smp_eagersize;
    size_t eager_cap = shm.lay.ring_bytes / 2 - SHM_PKT_HDR;
    if (eager > eager_cap) {
        if (tern_g.world_rank == 0)
            tern_warn("TERN_SMP_EAGERSIZE=%zu does not fit the %zu-byte rings "
                      "(TERN_SMP_QUEUE_LENGTH); using %zu",
                      eager, shm.lay.ring_bytes, eager_cap);
        eager = eager_cap;
    }
    shm.eager_max = eager;
    shm.coop = (int)tern_param.smp_coop_copy;
    shm.coop_chunk = tern_param.smp_coop_chunk < 4096 ? 4096 : (size_t)tern_param.smp_coop_chunk;
    shm.iov_local_min = (size_t)tern_param.smp_iov_local_min;
    shm.iov_remote_min = (size_t)tern_param.smp_iov_remote_min;
    shm.bounce = malloc(shm.coop_chunk);
    if (!shm.bounce) tern_fatal("out of memory for the %zu-byte CMA bounce buffer", shm.coop_chunk);
    return shm_cma_probe_all();
}

void tern_shm_finalize(void)
{
    if (!shm.base) return;
    free(shm.bounce);
    shm.bounce = NULL;
    shm_segment_teardown();
}

int tern_shm_find_dead_peer(void)
{
    for (int i = 0; i < shm.n; i++) {
        if (i == shm.me || !shm.peers[i].pid) continue;
        if (kill(shm.peers[i].pid, 0) != 0 && errno == ESRCH) return i;
    }
    return -1;
}

/* Polls until every packet this rank still owes its peers has left. */
int tern_shm_quiesce(void)
{
    if (!shm.peers) return 0;
    for (;;) {
        int pending = shm.pipe_send.head != NULL || shm.pipe_recv_count;
        for (int k = 0; k < shm.nactive && !pending; k++)
            if (shm.active[k]->ctlq_head || shm.active[k]->sendq_head) pending = 1;
        if (!pending) return 0;
        struct tern_waiter w = TERN_WAITER_INIT;
        tern_progress_wait(&w);
    }
}

const struct tern_transport tern_shm_transport = {
    .name = "shm",
    .init = tern_shm_init,
    .finalize = tern_shm_finalize,
    .progress = tern_shm_progress,
    .quiesce = tern_shm_quiesce,
    .find_dead_peer = tern_shm_find_dead_peer,
    .send = tern_shm_send,
    .recv_rndv = tern_shm_recv_rndv,
    .sync_ack = tern_shm_send_sync_ack,
    .cancel_send = tern_shm_cancel_send,
    .send_fast = tern_shm_send_fast,
    .recv_fast = tern_shm_recv_fast,
};
