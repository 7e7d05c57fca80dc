/* Shared-memory collectives: claiming, sharing and freeing a communicator's
 * area, and waiting on its flags (shm_coll.h says how they are used). */
#include "coll/shm_coll.h"

#include <stdlib.h>
#include <string.h>

#include "coll/algos.h"
#include "coll/coll_util.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/state.h"
#include "transport/shm/shm.h"

/* The header line of an area. */
struct area_hdr {
    _Atomic uint32_t owned;    /* a communicator holds it */
    _Atomic uint32_t released; /* ranks of that communicator that let go of it */
    uint32_t size;             /* ranks of that communicator */
};
_Static_assert(sizeof(struct area_hdr) <= TERN_SHMC_LINE, "an area's header is one line");
_Static_assert(sizeof(struct tern_shmc_flag) == TERN_SHMC_LINE, "one line per flag");

static char *area_at(const struct tern_shm_coll_pool *p, int i)
{
    return p->base + (size_t)i * p->area_bytes;
}

int tern_shmc_usable(const struct tern_comm *c)
{
    if (c->is_inter || c->size < 2 || !tern_g.host_of) return 0;
    struct tern_shm_coll_pool p;
    tern_shm_coll_pool(&p);
    if (!p.base || c->size > p.max_ranks) return 0;
    int host = tern_g.host_of[tern_g.world_rank];
    for (int i = 0; i < c->size; i++)
        if (tern_g.host_of[tern_comm_world_rank(c, i)] != host) return 0;
    return 1;
}

/* Rank 0's part: a free area, made ready for c, or -1.  Area 0 is
 * MPI_COMM_WORLD's alone. */
static int claim(const struct tern_shm_coll_pool *p, int size)
{
    for (int i = 1; i < p->nareas; i++) {
        struct area_hdr *h = (struct area_hdr *)area_at(p, i);
        uint32_t free_ = 0;
        if (atomic_load_explicit(&h->owned, memory_order_relaxed) ||
            !atomic_compare_exchange_strong_explicit(&h->owned, &free_, 1, memory_order_acquire,
                                                     memory_order_relaxed))
            continue;
        /* The flags count from 0 again; the other ranks read them only after
         * the broadcast of the area's number, which orders these stores. */
        struct tern_shmc_flag *f = (struct tern_shmc_flag *)(area_at(p, i) + TERN_SHMC_LINE);
        for (int r = 0; r < size; r++) {
            atomic_store_explicit(&f[r].seq, 0, memory_order_relaxed);
            atomic_store_explicit(&f[p->max_ranks + r].seq, 0, memory_order_relaxed);
        }
        atomic_store_explicit(&h->released, 0, memory_order_relaxed);
        h->size = (uint32_t)size;
        return i;
    }
    return -1;
}

/* The file under the areas is sparse (transport/shm/shm_segment.c): a
 * page is reserved before its first use, so that a full /dev/shm is this
 * error rather than a SIGBUS. */
static void reserve(const struct tern_shmc *a, const void *at, size_t len)
{
    if (len == 0) return;
    int e = tern_shm_reserve(at, len);
    if (e)
        tern_fatal("cannot reserve %zu KiB of shared memory for the collectives of a "
                   "communicator of %d ranks: %s; free space in /dev/shm or lower "
                   "TERN_SHMCOLL_SLOT",
                   (len + 1023) >> 10, a->size, strerror(e));
}

struct tern_shmc *tern_shmc_get(struct tern_comm *c)
{
    if (c->coll_shm) return c->coll_shm->area ? c->coll_shm : NULL;
    struct tern_shmc *a = calloc(2, sizeof *a);
    if (!a) tern_fatal("out of memory for a communicator's shared-memory collective state");
    c->coll_shm = a;
    /* Every rank of c finds it unusable alike: no agreement needed. */
    if (!tern_shmc_usable(c)) return NULL;
    struct tern_shm_coll_pool p;
    tern_shm_coll_pool(&p);
    /* MPI_COMM_WORLD takes area 0 without a word: reserved with the segment
     * and never used before, its flags are all 0, and no other communicator
     * claims it.  Saying which area by messages would make a ring between
     * every pair of a broadcast tree. */
    int idx = 0;
    if (c != &tern_comm_world) {
        idx = c->rank == 0 ? claim(&p, c->size) : -1;
        int rc = tern_coll_bcast_binomial(&idx, sizeof idx, tern_coll_byte(), 0, c);
        if (rc != MPI_SUCCESS)
            tern_fatal("cannot agree on a shared-memory collective area: %s", tern_err_text(rc));
        if (idx < 0) return NULL;
    }
    /* Each lane's flags and slots are laid out for the largest communicator
     * an area serves: the blocking lane's flags, the nonblocking lane's,
     * then the blocking lane's slots and the nonblocking lane's. */
    size_t ranks = (size_t)p.max_ranks;
    struct tern_shmc *nbc = a + 1;
    a->area = nbc->area = area_at(&p, idx);
    a->flags = (struct tern_shmc_flag *)(a->area + TERN_SHMC_LINE);
    nbc->flags = a->flags + ranks;
    a->slots = (char *)(nbc->flags + ranks);
    a->slot_bytes = p.slot_bytes;
    nbc->slots = a->slots + 2 * ranks * p.slot_bytes;
    nbc->slot_bytes = p.nbc_slot_bytes;
    a->carry_bytes = nbc->carry_bytes = tern_shmc_carry(p.slot_bytes);
    a->move_bytes = nbc->move_bytes = p.move_bytes;
    a->size = nbc->size = c->size;
    a->rank = nbc->rank = c->rank;
    a->nbc = nbc;
    /* What this rank will touch before anyone else writes it: the flags it
     * reads, and what it writes of its slots of both lanes in all but the
     * partitioned allreduce and the calls that carry more than carry_bytes
     * (those reserve them whole first: tern_shmc_reserve_slots). */
    reserve(a, a->area, (size_t)(a->slots - a->area));
    for (int parity = 0; parity < 2; parity++) {
        reserve(a, tern_shmc_slot(a, c->rank, (uint64_t)parity), a->carry_bytes);
        reserve(a, tern_shmc_slot(nbc, c->rank, (uint64_t)parity), nbc->carry_bytes);
    }
    tern_shmc_groups_make(a, c);
    return a;
}

void tern_shmc_reserve_slots(struct tern_shmc *a, int r)
{
    if (a->whole) return;
    reserve(a, tern_shmc_slot(a, r, 0), 2 * a->slot_bytes);
    a->whole = 1;
}

void tern_shmc_reserve_whole(struct tern_shmc *a, int r, int all)
{
    if (!all) {
        tern_shmc_reserve_slots(a, r);
        return;
    }
    for (int i = 0; i < a->size; i++) reserve(a, tern_shmc_slot(a, i, 0), 2 * a->slot_bytes);
    a->all_whole = a->whole = 1;
}

size_t tern_shmc_carry(size_t slot_bytes)
{
    size_t max = (size_t)tern_param.shmcoll_max;
    return max < slot_bytes ? max : slot_bytes;
}

void tern_shmc_release(struct tern_comm *c)
{
    struct tern_shmc *a = c->coll_shm;
    c->coll_shm = NULL;
    if (!a) return;
    /* Past MPI_Finalize's teardown the segment is gone, and the area with it. */
    struct tern_shm_coll_pool p;
    tern_shm_coll_pool(&p);
    if (a->area && p.base && a->area != p.base) { /* area 0 stays the world's */
        struct area_hdr *h = (struct area_hdr *)a->area;
        /* Ranks let go after their last use of the area; the last one frees it. */
        if (atomic_fetch_add_explicit(&h->released, 1, memory_order_acq_rel) + 1 == h->size)
            atomic_store_explicit(&h->owned, 0, memory_order_release);
    }
    tern_shmc_groups_free(a);
    free(a);
}

/* Loads of the flag between two passes of the progress engine: a peer a
 * few hundred nanoseconds behind is caught without a pass's cost, and a
 * request a peer hands this rank meanwhile (a one-sided operation, which
 * a pass serves) waits no longer.  Each load is followed by a pause, 25 to
 * 40 ns on current x86 cores. */
#define SPIN_LOADS 4

void tern_shmc_wait(struct tern_shmc *a, int r, uint64_t s)
{
    _Atomic uint64_t *f = &a->flags[r].seq;
    if (tern_shmc_own_at(a, r, s) || atomic_load_explicit(f, memory_order_acquire) >= s) return;
    struct tern_waiter w = TERN_WAITER_INIT;
    /* Oversubscribed, spinning only delays the rank we wait for. */
    int spins = tern_g.wait_yield ? 1 : SPIN_LOADS;
    for (;;) {
        for (int i = 0; i < spins; i++) {
            if (atomic_load_explicit(f, memory_order_acquire) >= s) return;
            tern_cpu_relax();
        }
        tern_progress_wait(&w);
    }
}

void tern_shmc_wait_all(struct tern_shmc *a, uint64_t s)
{
    for (int r = 0; r < a->size; r++) tern_shmc_wait(a, r, s);
    if (s > a->all_past) a->all_past = s;
}
