/* Argument checks shared by the datatype and op entry points
 * (src/api/datatype_*.c, src/api/op.c).  Each returns MPI_SUCCESS, or the
 * error code after raising it on MPI_COMM_WORLD's error handler; the
 * message names the call, the argument and the bad value. */
#ifndef TERN_DATATYPE_DT_API_H
#define TERN_DATATYPE_DT_API_H

#include <mpi.h>

#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"
#include "datatype/datatype.h"

/* An int or a large count (MPI_Count) that must not be negative. */
static inline int tern_arg_nonneg(MPI_Count v, int errclass, const char *fn, const char *arg)
{
    if (__builtin_expect(v < 0, 0))
        return tern_err_comm(NULL, errclass, "%s: %s=%ld must be >= 0", fn, arg, (long)v);
    return MPI_SUCCESS;
}

static inline int tern_arg_ptr(const void *p, const char *fn, const char *arg)
{
    if (__builtin_expect(p == NULL, 0))
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
    return MPI_SUCCESS;
}

/* A live datatype, committed or not. */
static inline int tern_arg_type(MPI_Datatype h, const char *fn, const char *arg,
                                struct tern_datatype **out)
{
    int rc = tern_dt_check_valid(h, fn, arg, out);
    return rc ? tern_err_raise(NULL, rc) : MPI_SUCCESS;
}

/* A datatype that may be communicated: live and committed. */
static inline int tern_arg_type_committed(MPI_Datatype h, const char *fn, const char *arg,
                                          struct tern_datatype **out)
{
    int rc = tern_dt_check(h, fn, arg, out);
    return rc ? tern_err_raise(NULL, rc) : MPI_SUCCESS;
}

/* Turns a constructor's failure class into a reported error. */
static inline int tern_dt_ctor_failed(int rc, const char *fn)
{
    if (rc == MPI_ERR_NO_MEM)
        return tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for the new datatype", fn);
    if (rc == MPI_ERR_ARG)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: the size of the new datatype overflows the address space", fn);
    return tern_err_comm(NULL, rc, "%s: cannot build the new datatype", fn);
}

/* A constructor's result: the new type's handle out, or why there is none
 * (and MPI_DATATYPE_NULL out).  large: the caller is a large-count (_c)
 * constructor. */
static inline int tern_dt_ctor_done(int rc, const char *fn, int large, struct tern_datatype *nt,
                                    MPI_Datatype *newtype)
{
    if (rc) {
        if (newtype) *newtype = MPI_DATATYPE_NULL;
        return tern_dt_ctor_failed(rc, fn);
    }
    if (large) tern_dt_mark_large(nt);
    *newtype = nt->handle;
    return MPI_SUCCESS;
}

/* An integer array argument as the int form (int[]) or the large-count
 * form (MPI_Count[]) passes it. */
static inline struct tern_dt_arr tern_dt_arr_of(int large, const void *p)
{
    struct tern_dt_arr a = {NULL, NULL};
    if (large)
        a.c = p;
    else
        a.i = p;
    return a;
}

/* The packed buffer of MPI_Pack/Unpack(_external)(_c) (datatype_pack.c):
 * position inside its size, room there for count elements of dt of
 * elem_bytes packed bytes each, and the buffer present if anything moves;
 * *bytes is how much moves.  The names are those of the call's arguments. */
struct tern_comm;
struct tern_packed_args {
    const char *count, *buf, *size;
};
extern const struct tern_packed_args tern_pack_args, tern_unpack_args;
int tern_check_packed(struct tern_comm *c, const char *fn, const struct tern_packed_args *a,
                      MPI_Count count, const struct tern_datatype *dt, size_t elem_bytes,
                      const void *buf, MPI_Count size, MPI_Count position, size_t *bytes);

#endif
