/* MPI_Grequest_start and MPI_Grequest_complete.  Waiting, testing,
 * cancelling and freeing a generalized request go through the calls of
 * src/api/request.c like any other request. */
#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"
#include "p2p/greq.h"

TERN_WEAK_ALIAS(MPI_Grequest_start)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    static const char fn[] = "MPI_Grequest_start";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    /* The standard has no "no callback" value: each one is called. */
    const char *missing = !query_fn    ? "query_fn"
                          : !free_fn   ? "free_fn"
                          : !cancel_fn ? "cancel_fn"
                                       : NULL;
    int rc = missing ? tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, missing)
                     : tern_check_ptr(NULL, request, fn, "request");
    struct tern_request *r;
    if (!rc && (rc = tern_greq_start(query_fn, free_fn, cancel_fn, extra_state, &r)))
        rc = tern_err_comm(NULL, rc, "%s: out of memory allocating a request", fn);
    if (!rc) *request = r->handle;
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Grequest_complete)
int PMPI_Grequest_complete(MPI_Request request)
{
    static const char fn[] = "MPI_Grequest_complete";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_request *r = tern_req_get(request);
    int rc;
    if (!r || r->kind != TERN_REQ_GREQ)
        rc = tern_err_comm(NULL, MPI_ERR_REQUEST, "%s: request=0x%x is not a generalized request%s",
                           fn, (unsigned)request,
                           request == MPI_REQUEST_NULL ? " (MPI_REQUEST_NULL)" : "");
    else if (r->complete)
        rc = tern_err_comm(NULL, MPI_ERR_REQUEST, "%s: request=0x%x was already completed", fn,
                           (unsigned)request);
    else
        rc = tern_err_raise(
            NULL, tern_greq_complete(r)); /* free_fn's code when the user freed it first */
    tern_unlock();
    return rc;
}
