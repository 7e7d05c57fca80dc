/* User-defined reduction ops and local reduction (MPI 4.1 sections 6.9.5,
 * 6.9.7). */
#include "api/locked.h"
#include "coll/op.h"
#include "datatype/dt_api.h"

/* One of user_fn (MPI_Op_create) and user_fn_c (MPI_Op_create_c) is
 * given; the op remembers which, to call it with the right length type. */
static int op_create(const char *fn, MPI_User_function *user_fn, MPI_User_function_c *user_fn_c,
                     int commute, MPI_Op *op)
{
    struct tern_op *o;
    int rc;
    const void *f = user_fn ? (const void *)(uintptr_t)user_fn : (const void *)(uintptr_t)user_fn_c;
    if ((rc = tern_arg_ptr(f, fn, "user_fn")) || (rc = tern_arg_ptr(op, fn, "op"))) return rc;
    if ((rc = tern_op_create(user_fn, user_fn_c, commute, &o)))
        return tern_err_comm(NULL, rc, "%s: out of memory for a new op", fn);
    *op = o->handle;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Op_create)
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    TERN_LOCKED_CALL("MPI_Op_create", op_create, user_fn, NULL, commute, op);
}

TERN_WEAK_ALIAS(MPI_Op_create_c)
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    TERN_LOCKED_CALL("MPI_Op_create_c", op_create, NULL, user_fn, commute, op);
}

static int op_arg(MPI_Op h, const char *fn, struct tern_op **out)
{
    int rc = tern_op_check_valid(h, fn, out);
    return rc ? tern_err_raise(NULL, rc) : MPI_SUCCESS;
}

static int op_free(const char *fn, MPI_Op *op)
{
    struct tern_op *o;
    int rc;
    if ((rc = tern_arg_ptr(op, fn, "op")) || (rc = op_arg(*op, fn, &o))) return rc;
    if (o->predefined != MPI_OP_NULL)
        return tern_err_comm(NULL, MPI_ERR_OP, "%s: op %s is predefined and cannot be freed", fn,
                             tern_op_label(o, NULL, 0));
    tern_op_free_handle(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Op_free)
int PMPI_Op_free(MPI_Op *op) { TERN_LOCKED_CALL("MPI_Op_free", op_free, op); }

static int op_commutative(const char *fn, MPI_Op op, int *commute)
{
    struct tern_op *o;
    int rc;
    if ((rc = op_arg(op, fn, &o)) || (rc = tern_arg_ptr(commute, fn, "commute"))) return rc;
    *commute = o->commutative;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Op_commutative)
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    TERN_LOCKED_CALL("MPI_Op_commutative", op_commutative, op, commute);
}

static int reduce_local(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    struct tern_datatype *dt;
    struct tern_op *o;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) || (rc = op_arg(op, fn, &o)))
        return rc;
    if ((rc = tern_op_check(o, dt, fn))) return tern_err_raise(NULL, rc);
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return tern_err_comm(NULL, MPI_ERR_BUFFER,
                             "%s: %s is MPI_IN_PLACE, which is not allowed here", fn,
                             inbuf == MPI_IN_PLACE ? "inbuf" : "inoutbuf");
    if (count > 0 && dt->size > 0 && dt->predefined && (!inbuf || !inoutbuf))
        return tern_err_comm(NULL, MPI_ERR_BUFFER, "%s: %s is NULL with count=%ld", fn,
                             !inbuf ? "inbuf" : "inoutbuf", (long)count);
    tern_op_apply(o, inbuf, inoutbuf, (size_t)count, dt);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Reduce_local)
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
    TERN_LOCKED_CALL("MPI_Reduce_local", reduce_local, inbuf, inoutbuf, count, datatype, op);
}

TERN_WEAK_ALIAS(MPI_Reduce_local_c)
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op)
{
    TERN_LOCKED_CALL("MPI_Reduce_local_c", reduce_local, inbuf, inoutbuf, count, datatype, op);
}
