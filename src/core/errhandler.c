/* Error handler objects: the three predefined ones and those the user makes
 * with MPI_Comm_create_errhandler.  Invoking them is core/errors.c's job. */
#include <stdlib.h>

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

struct tern_errhandler *tern_errh_create_comm(MPI_Comm_errhandler_function *fn)
{
    struct tern_errhandler *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->refcount = 1;
    e->kind = TERN_ERRH_USER_COMM;
    e->comm_fn = fn;
    e->handle = tern_objtab_insert(&tern_errh_table, e);
    if (!e->handle) {
        free(e);
        return NULL;
    }
    return e;
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
    tern_objtab_foreach(&tern_errh_table, errh_drop, NULL);
    tern_objtab_destroy(&tern_errh_table);
}
