/* Synchronisation of windows that span hosts (win_am.h).
 *
 * Closing an epoch waits until every operation this rank made is applied
 * (its reply came back).  Passive-target locks live at the target: a lock
 * request is granted at once when compatible, else queued and granted in
 * order as holders unlock; the origin's MPI_Win_lock waits for the grant.
 * Post and complete are messages counted at their receiver.  Windows with
 * UCP (win_ucp.c) lock with atomics on a lock word instead. */
#include <stdlib.h>

#include "core/errors.h"
#include "core/progress.h"
#include "rma/win_am.h"

/* ---- the target's lock ---- */

struct tern_win_am_lockreq {
    struct tern_win_am_lockreq *next;
    int origin, exclusive, reply_tag;
};

static int compatible(const struct tern_win_am *a, int exclusive)
{
    return a->excl < 0 && (!exclusive || a->nshared == 0);
}

static void grant(struct tern_win *w, int origin, int exclusive, int reply_tag)
{
    struct tern_win_am *a = w->am;
    if (exclusive)
        a->excl = origin;
    else
        a->nshared++;
    if (reply_tag < 0) {
        a->self_granted = 1;
        return;
    }
    int32_t st = MPI_SUCCESS;
    tern_win_am_reply(w, origin, reply_tag, &st, sizeof st);
}

void tern_win_am_lock_request(struct tern_win *w, int origin, int exclusive, int reply_tag)
{
    struct tern_win_am *a = w->am;
    /* First come, first served: a queued request keeps later ones waiting. */
    if (!a->lq && compatible(a, exclusive)) {
        grant(w, origin, exclusive, reply_tag);
        return;
    }
    struct tern_win_am_lockreq *q = malloc(sizeof *q);
    if (!q) tern_fatal("out of memory for a lock request");
    *q = (struct tern_win_am_lockreq){NULL, origin, exclusive, reply_tag};
    *a->lq_tail = q;
    a->lq_tail = &q->next;
}

void tern_win_am_unlock_request(struct tern_win *w, int origin)
{
    struct tern_win_am *a = w->am;
    if (a->excl == origin)
        a->excl = -1;
    else if (a->nshared > 0)
        a->nshared--;
    while (a->lq && compatible(a, a->lq->exclusive)) {
        struct tern_win_am_lockreq *q = a->lq;
        a->lq = q->next;
        if (!a->lq) a->lq_tail = &a->lq;
        grant(w, q->origin, q->exclusive, q->reply_tag);
        free(q);
    }
}

/* ---- the origin's side ---- */

void tern_win_am_lock(struct tern_win *w, int rank, int exclusive)
{
    if (tern_win_ucp_has_locks(w)) {
        tern_win_ucp_lock(w, rank, exclusive);
        return;
    }
    struct tern_waiter wt = TERN_WAITER_INIT;
    if (rank == w->rank) {
        w->am->self_granted = 0;
        tern_win_am_lock_request(w, rank, exclusive, -1);
        while (!w->am->self_granted) tern_progress_wait(&wt);
        return;
    }
    /* The grant is the request's reply: flushing the target waits for it. */
    if (tern_win_am_send_ctl(w, rank, TERN_AM_LOCK,
                             exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 1))
        tern_fatal("cannot send a lock request to rank %d", rank);
    tern_win_am_flush("MPI_Win_lock", w, rank);
}

void tern_win_am_lock_all(struct tern_win *w)
{
    if (tern_win_ucp_has_locks(w)) {
        for (int r = 0; r < w->size; r++) tern_win_ucp_lock(w, r, 0);
        return;
    }
    /* Every request out first: one round trip for all, not one each. */
    struct tern_waiter wt = TERN_WAITER_INIT;
    w->am->self_granted = 0;
    for (int r = 0; r < w->size; r++)
        if (r == w->rank)
            tern_win_am_lock_request(w, r, 0, -1);
        else if (tern_win_am_send_ctl(w, r, TERN_AM_LOCK, MPI_LOCK_SHARED, 1))
            tern_fatal("cannot send a lock request to rank %d", r);
    while (!w->am->self_granted) tern_progress_wait(&wt);
    tern_win_am_flush("MPI_Win_lock_all", w, -1);
}

void tern_win_am_unlock(struct tern_win *w, int rank)
{
    /* UCP's operations are not ordered with the unlock: done first. */
    tern_win_ucp_flush(w, rank);
    if (tern_win_ucp_has_locks(w)) {
        /* The lock word is no message after the operations: they are
         * applied before it is released. */
        tern_win_am_wait_ops(w, rank);
        tern_win_ucp_unlock(w, rank, w->lock_held[rank] == MPI_LOCK_EXCLUSIVE);
        return;
    }
    if (rank == w->rank) {
        tern_win_am_unlock_request(w, rank);
        return;
    }
    if (tern_win_am_send_ctl(w, rank, TERN_AM_UNLOCK, 0, 1))
        tern_fatal("cannot send an unlock request to rank %d", rank);
}

/* Tells each flagged rank of a post or a completion: a message, or the
 * count itself when the rank is this one. */
static void notify(struct tern_win *w, const uint8_t *ranks, uint32_t *own_count, int type,
                   const char *what)
{
    for (int i = 0; i < w->size; i++) {
        if (!ranks[i]) continue;
        if (i == w->rank)
            own_count[i]++;
        else if (tern_win_am_send_ctl(w, i, type, 0, 0))
            tern_fatal("cannot tell rank %d of a window's %s", i, what);
    }
}

void tern_win_am_post(struct tern_win *w, const uint8_t *origins)
{
    notify(w, origins, w->am->posts, TERN_AM_POST, "post");
}

void tern_win_am_start_wait(struct tern_win *w, int target)
{
    struct tern_waiter wt = TERN_WAITER_INIT;
    while (w->am->posts[target] == w->start_seen[target]) tern_progress_wait(&wt);
}

void tern_win_am_complete(struct tern_win *w, const uint8_t *targets)
{
    notify(w, targets, w->am->dones, TERN_AM_DONE, "completion");
}

int tern_win_am_all_done(struct tern_win *w, const uint8_t *origins)
{
    for (int o = 0; o < w->size; o++)
        if (origins[o] && w->am->dones[o] == w->wait_seen[o]) return 0;
    return 1;
}
