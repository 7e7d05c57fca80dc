/* The shared-memory transport: how point-to-point reaches the other ranks
 * of this node (registered as tern_shm_transport, msg/transport_ops.h).  Eager messages travel through per-pair rings
 * (shm_ring.c); larger ones are fetched by the receiver with Cross Memory
 * Attach, helped by the sender (shm_rndv.c), or streamed through shared
 * chunks when CMA is refused (shm_pipe.c). */
#ifndef TERN_TRANSPORT_SHM_SHM_H
#define TERN_TRANSPORT_SHM_SHM_H

#include <mpi.h>
#include <stdint.h>

#include "datatype/datatype.h"
#include "msg/match.h"
#include "msg/request.h"
#include "msg/transport_ops.h"

/* The operations table point-to-point routes this host's peers to. */
extern const struct tern_transport tern_shm_transport;

int tern_shm_init(void);
void tern_shm_finalize(void);

/* Polls incoming rings and drives transfers under way; returns the number
 * of events handled. */
int tern_shm_progress(void);

/* Starts a send to another rank of this node (r->world_peer != self). */
int tern_shm_send(struct tern_request *r);

/* Fast paths for blocking calls with contiguous data; 0 means "use the
 * general path" (shm_ring.c says when). */
int tern_shm_send_fast(int world, const void *buf, size_t count, const struct tern_datatype *dt,
                       uint32_t ctx, int src, int tag);
int tern_shm_recv_fast(int world, void *buf, size_t count, const struct tern_datatype *dt,
                       uint32_t ctx, int src, int tag, MPI_Status *status);

/* A receive matched a request-to-send from world_src ('rts' is its struct
 * shm_rts_info, kept in the unexpected entry or read off the ring). */
void tern_shm_recv_rndv(struct tern_request *r, int world_src, const void *rts, size_t bytes);

/* MPI_Cancel of a send to another rank: 1 when withdrawn at once;
 * otherwise the receiver is asked and the request completes (cancelled or
 * not) later. */
int tern_shm_cancel_send(struct tern_request *r);

/* Acknowledges a synchronous eager message matched late. */
void tern_shm_send_sync_ack(int world_dst, uint64_t cookie);

/* Polls until the packets this rank owes its peers have left (finalize). */
int tern_shm_quiesce(void);

/* The memory of the shared-memory collectives (coll/shm_coll_area.c):
 * 'nareas' areas of 'area_bytes' in the node segment, one per communicator
 * at a time.  An area is a header line, then two flag lines per rank, then
 * two slots of 'slot_bytes' and two of 'nbc_slot_bytes' per rank, for up
 * to 'max_ranks' ranks; the layout is the collectives' own, this only
 * sizes it (TERN_SHMCOLL_MAX, TERN_SHMCOLL_MOVE_MAX, TERN_SHMCOLL_COMMS).  base is NULL when there
 * is no segment (one rank, or no pair of ranks shares memory) or no area. */
struct tern_shm_coll_pool {
    char *base;
    size_t area_bytes, slot_bytes, nbc_slot_bytes;
    size_t move_bytes; /* what a slot of either lane carries for the data movers */
    int nareas, max_ranks;
};
void tern_shm_coll_pool(struct tern_shm_coll_pool *out);
/* What a collectives' slot carries for the data movers (bcast, gather,
 * scatter, allgather, alltoall) on a host of n ranks: TERN_SHMCOLL_MOVE_MAX
 * within the slot, never below TERN_SHMCOLL_MAX (the pool's move_bytes
 * where n is this host's count). */
size_t tern_shm_coll_move_for(int n);
/* Reserves in /dev/shm the pages of the segment under [at, at + len)
 * before their first use (the file is sparse: shm_segment.c): 0, or the
 * errno of the failure. */
int tern_shm_reserve(const void *at, size_t len);

/* One-sided communication (rma/): the pid of world rank 'world' when CMA
 * reaches its memory both ways, else 0; and a copy between our 'local'
 * view and the view 'remote' of its memory (len bytes of the packed
 * stream; write: from us to it), 0 or -errno. */
int tern_shm_cma_pid(int world);
int tern_shm_cma_rw(int world, int write, const struct tern_dt_view *local,
                    const struct tern_dt_view *remote, size_t len);

/* The instance of level k (topo/hw.h: the package, the NUMA node or the L3
 * cache) that world rank 'world' of this host lies in, as it said at
 * start-up; -1 when unknown, or for another level. */
int tern_shm_hw_instance(int world, int k);

/* The world rank of a peer that has died, or -1. */
int tern_shm_find_dead_peer(void);

#endif
