/* Subarray and darray (MPI 4.1 sections 5.1.3, 5.1.4).
 *
 * Each is recorded with its own combiner and arguments, and its data is an
 * equivalent type built here from the other constructors ('impl', see
 * tern_dt_wrap): one type per array dimension, fastest first, each placing
 * blocks of the previous one, and finally explicit bounds 0 and the extent
 * of the whole global array, as the standard's typemaps say.  Arguments
 * were checked by the caller. */
#include <stdlib.h>

#include "datatype/dt_internal.h"

/* Chains the constructors: cur is NULL (the old type) or the type built
 * so far; each step replaces it by a type built from it.  The intermediate
 * types lose their handles at once (the next type holds them), so the user
 * never sees one. */
static int step(int rc, struct tern_datatype **cur, struct tern_datatype *next)
{
    if (rc == MPI_SUCCESS) {
        if (*cur) tern_dt_free_handle(*cur);
        *cur = next;
    }
    return rc;
}

static void drop(struct tern_datatype *cur)
{
    if (cur) tern_dt_free_handle(cur);
}

#define TERN_CUR(cur, old) ((cur) ? (cur) : (old))

/* The last steps of both: bounds 0 and 'extent', then the record. */
static int finish(int combiner, const MPI_Count *ints, size_t nints, struct tern_datatype *old,
                  struct tern_datatype *cur, MPI_Aint extent, struct tern_datatype **out)
{
    struct tern_datatype *r = NULL;
    int rc = tern_dt_resized(cur, 0, extent, &r);
    rc = step(rc, &cur, r);
    if (rc == MPI_SUCCESS) rc = tern_dt_wrap(combiner, ints, nints, old, cur, out);
    drop(cur);
    return rc;
}

static int mul_ok(MPI_Aint *acc, MPI_Count x)
{
    return !__builtin_mul_overflow(*acc, (MPI_Aint)x, acc);
}

int tern_dt_subarray(int ndims, struct tern_dt_arr sizes, struct tern_dt_arr subsizes,
                     struct tern_dt_arr starts, int order, struct tern_datatype *old,
                     struct tern_datatype **out)
{
    size_t n = (size_t)ndims, nints = 3 * n + 2;
    MPI_Count *ints = malloc(nints * sizeof *ints);
    if (!ints) return MPI_ERR_NO_MEM;
    ints[0] = ndims;
    for (size_t i = 0; i < n; i++) {
        ints[1 + i] = tern_dt_arr_at(sizes, i);
        ints[1 + n + i] = tern_dt_arr_at(subsizes, i);
        ints[1 + 2 * n + i] = tern_dt_arr_at(starts, i);
    }
    ints[nints - 1] = order;

    /* dimension k, fastest first.  The box's offset goes into the first
     * (innermost) type rather than around the last one: a layout keeps one
     * level of repetition, which a wrapper around the outer hvector would
     * flatten (2^31 blocks for a 2-d box of 2^31 rows). */
    int c = order == MPI_ORDER_C;
    const MPI_Count *sz = ints + 1, *sub = ints + 1 + n, *st = ints + 1 + 2 * n;
    struct tern_datatype *cur = NULL, *next = NULL;
    MPI_Aint stride = old->extent, disp = 0;
    int rc = MPI_SUCCESS;
    for (size_t k = 0; k < n && rc == MPI_SUCCESS; k++) {
        size_t d = c ? n - 1 - k : k;
        MPI_Aint off = stride;
        if (!mul_ok(&off, st[d]) || __builtin_add_overflow(disp, off, &disp) ||
            !mul_ok(&stride, sz[d]))
            rc = MPI_ERR_ARG;
    }
    stride = old->extent;
    for (size_t k = 0; k < n && rc == MPI_SUCCESS; k++) {
        size_t d = c ? n - 1 - k : k;
        if (k == 0)
            rc = tern_dt_hindexed_block(1, sub[d], &disp, old, &next);
        else
            rc = tern_dt_hvector(sub[d], 1, stride, cur, &next);
        rc = step(rc, &cur, next);
        (void)mul_ok(&stride, sz[d]); /* checked above */
    }
    if (rc == MPI_SUCCESS)
        rc = finish(MPI_COMBINER_SUBARRAY, ints, nints, old, cur, stride, out);
    else
        drop(cur);
    free(ints);
    return rc;
}

/* The process grid is row-major whatever the array order: rank's
 * coordinate in dimension d. */
static int grid_coord(int rank, int ndims, const int psizes[], int d)
{
    for (int i = ndims - 1; i > d; i--) rank /= psizes[i];
    return rank % psizes[d];
}

/* The elements of one dimension that a process holds: 'nfull' blocks of
 * 'b' elements from element 'first', 'step' elements apart, then one block
 * of 'last_len' elements at 'last'.  Block and none distributions are the
 * last block alone; cyclic(b) is regular but for its last block, so a
 * dimension of billions of elements costs two blocks, never one per
 * block of the distribution. */
struct dim_part {
    MPI_Count first, b, step, nfull, last, last_len;
};

static struct dim_part dim_part(MPI_Count g, int distrib, int darg, int p, int coord)
{
    struct dim_part d = {0, 0, 0, 0, 0, 0};
    MPI_Count b;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        d.last_len = g; /* p == 1 */
        return d;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        d.last = (MPI_Count)coord * b;
        d.last_len = d.last < g ? (g - d.last < b ? g - d.last : b) : 0;
        if (!d.last_len) d.last = 0;
        return d;
    }
    b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    MPI_Count first = (MPI_Count)coord * b, step = (MPI_Count)p * b;
    if (first >= g) return d;
    MPI_Count nb = (g - first + step - 1) / step;
    d.first = first;
    d.b = b;
    d.step = step;
    d.nfull = nb - 1;
    d.last = first + (nb - 1) * step;
    d.last_len = g - d.last < b ? g - d.last : b;
    return d;
}

/* The blocks of one dimension as a type: a struct of the regular blocks
 * (an hvector) and the last one, each of copies of 'cur' (whose extent is
 * 'stride').  MPI_ERR_ARG when a displacement overflows. */
static int dim_type(struct dim_part d, MPI_Aint stride, struct tern_datatype *cur,
                    struct tern_datatype **out)
{
    MPI_Aint step, first, last;
    if (__builtin_mul_overflow((MPI_Aint)d.step, stride, &step) ||
        __builtin_mul_overflow((MPI_Aint)d.first, stride, &first) ||
        __builtin_mul_overflow((MPI_Aint)d.last, stride, &last))
        return MPI_ERR_ARG;
    struct tern_datatype *full = NULL;
    int rc = tern_dt_hvector(d.nfull, d.b, step, cur, &full);
    if (rc) return rc;
    MPI_Count bls[2] = {1, d.last_len};
    MPI_Aint displs[2] = {first, last};
    struct tern_datatype *types[2] = {full, cur};
    rc = tern_dt_struct(2, (struct tern_dt_arr){NULL, bls}, displs, types, out);
    tern_dt_free_handle(full);
    return rc;
}

int tern_dt_darray(int size, int rank, int ndims, struct tern_dt_arr gsizes, const int distribs[],
                   const int dargs[], const int psizes[], int order, struct tern_datatype *old,
                   struct tern_datatype **out)
{
    size_t n = (size_t)ndims, nints = 4 * n + 4;
    MPI_Count *ints = malloc(nints * sizeof *ints);
    if (!ints) return MPI_ERR_NO_MEM;
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    for (size_t i = 0; i < n; i++) {
        ints[3 + i] = tern_dt_arr_at(gsizes, i);
        ints[3 + n + i] = distribs[i];
        ints[3 + 2 * n + i] = dargs[i];
        ints[3 + 3 * n + i] = psizes[i];
    }
    ints[nints - 1] = order;

    int c = order == MPI_ORDER_C;
    const MPI_Count *g = ints + 3;
    struct tern_datatype *cur = NULL, *next = NULL;
    MPI_Aint stride = old->extent;
    int rc = MPI_SUCCESS;
    for (size_t k = 0; k < n && rc == MPI_SUCCESS; k++) {
        size_t d = c ? n - 1 - k : k;
        struct dim_part part = dim_part(g[d], distribs[d], dargs[d], psizes[d],
                                        grid_coord(rank, ndims, psizes, (int)d));
        /* copies of the previous dimension's type, 'stride' bytes apart */
        rc = tern_dt_resized(TERN_CUR(cur, old), 0, stride, &next);
        rc = step(rc, &cur, next);
        if (rc == MPI_SUCCESS) {
            rc = dim_type(part, stride, cur, &next);
            rc = step(rc, &cur, next);
        }
        if (rc == MPI_SUCCESS && !mul_ok(&stride, g[d])) rc = MPI_ERR_ARG;
    }
    if (rc == MPI_SUCCESS)
        rc = finish(MPI_COMBINER_DARRAY, ints, nints, old, cur, stride, out);
    else
        drop(cur);
    free(ints);
    return rc;
}
