/* The entry points of the buffered-send buffers (MPI-4.1 3.6.1): attach,
 * detach, flush and iflush for the process (MPI_Buffer_*), a communicator
 * (MPI_Comm_*_buffer) and a session (MPI_Session_*_buffer).  One body per
 * operation; the owner decides the slot and whose handler hears errors. */
#include <limits.h>
#include <stdint.h>

#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/session.h"
#include "core/state.h"
#include "p2p/bsend.h"
#include "p2p/request.h"

struct owner {
    struct tern_bbuf **slot;
    struct tern_comm *comm;       /* its handler; NULL: MPI_COMM_WORLD's */
    struct tern_session *session; /* when set, its handler instead */
};

typedef int find_fn(const char *fn, int handle, struct owner *o);

static int find_process(const char *fn, int handle, struct owner *o)
{
    (void)fn;
    (void)handle;
    *o = (struct owner){.slot = &tern_bbuf_process};
    return MPI_SUCCESS;
}

static int find_comm(const char *fn, int handle, struct owner *o)
{
    struct tern_comm *c;
    int rc = tern_comm_check(handle, fn, "comm", &c);
    if (rc == MPI_SUCCESS) *o = (struct owner){.slot = &c->bsend, .comm = c};
    return rc;
}

static int find_session(const char *fn, int handle, struct owner *o)
{
    struct tern_session *s;
    int rc = tern_session_check(handle, fn, "session", &s);
    if (rc == MPI_SUCCESS) *o = (struct owner){.slot = &s->bsend, .session = s};
    return rc;
}

static int raise_on(const struct owner *o, int code)
{
    if (code == MPI_SUCCESS) return code;
    return o->session ? tern_session_raise(o->session, code) : tern_err_raise(o->comm, code);
}

static int attach(const char *fn, find_fn *find, int handle, void *buffer, MPI_Count size)
{
    struct owner o;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc = find(fn, handle, &o);
    if (rc == MPI_SUCCESS) rc = raise_on(&o, tern_bbuf_attach(o.slot, fn, buffer, size));
    tern_unlock();
    return rc;
}

/* The size goes to isize (the int forms, which refuse a buffer whose size
 * an int cannot hold) or to lsize (the _c forms). */
static int detach(const char *fn, find_fn *find, int handle, void *buffer_addr, int *isize,
                  MPI_Count *lsize)
{
    struct owner o;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc = find(fn, handle, &o);
    if (rc == MPI_SUCCESS && (!buffer_addr || (!isize && !lsize)))
        rc = raise_on(&o, tern_err_make(MPI_ERR_ARG, "%s: %s is NULL", fn,
                                        buffer_addr ? "size" : "buffer_addr"));
    if (rc == MPI_SUCCESS) {
        void *addr;
        MPI_Count size;
        rc = raise_on(&o, tern_bbuf_detach(o.slot, fn, isize ? INT_MAX : INT64_MAX, &addr, &size));
        if (rc == MPI_SUCCESS) {
            *(void **)buffer_addr = addr;
            if (isize)
                *isize = (int)size;
            else
                *lsize = size;
        }
    }
    tern_unlock();
    return rc;
}

static int flush(const char *fn, find_fn *find, int handle)
{
    struct owner o;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc = find(fn, handle, &o);
    if (rc == MPI_SUCCESS) tern_bbuf_flush(*o.slot);
    tern_unlock();
    return rc;
}

static int iflush(const char *fn, find_fn *find, int handle, MPI_Request *request)
{
    struct owner o;
    struct tern_request *r;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc = find(fn, handle, &o);
    if (rc == MPI_SUCCESS && !request)
        rc = raise_on(&o, tern_err_make(MPI_ERR_ARG, "%s: request is NULL", fn));
    if (rc == MPI_SUCCESS) rc = raise_on(&o, tern_bbuf_iflush(*o.slot, fn, &r));
    if (rc == MPI_SUCCESS) *request = r->handle;
    tern_unlock();
    return rc;
}

/* ---- the process ---- */

TERN_WEAK_ALIAS(MPI_Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size)
{
    return attach("MPI_Buffer_attach", find_process, 0, buffer, size);
}

TERN_WEAK_ALIAS(MPI_Buffer_attach_c)
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return attach("MPI_Buffer_attach_c", find_process, 0, buffer, size);
}

TERN_WEAK_ALIAS(MPI_Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    return detach("MPI_Buffer_detach", find_process, 0, buffer_addr, size, NULL);
}

TERN_WEAK_ALIAS(MPI_Buffer_detach_c)
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return detach("MPI_Buffer_detach_c", find_process, 0, buffer_addr, NULL, size);
}

TERN_WEAK_ALIAS(MPI_Buffer_flush)
int PMPI_Buffer_flush(void) { return flush("MPI_Buffer_flush", find_process, 0); }

TERN_WEAK_ALIAS(MPI_Buffer_iflush)
int PMPI_Buffer_iflush(MPI_Request *request)
{
    return iflush("MPI_Buffer_iflush", find_process, 0, request);
}

/* ---- a communicator ---- */

TERN_WEAK_ALIAS(MPI_Comm_attach_buffer)
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return attach("MPI_Comm_attach_buffer", find_comm, comm, buffer, size);
}

TERN_WEAK_ALIAS(MPI_Comm_attach_buffer_c)
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return attach("MPI_Comm_attach_buffer_c", find_comm, comm, buffer, size);
}

TERN_WEAK_ALIAS(MPI_Comm_detach_buffer)
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    return detach("MPI_Comm_detach_buffer", find_comm, comm, buffer_addr, size, NULL);
}

TERN_WEAK_ALIAS(MPI_Comm_detach_buffer_c)
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    return detach("MPI_Comm_detach_buffer_c", find_comm, comm, buffer_addr, NULL, size);
}

TERN_WEAK_ALIAS(MPI_Comm_flush_buffer)
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    return flush("MPI_Comm_flush_buffer", find_comm, comm);
}

TERN_WEAK_ALIAS(MPI_Comm_iflush_buffer)
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    return iflush("MPI_Comm_iflush_buffer", find_comm, comm, request);
}

/* ---- a session ---- */

TERN_WEAK_ALIAS(MPI_Session_attach_buffer)
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return attach("MPI_Session_attach_buffer", find_session, session, buffer, size);
}

TERN_WEAK_ALIAS(MPI_Session_attach_buffer_c)
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    return attach("MPI_Session_attach_buffer_c", find_session, session, buffer, size);
}

TERN_WEAK_ALIAS(MPI_Session_detach_buffer)
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    return detach("MPI_Session_detach_buffer", find_session, session, buffer_addr, size, NULL);
}

TERN_WEAK_ALIAS(MPI_Session_detach_buffer_c)
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    return detach("MPI_Session_detach_buffer_c", find_session, session, buffer_addr, NULL, size);
}

TERN_WEAK_ALIAS(MPI_Session_flush_buffer)
int PMPI_Session_flush_buffer(MPI_Session session)
{
    return flush("MPI_Session_flush_buffer", find_session, session);
}

TERN_WEAK_ALIAS(MPI_Session_iflush_buffer)
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    return iflush("MPI_Session_iflush_buffer", find_session, session, request);
}
