/* Synchronisation of windows (MPI-4.1 12.5): fence, post-start-complete-
 * wait, passive-target locks and flushes.  rma/win_sync.c does them. */
#include "api/check.h"
#include "api/win_check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"
#include "rma/win.h"
#include "rma/win_fast.h"

#define WIN_CALL(fn, win, w, body)            \
    do {                                      \
        TERN_REQUIRE_INIT(fn);                \
        tern_lock();                          \
        struct tern_win *w = NULL;            \
        int rc = tern_check_win(win, fn, &w); \
        if (!rc) rc = (body);                 \
        tern_unlock();                        \
        return rc;                            \
    } while (0)

/* Flushes in a passive epoch on one host skip the general path's checks
 * (rma/win_fast.h). */
static inline int flush_fast(int rank, MPI_Win win)
{
    const struct tern_win *w = tern_win_fast_lookup(win);
    return w && tern_win_flush_fast(w, rank);
}

static const int MODES =
    MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

static int check_assert(struct tern_win *w, const char *fn, int assert_)
{
    if (assert_ & ~MODES)
        return tern_win_err(w, MPI_ERR_ASSERT, "%s: assert=%d has bits that name no assertion", fn,
                            assert_);
    return MPI_SUCCESS;
}

/* MPI_PROC_NULL passes: locking, unlocking or flushing it does nothing, as
 * an operation on it moves nothing. */
static int check_rank(struct tern_win *w, const char *fn, int rank)
{
    if ((rank >= 0 && rank < w->size) || rank == MPI_PROC_NULL) return MPI_SUCCESS;
    return tern_win_err(w, MPI_ERR_RANK, "%s: rank=%d is not a rank of the window (size %d)", fn,
                        rank, w->size);
}

/* Unlock or flush of one target, nothing for MPI_PROC_NULL. */
static int on_target(struct tern_win *w, const char *fn, int rank,
                     int (*op)(const char *, struct tern_win *, int))
{
    int rc = check_rank(w, fn, rank);
    return rc || rank == MPI_PROC_NULL ? rc : op(fn, w, rank);
}

static int check_group(struct tern_win *w, const char *fn, MPI_Group h, struct tern_group **g)
{
    *g = h == MPI_GROUP_NULL ? NULL : tern_group_get(h);
    if (*g) return MPI_SUCCESS;
    return tern_win_err(w, MPI_ERR_GROUP, "%s: group is %s", fn,
                        h == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "not a group");
}

TERN_WEAK_ALIAS(MPI_Win_fence)
int PMPI_Win_fence(int assert, MPI_Win win)
{
    WIN_CALL("MPI_Win_fence", win, w,
             check_assert(w, "MPI_Win_fence", assert)
                 ?: tern_win_fence("MPI_Win_fence", w, assert));
}

static int lock(const char *fn, struct tern_win *w, int lock_type, int rank, int assert_)
{
    int rc = check_rank(w, fn, rank);
    if (!rc && lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        rc = tern_win_err(w, MPI_ERR_LOCKTYPE,
                          "%s: lock_type=%d is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", fn,
                          lock_type);
    if (!rc) rc = check_assert(w, fn, assert_);
    if (rc || rank == MPI_PROC_NULL) return rc;
    return tern_win_lock(fn, w, lock_type, rank, assert_);
}

TERN_WEAK_ALIAS(MPI_Win_lock)
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    WIN_CALL("MPI_Win_lock", win, w, lock("MPI_Win_lock", w, lock_type, rank, assert));
}

TERN_WEAK_ALIAS(MPI_Win_unlock)
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    WIN_CALL("MPI_Win_unlock", win, w, on_target(w, "MPI_Win_unlock", rank, tern_win_unlock));
}

TERN_WEAK_ALIAS(MPI_Win_lock_all)
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    WIN_CALL("MPI_Win_lock_all", win, w,
             check_assert(w, "MPI_Win_lock_all", assert)
                 ?: tern_win_lock_all("MPI_Win_lock_all", w, assert));
}

TERN_WEAK_ALIAS(MPI_Win_unlock_all)
int PMPI_Win_unlock_all(MPI_Win win)
{
    WIN_CALL("MPI_Win_unlock_all", win, w, tern_win_unlock_all("MPI_Win_unlock_all", w));
}

TERN_WEAK_ALIAS(MPI_Win_flush)
int PMPI_Win_flush(int rank, MPI_Win win)
{
    if (flush_fast(rank, win)) return MPI_SUCCESS;
    WIN_CALL("MPI_Win_flush", win, w, on_target(w, "MPI_Win_flush", rank, tern_win_flush));
}

TERN_WEAK_ALIAS(MPI_Win_flush_local)
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    if (flush_fast(rank, win)) return MPI_SUCCESS;
    WIN_CALL("MPI_Win_flush_local", win, w,
             on_target(w, "MPI_Win_flush_local", rank, tern_win_flush));
}

TERN_WEAK_ALIAS(MPI_Win_flush_all)
int PMPI_Win_flush_all(MPI_Win win)
{
    WIN_CALL("MPI_Win_flush_all", win, w, tern_win_flush("MPI_Win_flush_all", w, -1));
}

TERN_WEAK_ALIAS(MPI_Win_flush_local_all)
int PMPI_Win_flush_local_all(MPI_Win win)
{
    WIN_CALL("MPI_Win_flush_local_all", win, w, tern_win_flush("MPI_Win_flush_local_all", w, -1));
}

/* The unified model: the window's memory is the memory; a barrier orders
 * this process's loads and stores with the other processes'. */
TERN_WEAK_ALIAS(MPI_Win_sync)
int PMPI_Win_sync(MPI_Win win)
{
    WIN_CALL("MPI_Win_sync", win, w, (atomic_thread_fence(memory_order_seq_cst), (void)w, 0));
}

TERN_WEAK_ALIAS(MPI_Win_post)
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    struct tern_group *g;
    WIN_CALL("MPI_Win_post", win, w,
             check_group(w, "MPI_Win_post", group, &g)
                 ?: check_assert(w, "MPI_Win_post", assert)
                        ?: tern_win_post("MPI_Win_post", w, g, assert));
}

TERN_WEAK_ALIAS(MPI_Win_start)
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    struct tern_group *g;
    WIN_CALL("MPI_Win_start", win, w,
             check_group(w, "MPI_Win_start", group, &g)
                 ?: check_assert(w, "MPI_Win_start", assert)
                        ?: tern_win_start("MPI_Win_start", w, g, assert));
}

TERN_WEAK_ALIAS(MPI_Win_complete)
int PMPI_Win_complete(MPI_Win win)
{
    WIN_CALL("MPI_Win_complete", win, w, tern_win_complete("MPI_Win_complete", w));
}

TERN_WEAK_ALIAS(MPI_Win_wait)
int PMPI_Win_wait(MPI_Win win)
{
    WIN_CALL("MPI_Win_wait", win, w, tern_win_wait("MPI_Win_wait", w, NULL));
}

TERN_WEAK_ALIAS(MPI_Win_test)
int PMPI_Win_test(MPI_Win win, int *flag)
{
    WIN_CALL("MPI_Win_test", win, w,
             !flag ? tern_win_err(w, MPI_ERR_ARG, "MPI_Win_test: flag is NULL")
                   : tern_win_wait("MPI_Win_test", w, flag));
}
