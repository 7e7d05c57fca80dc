/* Data representations the program registers (MPI_Register_datarep).
 * A representation registered without conversion functions stores the
 * memory layout as it is, so a view may name it and access works as with
 * "native"; conversion functions are not called yet, so a view naming a
 * representation that has them is refused with MPI_ERR_UNSUPPORTED_DATAREP.
 * Registrations last as long as the process, as MPI-4.1 14.5.3 says. */
#include <stdlib.h>
#include <string.h>

#include "io/io.h"

struct datarep {
    struct datarep *next;
    char name[MPI_MAX_DATAREP_STRING];
    int converts; /* it has a read or a write conversion function */
};

static struct datarep *reps;

static const struct datarep *find(const char *name)
{
    for (const struct datarep *d = reps; d; d = d->next)
        if (strcmp(d->name, name) == 0) return d;
    return NULL;
}

int tern_datarep_register(const char *fn, const char *name, int converts)
{
    if (strlen(name) >= MPI_MAX_DATAREP_STRING)
        return tern_io_err(NULL, MPI_ERR_ARG, "%s: datarep '%.40s...' is longer than %d characters",
                           fn, name, MPI_MAX_DATAREP_STRING - 1);
    if (!strcmp(name, "native") || !strcmp(name, "internal") || !strcmp(name, "external32") ||
        find(name))
        return tern_io_err(NULL, MPI_ERR_DUP_DATAREP, "%s: datarep '%s' is already defined", fn,
                           name);
    struct datarep *d = calloc(1, sizeof *d);
    if (!d) return tern_io_err(NULL, MPI_ERR_NO_MEM, "%s: cannot register '%s'", fn, name);
    strcpy(d->name, name);
    d->converts = converts;
    d->next = reps;
    reps = d;
    return MPI_SUCCESS;
}

int tern_datarep_lookup(const char *name)
{
    const struct datarep *d = find(name);
    return !d ? -1 : d->converts;
}
