/* Synchronisation.  Every operation is complete when its call returns (the
 * origin did it), so closing an epoch needs only a memory barrier and,
 * for active target, telling the other side; the locks and counters live
 * in the window's control area, where the origin takes them without the
 * target's help. */
#include <sched.h>
#include <string.h>

#include "core/errors.h"
#include "rma/win_am.h"
#include "rma/win_seg.h"

int tern_win_check_epoch(const char *fn, struct tern_win *w, int rank)
{
    if (tern_win_may_access(w, rank)) return MPI_SUCCESS;
    return tern_win_err(w, MPI_ERR_RMA_SYNC,
                        "%s: rank %d has no access epoch to target %d on %s (call MPI_Win_fence, "
                        "MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start first)",
                        fn, w->rank, rank, tern_win_name(w));
}

static int in_passive(const struct tern_win *w) { return w->nlocks || w->lock_all; }

int tern_win_fence(const char *fn, struct tern_win *w, int assert_)
{
    if (in_passive(w) || w->start_open || w->post_open)
        return tern_win_err(
            w, MPI_ERR_RMA_SYNC, "%s: rank %d is in a %s epoch on %s: a fence cannot close it", fn,
            w->rank, in_passive(w) ? "passive-target" : "post-start", tern_win_name(w));
    atomic_thread_fence(memory_order_seq_cst);
    int rc = w->am ? tern_win_am_flush(fn, w, -1) : MPI_SUCCESS;
    if (rc) return rc;
    /* MPI_MODE_NOPRECEDE with MPI_MODE_NOSUCCEED would still need every
     * member's stores visible to the loads after the fence. */
    tern_win_barrier(w);
    w->fence_open = !(assert_ & MPI_MODE_NOSUCCEED);
    return MPI_SUCCESS;
}

/* The passive-target lock word of rank r: TERN_WIN_EXCL, or the number of
 * shared holders. */
static void lock_word(struct tern_win *w, int r, int exclusive)
{
    _Atomic uint32_t *l = &tern_win_rank_ctl(w, r)->lock;
    struct tern_waiter wt = TERN_WAITER_INIT;
    for (;;) {
        if (exclusive) {
            uint32_t z = 0;
            if (atomic_compare_exchange_weak(l, &z, TERN_WIN_EXCL)) return;
        } else {
            uint32_t v = atomic_load(l);
            if (!(v & TERN_WIN_EXCL) && atomic_compare_exchange_weak(l, &v, v + 1)) return;
        }
        tern_win_spin(&wt);
    }
}

static void unlock_word(struct tern_win *w, int r, int exclusive)
{
    _Atomic uint32_t *l = &tern_win_rank_ctl(w, r)->lock;
    if (exclusive)
        atomic_store(l, 0);
    else
        atomic_fetch_sub(l, 1);
}

int tern_win_lock(const char *fn, struct tern_win *w, int lock_type, int rank, int assert_)
{
    if (w->lock_held[rank] || w->lock_all)
        return tern_win_err(w, MPI_ERR_RMA_SYNC,
                            "%s: rank %d already holds a lock on target %d of %s", fn, w->rank,
                            rank, tern_win_name(w));
    /* A fence's epoch ends where the program starts another kind (MPICH
     * accepts this too, as long as no operation is pending: none ever is). */
    if (w->start_open)
        return tern_win_err(w, MPI_ERR_RMA_SYNC,
                            "%s: rank %d is in an MPI_Win_start epoch on %s: close it first", fn,
                            w->rank, tern_win_name(w));
    if (w->hints & TERN_WIN_NO_LOCKS)
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: %s was made with the info no_locks=true", fn,
                            tern_win_name(w));
    int nocheck = (assert_ & MPI_MODE_NOCHECK) != 0;
    if (!nocheck && w->am)
        tern_win_am_lock(w, rank, lock_type == MPI_LOCK_EXCLUSIVE);
    else if (!nocheck)
        lock_word(w, rank, lock_type == MPI_LOCK_EXCLUSIVE);
    atomic_thread_fence(memory_order_seq_cst);
    w->fence_open = 0;
    w->lock_held[rank] = (uint8_t)lock_type;
    w->lock_nocheck[rank] = (uint8_t)nocheck;
    w->nlocks++;
    return MPI_SUCCESS;
}

int tern_win_unlock(const char *fn, struct tern_win *w, int rank)
{
    if (!w->lock_held[rank])
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d holds no lock on target %d of %s", fn,
                            w->rank, rank, tern_win_name(w));
    atomic_thread_fence(memory_order_seq_cst);
    int rc = MPI_SUCCESS;
    if (w->am) {
        /* The unlock follows the operations; its reply comes after theirs. */
        if (!w->lock_nocheck[rank]) tern_win_am_unlock(w, rank);
        rc = tern_win_am_flush(fn, w, rank);
    } else if (!w->lock_nocheck[rank]) {
        unlock_word(w, rank, w->lock_held[rank] == MPI_LOCK_EXCLUSIVE);
    }
    w->lock_held[rank] = 0;
    w->nlocks--;
    return rc;
}

int tern_win_lock_all(const char *fn, struct tern_win *w, int assert_)
{
    if (in_passive(w) || w->start_open)
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d already is in an access epoch on %s",
                            fn, w->rank, tern_win_name(w));
    int nocheck = (assert_ & MPI_MODE_NOCHECK) != 0;
    if (!nocheck && w->am)
        tern_win_am_lock_all(w);
    else if (!nocheck)
        for (int r = 0; r < w->size; r++) lock_word(w, r, 0);
    atomic_thread_fence(memory_order_seq_cst);
    w->fence_open = 0;
    w->lock_all = nocheck ? 2 : 1;
    return MPI_SUCCESS;
}

int tern_win_unlock_all(const char *fn, struct tern_win *w)
{
    if (!w->lock_all)
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d did not call MPI_Win_lock_all on %s",
                            fn, w->rank, tern_win_name(w));
    atomic_thread_fence(memory_order_seq_cst);
    if (w->lock_all == 1)
        for (int r = 0; r < w->size; r++) {
            if (w->am)
                tern_win_am_unlock(w, r);
            else
                unlock_word(w, r, 0);
        }
    w->lock_all = 0;
    return w->am ? tern_win_am_flush(fn, w, -1) : MPI_SUCCESS;
}

int tern_win_flush(const char *fn, struct tern_win *w, int rank)
{
    if (!in_passive(w) || (rank >= 0 && !w->lock_all && !w->lock_held[rank]))
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d holds no lock on %s%s", fn, w->rank,
                            rank >= 0 ? "the target of " : "", tern_win_name(w));
    atomic_thread_fence(memory_order_seq_cst);
    return w->am ? tern_win_am_flush(fn, w, rank) : MPI_SUCCESS;
}

/* The window's ranks of g's members; -1 when one is not in the window. */
static int group_ranks(struct tern_win *w, const struct tern_group *g, uint8_t *mark)
{
    for (int i = 0; i < g->size; i++) {
        int found = -1;
        for (int r = 0; r < w->size; r++)
            if (w->group->world[r] == g->world[i]) found = r;
        if (found < 0) return i;
        mark[found] = 1;
    }
    return -1;
}

int tern_win_post(const char *fn, struct tern_win *w, struct tern_group *g, int assert_)
{
    (void)assert_;
    if (w->post_open)
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d already has an exposure epoch on %s",
                            fn, w->rank, tern_win_name(w));
    memset(w->posted, 0, (size_t)w->size);
    int bad = group_ranks(w, g, w->posted);
    if (bad >= 0)
        return tern_win_err(w, MPI_ERR_GROUP, "%s: member %d of the group is not in %s", fn, bad,
                            tern_win_name(w));
    atomic_thread_fence(memory_order_seq_cst);
    if (w->am)
        tern_win_am_post(w, w->posted);
    else
        for (int o = 0; o < w->size; o++)
            if (w->posted[o]) atomic_fetch_add(tern_win_post_ctr(w, o, w->rank), 1);
    w->post_open = 1;
    return MPI_SUCCESS;
}

int tern_win_start(const char *fn, struct tern_win *w, struct tern_group *g, int assert_)
{
    if (w->start_open || in_passive(w))
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d already is in an access epoch on %s",
                            fn, w->rank, tern_win_name(w));
    memset(w->started, 0, (size_t)w->size);
    int bad = group_ranks(w, g, w->started);
    if (bad >= 0) {
        memset(w->started, 0, (size_t)w->size);
        return tern_win_err(w, MPI_ERR_GROUP, "%s: member %d of the group is not in %s", fn, bad,
                            tern_win_name(w));
    }
    /* Wait for each target's post (MPI_MODE_NOCHECK: the program says it
     * happened; its post still counts, and is consumed here). */
    struct tern_waiter wt = TERN_WAITER_INIT;
    for (int t = 0; t < w->size; t++) {
        if (!w->started[t]) continue;
        if (w->am) {
            if (!(assert_ & MPI_MODE_NOCHECK)) tern_win_am_start_wait(w, t);
            w->start_seen[t]++;
            continue;
        }
        _Atomic uint32_t *c = tern_win_post_ctr(w, w->rank, t);
        if (!(assert_ & MPI_MODE_NOCHECK))
            while (atomic_load(c) == w->start_seen[t]) tern_win_spin(&wt);
        w->start_seen[t]++;
    }
    atomic_thread_fence(memory_order_seq_cst);
    w->fence_open = 0;
    w->start_open = 1;
    return MPI_SUCCESS;
}

int tern_win_complete(const char *fn, struct tern_win *w)
{
    if (!w->start_open)
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d did not call MPI_Win_start on %s", fn,
                            w->rank, tern_win_name(w));
    atomic_thread_fence(memory_order_seq_cst);
    int rc = MPI_SUCCESS;
    if (w->am) {
        rc = tern_win_am_flush(fn, w, -1);
        tern_win_am_complete(w, w->started);
    } else {
        for (int t = 0; t < w->size; t++)
            if (w->started[t]) atomic_fetch_add(tern_win_done_ctr(w, t, w->rank), 1);
    }
    memset(w->started, 0, (size_t)w->size);
    w->start_open = 0;
    return rc;
}

static int all_done(struct tern_win *w)
{
    if (w->am) return tern_win_am_all_done(w, w->posted);
    for (int o = 0; o < w->size; o++)
        if (w->posted[o] && atomic_load(tern_win_done_ctr(w, w->rank, o)) == w->wait_seen[o])
            return 0;
    return 1;
}

int tern_win_wait(const char *fn, struct tern_win *w, int *flag)
{
    if (!w->post_open)
        return tern_win_err(w, MPI_ERR_RMA_SYNC, "%s: rank %d did not call MPI_Win_post on %s", fn,
                            w->rank, tern_win_name(w));
    if (flag) {
        if (w->am) tern_progress(); /* a test must let the completions in */
        *flag = all_done(w);
        if (!*flag) return MPI_SUCCESS;
    } else {
        struct tern_waiter wt = TERN_WAITER_INIT;
        while (!all_done(w)) tern_win_spin(&wt);
    }
    for (int o = 0; o < w->size; o++)
        if (w->posted[o]) w->wait_seen[o]++;
    atomic_thread_fence(memory_order_seq_cst);
    w->post_open = 0;
    return MPI_SUCCESS;
}
