/* Session objects (see session.h). */
#include "core/session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/errors.h"
#include "core/handle.h"
#include "core/objects.h"

static struct tern_objtab session_table = {.kind = TERN_KIND_SESSION};
static struct tern_session *all_sessions;

/* The parts of a session that layers above core own; a handful. */
#define MAX_PART_HOOKS 4
static tern_session_hook_fn destroyed_hooks[MAX_PART_HOOKS];
static int ndestroyed_hooks;

void tern_session_on_destroy(tern_session_hook_fn fn)
{
    for (int i = 0; i < ndestroyed_hooks; i++)
        if (destroyed_hooks[i] == fn) return;
    if (ndestroyed_hooks == MAX_PART_HOOKS)
        tern_fatal("internal error: more than %d session hooks", MAX_PART_HOOKS);
    destroyed_hooks[ndestroyed_hooks++] = fn;
}

struct tern_session *tern_session_get(MPI_Session h)
{
    return tern_objtab_lookup(&session_table, h);
}

struct tern_session *tern_session_new(int thread_level, struct tern_errhandler *errh)
{
    struct tern_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->handle = tern_objtab_insert(&session_table, s);
    if (!s->handle) {
        free(s);
        return NULL;
    }
    s->refcount = 1;
    s->thread_level = thread_level;
    tern_errh_retain(errh);
    s->errh = errh;
    s->next = all_sessions;
    if (all_sessions) all_sessions->prev = s;
    all_sessions = s;
    return s;
}

void tern_session_retain(struct tern_session *s)
{
    if (s) s->refcount++;
}

static void destroy(struct tern_session *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        all_sessions = s->next;
    if (s->next) s->next->prev = s->prev;
    /* A buffered-send buffer: finalize flushed it; only the teardown of a
     * session never finalized finds one here, after every buffered message
     * has left. */
    for (int i = 0; i < ndestroyed_hooks; i++) destroyed_hooks[i](s);
    tern_errh_release(s->errh);
    free(s);
}

void tern_session_release(struct tern_session *s)
{
    if (s && --s->refcount == 0) destroy(s);
}

void tern_session_unpublish(struct tern_session *s)
{
    tern_objtab_remove(&session_table, s->handle);
    s->handle = 0;
    tern_session_release(s);
}

void tern_sessions_finalize(void)
{
    while (all_sessions) destroy(all_sessions);
    tern_objtab_destroy(&session_table);
}

int tern_errh_raise_session(struct tern_errhandler *e, MPI_Session h, int code)
{
    if (code == MPI_SUCCESS) return code;
    switch (e ? e->kind : TERN_ERRH_FATAL) {
    case TERN_ERRH_RETURN: return code;
    case TERN_ERRH_USER_SESSION: {
        MPI_Session s = h;
        int c = code;
        e->session_fn(&s, &c);
        return code;
    }
    default: /* fatal, abort (other kinds cannot be set on a session) */
        tern_fatal("%s", tern_err_text(code));
    }
}

int tern_session_raise(struct tern_session *s, int code)
{
    return tern_errh_raise_session(s->errh, s->handle, code);
}

int tern_err_session(struct tern_session *s, int errclass, const char *fmt, ...)
{
    char text[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return tern_session_raise(s, tern_err_make(errclass, "%s", text));
}

int tern_session_check(MPI_Session h, const char *fn, const char *arg, struct tern_session **out)
{
    if (h == MPI_SESSION_NULL)
        return tern_err_comm(NULL, MPI_ERR_SESSION, "%s: %s is MPI_SESSION_NULL", fn, arg);
    *out = tern_session_get(h);
    if (!*out)
        return tern_err_comm(NULL, MPI_ERR_SESSION,
                             "%s: %s=0x%x is not a session (finalized, or never initialized)", fn,
                             arg, (unsigned)h);
    return MPI_SUCCESS;
}
