/* Performance experiment sessions and their pvar handles.
 *
 * A handle sees its variable through its own offsets, so starting,
 * stopping or resetting it changes nothing for any other handle:
 *   COUNTER  value = acc + (started ? now - mark : 0)
 *   HWM      value = max(acc, peak), peak being the process-wide peak since
 *            the last reset of any handle of the variable; a reset first
 *            folds the peak into every other handle's acc, then restarts
 *            the peak from the current level.
 *   LEVEL    value = now (read-only) */
#include <stdlib.h>

#include "core/api.h"
#include "mpit/mpit.h"

struct MPIR_T_pvar_handle_s {
    struct MPIR_T_pvar_handle_s *next;
    const struct tern_t_pvar *var;
    int started;
    uint64_t acc, mark;
};

struct MPIR_T_pvar_session_s {
    struct MPIR_T_pvar_session_s *next;
    struct MPIR_T_pvar_handle_s *handles;
};

static struct MPIR_T_pvar_session_s *sessions;

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static struct MPIR_T_pvar_session_s *find_session(MPI_T_pvar_session s)
{
    for (struct MPIR_T_pvar_session_s *x = sessions; x; x = x->next)
        if (x == s) return x;
    return NULL;
}

static int owns(const struct MPIR_T_pvar_session_s *s, MPI_T_pvar_handle h)
{
    for (struct MPIR_T_pvar_handle_s *x = s->handles; x; x = x->next)
        if (x == h) return 1;
    return 0;
}

static uint64_t value(const struct MPIR_T_pvar_handle_s *h)
{
    const struct tern_t_pvar *v = h->var;
    switch (v->kind) {
    case TERN_T_PV_LEVEL: return v->now();
    case TERN_T_PV_HWM: return max64(h->acc, v->now());
    default: return h->acc + (h->started ? v->now() - h->mark : 0);
    }
}

/* Makes h read 'to' from now on (its starting value on a reset). */
static void set_value(struct MPIR_T_pvar_handle_s *h, uint64_t to)
{
    const struct tern_t_pvar *v = h->var;
    if (v->kind == TERN_T_PV_HWM) {
        for (struct MPIR_T_pvar_session_s *s = sessions; s; s = s->next)
            for (struct MPIR_T_pvar_handle_s *o = s->handles; o; o = o->next)
                if (o != h && o->var == v) o->acc = max64(o->acc, *v->peak);
        *v->peak = v->level ? *v->level : 0;
        h->acc = to;
        return;
    }
    h->acc = to;
    h->mark = v->now();
}

static uint64_t starting_value(const struct tern_t_pvar *v)
{
    return v->kind == TERN_T_PV_HWM && v->level ? *v->level : 0;
}

static int session_create(MPI_T_pvar_session *out)
{
    if (!out) return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_session_s *s = calloc(1, sizeof *s);
    if (!s) return MPI_T_ERR_OUT_OF_SESSIONS;
    s->next = sessions;
    sessions = s;
    *out = s;
    return MPI_SUCCESS;
}

static void free_handles(struct MPIR_T_pvar_session_s *s)
{
    while (s->handles) {
        struct MPIR_T_pvar_handle_s *h = s->handles;
        s->handles = h->next;
        free(h);
    }
}

static int session_free(MPI_T_pvar_session *ps)
{
    if (!ps) return MPI_T_ERR_INVALID;
    for (struct MPIR_T_pvar_session_s **pp = &sessions; *pp; pp = &(*pp)->next)
        if (*pp == *ps) {
            struct MPIR_T_pvar_session_s *s = *pp;
            *pp = s->next;
            free_handles(s);
            free(s);
            *ps = MPI_T_PVAR_SESSION_NULL;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_SESSION;
}

static int handle_alloc(MPI_T_pvar_session session, int index, MPI_T_pvar_handle *handle,
                        int *count)
{
    struct MPIR_T_pvar_session_s *s = find_session(session);
    if (!s) return MPI_T_ERR_INVALID_SESSION;
    if (index < 0 || index >= tern_t_npvars) return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count) return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_handle_s *h = calloc(1, sizeof *h);
    if (!h) return MPI_T_ERR_OUT_OF_HANDLES;
    h->var = &tern_t_pvars[index];
    h->started = h->var->continuous;
    h->next = s->handles;
    s->handles = h;
    set_value(h, starting_value(h->var));
    *handle = h;
    *count = 1;
    return MPI_SUCCESS;
}

static int handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    struct MPIR_T_pvar_session_s *s = find_session(session);
    if (!s) return MPI_T_ERR_INVALID_SESSION;
    if (!handle) return MPI_T_ERR_INVALID;
    for (struct MPIR_T_pvar_handle_s **pp = &s->handles; *pp; pp = &(*pp)->next)
        if (*pp == *handle) {
            *pp = (*handle)->next;
            free(*handle);
            *handle = MPI_T_PVAR_HANDLE_NULL;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_HANDLE;
}

/* ---- start, stop, reset: one handle, or all of a session's ---- */

enum op { START, STOP, RESET };

/* What op does to one handle; with 'all' set, handles it does not apply to
 * are skipped instead of refused, as the standard asks. */
static int apply(struct MPIR_T_pvar_handle_s *h, enum op op, int all)
{
    const struct tern_t_pvar *v = h->var;
    if (op == RESET) {
        if (tern_t_pvar_readonly(v)) return all ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_WRITE;
        set_value(h, starting_value(v));
        return MPI_SUCCESS;
    }
    if (v->continuous) return all ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (op == START && !h->started) {
        h->mark = v->now();
        h->started = 1;
    } else if (op == STOP && h->started) {
        h->acc += v->now() - h->mark;
        h->started = 0;
    }
    return MPI_SUCCESS;
}

static int session_op(MPI_T_pvar_session session, MPI_T_pvar_handle handle, enum op op)
{
    struct MPIR_T_pvar_session_s *s = find_session(session);
    if (!s) return MPI_T_ERR_INVALID_SESSION;
    if (handle == MPI_T_PVAR_ALL_HANDLES) {
        for (struct MPIR_T_pvar_handle_s *h = s->handles; h; h = h->next) apply(h, op, 1);
        return MPI_SUCCESS;
    }
    if (!owns(s, handle)) return MPI_T_ERR_INVALID_HANDLE;
    return apply(handle, op, 0);
}

/* ---- read, write, readreset: one handle ---- */

static int one_handle(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    struct MPIR_T_pvar_session_s *s = find_session(session);
    if (!s) return MPI_T_ERR_INVALID_SESSION;
    if (handle == MPI_T_PVAR_ALL_HANDLES || !owns(s, handle)) return MPI_T_ERR_INVALID_HANDLE;
    return buf ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

static int pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf, int reset)
{
    int rc = one_handle(session, handle, buf);
    if (rc != MPI_SUCCESS) return rc;
    if (reset && tern_t_pvar_readonly(handle->var)) return MPI_T_ERR_PVAR_NO_WRITE;
    *(unsigned long long *)buf = value(handle);
    if (reset) set_value(handle, starting_value(handle->var));
    return MPI_SUCCESS;
}

static int pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    int rc = one_handle(session, handle, buf);
    if (rc != MPI_SUCCESS) return rc;
    if (tern_t_pvar_readonly(handle->var)) return MPI_T_ERR_PVAR_NO_WRITE;
    set_value(handle, *(const unsigned long long *)buf);
    return MPI_SUCCESS;
}

void tern_t_sessions_finalize(void)
{
    while (sessions) {
        struct MPIR_T_pvar_session_s *s = sessions;
        sessions = s->next;
        free_handles(s);
        free(s);
    }
}

TERN_WEAK_ALIAS(MPI_T_pvar_session_create)
int PMPI_T_pvar_session_create(MPI_T_pvar_session *pe_session)
{
    TERN_T_CALL(session_create(pe_session));
}

TERN_WEAK_ALIAS(MPI_T_pvar_session_free)
int PMPI_T_pvar_session_free(MPI_T_pvar_session *pe_session)
{
    TERN_T_CALL(session_free(pe_session));
}

TERN_WEAK_ALIAS(MPI_T_pvar_handle_alloc)
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session pe_session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    (void)obj_handle; /* every variable is bound to no object */
    TERN_T_CALL(handle_alloc(pe_session, pvar_index, handle, count));
}

TERN_WEAK_ALIAS(MPI_T_pvar_handle_free)
int PMPI_T_pvar_handle_free(MPI_T_pvar_session pe_session, MPI_T_pvar_handle *handle)
{
    TERN_T_CALL(handle_free(pe_session, handle));
}

TERN_WEAK_ALIAS(MPI_T_pvar_start)
int PMPI_T_pvar_start(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    TERN_T_CALL(session_op(pe_session, handle, START));
}

TERN_WEAK_ALIAS(MPI_T_pvar_stop)
int PMPI_T_pvar_stop(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    TERN_T_CALL(session_op(pe_session, handle, STOP));
}

TERN_WEAK_ALIAS(MPI_T_pvar_reset)
int PMPI_T_pvar_reset(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    TERN_T_CALL(session_op(pe_session, handle, RESET));
}

TERN_WEAK_ALIAS(MPI_T_pvar_read)
int PMPI_T_pvar_read(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf)
{
    TERN_T_CALL(pvar_read(pe_session, handle, buf, 0));
}

TERN_WEAK_ALIAS(MPI_T_pvar_readreset)
int PMPI_T_pvar_readreset(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf)
{
    TERN_T_CALL(pvar_read(pe_session, handle, buf, 1));
}

TERN_WEAK_ALIAS(MPI_T_pvar_write)
int PMPI_T_pvar_write(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, const void *buf)
{
    TERN_T_CALL(pvar_write(pe_session, handle, buf));
}
