/* Windows: one-sided communication among the ranks of one host.
 *
 * The origin does every operation itself, or has a target that is in MPI
 * anyway do it, so a target busy outside MPI delays nothing: a window MPI allocates (MPI_Win_allocate, _shared) lives
 * in a shared segment every member maps, reached by load and store, as is
 * a window created on memory of MPI_Alloc_mem, which lies in shared files
 * (alloc_mem.h); a window on other user memory (MPI_Win_create, dynamic
 * windows) is reached with CMA (transport/shm's process_vm_readv/writev),
 * or, for operations up to TERN_RMA_TARGET_MAX while the target is inside
 * MPI, by the target itself (win_mbox.h).  Each window also has a control
 * area in its segment: the passive-target lock of each rank, the lock that
 * makes accumulates to a rank atomic with each other, the counters of
 * post-start-complete-wait, a barrier for fences, where each rank keeps
 * the regions it attached to a dynamic window, and each rank's mailbox.  All operations complete before
 * the call returns: flushes are memory barriers, request-based operations
 * return completed requests.
 *
 * A window whose group spans hosts reaches the other members with request
 * messages the target applies when it progresses (win_am.h); only
 * MPI_Win_allocate_shared is refused there (MPI_ERR_RMA_SHARED). */
#ifndef TERN_RMA_WIN_H
#define TERN_RMA_WIN_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/handle.h"
#include "core/objects.h"
#include "datatype/datatype.h"

/* What every member knows of each other one. */
struct tern_win_peer {
    int world;     /* world rank */
    int pid;       /* CMA: its pid (0: itself, or a window in the segment) */
    uint64_t base; /* the window's start in the owner's address space */
    char *local;   /* the same memory mapped here, or NULL */
    MPI_Aint size; /* bytes */
    int disp_unit;
    /* a created window's member on memory of MPI_Alloc_mem: the whole of
     * its shared file, mapped here (win_seg.c) */
    char *file_map;
    size_t file_bytes;
};

/* Hints kept from info (bits). */
enum {
    TERN_WIN_NO_LOCKS = 1,
    TERN_WIN_SAME_SIZE = 2,
    TERN_WIN_SAME_DISP = 4,
    TERN_WIN_NONCONTIG = 8,       /* the layout: fixed at allocation */
    TERN_WIN_NONCONTIG_SAID = 16, /* alloc_shared_noncontig as the user last gave it */
};

struct tern_win {
    int handle;
    int flavor; /* MPI_WIN_FLAVOR_* */
    int rank, size;
    struct tern_group *group; /* a reference */
    struct tern_errhandler *errh;
    char name[MPI_MAX_OBJECT_NAME];
    void *attrs;
    unsigned hints;
    char acc_ops[32];   /* accumulate_ops: "same_op_no_op" or "same_op" */
    char acc_order[64]; /* accumulate_ordering as given */
    struct tern_win_peer *peer;
    int mapped; /* every member's memory is mapped here: see tern_win_mapped */
    void *base; /* this rank's: what MPI_WIN_BASE answers */
    /* the shared segment */
    char *seg;
    size_t seg_bytes;
    struct tern_win_ctl *ctl;
    /* epochs of this rank as an origin */
    int fence_open;        /* a fence began an access epoch */
    int lock_all;          /* MPI_Win_lock_all holds every target (shared) */
    uint8_t *lock_held;    /* per target: 0, or MPI_LOCK_SHARED / _EXCLUSIVE held */
    uint8_t *lock_nocheck; /* per target: held with MPI_MODE_NOCHECK (no lock word taken) */
    int nlocks;            /* targets locked one by one */
    uint8_t *started;      /* per target: in the access group of MPI_Win_start */
    int start_open;
    uint8_t *posted; /* per origin: in the exposure group of MPI_Win_post */
    int post_open;
    uint32_t *start_seen; /* posts consumed, per target */
    uint32_t *wait_seen;  /* completions consumed, per origin */
    uint32_t barrier_sense;
    struct tern_win_am *am;   /* the group spans hosts (win_am.h); NULL otherwise */
    struct tern_win_dyn *dyn; /* dynamic windows: the attached regions (win_dyn.c) */
    /* its members hand each other small operations (win_mbox.h) */
    int mbox_on;
    size_t mbox_stride;   /* bytes of each mailbox, header and data */
    size_t mbox_capacity; /* bytes of data a mailbox holds */
    uint8_t *mbox_ready;  /* per target: 1 its mailbox's data may be written, 2 not, 0 unknown */
    size_t mbox_piece;    /* of a stream, 0 where none fits */
    struct tern_win *mbox_next;
};

/* The control area at the start of a window's segment (64-byte lines). */
struct tern_win_rank_ctl {
    _Atomic uint32_t lock;    /* passive target: TERN_WIN_EXCL, or the count of shared holders */
    _Atomic uint32_t acc;     /* accumulate lock of this rank's memory: 0 free, 1 held */
    _Atomic uint32_t dyn;     /* its tables of attached regions: 0 free, 1 being read or changed */
    _Atomic uint32_t dyn_gen; /* moves each time they change */
    uint64_t cover_at;        /* where their union lies in its memory (win_dyn.c) */
    uint32_t ncover;          /* intervals in it */
    uint32_t nfiles;          /* regions from MPI_Alloc_mem, and where their list lies */
    uint64_t files_at;
    uint64_t seg_at; /* where it mapped the segment: its address of a byte of the segment */
    char pad[16];
    /* As an origin, on a line that only this rank writes: target + 1 while
     * it changes that target's elements by atomic instructions, else 0. */
    _Atomic uint32_t atomics_at;
    char pad_origin[60];
};
#define TERN_WIN_EXCL 0x80000000u

struct tern_win_region {
    uint64_t base, size;
};

struct tern_win_ctl {
    _Atomic uint32_t barrier_count, barrier_sense;
    char pad[56];
    /* then: n rank blocks, n*n post counters (post[origin*n+target]: posts
     * target made to origin), n*n completion counters
     * (done[target*n+origin]); see win_seg.c */
};

struct tern_win_rank_ctl *tern_win_rank_ctl(struct tern_win *w, int r);

_Atomic uint32_t *tern_win_post_ctr(struct tern_win *w, int origin, int target);
_Atomic uint32_t *tern_win_done_ctr(struct tern_win *w, int target, int origin);

extern struct tern_objtab tern_win_table;
static inline struct tern_win *tern_win_lookup(MPI_Win h)
{
    return (struct tern_win *)tern_objtab_lookup(&tern_win_table, h);
}

/* Raises code on w's handler; returns it when the handler returns. */
int tern_win_raise(struct tern_win *w, int code);
/* tern_err_make + tern_win_raise. */
int tern_win_err(struct tern_win *w, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "MPI_WIN 0x..." or the user's name, for messages. */
const char *tern_win_label(const struct tern_win *w, char *buf, int len);
/* The same in a buffer of its own, valid until the next call. */
const char *tern_win_name(const struct tern_win *w);

/* ---- creation (win_create.c), collective over comm; errors raised on comm ---- */
struct tern_info;
int tern_win_create(const char *fn, void *base, MPI_Aint size, int disp_unit,
                    const struct tern_info *info, struct tern_comm *comm, struct tern_win **out);
/* flavor MPI_WIN_FLAVOR_ALLOCATE or _SHARED: *baseptr gets this rank's memory. */
int tern_win_allocate(const char *fn, int flavor, MPI_Aint size, int disp_unit,
                      const struct tern_info *info, struct tern_comm *comm, void *baseptr,
                      struct tern_win **out);
int tern_win_create_dynamic(const char *fn, const struct tern_info *info, struct tern_comm *comm,
                            struct tern_win **out);
int tern_win_attach(const char *fn, struct tern_win *w, void *base, MPI_Aint size);
int tern_win_detach(const char *fn, struct tern_win *w, const void *base);
/* Collective; the handle dies, the segment is unmapped. */
int tern_win_free(const char *fn, struct tern_win *w);
/* Keys of the info a window reports (MPI_Win_get_info), and setting them. */
struct tern_info *tern_win_info(const struct tern_win *w);
void tern_win_apply_info(struct tern_win *w, const struct tern_info *info);

/* ---- synchronisation (win_sync.c) ---- */
int tern_win_fence(const char *fn, struct tern_win *w, int assert_);
int tern_win_lock(const char *fn, struct tern_win *w, int lock_type, int rank, int assert_);
int tern_win_unlock(const char *fn, struct tern_win *w, int rank);
int tern_win_lock_all(const char *fn, struct tern_win *w, int assert_);
int tern_win_unlock_all(const char *fn, struct tern_win *w);
/* rank < 0: every target */
int tern_win_flush(const char *fn, struct tern_win *w, int rank);
int tern_win_post(const char *fn, struct tern_win *w, struct tern_group *g, int assert_);
int tern_win_start(const char *fn, struct tern_win *w, struct tern_group *g, int assert_);
int tern_win_complete(const char *fn, struct tern_win *w);
/* test: *flag (NULL: block until done) */
int tern_win_wait(const char *fn, struct tern_win *w, int *flag);
/* A barrier among the window's members in its segment (fence, free). */
void tern_win_barrier(struct tern_win *w);

/* ---- operations (win_ops.c): checked by the caller but for the window's
 * own rules, which these check (epoch, range, types) ---- */
struct tern_rma_side {
    const void *buf;
    size_t count;
    struct tern_datatype *dt;
};
int tern_win_put(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                 MPI_Aint disp, size_t tcount, struct tern_datatype *tdt);
int tern_win_get(const char *fn, struct tern_win *w, struct tern_rma_side o, int rank,
                 MPI_Aint disp, size_t tcount, struct tern_datatype *tdt);
/* result.buf NULL: MPI_Accumulate */
int tern_win_accumulate(const char *fn, struct tern_win *w, struct tern_rma_side o,
                        struct tern_rma_side result, int rank, MPI_Aint disp, size_t tcount,
                        struct tern_datatype *tdt, MPI_Op op);
int tern_win_cas(const char *fn, struct tern_win *w, const void *origin, const void *compare,
                 void *result, struct tern_datatype *dt, int rank, MPI_Aint disp);

/* A request-based operation on 'rank' is complete (MPI_Rput and kin):
 * MPI_SUCCESS, or the error raised. */
int tern_win_op_done(const char *fn, struct tern_win *w, int rank);

/* Readies the one-sided layer at MPI init (its progress hook comes with
 * the first window that spans hosts). */
void tern_rma_init(void);

/* An access epoch to 'rank' is open: fence, lock, lock_all or start. */
static inline int tern_win_may_access(const struct tern_win *w, int rank)
{
    return w->fence_open || w->lock_all || w->lock_held[rank] || w->started[rank];
}
/* Every member's window is mapped here, loads, stores and atomic
 * instructions reach it: the windows MPI allocates on one host, and those
 * created on one host on memory of MPI_Alloc_mem (alloc_mem.h). */
static inline int tern_win_mapped(const struct tern_win *w) { return w->mapped; }

/* An operation may go to target 'rank' now: MPI_SUCCESS, or the
 * MPI_ERR_RMA_SYNC error raised. */
int tern_win_check_epoch(const char *fn, struct tern_win *w, int rank);

#endif
