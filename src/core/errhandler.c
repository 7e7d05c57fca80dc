/* Error handler objects: the three predefined ones and those the user makes
 * with MPI_Comm/Win/File_create_errhandler, and MPI_FILE_NULL's handler.
 * Invoking them is core/errors.c's job. */
#include <stdlib.h>

#include "core/errhandler.h"
#include "core/objects.h"

struct tern_errhandler tern_errh_fatal = {
    .handle = MPI_ERRORS_ARE_FATAL, .refcount = 1, .kind = TERN_ERRH_FATAL};
struct tern_errhandler tern_errh_return = {
    .handle = MPI_ERRORS_RETURN, .refcount = 1, .kind = TERN_ERRH_RETURN};
struct tern_errhandler tern_errh_abort = {
    .handle = MPI_ERRORS_ABORT, .refcount = 1, .kind = TERN_ERRH_ABORT};

struct tern_objtab tern_errh_table = {.kind = TERN_KIND_ERRHANDLER};

struct tern_errhandler *tern_errh_get(MPI_Errhandler h)
{
    if (h == MPI_ERRORS_ARE_FATAL) return &tern_errh_fatal;
    if (h == MPI_ERRORS_RETURN) return &tern_errh_return;
    if (h == MPI_ERRORS_ABORT) return &tern_errh_abort;
    return (struct tern_errhandler *)tern_objtab_lookup(&tern_errh_table, h);
}

int tern_errh_is_predefined(const struct tern_errhandler *e)
{
    return e == &tern_errh_fatal || e == &tern_errh_return || e == &tern_errh_abort;
}

static struct tern_errhandler *errh_new(enum tern_errh_kind kind)
{
    struct tern_errhandler *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->refcount = 1;
    e->kind = kind;
    e->handle = tern_objtab_insert(&tern_errh_table, e);
    if (!e->handle) {
        free(e);
        return NULL;
    }
    return e;
}

struct tern_errhandler *tern_errh_create_comm(MPI_Comm_errhandler_function *fn)
{
    struct tern_errhandler *e = errh_new(TERN_ERRH_USER_COMM);
    if (e) e->comm_fn = fn;
    return e;
}

struct tern_errhandler *tern_errh_create_win(MPI_Win_errhandler_function *fn)
{
    struct tern_errhandler *e = errh_new(TERN_ERRH_USER_WIN);
    if (e) e->win_fn = fn;
    return e;
}

struct tern_errhandler *tern_errh_create_file(MPI_File_errhandler_function *fn)
{
    struct tern_errhandler *e = errh_new(TERN_ERRH_USER_FILE);
    if (e) e->file_fn = fn;
    return e;
}

struct tern_errhandler *tern_errh_create_session(MPI_Session_errhandler_function *fn)
{
    struct tern_errhandler *e = errh_new(TERN_ERRH_USER_SESSION);
    if (e) e->session_fn = fn;
    return e;
}

/* MPI_FILE_NULL's handler: the one files would start with.  MPI-4.1 9.3.4
 * makes it MPI_ERRORS_RETURN until the user sets another. */
static struct tern_errhandler *file_null_errh = &tern_errh_return;

struct tern_errhandler *tern_errh_file_null(void) { return file_null_errh; }

void tern_errh_set_file_null(struct tern_errhandler *e)
{
    tern_errh_retain(e);
    tern_errh_release(file_null_errh);
    file_null_errh = e;
}

void tern_errh_release(struct tern_errhandler *e)
{
    if (!e || tern_errh_is_predefined(e)) return;
    if (--e->refcount > 0) return;
    if (tern_objtab_lookup(&tern_errh_table, e->handle) == e)
        tern_objtab_remove(&tern_errh_table, e->handle);
    free(e);
}

static void errh_drop(void *obj, void *arg)
{
    (void)arg;
    free(obj);
}

/* At finalize: whatever the user did not free goes (communicators released
 * theirs already). */
void tern_errh_finalize(void)
{
    tern_errh_set_file_null(&tern_errh_return);
    tern_objtab_foreach(&tern_errh_table, errh_drop, NULL);
    tern_objtab_destroy(&tern_errh_table);
}
