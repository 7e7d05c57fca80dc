/* A process of another job that dies does not end this job (MPI-4.1
 * 11.10.4 leaves a connected job's failure to the program): what waits on
 * it fails instead, with an error raised where the operation raises its
 * own.  The progress engine calls the watch while a rank is blocked, at
 * the liveness interval.
 *
 * Failed: every posted receive that only a dead process could satisfy (its
 * source is one, or MPI_ANY_SOURCE on a communicator whose other members
 * are all dead processes of other jobs), and, through the transport, what
 * was under way to or from one.  Operations started later fail as they
 * start (the transport refuses a dead process). */
#include "core/errors.h"
#include "core/objects.h"
#include "core/progress.h"
#include "core/state.h"
#include "msg/match.h"
#include "msg/procs.h"
#include "msg/status.h"
#include "p2p/p2p_internal.h"
#include "p2p/transport.h"

static int only_dead_can_send(const struct tern_request *r)
{
    const struct tern_comm *c = r->comm;
    if (!c || !c->peer_world) return 0;
    if (r->peer >= 0) return r->peer < c->peer_size && tern_proc_is_dead(c->peer_world[r->peer]);
    int dead = 0;
    for (int i = 0; i < c->peer_size; i++) {
        int w = c->peer_world[i];
        if (w == tern_g.world_rank) continue;
        if (!tern_proc_is_dead(w)) return 0;
        dead = 1;
    }
    return dead;
}

static void fail_receive(struct tern_request *r)
{
    int src = r->peer >= 0 ? r->peer : MPI_ANY_SOURCE;
    const char *who = r->peer >= 0 ? tern_proc_describe(r->comm->peer_world[r->peer])
                                   : "every process that could send it";
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = r->tag;
    tern_status_set_bytes(&r->status, 0);
    r->status.MPI_ERROR = tern_err_make(
        MPI_ERR_OTHER,
        "receive from rank %d with tag %d on communicator \"%s\" cannot complete: the sender (%s, "
        "a process of a connected job) has died",
        src, r->tag, r->comm->name[0] ? r->comm->name : "(unnamed)", who);
    tern_req_complete(r);
}

static void watch_foreign(void)
{
    static int any_dead;
    if (tern_g.nprocs == tern_g.world_size) return;
    if (tern_procs_watch() > 0) {
        any_dead = 1;
        for (int w = tern_g.world_size; w < tern_g.nprocs; w++)
            if (tern_proc_is_dead(w)) tern_p2p_foreign_fail(w);
    }
    if (!any_dead) return;
    struct tern_request *r;
    while ((r = tern_match_take_posted(only_dead_can_send))) fail_receive(r);
}

void tern_p2p_foreign_watch_init(void) { tern_progress_register_watch(watch_foreign); }
