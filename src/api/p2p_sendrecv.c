/* MPI_Sendrecv and MPI_Sendrecv_replace, blocking and nonblocking (MPI-4
 * MPI_Isendrecv*), each body shared with its large-count form MPI_X_c.
 * A nonblocking one is a request of kind TERN_REQ_PAIR holding an internal
 * send and receive; the progress engine polls it (as it polls schedules)
 * and completes it once both are done, with the receive's status. */
#include <stdlib.h>

#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/state.h"
#include "msg/match.h"
#include "p2p/p2p.h"
#include "p2p/p2p_internal.h"

struct pair {
    struct tern_request *send, *recv;
    void *tmp; /* the packed outgoing copy of a replace */
};

static int pair_poll(struct tern_request *r)
{
    struct pair *p = r->sched;
    if (!p->send->complete || !p->recv->complete) return 0;
    r->status = p->recv->status;
    int e = p->send->status.MPI_ERROR;
    r->status.MPI_ERROR = e != MPI_SUCCESS ? e : p->recv->status.MPI_ERROR;
    tern_req_release(p->send);
    tern_req_release(p->recv);
    p->send = p->recv = NULL;
    tern_req_poll_remove(r);
    tern_req_complete(r);
    return 1;
}

static void pair_free(struct tern_request *r)
{
    struct pair *p = r->sched;
    if (!p) return;
    free(p->tmp);
    free(p);
    r->sched = NULL;
}

/* Posts the receive, then the send; takes ownership of tmp. */
static int pair_start(const char *fn, struct tern_comm *c, const void *sbuf, size_t scount,
                      struct tern_datatype *sdt, int dest, int stag, void *rbuf, size_t rcount,
                      struct tern_datatype *rdt, int source, int rtag, void *tmp,
                      MPI_Request *request)
{
    struct tern_request *r = tern_req_alloc(TERN_REQ_PAIR);
    struct pair *p = calloc(1, sizeof *p);
    if (!r || !p) {
        if (r) tern_req_free(r);
        free(p);
        free(tmp);
        return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory allocating a request", fn);
    }
    p->tmp = tmp;
    r->sched = p;
    r->poll_fn = pair_poll;
    r->free_fn = pair_free;
    r->comm = c;
    c->refcount++;
    int rc = tern_irecv(rbuf, rcount, rdt, source, rtag, c, TERN_CTX_P2P, &p->recv);
    if (rc == MPI_SUCCESS)
        rc = tern_isend(sbuf, scount, sdt, dest, stag, c, TERN_CTX_P2P, TERN_MODE_STANDARD,
                        &p->send);
    if (rc != MPI_SUCCESS) {
        if (p->recv && !p->recv->complete) tern_match_unpost(p->recv);
        if (p->recv) tern_req_release(p->recv);
        tern_req_release(r);
        return tern_err_raise(c, rc);
    }
    tern_req_poll_add(r);
    *request = r->handle;
    return MPI_SUCCESS;
}

/* nonblocking 0: the blocking form, which fills status; else the request
 * goes to *request. */
static int sendrecv_common(const char *fn, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                           MPI_Comm comm, MPI_Status *status, int nonblocking, MPI_Request *request)
{
    TERN_REQUIRE_INIT(fn);
    struct tern_comm *c;
    struct tern_datatype *sdt, *rdt;
    tern_lock();
    int rc = tern_check_send_args(fn, sendbuf, sendcount, sendtype, dest, sendtag, comm, &c, &sdt);
    if (rc == MPI_SUCCESS)
        rc =
            tern_check_recv_args(fn, recvbuf, recvcount, recvtype, source, recvtag, comm, &c, &rdt);
    if (rc == MPI_SUCCESS)
        rc = nonblocking ? tern_check_ptr(c, request, fn, "request")
                         : tern_check_ptr(c, status, fn, "status");
    if (rc != MPI_SUCCESS) goto out;
    if (nonblocking) {
        rc = pair_start(fn, c, sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf,
                        (size_t)recvcount, rdt, source, recvtag, NULL, request);
        goto out;
    }
    rc = tern_sendrecv(sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf, (size_t)recvcount,
                       rdt, source, recvtag, c, TERN_CTX_P2P, status);
    if (rc != MPI_SUCCESS) rc = tern_err_raise(c, rc);
out:
    tern_unlock();
    return rc;
}

static int replace_common(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                          int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
                          MPI_Status *status, int nonblocking, MPI_Request *request)
{
    TERN_REQUIRE_INIT(fn);
    struct tern_comm *c;
    struct tern_datatype *dt;
    tern_lock();
    int rc = tern_check_send_args(fn, buf, count, datatype, dest, sendtag, comm, &c, &dt);
    if (rc == MPI_SUCCESS) rc = tern_check_source(c, source, fn, "source");
    if (rc == MPI_SUCCESS) rc = tern_check_recv_tag(c, recvtag, fn);
    if (rc == MPI_SUCCESS)
        rc = nonblocking ? tern_check_ptr(c, request, fn, "request")
                         : tern_check_ptr(c, status, fn, "status");
    if (rc != MPI_SUCCESS) goto out;
    /* The outgoing data leaves from a packed copy, so the receive may land
     * in buf at once. */
    size_t bytes = (size_t)count * dt->size;
    void *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) {
        rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory for a %zu-byte copy", fn, bytes);
        goto out;
    }
    tern_dt_pack(dt, buf, (size_t)count, 0, tmp, bytes);
    struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
    if (nonblocking) {
        rc = pair_start(fn, c, tmp, bytes, byte, dest, sendtag, buf, (size_t)count, dt, source,
                        recvtag, tmp, request);
        goto out;
    }
    rc = tern_sendrecv(tmp, bytes, byte, dest, sendtag, buf, (size_t)count, dt, source, recvtag, c,
                       TERN_CTX_P2P, status);
    free(tmp);
    if (rc != MPI_SUCCESS) rc = tern_err_raise(c, rc);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Sendrecv)
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_common("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                           recvcount, recvtype, source, recvtag, comm, status, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Sendrecv_c)
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_common("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                           recvcount, recvtype, source, recvtag, comm, status, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Isendrecv)
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *request)
{
    return sendrecv_common("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                           recvcount, recvtype, source, recvtag, comm, MPI_STATUS_IGNORE, 1,
                           request);
}

TERN_WEAK_ALIAS(MPI_Isendrecv_c)
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return sendrecv_common("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                           recvcount, recvtype, source, recvtag, comm, MPI_STATUS_IGNORE, 1,
                           request);
}

TERN_WEAK_ALIAS(MPI_Sendrecv_replace)
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return replace_common("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Sendrecv_replace_c)
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return replace_common("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Isendrecv_replace)
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return replace_common("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, MPI_STATUS_IGNORE, 1, request);
}

TERN_WEAK_ALIAS(MPI_Isendrecv_replace_c)
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
    return replace_common("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, MPI_STATUS_IGNORE, 1, request);
}
