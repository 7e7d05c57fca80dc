/* MPI_Type_create_f90_integer, _real and _complex: the datatype matching a
 * Fortran 90 parameterized type (src/datatype/dt_f90.c).  The entry points
 * are generated (src/api/gen/bindings_datatype_f90.c). */
#include "api/gen/bindings.h"
#include "datatype/dt_api.h"

/* p or r may be MPI_UNDEFINED (not asked for), as long as one is given:
 * SELECTED_REAL_KIND needs one of them. */
static int create_f90(const char *fn, int combiner, int p, int r, MPI_Datatype *newtype)
{
    int rc = tern_arg_ptr(newtype, fn, "newtype");
    if (rc) return rc;
    int integer = combiner == MPI_COMBINER_F90_INTEGER;
    if (!integer && p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: p and r are both MPI_UNDEFINED (at most one may be)", fn);
    struct tern_datatype *dt;
    rc = tern_dt_f90(combiner, p, r, &dt);
    if (rc == MPI_ERR_ARG && integer)
        return tern_err_comm(
            NULL, rc, "%s: r=%d: no integer type has that many decimal digits (at most 18)", fn, r);
    if (rc == MPI_ERR_ARG)
        return tern_err_comm(
            NULL, rc,
            "%s: p=%d, r=%d: no %s type has that precision and range (at most p=15, r=307)", fn, p,
            r, combiner == MPI_COMBINER_F90_REAL ? "real" : "complex");
    if (rc) return tern_err_comm(NULL, rc, "%s: out of memory creating the type", fn);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

int tern_api_type_create_f90_integer(const char *fn, int r, MPI_Datatype *newtype)
{
    return create_f90(fn, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, newtype);
}

int tern_api_type_create_f90_real(const char *fn, int p, int r, MPI_Datatype *newtype)
{
    return create_f90(fn, MPI_COMBINER_F90_REAL, p, r, newtype);
}

int tern_api_type_create_f90_complex(const char *fn, int p, int r, MPI_Datatype *newtype)
{
    return create_f90(fn, MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}
