/* Generalized requests (MPI_Grequest_start): the user's operation, known to
 * MPI only through its three callbacks.  The request completes when the
 * user calls MPI_Grequest_complete; the completion calls of src/api/request.c
 * then ask query_fn for the status and, when they free the request, call
 * free_fn.  Callers hold the big lock. */
#ifndef TERN_P2P_GREQ_H
#define TERN_P2P_GREQ_H

#include <mpi.h>

#include "msg/request.h"

/* A new incomplete generalized request: MPI_SUCCESS or MPI_ERR_NO_MEM. */
int tern_greq_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                    struct tern_request **out);

/* MPI_Grequest_complete: marks r complete.  When the user has already freed
 * the request (MPI_Request_free), free_fn runs now and r is released; its
 * code is returned. */
int tern_greq_complete(struct tern_request *r);

/* A completed request's status from query_fn, into r->status (MPI_ERROR
 * included): the first of query_fn's code and the status it set that is
 * an error, also returned. */
int tern_greq_query(struct tern_request *r);

/* Frees the request for good: free_fn, then the object.  Returns free_fn's
 * code. */
int tern_greq_release(struct tern_request *r);

/* MPI_Request_free: released now when complete (free_fn's code returned),
 * else at MPI_Grequest_complete. */
int tern_greq_free(struct tern_request *r);

/* MPI_Cancel: cancel_fn(extra_state, complete); its code. */
int tern_greq_cancel(struct tern_request *r);

#endif
