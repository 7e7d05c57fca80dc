/* Data representations the program registers (MPI_Register_datarep and
 * its _c form, MPI-4.1 14.5.3): the name, the conversion functions (either
 * may be MPI_CONVERSION_FN_NULL) and the extent function, which
 * io/file_convert.c calls.  Registrations last as long as the process, as
 * the standard says, so a view may keep a pointer to one. */
#include <stdlib.h>
#include <string.h>

#include "io/io.h"

static struct tern_datarep *reps;

const struct tern_datarep *tern_datarep_find(const char *name)
{
    for (const struct tern_datarep *d = reps; d; d = d->next)
        if (strcmp(d->name, name) == 0) return d;
    return NULL;
}

int tern_datarep_register(const char *fn, const char *name, const struct tern_datarep *proto)
{
    if (strlen(name) >= MPI_MAX_DATAREP_STRING)
        return tern_io_err(NULL, MPI_ERR_ARG, "%s: datarep '%.40s...' is longer than %d characters",
                           fn, name, MPI_MAX_DATAREP_STRING - 1);
    if (!strcmp(name, "native") || !strcmp(name, "internal") || !strcmp(name, "external32") ||
        tern_datarep_find(name))
        return tern_io_err(NULL, MPI_ERR_DUP_DATAREP, "%s: datarep '%s' is already defined", fn,
                           name);
    struct tern_datarep *d = malloc(sizeof *d);
    if (!d) return tern_io_err(NULL, MPI_ERR_NO_MEM, "%s: cannot register '%s'", fn, name);
    *d = *proto;
    strcpy(d->name, name);
    d->next = reps;
    reps = d;
    return MPI_SUCCESS;
}
