/* MPI send calls: every mode, blocking, nonblocking and persistent. */
#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"
#include "p2p/p2p.h"
#include "p2p/p2p_fast.h"
#include "p2p/p2p_internal.h"

enum send_kind { SEND_BLOCKING, SEND_NONBLOCKING, SEND_PERSISTENT };

static int send_common(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm, enum tern_send_mode mode,
                       enum send_kind kind, MPI_Request *request)
{
    TERN_REQUIRE_INIT(fn);
    struct tern_comm *c;
    struct tern_datatype *dt;
    tern_lock();
    int rc = tern_check_send_args(fn, buf, count, datatype, dest, tag, comm, &c, &dt);
    if (rc == MPI_SUCCESS && kind != SEND_BLOCKING) rc = tern_check_ptr(c, request, fn, "request");
    if (rc != MPI_SUCCESS) goto out;

    /* A blocking send keeps its request on the stack: no allocation and no
     * reference counting on the path of small messages. */
    struct tern_request local, *r = &local;
    if (kind == SEND_BLOCKING)
        tern_req_init_local(r, TERN_REQ_SEND);
    else if (!(r = tern_req_alloc(TERN_REQ_SEND))) {
        rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory allocating a request", fn);
        goto out;
    }
    tern_req_bind(r, (void *)buf, (size_t)count, dt, dest, tag, c, TERN_CTX_P2P);
    r->mode = (uint8_t)mode;
    if (kind == SEND_PERSISTENT) {
        r->persistent = 1;
        *request = r->handle;
        goto out;
    }
    rc = tern_send_start(r);
    if (rc != MPI_SUCCESS) {
        tern_req_release(r);
        rc = tern_err_raise(c, rc);
        goto out;
    }
    if (kind == SEND_NONBLOCKING) {
        *request = r->handle;
        goto out;
    }
    rc = tern_wait(r, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) rc = tern_err_raise(c, rc);
out:
    tern_unlock();
    return rc;
}

/* The alias of each entry stands on its own line before it, where
 * tools/gen/genapi.py finds it.  CT is the count's type: int for MPI_X,
 * MPI_Count for its large-count form MPI_X_c; both share send_common. */
#define SEND_ENTRY(NAME, CT, MODE, KIND)                                                           \
    int PMPI_##NAME(const void *buf, CT count, MPI_Datatype datatype, int dest, int tag,           \
                    MPI_Comm comm)                                                                 \
    {                                                                                              \
        return send_common("MPI_" #NAME, buf, count, datatype, dest, tag, comm, MODE, KIND, NULL); \
    }
#define SEND_REQ_ENTRY(NAME, CT, MODE, KIND)                                                \
    int PMPI_##NAME(const void *buf, CT count, MPI_Datatype datatype, int dest, int tag,    \
                    MPI_Comm comm, MPI_Request *request)                                    \
    {                                                                                       \
        return send_common("MPI_" #NAME, buf, count, datatype, dest, tag, comm, MODE, KIND, \
                           request);                                                        \
    }

/* MPI_Send of a small message to another rank goes straight to the peer's
 * transport (into its ring, packed there if need be): the checks of the
 * general path in one expression, then one packet write.  Anything unusual takes
 * send_common. */
TERN_WEAK_ALIAS(MPI_Send)
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (__builtin_expect(tern_g.init_state == TERN_STATE_ACTIVE && !tern_g.thread_multiple, 1)) {
        struct tern_comm *c = tern_comm_get(comm);
        if (c && (unsigned)dest < (unsigned)c->peer_size && tag >= 0 && count >= 0 &&
            (buf || !count)) {
            struct tern_datatype *dt = tern_dt_get(datatype);
            if (dt && dt->committed && tern_p2p_send_fast(buf, (size_t)count, dt, dest, tag, c))
                return MPI_SUCCESS;
        }
    }
    return send_common("MPI_Send", buf, count, datatype, dest, tag, comm, TERN_MODE_STANDARD,
                       SEND_BLOCKING, NULL);
}

/* No shortcut: large messages gain nothing from it. */
TERN_WEAK_ALIAS(MPI_Send_c)
SEND_ENTRY(Send_c, MPI_Count, TERN_MODE_STANDARD, SEND_BLOCKING)

TERN_WEAK_ALIAS(MPI_Ssend)
SEND_ENTRY(Ssend, int, TERN_MODE_SYNC, SEND_BLOCKING)
TERN_WEAK_ALIAS(MPI_Ssend_c)
SEND_ENTRY(Ssend_c, MPI_Count, TERN_MODE_SYNC, SEND_BLOCKING)
TERN_WEAK_ALIAS(MPI_Rsend)
SEND_ENTRY(Rsend, int, TERN_MODE_READY, SEND_BLOCKING)
TERN_WEAK_ALIAS(MPI_Rsend_c)
SEND_ENTRY(Rsend_c, MPI_Count, TERN_MODE_READY, SEND_BLOCKING)
TERN_WEAK_ALIAS(MPI_Bsend)
SEND_ENTRY(Bsend, int, TERN_MODE_BUFFERED, SEND_BLOCKING)
TERN_WEAK_ALIAS(MPI_Bsend_c)
SEND_ENTRY(Bsend_c, MPI_Count, TERN_MODE_BUFFERED, SEND_BLOCKING)
TERN_WEAK_ALIAS(MPI_Isend)
SEND_REQ_ENTRY(Isend, int, TERN_MODE_STANDARD, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Isend_c)
SEND_REQ_ENTRY(Isend_c, MPI_Count, TERN_MODE_STANDARD, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Issend)
SEND_REQ_ENTRY(Issend, int, TERN_MODE_SYNC, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Issend_c)
SEND_REQ_ENTRY(Issend_c, MPI_Count, TERN_MODE_SYNC, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Irsend)
SEND_REQ_ENTRY(Irsend, int, TERN_MODE_READY, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Irsend_c)
SEND_REQ_ENTRY(Irsend_c, MPI_Count, TERN_MODE_READY, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Ibsend)
SEND_REQ_ENTRY(Ibsend, int, TERN_MODE_BUFFERED, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Ibsend_c)
SEND_REQ_ENTRY(Ibsend_c, MPI_Count, TERN_MODE_BUFFERED, SEND_NONBLOCKING)
TERN_WEAK_ALIAS(MPI_Send_init)
SEND_REQ_ENTRY(Send_init, int, TERN_MODE_STANDARD, SEND_PERSISTENT)
TERN_WEAK_ALIAS(MPI_Send_init_c)
SEND_REQ_ENTRY(Send_init_c, MPI_Count, TERN_MODE_STANDARD, SEND_PERSISTENT)
TERN_WEAK_ALIAS(MPI_Ssend_init)
SEND_REQ_ENTRY(Ssend_init, int, TERN_MODE_SYNC, SEND_PERSISTENT)
TERN_WEAK_ALIAS(MPI_Ssend_init_c)
SEND_REQ_ENTRY(Ssend_init_c, MPI_Count, TERN_MODE_SYNC, SEND_PERSISTENT)
TERN_WEAK_ALIAS(MPI_Rsend_init)
SEND_REQ_ENTRY(Rsend_init, int, TERN_MODE_READY, SEND_PERSISTENT)
TERN_WEAK_ALIAS(MPI_Rsend_init_c)
SEND_REQ_ENTRY(Rsend_init_c, MPI_Count, TERN_MODE_READY, SEND_PERSISTENT)
TERN_WEAK_ALIAS(MPI_Bsend_init)
SEND_REQ_ENTRY(Bsend_init, int, TERN_MODE_BUFFERED, SEND_PERSISTENT)
TERN_WEAK_ALIAS(MPI_Bsend_init_c)
SEND_REQ_ENTRY(Bsend_init_c, MPI_Count, TERN_MODE_BUFFERED, SEND_PERSISTENT)
