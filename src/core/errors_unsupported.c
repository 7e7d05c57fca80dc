/* The error of a procedure Tern does not have yet.  The generated entry
 * points (src/api/unimplemented.c) report MPI_ERR_UNSUPPORTED_OPERATION,
 * naming the call, on the handler the standard names for an error in that
 * call (MPI-4.1 9.3): the communicator's, window's or file's it refers to,
 * and MPI_COMM_SELF's for a call that refers to no object (2.8).
 * tools/gen/genapi.py picks the helper from the procedure's parameters. */
#include "core/api.h"
#include "core/errhandler.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"

static int make(const char *mpi_name)
{
    return tern_err_make(MPI_ERR_UNSUPPORTED_OPERATION, "%s is not implemented in Tern yet",
                         mpi_name);
}

/* Errors without an object (or whose object handle is not valid) go to
 * MPI_COMM_SELF in the world model.  A process using only sessions has no
 * MPI_COMM_SELF: tern_err_raise's default then applies. */
static int raise_unbound(int code)
{
    return tern_err_raise(tern_g.world_state == TERN_STATE_ACTIVE ? &tern_comm_self : NULL, code);
}

/* Outside Init..Finalize no handler exists: the default, fatal, applies. */
static void require_init(const char *mpi_name)
{
    if (tern_g.init_state != TERN_STATE_ACTIVE)
        tern_fatal("%s is not implemented in Tern yet (MPI_ERR_UNSUPPORTED_OPERATION)", mpi_name);
}

int tern_err_unsupported(const char *mpi_name)
{
    require_init(mpi_name);
    tern_lock();
    int rc = raise_unbound(make(mpi_name));
    tern_unlock();
    return rc;
}

int tern_err_unsupported_comm(const char *mpi_name, MPI_Comm comm)
{
    require_init(mpi_name);
    tern_lock();
    struct tern_comm *c = comm == MPI_COMM_NULL ? NULL : tern_comm_get(comm);
    int code = make(mpi_name);
    int rc = c ? tern_err_raise(c, code) : raise_unbound(code);
    tern_unlock();
    return rc;
}

int tern_err_unsupported_win(const char *mpi_name, MPI_Win win)
{
    /* Every window procedure is implemented (rma/); should one be missing
     * again, its error goes where errors without an object go: the window's
     * handler lies in rma/, above this layer. */
    (void)win;
    return tern_err_unsupported(mpi_name);
}

int tern_err_unsupported_file(const char *mpi_name, MPI_File file)
{
    /* The missing I/O calls take no file (MPI_Register_datarep): their
     * errors go to MPI_FILE_NULL's handler (14.7), which is
     * MPI_ERRORS_RETURN unless the program set another. */
    (void)file;
    require_init(mpi_name);
    tern_lock();
    int rc = tern_err_raise_file(tern_errh_file_null(), MPI_FILE_NULL, make(mpi_name));
    tern_unlock();
    return rc;
}
