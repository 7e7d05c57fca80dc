/* MPI Sessions (MPI-4.1 11.3): initialising and finalizing a session, its
 * info and its error handler.  Process sets are api/session_pset.c, the
 * session's buffered-send buffer api/bsend_buffer.c.
 *
 * Errors of a call on a valid session go to that session's handler; an
 * invalid session handle has no handler of its own, so that error goes to
 * MPI_COMM_WORLD's (fatal when the world model is not initialised). */
#include <string.h>

#include "api/check.h"
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
static int session_errh(const char *fn, const char *arg, MPI_Errhandler h, struct tern_errhandler **out)
{
    *out = h == MPI_ERRHANDLER_NULL ? NULL : tern_errh_get(h);
    if (!*out)
        return tern_err_make(MPI_ERR_ARG, "%s: %s=0x%x is not an error handler%s", fn, arg, (unsigned)h,
                             h == MPI_ERRHANDLER_NULL ? " (MPI_ERRHANDLER_NULL)" : "");
    if (!tern_errh_is_predefined(*out) && (*out)->kind != TERN_ERRH_USER_SESSION)
        return tern_err_make(MPI_ERR_ARG,
                             "%s: %s=0x%x is not a session error handler (make one with MPI_Session_create_errhandler)",
                             fn, arg, (unsigned)h);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Session_init)
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    static const char fn[] = "MPI_Session_init";
    struct tern_errhandler *e;
    struct tern_info *ti = NULL;
    /* The lock exists only once some call asked for MPI_THREAD_MULTIPLE,
     * maybe this one: unlock only what was locked. */
    int locked = tern_g.thread_multiple;
    tern_lock();
    int rc = session_errh(fn, "errhandler", errhandler, &e);
    if (rc != MPI_SUCCESS) {
        /* No handler to raise it on but the world model's, or the default one. */
        rc = tern_g.init_state == TERN_STATE_ACTIVE ? tern_err_raise(NULL, rc) : tern_errh_raise_session(NULL, 0, rc);
        goto out;
    }
    if (info != MPI_INFO_NULL && !(ti = tern_info_get(info)))
        rc = tern_err_make(MPI_ERR_INFO, "%s: info=0x%x is not an info object", fn, (unsigned)info);
    else if (!session)
        rc = tern_err_make(MPI_ERR_ARG, "%s: session is NULL", fn);
    else
        rc = tern_runtime_acquire(thread_level_of(ti), fn);
    if (rc == MPI_SUCCESS) {
        struct tern_session *s = tern_session_new(thread_level_of(ti), e);
        if (s) {
            tern_g.sessions++;
            *session = s->handle;
        } else {
            rc = tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory for a session", fn);
            tern_runtime_release_if_unused();
        }
    }
    rc = tern_errh_raise_session(e, MPI_SESSION_NULL, rc);
out:
    if (locked) tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Session_finalize)
int PMPI_Session_finalize(MPI_Session *session)
{
    static const char fn[] = "MPI_Session_finalize";
    struct tern_session *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_check_ptr(NULL, session, fn, "session"));
    TRY(tern_session_check(*session, fn, "*session", &s));
    /* The buffer is the user's memory, free again once this returns. */
    tern_bbuf_drop(&s->bsend);
    tern_session_unpublish(s);
    *session = MPI_SESSION_NULL;
    tern_g.sessions--;
    tern_runtime_release_if_unused();
out:
    tern_unlock(); /* a no-op once the runtime is down */
    return rc;
}

TERN_WEAK_ALIAS(MPI_Session_get_info)
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Session_get_info";
    struct tern_session *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_session_check(session, fn, "session", &s));
    if (!info_used) {
        rc = tern_err_session(s, MPI_ERR_ARG, "%s: info_used is NULL", fn);
        goto out;
    }
    struct tern_info *ti = tern_info_new();
    if (!ti || tern_info_set(ti, "thread_level", level_names[s->thread_level]) != MPI_SUCCESS ||
        tern_info_publish(ti, info_used) != MPI_SUCCESS) {
        if (ti) tern_info_destroy(ti);
        rc = tern_err_session(s, MPI_ERR_NO_MEM, "%s: out of memory for an info object", fn);
    }
out:
    tern_unlock();
    return rc;
}

/* ---- error handlers ---- */

/* Callable before any initialisation: the handler is made to be given to
 * MPI_Session_init. */
TERN_WEAK_ALIAS(MPI_Session_create_errhandler)
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_create_errhandler";
    int rc = MPI_SUCCESS;
    int locked = tern_g.thread_multiple;
    tern_lock();
    if (!session_errhandler_fn || !errhandler) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn,
                           !session_errhandler_fn ? "session_errhandler_fn" : "errhandler");
        goto out;
    }
    struct tern_errhandler *e = tern_errh_create_session(session_errhandler_fn);
    if (!e) {
        rc = tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for an error handler", fn);
        goto out;
    }
    *errhandler = e->handle;
out:
    if (locked) tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Session_set_errhandler)
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Session_set_errhandler";
    struct tern_session *s;
    struct tern_errhandler *e;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_session_check(session, fn, "session", &s));
    if ((rc = session_errh(fn, "errhandler", errhandler, &e)) != MPI_SUCCESS) {
        rc = tern_session_raise(s, rc);
        goto out;
    }
    tern_errh_retain(e);
    tern_errh_release(s->errh);
    s->errh = e;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Session_get_errhandler)
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_get_errhandler";
    struct tern_session *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_session_check(session, fn, "session", &s));
    if (!errhandler) {
        rc = tern_err_session(s, MPI_ERR_ARG, "%s: errhandler is NULL", fn);
        goto out;
    }
    /* The caller gets a new reference, to free with MPI_Errhandler_free. */
    tern_errh_retain(s->errh);
    *errhandler = s->errh->handle;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Session_call_errhandler)
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    static const char fn[] = "MPI_Session_call_errhandler";
    struct tern_session *s;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_session_check(session, fn, "session", &s));
    tern_session_raise(s, errorcode);
    /* As MPI_Comm_call_errhandler: MPI_SUCCESS once the handler returns. */
    rc = MPI_SUCCESS;
out:
    tern_unlock();
    return rc;
}
