/* Datatype constructors, commit and free (MPI 4.1 sections 5.1.2-5.1.10),
 * with the MPI-1 names MPICH still exports (MPI_Type_hvector,
 * MPI_Type_hindexed, MPI_Type_struct): the bodies, which check every
 * argument in the constructor's order.  The entry points, the init test and
 * the lock, are generated (src/api/gen/bindings_datatype_create.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "api/gen/bindings.h"
#include "core/attr.h"
#include "datatype/dt_api.h"
#include "datatype/dt_internal.h"

/* The last checks of most constructors: the old type, then where the new
 * one goes. */
static int check_old_new(const char *fn, MPI_Datatype oldtype, struct tern_datatype **old,
                         MPI_Datatype *newtype)
{
    int rc = tern_arg_type(oldtype, fn, "oldtype", old);
    return rc ? rc : tern_arg_ptr(newtype, fn, "newtype");
}

/* A datatype passed by reference to commit or free: *datatype is live. */
static int check_type_ref(const char *fn, MPI_Datatype *datatype, struct tern_datatype **dt)
{
    int rc = tern_arg_ptr(datatype, fn, "datatype");
    return rc ? rc : tern_arg_type(*datatype, fn, "datatype", dt);
}

static int check_blocklengths(MPI_Count count, struct tern_dt_arr bl, const char *fn)
{
    for (MPI_Count i = 0; i < count; i++)
        if (tern_dt_arr_at(bl, (size_t)i) < 0)
            return tern_err_comm(NULL, MPI_ERR_COUNT,
                                 "%s: array_of_blocklengths[%ld]=%ld must be >= 0", fn, (long)i,
                                 (long)tern_dt_arr_at(bl, (size_t)i));
    return MPI_SUCCESS;
}

static int type_contiguous(const char *fn, int large, MPI_Count count, MPI_Datatype oldtype,
                           MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count")) ||
        (rc = check_old_new(fn, oldtype, &old, newtype)))
        return rc;
    rc = tern_dt_contiguous(count, old, &nt);
    return tern_dt_ctor_done(rc, fn, large, nt, newtype);
}

int tern_api_type_contiguous(const char *fn, int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_contiguous(fn, 0, count, oldtype, newtype);
}

int tern_api_type_contiguous_c(const char *fn, MPI_Count count, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    return type_contiguous(fn, 1, count, oldtype, newtype);
}

static int type_vector(const char *fn, int large, int hv, MPI_Count count, MPI_Count blocklength,
                       MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count")) ||
        (rc = tern_arg_nonneg(blocklength, MPI_ERR_COUNT, fn, "blocklength")) ||
        (rc = check_old_new(fn, oldtype, &old, newtype)))
        return rc;
    rc = hv ? tern_dt_hvector(count, blocklength, stride, old, &nt)
            : tern_dt_vector(count, blocklength, stride, old, &nt);
    return tern_dt_ctor_done(rc, fn, large, nt, newtype);
}

int tern_api_type_vector(const char *fn, int count, int blocklength, int stride,
                         MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_vector(fn, 0, 0, count, blocklength, stride, oldtype, newtype);
}

int tern_api_type_vector_c(const char *fn, MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                           MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_vector(fn, 1, 0, count, blocklength, stride, oldtype, newtype);
}

int tern_api_type_create_hvector(const char *fn, int count, int blocklength, MPI_Aint stride,
                                 MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_vector(fn, 0, 1, count, blocklength, stride, oldtype, newtype);
}

int tern_api_type_create_hvector_c(const char *fn, MPI_Count count, MPI_Count blocklength,
                                   MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_vector(fn, 1, 1, count, blocklength, stride, oldtype, newtype);
}

/* The indexed family: kind 0 indexed, 1 hindexed, 2 indexed_block, 3
 * hindexed_block.  bls and (for kinds 0 and 2) displs are int[] or, from
 * the large-count forms, MPI_Count[]; byte displacements are MPI_Aint[],
 * which is MPI_Count[]. */
static int type_indexed(const char *fn, int large, int kind, MPI_Count count, const void *bls,
                        MPI_Count bl, const void *displs, MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    struct tern_dt_arr b = tern_dt_arr_of(large, bls), d = tern_dt_arr_of(large, displs);
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count"))) return rc;
    if (kind >= 2 && (rc = tern_arg_nonneg(bl, MPI_ERR_COUNT, fn, "blocklength"))) return rc;
    if (count > 0) {
        if (kind < 2 && ((rc = tern_arg_ptr(bls, fn, "array_of_blocklengths")) ||
                         (rc = check_blocklengths(count, b, fn))))
            return rc;
        if ((rc = tern_arg_ptr(displs, fn, "array_of_displacements"))) return rc;
    }
    if ((rc = check_old_new(fn, oldtype, &old, newtype))) return rc;
    switch (kind) {
    case 0: rc = tern_dt_indexed(count, b, d, old, &nt); break;
    case 1: rc = tern_dt_hindexed(count, b, displs, old, &nt); break;
    case 2: rc = tern_dt_indexed_block(count, bl, d, old, &nt); break;
    default: rc = tern_dt_hindexed_block(count, bl, displs, old, &nt); break;
    }
    return tern_dt_ctor_done(rc, fn, large, nt, newtype);
}

int tern_api_type_indexed(const char *fn, int count, const int array_of_blocklengths[],
                          const int array_of_displacements[], MPI_Datatype oldtype,
                          MPI_Datatype *newtype)
{
    return type_indexed(fn, 0, 0, count, array_of_blocklengths, 0, array_of_displacements, oldtype,
                        newtype);
}

int tern_api_type_indexed_c(const char *fn, MPI_Count count,
                            const MPI_Count array_of_blocklengths[],
                            const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    return type_indexed(fn, 1, 0, count, array_of_blocklengths, 0, array_of_displacements, oldtype,
                        newtype);
}

int tern_api_type_create_hindexed(const char *fn, int count, const int array_of_blocklengths[],
                                  const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype *newtype)
{
    return type_indexed(fn, 0, 1, count, array_of_blocklengths, 0, array_of_displacements, oldtype,
                        newtype);
}

int tern_api_type_create_hindexed_c(const char *fn, MPI_Count count,
                                    const MPI_Count array_of_blocklengths[],
                                    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    return type_indexed(fn, 1, 1, count, array_of_blocklengths, 0, array_of_displacements, oldtype,
                        newtype);
}

int tern_api_type_create_indexed_block(const char *fn, int count, int blocklength,
                                       const int array_of_displacements[], MPI_Datatype oldtype,
                                       MPI_Datatype *newtype)
{
    return type_indexed(fn, 0, 2, count, NULL, blocklength, array_of_displacements, oldtype,
                        newtype);
}

int tern_api_type_create_indexed_block_c(const char *fn, MPI_Count count, MPI_Count blocklength,
                                         const MPI_Count array_of_displacements[],
                                         MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_indexed(fn, 1, 2, count, NULL, blocklength, array_of_displacements, oldtype,
                        newtype);
}

int tern_api_type_create_hindexed_block(const char *fn, int count, int blocklength,
                                        const MPI_Aint array_of_displacements[],
                                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_indexed(fn, 0, 3, count, NULL, blocklength, array_of_displacements, oldtype,
                        newtype);
}

int tern_api_type_create_hindexed_block_c(const char *fn, MPI_Count count, MPI_Count blocklength,
                                          const MPI_Count array_of_displacements[],
                                          MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_indexed(fn, 1, 3, count, NULL, blocklength, array_of_displacements, oldtype,
                        newtype);
}

static int type_struct(const char *fn, int large, MPI_Count count, const void *bls,
                       const MPI_Aint displs[], const MPI_Datatype types[], MPI_Datatype *newtype)
{
    struct tern_datatype *stack_types[16] = {0}, **tt = stack_types, *nt = NULL;
    struct tern_dt_arr b = tern_dt_arr_of(large, bls);
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count"))) return rc;
    if (count > 0 && ((rc = tern_arg_ptr(bls, fn, "array_of_blocklengths")) ||
                      (rc = tern_arg_ptr(displs, fn, "array_of_displacements")) ||
                      (rc = tern_arg_ptr(types, fn, "array_of_types")) ||
                      (rc = check_blocklengths(count, b, fn))))
        return rc;
    if ((rc = tern_arg_ptr(newtype, fn, "newtype"))) return rc;
    if (count > 16 &&
        ((size_t)count > SIZE_MAX / sizeof *tt || !(tt = malloc((size_t)count * sizeof *tt))))
        return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for count=%ld types", fn,
                             (long)count);
    for (MPI_Count i = 0; i < count; i++) {
        char argname[48];
        snprintf(argname, sizeof argname, "array_of_types[%ld]", (long)i);
        if ((rc = tern_arg_type(types[i], fn, argname, &tt[i]))) goto out;
    }
    rc = tern_dt_struct(count, b, displs, tt, &nt);
    rc = tern_dt_ctor_done(rc, fn, large, nt, newtype);
out:
    if (tt != stack_types) free(tt);
    return rc;
}

int tern_api_type_create_struct(const char *fn, int count, const int array_of_blocklengths[],
                                const MPI_Aint array_of_displacements[],
                                const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return type_struct(fn, 0, count, array_of_blocklengths, array_of_displacements, array_of_types,
                       newtype);
}

int tern_api_type_create_struct_c(const char *fn, MPI_Count count,
                                  const MPI_Count array_of_blocklengths[],
                                  const MPI_Count array_of_displacements[],
                                  const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return type_struct(fn, 1, count, array_of_blocklengths, array_of_displacements, array_of_types,
                       newtype);
}

static int type_resized(const char *fn, int large, MPI_Datatype oldtype, MPI_Aint lb,
                        MPI_Aint extent, MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = check_old_new(fn, oldtype, &old, newtype))) return rc;
    rc = tern_dt_resized(old, lb, extent, &nt);
    return tern_dt_ctor_done(rc, fn, large, nt, newtype);
}

int tern_api_type_create_resized(const char *fn, MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                 MPI_Datatype *newtype)
{
    return type_resized(fn, 0, oldtype, lb, extent, newtype);
}

int tern_api_type_create_resized_c(const char *fn, MPI_Datatype oldtype, MPI_Count lb,
                                   MPI_Count extent, MPI_Datatype *newtype)
{
    return type_resized(fn, 1, oldtype, lb, extent, newtype);
}

static int type_dup(const char *fn, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = check_old_new(fn, oldtype, &old, newtype))) return rc;
    if ((rc = tern_dt_dup(old, &nt))) return tern_dt_ctor_done(rc, fn, 0, nt, newtype);
    /* [attr] The copy callbacks; when one fails there is no new type. */
    if ((rc = tern_attr_type_copy(old, nt)) != MPI_SUCCESS) {
        tern_dt_free_handle(nt);
        *newtype = MPI_DATATYPE_NULL;
        return tern_err_raise(NULL, rc);
    }
    return tern_dt_ctor_done(MPI_SUCCESS, fn, 0, nt, newtype);
}

int tern_api_type_dup(const char *fn, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_dup(fn, oldtype, newtype);
}

static int type_commit(const char *fn, MPI_Datatype *datatype)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = check_type_ref(fn, datatype, &dt))) return rc;
    rc = tern_dt_commit(dt);
    if (rc)
        return tern_err_comm(NULL, rc, "%s: out of memory compiling datatype 0x%x", fn,
                             (unsigned)dt->handle);
    return MPI_SUCCESS;
}

int tern_api_type_commit(const char *fn, MPI_Datatype *datatype)
{
    return type_commit(fn, datatype);
}

static int type_free(const char *fn, MPI_Datatype *datatype)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = check_type_ref(fn, datatype, &dt))) return rc;
    if (dt->predefined) {
        char lbl[MPI_MAX_OBJECT_NAME + 24];
        return tern_err_comm(NULL, MPI_ERR_TYPE,
                             "%s: datatype %s is predefined and cannot be freed", fn,
                             tern_dt_label(dt, lbl, sizeof lbl));
    }
    if (!tern_dt_user_held(dt))
        return tern_err_comm(NULL, MPI_ERR_TYPE,
                             "%s: datatype 0x%x was freed already (a pending operation still "
                             "holds it)",
                             fn, (unsigned)dt->handle);
    /* [attr] Delete callbacks when the last user handle goes; when one
     * fails the type stays. */
    if (tern_dt_obj_of(dt)->urefs == 1 && (rc = tern_attr_type_free(dt)) != MPI_SUCCESS)
        return tern_err_raise(NULL, rc);
    tern_dt_free_handle(dt);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int tern_api_type_free(const char *fn, MPI_Datatype *datatype) { return type_free(fn, datatype); }
