/* Pair areas opened at first use, and the doorbell by which a receiver
 * learns of them.
 *
 * A rank's area to a peer is reserved in the segment's file the first time
 * it sends the peer anything; then the sender sets its bit in the peer's
 * doorbell (one bit per rank of the host).  Progress compares its doorbell
 * with the copy it read last (a few words, in cache while nothing changes)
 * and polls only the rings of the peers that rang.  So a rank talking to k
 * peers costs k pair areas of memory and k rings to poll, whatever the
 * number of ranks on the host. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/pvars.h"
#include "transport/shm/shm.h"
#include "transport/shm/shm_internal.h"

static void list(struct shm_peer *p)
{
    if (p->listed) return;
    p->listed = 1;
    shm.active[shm.nactive++] = p;
}

void shm_pair_open_out(struct shm_peer *p)
{
    size_t off = shm_pair_offset(shm.me, p->world);
    int e = posix_fallocate(shm.fd, (off_t)(shm.file_off + off), (off_t)shm.lay.pair_bytes);
    if (e)
        tern_fatal("cannot reserve %zu KiB of shared memory for the ring from rank %d to rank %d: "
                   "%s; free space in /dev/shm or lower TERN_SMP_QUEUE_LENGTH and "
                   "TERN_SMP_SEND_BUFFERS",
                   shm.lay.pair_bytes >> 10, shm.me, p->world, strerror(e));
    shm_populate(shm.base + off, shm.lay.pair_bytes);
    p->out_open = 1;
    tern_pv.shm_pairs.out++;
    list(p);
    /* Release: the peer sees the reserved area before it reads its ring. */
    int lp = shm.lidx[p->world];
    atomic_fetch_or_explicit(&shm_doorbell(lp)[shm.lme / 64], (uint64_t)1 << (shm.lme % 64),
                             memory_order_release);
}

void shm_doorbell_ring_seen(void)
{
    for (size_t w = 0; w < shm.lay.bell_words; w++) {
        uint64_t now = atomic_load_explicit(&shm.bell[w], memory_order_acquire);
        uint64_t fresh = now & ~shm.bell_seen[w];
        shm.bell_seen[w] = now;
        while (fresh) {
            int b = __builtin_ctzll(fresh);
            fresh &= fresh - 1;
            struct shm_peer *p = &shm.peers[shm.local[w * 64 + (size_t)b]];
            p->in_open = 1;
            tern_pv.shm_pairs.in++;
            shm_populate(shm.base + shm_pair_offset(p->world, shm.me), shm.lay.pair_bytes);
            list(p);
        }
    }
}
