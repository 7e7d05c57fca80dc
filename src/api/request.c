/* The bodies of the calls that complete requests: Wait, Test and their
 * any/all/some forms, Start, Cancel, Request_free, Request_get_status and
 * its MPI-4.1 all/any/some forms.  Their entry points, with the init test,
 * the lock and the checks of the request and status pointers, are
 * generated (src/api/gen/bindings_request.c); the handles, the arrays and
 * their lengths are checked here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/gen/bindings.h"
#include "api/handle_check.h"
#include "coll/sched.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/progress.h"
#include "core/state.h"
#include "io/io.h"
#include "p2p/greq.h"
#include "msg/match.h"
#include "p2p/p2p.h"
#include "p2p/p2p_internal.h"
#include "p2p/part.h"
#include "msg/status.h"

/* The argument's name for a message: 'single' (e.g. "*request"), or the
 * array element idx when idx >= 0.  Formatted only when an error is
 * reported: the array calls are on the fast path. */
static const char *arg_name(char buf[48], const char *single, int idx)
{
    if (idx < 0) return single;
    snprintf(buf, 48, "array_of_requests[%d]", idx);
    return buf;
}

static int bad_request(const char *fn, const char *arg, int idx, MPI_Request h)
{
    char buf[48];
    return tern_err_comm(NULL, MPI_ERR_REQUEST,
                         "%s: %s=0x%x is not an active request (already completed and "
                         "freed, or never created)",
                         fn, arg_name(buf, arg, idx), (unsigned)h);
}

/* Looks up a user handle (argument 'arg', or array element idx >= 0); *r is
 * NULL for MPI_REQUEST_NULL. */
static int lookup(const char *fn, const char *arg, int idx, MPI_Request h, struct tern_request **r)
{
    *r = NULL;
    if (h == MPI_REQUEST_NULL) return MPI_SUCCESS;
    struct tern_request *q = tern_req_get(h);
    if (!q || q->kind == TERN_REQ_MESSAGE) return bad_request(fn, arg, idx, h);
    *r = q;
    return MPI_SUCCESS;
}

/* A request that counts for completion: not null, not an inactive persistent one. */
static inline int is_active(const struct tern_request *r)
{
    return r && (!r->persistent || r->active);
}

static inline int is_done(struct tern_request *r)
{
    if (!r->complete && r->poll_fn) r->poll_fn(r);
    return r->complete;
}

/* A generalized request completes with query_fn's status, then free_fn;
 * the first of the two codes that is an error is the call's (MPI-4.1
 * 13.2).  It has no communicator: errors go to MPI_COMM_WORLD's handler. */
static int finish_greq(MPI_Request *handle, struct tern_request *r, MPI_Status *status, int raise)
{
    int rc = tern_greq_query(r);
    tern_status_copy_out(r, status);
    int e = tern_greq_release(r);
    *handle = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS) rc = e;
    return raise ? tern_err_raise(NULL, rc) : rc;
}

/* Hands a completed request back to the user: status, and the handle freed
 * unless persistent.  Returns the operation's error code, raised on its
 * communicator when 'raise' (single-completion calls). */
static int finish(MPI_Request *handle, struct tern_request *r, MPI_Status *status, int raise)
{
    if (r->kind == TERN_REQ_GREQ) return finish_greq(handle, r, status, raise);
    tern_status_copy_out(r, status);
    int rc = r->status.MPI_ERROR;
    /* A file access's errors go to its file's handler (MPI-4.1 14.7). */
    if (rc != MPI_SUCCESS && raise)
        rc = r->kind == TERN_REQ_IO ? tern_file_req_raise(r, rc) : tern_err_raise(r->comm, rc);
    if (r->persistent) {
        r->active = 0;
    } else {
        tern_req_release(r);
        *handle = MPI_REQUEST_NULL;
    }
    return rc;
}

/* The status of a completed request without completing it (the
 * Request_get_status family); returns the operation's error code. */
static int peek_status(struct tern_request *r, MPI_Status *status)
{
    int rc = r->kind == TERN_REQ_GREQ ? tern_greq_query(r) : r->status.MPI_ERROR;
    tern_status_copy_out(r, status);
    return rc;
}

/* An empty status is defined whole, MPI_ERROR = MPI_SUCCESS included
 * (MPI-4.1 3.7.3), whichever call returns it. */
static void empty_status(MPI_Status *status)
{
    if (status != MPI_STATUS_IGNORE) tern_status_empty(status, MPI_ANY_SOURCE);
}

/* A NULL status or status array where one would be written:
 * MPI_STATUS(ES)_IGNORE is the way to pass none. */
static int null_status(const char *fn, const char *arg)
{
    return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL (pass %s to ignore it)", fn, arg,
                         strcmp(arg, "status") == 0 ? "MPI_STATUS_IGNORE" : "MPI_STATUSES_IGNORE");
}

int tern_chk_status_ptr(struct tern_comm *c, const void *p, const char *fn, const char *arg)
{
    if (__builtin_expect(p != NULL, 1)) return MPI_SUCCESS;
    (void)c; /* a request's errors go to MPI_COMM_WORLD's handler */
    return null_status(fn, arg);
}

int tern_api_wait(const char *fn, MPI_Request *request, MPI_Status *status)
{
    struct tern_request *r;
    int rc = lookup(fn, "*request", -1, *request, &r);
    if (rc == MPI_SUCCESS) {
        if (!is_active(r)) {
            empty_status(status);
        } else {
            struct tern_waiter w = TERN_WAITER_INIT;
            while (!is_done(r)) tern_progress_wait(&w);
            rc = finish(request, r, status, 1);
        }
    }
    return rc;
}

int tern_api_test(const char *fn, MPI_Request *request, int *flag, MPI_Status *status)
{
    struct tern_request *r;
    int rc = lookup(fn, "*request", -1, *request, &r);
    *flag = 0;
    if (rc == MPI_SUCCESS) {
        if (!is_active(r)) {
            *flag = 1;
            empty_status(status);
        } else {
            if (!r->complete) tern_progress();
            if (is_done(r)) {
                *flag = 1;
                rc = finish(request, r, status, 1);
            }
        }
    }
    return rc;
}

/* Checks every handle of an array up front so no call half-completes. */
static int lookup_all(const char *fn, int count, const MPI_Request reqs[],
                      struct tern_request **out)
{
    if (count < 0)
        return tern_err_comm(NULL, MPI_ERR_COUNT, "%s: count=%d must not be negative", fn, count);
    if (count > 0 && !reqs)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: array_of_requests is NULL", fn);
    for (int i = 0; i < count; i++) {
        int rc = lookup(fn, NULL, i, reqs[i], &out[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

#define SMALL_ARRAY 64

/* Stack storage for short arrays, heap beyond. */
static struct tern_request **req_array(struct tern_request **small, int count)
{
    return count <= SMALL_ARRAY ? small : malloc(sizeof(struct tern_request *) * (size_t)count);
}

/* The request objects of reqs[0..count) in *rs: small when it is large
 * enough, else a new array (to free unless it is small). */
static int lookup_array(const char *fn, int count, const MPI_Request reqs[],
                        struct tern_request **small, struct tern_request ***rs)
{
    if (count > 0 && !(*rs = req_array(small, count)))
        return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for %d requests", fn, count);
    return lookup_all(fn, count, reqs, *rs);
}

static MPI_Status *status_at(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

/* Records error code e of statuses[i] for a multiple-completion call, which
 * writes MPI_ERROR into its statuses if and only if it returns
 * MPI_ERR_IN_STATUS (MPI-4.1 3.2.5): the first failure gives the statuses
 * before it MPI_SUCCESS, and every status from then on gets its code.
 * *errors counts the failures. */
static void note_status_error(MPI_Status *statuses, int i, int e, int *errors)
{
    if (e != MPI_SUCCESS && (*errors)++ == 0 && statuses != MPI_STATUSES_IGNORE)
        for (int j = 0; j < i; j++) statuses[j].MPI_ERROR = MPI_SUCCESS;
    if (*errors && statuses != MPI_STATUSES_IGNORE) statuses[i].MPI_ERROR = e;
}

/* Waitall and Testall: completes everything once every request is done. */
static int all_common(const char *fn, int count, MPI_Request reqs[], int *flag,
                      MPI_Status statuses[], int block)
{
    struct tern_request *small[SMALL_ARRAY], **rs = NULL;
    int rc = MPI_SUCCESS;
    if ((rc = lookup_array(fn, count, reqs, small, &rs))) goto out;
    if (count > 0 && !statuses) {
        rc = null_status(fn, "array_of_statuses");
        goto out;
    }
    struct tern_waiter w = TERN_WAITER_INIT;
    int first = 1;
    /* Completion is monotonic, so requests before 'next' need no second look:
     * a window of n requests costs O(n) checks, not O(n^2). */
    for (int next = 0;;) {
        while (next < count && (!is_active(rs[next]) || is_done(rs[next]))) next++;
        if (next == count) break;
        if (!block) {
            if (!first) break;
            tern_progress();
            first = 0;
            continue;
        }
        tern_progress_wait(&w);
    }
    int all = 1;
    for (int i = 0; i < count; i++)
        if (is_active(rs[i]) && !rs[i]->complete) all = 0;
    if (flag) *flag = all;
    if (!all) goto out;
    struct tern_comm *errcomm = NULL;
    int errors = 0;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = status_at(statuses, i);
        int e = MPI_SUCCESS;
        if (!is_active(rs[i])) {
            empty_status(st);
        } else {
            struct tern_comm *c = rs[i]->comm;
            e = finish(&reqs[i], rs[i], st, 0);
            if (e != MPI_SUCCESS && !errors)
                errcomm = c == &tern_comm_world || c == &tern_comm_self ? c : NULL;
        }
        note_status_error(statuses, i, e, &errors);
    }
    if (errors)
        rc = tern_err_comm(errcomm, MPI_ERR_IN_STATUS,
                           "%s: %d of %d requests failed; see the MPI_ERROR field of "
                           "their statuses",
                           fn, errors, count);
out:
    if (rs && rs != small) free(rs);
    return rc;
}

int tern_api_waitall(const char *fn, int count, MPI_Request array_of_requests[],
                     MPI_Status array_of_statuses[])
{
    return all_common(fn, count, array_of_requests, NULL, array_of_statuses, 1);
}

int tern_api_testall(const char *fn, int count, MPI_Request array_of_requests[], int *flag,
                     MPI_Status array_of_statuses[])
{
    return all_common(fn, count, array_of_requests, flag, array_of_statuses, 0);
}

/* Waitany and Testany. */
static int any_common(const char *fn, int count, MPI_Request reqs[], int *index, int *flag,
                      MPI_Status *status, int block)
{
    struct tern_request *small[SMALL_ARRAY], **rs = NULL;
    int rc = MPI_SUCCESS;
    if ((rc = lookup_array(fn, count, reqs, small, &rs))) goto out;
    int active = 0;
    for (int i = 0; i < count; i++) active += is_active(rs[i]);
    *index = MPI_UNDEFINED;
    if (!active) {
        if (flag) *flag = 1;
        empty_status(status);
        goto out;
    }
    struct tern_waiter w = TERN_WAITER_INIT;
    int polled = 0;
    for (;;) {
        for (int i = 0; i < count; i++)
            if (is_active(rs[i]) && is_done(rs[i])) {
                *index = i;
                if (flag) *flag = 1;
                rc = finish(&reqs[i], rs[i], status, 1);
                goto out;
            }
        if (!block) {
            if (polled) break;
            tern_progress();
            polled = 1;
            continue;
        }
        tern_progress_wait(&w);
    }
    if (flag) *flag = 0;
out:
    if (rs && rs != small) free(rs);
    return rc;
}

int tern_api_waitany(const char *fn, int count, MPI_Request array_of_requests[], int *index,
                     MPI_Status *status)
{
    return any_common(fn, count, array_of_requests, index, NULL, status, 1);
}

int tern_api_testany(const char *fn, int count, MPI_Request array_of_requests[], int *index,
                     int *flag, MPI_Status *status)
{
    return any_common(fn, count, array_of_requests, index, flag, status, 0);
}

/* Waitsome and Testsome. */
static int some_common(const char *fn, int incount, MPI_Request reqs[], int *outcount,
                       int indices[], MPI_Status statuses[], int block)
{
    struct tern_request *small[SMALL_ARRAY], **rs = NULL;
    int rc = MPI_SUCCESS;
    if (incount > 0 && !(rs = req_array(small, incount))) {
        rc = tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for %d requests", fn, incount);
        goto out;
    }
    if ((rc = lookup_all(fn, incount, reqs, rs))) goto out;
    if (incount > 0 && !indices) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: array_of_indices is NULL", fn);
        goto out;
    }
    if (incount > 0 && !statuses) {
        rc = null_status(fn, "array_of_statuses");
        goto out;
    }
    int active = 0;
    for (int i = 0; i < incount; i++) active += is_active(rs[i]);
    if (!active) {
        *outcount = MPI_UNDEFINED;
        goto out;
    }
    struct tern_waiter w = TERN_WAITER_INIT;
    int n = 0, polled = 0;
    for (;;) {
        for (int i = 0; i < incount; i++)
            if (is_active(rs[i]) && is_done(rs[i])) indices[n++] = i;
        if (n || !block) {
            if (n || polled) break;
            tern_progress();
            polled = 1;
            continue;
        }
        tern_progress_wait(&w);
    }
    *outcount = n;
    int errors = 0;
    for (int k = 0; k < n; k++) {
        int i = indices[k];
        MPI_Status *st = status_at(statuses, k);
        note_status_error(statuses, k, finish(&reqs[i], rs[i], st, 0), &errors);
    }
    if (errors)
        rc = tern_err_comm(NULL, MPI_ERR_IN_STATUS,
                           "%s: %d of the %d completed requests failed; see the MPI_ERROR "
                           "field of their statuses",
                           fn, errors, n);
out:
    if (rs && rs != small) free(rs);
    return rc;
}

int tern_api_waitsome(const char *fn, int incount, MPI_Request array_of_requests[], int *outcount,
                      int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some_common(fn, incount, array_of_requests, outcount, array_of_indices,
                       array_of_statuses, 1);
}

int tern_api_testsome(const char *fn, int incount, MPI_Request array_of_requests[], int *outcount,
                      int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some_common(fn, incount, array_of_requests, outcount, array_of_indices,
                       array_of_statuses, 0);
}

/* ---- persistent requests ---- */

static int start_one(const char *fn, const char *arg, int idx, MPI_Request h)
{
    char buf[48];
    struct tern_request *r = tern_req_get(h);
    if (!r || !r->persistent)
        return tern_err_comm(NULL, MPI_ERR_REQUEST, "%s: %s=0x%x is not a persistent request", fn,
                             arg_name(buf, arg, idx), (unsigned)h);
    if (r->active)
        return tern_err_comm(r->comm, MPI_ERR_REQUEST,
                             "%s: %s=0x%x is already active (wait for it before starting "
                             "it again)",
                             fn, arg_name(buf, arg, idx), (unsigned)h);
    r->active = 1;
    int rc = r->kind == TERN_REQ_COLL   ? tern_sched_restart(r)
             : r->kind == TERN_REQ_PART ? tern_part_start(r)
             : r->kind == TERN_REQ_SEND ? tern_send_start(r)
                                        : tern_recv_start(r);
    if (rc != MPI_SUCCESS) {
        r->active = 0;
        rc = tern_err_raise(r->comm, rc);
    }
    return rc;
}

int tern_api_start(const char *fn, MPI_Request *request)
{
    return start_one(fn, "*request", -1, *request);
}

int tern_api_startall(const char *fn, int count, MPI_Request array_of_requests[])
{
    if (count < 0)
        return tern_err_comm(NULL, MPI_ERR_COUNT, "%s: count=%d must not be negative", fn, count);
    if (count && !array_of_requests)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: array_of_requests is NULL", fn);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = start_one(fn, NULL, i, array_of_requests[i]);
    return rc;
}

/* ---- cancel, free, status ---- */

/* For calls that need a live request: MPI_REQUEST_NULL is an error too. */
static int lookup_live(const char *fn, MPI_Request *request, struct tern_request **r)
{
    int rc = lookup(fn, "*request", -1, *request, r);
    if (rc == MPI_SUCCESS && !*r)
        rc = tern_err_comm(NULL, MPI_ERR_REQUEST, "%s: *request is MPI_REQUEST_NULL", fn);
    return rc;
}

int tern_api_cancel(const char *fn, MPI_Request *request)
{
    struct tern_request *r;
    int rc = lookup_live(fn, request, &r);
    /* MPI makes cancelling a collective erroneous: the others would wait
     * forever for this rank's part. */
    if (rc == MPI_SUCCESS && r->kind == TERN_REQ_COLL)
        rc = tern_err_comm(r->comm, MPI_ERR_REQUEST,
                           "%s: *request=0x%x is a collective operation, which cannot be "
                           "cancelled",
                           fn, (unsigned)*request);
    /* MPI makes freeing or cancelling a partitioned operation in progress
     * erroneous; once its round is over there is nothing left to cancel. */
    if (rc == MPI_SUCCESS && r->kind == TERN_REQ_PART && r->active && !is_done(r))
        rc = tern_err_comm(
            r->comm, MPI_ERR_REQUEST,
            "%s: *request=0x%x is a partitioned operation in progress, which cannot be "
            "cancelled",
            fn, (unsigned)*request);
    /* A receive still waiting in the posted queue is withdrawn; one that has
     * matched completes normally (MPI allows cancel to fail, and
     * MPI_Test_cancelled then says so).  Sends: see tern_cancel_send. */
    if (rc == MPI_SUCCESS && r->kind == TERN_REQ_RECV && !r->complete && tern_match_unpost(r)) {
        r->cancelled = 1;
        tern_status_empty(&r->status, MPI_ANY_SOURCE);
        tern_status_set_cancelled(&r->status, 1);
        tern_req_complete(r);
    }
    if (rc == MPI_SUCCESS && r->kind == TERN_REQ_SEND) tern_cancel_send(r);
    if (rc == MPI_SUCCESS && r->kind == TERN_REQ_GREQ)
        rc = tern_err_raise(NULL, tern_greq_cancel(r));
    return rc;
}

int tern_api_test_cancelled(const char *fn, const MPI_Status *status, int *flag)
{
    (void)fn;
    *flag = tern_status_cancelled(status);
    return MPI_SUCCESS;
}

int tern_api_request_free(const char *fn, MPI_Request *request)
{
    struct tern_request *r;
    int rc = lookup_live(fn, request, &r);
    if (rc == MPI_SUCCESS && r->kind == TERN_REQ_PART && r->active && !is_done(r))
        rc = tern_err_comm(r->comm, MPI_ERR_REQUEST,
                           "%s: *request=0x%x is a partitioned operation in progress; complete it "
                           "(MPI_Wait/MPI_Test) before freeing it",
                           fn, (unsigned)*request);
    if (rc == MPI_SUCCESS && r->kind == TERN_REQ_GREQ) {
        *request = MPI_REQUEST_NULL;
        rc = tern_err_raise(NULL, tern_greq_free(r)); /* free_fn's code, when it ran */
    } else if (rc == MPI_SUCCESS) {
        if (r->complete || (r->persistent && !r->active))
            tern_req_release(r);
        else
            tern_req_orphan(r); /* released once the operation completes */
        *request = MPI_REQUEST_NULL;
    }
    return rc;
}

int tern_api_request_get_status(const char *fn, MPI_Request request, int *flag, MPI_Status *status)
{
    struct tern_request *r;
    int rc = lookup(fn, "request", -1, request, &r);
    if (rc == MPI_SUCCESS) {
        if (!is_active(r)) {
            *flag = 1;
            empty_status(status);
        } else {
            if (!r->complete) tern_progress();
            *flag = is_done(r);
            if (*flag) rc = tern_err_raise(r->comm, peek_status(r, status));
        }
    }
    return rc;
}

/* ---- MPI-4.1: the Test forms that leave the requests alone ---- */

enum peek_kind { PEEK_ALL, PEEK_ANY, PEEK_SOME };

/* MPI_Request_get_status_all/any/some: what Testall/Testany/Testsome
 * report, without freeing or deactivating anything.  'out' is the index
 * (any) or the outcount (some). */
static int peek_common(const char *fn, enum peek_kind kind, int count, const MPI_Request reqs[],
                       int *out, int *flag, int indices[], MPI_Status *statuses)
{
    struct tern_request *small[SMALL_ARRAY], **rs = NULL;
    int rc = MPI_SUCCESS;
    if ((rc = lookup_array(fn, count, reqs, small, &rs))) goto out;
    if (kind == PEEK_SOME && count > 0 && !indices) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: array_of_indices is NULL", fn);
        goto out;
    }
    if (!statuses && (kind == PEEK_ANY || count > 0)) {
        rc = null_status(fn, kind == PEEK_ANY ? "status" : "array_of_statuses");
        goto out;
    }
    tern_progress();
    int active = 0, done = 0, errors = 0;
    for (int i = 0; i < count; i++)
        if (is_active(rs[i])) {
            active++;
            done += is_done(rs[i]);
        }
    if (kind == PEEK_ALL) {
        *flag = done == active;
        for (int i = 0; *flag && i < count; i++) {
            MPI_Status *st = status_at(statuses, i);
            int e = MPI_SUCCESS;
            if (!is_active(rs[i]))
                empty_status(st);
            else
                e = peek_status(rs[i], st);
            note_status_error(statuses, i, e, &errors);
        }
    } else if (kind == PEEK_ANY) {
        *out = MPI_UNDEFINED;
        *flag = !active;
        if (!active) empty_status(statuses);
        for (int i = 0; i < count && !*flag; i++)
            if (is_active(rs[i]) && rs[i]->complete) {
                *out = i;
                *flag = 1;
                rc = tern_err_raise(rs[i]->comm, peek_status(rs[i], statuses));
            }
    } else if (!active) {
        *out = MPI_UNDEFINED;
    } else {
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (!is_active(rs[i]) || !rs[i]->complete) continue;
            MPI_Status *st = status_at(statuses, n);
            note_status_error(statuses, n, peek_status(rs[i], st), &errors);
            indices[n++] = i;
        }
        *out = n;
    }
    if (errors)
        rc = tern_err_comm(
            NULL, MPI_ERR_IN_STATUS,
            "%s: %d of the completed requests failed; see the MPI_ERROR field of their statuses",
            fn, errors);
out:
    if (rs && rs != small) free(rs);
    return rc;
}

int tern_api_request_get_status_all(const char *fn, int count,
                                    const MPI_Request array_of_requests[], int *flag,
                                    MPI_Status array_of_statuses[])
{
    return peek_common(fn, PEEK_ALL, count, array_of_requests, NULL, flag, NULL, array_of_statuses);
}

int tern_api_request_get_status_any(const char *fn, int count,
                                    const MPI_Request array_of_requests[], int *index, int *flag,
                                    MPI_Status *status)
{
    return peek_common(fn, PEEK_ANY, count, array_of_requests, index, flag, NULL, status);
}

int tern_api_request_get_status_some(const char *fn, int incount,
                                     const MPI_Request array_of_requests[], int *outcount,
                                     int array_of_indices[], MPI_Status array_of_statuses[])
{
    return peek_common(fn, PEEK_SOME, incount, array_of_requests, outcount, NULL, array_of_indices,
                       array_of_statuses);
}
