/* MPI_Type_create_subarray and MPI_Type_create_darray with their
 * large-count forms (MPI 4.1 sections 5.1.3, 5.1.4): the argument checks.
 * Negative extents are MPI_ERR_COUNT like the other constructors' counts;
 * shapes that do not fit are MPI_ERR_ARG; a rank outside the process grid
 * is MPI_ERR_RANK.  The entry points, the init test and the lock, are
 * generated (src/api/gen/bindings_datatype_array.c). */
#include <stdio.h>

#include "api/gen/bindings.h"
#include "datatype/dt_api.h"

static int check_order(const char *fn, int order)
{
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: order=%d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", fn,
                             order);
    return MPI_SUCCESS;
}

/* element i of array 'name' is >= lo (lo is 0 or 1) */
static int check_elem(const char *fn, const char *name, int i, MPI_Count v, MPI_Count lo)
{
    if (v < 0)
        return tern_err_comm(NULL, MPI_ERR_COUNT, "%s: %s[%d]=%ld must be >= 0", fn, name, i,
                             (long)v);
    if (v < lo)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s[%d]=%ld must be > 0", fn, name, i, (long)v);
    return MPI_SUCCESS;
}

static int check_ndims(const char *fn, int ndims)
{
    if (ndims <= 0)
        return tern_err_comm(NULL, ndims < 0 ? MPI_ERR_COUNT : MPI_ERR_ARG,
                             "%s: ndims=%d must be > 0", fn, ndims);
    return MPI_SUCCESS;
}

static int type_subarray(const char *fn, int large, int ndims, const void *sizes,
                         const void *subsizes, const void *starts, int order, MPI_Datatype oldtype,
                         MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    struct tern_dt_arr sz = tern_dt_arr_of(large, sizes), sub = tern_dt_arr_of(large, subsizes),
                       st = tern_dt_arr_of(large, starts);
    int rc;
    if ((rc = check_ndims(fn, ndims)) || (rc = tern_arg_ptr(sizes, fn, "array_of_sizes")) ||
        (rc = tern_arg_ptr(subsizes, fn, "array_of_subsizes")) ||
        (rc = tern_arg_ptr(starts, fn, "array_of_starts")))
        return rc;
    for (int i = 0; i < ndims; i++) {
        MPI_Count n = tern_dt_arr_at(sz, (size_t)i), s = tern_dt_arr_at(sub, (size_t)i),
                  b = tern_dt_arr_at(st, (size_t)i);
        if ((rc = check_elem(fn, "array_of_sizes", i, n, 1)) ||
            (rc = check_elem(fn, "array_of_subsizes", i, s, 0)) ||
            (rc = check_elem(fn, "array_of_starts", i, b, 0)))
            return rc;
        if (s > n - b)
            return tern_err_comm(NULL, MPI_ERR_ARG,
                                 "%s: dimension %d: array_of_starts[%d]=%ld + "
                                 "array_of_subsizes[%d]=%ld exceeds array_of_sizes[%d]=%ld",
                                 fn, i, i, (long)b, i, (long)s, i, (long)n);
    }
    if ((rc = check_order(fn, order)) || (rc = tern_arg_type(oldtype, fn, "oldtype", &old)) ||
        (rc = tern_arg_ptr(newtype, fn, "newtype")))
        return rc;
    rc = tern_dt_subarray(ndims, sz, sub, st, order, old, &nt);
    return tern_dt_ctor_done(rc, fn, large, nt, newtype);
}

int tern_api_type_create_subarray(const char *fn, int ndims, const int array_of_sizes[],
                                  const int array_of_subsizes[], const int array_of_starts[],
                                  int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_subarray(fn, 0, ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                         oldtype, newtype);
}

int tern_api_type_create_subarray_c(const char *fn, int ndims, const MPI_Count array_of_sizes[],
                                    const MPI_Count array_of_subsizes[],
                                    const MPI_Count array_of_starts[], int order,
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_subarray(fn, 1, ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                         oldtype, newtype);
}

/* One dimension of a darray: distribution, its argument, the grid. */
static int check_darray_dim(const char *fn, int i, MPI_Count g, int distrib, int darg, int p)
{
    int rc;
    if ((rc = check_elem(fn, "array_of_gsizes", i, g, 1)) ||
        (rc = check_elem(fn, "array_of_psizes", i, p, 1)))
        return rc;
    if (distrib != MPI_DISTRIBUTE_BLOCK && distrib != MPI_DISTRIBUTE_CYCLIC &&
        distrib != MPI_DISTRIBUTE_NONE)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: array_of_distribs[%d]=%d is not MPI_DISTRIBUTE_BLOCK, "
                             "MPI_DISTRIBUTE_CYCLIC or MPI_DISTRIBUTE_NONE",
                             fn, i, distrib);
    if (distrib == MPI_DISTRIBUTE_NONE) {
        if (p != 1)
            return tern_err_comm(NULL, MPI_ERR_ARG,
                                 "%s: dimension %d is MPI_DISTRIBUTE_NONE but "
                                 "array_of_psizes[%d]=%d (must be 1)",
                                 fn, i, i, p);
        return MPI_SUCCESS;
    }
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: array_of_dargs[%d]=%d must be > 0 or MPI_DISTRIBUTE_DFLT_DARG",
                             fn, i, darg);
    if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
        (MPI_Count)darg * p < g)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: dimension %d: blocks of array_of_dargs[%d]=%d on "
                             "array_of_psizes[%d]=%d processes cannot cover "
                             "array_of_gsizes[%d]=%ld",
                             fn, i, i, darg, i, p, i, (long)g);
    return MPI_SUCCESS;
}

static int type_darray(const char *fn, int large, int size, int rank, int ndims, const void *gsizes,
                       const int distribs[], const int dargs[], const int psizes[], int order,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    struct tern_dt_arr g = tern_dt_arr_of(large, gsizes);
    int rc;
    if (size <= 0) return tern_err_comm(NULL, MPI_ERR_ARG, "%s: size=%d must be > 0", fn, size);
    if (rank < 0 || rank >= size)
        return tern_err_comm(NULL, MPI_ERR_RANK, "%s: rank=%d is outside [0, %d]", fn, rank,
                             size - 1);
    if ((rc = check_ndims(fn, ndims)) || (rc = tern_arg_ptr(gsizes, fn, "array_of_gsizes")) ||
        (rc = tern_arg_ptr(distribs, fn, "array_of_distribs")) ||
        (rc = tern_arg_ptr(dargs, fn, "array_of_dargs")) ||
        (rc = tern_arg_ptr(psizes, fn, "array_of_psizes")))
        return rc;
    long procs = 1;
    for (int i = 0; i < ndims; i++) {
        if ((rc = check_darray_dim(fn, i, tern_dt_arr_at(g, (size_t)i), distribs[i], dargs[i],
                                   psizes[i])))
            return rc;
        if (procs <= size) procs *= psizes[i];
    }
    if (procs != size)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: the product of array_of_psizes is not size=%d",
                             fn, size);
    if ((rc = check_order(fn, order)) || (rc = tern_arg_type(oldtype, fn, "oldtype", &old)) ||
        (rc = tern_arg_ptr(newtype, fn, "newtype")))
        return rc;
    rc = tern_dt_darray(size, rank, ndims, g, distribs, dargs, psizes, order, old, &nt);
    return tern_dt_ctor_done(rc, fn, large, nt, newtype);
}

int tern_api_type_create_darray(const char *fn, int size, int rank, int ndims,
                                const int array_of_gsizes[], const int array_of_distribs[],
                                const int array_of_dargs[], const int array_of_psizes[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_darray(fn, 0, size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                       array_of_psizes, order, oldtype, newtype);
}

int tern_api_type_create_darray_c(const char *fn, int size, int rank, int ndims,
                                  const MPI_Count array_of_gsizes[], const int array_of_distribs[],
                                  const int array_of_dargs[], const int array_of_psizes[],
                                  int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_darray(fn, 1, size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                       array_of_psizes, order, oldtype, newtype);
}
