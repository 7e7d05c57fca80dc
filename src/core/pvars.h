/* The counters behind the MPI_T performance variables (src/mpit/pvar.c).
 *
 * One process-local struct, bumped with plain increments on the paths that
 * move messages: no atomics (the big lock already serialises
 * MPI_THREAD_MULTIPLE callers) and no test of whether a tool is listening.
 * MPI_T sessions never reset these; each handle keeps its own offsets. */
#ifndef TERN_CORE_PVARS_H
#define TERN_CORE_PVARS_H

#include <stddef.h>
#include <stdint.h>

/* How a message left this process. */
enum tern_xport {
    TERN_XPORT_SELF,      /* send to itself, no transport */
    TERN_XPORT_SHM_EAGER, /* eager packet in a shared-memory ring */
    TERN_XPORT_SHM_CMA,   /* rendezvous, single copy by Cross Memory Attach */
    TERN_XPORT_SHM_PIPE,  /* rendezvous, two copies through the pipeline chunks */
    TERN_XPORT_UCX_EAGER, /* UCX active message carrying the data */
    TERN_XPORT_UCX_RNDV,  /* UCX rendezvous: the receiver fetches the data once matched */
    TERN_XPORT_COUNT
};

/* One matching queue's searches: how many, entries examined in all, and
 * the most entries one search examined. */
struct tern_pv_search {
    uint64_t searches, entries, max;
};

struct tern_pvars {
    struct {
        uint64_t messages, bytes;
    } sent[TERN_XPORT_COUNT];
    uint64_t unexp_length, unexp_max; /* unexpected queue: now, and its peak */
    struct tern_pv_search posted, unexp;
    /* Collective I/O: the calls that aggregated (two-phase), and the last
     * one's file domains: how many, and the greatest common divisor of the
     * offsets where one ends and the next starts (0: no such offset). */
    struct {
        uint64_t calls, domains, boundary_gcd;
    } io_cb;
    struct {
        uint64_t ops, bytes;
        uint64_t lock_amos; /* atomics on lock words */
    } ucx_rma;              /* one-sided operations of windows straight to memory through UCP */
    struct {
        uint64_t out, in;
    } shm_pairs; /* shared-memory pair areas open from this process, and to it */
    /* Shared-memory collectives that went through the leaders of groups
     * along a level of the machine (coll/shm_coll_levels.c). */
    uint64_t shmcoll_level_calls;
    /* Files of other processes' MPI_Alloc_mem blocks that windows mapped
     * here (rma/win_seg.c at MPI_Win_create, rma/win_dyn.c at first use). */
    uint64_t rma_files_mapped;
    /* Operations this process handed to their target (rma/win_mbox.c):
     * done there, or taken back untouched and done by CMA. */
    struct {
        uint64_t done, taken_back;
    } rma_target;
};

extern struct tern_pvars tern_pv;

static inline void tern_pv_sent(enum tern_xport x, size_t bytes)
{
    tern_pv.sent[x].messages++;
    tern_pv.sent[x].bytes += bytes;
}

/* A message counted on transport 'from' travels on 'to' after all. */
static inline void tern_pv_resent(enum tern_xport from, enum tern_xport to, size_t bytes)
{
    tern_pv.sent[from].messages--;
    tern_pv.sent[from].bytes -= bytes;
    tern_pv_sent(to, bytes);
}

static inline void tern_pv_unexp_queued(void)
{
    if (++tern_pv.unexp_length > tern_pv.unexp_max) tern_pv.unexp_max = tern_pv.unexp_length;
}

static inline void tern_pv_searched(struct tern_pv_search *s, uint64_t entries)
{
    s->searches++;
    s->entries += entries;
    if (entries > s->max) s->max = entries;
}

#endif
