/* Error codes, their messages, and invoking error handlers. */
#include "core/errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootstrap/boot.h"
#include "core/api.h"
#include "core/errhandler.h"
#include "core/objects.h"
#include "core/state.h"

/* Recent messages, reused round-robin: an error string stays available
 * long after the call that produced it, which is all MPI_Error_string needs. */
#define TERN_ERR_SLOTS 256
static struct {
    int code;
    char text[MPI_MAX_ERROR_STRING];
} err_slots[TERN_ERR_SLOTS];
static unsigned err_next;

static const char *const class_text[] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid reduction operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ACCESS] = "permission denied",
    [MPI_ERR_AMODE] = "invalid file access mode",
    [MPI_ERR_BAD_FILE] = "invalid file name",
    [MPI_ERR_CONVERSION] = "data conversion error",
    [MPI_ERR_DUP_DATAREP] = "data representation already defined",
    [MPI_ERR_FILE_EXISTS] = "file exists",
    [MPI_ERR_FILE_IN_USE] = "file in use",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_INFO] = "invalid info object",
    [MPI_ERR_INFO_KEY] = "invalid info key",
    [MPI_ERR_INFO_VALUE] = "invalid info value",
    [MPI_ERR_INFO_NOKEY] = "info key not defined",
    [MPI_ERR_IO] = "I/O error",
    [MPI_ERR_NAME] = "invalid service name",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_NOT_SAME] = "arguments not identical across processes",
    [MPI_ERR_NO_SPACE] = "no space left",
    [MPI_ERR_NO_SUCH_FILE] = "no such file",
    [MPI_ERR_PORT] = "invalid port name",
    [MPI_ERR_QUOTA] = "quota exceeded",
    [MPI_ERR_READ_ONLY] = "read-only file or file system",
    [MPI_ERR_SERVICE] = "invalid service",
    [MPI_ERR_SPAWN] = "spawn failed",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "operation not supported",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_ERR_BASE] = "invalid base address",
    [MPI_ERR_LOCKTYPE] = "invalid lock type",
    [MPI_ERR_KEYVAL] = "invalid attribute key",
    [MPI_ERR_RMA_CONFLICT] = "conflicting RMA accesses",
    [MPI_ERR_RMA_SYNC] = "wrong RMA synchronisation",
    [MPI_ERR_SIZE] = "invalid size",
    [MPI_ERR_DISP] = "invalid displacement",
    [MPI_ERR_ASSERT] = "invalid assert",
    [MPI_ERR_RMA_RANGE] = "RMA target out of the window",
    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
    [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
    [MPI_T_ERR_MEMORY] = "MPI_T: out of memory",
    [MPI_T_ERR_NOT_INITIALIZED] = "MPI_T: not initialized",
    [MPI_T_ERR_CANNOT_INIT] = "MPI_T: cannot initialize",
    [MPI_T_ERR_INVALID_INDEX] = "MPI_T: invalid index",
    [MPI_T_ERR_INVALID_ITEM] = "MPI_T: invalid item",
    [MPI_T_ERR_INVALID_HANDLE] = "MPI_T: invalid handle",
    [MPI_T_ERR_OUT_OF_HANDLES] = "MPI_T: out of handles",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "MPI_T: out of sessions",
    [MPI_T_ERR_INVALID_SESSION] = "MPI_T: invalid session",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] = "MPI_T: variable cannot be set now",
    [MPI_T_ERR_CVAR_SET_NEVER] = "MPI_T: variable cannot be set",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] = "MPI_T: variable cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_WRITE] = "MPI_T: variable cannot be written or reset",
    [MPI_T_ERR_PVAR_NO_ATOMIC] = "MPI_T: variable cannot be read and written atomically",
    [MPI_T_ERR_INVALID_NAME] = "MPI_T: invalid name",
    [MPI_T_ERR_INVALID] = "MPI_T: invalid use of the interface",
    [MPI_ERR_SESSION] = "invalid session",
    [MPI_ERR_PROC_ABORTED] = "a peer process has aborted",
    [MPI_ERR_VALUE_TOO_LARGE] = "value too large",
    [MPI_T_ERR_NOT_SUPPORTED] = "MPI_T: not supported",
    [MPI_T_ERR_NOT_ACCESSIBLE] = "MPI_T: variable not accessible",
    [MPI_ERR_ERRHANDLER] = "invalid error handler",
};

const char *tern_err_class_text(int errclass)
{
    if (errclass >= 0 && errclass < (int)(sizeof class_text / sizeof class_text[0]))
        return class_text[errclass];
    return NULL;
}

int tern_err_class_of(int code)
{
    if (code < 0) return -1;
    if (code > MPI_ERR_LASTCODE) return tern_err_user_class(code);
    int cls = code % TERN_ERR_CLASS_SPAN;
    return tern_err_class_text(cls) ? cls : -1;
}

static int make_code_v(int errclass, const char *fmt, va_list ap)
{
    /* A user class or code keeps its own value (and string): the message
     * cannot be attached to it. */
    if (errclass > MPI_ERR_LASTCODE) return errclass;
    errclass %= TERN_ERR_CLASS_SPAN;
    unsigned slot = err_next++ % TERN_ERR_SLOTS;
    int code = errclass + TERN_ERR_CLASS_SPAN * (int)(1 + slot);
    vsnprintf(err_slots[slot].text, sizeof err_slots[slot].text, fmt, ap);
    err_slots[slot].code = code;
    return code;
}

int tern_err_make(int errclass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int code = make_code_v(errclass, fmt, ap);
    va_end(ap);
    return code;
}

const char *tern_err_text(int code)
{
    if (code > MPI_ERR_LASTCODE) {
        const char *s = tern_err_user_string(code);
        if (s) return s;
        return tern_err_user_class(code) < 0
                   ? "invalid error code (not a class or code of MPI, "
                     "nor one added by the user)"
                   : "user-defined error (MPI_Add_error_string not called)";
    }
    if (code >= TERN_ERR_CLASS_SPAN) {
        unsigned slot = (unsigned)(code / TERN_ERR_CLASS_SPAN - 1);
        if (slot < TERN_ERR_SLOTS && err_slots[slot].code == code) return err_slots[slot].text;
    }
    if (code < 0) return "invalid error code (negative)";
    const char *t = tern_err_class_text(code % TERN_ERR_CLASS_SPAN);
    return t ? t : "invalid error code (no such error class)";
}

static void print_prefixed(const char *what, const char *fmt, va_list ap)
{
    char line[1024];
    int n;
    if (tern_g.init_state == TERN_STATE_ACTIVE && tern_g.world_size > 1)
        n = snprintf(line, sizeof line, "Tern: rank %d: %s", tern_g.world_rank, what);
    else
        n = snprintf(line, sizeof line, "Tern: %s", what);
    if (n < 0 || n >= (int)sizeof line) n = 0;
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    /* One write, so lines from concurrent ranks do not interleave. */
    size_t len = strlen(line);
    if (len + 1 < sizeof line) {
        line[len++] = '\n';
        line[len] = 0;
    }
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
}

void tern_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_prefixed("warning: ", fmt, ap);
    va_end(ap);
}

void tern_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_prefixed("", fmt, ap);
    va_end(ap);
}

_Noreturn void tern_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_prefixed("fatal error: ", fmt, ap);
    va_end(ap);
    tern_boot_abort(1, "fatal error (see the message above)");
}

static _Noreturn void fatal_code(int code) { tern_fatal("%s", tern_err_text(code)); }

int tern_err_raise(struct tern_comm *comm, int code)
{
    if (code == MPI_SUCCESS) return code;
    if (tern_g.init_state != TERN_STATE_ACTIVE) {
        /* Before Init and after Finalize the default handler applies. */
        fatal_code(code);
    }
    if (!comm) comm = &tern_comm_world;
    struct tern_errhandler *e = comm->errh;
    switch (e ? e->kind : TERN_ERRH_FATAL) {
    case TERN_ERRH_RETURN: return code;
    case TERN_ERRH_USER_COMM: {
        MPI_Comm h = comm->handle;
        int c = code;
        e->comm_fn(&h, &c);
        return code;
    }
    default: /* fatal, abort (window and file handlers cannot be set on a communicator) */
        fatal_code(code);
    }
}

int tern_err_raise_file(struct tern_errhandler *e, MPI_File file, int code)
{
    switch (e->kind) {
    case TERN_ERRH_RETURN: return code;
    case TERN_ERRH_USER_FILE: {
        MPI_File f = file;
        int c = code;
        e->file_fn(&f, &c);
        return code;
    }
    default: fatal_code(code);
    }
}

int tern_err_raise_win(struct tern_errhandler *e, MPI_Win win, int code)
{
    if (code == MPI_SUCCESS) return code;
    switch (e ? e->kind : TERN_ERRH_FATAL) {
    case TERN_ERRH_RETURN: return code;
    case TERN_ERRH_USER_WIN: {
        MPI_Win w = win;
        int c = code;
        e->win_fn(&w, &c);
        return code;
    }
    default: fatal_code(code);
    }
}

int tern_err_comm(struct tern_comm *comm, int errclass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int code = make_code_v(errclass, fmt, ap);
    va_end(ap);
    return tern_err_raise(comm, code);
}

/* ---- MPI entry points ---- */

TERN_WEAK_ALIAS(MPI_Error_string)
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (!string || !resultlen)
        return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Error_string: %s is NULL",
                             !string ? "string" : "resultlen");
    tern_lock();
    if (tern_err_class_of(errorcode) < 0) {
        tern_unlock();
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "MPI_Error_string: errorcode=%d is not an error code", errorcode);
    }
    const char *t = tern_err_text(errorcode);
    /* A user class or code without a string gives "" (MPI-4.1 9.5). */
    if (errorcode > MPI_ERR_LASTCODE && tern_err_user_class(errorcode) >= 0 &&
        !tern_err_user_string(errorcode))
        t = "";
    size_t n = strlen(t);
    if (n > MPI_MAX_ERROR_STRING - 1) n = MPI_MAX_ERROR_STRING - 1;
    memcpy(string, t, n);
    string[n] = 0;
    *resultlen = (int)n;
    tern_unlock();
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Error_class)
int PMPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass) return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Error_class: errorclass is NULL");
    tern_lock();
    int cls = tern_err_class_of(errorcode);
    tern_unlock();
    if (cls < 0)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "MPI_Error_class: errorcode=%d is not an error code", errorcode);
    *errorclass = cls;
    return MPI_SUCCESS;
}
