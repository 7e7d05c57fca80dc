/* The bodies of MPI_Grequest_start and MPI_Grequest_complete (their entry
 * points are generated: src/api/gen/bindings_greq.c).  Waiting, testing,
 * cancelling and freeing a generalized request go through the calls of
 * src/api/request.c like any other request. */
#include "api/check.h"
#include "api/gen/bindings.h"
#include "core/errors.h"
#include "core/objects.h"
#include "p2p/greq.h"

int tern_api_grequest_start(const char *fn, MPI_Grequest_query_function *query_fn,
                            MPI_Grequest_free_function *free_fn,
                            MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                            MPI_Request *request)
{
    /* The standard has no "no callback" value: each one is called. */
    const char *missing = !query_fn    ? "query_fn"
                          : !free_fn   ? "free_fn"
                          : !cancel_fn ? "cancel_fn"
                                       : NULL;
    if (missing) return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, missing);
    int rc = tern_check_ptr(NULL, request, fn, "request");
    struct tern_request *r;
    if (!rc && (rc = tern_greq_start(query_fn, free_fn, cancel_fn, extra_state, &r)))
        rc = tern_err_comm(NULL, rc, "%s: out of memory allocating a request", fn);
    if (!rc) *request = r->handle;
    return rc;
}

int tern_api_grequest_complete(const char *fn, MPI_Request request)
{
    struct tern_request *r = tern_req_get(request);
    if (!r || r->kind != TERN_REQ_GREQ)
        return tern_err_comm(
            NULL, MPI_ERR_REQUEST, "%s: request=0x%x is not a generalized request%s", fn,
            (unsigned)request, request == MPI_REQUEST_NULL ? " (MPI_REQUEST_NULL)" : "");
    if (r->complete)
        return tern_err_comm(NULL, MPI_ERR_REQUEST, "%s: request=0x%x was already completed", fn,
                             (unsigned)request);
    return tern_err_raise(NULL,
                          tern_greq_complete(r)); /* free_fn's code when the user freed it first */
}
