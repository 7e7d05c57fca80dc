/* MPI receive calls and the probes (Sendrecv: p2p_sendrecv.c). */

#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/state.h"
#include "msg/match.h"
#include "p2p/p2p.h"
#include "p2p/p2p_fast.h"
#include "p2p/p2p_internal.h"
#include "msg/status.h"

enum recv_kind { RECV_BLOCKING, RECV_NONBLOCKING, RECV_PERSISTENT };

static int recv_common(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                       int source, int tag, MPI_Comm comm, MPI_Status *status, enum recv_kind kind,
                       MPI_Request *request)
{
    TERN_REQUIRE_INIT(fn);
    struct tern_comm *c;
    struct tern_datatype *dt;
    tern_lock();
    int rc = tern_check_recv_args(fn, buf, count, datatype, source, tag, comm, &c, &dt);
    if (rc == MPI_SUCCESS && kind != RECV_BLOCKING) rc = tern_check_ptr(c, request, fn, "request");
    if (rc == MPI_SUCCESS) rc = tern_check_ptr(c, status, fn, "status");
    if (rc != MPI_SUCCESS) goto out;
    struct tern_request local, *r = &local;
    if (kind == RECV_BLOCKING)
        tern_req_init_local(r, TERN_REQ_RECV);
    else if (!(r = tern_req_alloc(TERN_REQ_RECV))) {
        rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory allocating a request", fn);
        goto out;
    }
    tern_req_bind(r, buf, (size_t)count, dt, source, tag, c, TERN_CTX_P2P);
    if (kind == RECV_PERSISTENT) {
        r->persistent = 1;
        *request = r->handle;
        goto out;
    }
    tern_recv_start(r);
    if (kind == RECV_NONBLOCKING) {
        *request = r->handle;
        goto out;
    }
    rc = tern_wait(r, status);
    if (rc != MPI_SUCCESS) rc = tern_err_raise(c, rc);
out:
    tern_unlock();
    return rc;
}

/* MPI_Recv of a small message from a named rank, when no earlier receive
 * or queued message could claim it, is copied (unpacked) straight out of
 * the peer's ring. */
TERN_WEAK_ALIAS(MPI_Recv)
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    if (__builtin_expect(tern_g.init_state == TERN_STATE_ACTIVE && !tern_g.thread_multiple &&
                             !tern_g.wait_yield,
                         1)) {
        struct tern_comm *c = tern_comm_get(comm);
        if (c && (unsigned)source < (unsigned)c->peer_size && (tag >= 0 || tag == MPI_ANY_TAG) &&
            count >= 0 && (buf || !count) && status &&
            tern_match_idle(c->ctx + TERN_CTX_P2P, source, tag)) {
            struct tern_datatype *dt = tern_dt_get(datatype);
            if (dt && dt->committed &&
                tern_p2p_recv_fast(buf, (size_t)count, dt, source, tag, c, status))
                return MPI_SUCCESS;
        }
    }
    return recv_common("MPI_Recv", buf, count, datatype, source, tag, comm, status, RECV_BLOCKING,
                       NULL);
}

TERN_WEAK_ALIAS(MPI_Recv_c)
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status)
{
    return recv_common("MPI_Recv_c", buf, count, datatype, source, tag, comm, status, RECV_BLOCKING,
                       NULL);
}

TERN_WEAK_ALIAS(MPI_Irecv)
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return recv_common("MPI_Irecv", buf, count, datatype, source, tag, comm, MPI_STATUS_IGNORE,
                       RECV_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Irecv_c)
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    return recv_common("MPI_Irecv_c", buf, count, datatype, source, tag, comm, MPI_STATUS_IGNORE,
                       RECV_NONBLOCKING, request);
}

TERN_WEAK_ALIAS(MPI_Recv_init)
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    return recv_common("MPI_Recv_init", buf, count, datatype, source, tag, comm, MPI_STATUS_IGNORE,
                       RECV_PERSISTENT, request);
}

TERN_WEAK_ALIAS(MPI_Recv_init_c)
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    return recv_common("MPI_Recv_init_c", buf, count, datatype, source, tag, comm,
                       MPI_STATUS_IGNORE, RECV_PERSISTENT, request);
}

/* ---- probes ---- */

static void status_from_unexp(const struct tern_unexp *u, MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = u->src;
    status->MPI_TAG = u->tag;
    status->count_hi_and_cancelled = 0;
    tern_status_set_bytes(status, u->bytes);
}

static int probe_args(const char *fn, int source, int tag, MPI_Comm comm, struct tern_comm **c)
{
    int rc = tern_check_comm(comm, fn, c);
    if (rc == MPI_SUCCESS) rc = tern_check_source(*c, source, fn, "source");
    if (rc == MPI_SUCCESS) rc = tern_check_recv_tag(*c, tag, fn);
    return rc;
}

/* Looks for a matching message, polling until one comes when 'block'.
 * Returns it (removed from the queue when 'take'), or NULL. */
static struct tern_unexp *probe(struct tern_comm *c, int source, int tag, int block, int take)
{
    struct tern_waiter w = TERN_WAITER_INIT;
    uint32_t ctx = c->ctx + TERN_CTX_P2P;
    tern_progress();
    for (;;) {
        struct tern_unexp *u = tern_match_unexp(ctx, source, tag, take);
        if (u || !block) return u;
        tern_progress_wait(&w);
    }
}

/* flag is NULL for the blocking probes, message for the non-matching ones
 * (mprobe says which). */
static int probe_common(const char *fn, int source, int tag, MPI_Comm comm, int *flag,
                        MPI_Status *status, MPI_Message *message, int block, int mprobe)
{
    TERN_REQUIRE_INIT(fn);
    struct tern_comm *c;
    tern_lock();
    int rc = probe_args(fn, source, tag, comm, &c);
    if (rc == MPI_SUCCESS && !block) rc = tern_check_ptr(c, flag, fn, "flag");
    if (rc == MPI_SUCCESS && mprobe) rc = tern_check_ptr(c, message, fn, "message");
    if (rc == MPI_SUCCESS) rc = tern_check_ptr(c, status, fn, "status");
    if (rc != MPI_SUCCESS) goto out;
    if (source == MPI_PROC_NULL) {
        if (flag) *flag = 1;
        if (status != MPI_STATUS_IGNORE) tern_status_empty_out(status, MPI_PROC_NULL);
        if (message) *message = MPI_MESSAGE_NO_PROC;
        goto out;
    }
    struct tern_unexp *u = probe(c, source, tag, block, message != NULL);
    if (flag) *flag = u != NULL;
    if (!u) goto out;
    status_from_unexp(u, status);
    if (message) {
        struct tern_request *m = tern_req_alloc(TERN_REQ_MESSAGE);
        if (!m) {
            tern_unexp_enqueue(u); /* cannot happen in practice; keep the message */
            rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory for a message handle", fn);
            goto out;
        }
        m->msg = u;
        m->comm = c;
        c->refcount++;
        *message = m->handle;
    }
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Probe)
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe_common("MPI_Probe", source, tag, comm, NULL, status, NULL, 1, 0);
}

TERN_WEAK_ALIAS(MPI_Iprobe)
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    return probe_common("MPI_Iprobe", source, tag, comm, flag, status, NULL, 0, 0);
}

TERN_WEAK_ALIAS(MPI_Mprobe)
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return probe_common("MPI_Mprobe", source, tag, comm, NULL, status, message, 1, 1);
}

TERN_WEAK_ALIAS(MPI_Improbe)
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    int rc = probe_common("MPI_Improbe", source, tag, comm, flag, status, message, 0, 1);
    if (rc == MPI_SUCCESS && !*flag) *message = MPI_MESSAGE_NULL;
    return rc;
}

static int mrecv_common(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Message *message, MPI_Status *status, MPI_Request *request,
                        int nonblocking)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc = MPI_SUCCESS;
    if ((rc = tern_check_ptr(NULL, message, fn, "message"))) goto out;
    /* Errors go to the message's communicator (MPI_COMM_WORLD's handler
     * for MPI_MESSAGE_NO_PROC, which has none). */
    struct tern_comm *c = NULL;
    struct tern_request *m = NULL;
    if (*message != MPI_MESSAGE_NO_PROC) {
        m = tern_req_get(*message);
        if (!m || m->kind != TERN_REQ_MESSAGE) {
            rc = tern_err_comm(NULL, MPI_ERR_REQUEST,
                               "%s: message=0x%x is not a message from MPI_Mprobe/MPI_Improbe", fn,
                               (unsigned)*message);
            goto out;
        }
        c = m->comm;
    }
    struct tern_datatype *dt;
    if ((rc = tern_check_count(c, count, fn, "count")) ||
        (rc = tern_check_datatype(c, datatype, fn, "datatype", &dt)) ||
        (rc = tern_check_buffer(c, buf, count, dt, fn, "buf")) ||
        (rc = nonblocking ? tern_check_ptr(c, request, fn, "request")
                          : tern_check_ptr(c, status, fn, "status")))
        goto out;
    if (!m) {
        if (nonblocking) {
            struct tern_request *r = tern_req_alloc(TERN_REQ_RECV);
            if (!r) {
                rc = tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory allocating a request",
                                   fn);
                goto out;
            }
            tern_req_bind(r, buf, 0, tern_dt_get(MPI_BYTE), MPI_PROC_NULL, 0, &tern_comm_self,
                          TERN_CTX_P2P);
            tern_recv_start(r);
            *request = r->handle;
        } else if (status != MPI_STATUS_IGNORE) {
            tern_status_empty_out(status, MPI_PROC_NULL);
        }
        *message = MPI_MESSAGE_NULL;
        goto out;
    }
    struct tern_unexp *u = m->msg;
    struct tern_request *r = tern_req_alloc(TERN_REQ_RECV);
    tern_req_bind(r, buf, (size_t)count, dt, u->src, u->tag, c, TERN_CTX_P2P);
    tern_recv_matched(r, u);
    tern_req_release(m); /* the message handle is spent */
    *message = MPI_MESSAGE_NULL;
    if (nonblocking) {
        *request = r->handle;
        goto out;
    }
    rc = tern_wait(r, status);
    if (rc != MPI_SUCCESS) rc = tern_err_raise(c, rc);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Mrecv)
int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    return mrecv_common("MPI_Mrecv", buf, count, datatype, message, status, NULL, 0);
}

TERN_WEAK_ALIAS(MPI_Imrecv)
int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    return mrecv_common("MPI_Imrecv", buf, count, datatype, message, MPI_STATUS_IGNORE, request, 1);
}

TERN_WEAK_ALIAS(MPI_Mrecv_c)
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
    return mrecv_common("MPI_Mrecv_c", buf, count, datatype, message, status, NULL, 0);
}

TERN_WEAK_ALIAS(MPI_Imrecv_c)
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
    return mrecv_common("MPI_Imrecv_c", buf, count, datatype, message, MPI_STATUS_IGNORE, request,
                        1);
}
