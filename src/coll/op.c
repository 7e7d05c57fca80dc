/* Reduction op objects and their application to typed buffers.
 *
 * A predefined op runs its loop (op_kernels.c) on the type's basic
 * elements: directly when the elements are contiguous, block by block over
 * the type's layout when they are not (in and inout share the layout), and
 * through packed chunks only for the pair types with padding, whose blocks
 * may split a pair.  A user op gets the buffers as they are, with the user's
 * datatype handle and count. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "coll/op_kernels.h"
#include "core/errors.h"
#include "core/handle.h"
#include "datatype/dt_internal.h"

static const char *const op_names[15] = {
    NULL,       "MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD",
    "MPI_LAND", "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR",
    "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP",
};

#define TERN_PREDEF_OP(h, commute)                                                \
    {                                                                             \
        .handle = (h), .refcount = 1, .commutative = (commute), .predefined = (h) \
    }
static struct tern_op predefined_ops[15] = {
    [1] = TERN_PREDEF_OP(MPI_MAX, 1),
    [2] = TERN_PREDEF_OP(MPI_MIN, 1),
    [3] = TERN_PREDEF_OP(MPI_SUM, 1),
    [4] = TERN_PREDEF_OP(MPI_PROD, 1),
    [5] = TERN_PREDEF_OP(MPI_LAND, 1),
    [6] = TERN_PREDEF_OP(MPI_BAND, 1),
    [7] = TERN_PREDEF_OP(MPI_LOR, 1),
    [8] = TERN_PREDEF_OP(MPI_BOR, 1),
    [9] = TERN_PREDEF_OP(MPI_LXOR, 1),
    [10] = TERN_PREDEF_OP(MPI_BXOR, 1),
    [11] = TERN_PREDEF_OP(MPI_MINLOC, 1),
    [12] = TERN_PREDEF_OP(MPI_MAXLOC, 1),
    /* MPI_REPLACE keeps the later contribution: not commutative */
    [13] = TERN_PREDEF_OP(MPI_REPLACE, 0),
    [14] = TERN_PREDEF_OP(MPI_NO_OP, 1),
};

/* User ops: created-tier handles 0x98000000 and up, as in MPICH. */
static struct tern_objtab op_table = {.kind = TERN_KIND_OP};

struct tern_op *tern_op_get(MPI_Op h)
{
    if (tern_handle_tier(h) == TERN_TIER_BUILTIN) {
        unsigned i = tern_handle_index(h);
        if (tern_handle_kind(h) == TERN_KIND_OP && i >= 1 && i <= 14) return &predefined_ops[i];
        return NULL;
    }
    return (struct tern_op *)tern_objtab_lookup(&op_table, h);
}

const char *tern_op_label(const struct tern_op *op, char *buf, size_t len)
{
    if (op->predefined != MPI_OP_NULL) return op_names[tern_handle_index(op->predefined)];
    snprintf(buf, len, "user op 0x%x", (unsigned)op->handle);
    return buf;
}

int tern_op_check_valid(MPI_Op h, const char *fn, struct tern_op **out)
{
    if (h == MPI_OP_NULL) return tern_err_make(MPI_ERR_OP, "%s: op is MPI_OP_NULL", fn);
    struct tern_op *op = tern_op_get(h);
    if (!op) {
        if (tern_handle_kind(h) != TERN_KIND_OP)
            return tern_err_make(MPI_ERR_OP, "%s: op=0x%x is not an op handle", fn, (unsigned)h);
        return tern_err_make(MPI_ERR_OP, "%s: op=0x%x is not a valid op (never created, or freed)",
                             fn, (unsigned)h);
    }
    *out = op;
    return MPI_SUCCESS;
}

int tern_op_check(struct tern_op *op, struct tern_datatype *dt, const char *fn)
{
    if (op->predefined == MPI_OP_NULL) return MPI_SUCCESS;
    if (op->predefined == MPI_REPLACE || op->predefined == MPI_NO_OP)
        return tern_err_make(MPI_ERR_OP,
                             "%s: op %s is defined only for one-sided accumulate operations, not "
                             "for reductions",
                             fn, tern_op_label(op, NULL, 0));
    if (dt->basic != MPI_DATATYPE_NULL && tern_op_kernel_get(op->predefined, dt->basic, 0))
        return MPI_SUCCESS;
    char lbl[MPI_MAX_OBJECT_NAME + 24];
    const char *name = tern_op_label(op, NULL, 0);
    if (dt->predefined)
        return tern_err_make(MPI_ERR_OP, "%s: op %s is not defined for datatype %s", fn, name,
                             tern_dt_label(dt, lbl, sizeof lbl));
    if (dt->basic == MPI_DATATYPE_NULL)
        return tern_err_make(MPI_ERR_OP,
                             "%s: op %s is not defined for datatype %s (its elements are not "
                             "all of one predefined type)",
                             fn, name, tern_dt_label(dt, lbl, sizeof lbl));
    return tern_err_make(MPI_ERR_OP, "%s: op %s is not defined for datatype %s (built from %s)", fn,
                         name, tern_dt_label(dt, lbl, sizeof lbl), tern_dt_get(dt->basic)->name);
}

/* Pair types with padding: chunks of the packed stream. */
static void apply_packed(tern_op_kernel k, const void *in, void *inout, size_t count,
                         struct tern_datatype *dt, size_t esize)
{
    enum { CHUNK = 16384 };
    unsigned char a[CHUNK], b[CHUNK];
    size_t total = count * dt->size, step = CHUNK / esize * esize;
    for (size_t off = 0; off < total; off += step) {
        size_t n = total - off < step ? total - off : step;
        tern_dt_pack(dt, in, count, off, a, n);
        tern_dt_pack(dt, inout, count, off, b, n);
        k(a, b, n / esize);
        tern_dt_unpack(dt, inout, count, off, b, n);
    }
}

static void apply_user(struct tern_op *op, const void *in, void *inout, size_t count,
                       struct tern_datatype *dt)
{
    MPI_Datatype h = dt->handle;
    if (op->user_fn_c) {
        MPI_Count n = (MPI_Count)count;
        op->user_fn_c((void *)(uintptr_t)in, inout, &n, &h);
        return;
    }
    while (count) {
        int n = count > (size_t)INT_MAX ? INT_MAX : (int)count;
        op->user_fn((void *)(uintptr_t)in, inout, &n, &h);
        count -= (size_t)n;
        in = tern_dt_at(in, (MPI_Aint)n * dt->extent);
        inout = tern_dt_at(inout, (MPI_Aint)n * dt->extent);
    }
}

void tern_op_apply(struct tern_op *op, const void *in, void *inout, size_t count,
                   struct tern_datatype *dt)
{
    if (count == 0) return;
    if (op->predefined == MPI_OP_NULL) {
        apply_user(op, in, inout, count, dt);
        return;
    }
    if (op->predefined == MPI_NO_OP) return;
    if (op->predefined == MPI_REPLACE) {
        tern_dt_copy(in, count, dt, inout, count, dt);
        return;
    }
    if (dt->predefined) { /* the type's own memory layout (an f90 type's is its basic type's) */
        tern_op_kernel k = tern_op_kernel_get(op->predefined, dt->basic, 0);
        if (k) k(in, inout, count);
        return;
    }
    const struct tern_datatype *bt = tern_dt_get(dt->basic);
    tern_op_kernel k = bt ? tern_op_kernel_get(op->predefined, dt->basic, 1) : NULL;
    if (!k) return; /* tern_op_check refused it */
    size_t esize = bt->size;
    if (dt->contig) {
        k(tern_dt_at(in, dt->true_lb), tern_dt_at(inout, dt->true_lb), count * dt->basic_count);
        return;
    }
    if ((MPI_Aint)esize != bt->extent) {
        apply_packed(k, in, inout, count, dt, esize);
        return;
    }
    /* every block holds whole basic elements: run the loop on each */
    struct tern_dt_segs it;
    MPI_Aint off;
    size_t len;
    tern_dt_segs_init(&it, dt, count);
    while (tern_dt_segs_next(&it, &off, &len))
        k(tern_dt_at(in, off), tern_dt_at(inout, off), len / esize);
}

int tern_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute,
                   struct tern_op **out)
{
    struct tern_op *op = calloc(1, sizeof *op);
    if (!op) return MPI_ERR_NO_MEM;
    op->refcount = 1;
    op->commutative = commute ? 1 : 0;
    op->predefined = MPI_OP_NULL;
    op->user_fn = fn;
    op->user_fn_c = fn_c;
    op->handle = tern_objtab_insert(&op_table, op);
    if (!op->handle) {
        free(op);
        return MPI_ERR_NO_MEM;
    }
    *out = op;
    return MPI_SUCCESS;
}

void tern_op_retain(struct tern_op *op)
{
    if (op && op->predefined == MPI_OP_NULL) op->refcount++;
}

void tern_op_release(struct tern_op *op)
{
    if (!op || op->predefined != MPI_OP_NULL) return;
    if (--op->refcount > 0) return;
    if (tern_objtab_lookup(&op_table, op->handle) == op) tern_objtab_remove(&op_table, op->handle);
    free(op);
}

void tern_op_free_handle(struct tern_op *op)
{
    if (op->predefined != MPI_OP_NULL) return;
    if (tern_objtab_lookup(&op_table, op->handle) == op) tern_objtab_remove(&op_table, op->handle);
    tern_op_release(op);
}

static void drop_op(void *obj, void *arg)
{
    (void)arg;
    struct tern_op *op = obj;
    tern_objtab_remove(&op_table, op->handle);
    free(op);
}

void tern_ops_finalize(void)
{
    tern_objtab_foreach(&op_table, drop_op, NULL);
    tern_objtab_destroy(&op_table);
}
