#include <time.h>

#include "core/api.h"

/* MPI_Wtime is called in timing loops: one vDSO clock read, no lock. */
TERN_WEAK_ALIAS(MPI_Wtime)
double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

TERN_WEAK_ALIAS(MPI_Wtick)
double PMPI_Wtick(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0) return 1e-9;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
