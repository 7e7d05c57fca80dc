/* MPI_Pcontrol: a message to whatever profiler is attached.
 *
 * The call has no effect in the library itself; a profiling tool that
 * interposes MPI_Pcontrol sees the level and its own extra arguments.  With
 * no tool attached, the MPI standard defines it to do nothing and succeed. */
#include "core/api.h"

TERN_WEAK_ALIAS(MPI_Pcontrol)
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
