/* The bodies of the MPI Sessions calls (MPI-4.1 11.3): initialising and
 * finalizing a session, its info and its error handler; their entry points
 * are generated (src/api/gen/bindings_session.c).  Process sets are api/session_pset.c, the
 * session's buffered-send buffer api/bsend_buffer.c.
 *
 * Errors of a call on a valid session go to that session's handler; an
 * invalid session handle has no handler of its own, so that error goes to
 * MPI_COMM_WORLD's (fatal when the world model is not initialised). */
#include <string.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/handle_check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/session.h"
#include "core/state.h"
#include "p2p/bsend.h"
#include "runtime/runtime.h"

static const char *const level_names[] = {
    [MPI_THREAD_SINGLE] = "MPI_THREAD_SINGLE",
    [MPI_THREAD_FUNNELED] = "MPI_THREAD_FUNNELED",
    [MPI_THREAD_SERIALIZED] = "MPI_THREAD_SERIALIZED",
    [MPI_THREAD_MULTIPLE] = "MPI_THREAD_MULTIPLE",
};

/* The "thread_level" info key (MPI-4.1 11.3.1); absent or unknown values
 * ask for nothing beyond MPI_THREAD_SINGLE, as hints may be ignored. */
static int thread_level_of(const struct tern_info *info)
{
    const char *v = info ? tern_info_find(info, "thread_level") : NULL;
    for (int l = MPI_THREAD_MULTIPLE; v && l > MPI_THREAD_SINGLE; l--)
        if (strcmp(v, level_names[l]) == 0) return l;
    return MPI_THREAD_SINGLE;
}

/* An error handler a session may have: a predefined one or one made by
 * MPI_Session_create_errhandler.  Not valid: MPI_ERR_ARG, not raised. */
static int session_errh(const char *fn, const char *arg, MPI_Errhandler h,
                        struct tern_errhandler **out)
{
    *out = h == MPI_ERRHANDLER_NULL ? NULL : tern_errh_get(h);
    if (!*out)
        return tern_err_make(MPI_ERR_ARG, "%s: %s=0x%x is not an error handler%s", fn, arg,
                             (unsigned)h, h == MPI_ERRHANDLER_NULL ? " (MPI_ERRHANDLER_NULL)" : "");
    if (!tern_errh_is_predefined(*out) && (*out)->kind != TERN_ERRH_USER_SESSION)
        return tern_err_make(MPI_ERR_ARG,
                             "%s: %s=0x%x is not a session error handler (make one with "
                             "MPI_Session_create_errhandler)",
                             fn, arg, (unsigned)h);
    return MPI_SUCCESS;
}

/* The entry point takes the lock only if it exists (this call may be the
 * one that asks for MPI_THREAD_MULTIPLE). */
int tern_api_session_init(const char *fn, MPI_Info info, MPI_Errhandler errhandler,
                          MPI_Session *session)
{
    struct tern_errhandler *e;
    struct tern_info *ti = NULL;
    int rc = session_errh(fn, "errhandler", errhandler, &e);
    if (rc != MPI_SUCCESS)
        /* No handler to raise it on but the world model's, or the default one. */
        return tern_g.init_state == TERN_STATE_ACTIVE ? tern_err_raise(NULL, rc)
                                                      : tern_errh_raise_session(NULL, 0, rc);
    if (info != MPI_INFO_NULL && !(ti = tern_info_get(info)))
        rc = tern_err_make(MPI_ERR_INFO, "%s: info=0x%x is not an info object", fn, (unsigned)info);
    else if (!session)
        rc = tern_err_make(MPI_ERR_ARG, "%s: session is NULL", fn);
    else
        rc = tern_runtime_acquire(thread_level_of(ti), fn);
    if (rc == MPI_SUCCESS) {
        /* Once any part of the process asked for MPI_THREAD_MULTIPLE, every
         * call takes the big lock: a session gets that level too, asked or
         * not (a provided level may exceed the requested one). */
        int level = tern_g.thread_multiple ? MPI_THREAD_MULTIPLE : thread_level_of(ti);
        struct tern_session *s = tern_session_new(level, e);
        if (s) {
            tern_g.sessions++;
            *session = s->handle;
        } else {
            rc = tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory for a session", fn);
            tern_runtime_release_if_unused();
        }
    }
    return tern_errh_raise_session(e, MPI_SESSION_NULL, rc);
}

int tern_chk_session_ptr(struct tern_session *s, const void *p, const char *fn, const char *arg)
{
    if (p) return MPI_SUCCESS;
    return tern_err_session(s, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

/* The entry point's unlock after this is a no-op once the runtime is down. */
int tern_api_session_finalize(const char *fn, MPI_Session *session, struct tern_session *session_o)
{
    (void)fn;
    struct tern_session *s = session_o;
    /* The buffer is the user's memory, free again once this returns. */
    tern_bbuf_drop(&s->bsend);
    tern_session_unpublish(s);
    *session = MPI_SESSION_NULL;
    tern_g.sessions--;
    tern_runtime_release_if_unused();
    return MPI_SUCCESS;
}

int tern_api_session_get_info(const char *fn, struct tern_session *session_o, MPI_Info *info_used)
{
    struct tern_session *s = session_o;
    struct tern_info *ti = tern_info_new();
    if (!ti || tern_info_set(ti, "thread_level", level_names[s->thread_level]) != MPI_SUCCESS ||
        tern_info_publish(ti, info_used) != MPI_SUCCESS) {
        if (ti) tern_info_destroy(ti);
        return tern_err_session(s, MPI_ERR_NO_MEM, "%s: out of memory for an info object", fn);
    }
    return MPI_SUCCESS;
}

/* ---- error handlers ---- */

/* Callable before any initialisation: the handler is made to be given to
 * MPI_Session_init. */
int tern_api_session_create_errhandler(const char *fn,
                                       MPI_Session_errhandler_function *session_errhandler_fn,
                                       MPI_Errhandler *errhandler)
{
    if (!session_errhandler_fn || !errhandler)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn,
                             !session_errhandler_fn ? "session_errhandler_fn" : "errhandler");
    struct tern_errhandler *e = tern_errh_create_session(session_errhandler_fn);
    if (!e)
        return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for an error handler", fn);
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

int tern_api_session_set_errhandler(const char *fn, struct tern_session *session_o,
                                    MPI_Errhandler errhandler)
{
    struct tern_session *s = session_o;
    struct tern_errhandler *e;
    int rc;
    if ((rc = session_errh(fn, "errhandler", errhandler, &e)) != MPI_SUCCESS)
        return tern_session_raise(s, rc);
    tern_errh_retain(e);
    tern_errh_release(s->errh);
    s->errh = e;
    return MPI_SUCCESS;
}

int tern_api_session_get_errhandler(const char *fn, struct tern_session *session_o,
                                    MPI_Errhandler *errhandler)
{
    (void)fn;
    /* The caller gets a new reference, to free with MPI_Errhandler_free. */
    tern_errh_retain(session_o->errh);
    *errhandler = session_o->errh->handle;
    return MPI_SUCCESS;
}

int tern_api_session_call_errhandler(const char *fn, struct tern_session *session_o, int errorcode)
{
    (void)fn;
    tern_session_raise(session_o, errorcode);
    /* As MPI_Comm_call_errhandler: MPI_SUCCESS once the handler returns. */
    return MPI_SUCCESS;
}
