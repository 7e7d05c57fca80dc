/* Session objects (MPI-4.1 chapter 11): handles, references, and raising
 * errors on a session's handler.  The runtime that sessions share with the
 * world model comes up and goes down in runtime/init.c (runtime/runtime.h). */
#ifndef TERN_CORE_SESSION_H
#define TERN_CORE_SESSION_H

#include <mpi.h>

struct tern_errhandler;
struct tern_bbuf;

struct tern_session {
    int handle;       /* 0 once finalized */
    int refcount;     /* the user's handle, plus each group and communicator derived from it */
    int thread_level; /* asked for in the info of MPI_Session_init */
    struct tern_errhandler *errh;
    struct tern_bbuf *bsend;          /* MPI_Session_attach_buffer's buffer, or NULL */
    struct tern_session *next, *prev; /* every object still alive, for the teardown */
};

/* The object of a live handle, or NULL. */
struct tern_session *tern_session_get(MPI_Session h);

/* A new session with a handle and the user's reference, or NULL when out
 * of memory.  Takes a reference to errh. */
struct tern_session *tern_session_new(int thread_level, struct tern_errhandler *errh);

/* Both accept NULL.  The last release frees the object. */
void tern_session_retain(struct tern_session *s);
void tern_session_release(struct tern_session *s);

/* MPI_Session_finalize: the handle stops being valid and the user's
 * reference goes; groups and communicators keep theirs. */
void tern_session_unpublish(struct tern_session *s);

/* What a layer above core hangs on a session (its buffered-send buffer)
 * is released by the hook it registers (runtime/init.c), when the object
 * goes.  Registering a function twice registers it once. */
typedef void (*tern_session_hook_fn)(struct tern_session *s);
void tern_session_on_destroy(tern_session_hook_fn fn);

/* At the runtime's teardown: frees every object left (the groups and
 * communicators that referred to them are gone). */
void tern_sessions_finalize(void);

/* Runs handler e for the session handle h (fatal and abort handlers end
 * the job); returns code when the handler returns. */
int tern_errh_raise_session(struct tern_errhandler *e, MPI_Session h, int code);
/* The same with s's handler. */
int tern_session_raise(struct tern_session *s, int code);
/* tern_err_make + tern_session_raise. */
int tern_err_session(struct tern_session *s, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Validates a session argument: MPI_ERR_SESSION (raised on MPI_COMM_WORLD's
 * handler: there is no session to raise it on) naming fn and arg. */
int tern_session_check(MPI_Session h, const char *fn, const char *arg, struct tern_session **out);

#endif
