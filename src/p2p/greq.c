/* Generalized requests: the callbacks live beside the request (r->sched),
 * completion is the user's MPI_Grequest_complete, and freeing may come
 * before it (MPI_Request_free), in which case free_fn waits for it. */
#include "p2p/greq.h"

#include <stdlib.h>

#include "p2p/p2p_internal.h"
#include "msg/status.h"

struct greq {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    int user_freed; /* MPI_Request_free came before MPI_Grequest_complete */
};

static struct greq *greq_of(const struct tern_request *r) { return r->sched; }

/* tern_req_release's hook: the callbacks' record goes with the request. */
static void drop(struct tern_request *r)
{
    free(r->sched);
    r->sched = NULL;
}

int tern_greq_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                    struct tern_request **out)
{
    struct greq *g = malloc(sizeof *g);
    struct tern_request *r = g ? tern_req_alloc(TERN_REQ_GREQ) : NULL;
    if (!r) {
        free(g);
        return MPI_ERR_NO_MEM;
    }
    *g = (struct greq){query_fn, free_fn, cancel_fn, extra_state, 0};
    r->sched = g;
    r->free_fn = drop;
    tern_status_empty(&r->status, MPI_ANY_SOURCE);
    *out = r;
    return MPI_SUCCESS;
}

int tern_greq_release(struct tern_request *r)
{
    struct greq *g = greq_of(r);
    int rc = g->free_fn(g->extra_state);
    tern_req_release(r);
    return rc;
}

int tern_greq_complete(struct tern_request *r)
{
    tern_req_complete(r);
    return greq_of(r)->user_freed ? tern_greq_release(r) : MPI_SUCCESS;
}

int tern_greq_query(struct tern_request *r)
{
    struct greq *g = greq_of(r);
    /* query_fn starts from an empty status each time: what it leaves unset
     * reads as "no source, no tag, nothing received, not cancelled". */
    tern_status_empty(&r->status, MPI_ANY_SOURCE);
    int rc = g->query_fn(g->extra_state, &r->status);
    r->status.MPI_ERROR = rc;
    return rc;
}

int tern_greq_free(struct tern_request *r)
{
    if (r->complete) return tern_greq_release(r);
    greq_of(r)->user_freed = 1;
    return MPI_SUCCESS;
}

int tern_greq_cancel(struct tern_request *r)
{
    struct greq *g = greq_of(r);
    return g->cancel_fn(g->extra_state, r->complete != 0);
}
