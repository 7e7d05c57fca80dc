/* MPI_Aint_add and MPI_Aint_diff: address arithmetic on MPI_Aint.
 *
 * On the flat address spaces Tern runs on, an address is its integer value,
 * so these are plain addition and subtraction.  They are done in unsigned
 * arithmetic: MPI_Aint is signed and addresses may lie above LONG_MAX, where
 * signed overflow would be undefined; the result wraps the way the hardware
 * address does. */
#include "core/api.h"

TERN_WEAK_ALIAS(MPI_Aint_add)
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((unsigned long)base + (unsigned long)disp);
}

TERN_WEAK_ALIAS(MPI_Aint_diff)
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((unsigned long)addr1 - (unsigned long)addr2);
}
