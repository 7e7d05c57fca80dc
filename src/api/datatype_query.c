/* What a datatype is: size, bounds, name, envelope and contents (with
 * their large-count forms), the predefined type that fits a description
 * (MPI_Type_match_size, MPI_Type_get_value_index), and the address of a
 * location.  The entry points are generated
 * (src/api/gen/bindings_datatype_query.c). */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "api/gen/bindings.h"
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

int tern_api_type_size(const char *fn, MPI_Datatype datatype, int *size)
{
    return type_size(fn, datatype, NULL, size);
}

int tern_api_type_size_x(const char *fn, MPI_Datatype datatype, MPI_Count *size)
{
    return type_size(fn, datatype, size, NULL);
}

int tern_api_type_size_c(const char *fn, MPI_Datatype datatype, MPI_Count *size)
{
    return type_size(fn, datatype, size, NULL);
}

/* ---- bounds: which 0 = (lb, extent), 1 = (true_lb, true_extent) ---- */

static int type_bounds(const char *fn, MPI_Datatype datatype, int which, MPI_Aint *a, MPI_Aint *b)
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

int tern_api_type_get_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return type_bounds(fn, datatype, 0, lb, extent);
}

int tern_api_type_get_extent_x(const char *fn, MPI_Datatype datatype, MPI_Count *lb,
                               MPI_Count *extent)
{
    _Static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint), "MPI_Count and MPI_Aint differ");
    return type_bounds(fn, datatype, 0, (MPI_Aint *)lb, (MPI_Aint *)extent);
}

int tern_api_type_get_extent_c(const char *fn, MPI_Datatype datatype, MPI_Count *lb,
                               MPI_Count *extent)
{
    return type_bounds(fn, datatype, 0, lb, extent);
}

int tern_api_type_get_true_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *true_lb,
                                  MPI_Aint *true_extent)
{
    return type_bounds(fn, datatype, 1, true_lb, true_extent);
}

int tern_api_type_get_true_extent_x(const char *fn, MPI_Datatype datatype, MPI_Count *true_lb,
                                    MPI_Count *true_extent)
{
    return type_bounds(fn, datatype, 1, (MPI_Aint *)true_lb, (MPI_Aint *)true_extent);
}

int tern_api_type_get_true_extent_c(const char *fn, MPI_Datatype datatype, MPI_Count *true_lb,
                                    MPI_Count *true_extent)
{
    return type_bounds(fn, datatype, 1, true_lb, true_extent);
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

int tern_api_type_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *extent)
{
    return type_bound1(fn, datatype, 0, extent);
}

int tern_api_type_lb(const char *fn, MPI_Datatype datatype, MPI_Aint *displacement)
{
    return type_bound1(fn, datatype, 1, displacement);
}

int tern_api_type_ub(const char *fn, MPI_Datatype datatype, MPI_Aint *displacement)
{
    return type_bound1(fn, datatype, 2, displacement);
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

int tern_api_type_set_name(const char *fn, MPI_Datatype datatype, const char *type_name)
{
    return type_set_name(fn, datatype, type_name);
}

static int type_get_name(const char *fn, MPI_Datatype datatype, char *name, int *resultlen)
{
    struct tern_datatype *dt;
    int rc;
    /* MPI-4.1 names the null handle too. */
    const char *src = "MPI_DATATYPE_NULL";
    if (datatype != MPI_DATATYPE_NULL) {
        if ((rc = tern_arg_type(datatype, fn, "datatype", &dt))) return rc;
        src = dt->name;
    }
    if ((rc = tern_arg_ptr(name, fn, "type_name")) ||
        (rc = tern_arg_ptr(resultlen, fn, "resultlen")))
        return rc;
    size_t n = strnlen(src, MPI_MAX_OBJECT_NAME - 1);
    memcpy(name, src, n);
    name[n] = '\0';
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

int tern_api_type_get_name(const char *fn, MPI_Datatype datatype, char *type_name, int *resultlen)
{
    return type_get_name(fn, datatype, type_name, resultlen);
}

/* ---- envelope and contents ---- */

/* The int forms cannot describe a type from a large-count constructor. */
static int check_int_form(const char *fn, const struct tern_datatype *dt, int large)
{
    if (large || !tern_dt_needs_large(dt)) return MPI_SUCCESS;
    char lbl[MPI_MAX_OBJECT_NAME + 24];
    return tern_err_comm(NULL, MPI_ERR_TYPE,
                         "%s: datatype %s was made by a large-count constructor: use %s_c", fn,
                         tern_dt_label(dt, lbl, sizeof lbl), fn);
}

/* large: the MPI_Type_get_envelope_c form, whose counts are MPI_Count and
 * which has nc; the int form passes int pointers and no nc. */
static int type_get_envelope(const char *fn, int large, MPI_Datatype datatype, void *ni, void *na,
                             MPI_Count *nc, void *nd, int *combiner)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(ni, fn, "num_integers")) ||
        (rc = tern_arg_ptr(na, fn, "num_addresses")) ||
        (large && (rc = tern_arg_ptr(nc, fn, "num_large_counts"))) ||
        (rc = tern_arg_ptr(nd, fn, "num_datatypes")) ||
        (rc = tern_arg_ptr(combiner, fn, "combiner")) || (rc = check_int_form(fn, dt, large)))
        return rc;
    struct tern_dt_env env;
    tern_dt_envelope(dt, large, &env);
    if (large) {
        *(MPI_Count *)ni = env.nints;
        *(MPI_Count *)na = env.naddrs;
        *nc = env.ncounts;
        *(MPI_Count *)nd = env.ntypes;
    } else {
        *(int *)ni = (int)env.nints;
        *(int *)na = (int)env.naddrs;
        *(int *)nd = (int)env.ntypes;
    }
    *combiner = env.combiner;
    return MPI_SUCCESS;
}

int tern_api_type_get_envelope(const char *fn, MPI_Datatype datatype, int *num_integers,
                               int *num_addresses, int *num_datatypes, int *combiner)
{
    return type_get_envelope(fn, 0, datatype, num_integers, num_addresses, NULL, num_datatypes,
                             combiner);
}

int tern_api_type_get_envelope_c(const char *fn, MPI_Datatype datatype, MPI_Count *num_integers,
                                 MPI_Count *num_addresses, MPI_Count *num_large_counts,
                                 MPI_Count *num_datatypes, int *combiner)
{
    return type_get_envelope(fn, 1, datatype, num_integers, num_addresses, num_large_counts,
                             num_datatypes, combiner);
}

static int type_get_contents(const char *fn, int large, MPI_Datatype datatype,
                             MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int ints[],
                             MPI_Aint addrs[], MPI_Count counts[], MPI_Datatype types[])
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = tern_arg_type(datatype, fn, "datatype", &dt))) return rc;
    struct tern_dt_env env, max = {max_integers, max_addresses, max_large_counts, max_datatypes, 0};
    tern_dt_envelope(dt, large, &env);
    if (env.combiner == MPI_COMBINER_NAMED)
        return tern_err_comm(NULL, MPI_ERR_TYPE,
                             "%s: datatype %s is predefined: it has no contents", fn, dt->name);
    if ((rc = check_int_form(fn, dt, large))) return rc;
    if (max.nints < env.nints || max.naddrs < env.naddrs || max.ncounts < env.ncounts ||
        max.ntypes < env.ntypes) {
        if (large)
            return tern_err_comm(NULL, MPI_ERR_ARG,
                                 "%s: max_integers=%ld, max_addresses=%ld, max_large_counts=%ld, "
                                 "max_datatypes=%ld are smaller than the %ld, %ld, %ld, %ld "
                                 "MPI_Type_get_envelope_c gives",
                                 fn, (long)max.nints, (long)max.naddrs, (long)max.ncounts,
                                 (long)max.ntypes, (long)env.nints, (long)env.naddrs,
                                 (long)env.ncounts, (long)env.ntypes);
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: max_integers=%ld, max_addresses=%ld, max_datatypes=%ld are "
                             "smaller than the %ld, %ld, %ld MPI_Type_get_envelope gives",
                             fn, (long)max.nints, (long)max.naddrs, (long)max.ntypes,
                             (long)env.nints, (long)env.naddrs, (long)env.ntypes);
    }
    /* An array the caller says has room must be there, even when this type
     * puts nothing in it (as MPICH checks). */
    if ((max.nints > 0 && (rc = tern_arg_ptr(ints, fn, "array_of_integers"))) ||
        (max.naddrs > 0 && (rc = tern_arg_ptr(addrs, fn, "array_of_addresses"))) ||
        (max.ncounts > 0 && (rc = tern_arg_ptr(counts, fn, "array_of_large_counts"))) ||
        (max.ntypes > 0 && (rc = tern_arg_ptr(types, fn, "array_of_datatypes"))))
        return rc;
    rc = tern_dt_contents(dt, large, &max, ints, addrs, counts, types);
    if (rc) return tern_err_comm(NULL, rc, "%s: out of handles for the old datatypes", fn);
    return MPI_SUCCESS;
}

int tern_api_type_get_contents(const char *fn, MPI_Datatype datatype, int max_integers,
                               int max_addresses, int max_datatypes, int array_of_integers[],
                               MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    return type_get_contents(fn, 0, datatype, max_integers, max_addresses, 0, max_datatypes,
                             array_of_integers, array_of_addresses, NULL, array_of_datatypes);
}

int tern_api_type_get_contents_c(const char *fn, MPI_Datatype datatype, MPI_Count max_integers,
                                 MPI_Count max_addresses, MPI_Count max_large_counts,
                                 MPI_Count max_datatypes, int array_of_integers[],
                                 MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                 MPI_Datatype array_of_datatypes[])
{
    return type_get_contents(fn, 1, datatype, max_integers, max_addresses, max_large_counts,
                             max_datatypes, array_of_integers, array_of_addresses,
                             array_of_large_counts, array_of_datatypes);
}

/* ---- predefined types by description ---- */

static int type_match_size(const char *fn, int typeclass, int size, MPI_Datatype *datatype)
{
    /* the Fortran types of each class by size, as MPICH answers */
    static const struct {
        int cls, size;
        MPI_Datatype t;
    } match[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},   {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},   {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},         {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, 16, MPI_REAL16},       {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16}, {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    static const char *const cls_name[] = {"", "MPI_TYPECLASS_REAL", "MPI_TYPECLASS_INTEGER",
                                           "MPI_TYPECLASS_COMPLEX"};
    int rc = tern_arg_ptr(datatype, fn, "datatype");
    if (rc) return rc;
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
        typeclass != MPI_TYPECLASS_COMPLEX)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: typeclass=%d is not MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_REAL "
                             "or MPI_TYPECLASS_COMPLEX",
                             fn, typeclass);
    for (size_t i = 0; i < sizeof match / sizeof match[0]; i++)
        if (match[i].cls == typeclass && match[i].size == size) {
            *datatype = match[i].t;
            return MPI_SUCCESS;
        }
    return tern_err_comm(NULL, MPI_ERR_ARG, "%s: no datatype of typeclass %s has size=%d", fn,
                         cls_name[typeclass], size);
}

int tern_api_type_match_size(const char *fn, int typeclass, int size, MPI_Datatype *datatype)
{
    return type_match_size(fn, typeclass, size, datatype);
}

static int type_get_value_index(const char *fn, MPI_Datatype value_type, MPI_Datatype index_type,
                                MPI_Datatype *pair_type)
{
    /* the predefined value-index pairs (MPI 4.1 section 6.9.4) */
    static const struct {
        MPI_Datatype v, i, pair;
    } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    struct tern_datatype *v, *i;
    int rc;
    if ((rc = tern_arg_type(value_type, fn, "value_type", &v)) ||
        (rc = tern_arg_type(index_type, fn, "index_type", &i)) ||
        (rc = tern_arg_ptr(pair_type, fn, "pair_type")))
        return rc;
    *pair_type = MPI_DATATYPE_NULL; /* no predefined pair: the standard's answer */
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (pairs[k].v == value_type && pairs[k].i == index_type) *pair_type = pairs[k].pair;
    return MPI_SUCCESS;
}

int tern_api_type_get_value_index(const char *fn, MPI_Datatype value_type, MPI_Datatype index_type,
                                  MPI_Datatype *pair_type)
{
    return type_get_value_index(fn, value_type, index_type, pair_type);
}

/* ---- addresses (no initialisation needed: pure arithmetic) ---- */

int tern_api_get_address(const char *fn, const void *location, MPI_Aint *address)
{
    (void)fn;
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
