/* MPI error handler entry points: communicators (creating, setting,
 * freeing, calling), windows (handlers can be made; no window exists) and
 * MPI_FILE_NULL (no file exists; its handler is what the standard lets a
 * program read, set and call).  How a handler runs when an error happens is
 * core/errors.c. */
#include "api/check.h"
#include "core/api.h"
#include "core/errhandler.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"

static int chk_errh(struct tern_comm *c, const char *fn, const char *arg, MPI_Errhandler h,
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
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    if (!f) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, fn_arg[kind]);
        goto out;
    }
    TRY(tern_check_ptr(NULL, errhandler, fn, "errhandler"));
    struct tern_errhandler *e =
        kind == TERN_ERRH_USER_COMM  ? tern_errh_create_comm((MPI_Comm_errhandler_function *)f)
        : kind == TERN_ERRH_USER_WIN ? tern_errh_create_win((MPI_Win_errhandler_function *)f)
                                     : tern_errh_create_file((MPI_File_errhandler_function *)f);
    if (!e) {
        rc = tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for an error handler", fn);
        goto out;
    }
    *errhandler = e->handle;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    return create_errh("MPI_Comm_create_errhandler", TERN_ERRH_USER_COMM,
                       (void (*)(void))comm_errhandler_fn, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_create)
int PMPI_Errhandler_create(MPI_Comm_errhandler_function *comm_errhandler_fn,
                           MPI_Errhandler *errhandler)
{
    return create_errh("MPI_Errhandler_create", TERN_ERRH_USER_COMM,
                       (void (*)(void))comm_errhandler_fn, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_free)
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Errhandler_free";
    struct tern_errhandler *e;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_check_ptr(NULL, errhandler, fn, "errhandler"));
    TRY(chk_errh(NULL, fn, "*errhandler", *errhandler, &e));
    /* Communicators using it keep their references; predefined handlers
     * are never destroyed. */
    tern_errh_release(e);
    *errhandler = MPI_ERRHANDLER_NULL;
out:
    tern_unlock();
    return rc;
}

static int set_errh(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct tern_comm *c;
    struct tern_errhandler *e;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(chk_errh(c, fn, "errhandler", errhandler, &e));
    if (e->kind == TERN_ERRH_USER_WIN || e->kind == TERN_ERRH_USER_FILE || e->kind == TERN_ERRH_USER_SESSION) {
        rc = tern_err_comm(c, MPI_ERR_ARG, "%s: errhandler=0x%x is a %s error handler, not a "
                           "communicator one", fn, (unsigned)errhandler,
                           e->kind == TERN_ERRH_USER_WIN    ? "window"
                           : e->kind == TERN_ERRH_USER_FILE ? "file"
                                                            : "session");
        goto out;
    }
    tern_errh_retain(e);
    tern_errh_release(c->errh);
    c->errh = e;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errh("MPI_Comm_set_errhandler", comm, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errh("MPI_Errhandler_set", comm, errhandler);
}

static int get_errh(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_check_ptr(c, errhandler, fn, "errhandler"));
    /* The caller gets a new reference, to free with MPI_Errhandler_free. */
    tern_errh_retain(c->errh);
    *errhandler = c->errh->handle;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errh("MPI_Comm_get_errhandler", comm, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errh("MPI_Errhandler_get", comm, errhandler);
}

TERN_WEAK_ALIAS(MPI_Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    static const char fn[] = "MPI_Comm_call_errhandler";
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    tern_err_raise(c, errorcode);
    /* MPI: returns MPI_SUCCESS when the handler returns. */
    rc = MPI_SUCCESS;
out:
    tern_unlock();
    return rc;
}

/* ---- Windows: handlers can be made, but there is no window to use them on ---- */

TERN_WEAK_ALIAS(MPI_Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    return create_errh("MPI_Win_create_errhandler", TERN_ERRH_USER_WIN,
                       (void (*)(void))win_errhandler_fn, errhandler);
}

TERN_WEAK_ALIAS(MPI_Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    (void)errhandler;
    return tern_err_no_window("MPI_Win_set_errhandler", win);
}

TERN_WEAK_ALIAS(MPI_Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    (void)errhandler;
    return tern_err_no_window("MPI_Win_get_errhandler", win);
}

TERN_WEAK_ALIAS(MPI_Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    (void)errorcode;
    return tern_err_no_window("MPI_Win_call_errhandler", win);
}

/* ---- Files: only MPI_FILE_NULL exists ---- */

TERN_WEAK_ALIAS(MPI_File_create_errhandler)
int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    return create_errh("MPI_File_create_errhandler", TERN_ERRH_USER_FILE,
                       (void (*)(void))file_errhandler_fn, errhandler);
}

/* Errors about files go to MPI_FILE_NULL's handler (MPI-4.1 9.3.4). */
static int file_raise(int code)
{
    return tern_err_raise_file(tern_errh_file_null(), MPI_FILE_NULL, code);
}

static int chk_file(const char *fn, MPI_File file)
{
    if (file == MPI_FILE_NULL) return MPI_SUCCESS;
    return file_raise(tern_err_make(MPI_ERR_FILE,
                                    "%s: file=%p is not a file: no files exist (MPI-IO "
                                    "is not implemented; only MPI_FILE_NULL's error handler can be "
                                    "used)",
                                    fn, (void *)file));
}

TERN_WEAK_ALIAS(MPI_File_set_errhandler)
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_File_set_errhandler";
    struct tern_errhandler *e;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(chk_file(fn, file));
    e = errhandler == MPI_ERRHANDLER_NULL ? NULL : tern_errh_get(errhandler);
    if (!e || (!tern_errh_is_predefined(e) && e->kind != TERN_ERRH_USER_FILE)) {
        rc = file_raise(tern_err_make(MPI_ERR_ARG,
                                      "%s: errhandler=0x%x is not a file error handler "
                                      "(predefined or made by MPI_File_create_errhandler)",
                                      fn, (unsigned)errhandler));
        goto out;
    }
    tern_errh_set_file_null(e);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_get_errhandler)
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_File_get_errhandler";
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(chk_file(fn, file));
    if (!errhandler) {
        rc = file_raise(tern_err_make(MPI_ERR_ARG, "%s: errhandler is NULL", fn));
        goto out;
    }
    /* A new reference, as MPI_Comm_get_errhandler gives. */
    struct tern_errhandler *e = tern_errh_file_null();
    tern_errh_retain(e);
    *errhandler = e->handle;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_call_errhandler)
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    static const char fn[] = "MPI_File_call_errhandler";
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(chk_file(fn, fh));
    tern_err_raise_file(tern_errh_file_null(), fh, errorcode);
    rc = MPI_SUCCESS; /* as MPI_Comm_call_errhandler: the handler returned */
out:
    tern_unlock();
    return rc;
}
