/* What error handlers need beyond objects.h: MPI_FILE_NULL's handler (no
 * files exist, but the standard lets it be read, set and called), and
 * invoking a handler that is not a communicator's. */
#ifndef TERN_CORE_ERRHANDLER_H
#define TERN_CORE_ERRHANDLER_H

#include "core/objects.h"

struct tern_errhandler *tern_errh_file_null(void);
/* Takes a reference to e and drops the old handler's. */
void tern_errh_set_file_null(struct tern_errhandler *e);

/* Runs handler e for the file handle 'file' (errors.c): fatal and abort
 * handlers end the job, MPI_ERRORS_RETURN does nothing, a user file handler
 * is called.  Returns the code when the handler returns. */
int tern_err_raise_file(struct tern_errhandler *e, MPI_File file, int code);

/* The same for a window's handler (rma/): MPI_ERRORS_ARE_FATAL unless the
 * program set another. */
int tern_err_raise_win(struct tern_errhandler *e, MPI_Win win, int code);

#endif
