/* Generalized requests: completion only after MPI_Grequest_complete (from
 * another thread, or from a call made after the wait began to poll), the
 * status from query_fn, free_fn once when the request is freed, the
 * callbacks' error codes, cancel_fn's 'complete' argument, and the array
 * forms mixing generalized and ordinary requests.  Local to each rank; run
 * at several sizes so the ordinary requests have a peer. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "tern_test.h"

struct ctx {
    int query_rc, free_rc, cancel_rc;
    int source, tag, bytes, cancelled;
    int queries, frees, cancels, last_complete;
    volatile int released; /* the helper thread's go-ahead */
    MPI_Request req;       /* for the helper thread */
};

static int query_fn(void *extra, MPI_Status *st)
{
    struct ctx *c = extra;
    c->queries++;
    /* query_fn starts from an empty status */
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG,
          "query_fn got source %d tag %d", st->MPI_SOURCE, st->MPI_TAG);
    st->MPI_SOURCE = c->source;
    st->MPI_TAG = c->tag;
    CHECK_MPI(MPI_Status_set_elements(st, MPI_INT, c->bytes / (int)sizeof(int)));
    CHECK_MPI(MPI_Status_set_cancelled(st, c->cancelled));
    return c->query_rc;
}

static int free_fn(void *extra)
{
    struct ctx *c = extra;
    c->frees++;
    return c->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
    struct ctx *c = extra;
    c->cancels++;
    c->last_complete = complete;
    return c->cancel_rc;
}

static void ctx_init(struct ctx *c, int source, int tag)
{
    memset(c, 0, sizeof *c);
    c->source = source;
    c->tag = tag;
    c->bytes = 3 * (int)sizeof(int);
}

static MPI_Request start(struct ctx *c)
{
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, c, &r));
    CHECK(r != MPI_REQUEST_NULL, "Grequest_start gave MPI_REQUEST_NULL");
    return r;
}

static int err_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static void check_status(const MPI_Status *st, const struct ctx *c)
{
    int n = -1, cancelled = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &n));
    CHECK_MPI(MPI_Test_cancelled(st, &cancelled));
    CHECK(st->MPI_SOURCE == c->source && st->MPI_TAG == c->tag &&
              n == c->bytes / (int)sizeof(int) && cancelled == c->cancelled,
          "status (%d, %d, %d ints, cancelled %d), expected (%d, %d, %d, %d)", st->MPI_SOURCE,
          st->MPI_TAG, n, cancelled, c->source, c->tag, c->bytes / (int)sizeof(int), c->cancelled);
}

/* Test before completion finds nothing and calls nothing; after it, the
 * status is query_fn's and free_fn runs once. */
static void test_basic(void)
{
    struct ctx c;
    ctx_init(&c, 7, 42);
    MPI_Request r = start(&c);
    int flag = 1;
    MPI_Status st;
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Test(&r, &flag, &st));
        CHECK(!flag && c.queries == 0 && c.frees == 0,
              "incomplete greq: flag %d queries %d frees %d", flag, c.queries, c.frees);
    }
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK(!flag && c.queries == 0, "Request_get_status before completion: flag %d queries %d", flag,
          c.queries);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK(c.frees == 0 && c.queries == 0,
          "Grequest_complete alone calls nothing (frees %d queries %d)", c.frees, c.queries);
    /* Request_get_status asks query_fn each time and frees nothing */
    for (int i = 1; i <= 2; i++) {
        memset(&st, 0xff, sizeof st);
        CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
        CHECK(flag && c.queries == i && c.frees == 0,
              "Request_get_status: flag %d queries %d frees %d", flag, c.queries, c.frees);
        check_status(&st, &c);
    }
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(flag && r == MPI_REQUEST_NULL && c.queries == 3 && c.frees == 1,
          "Test after completion: flag %d request 0x%x queries %d frees %d", flag, (unsigned)r,
          c.queries, c.frees);
    check_status(&st, &c);

    /* Wait with MPI_STATUS_IGNORE still runs query_fn (then free_fn) */
    ctx_init(&c, 1, 2);
    r = start(&c);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(r == MPI_REQUEST_NULL && c.queries == 1 && c.frees == 1, "Wait: queries %d frees %d",
          c.queries, c.frees);
}

static void *completer(void *arg)
{
    struct ctx *c = arg;
    while (!c->released) sched_yield();
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    CHECK_MPI(MPI_Grequest_complete(c->req));
    return NULL;
}

/* MPI_Wait blocks until another thread completes the request. */
static void test_thread(void)
{
    struct ctx c;
    ctx_init(&c, 3, 9);
    c.req = start(&c);
    MPI_Request r = c.req;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, completer, &c) == 0, "pthread_create");
    c.released = 1;
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL && c.queries == 1 && c.frees == 1,
          "Wait across threads: queries %d frees %d", c.queries, c.frees);
    check_status(&st, &c);
    pthread_join(th, NULL);
}

/* A generalized request completed by a later call, next to a receive that
 * completes first: Waitany picks the receive, Testsome and Testall leave
 * the generalized request alone until it is completed. */
static void test_later(int rank, int size)
{
    struct ctx c;
    ctx_init(&c, 5, 6);
    MPI_Request rs[2];
    rs[0] = start(&c);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, in = -1, out = rank;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &rs[1]));
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, right, 11, MPI_COMM_WORLD));
    int idx = -1, flag = 1, outcount = -1, indices[2];
    MPI_Status st, sts[2];
    CHECK_MPI(MPI_Waitany(2, rs, &idx, &st));
    CHECK(idx == 1 && in == left && st.MPI_SOURCE == left && rs[1] == MPI_REQUEST_NULL,
          "Waitany: index %d value %d source %d", idx, in, st.MPI_SOURCE);
    CHECK_MPI(MPI_Testall(2, rs, &flag, sts));
    CHECK(!flag && rs[0] != MPI_REQUEST_NULL && c.queries == 0,
          "Testall before completion: flag %d", flag);
    CHECK_MPI(MPI_Testsome(2, rs, &outcount, indices, sts));
    CHECK(outcount == 0, "Testsome before completion: outcount %d", outcount);
    CHECK_MPI(MPI_Grequest_complete(rs[0]));
    sts[0].MPI_ERROR = -1; /* a successful Testsome leaves it alone */
    CHECK_MPI(MPI_Testsome(2, rs, &outcount, indices, sts));
    CHECK(outcount == 1 && indices[0] == 0 && sts[0].MPI_ERROR == -1 && c.frees == 1,
          "Testsome after completion: outcount %d index %d error %d frees %d", outcount, indices[0],
          sts[0].MPI_ERROR, c.frees);
    check_status(&sts[0], &c);
    CHECK_MPI(MPI_Testsome(2, rs, &outcount, indices, sts));
    CHECK(outcount == MPI_UNDEFINED, "Testsome with no active request: outcount %d", outcount);
}

/* query_fn's and free_fn's codes: the first error is the call's; in the
 * array forms MPI_ERR_IN_STATUS with each status's own code. */
static void test_errors(void)
{
    struct ctx a, b;
    ctx_init(&a, 0, 0);
    a.query_rc = MPI_ERR_BUFFER;
    MPI_Request r = start(&a);
    CHECK_MPI(MPI_Grequest_complete(r));
    int flag = 0, rc = MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    CHECK(flag && err_class(rc) == MPI_ERR_BUFFER && a.frees == 0,
          "Request_get_status with failing query_fn: flag %d class %d", flag, err_class(rc));
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(err_class(rc) == MPI_ERR_BUFFER && r == MPI_REQUEST_NULL && a.frees == 1,
          "Wait with failing query_fn: class %d request 0x%x frees %d", err_class(rc), (unsigned)r,
          a.frees);

    ctx_init(&a, 0, 0);
    a.free_rc = MPI_ERR_TAG;
    r = start(&a);
    CHECK_MPI(MPI_Grequest_complete(r));
    rc = MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    CHECK(flag && err_class(rc) == MPI_ERR_TAG && r == MPI_REQUEST_NULL,
          "Test with failing free_fn: class %d", err_class(rc));

    ctx_init(&a, 0, 0);
    a.query_rc = MPI_ERR_BUFFER;
    a.free_rc = MPI_ERR_TAG;
    r = start(&a);
    CHECK_MPI(MPI_Grequest_complete(r));
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(err_class(rc) == MPI_ERR_BUFFER, "query_fn's code comes first: class %d", err_class(rc));

    ctx_init(&a, 1, 1);
    ctx_init(&b, 2, 2);
    b.query_rc = MPI_ERR_COUNT;
    MPI_Request rs[3] = {start(&a), MPI_REQUEST_NULL, start(&b)};
    CHECK_MPI(MPI_Grequest_complete(rs[0]));
    CHECK_MPI(MPI_Grequest_complete(rs[2]));
    MPI_Status sts[3];
    memset(sts, 0x55, sizeof sts);
    rc = MPI_Waitall(3, rs, sts);
    CHECK(err_class(rc) == MPI_ERR_IN_STATUS && sts[0].MPI_ERROR == MPI_SUCCESS &&
              err_class(sts[2].MPI_ERROR) == MPI_ERR_COUNT && sts[1].MPI_SOURCE == MPI_ANY_SOURCE,
          "Waitall: class %d errors %d %d", err_class(rc), sts[0].MPI_ERROR, sts[2].MPI_ERROR);
    CHECK(sts[0].MPI_SOURCE == 1 && sts[2].MPI_SOURCE == 2 && a.frees == 1 && b.frees == 1,
          "Waitall statuses: sources %d %d frees %d %d", sts[0].MPI_SOURCE, sts[2].MPI_SOURCE,
          a.frees, b.frees);

    /* MPI-4.1's non-destructive array forms */
    ctx_init(&a, 1, 1);
    ctx_init(&b, 2, 2);
    b.query_rc = MPI_ERR_COUNT;
    rs[0] = start(&a);
    rs[1] = start(&b);
    CHECK_MPI(MPI_Request_get_status_all(2, rs, &flag, MPI_STATUSES_IGNORE));
    CHECK(!flag && a.queries == 0, "Request_get_status_all before completion: flag %d", flag);
    CHECK_MPI(MPI_Grequest_complete(rs[0]));
    int idx = -1;
    CHECK_MPI(MPI_Request_get_status_any(2, rs, &idx, &flag, &sts[0]));
    CHECK(flag && idx == 0 && sts[0].MPI_SOURCE == 1 && a.queries == 1,
          "get_status_any: flag %d index %d", flag, idx);
    CHECK_MPI(MPI_Grequest_complete(rs[1]));
    rc = MPI_Request_get_status_all(2, rs, &flag, sts);
    CHECK(err_class(rc) == MPI_ERR_IN_STATUS && flag && sts[0].MPI_ERROR == MPI_SUCCESS &&
              err_class(sts[1].MPI_ERROR) == MPI_ERR_COUNT && sts[1].MPI_SOURCE == 2,
          "get_status_all: class %d flag %d", err_class(rc), flag);
    int outcount = -1, indices[2];
    rc = MPI_Request_get_status_some(2, rs, &outcount, indices, sts);
    CHECK(err_class(rc) == MPI_ERR_IN_STATUS && outcount == 2 && a.frees == 0 && b.frees == 0,
          "get_status_some: class %d outcount %d", err_class(rc), outcount);
    rc = MPI_Waitsome(2, rs, &outcount, indices, MPI_STATUSES_IGNORE);
    CHECK(err_class(rc) == MPI_ERR_IN_STATUS && outcount == 2 && a.frees == 1 && b.frees == 1,
          "Waitsome: class %d outcount %d frees %d %d", err_class(rc), outcount, a.frees, b.frees);
}

/* cancel_fn learns whether the request is complete; its code is
 * MPI_Cancel's; query_fn decides whether the status says cancelled. */
static void test_cancel(void)
{
    struct ctx c;
    ctx_init(&c, 0, 0);
    MPI_Request r = start(&c);
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(c.cancels == 1 && c.last_complete == 0,
          "Cancel before completion: cancels %d complete %d", c.cancels, c.last_complete);
    c.cancelled = 1;
    CHECK_MPI(MPI_Grequest_complete(r));
    c.cancel_rc = MPI_ERR_PENDING;
    int rc = MPI_Cancel(&r);
    CHECK(err_class(rc) == MPI_ERR_PENDING && c.cancels == 2 && c.last_complete == 1,
          "Cancel after completion: class %d cancels %d complete %d", err_class(rc), c.cancels,
          c.last_complete);
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&r, &st));
    check_status(&st, &c);
}

/* MPI_Request_free before completion: free_fn runs at MPI_Grequest_complete
 * (whose code it becomes); after completion, at MPI_Request_free. */
static void test_free(void)
{
    struct ctx c;
    ctx_init(&c, 0, 0);
    MPI_Request r = start(&c), keep = r;
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL && c.frees == 0, "Request_free before completion: frees %d",
          c.frees);
    c.free_rc = MPI_ERR_OTHER;
    int rc = MPI_Grequest_complete(keep);
    CHECK(err_class(rc) == MPI_ERR_OTHER && c.frees == 1 && c.queries == 0,
          "Grequest_complete of a freed request: class %d frees %d queries %d", err_class(rc),
          c.frees, c.queries);
    rc = MPI_Grequest_complete(keep);
    CHECK(err_class(rc) == MPI_ERR_REQUEST, "the freed request is gone: class %d", err_class(rc));

    ctx_init(&c, 0, 0);
    r = start(&c);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL && c.frees == 1 && c.queries == 0,
          "Request_free after completion: frees %d", c.frees);
}

static void test_bad_args(int rank, int size)
{
    struct ctx c;
    ctx_init(&c, 0, 0);
    MPI_Request r;
    int rc = MPI_Grequest_start(NULL, free_fn, cancel_fn, &c, &r);
    CHECK(err_class(rc) == MPI_ERR_ARG, "NULL query_fn: class %d", err_class(rc));
    rc = MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "NULL request: class %d", err_class(rc));
    rc = MPI_Grequest_complete(MPI_REQUEST_NULL);
    CHECK(err_class(rc) == MPI_ERR_REQUEST, "complete MPI_REQUEST_NULL: class %d", err_class(rc));
    int in;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 12, MPI_COMM_WORLD, &r));
    rc = MPI_Grequest_complete(r);
    CHECK(err_class(rc) == MPI_ERR_REQUEST, "complete a receive: class %d", err_class(rc));
    CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 12, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    r = start(&c);
    CHECK_MPI(MPI_Grequest_complete(r));
    rc = MPI_Grequest_complete(r);
    CHECK(err_class(rc) == MPI_ERR_REQUEST, "complete twice: class %d", err_class(rc));
    rc = MPI_Wait(&r, NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG && r != MPI_REQUEST_NULL && c.queries == 0,
          "Wait with a NULL status: class %d", err_class(rc));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(c.frees == 1, "frees %d", c.frees);
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_basic();
    test_thread();
    test_later(rank, size);
    test_errors();
    test_cancel();
    test_free();
    test_bad_args(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("greq: OK\n");
    MPI_Finalize();
    return 0;
}
