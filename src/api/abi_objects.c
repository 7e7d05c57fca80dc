/* Data objects and helper functions that programs built against MPICH's
 * mpi.h refer to by name.  Each has the size MPICH gives it, so that
 * executables holding copy relocations of them keep working.
 *
 * The header declares them (with default visibility); the objects they point
 * at are exported too because MPICH exports them. */
#include <stddef.h>

#include "core/api.h"

/* --- Graph topology weights -------------------------------------------
 * MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are distinct, non-NULL addresses that
 * can never be a user's array; 8 bytes each as in MPICH. */
TERN_EXPORT int MPIR_C_MPI_UNWEIGHTED[2];
TERN_EXPORT int MPIR_C_MPI_WEIGHTS_EMPTY[2];
TERN_EXPORT int *const MPI_UNWEIGHTED = MPIR_C_MPI_UNWEIGHTED;
TERN_EXPORT int *const MPI_WEIGHTS_EMPTY = MPIR_C_MPI_WEIGHTS_EMPTY;

/* --- Fortran status sentinels -----------------------------------------
 * What MPI_Status_f2c and friends compare a Fortran status pointer with.
 * They start out pointing at private arrays of a Fortran status's size, so
 * that no real status (and not NULL) matches; the Fortran bindings may
 * point them at their own MPI_STATUS(ES)_IGNORE when they initialise. */
static MPI_Fint tern_f_status_ignore[MPI_F_STATUS_SIZE];
static MPI_Fint tern_f_statuses_ignore[MPI_F_STATUS_SIZE];
TERN_EXPORT MPI_Fint *MPI_F_STATUS_IGNORE = tern_f_status_ignore;
TERN_EXPORT MPI_Fint *MPI_F_STATUSES_IGNORE = tern_f_statuses_ignore;

/* The mpi_f08 module's MPI_STATUS(ES)_IGNORE, MPI_IN_PLACE and MPI_BOTTOM
 * bind to these objects by name. */
TERN_EXPORT MPI_F08_status MPIR_F08_MPI_STATUS_IGNORE_OBJ;
TERN_EXPORT MPI_F08_status MPIR_F08_MPI_STATUSES_IGNORE_OBJ[1];
TERN_EXPORT int MPIR_F08_MPI_IN_PLACE;
TERN_EXPORT int MPIR_F08_MPI_BOTTOM;
TERN_EXPORT MPI_F08_status *MPI_F08_STATUS_IGNORE = &MPIR_F08_MPI_STATUS_IGNORE_OBJ;
TERN_EXPORT MPI_F08_status *MPI_F08_STATUSES_IGNORE = MPIR_F08_MPI_STATUSES_IGNORE_OBJ;

/* --- MPI_T ------------------------------------------------------------
 * MPI_T_PVAR_ALL_HANDLES only needs an address that no real performance
 * variable handle (and not MPI_T_PVAR_HANDLE_NULL) can have. */
static char tern_pvar_all_handles_anchor;
TERN_EXPORT struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES =
    (struct MPIR_T_pvar_handle_s *)(void *)&tern_pvar_all_handles_anchor;

/* --- Predefined attribute copy callback -------------------------------
 * MPI_DUP_FN, MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN and MPI_WIN_DUP_FN all name
 * this function: the copy gets the same attribute value. */
TERN_EXPORT int MPIR_Dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                            void *attribute_val_out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}
