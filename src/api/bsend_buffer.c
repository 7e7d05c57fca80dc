/* The bodies of the buffered-send buffer calls (MPI-4.1 3.6.1): attach,
 * detach, flush and iflush for the process (MPI_Buffer_*), a communicator
 * (MPI_Comm_*_buffer) and a session (MPI_Session_*_buffer).  Their entry
 * points, with the init test, the lock and the checks of the owner's
 * handle and the result pointers, are generated
 * (src/api/gen/bindings_bsend_buffer.c).  One body per operation; the
 * owner decides the slot and whose handler hears errors. */
#include <limits.h>
#include <stdint.h>

#include "api/gen/bindings.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/session.h"
#include "p2p/bsend.h"
#include "msg/request.h"

struct owner {
    struct tern_bbuf **slot;
    struct tern_comm *comm;       /* its handler; NULL: MPI_COMM_WORLD's */
    struct tern_session *session; /* when set, its handler instead */
};

static struct owner process(void) { return (struct owner){.slot = &tern_bbuf_process}; }

static struct owner of_comm(struct tern_comm *c)
{
    return (struct owner){.slot = &c->bsend, .comm = c};
}

static struct owner of_session(struct tern_session *s)
{
    return (struct owner){.slot = &s->bsend, .session = s};
}

static int raise_on(const struct owner *o, int code)
{
    if (code == MPI_SUCCESS) return code;
    return o->session ? tern_session_raise(o->session, code) : tern_err_raise(o->comm, code);
}

static int attach(const char *fn, struct owner o, void *buffer, MPI_Count size)
{
    return raise_on(&o, tern_bbuf_attach(o.slot, fn, buffer, size));
}

/* The size goes to isize (the int forms, which refuse a buffer whose size
 * an int cannot hold) or to lsize (the _c forms). */
static int detach(const char *fn, struct owner o, void *buffer_addr, int *isize, MPI_Count *lsize)
{
    void *addr;
    MPI_Count size;
    int rc = raise_on(&o, tern_bbuf_detach(o.slot, fn, isize ? INT_MAX : INT64_MAX, &addr, &size));
    if (rc != MPI_SUCCESS) return rc;
    *(void **)buffer_addr = addr;
    if (isize)
        *isize = (int)size;
    else
        *lsize = size;
    return MPI_SUCCESS;
}

static int flush(struct owner o)
{
    tern_bbuf_flush(*o.slot);
    return MPI_SUCCESS;
}

static int iflush(const char *fn, struct owner o, MPI_Request *request)
{
    struct tern_request *r;
    int rc = raise_on(&o, tern_bbuf_iflush(*o.slot, fn, &r));
    if (rc == MPI_SUCCESS) *request = r->handle;
    return rc;
}

/* ---- the process ---- */

int tern_api_buffer_attach(const char *fn, void *buffer, int size)
{
    return attach(fn, process(), buffer, size);
}

int tern_api_buffer_attach_c(const char *fn, void *buffer, MPI_Count size)
{
    return attach(fn, process(), buffer, size);
}

int tern_api_buffer_detach(const char *fn, void *buffer_addr, int *size)
{
    return detach(fn, process(), buffer_addr, size, NULL);
}

int tern_api_buffer_detach_c(const char *fn, void *buffer_addr, MPI_Count *size)
{
    return detach(fn, process(), buffer_addr, NULL, size);
}

int tern_api_buffer_flush(const char *fn)
{
    (void)fn;
    return flush(process());
}

int tern_api_buffer_iflush(const char *fn, MPI_Request *request)
{
    return iflush(fn, process(), request);
}

/* ---- a communicator ---- */

int tern_api_comm_attach_buffer(const char *fn, struct tern_comm *comm_o, void *buffer, int size)
{
    return attach(fn, of_comm(comm_o), buffer, size);
}

int tern_api_comm_attach_buffer_c(const char *fn, struct tern_comm *comm_o, void *buffer,
                                  MPI_Count size)
{
    return attach(fn, of_comm(comm_o), buffer, size);
}

int tern_api_comm_detach_buffer(const char *fn, struct tern_comm *comm_o, void *buffer_addr,
                                int *size)
{
    return detach(fn, of_comm(comm_o), buffer_addr, size, NULL);
}

int tern_api_comm_detach_buffer_c(const char *fn, struct tern_comm *comm_o, void *buffer_addr,
                                  MPI_Count *size)
{
    return detach(fn, of_comm(comm_o), buffer_addr, NULL, size);
}

int tern_api_comm_flush_buffer(const char *fn, struct tern_comm *comm_o)
{
    (void)fn;
    return flush(of_comm(comm_o));
}

int tern_api_comm_iflush_buffer(const char *fn, struct tern_comm *comm_o, MPI_Request *request)
{
    return iflush(fn, of_comm(comm_o), request);
}

/* ---- a session ---- */

int tern_api_session_attach_buffer(const char *fn, struct tern_session *session_o, void *buffer,
                                   int size)
{
    return attach(fn, of_session(session_o), buffer, size);
}

int tern_api_session_attach_buffer_c(const char *fn, struct tern_session *session_o, void *buffer,
                                     MPI_Count size)
{
    return attach(fn, of_session(session_o), buffer, size);
}

int tern_api_session_detach_buffer(const char *fn, struct tern_session *session_o,
                                   void *buffer_addr, int *size)
{
    return detach(fn, of_session(session_o), buffer_addr, size, NULL);
}

int tern_api_session_detach_buffer_c(const char *fn, struct tern_session *session_o,
                                     void *buffer_addr, MPI_Count *size)
{
    return detach(fn, of_session(session_o), buffer_addr, NULL, size);
}

int tern_api_session_flush_buffer(const char *fn, struct tern_session *session_o)
{
    (void)fn;
    return flush(of_session(session_o));
}

int tern_api_session_iflush_buffer(const char *fn, struct tern_session *session_o,
                                   MPI_Request *request)
{
    return iflush(fn, of_session(session_o), request);
}
