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
    MPI_Op predefined; /* MPI_SUM...; MPI_OP_NULL for user ops */
    MPI_User_function *user_fn;
    MPI_User_function_c *user_fn_c; /* made by MPI_Op_create_c instead: MPI_Count lengths */
};

struct tern_op *tern_op_get(MPI_Op h);

/* Checks that op applies to dt in a reduction (collectives and
 * MPI_Reduce_local): predefined ops are defined only on some types (MPI_SUM
 * on MPI_INT yes, MPI_BAND on MPI_DOUBLE no), MPI_REPLACE and MPI_NO_OP
 * only in one-sided accumulates (which need their own check).  Returns
 * MPI_SUCCESS or an MPI_ERR_OP code whose message names fn, the op and the
 * datatype. */
int tern_op_check(struct tern_op *op, struct tern_datatype *dt, const char *fn);

/* inout[i] = in[i] op inout[i] for 'count' elements of dt; both buffers are
 * laid out as (buf, count, dt).  Order matters for non-commutative ops: 'in'
 * holds the contribution of the lower ranks. */
void tern_op_apply(struct tern_op *op, const void *in, void *inout, size_t count,
                   struct tern_datatype *dt);

void tern_op_release(struct tern_op *op);

/* ---------------------------------------------------------------------------
 * Added by the op module.
 * ------------------------------------------------------------------------- */

/* A pending operation (nonblocking collective, RMA) keeps a user op alive
 * across MPI_Op_free; no-op for predefined ops. */
void tern_op_retain(struct tern_op *op);

/* Validates an op argument: MPI_SUCCESS, or an MPI_ERR_OP code naming fn
 * (MPI_OP_NULL, a freed or never created handle). */
int tern_op_check_valid(MPI_Op h, const char *fn, struct tern_op **out);

/* "MPI_SUM", or "user op 0x98000000" for messages. */
const char *tern_op_label(const struct tern_op *op, char *buf, size_t len);

/* MPI_Op_create(_c) / MPI_Op_free (the handle dies now, the op when the
 * last pending operation releases it).  create takes the function of one
 * form (the other NULL) and returns MPI_SUCCESS or MPI_ERR_NO_MEM. */
int tern_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute,
                   struct tern_op **out);
void tern_op_free_handle(struct tern_op *op);

/* Frees the user ops left at finalize (called by tern_datatypes_finalize). */
void tern_ops_finalize(void);

#endif
