/* User-defined reduction ops and local reduction (MPI 4.1 sections 6.9.5,
 * 6.9.7): the bodies.  Their entry points, with the init test, the lock and
 * the checks of the op handles, are generated (src/api/gen/bindings_op.c). */
#include "api/gen/bindings.h"
#include "api/handle_check.h"
#include "coll/op.h"
#include "datatype/dt_api.h"

int tern_chk_op(struct tern_comm *c, const char *fn, MPI_Op h, struct tern_op **out)
{
    int rc = tern_op_check_valid(h, fn, out);
    return rc ? tern_err_raise(c, rc) : MPI_SUCCESS;
}

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

int tern_api_op_create(const char *fn, MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return op_create(fn, user_fn, NULL, commute, op);
}

int tern_api_op_create_c(const char *fn, MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return op_create(fn, NULL, user_fn, commute, op);
}

int tern_api_op_free(const char *fn, MPI_Op *op, struct tern_op *op_o)
{
    if (op_o->predefined != MPI_OP_NULL)
        return tern_err_comm(NULL, MPI_ERR_OP, "%s: op %s is predefined and cannot be freed", fn,
                             tern_op_label(op_o, NULL, 0));
    tern_op_free_handle(op_o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int tern_api_op_commutative(const char *fn, struct tern_op *op_o, int *commute)
{
    (void)fn;
    *commute = op_o->commutative;
    return MPI_SUCCESS;
}

static int reduce_local(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    struct tern_datatype *dt;
    struct tern_op *o;
    int rc;
    if ((rc = tern_arg_nonneg(count, MPI_ERR_COUNT, fn, "count")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_chk_op(NULL, fn, op, &o)))
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

int tern_api_reduce_local(const char *fn, const void *inbuf, void *inoutbuf, int count,
                          MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local(fn, inbuf, inoutbuf, count, datatype, op);
}

int tern_api_reduce_local_c(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local(fn, inbuf, inoutbuf, count, datatype, op);
}
