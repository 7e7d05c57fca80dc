/* Shared-memory collectives: the area of a communicator whose ranks all
 * share this host, and how its ranks signal each other through it
 * (private to src/coll; the algorithms are in shm_coll.c).
 *
 * The node segment holds a pool of areas (transport/shm/shm.h sizes it).
 * A communicator takes one at its first shared-memory collective: its
 * rank 0 claims a free area and broadcasts which (point to point, once);
 * when none is free the communicator keeps the point-to-point algorithms.
 * Each rank lets go of the area when the communicator is destroyed, and
 * the last one to do so frees it.
 *
 * An area, for a communicator of n ranks: a header line, then a lane of
 * one flag line and two slots per rank for the blocking collectives and
 * another for the nonblocking ones.  The collectives on a lane are
 * numbered 1, 2, ... (every rank counts them alike, since every rank calls
 * the communicator's collectives in the same order); collective s uses the
 * slots of parity s & 1.  A rank sets its flag to s when it enters
 * collective s, after writing what it contributes; so a flag at s - 1
 * says that rank is done with everything of collective s - 2, and a slot of
 * parity s & 1 may be written in collective s once every flag is at s - 1
 * (tern_shmc_may_write).  A rank that writes nothing never waits there, and
 * the two parities let a root run one collective ahead of its readers.
 *
 * The nonblocking collectives (shm_nbc.c) have a lane of their own in the
 * area: a second flag line and two smaller slots per rank, numbered apart
 * from the blocking ones.  The two kinds are then never ordered against
 * each other, as point-to-point algorithms on separate tags are not: a
 * program whose ranks interleave blocking and nonblocking calls
 * differently (erroneous, but MPICH and Open MPI run it, as mpi4py's Iagree
 * test does) still matches each call with its peers'.  The nonblocking
 * ones take their number when they are called and run as state machines
 * that the progress engine advances, one at a time in their order on this
 * rank, since a rank's flag says it is done with everything before. */
#ifndef TERN_COLL_SHM_COLL_H
#define TERN_COLL_SHM_COLL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct tern_comm;
struct tern_datatype;
struct tern_op;

#define TERN_SHMC_LINE 64

struct tern_shmc_op;

/* A rank's flag line.  The blocking lane's collectives whose data from
 * each rank fits TERN_SHMC_INLINE bytes carry it here, at parity s & 1
 * (tern_shmc_data), rather than in the slot: a reader that sees the flag
 * then has the data in the same cache line, one transfer between cores
 * instead of two.  The parities follow the slots' rule, so a writer one
 * collective ahead never touches what a reader is still reading. */
#define TERN_SHMC_INLINE 24
struct tern_shmc_flag {
    _Atomic uint64_t seq;
    char data[2][TERN_SHMC_INLINE];
    char pad[TERN_SHMC_LINE - 8 - 2 * TERN_SHMC_INLINE];
};

/* A communicator's attachment (c->coll_shm), in this process: one lane of
 * flags and slots with its numbering.  The blocking collectives' lane
 * holds the nonblocking ones' in 'nbc'. */
struct tern_shmc {
    char *area;                   /* NULL: no area, the point-to-point algorithms serve */
    struct tern_shmc_flag *flags; /* one per rank */
    char *slots;                  /* slot (rank, parity) at slots + (2 rank + parity) slot_bytes */
    size_t slot_bytes;            /* blocking lane: what the partitioned allreduce fills */
    size_t carry_bytes; /* what the other algorithms carry in one slot (TERN_SHMCOLL_MAX) */
    size_t move_bytes;  /* what the data movers carry (transport's tern_shm_coll_move_for) */
    uint64_t seq;       /* collectives run on the lane */
    uint64_t all_past;  /* every flag is known to be at least this */
    uint64_t posted;    /* the last number this rank posted */
    int size;
    int rank;      /* this process's in the communicator */
    int whole;     /* this rank's slots are reserved whole, not only what carry_bytes needs */
    int all_whole; /* every rank's slots are */
    struct tern_shmc *nbc; /* blocking lane: the nonblocking lane of the same area */
    /* Blocking lane: the ranks grouped by a level of the machine, or NULL
     * (flat); see shm_coll_levels.c. */
    struct tern_shmc_groups *groups;
    /* Nonblocking lane: its collectives begun here and not yet done, in order. */
    struct tern_shmc_op *head, *tail;
};

/* Whether the shared-memory collectives can serve c: an intracommunicator
 * of 2 ranks or more, all on this host, in a job with a pool.  Every rank of
 * c gets the same answer. */
int tern_shmc_usable(const struct tern_comm *c);

/* c's area, attached at the first call (collective over c: every rank of c
 * must call it at the same collective); NULL when c has none. */
struct tern_shmc *tern_shmc_get(struct tern_comm *c);

/* Reserves rank r's two slots of lane a whole: before a collective writes
 * more than carry_bytes in them (the partitioned allreduce). */
void tern_shmc_reserve_slots(struct tern_shmc *a, int r);

/* Before a call that writes 'bytes' in rank r's slot of lane a (with 'all',
 * in every rank's: a scatter's root): reserves them whole when that is more
 * than every call carries (reserved at attach).  Inline, since every data
 * mover asks and the small ones, most calls, need nothing. */
void tern_shmc_reserve_whole(struct tern_shmc *a, int r, int all);
static inline void tern_shmc_reserve_for(struct tern_shmc *a, int r, size_t bytes, int all)
{
    if (bytes > a->carry_bytes && !a->all_whole && !(a->whole && !all))
        tern_shmc_reserve_whole(a, r, all);
}

/* Destruction hook (core/objects.h tern_comm_on_destroy). */
void tern_shmc_release(struct tern_comm *c);

/* Waits until rank r's flag reaches s, keeping the progress engine going
 * (point-to-point traffic, peer-death detection, yielding the core when
 * ranks outnumber cores). */
void tern_shmc_wait(struct tern_shmc *a, int r, uint64_t s);

/* Waits until every flag reaches s. */
void tern_shmc_wait_all(struct tern_shmc *a, uint64_t s);

/* The number of a blocking collective, taken when it starts. */
static inline uint64_t tern_shmc_next(struct tern_shmc *a) { return ++a->seq; }

/* This rank's flag to s: it entered collective s, its contribution written.
 * Only a rank's own flag is ever posted, so the lane knows which. */
static inline void tern_shmc_post(struct tern_shmc *a, uint64_t s)
{
    atomic_store_explicit(&a->flags[a->rank].seq, s, memory_order_release);
    a->posted = s;
}

/* Whether rank r's flag is known here to be at s or beyond without reading
 * it: this rank's own, which a peer reading it may have taken away
 * (tern_shmc_fold). */
static inline int tern_shmc_own_at(const struct tern_shmc *a, int r, uint64_t s)
{
    return r == a->rank && a->posted >= s;
}

/* Before collective s writes a slot: every rank is done with collective
 * s - 2, the last one that used the same slots. */
static inline void tern_shmc_may_write(struct tern_shmc *a, uint64_t s)
{
    if (a->all_past + 1 < s) tern_shmc_wait_all(a, s - 1);
}

static inline char *tern_shmc_slot(const struct tern_shmc *a, int r, uint64_t s)
{
    return a->slots + (2 * (size_t)r + (size_t)(s & 1)) * a->slot_bytes;
}

/* Where rank r's data of collective s is, when each rank's is 'total'
 * bytes (the same on every rank): in its flag line up to
 * TERN_SHMC_INLINE, else in its slot; TERN_SHMC_IN_SLOT: in the slot
 * whatever its size (the algorithms that write slots themselves). */
#define TERN_SHMC_IN_SLOT ((size_t)-1)
static inline char *tern_shmc_data(struct tern_shmc *a, int r, uint64_t s, size_t total)
{
    return total <= TERN_SHMC_INLINE ? a->flags[r].data[s & 1] : tern_shmc_slot(a, r, s);
}

/* ---- Shared by the algorithms (shm_coll.c) ---- */

/* What one slot carries for every algorithm but the partitioned allreduce:
 * TERN_SHMCOLL_MAX, within the slot (shm_coll_area.c). */
size_t tern_shmc_carry(size_t slot_bytes);

/* As tern_shmc_for, for the data movers (bcast, gather, scatter,
 * allgather, alltoall: move_bytes), with the slots this rank writes reserved
 * for 'bytes': its own, or with 'all' (a scatter's root) every rank's. */
struct tern_shmc *tern_shmc_for_move(struct tern_comm *c, size_t bytes, int all);

/* c's area when 'bytes' fit what a slot carries; NULL: the point-to-point
 * algorithm serves the call.  Collective at c's first call: every rank must pass
 * the same 'bytes'. */
struct tern_shmc *tern_shmc_for(struct tern_comm *c, size_t bytes);

/* (buf, count, dt) packed into a slot, and back. */
void tern_shmc_put(char *slot, const void *buf, size_t count, const struct tern_datatype *dt);
void tern_shmc_unpack(const char *slot, void *buf, size_t count, const struct tern_datatype *dt);
/* An all-gather's own block: into 'dst', this rank's slot or flag line
 * (read from 'mine', its place in the receive buffer, when sbuf is
 * MPI_IN_PLACE), posted, then copied into 'mine'. */
void tern_shmc_post_own(struct tern_shmc *a, uint64_t s, char *dst, const void *sbuf, size_t scount,
                        const struct tern_datatype *sdt, char *mine, size_t own,
                        const struct tern_datatype *rdt);

/* Writes this rank's contribution to a reduction ('count' elements of a
 * contiguous type) where tern_shmc_data puts 'total' bytes (the count's,
 * or TERN_SHMC_IN_SLOT), and posts s. */
void tern_shmc_contribute(struct tern_shmc *a, uint64_t s, const void *src, size_t count,
                          const struct tern_datatype *dt, size_t total);

/* rbuf = x_first op (... op x_last), x_i the 'count' elements (a contiguous
 * type) at byte 'off' of rank i's data of collective s, of 'total' bytes
 * (tern_shmc_data): rank order, so non-commutative operations are served
 * and every rank gets the same bits.  'own', when not NULL, is this rank's
 * input as the call gave it (never the receive buffer), which x_rank is
 * then read from: a peer that read this rank's line since it was written
 * may have taken it away (AMD's cores pass a line read after a write
 * whole), one more transfer between caches where the cores share none
 * (about 70 ns a reduction at 2 ranks: 0.30 against 0.37 us). */
void tern_shmc_fold(struct tern_shmc *a, uint64_t s, int first, int last, size_t off, size_t total,
                    void *rbuf, size_t count, struct tern_datatype *dt, struct tern_op *op,
                    const void *own);

/* The partitioned allreduce's slices (shm_coll_partition.c, and its
 * nonblocking form in shm_nbc.c): elements [*first, *first + *len) of a
 * chunk of m are rank i's of n. */
void tern_shmc_slice_of(size_t m, int n, int i, size_t *first, size_t *len);

/* ---- Over the machine's levels (shm_coll_levels.c) ---- */

/* Groups the ranks of c's new area a (blocking lane) by the level
 * SHMCOLL_LEVEL picks, or leaves a->groups NULL; the same on every rank,
 * without a message.  Freed with tern_shmc_groups_free. */
void tern_shmc_groups_make(struct tern_shmc *a, const struct tern_comm *c);
void tern_shmc_groups_free(struct tern_shmc *a);

/* The blocking collectives through the groups' leaders, for an area with
 * groups, data that fits a slot (and, for the reductions, a contiguous
 * type); the reductions return -1 without doing anything when the groups
 * cannot keep rank order for a non-commutative op. */
void tern_shmc_barrier_levels(struct tern_shmc *a, int r);
void tern_shmc_bcast_levels(struct tern_shmc *a, int r, void *buf, size_t count,
                            struct tern_datatype *dt, int root);
int tern_shmc_reduce_levels(struct tern_shmc *a, int r, const void *sbuf, void *rbuf, size_t count,
                            struct tern_datatype *dt, struct tern_op *op, int root);

#endif
