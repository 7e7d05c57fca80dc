/* Datatype constructors, commit and free (MPI 4.1 sections 5.1.2-5.1.10),
 * with the MPI-1 names MPICH still exports (MPI_Type_hvector,
 * MPI_Type_hindexed, MPI_Type_struct). */
#include <stdio.h>
#include <stdlib.h>

#include "api/locked.h"
#include "core/attr.h"
#include "datatype/dt_api.h"
#include "datatype/dt_internal.h"

/* Hands the new type's handle out, or reports why there is none. */
static int finish_ctor(int rc, const char *fn, struct tern_datatype *const *nt,
                       MPI_Datatype *newtype)
{
    if (rc) return tern_dt_ctor_failed(rc, fn);
    *newtype = (*nt)->handle;
    return MPI_SUCCESS;
}

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

static int check_blocklengths(int count, const int bl[], const char *fn)
{
    for (int i = 0; i < count; i++)
        if (bl[i] < 0)
            return tern_err_comm(NULL, MPI_ERR_COUNT, "%s: array_of_blocklengths[%d]=%d must be >= 0",
                                 fn, i, bl[i]);
    return MPI_SUCCESS;
}

static int type_contiguous(const char *fn, int count, MPI_Datatype oldtype,
                           MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count")) ||
        (rc = check_old_new(fn, oldtype, &old, newtype)))
        return rc;
    return finish_ctor(tern_dt_contiguous(count, old, &nt), fn, &nt, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_contiguous", type_contiguous, count, oldtype, newtype);
}

static int type_vector(const char *fn, int count, int blocklength, MPI_Aint stride, int hv,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count")) ||
        (rc = tern_arg_nonneg(blocklength, MPI_ERR_COUNT, fn, "blocklength")) ||
        (rc = check_old_new(fn, oldtype, &old, newtype)))
        return rc;
    rc = hv ? tern_dt_hvector(count, blocklength, stride, old, &nt)
            : tern_dt_vector(count, blocklength, (int)stride, old, &nt);
    return finish_ctor(rc, fn, &nt, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_vector)
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_vector", type_vector, count, blocklength, stride, 0, oldtype,
                     newtype);
}

TERN_WEAK_ALIAS(MPI_Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_create_hvector", type_vector, count, blocklength, stride, 1,
                     oldtype, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_hvector", type_vector, count, blocklength, stride, 1, oldtype,
                     newtype);
}

/* indexed family: kind 0 indexed, 1 hindexed, 2 indexed_block, 3 hindexed_block */
static int type_indexed(const char *fn, int kind, int count, const int bls[], int bl,
                        const int idispls[], const MPI_Aint adispls[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count")))
        return rc;
    if (kind >= 2 && (rc = tern_arg_nonneg(bl, MPI_ERR_COUNT, fn, "blocklength")))
        return rc;
    if (count > 0) {
        if (kind < 2 && ((rc = tern_arg_ptr(bls, fn, "array_of_blocklengths")) ||
                         (rc = check_blocklengths(count, bls, fn))))
            return rc;
        if ((kind & 1) ? (rc = tern_arg_ptr(adispls, fn, "array_of_displacements"))
                       : (rc = tern_arg_ptr(idispls, fn, "array_of_displacements")))
            return rc;
    }
    if ((rc = check_old_new(fn, oldtype, &old, newtype))) return rc;
    switch (kind) {
    case 0: rc = tern_dt_indexed(count, bls, idispls, old, &nt); break;
    case 1: rc = tern_dt_hindexed(count, bls, adispls, old, &nt); break;
    case 2: rc = tern_dt_indexed_block(count, bl, idispls, old, &nt); break;
    default: rc = tern_dt_hindexed_block(count, bl, adispls, old, &nt); break;
    }
    return finish_ctor(rc, fn, &nt, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_indexed)
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_indexed", type_indexed, 0, count, array_of_blocklengths, 0,
                     array_of_displacements, NULL, oldtype, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_create_hindexed", type_indexed, 1, count, array_of_blocklengths, 0,
                     NULL, array_of_displacements, oldtype, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_hindexed)
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_hindexed", type_indexed, 1, count, array_of_blocklengths, 0, NULL,
                     array_of_displacements, oldtype, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_create_indexed_block", type_indexed, 2, count, NULL, blocklength,
                     array_of_displacements, NULL, oldtype, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_create_hindexed_block)
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_create_hindexed_block", type_indexed, 3, count, NULL, blocklength,
                     NULL, array_of_displacements, oldtype, newtype);
}

static int type_struct(const char *fn, int count, const int bls[], const MPI_Aint displs[],
                       const MPI_Datatype types[], MPI_Datatype *newtype)
{
    struct tern_datatype *stack_types[16], **tt = stack_types, *nt = NULL;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count"))) return rc;
    if (count > 0 && ((rc = tern_arg_ptr(bls, fn, "array_of_blocklengths")) ||
                      (rc = tern_arg_ptr(displs, fn, "array_of_displacements")) ||
                      (rc = tern_arg_ptr(types, fn, "array_of_types")) ||
                      (rc = check_blocklengths(count, bls, fn))))
        return rc;
    if ((rc = tern_arg_ptr(newtype, fn, "newtype"))) return rc;
    if (count > 16 && !(tt = malloc((size_t)count * sizeof *tt)))
        return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for count=%d types", fn,
                             count);
    for (int i = 0; i < count; i++) {
        char arg[40];
        snprintf(arg, sizeof arg, "array_of_types[%d]", i);
        if ((rc = tern_arg_type(types[i], fn, arg, &tt[i]))) goto out;
    }
    rc = finish_ctor(tern_dt_struct(count, bls, displs, tt, &nt), fn, &nt, newtype);
out:
    if (tt != stack_types) free(tt);
    return rc;
}

TERN_WEAK_ALIAS(MPI_Type_create_struct)
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_create_struct", type_struct, count, array_of_blocklengths,
                     array_of_displacements, array_of_types, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_struct)
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_struct", type_struct, count, array_of_blocklengths,
                     array_of_displacements, array_of_types, newtype);
}

static int type_resized(const char *fn, MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                        MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = check_old_new(fn, oldtype, &old, newtype))) return rc;
    return finish_ctor(tern_dt_resized(old, lb, extent, &nt), fn, &nt, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_create_resized", type_resized, oldtype, lb, extent, newtype);
}

static int type_dup(const char *fn, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tern_datatype *old, *nt = NULL;
    int rc;
    if ((rc = check_old_new(fn, oldtype, &old, newtype))) return rc;
    if ((rc = tern_dt_dup(old, &nt))) return finish_ctor(rc, fn, &nt, newtype);
    /* [attr] The copy callbacks; when one fails there is no new type. */
    if ((rc = tern_attr_type_copy(old, nt)) != MPI_SUCCESS) {
        tern_dt_free_handle(nt);
        return tern_err_raise(NULL, rc);
    }
    return finish_ctor(MPI_SUCCESS, fn, &nt, newtype);
}

TERN_WEAK_ALIAS(MPI_Type_dup)
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TERN_LOCKED_CALL("MPI_Type_dup", type_dup, oldtype, newtype);
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

TERN_WEAK_ALIAS(MPI_Type_commit)
int PMPI_Type_commit(MPI_Datatype *datatype)
{
    TERN_LOCKED_CALL("MPI_Type_commit", type_commit, datatype);
}

static int type_free(const char *fn, MPI_Datatype *datatype)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = check_type_ref(fn, datatype, &dt))) return rc;
    if (dt->predefined)
        return tern_err_comm(NULL, MPI_ERR_TYPE,
                             "%s: datatype %s is predefined and cannot be freed", fn, dt->name);
    /* [attr] Delete callbacks when the last user handle goes; when one
     * fails the type stays. */
    if (tern_dt_obj_of(dt)->urefs == 1 && (rc = tern_attr_type_free(dt)) != MPI_SUCCESS)
        return tern_err_raise(NULL, rc);
    tern_dt_free_handle(dt);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Type_free)
int PMPI_Type_free(MPI_Datatype *datatype)
{
    TERN_LOCKED_CALL("MPI_Type_free", type_free, datatype);
}
