/* What a datatype is: size, bounds, name, envelope and contents, and the
 * address of a location (MPI 4.1 sections 5.1.5, 5.1.11, 5.1.13, 7.8). */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "api/locked.h"
#include "datatype/dt_api.h"

/* ---- size ---- */

static int type_size(const char *fn, MPI_Datatype datatype, MPI_Count *size, int *isize)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(size ? (const void *)size : (const void *)isize, fn, "size")))
        return rc;
    if (size)
        *size = (MPI_Count)dt->size;
    else
        *isize = dt->size > (size_t)INT_MAX ? MPI_UNDEFINED : (int)dt->size;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_size)
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    TERN_LOCKED_CALL("MPI_Type_size", type_size, datatype, NULL, size);
}

TERN_WEAK_ALIAS(MPI_Type_size_x)
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    TERN_LOCKED_CALL("MPI_Type_size_x", type_size, datatype, size, NULL);
}

/* ---- bounds: which 0 = (lb, extent), 1 = (true_lb, true_extent) ---- */

static int type_bounds(const char *fn, MPI_Datatype datatype, int which, MPI_Aint *a,
                       MPI_Aint *b)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(a, fn, which ? "true_lb" : "lb")) ||
        (rc = tern_arg_ptr(b, fn, which ? "true_extent" : "extent")))
        return rc;
    *a = which ? dt->true_lb : dt->lb;
    *b = which ? dt->true_ub - dt->true_lb : dt->extent;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_get_extent)
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    TERN_LOCKED_CALL("MPI_Type_get_extent", type_bounds, datatype, 0, lb, extent);
}

TERN_WEAK_ALIAS(MPI_Type_get_extent_x)
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    _Static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint), "MPI_Count and MPI_Aint differ");
    TERN_LOCKED_CALL("MPI_Type_get_extent_x", type_bounds, datatype, 0, (MPI_Aint *)lb,
                     (MPI_Aint *)extent);
}

TERN_WEAK_ALIAS(MPI_Type_get_true_extent)
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    TERN_LOCKED_CALL("MPI_Type_get_true_extent", type_bounds, datatype, 1, true_lb, true_extent);
}

TERN_WEAK_ALIAS(MPI_Type_get_true_extent_x)
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    TERN_LOCKED_CALL("MPI_Type_get_true_extent_x", type_bounds, datatype, 1, (MPI_Aint *)true_lb,
                     (MPI_Aint *)true_extent);
}

/* MPI-1: one bound at a time.  which: 0 extent, 1 lb, 2 ub. */
static int type_bound1(const char *fn, MPI_Datatype datatype, int which, MPI_Aint *out)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(out, fn, which ? "displacement" : "extent")))
        return rc;
    *out = which == 0 ? dt->extent : which == 1 ? dt->lb : dt->ub;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_extent)
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    TERN_LOCKED_CALL("MPI_Type_extent", type_bound1, datatype, 0, extent);
}

TERN_WEAK_ALIAS(MPI_Type_lb)
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    TERN_LOCKED_CALL("MPI_Type_lb", type_bound1, datatype, 1, displacement);
}

TERN_WEAK_ALIAS(MPI_Type_ub)
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    TERN_LOCKED_CALL("MPI_Type_ub", type_bound1, datatype, 2, displacement);
}

/* ---- names ---- */

static int type_set_name(const char *fn, MPI_Datatype datatype, const char *name)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(name, fn, "type_name")))
        return rc;
    /* longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters */
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(dt->name, name, n);
    dt->name[n] = '\0';
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_set_name)
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    TERN_LOCKED_CALL("MPI_Type_set_name", type_set_name, datatype, type_name);
}

static int type_get_name(const char *fn, MPI_Datatype datatype, char *name, int *resultlen)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(name, fn, "type_name")) ||
        (rc = tern_arg_ptr(resultlen, fn, "resultlen")))
        return rc;
    size_t n = strnlen(dt->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(name, dt->name, n);
    name[n] = '\0';
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_get_name)
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    TERN_LOCKED_CALL("MPI_Type_get_name", type_get_name, datatype, type_name, resultlen);
}

/* ---- envelope and contents ---- */

static int type_get_envelope(const char *fn, MPI_Datatype datatype, int *ni, int *na, int *nd,
                             int *combiner)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(ni, fn, "num_integers")) ||
        (rc = tern_arg_ptr(na, fn, "num_addresses")) ||
        (rc = tern_arg_ptr(nd, fn, "num_datatypes")) ||
        (rc = tern_arg_ptr(combiner, fn, "combiner")))
        return rc;
    tern_dt_envelope(dt, ni, na, nd, combiner);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_get_envelope)
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    TERN_LOCKED_CALL("MPI_Type_get_envelope", type_get_envelope, datatype, num_integers,
                     num_addresses, num_datatypes, combiner);
}

static int type_get_contents(const char *fn, MPI_Datatype datatype, int max_integers,
                             int max_addresses, int max_datatypes, int ints[], MPI_Aint addrs[],
                             MPI_Datatype types[])
{
    struct tern_datatype *dt;
    int rc, ni, na, nd, comb;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt))) return rc;
    tern_dt_envelope(dt, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED)
        return tern_err_comm(NULL, MPI_ERR_TYPE,
                             "%s: datatype %s is predefined: it has no contents", fn, dt->name);
    if (max_integers < ni || max_addresses < na || max_datatypes < nd)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: max_integers=%d, max_addresses=%d, max_datatypes=%d are "
                             "smaller than the %d, %d, %d MPI_Type_get_envelope gives",
                             fn, max_integers, max_addresses, max_datatypes, ni, na, nd);
    /* An array the caller says has room must be there, even when this type
     * puts nothing in it (as MPICH checks). */
    if ((max_integers && (rc = tern_arg_ptr(ints, fn, "array_of_integers"))) ||
        (max_addresses && (rc = tern_arg_ptr(addrs, fn, "array_of_addresses"))) ||
        (max_datatypes && (rc = tern_arg_ptr(types, fn, "array_of_datatypes"))))
        return rc;
    rc = tern_dt_contents(dt, max_integers, max_addresses, max_datatypes, ints, addrs, types);
    if (rc) return tern_err_comm(NULL, rc, "%s: out of handles for the old datatypes", fn);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_get_contents)
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    TERN_LOCKED_CALL("MPI_Type_get_contents", type_get_contents, datatype, max_integers,
                     max_addresses, max_datatypes, array_of_integers, array_of_addresses,
                     array_of_datatypes);
}

/* ---- addresses (no initialisation needed: pure arithmetic) ---- */

static int address_of(const char *fn, const void *location, MPI_Aint *address)
{
    int rc = tern_arg_ptr(address, fn, "address");
    if (rc) return rc;
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Get_address)
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    return address_of("MPI_Get_address", location, address);
}

TERN_WEAK_ALIAS(MPI_Address)
int PMPI_Address(void *location, MPI_Aint *address)
{
    return address_of("MPI_Address", location, address);
}
