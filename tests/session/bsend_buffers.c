/* Buffered sends through the buffers of a communicator, a session and the
 * process (MPI-4.1 3.6.1): which buffer a send uses, automatic buffers,
 * flush and iflush, detach and MPI_Comm_free waiting for the messages, and
 * the argument errors.  Even ranks send to the next odd rank; with an odd
 * number of processes the last one only joins the collective steps.
 *
 * Large messages (BIG) go by rendezvous: they stay in the buffer until the
 * receiver posts its receive, which the tests decide with a "go" message. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tern_test.h"

#define BIG (1 << 18) /* ints: 1 MiB */
#define SMALL 100
#define NAUTO 6

static int rank, size, peer, role; /* role: 1 sender, 2 receiver, 0 idle */

static int err_class(int code)
{
    int c = -1;
    MPI_Error_class(code, &c);
    return c;
}

static void fill(int *v, int n, int seed)
{
    for (int i = 0; i < n; i++) v[i] = seed * 7919 + i;
}

static void recv_check(int n, int seed, int tag, MPI_Comm c)
{
    int *v = malloc((size_t)n * sizeof *v);
    CHECK_MPI(MPI_Recv(v, n, MPI_INT, peer, tag, c, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        CHECK(v[i] == seed * 7919 + i, "seed %d tag %d: v[%d]=%d", seed, tag, i, v[i]);
    free(v);
}

static void go(MPI_Comm c) { CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, peer, 99, c)); }
static void wait_go(MPI_Comm c)
{
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, peer, 99, c, MPI_STATUS_IGNORE));
}

/* Small messages through a communicator's buffer while the process has none. */
static void comm_buffer_small(MPI_Comm c)
{
    int bufsize = 4 * (SMALL * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buf = malloc((size_t)bufsize);
    CHECK_MPI(MPI_Comm_attach_buffer(c, buf, bufsize));
    if (role == 1) {
        int v[SMALL];
        MPI_Request rq;
        for (int k = 0; k < 3; k++) {
            fill(v, SMALL, k);
            CHECK_MPI(MPI_Bsend(v, SMALL, MPI_INT, peer, k, c));
        }
        fill(v, SMALL, 3);
        CHECK_MPI(MPI_Ibsend(v, SMALL, MPI_INT, peer, 3, c, &rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else if (role == 2) {
        for (int k = 0; k < 4; k++) recv_check(SMALL, k, k, c);
    }
    void *addr;
    int sz;
    CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &sz));
    CHECK(addr == buf && sz == bufsize, "detach gave %p/%d, attached %p/%d", addr, sz, (void *)buf,
          bufsize);
    free(buf);
}

/* The communicator's buffer is used even when full and the process's is
 * large; iflush completes only once the message has left; flush makes the
 * room usable again. */
static void precedence_and_flush(MPI_Comm c)
{
    int bytes = BIG * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *cbuf = malloc((size_t)bytes), *pbuf = malloc(4 * (size_t)bytes);
    int *v = malloc(BIG * sizeof *v);
    CHECK_MPI(MPI_Buffer_attach(pbuf, 4 * bytes));
    CHECK_MPI(MPI_Comm_attach_buffer(c, cbuf, bytes));
    if (role == 1) {
        fill(v, BIG, 1);
        CHECK_MPI(MPI_Bsend(v, BIG, MPI_INT, peer, 1, c));
        int rc = MPI_Bsend(v, BIG, MPI_INT, peer, 2, c);
        CHECK(err_class(rc) == MPI_ERR_BUFFER,
              "second send into a full communicator buffer: class %d", err_class(rc));
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "communicator's buffer") != NULL, "message '%s'", msg);

        MPI_Request rq;
        int flag = 1;
        CHECK_MPI(MPI_Comm_iflush_buffer(c, &rq));
        CHECK_MPI(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "iflush completed before the receiver asked for the message");
        go(c);
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(rq == MPI_REQUEST_NULL, "request not freed");
        /* The room is free again. */
        fill(v, BIG, 2);
        CHECK_MPI(MPI_Bsend(v, BIG, MPI_INT, peer, 2, c));
        CHECK_MPI(MPI_Comm_flush_buffer(c));
        /* Nothing buffered: the flushes return at once. */
        CHECK_MPI(MPI_Comm_iflush_buffer(c, &rq));
        CHECK_MPI(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "iflush of an empty buffer did not complete at once");
    } else if (role == 2) {
        wait_go(c);
        recv_check(BIG, 1, 1, c);
        recv_check(BIG, 2, 2, c);
    }
    void *addr;
    MPI_Count sz;
    CHECK_MPI(MPI_Comm_detach_buffer_c(c, &addr, &sz));
    CHECK(addr == cbuf && sz == bytes, "comm detach %p/%ld", addr, (long)sz);
    int isz;
    CHECK_MPI(MPI_Buffer_detach(&addr, &isz));
    CHECK(addr == pbuf && isz == 4 * bytes, "process detach %p/%d", addr, isz);
    free(cbuf);
    free(pbuf);
    free(v);
}

/* MPI_Comm_free and MPI_Comm_detach_buffer return only once the message
 * has left: the buffer is overwritten right after and the receiver, which
 * asks late, must still get the data. */
static void free_and_detach_wait(MPI_Comm parent)
{
    int bytes = BIG * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    int *v = malloc(BIG * sizeof *v);
    for (int how = 0; how < 2; how++) {
        MPI_Comm c;
        char *buf = malloc((size_t)bytes);
        CHECK_MPI(MPI_Comm_dup(parent, &c));
        CHECK_MPI(MPI_Comm_attach_buffer(c, buf, bytes));
        if (role == 1) {
            fill(v, BIG, 10 + how);
            CHECK_MPI(MPI_Bsend(v, BIG, MPI_INT, peer, 5, c));
        } else if (role == 2) {
            usleep(100000);
            recv_check(BIG, 10 + how, 5, c);
        }
        if (how == 0) {
            CHECK_MPI(MPI_Comm_free(&c));
        } else {
            void *addr;
            int sz;
            CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &sz));
            CHECK(addr == buf, "detach address");
            CHECK_MPI(MPI_Comm_free(&c));
        }
        memset(buf, 0xff, (size_t)bytes);
        free(buf);
    }
    free(v);
}

/* MPI_BUFFER_AUTOMATIC: any number of messages, the library's memory. */
static void automatic(MPI_Comm c)
{
    CHECK_MPI(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    int *v = malloc(BIG * sizeof *v);
    if (role == 1) {
        for (int k = 0; k < NAUTO; k++) {
            fill(v, BIG, 20 + k);
            CHECK_MPI(MPI_Bsend(v, BIG, MPI_INT, peer, 20 + k, c));
        }
        go(c);
    } else if (role == 2) {
        wait_go(c);
        for (int k = 0; k < NAUTO; k++) recv_check(BIG, 20 + k, 20 + k, c);
    }
    void *addr;
    int sz = -1;
    CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &sz));
    CHECK(addr == MPI_BUFFER_AUTOMATIC && sz == 0, "automatic detach %p/%d", addr, sz);

    /* The process's buffer, automatic too; flush and iflush. */
    CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    if (role == 1) {
        fill(v, SMALL, 30);
        CHECK_MPI(MPI_Bsend(v, SMALL, MPI_INT, peer, 30, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Buffer_flush());
        MPI_Request rq;
        fill(v, BIG, 31);
        CHECK_MPI(MPI_Bsend(v, BIG, MPI_INT, peer, 31, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Buffer_iflush(&rq));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else if (role == 2) {
        recv_check(SMALL, 30, 30, MPI_COMM_WORLD);
        recv_check(BIG, 31, 31, MPI_COMM_WORLD);
    }
    CHECK_MPI(MPI_Buffer_detach(&addr, &sz));
    CHECK(addr == MPI_BUFFER_AUTOMATIC && sz == 0, "process automatic detach %p/%d", addr, sz);
    free(v);
}

/* A session's buffer serves every communicator derived from the session
 * (one made from its group, and one split from that), not the world's. */
static void session_buffer(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm sc, split;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(
        MPI_Comm_create_from_group(g, "tern.test.bsend", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Comm_split(sc, 0, rank, &split));
    int bytes = BIG * (int)sizeof(int) + 2 * (SMALL * (int)sizeof(int) + MPI_BSEND_OVERHEAD) +
                MPI_BSEND_OVERHEAD;
    char *buf = malloc((size_t)bytes);
    int *v = malloc(BIG * sizeof *v);
    CHECK_MPI(MPI_Session_attach_buffer(s, buf, bytes));
    if (role == 1) {
        fill(v, BIG, 40);
        CHECK_MPI(MPI_Bsend(v, BIG, MPI_INT, peer, 40, sc));
        fill(v, SMALL, 41);
        CHECK_MPI(MPI_Bsend(v, SMALL, MPI_INT, peer, 41, split));
        /* The world's communicator does not derive from the session. */
        CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        int rc = MPI_Bsend(v, SMALL, MPI_INT, peer, 42, MPI_COMM_WORLD);
        CHECK(err_class(rc) == MPI_ERR_BUFFER, "world bsend with only a session buffer: class %d",
              err_class(rc));
        MPI_Request rq;
        CHECK_MPI(MPI_Session_iflush_buffer(s, &rq));
        go(sc);
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Session_flush_buffer(s));
    } else if (role == 2) {
        wait_go(sc);
        recv_check(BIG, 40, 40, sc);
        recv_check(SMALL, 41, 41, split);
    }
    void *addr;
    MPI_Count sz;
    CHECK_MPI(MPI_Session_detach_buffer_c(s, &addr, &sz));
    CHECK(addr == buf && sz == bytes, "session detach %p/%ld", addr, (long)sz);
    /* An automatic buffer on a session, detached at MPI_Session_finalize. */
    CHECK_MPI(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0));
    if (role == 1) {
        fill(v, BIG, 43);
        CHECK_MPI(MPI_Bsend(v, BIG, MPI_INT, peer, 43, sc));
    } else if (role == 2) {
        recv_check(BIG, 43, 43, sc);
    }
    CHECK_MPI(MPI_Comm_free(&split));
    CHECK_MPI(MPI_Comm_free(&sc));
    CHECK_MPI(MPI_Session_finalize(&s));
    free(buf);
    free(v);
}

static void errors(MPI_Comm c)
{
    char buf[256];
    void *addr = &addr;
    int sz = -1;
    CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &sz));
    CHECK(addr == NULL && sz == 0, "detach with nothing attached: %p/%d", addr, sz);
    CHECK_MPI(MPI_Comm_attach_buffer(c, buf, sizeof buf));
    int rc = MPI_Comm_attach_buffer(c, buf, sizeof buf);
    CHECK(err_class(rc) == MPI_ERR_BUFFER, "attach twice: class %d", err_class(rc));
    rc = MPI_Comm_detach_buffer(c, NULL, &sz);
    CHECK(err_class(rc) == MPI_ERR_ARG, "detach to NULL: class %d", err_class(rc));
    rc = MPI_Comm_iflush_buffer(c, NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "iflush to NULL: class %d", err_class(rc));
    CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &sz));
    rc = MPI_Comm_attach_buffer(c, buf, -1);
    CHECK(err_class(rc) == MPI_ERR_ARG, "negative size: class %d", err_class(rc));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    rc = MPI_Comm_flush_buffer(MPI_COMM_NULL);
    CHECK(err_class(rc) == MPI_ERR_COMM, "flush on MPI_COMM_NULL: class %d", err_class(rc));
    rc = MPI_Session_attach_buffer(MPI_SESSION_NULL, buf, sizeof buf);
    CHECK(err_class(rc) == MPI_ERR_SESSION, "attach on MPI_SESSION_NULL: class %d", err_class(rc));
    /* No buffer anywhere: a clear MPI_ERR_BUFFER. */
    rc = MPI_Bsend(buf, 1, MPI_INT, rank, 0, c);
    CHECK(err_class(rc) == MPI_ERR_BUFFER, "bsend without buffers: class %d", err_class(rc));
    MPI_Error_string(rc, buf, &sz);
    CHECK(strstr(buf, "no buffer is attached") != NULL, "message '%s'", buf);
}

int main(int argc, char **argv)
{
    MPI_Comm c;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 processes or more");
    role = rank % 2 == 0 ? (rank + 1 < size ? 1 : 0) : 2;
    peer = role == 1 ? rank + 1 : rank - 1;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));

    comm_buffer_small(c);
    precedence_and_flush(c);
    free_and_detach_wait(c);
    automatic(c);
    session_buffer();
    errors(c);

    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Finalize());
    if (rank == 0) printf("bsend_buffers passed on %d processes\n", size);
    return 0;
}
