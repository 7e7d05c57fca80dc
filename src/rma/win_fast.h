/* The fast paths of the one-sided calls on a window whose members are all
 * mapped here (MPI_Win_allocate, _allocate_shared, on one host): a small
 * contiguous put or get is one copy, a flush one barrier.  The API has
 * looked the window and the types up; these check the rest of what the
 * general path checks (target, epoch, range) and answer 0 at the first
 * doubt, so that every error is still raised there, with its message. */
#ifndef TERN_RMA_WIN_FAST_H
#define TERN_RMA_WIN_FAST_H

#include <stdatomic.h>
#include <string.h>

#include "core/params.h"
#include "core/state.h"
#include "rma/win.h"

/* The window of a call that may take a fast path: the library is up, one
 * thread calls (no big lock), the handle names a live window; else NULL. */
static inline struct tern_win *tern_win_fast_lookup(MPI_Win h)
{
    if (__builtin_expect(tern_g.init_state != TERN_STATE_ACTIVE || tern_g.thread_multiple, 0))
        return NULL;
    return tern_win_lookup(h);
}

/* Where bytes [disp * disp_unit, + bytes) of rank's window lie here, when
 * an operation may go there now; NULL sends the caller down the general
 * path. */
static inline char *tern_win_direct_at(const struct tern_win *w, int rank, MPI_Aint disp,
                                       size_t bytes)
{
    if (!tern_win_mapped(w) || (unsigned)rank >= (unsigned)w->size || bytes == 0 ||
        !tern_win_may_access(w, rank))
        return NULL;
    const struct tern_win_peer *p = &w->peer[rank];
    MPI_Aint off;
    if (!p->local || __builtin_mul_overflow(disp, (MPI_Aint)p->disp_unit, &off) || off < 0 ||
        (size_t)off > (size_t)p->size || bytes > (size_t)p->size - (size_t)off)
        return NULL;
    return p->local + off;
}

/* Whether a put or get of 'bytes' takes the general path's large copies:
 * shared with the target, or, for a put, streaming stores. */
static inline int tern_win_large(size_t bytes, int put)
{
    size_t share = (size_t)tern_param.rma_share_min, nt = (size_t)tern_param.rma_put_nt_min;
    return (share && bytes >= share) || (put && nt && bytes >= nt);
}

/* A put or get of 'bytes' contiguous bytes of one predefined type on both
 * sides: 1 when done. */
static inline int tern_win_put_fast(const struct tern_win *w, const void *buf, size_t bytes,
                                    int rank, MPI_Aint disp)
{
    if (tern_win_large(bytes, 1)) return 0;
    char *t = tern_win_direct_at(w, rank, disp, bytes);
    if (!t) return 0;
    memcpy(t, buf, bytes);
    return 1;
}
static inline int tern_win_get_fast(const struct tern_win *w, void *buf, size_t bytes, int rank,
                                    MPI_Aint disp)
{
    if (tern_win_large(bytes, 0)) return 0;
    const char *t = tern_win_direct_at(w, rank, disp, bytes);
    if (!t) return 0;
    memcpy(buf, t, bytes);
    return 1;
}

/* MPI_Win_flush(rank) in a passive epoch on such a window: every
 * operation is complete already, but the stores must be visible before
 * this rank's later loads (a get after the flush, or another rank's). */
static inline int tern_win_flush_fast(const struct tern_win *w, int rank)
{
    if (w->am || (unsigned)rank >= (unsigned)w->size || !(w->lock_all || w->lock_held[rank]))
        return 0;
    atomic_thread_fence(memory_order_seq_cst);
    return 1;
}

/* Accumulates of 'count' elements of one predefined type on every side
 * into such a window, element-wise atomic (win_ops.c); result NULL for
 * MPI_Accumulate.  1 when done, 0 for the general path. */
int tern_win_acc_fast(struct tern_win *w, const void *origin, void *result, size_t count,
                      const struct tern_datatype *dt, int rank, MPI_Aint disp, MPI_Op op);

/* MPI_Compare_and_swap into such a window: one instruction. */
int tern_win_cas_fast(struct tern_win *w, const void *origin, const void *compare, void *result,
                      const struct tern_datatype *dt, int rank, MPI_Aint disp);

#endif
