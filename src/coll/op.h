/* Reduction operations. */
#ifndef TERN_COLL_OP_H
#define TERN_COLL_OP_H

#include <mpi.h>
#include <stddef.h>

struct tern_datatype;

struct tern_op {
    int handle;
    int refcount;
    int commutative;
    MPI_Op predefined;           /* MPI_SUM...; MPI_OP_NULL for user ops */
    MPI_User_function *user_fn;
};

struct tern_op *tern_op_get(MPI_Op h);

/* Checks that op applies to dt (predefined ops are defined only on some
 * types: MPI_SUM on MPI_INT yes, MPI_BAND on MPI_DOUBLE no).  Returns
 * MPI_SUCCESS or an error code whose message names fn. */
int tern_op_check(struct tern_op *op, struct tern_datatype *dt, const char *fn);

/* inout[i] = in[i] op inout[i] for 'count' elements of dt; both buffers are
 * laid out as (buf, count, dt).  Order matters for non-commutative ops: 'in'
 * holds the contribution of the lower ranks. */
void tern_op_apply(struct tern_op *op, const void *in, void *inout, size_t count,
                   struct tern_datatype *dt);

void tern_op_release(struct tern_op *op);

#endif
