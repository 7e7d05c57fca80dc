/* Windows.  One-sided communication is not implemented yet, so no window
 * exists; these are the window calls that have an answer all the same.
 * (The error-handler and info calls on windows live with their kind, in
 * errhandler.c and info.c.) */
#include <string.h>

#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"

/* MPI-4.1 names the null handle too, and MPICH answers it: mpi4py asks. */
TERN_WEAK_ALIAS(MPI_Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    static const char fn[] = "MPI_Win_get_name";
    if (win != MPI_WIN_NULL) return tern_err_no_window(fn, win);
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc = tern_check_ptr(NULL, win_name, fn, "win_name");
    if (rc == MPI_SUCCESS) rc = tern_check_ptr(NULL, resultlen, fn, "resultlen");
    if (rc == MPI_SUCCESS) {
        static const char name[] = "MPI_WIN_NULL";
        memcpy(win_name, name, sizeof name);
        *resultlen = (int)strlen(name);
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    (void)win_name;
    return tern_err_no_window("MPI_Win_set_name", win);
}
