/* Shared between the files of the shared-memory transport only. */
#ifndef TERN_TRANSPORT_SHM_INTERNAL_H
#define TERN_TRANSPORT_SHM_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "datatype/datatype.h"
#include "msg/match.h"
#include "msg/request.h"
#include "topo/hw.h"

#define SHM_LINE 64
/* Enough for the usual window of 64 outstanding large sends; beyond it a
 * request-to-send goes without a slot (see shm_rndv.c). */
#define SHM_RNDV_SLOTS 64
#define SHM_NO_SLOT 0xffffffffu

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "shared-memory flags need lock-free 32-bit atomics");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "shared-memory counters need lock-free 64-bit atomics");

/* ---- packets in the eager rings ---- */

enum shm_pkt_type {
    PKT_SKIP = 1,     /* filler up to the end of the ring */
    PKT_EAGER,        /* payload follows the header */
    PKT_RTS,          /* request to send; struct shm_rts follows */
    PKT_CTS,          /* pipeline granted: stream 'len' bytes of request 'cookie' */
    PKT_SYNC_ACK,     /* synchronous send 'cookie' was matched */
    PKT_RNDV_FIN,     /* the receiver finished copying slotless rendezvous 'cookie' */
    PKT_REVOKE,       /* the sender cancels request 'cookie' if it is still unmatched */
    PKT_REVOKE_REPLY, /* len = 1: 'cookie' was withdrawn; 0: too late, it matched */
};
#define PKT_FLAG_SYNC 1

/* One packet starts on a line boundary with this header; the payload
 * follows at byte 40, so messages up to 24 bytes travel in a single cache
 * line together with the flag that publishes them. */
struct shm_pkt {
    _Atomic uint32_t seq; /* (uint32)(position + 1) once the packet is complete */
    uint8_t type;
    uint8_t flags;
    uint16_t reserved;
    uint32_t ctx;
    int32_t src; /* sender's rank in the communicator */
    int32_t tag;
    uint32_t nlines; /* lines this packet occupies */
    uint64_t len;    /* payload bytes (EAGER), message bytes (RTS), grant (CTS) */
    uint64_t cookie; /* sender's request, echoed back by CTS and SYNC_ACK */
};
#define SHM_PKT_HDR 40
_Static_assert(sizeof(struct shm_pkt) == SHM_PKT_HDR, "packet header must be 40 bytes");

struct shm_rts {
    struct tern_dt_desc src; /* the sender's data, as it lies in its memory */
    uint32_t slot;           /* rendezvous slot in the sender->receiver area, or SHM_NO_SLOT */
    uint32_t use_pipe;       /* the receiver cannot read us: stream through chunks */
};

/* What a request-to-send that found no receive keeps in its unexpected
 * entry (tern_unexp.data) until one is posted. */
struct shm_rts_info {
    uint64_t cookie;         /* the sender's request, echoed back in replies */
    uint32_t slot;           /* the sender's rendezvous slot, or SHM_NO_SLOT */
    uint32_t use_pipe;       /* the two-copy pipeline carries it */
    struct tern_dt_desc src; /* the sender's buffer, as it lies in its memory */
};

/* This transport's part of a request (tern_request.xport). */
struct shm_req {
    void *xfer;             /* rendezvous receive: state kept outside shared memory */
    size_t progress_off;    /* pipeline: bytes moved so far */
    uint64_t rts_cookie;    /* receive: the sender's request, for replies */
    int slot;               /* rendezvous slot; -1 none (set when a send or receive starts) */
    int pipe_lane;          /* pipeline: the lane the receiver granted */
    uint8_t cancel_pending; /* MPI_Cancel asked the receiver to withdraw the send */
    uint8_t pipe_short;     /* pipeline: the data lies in short pieces (goes in lock step) */
};
_Static_assert(sizeof(struct shm_req) <= TERN_REQ_XPORT_BYTES,
               "struct shm_req must fit tern_request.xport");
static inline struct shm_req *shm_req(struct tern_request *r)
{
    return (struct shm_req *)(void *)r->xport.bytes;
}
static inline const struct shm_req *shm_req_c(const struct tern_request *r)
{
    return (const struct shm_req *)(const void *)r->xport.bytes;
}

/* ---- the segment ---- */

struct shm_ring_ctl {
    _Atomic uint64_t tail; /* lines consumed, written by the receiver */
    char pad[SHM_LINE - 8];
};

/* A rendezvous in progress: both sides claim chunks from next_off and
 * add what they copied to done; each counter has its own line. */
struct shm_rndv_slot {
    _Atomic uint64_t next_off;
    char pad0[SHM_LINE - 8];
    _Atomic uint64_t done;
    char pad1[SHM_LINE - 8];
    _Atomic uint32_t state;         /* SLOT_POSTED by the sender, SLOT_ACTIVE by the receiver */
    _Atomic uint32_t recv_released; /* the receiver will not touch the slot again */
    uint32_t sender_may_copy; /* the receiver's pieces are long enough for the sender to write */
    uint32_t reserved;
    uint64_t limit; /* bytes to move: min(message, receive buffer) */
    uint64_t chunk;
    struct tern_dt_desc dst; /* the receive buffer (one block per unit when the sender may copy) */
    char pad2[SHM_LINE - (32 + sizeof(struct tern_dt_desc)) % SHM_LINE];
};
enum { SLOT_FREE = 0, SLOT_POSTED = 1, SLOT_ACTIVE = 2 };

struct shm_pipe_flag {
    _Atomic uint32_t len; /* bytes in the chunk; 0 = empty */
    uint32_t lane;        /* the transfer it belongs to (written before len) */
    char pad[SHM_LINE - 8];
};
/* Pipeline transfers one receiver streams from one sender at a time: their
 * chunks interleave in the pair's chunk ring, so a halo exchange's faces
 * move together (rows their packing and unpacking share stay in cache). */
#define SHM_PIPE_LANES 4

/* Per-rank block at the start of the segment. */
struct shm_rank_ctl {
    _Atomic int32_t pid;
    int32_t prefer_pipe; /* rank 0's: large messages take the pipeline */
    uint64_t probe_addr; /* address of a word the peers read to test CMA */
    /* The instance of the package, the NUMA node and the L3 cache it lies
     * in (topo/hw.h), the levels the collectives group by. */
    int32_t hw[TERN_HW_L3 - TERN_HW_PACKAGE + 1];
    char pad[SHM_LINE - 16 - 4 * (TERN_HW_L3 - TERN_HW_PACKAGE + 1)];
};

struct shm_layout {
    size_t ring_bytes, ring_lines;
    size_t pipe_chunks, pipe_chunk_bytes;
    size_t pair_bytes; /* one sender->receiver area */
    size_t ctl_bytes;  /* rank blocks + CMA matrix + doorbells */
    size_t bell_words; /* 64-bit words of one rank's doorbell, a bit per place */
    size_t bell_bytes; /* one rank's doorbell, in whole lines */
    /* The collectives' areas (tern_shm_coll_pool), between the rank blocks
     * and the pair areas. */
    size_t coll_slot_bytes, coll_nbc_slot_bytes, coll_move_bytes, coll_area_bytes, coll_bytes;
    int coll_areas;
    size_t total;
};

/* ---- per-peer state (in this process) ---- */

struct shm_ctl_msg { /* a control packet that found the ring full */
    struct shm_ctl_msg *next;
    uint8_t type;
    uint64_t cookie, len;
};

struct shm_peer {
    int world;
    pid_t pid;
    int i_can_read;    /* CMA from this process into the peer works */
    int peer_can_read; /* ... and from the peer into us */
    /* The pair areas exist only once a rank first sends (shm_pairs.c):
     * out_open once ours to the peer is reserved, in_open once the peer's
     * to us is known; listed in shm.active from either. */
    uint8_t out_open, in_open, listed;

    /* outgoing: me -> peer */
    struct shm_ring_ctl *out_ctl;
    char *out_ring;
    uint64_t out_head, out_tail_seen;
    struct shm_rndv_slot *out_slots;
    uint8_t out_slot_state[SHM_RNDV_SLOTS]; /* 0 free, 1 sending, 2 sent: wait for release */
    struct shm_pipe_flag *out_pipe_flags;
    char *out_pipe_data;
    uint32_t pipe_send_cursor;
    int pipe_short_sends; /* pipeline sends of short pieces under way (see shm_pipe.c) */
    struct tern_request *sendq_head, *sendq_tail; /* sends waiting for space, in order */
    struct shm_ctl_msg *ctlq_head, *ctlq_tail;

    /* incoming: peer -> me */
    struct shm_ring_ctl *in_ctl;
    char *in_ring;
    uint64_t in_pos;
    struct shm_rndv_slot *in_slots;
    struct shm_pipe_flag *in_pipe_flags;
    char *in_pipe_data;
    uint32_t pipe_recv_cursor;
    struct tern_request *pipe_lane[SHM_PIPE_LANES]; /* receives being streamed */
    int pipe_active;                                /* lanes in use */
    struct tern_request *pipe_wait_head, *pipe_wait_tail;
};

/* Transfers under way, oldest first (a request is in at most one list). */
struct shm_reqlist {
    struct tern_request *head, *tail;
};

struct shm_state {
    char *base;
    size_t size;
    struct shm_layout lay;
    int me, n; /* world rank and size */
    /* The segment is this host's: its ranks (world ranks, in order), this
     * rank's place among them, and each world rank's place (-1: elsewhere). */
    int nlocal, lme;
    int *local, *lidx;
    struct shm_peer *peers; /* indexed by world rank; only this host's are set */
    /* The peers with a pair area open either way, in the order they came:
     * the only ones progress looks at (shm_pairs.c). */
    struct shm_peer **active;
    int nactive;
    _Atomic uint64_t *bell; /* this rank's doorbell */
    uint64_t *bell_seen;    /* ... as last read */
    int fd;                 /* the segment's file: pair areas are reserved in it at first use */
    size_t file_off;        /* where this host's part of it starts */
    size_t eager_max;       /* payload bytes that go eagerly */
    int coop;               /* cooperative rendezvous enabled */
    int prefer_pipe;        /* the pipeline beats CMA here (or was asked for) */
    size_t coop_chunk;
    size_t iov_local_min, iov_remote_min; /* see SMP_IOV_LOCAL_MIN, SMP_IOV_REMOTE_MIN */
    void *bounce;                         /* CMA copies of short pieces, packed or unpacked here */
    /* transfers under way */
    struct shm_reqlist rndv_send, rndv_recv, pipe_send;
    int pipe_recv_count; /* pipeline receives under way, all peers */
};

extern struct shm_state shm;

/* shm_segment.c */
int shm_segment_setup(void);
void shm_segment_teardown(void);

/* shm_cma.c */
int shm_cma_probe_all(void);
int shm_cma_read(pid_t pid, void *local, uint64_t remote, size_t len);
/* Bytes [off, off + len) of the packed stream from the peer's buffer
 * 'remote' into our 'local' (write = 0), or the other way.  A local buffer
 * of short pieces goes through shm.bounce.  0 or -errno. */
int shm_cma_copy(pid_t pid, int write, const struct tern_dt_view *local,
                 const struct tern_dt_view *remote, size_t off, size_t len);

/* shm_ring.c */
struct shm_pkt *shm_ring_reserve(struct shm_peer *p, uint32_t nlines);
void shm_ring_publish(struct shm_peer *p, struct shm_pkt *pkt, uint32_t nlines);
static inline uint32_t shm_pkt_lines(size_t payload)
{
    return (uint32_t)((SHM_PKT_HDR + payload + SHM_LINE - 1) / SHM_LINE);
}
int shm_ring_poll(struct shm_peer *p);
void shm_send_ctl(struct shm_peer *p, uint8_t type, uint64_t cookie, uint64_t len);
int shm_flush_queues(struct shm_peer *p);

/* shm_rndv.c */
int shm_rndv_try_post(struct shm_peer *p, struct tern_request *r);
int shm_rndv_progress(void);
/* The receiver answered our request-to-send with the pipeline's grant. */
void shm_rndv_to_pipe(struct shm_peer *p, struct tern_request *r);

int shm_rndv_cancel(struct shm_peer *p, struct tern_request *r);
void shm_rndv_on_fin(struct tern_request *r);
void shm_on_revoke(struct shm_peer *p, uint64_t cookie);
void shm_on_revoke_reply(struct shm_peer *p, uint64_t cookie, uint64_t withdrawn);

/* Bytes [off, off + len) of (buf, count, dt) packed into the shared ring
 * or chunk 'dst': shm_pack_out straight (eager packets, long pieces),
 * shm_pack_staged (shm_pack.c) through a private buffer, for data in short
 * pieces (shm_short_pieces) bound for a pipeline chunk. */
static inline void shm_pack_out(const struct tern_datatype *dt, const void *buf, size_t count,
                                size_t off, char *dst, size_t len)
{
    if (dt->contig)
        memcpy(dst, (const char *)buf + dt->true_lb + off, len);
    else
        tern_dt_pack(dt, buf, count, off, dst, len);
}
void shm_pack_staged(const struct tern_datatype *dt, const void *buf, size_t count, size_t off,
                     char *dst, size_t len);
/* (buf, count, dt) lies in pieces too short to store whole lines. */
int shm_short_pieces(const struct tern_datatype *dt, const void *buf, size_t count);

/* shm_pipe.c */
void shm_pipe_on_cts(struct shm_peer *p, struct tern_request *r, uint64_t len);
void shm_pipe_recv_request(struct shm_peer *p, struct tern_request *r);
int shm_pipe_progress(void);

static inline void shm_list_append(struct shm_reqlist *l, struct tern_request *r)
{
    r->next = NULL;
    r->prev = l->tail;
    if (l->tail)
        l->tail->next = r;
    else
        l->head = r;
    l->tail = r;
}
static inline void shm_list_remove(struct shm_reqlist *l, struct tern_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        l->head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        l->tail = r->prev;
    r->next = r->prev = NULL;
}

/* shm_segment.c: the per-rank blocks and the CMA matrix, by place on this
 * host (shm.lidx): entry [r*nlocal+s] is 1 when the rank at place r can
 * read the memory of the one at place s.  The doorbell of the rank at place
 * r: bit s is set once the rank at place s has opened its pair area to it.
 * Where the pair area from world rank s to world rank r lies in the file
 * and in our mapping. */
struct shm_rank_ctl *shm_rank_ctl(int r);
unsigned char *shm_cma_matrix(void);
_Atomic uint64_t *shm_doorbell(int r);
size_t shm_pair_offset(int s, int r);

/* shm_pairs.c: the pair areas, opened at first use.  Before anything is
 * written to peer p's ring, shm_pair_open_out reserves our area to p and
 * rings p's doorbell; shm_doorbell_check takes in the peers that opened
 * theirs to us since the last look. */
void shm_pair_open_out(struct shm_peer *p);
static inline void shm_pair_out(struct shm_peer *p)
{
    if (__builtin_expect(!p->out_open, 0)) shm_pair_open_out(p);
}
void shm_doorbell_ring_seen(void);
static inline void shm_doorbell_check(void)
{
    for (size_t w = 0; w < shm.lay.bell_words; w++)
        if (atomic_load_explicit(&shm.bell[w], memory_order_relaxed) != shm.bell_seen[w]) {
            shm_doorbell_ring_seen();
            return;
        }
}
/* Prefaults [at, at + len) of our mapping for writing, so the fast paths
 * take no page faults; best effort. */
void shm_populate(void *at, size_t len);

#endif
