/* The bodies of the MPI error handler calls: communicators (creating,
 * setting, freeing, calling), windows (handlers can be made; no window
 * exists) and files (each open file's handler, and MPI_FILE_NULL's, which
 * new files start with).  Their entry points, with
 * the init test, the lock and the checks of the handles and result
 * pointers, are generated (src/api/gen/bindings_errhandler.c; see
 * tools/gen/gen_bindings.py).  How a handler runs when an error happens is
 * core/errors.c. */
#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/handle_check.h"
#include "api/win_check.h"
#include "core/api.h"
#include "core/errhandler.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "io/io.h"
#include "rma/win.h"

int tern_chk_errh(struct tern_comm *c, const char *fn, const char *arg, MPI_Errhandler h,
                  struct tern_errhandler **out)
{
    if (h == MPI_ERRHANDLER_NULL)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is MPI_ERRHANDLER_NULL", fn, arg);
    *out = tern_errh_get(h);
    if (!*out)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: %s=0x%x is not a valid error handler", fn, arg,
                             (unsigned)h);
    return MPI_SUCCESS;
}

/* f is the user's function of the kind's type. */
static int create_errh(const char *fn, enum tern_errh_kind kind, void (*f)(void),
                       MPI_Errhandler *errhandler)
{
    static const char *const fn_arg[] = {
        [TERN_ERRH_USER_COMM] = "comm_errhandler_fn",
        [TERN_ERRH_USER_WIN] = "win_errhandler_fn",
        [TERN_ERRH_USER_FILE] = "file_errhandler_fn",
    };
    if (!f) return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, fn_arg[kind]);
    struct tern_errhandler *e =
        kind == TERN_ERRH_USER_COMM  ? tern_errh_create_comm((MPI_Comm_errhandler_function *)f)
        : kind == TERN_ERRH_USER_WIN ? tern_errh_create_win((MPI_Win_errhandler_function *)f)
                                     : tern_errh_create_file((MPI_File_errhandler_function *)f);
    if (!e)
        return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for an error handler", fn);
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

int tern_api_comm_create_errhandler(const char *fn,
                                    MPI_Comm_errhandler_function *comm_errhandler_fn,
                                    MPI_Errhandler *errhandler)
{
    return create_errh(fn, TERN_ERRH_USER_COMM, (void (*)(void))comm_errhandler_fn, errhandler);
}

int tern_api_errhandler_free(const char *fn, MPI_Errhandler *errhandler,
                             struct tern_errhandler *errhandler_o)
{
    (void)fn;
    /* Communicators using it keep their references; predefined handlers
     * are never destroyed. */
    tern_errh_release(errhandler_o);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int tern_api_comm_set_errhandler(const char *fn, struct tern_comm *comm_o,
                                 struct tern_errhandler *errhandler_o)
{
    enum tern_errh_kind kind = errhandler_o->kind;
    if (kind == TERN_ERRH_USER_WIN || kind == TERN_ERRH_USER_FILE || kind == TERN_ERRH_USER_SESSION)
        return tern_err_comm(comm_o, MPI_ERR_ARG,
                             "%s: errhandler=0x%x is a %s error handler, not a "
                             "communicator one",
                             fn, (unsigned)errhandler_o->handle,
                             kind == TERN_ERRH_USER_WIN    ? "window"
                             : kind == TERN_ERRH_USER_FILE ? "file"
                                                           : "session");
    tern_errh_retain(errhandler_o);
    tern_errh_release(comm_o->errh);
    comm_o->errh = errhandler_o;
    return MPI_SUCCESS;
}

int tern_api_comm_get_errhandler(const char *fn, struct tern_comm *comm_o,
                                 MPI_Errhandler *errhandler)
{
    (void)fn;
    /* The caller gets a new reference, to free with MPI_Errhandler_free. */
    tern_errh_retain(comm_o->errh);
    *errhandler = comm_o->errh->handle;
    return MPI_SUCCESS;
}

int tern_api_comm_call_errhandler(const char *fn, struct tern_comm *comm_o, int errorcode)
{
    (void)fn;
    tern_err_raise(comm_o, errorcode);
    /* MPI: returns MPI_SUCCESS when the handler returns. */
    return MPI_SUCCESS;
}

/* ---- Windows ---- */

int tern_api_win_create_errhandler(const char *fn, MPI_Win_errhandler_function *win_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    return create_errh(fn, TERN_ERRH_USER_WIN, (void (*)(void))win_errhandler_fn, errhandler);
}

TERN_WEAK_ALIAS(MPI_Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Win_set_errhandler";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    int rc = tern_check_win(win, fn, &w);
    struct tern_errhandler *e = NULL;
    if (!rc) {
        e = errhandler == MPI_ERRHANDLER_NULL ? NULL : tern_errh_get(errhandler);
        if (!e)
            rc = tern_win_err(w, MPI_ERR_ARG, "%s: errhandler=0x%x is not an error handler", fn,
                              (unsigned)errhandler);
        else if (e->kind == TERN_ERRH_USER_COMM || e->kind == TERN_ERRH_USER_FILE ||
                 e->kind == TERN_ERRH_USER_SESSION)
            rc = tern_win_err(w, MPI_ERR_ARG,
                              "%s: errhandler=0x%x was made for another kind of object (not by "
                              "MPI_Win_create_errhandler)",
                              fn, (unsigned)errhandler);
    }
    if (!rc) {
        tern_errh_retain(e);
        tern_errh_release(w->errh);
        w->errh = e;
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Win_get_errhandler";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    int rc = tern_check_win(win, fn, &w);
    if (!rc && !errhandler) rc = tern_win_err(w, MPI_ERR_ARG, "%s: errhandler is NULL", fn);
    if (!rc) {
        /* The caller gets a new reference, to free with MPI_Errhandler_free. */
        tern_errh_retain(w->errh);
        *errhandler = w->errh->handle;
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    static const char fn[] = "MPI_Win_call_errhandler";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w;
    int rc = tern_check_win(win, fn, &w);
    if (!rc) tern_win_raise(w, errorcode);
    tern_unlock();
    /* MPI: returns MPI_SUCCESS when the handler returns. */
    return rc;
}

/* ---- Files: each open file has its handler; MPI_FILE_NULL's is the one
 * new files start with and the one errors without a file go to. ---- */

int tern_api_file_create_errhandler(const char *fn,
                                    MPI_File_errhandler_function *file_errhandler_fn,
                                    MPI_Errhandler *errhandler)
{
    return create_errh(fn, TERN_ERRH_USER_FILE, (void (*)(void))file_errhandler_fn, errhandler);
}

/* Errors about an invalid file go to MPI_FILE_NULL's handler (MPI-4.1 9.3.4). */
static int file_raise(int code)
{
    return tern_err_raise_file(tern_errh_file_null(), MPI_FILE_NULL, code);
}

int tern_chk_file(const char *fn, MPI_File file)
{
    if (file == MPI_FILE_NULL || tern_file_get(file)) return MPI_SUCCESS;
    return file_raise(
        tern_err_make(MPI_ERR_FILE, "%s: file=%p is not an open file", fn, (void *)file));
}

int tern_api_file_set_errhandler(const char *fn, MPI_File file, MPI_Errhandler errhandler)
{
    struct tern_file *f = tern_file_get(file);
    struct tern_errhandler *e =
        errhandler == MPI_ERRHANDLER_NULL ? NULL : tern_errh_get(errhandler);
    if (!e || (!tern_errh_is_predefined(e) && e->kind != TERN_ERRH_USER_FILE))
        return tern_io_err(f, MPI_ERR_ARG,
                           "%s: errhandler=0x%x is not a file error handler "
                           "(predefined or made by MPI_File_create_errhandler)",
                           fn, (unsigned)errhandler);
    if (!f) {
        tern_errh_set_file_null(e);
        return MPI_SUCCESS;
    }
    tern_errh_retain(e);
    tern_errh_release(f->errh);
    f->errh = e;
    return MPI_SUCCESS;
}

int tern_api_file_get_errhandler(const char *fn, MPI_File file, MPI_Errhandler *errhandler)
{
    struct tern_file *f = tern_file_get(file);
    if (!errhandler) return tern_io_err(f, MPI_ERR_ARG, "%s: errhandler is NULL", fn);
    /* A new reference, as MPI_Comm_get_errhandler gives. */
    struct tern_errhandler *e = f ? f->errh : tern_errh_file_null();
    tern_errh_retain(e);
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

int tern_api_file_call_errhandler(const char *fn, MPI_File fh, int errorcode)
{
    (void)fn;
    tern_io_raise(tern_file_get(fh), errorcode);
    return MPI_SUCCESS; /* as MPI_Comm_call_errhandler: the handler returned */
}
