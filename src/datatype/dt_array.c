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

    /* dimension k, fastest first */
    int c = order == MPI_ORDER_C;
    const MPI_Count *sz = ints + 1, *sub = ints + 1 + n, *st = ints + 1 + 2 * n;
    struct tern_datatype *cur = NULL, *next = NULL;
    MPI_Aint stride = old->extent, disp = 0;
    int rc = MPI_SUCCESS;
    for (size_t k = 0; k < n && rc == MPI_SUCCESS; k++) {
        size_t d = c ? n - 1 - k : k;
        MPI_Aint off = stride;
        if (!mul_ok(&off, st[d]) || __builtin_add_overflow(disp, off, &disp)) {
            rc = MPI_ERR_ARG;
            break;
        }
        if (k == 0)
            rc = tern_dt_contiguous(sub[d], TERN_CUR(cur, old), &next);
        else
            rc = tern_dt_hvector(sub[d], 1, stride, cur, &next);
        rc = step(rc, &cur, next);
        if (rc == MPI_SUCCESS && !mul_ok(&stride, sz[d])) rc = MPI_ERR_ARG;
    }
    if (rc == MPI_SUCCESS) {
        rc = tern_dt_hindexed_block(1, 1, &disp, cur, &next);
        rc = step(rc, &cur, next);
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

/* The elements of one dimension that a process holds, as blocks
 * (start, length) in elements; returns the number of blocks, or -1 when
 * out of memory. */
static MPI_Count dim_blocks(MPI_Count g, int distrib, int darg, int p, int coord,
                            MPI_Count **starts, MPI_Count **lens)
{
    MPI_Count b, nb;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        b = g; /* p == 1 */
        nb = 1;
    } else if (distrib == MPI_DISTRIBUTE_BLOCK) {
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        nb = 1;
    } else {
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        MPI_Count first = (MPI_Count)coord * b;
        nb = first < g ? (g - first + (MPI_Count)p * b - 1) / ((MPI_Count)p * b) : 0;
    }
    *starts = malloc((size_t)(nb ? nb : 1) * sizeof **starts);
    *lens = malloc((size_t)(nb ? nb : 1) * sizeof **lens);
    if (!*starts || !*lens) {
        free(*starts);
        free(*lens);
        return -1;
    }
    MPI_Count s = distrib == MPI_DISTRIBUTE_NONE ? 0 : (MPI_Count)coord * b;
    for (MPI_Count i = 0; i < nb; i++, s += (MPI_Count)p * b) {
        MPI_Count len = s < g ? g - s : 0;
        (*starts)[i] = s < g ? s : 0;
        (*lens)[i] = len < b ? len : b;
    }
    return nb;
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
        MPI_Count *st, *len;
        MPI_Count nb = dim_blocks(g[d], distribs[d], dargs[d], psizes[d],
                                  grid_coord(rank, ndims, psizes, (int)d), &st, &len);
        if (nb < 0) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        /* copies of the previous dimension's type, 'stride' bytes apart */
        rc = tern_dt_resized(TERN_CUR(cur, old), 0, stride, &next);
        rc = step(rc, &cur, next);
        for (MPI_Count i = 0; i < nb && rc == MPI_SUCCESS; i++)
            if (__builtin_mul_overflow(st[i], stride, &st[i])) rc = MPI_ERR_ARG;
        if (rc == MPI_SUCCESS) {
            rc = tern_dt_hindexed(nb, (struct tern_dt_arr){NULL, len}, st, cur, &next);
            rc = step(rc, &cur, next);
        }
        if (rc == MPI_SUCCESS && !mul_ok(&stride, g[d])) rc = MPI_ERR_ARG;
        free(st);
        free(len);
    }
    if (rc == MPI_SUCCESS)
        rc = finish(MPI_COMBINER_DARRAY, ints, nints, old, cur, stride, out);
    else
        drop(cur);
    free(ints);
    return rc;
}
