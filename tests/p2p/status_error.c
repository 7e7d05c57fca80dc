/* Who writes status.MPI_ERROR (MPI-4.1 3.2.5): single-completion calls
 * never do, on success or on error; the multiple-completion calls
 * (Waitall, Testall, Waitsome, Testsome and the Request_get_status_all/some
 * forms) set it in every status they return, and only when they return
 * MPI_ERR_IN_STATUS.  Each call gets statuses holding a sentinel and the
 * test checks what is left.  Needs 2 ranks; rank 0 feeds rank 1. */
#include <string.h>

#include "tern_test.h"

#define SENTINEL (-4242)
#define TAG 7
#define NMSG 40

static MPI_Status fresh(void)
{
    MPI_Status s;
    memset(&s, 0x5a, sizeof s);
    s.MPI_ERROR = SENTINEL;
    return s;
}

#define KEPT(st, what) \
    CHECK((st).MPI_ERROR == SENTINEL, "%s wrote MPI_ERROR = %d", what, (st).MPI_ERROR)
/* An empty status (null or inactive request) is defined whole, its
 * error field MPI_SUCCESS included (MPI-4.1 3.7.3). */
#define EMPTY(st, what)                                                                   \
    CHECK((st).MPI_SOURCE == MPI_ANY_SOURCE && (st).MPI_TAG == MPI_ANY_TAG &&             \
              (st).MPI_ERROR == MPI_SUCCESS,                                              \
          "%s: not an empty status (source %d, tag %d, error %d)", what, (st).MPI_SOURCE, \
          (st).MPI_TAG, (st).MPI_ERROR)

/* Source, tag and size of a received int message, so a check on MPI_ERROR
 * cannot pass on a status the call never filled. */
static void check_msg(const MPI_Status *st, int src, int n, const char *what)
{
    int count = -1;
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == TAG && count == n,
          "%s: source %d tag %d count %d", what, st->MPI_SOURCE, st->MPI_TAG, count);
}

static int greq_query(void *extra, MPI_Status *st)
{
    (void)extra;
    st->MPI_SOURCE = 3;
    st->MPI_TAG = TAG;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}
static int greq_free(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}
static int greq_cancel(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

/* Single-completion calls that need no peer: null and inactive requests
 * (which return an empty status), MPI_PROC_NULL, generalized requests. */
static void local_single(void)
{
    MPI_Status st = fresh();
    int buf = 0, flag = 0, idx = -1;
    MPI_Request r = MPI_REQUEST_NULL, rs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Message m;

    CHECK_MPI(MPI_Recv(&buf, 1, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Recv(MPI_PROC_NULL) source %d", st.MPI_SOURCE);
    KEPT(st, "MPI_Recv(MPI_PROC_NULL)");
    st = fresh();
    CHECK_MPI(MPI_Probe(MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &st));
    KEPT(st, "MPI_Probe(MPI_PROC_NULL)");
    st = fresh();
    CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &flag, &st));
    KEPT(st, "MPI_Iprobe(MPI_PROC_NULL)");
    st = fresh();
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &m, &st));
    KEPT(st, "MPI_Mprobe(MPI_PROC_NULL)");
    st = fresh();
    CHECK_MPI(MPI_Mrecv(&buf, 1, MPI_INT, &m, &st));
    KEPT(st, "MPI_Mrecv(MPI_MESSAGE_NO_PROC)");
    st = fresh();
    CHECK_MPI(MPI_Sendrecv(&buf, 1, MPI_INT, MPI_PROC_NULL, TAG, &buf, 1, MPI_INT, MPI_PROC_NULL,
                           TAG, MPI_COMM_WORLD, &st));
    KEPT(st, "MPI_Sendrecv(MPI_PROC_NULL)");

    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    EMPTY(st, "MPI_Wait(MPI_REQUEST_NULL)");
    st = fresh();
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    EMPTY(st, "MPI_Test(MPI_REQUEST_NULL)");
    st = fresh();
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    EMPTY(st, "MPI_Request_get_status(MPI_REQUEST_NULL)");
    st = fresh();
    CHECK_MPI(MPI_Waitany(2, rs, &idx, &st));
    CHECK(idx == MPI_UNDEFINED, "Waitany over null requests gave index %d", idx);
    EMPTY(st, "MPI_Waitany(all null)");
    st = fresh();
    CHECK_MPI(MPI_Testany(2, rs, &idx, &flag, &st));
    EMPTY(st, "MPI_Testany(all null)");

    /* an inactive persistent request */
    CHECK_MPI(MPI_Recv_init(&buf, 1, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &r));
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    EMPTY(st, "MPI_Wait(inactive persistent)");
    CHECK_MPI(MPI_Start(&r));
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    KEPT(st, "MPI_Wait(persistent MPI_PROC_NULL receive)");
    CHECK_MPI(MPI_Request_free(&r));

    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, NULL, &r));
    CHECK_MPI(MPI_Grequest_complete(r));
    st = fresh();
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK(flag && st.MPI_SOURCE == 3, "generalized request: flag %d source %d", flag,
          st.MPI_SOURCE);
    KEPT(st, "MPI_Request_get_status(generalized)");
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == TAG, "generalized request status");
    KEPT(st, "MPI_Wait(generalized)");

    st = fresh();
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_SELF, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    KEPT(st, "MPI_Wait(MPI_Ibarrier)");
}

/* Rank 1's side of the exchange: every receive form, each checked. */
static void receiver(void)
{
    MPI_Status st = fresh();
    int buf[4] = {0}, flag = 0, idx = -1;
    MPI_Request r, rs[2];
    MPI_Message m;

    CHECK_MPI(MPI_Recv(buf, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, &st));
    check_msg(&st, 0, 1, "MPI_Recv");
    KEPT(st, "MPI_Recv");

    st = fresh();
    CHECK_MPI(MPI_Probe(0, TAG, MPI_COMM_WORLD, &st));
    check_msg(&st, 0, 1, "MPI_Probe");
    KEPT(st, "MPI_Probe");
    st = fresh();
    do CHECK_MPI(MPI_Iprobe(0, TAG, MPI_COMM_WORLD, &flag, &st));
    while (!flag);
    check_msg(&st, 0, 1, "MPI_Iprobe");
    KEPT(st, "MPI_Iprobe");
    CHECK_MPI(MPI_Recv(buf, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

    st = fresh();
    CHECK_MPI(MPI_Mprobe(0, TAG, MPI_COMM_WORLD, &m, &st));
    check_msg(&st, 0, 1, "MPI_Mprobe");
    KEPT(st, "MPI_Mprobe");
    st = fresh();
    CHECK_MPI(MPI_Mrecv(buf, 4, MPI_INT, &m, &st));
    check_msg(&st, 0, 1, "MPI_Mrecv");
    KEPT(st, "MPI_Mrecv");
    st = fresh();
    do CHECK_MPI(MPI_Improbe(0, TAG, MPI_COMM_WORLD, &flag, &m, &st));
    while (!flag);
    KEPT(st, "MPI_Improbe");
    CHECK_MPI(MPI_Imrecv(buf, 4, MPI_INT, &m, &r));
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    check_msg(&st, 0, 1, "MPI_Wait(MPI_Imrecv)");
    KEPT(st, "MPI_Wait(MPI_Imrecv)");

    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, &r));
    st = fresh();
    do CHECK_MPI(MPI_Test(&r, &flag, &st));
    while (!flag);
    check_msg(&st, 0, 1, "MPI_Test");
    KEPT(st, "MPI_Test");

    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, &r));
    st = fresh();
    do CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    while (!flag);
    KEPT(st, "MPI_Request_get_status");
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    check_msg(&st, 0, 1, "MPI_Wait");
    KEPT(st, "MPI_Wait");

    rs[0] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, &rs[1]));
    st = fresh();
    CHECK_MPI(MPI_Waitany(2, rs, &idx, &st));
    CHECK(idx == 1, "Waitany index %d", idx);
    KEPT(st, "MPI_Waitany");
    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, &rs[0]));
    st = fresh();
    do CHECK_MPI(MPI_Testany(2, rs, &idx, &flag, &st));
    while (!flag);
    CHECK(idx == 0, "Testany index %d", idx);
    KEPT(st, "MPI_Testany");

    st = fresh();
    buf[0] = 1;
    CHECK_MPI(
        MPI_Sendrecv(buf, 1, MPI_INT, 0, TAG, buf + 1, 3, MPI_INT, 0, TAG, MPI_COMM_WORLD, &st));
    check_msg(&st, 0, 1, "MPI_Sendrecv");
    KEPT(st, "MPI_Sendrecv");
    st = fresh();
    CHECK_MPI(MPI_Sendrecv_replace(buf, 1, MPI_INT, 0, TAG, 0, TAG, MPI_COMM_WORLD, &st));
    check_msg(&st, 0, 1, "MPI_Sendrecv_replace");
    KEPT(st, "MPI_Sendrecv_replace");

    CHECK_MPI(MPI_Recv_init(buf, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Start(&r));
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    check_msg(&st, 0, 1, "MPI_Wait(persistent)");
    KEPT(st, "MPI_Wait(persistent)");
    CHECK_MPI(MPI_Request_free(&r));

    CHECK_MPI(MPI_Precv_init(buf, 2, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    KEPT(st, "MPI_Wait(partitioned receive)");
    CHECK_MPI(MPI_Request_free(&r));

    /* Errors: a truncated receive returns its error, the status keeps the
     * sentinel. */
    st = fresh();
    int rc = MPI_Recv(buf, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &st);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "truncated Recv returned class %d", cls);
    KEPT(st, "MPI_Recv (truncated)");
    CHECK_MPI(MPI_Irecv(buf, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &r));
    st = fresh();
    rc = MPI_Wait(&r, &st);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "truncated Wait returned class %d", cls);
    KEPT(st, "MPI_Wait (truncated)");
}

/* What rank 0 sends, in receiver()'s order: single ints, then the two
 * exchanges, the persistent and partitioned receives, two 4-int messages
 * for the truncations. */
static void sender(void)
{
    int buf[4] = {1, 2, 3, 4};
    MPI_Status st = fresh();
    MPI_Request r;
    for (int i = 0; i < 8; i++) CHECK_MPI(MPI_Send(buf, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD));
    CHECK_MPI(
        MPI_Sendrecv(buf, 1, MPI_INT, 1, TAG, buf + 1, 3, MPI_INT, 1, TAG, MPI_COMM_WORLD, &st));
    check_msg(&st, 1, 1, "MPI_Sendrecv (rank 0)");
    KEPT(st, "MPI_Sendrecv (rank 0)");
    CHECK_MPI(MPI_Sendrecv(buf, 1, MPI_INT, 1, TAG, buf + 1, 3, MPI_INT, 1, TAG, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Send(buf, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Psend_init(buf, 2, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Pready_range(0, 1, r));
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    KEPT(st, "MPI_Wait(partitioned send)");
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Isend(buf, 4, MPI_INT, 1, TAG, MPI_COMM_WORLD, &r));
    st = fresh();
    CHECK_MPI(MPI_Wait(&r, &st));
    KEPT(st, "MPI_Wait(MPI_Isend)");
    CHECK_MPI(MPI_Send(buf, 4, MPI_INT, 1, TAG, MPI_COMM_WORLD));
}

enum multi { WAITALL, TESTALL, WAITSOME, TESTSOME, GET_ALL, GET_SOME, NMULTI };
static const char *multi_name[NMULTI] = {"MPI_Waitall",
                                         "MPI_Testall",
                                         "MPI_Waitsome",
                                         "MPI_Testsome",
                                         "MPI_Request_get_status_all",
                                         "MPI_Request_get_status_some"};

/* Returns once rs[0] and rs[1] are both complete (either may fail). */
static void both_done(MPI_Request rs[2])
{
    int f0 = 0, f1 = 0;
    while (!f0 || !f1) {
        MPI_Request_get_status(rs[0], &f0, MPI_STATUS_IGNORE);
        MPI_Request_get_status(rs[1], &f1, MPI_STATUS_IGNORE);
    }
}

/* Completes rs[0..1] with 'how'; returns the call's code and the statuses. */
static int complete2(enum multi how, MPI_Request rs[2], MPI_Status sts[2])
{
    int flag = 0, n = 0, idx[2], rc = MPI_SUCCESS;
    switch (how) {
    case WAITALL: return MPI_Waitall(2, rs, sts);
    case TESTALL:
        do rc = MPI_Testall(2, rs, &flag, sts);
        while (rc == MPI_SUCCESS && !flag);
        return rc;
    case WAITSOME:
    case TESTSOME:
        /* both at once, so both statuses come from one call */
        MPI_Barrier(MPI_COMM_WORLD);
        both_done(rs);
        rc =
            how == WAITSOME ? MPI_Waitsome(2, rs, &n, idx, sts) : MPI_Testsome(2, rs, &n, idx, sts);
        CHECK(n == 2 && idx[0] == 0 && idx[1] == 1, "%s completed %d requests", multi_name[how], n);
        return rc;
    default: break;
    }
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    MPI_Barrier(MPI_COMM_WORLD);
    if (how == GET_ALL) {
        do rc = MPI_Request_get_status_all(2, rs, &flag, sts);
        while (rc == MPI_SUCCESS && !flag);
    } else {
        both_done(rs);
        rc = MPI_Request_get_status_some(2, rs, &n, idx, sts);
        CHECK(n == 2, "%s completed %d requests", multi_name[how], n);
    }
    MPI_Status back[2];
    int c1 = -1, c2 = -2;
    MPI_Error_class(rc, &c1);
    MPI_Error_class(MPI_Waitall(2, rs, back), &c2);
    CHECK(c1 == c2, "Waitall after %s returned class %d, not %d", multi_name[how], c2, c1);
#endif
    return rc;
}

/* Each multiple-completion call twice: all well (the sentinels stay), then
 * one receive truncated (MPI_ERR_IN_STATUS; each status has its code). */
static void multi(int rank, enum multi how)
{
    int buf[4] = {5, 6, 7, 8}, in[2][4];
    for (int bad = 0; bad < 2; bad++) {
        if (rank == 0) {
            CHECK_MPI(MPI_Send(buf, bad ? 4 : 1, MPI_INT, 1, TAG, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Send(buf, 1, MPI_INT, 1, TAG + 1, MPI_COMM_WORLD));
            if (how >= WAITSOME) MPI_Barrier(MPI_COMM_WORLD);
            continue;
        }
        MPI_Request rs[2];
        MPI_Status sts[2] = {fresh(), fresh()};
        CHECK_MPI(MPI_Irecv(in[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &rs[0]));
        CHECK_MPI(MPI_Irecv(in[1], 4, MPI_INT, 0, TAG + 1, MPI_COMM_WORLD, &rs[1]));
        int rc = complete2(how, rs, sts);
        CHECK(sts[1].MPI_SOURCE == 0 && sts[1].MPI_TAG == TAG + 1, "%s: status 1 source %d tag %d",
              multi_name[how], sts[1].MPI_SOURCE, sts[1].MPI_TAG);
        if (!bad) {
            CHECK(rc == MPI_SUCCESS, "%s returned %d", multi_name[how], rc);
            KEPT(sts[0], multi_name[how]);
            KEPT(sts[1], multi_name[how]);
            continue;
        }
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_IN_STATUS, "%s with a truncated receive returned class %d",
              multi_name[how], cls);
        MPI_Error_class(sts[0].MPI_ERROR, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "%s: status 0 error class %d", multi_name[how], cls);
        CHECK(sts[1].MPI_ERROR == MPI_SUCCESS, "%s: status 1 error %d", multi_name[how],
              sts[1].MPI_ERROR);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "needs 2 ranks, has %d", size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    local_single();
    if (rank == 0)
        sender();
    else
        receiver();
    MPI_Barrier(MPI_COMM_WORLD);
    int nmulti = NMULTI;
#if !(MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1))
    nmulti = GET_ALL;
#endif
    for (int how = 0; how < nmulti; how++) multi(rank, (enum multi)how);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("status_error: ok\n");
    MPI_Finalize();
    return 0;
}
