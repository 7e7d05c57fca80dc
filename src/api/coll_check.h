/* Argument checks shared by the collective entry points (private to
 * src/api).  Each returns MPI_SUCCESS or the error code after the
 * communicator's error handler has seen it; messages name the call, the
 * argument and its value. */
#ifndef TERN_API_COLL_CHECK_H
#define TERN_API_COLL_CHECK_H

#include <mpi.h>

#include "coll/op.h"
#include "core/errors.h"
#include "core/objects.h"
#include "datatype/datatype.h"

static inline int tern_chk_count(struct tern_comm *c, const char *fn, const char *arg, int count)
{
    if (__builtin_expect(count < 0, 0))
        return tern_err_comm(c, MPI_ERR_COUNT, "%s: %s=%d is negative", fn, arg, count);
    return MPI_SUCCESS;
}

static inline int tern_chk_dt(struct tern_comm *c, const char *fn, const char *arg, MPI_Datatype h,
                              struct tern_datatype **out)
{
    int rc = tern_dt_check(h, fn, arg, out);
    return rc ? tern_err_raise(c, rc) : MPI_SUCCESS;
}

/* A NULL buffer is an error only with a predefined type: with a derived
 * one it can be MPI_BOTTOM and the type's displacements absolute. */
static inline int tern_chk_buf(struct tern_comm *c, const char *fn, const char *arg,
                               const void *buf, size_t count, const struct tern_datatype *dt)
{
    if (__builtin_expect(buf == NULL && count > 0 && dt->predefined && dt->size > 0, 0))
        return tern_err_comm(c, MPI_ERR_BUFFER, "%s: %s is NULL with %zu elements of %s", fn, arg,
                             count, dt->name);
    return MPI_SUCCESS;
}

static inline int tern_chk_not_in_place(struct tern_comm *c, const char *fn, const char *arg,
                                        const void *buf, const char *why)
{
    if (__builtin_expect(buf == MPI_IN_PLACE, 0))
        return tern_err_comm(c, MPI_ERR_BUFFER, "%s: %s is MPI_IN_PLACE, which is not allowed %s",
                             fn, arg, why);
    return MPI_SUCCESS;
}

static inline int tern_chk_alias(struct tern_comm *c, const char *fn, const void *sbuf,
                                 const void *rbuf, size_t bytes)
{
    if (__builtin_expect(sbuf == rbuf && sbuf != NULL && bytes > 0, 0))
        return tern_err_comm(c, MPI_ERR_BUFFER,
                             "%s: sendbuf and recvbuf are the same buffer (%p); use MPI_IN_PLACE",
                             fn, sbuf);
    return MPI_SUCCESS;
}

static inline int tern_chk_root(struct tern_comm *c, const char *fn, int root)
{
    if (__builtin_expect(root < 0 || root >= c->size, 0)) {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_ROOT, "%s: root=%d is not a rank of %s (size %d)", fn,
                             root, tern_comm_label(c, lb, sizeof lb), c->size);
    }
    return MPI_SUCCESS;
}

static inline int tern_chk_op(struct tern_comm *c, const char *fn, MPI_Op h,
                              struct tern_datatype *dt, struct tern_op **out)
{
    struct tern_op *op = h == MPI_OP_NULL ? NULL : tern_op_get(h);
    if (!op) {
        if (h == MPI_OP_NULL) return tern_err_comm(c, MPI_ERR_OP, "%s: op is MPI_OP_NULL", fn);
        return tern_err_comm(c, MPI_ERR_OP, "%s: op=0x%x is not a valid operation", fn,
                             (unsigned)h);
    }
    int rc = tern_op_check(op, dt, fn);
    if (rc) return tern_err_raise(c, rc);
    *out = op;
    return MPI_SUCCESS;
}

/* An array argument of n counts: present, none negative; *sum their total. */
static inline int tern_chk_counts(struct tern_comm *c, const char *fn, const char *arg,
                                  const int *a, int n, size_t *sum)
{
    size_t s = 0;
    if (!a && n > 0) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
    for (int i = 0; i < n; i++) {
        if (a[i] < 0)
            return tern_err_comm(c, MPI_ERR_COUNT, "%s: %s[%d]=%d is negative", fn, arg, i, a[i]);
        s += (size_t)a[i];
    }
    if (sum) *sum = s;
    return MPI_SUCCESS;
}

static inline int tern_chk_array(struct tern_comm *c, const char *fn, const char *arg,
                                 const void *a)
{
    if (!a) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
    return MPI_SUCCESS;
}

#endif
