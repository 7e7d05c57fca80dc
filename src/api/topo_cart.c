/* Cartesian topologies: MPI_Cart_* and MPI_Dims_create.  Reordering is
 * never done (reorder is allowed to be ignored): grid rank = old rank. */
#include <stdlib.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/topo_check.h"
#include "comm/comm.h"
#include "core/errors.h"

int tern_api_cart_create(const char *fn, struct tern_comm *comm_old_o, int ndims, const int dims[],
                         const int periods[], int reorder, MPI_Comm *comm_cart)
{
    struct tern_comm *c = comm_old_o, *nc = NULL;
    struct tern_topo *t;
    long size = 0;
    int rc, ok = 1;
    (void)reorder;
    if ((rc = tern_topo_chk_grid(c, fn, ndims, dims, periods, &size))) return rc;
    if (size > c->size) {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_ARG, "%s: the grid has %ld processes but %s has only %d",
                             fn, size, tern_comm_label(c, lb, sizeof lb), c->size);
    }
    if (!(t = tern_topo_new(MPI_CART)))
        return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    t->ndims = ndims;
    t->dims = tern_topo_ints(dims, ndims, &ok);
    t->periods = tern_topo_ints(periods, ndims, &ok);
    for (int i = 0; ok && i < ndims; i++) t->periods[i] = t->periods[i] != 0;
    if (!ok) {
        tern_topo_free(t);
        t = NULL; /* reported by the construction, which every rank still joins */
    }
    rc = tern_topo_comm_create(c, (int)size, t, tern_cart_finish, &nc);
    return tern_topo_new_result(c, rc, nc, comm_cart);
}

int tern_api_cartdim_get(const char *fn, struct tern_comm *comm_o, int *ndims)
{
    (void)fn;
    const struct tern_topo *t = comm_o->topo;
    *ndims = t->ndims;
    return MPI_SUCCESS;
}

/* maxdims must hold the grid (MPICH's rule for Cart_coords). */
static int chk_maxdims(struct tern_comm *c, const char *fn, const struct tern_topo *t, int maxdims)
{
    if (maxdims >= t->ndims) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_ARG,
                         "%s: maxdims=%d is less than the %d dimensions of the grid", fn, maxdims,
                         t->ndims);
}

int tern_api_cart_get(const char *fn, struct tern_comm *comm_o, int maxdims, int dims[],
                      int periods[], int coords[])
{
    struct tern_comm *c = comm_o;
    const struct tern_topo *t = c->topo;
    int rc;
    TRY(chk_maxdims(c, fn, t, maxdims));
    TRY(tern_topo_chk_array(c, fn, "dims", dims, t->ndims));
    TRY(tern_topo_chk_array(c, fn, "periods", periods, t->ndims));
    TRY(tern_topo_chk_array(c, fn, "coords", coords, t->ndims));
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
        coords[i] = t->coords[i];
    }
out:
    return rc;
}

int tern_api_cart_rank(const char *fn, struct tern_comm *comm_o, const int coords[], int *rank)
{
    struct tern_comm *c = comm_o;
    const struct tern_topo *t = c->topo;
    int rc, *norm = NULL;
    TRY(tern_topo_chk_array(c, fn, "coords", coords, t->ndims));
    TRY(tern_check_ptr(c, rank, fn, "rank"));
    norm = malloc((size_t)(t->ndims ? t->ndims : 1) * sizeof *norm);
    if (!norm) {
        rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        goto out;
    }
    for (int i = 0; i < t->ndims; i++) {
        int x = coords[i], n = t->dims[i];
        if (x < 0 || x >= n) {
            if (!t->periods[i]) {
                rc = tern_err_comm(c, MPI_ERR_ARG,
                                   "%s: coords[%d]=%d is off the grid (dimension %d is not "
                                   "periodic; valid: 0..%d)",
                                   fn, i, x, i, n - 1);
                goto out;
            }
            x %= n;
            if (x < 0) x += n;
        }
        norm[i] = x;
    }
    *rank = tern_cart_rank_of(t, norm);
out:
    free(norm);
    return rc;
}

int tern_api_cart_coords(const char *fn, struct tern_comm *comm_o, int rank, int maxdims,
                         int coords[])
{
    struct tern_comm *c = comm_o;
    const struct tern_topo *t = c->topo;
    int rc;
    TRY(chk_maxdims(c, fn, t, maxdims));
    TRY(tern_topo_chk_array(c, fn, "coords", coords, t->ndims));
    tern_cart_coords_of(t, rank, coords);
out:
    return rc;
}

int tern_api_cart_shift(const char *fn, struct tern_comm *comm_o, int direction, int disp,
                        int *rank_source, int *rank_dest)
{
    (void)fn;
    const struct tern_topo *t = comm_o->topo;
    tern_cart_shift(t, t->coords, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

/* The processes of my slice of the grid (same coordinates in the dropped
 * dimensions), in grid-rank order, which is the slice's row-major order. */
static int sub_group(struct tern_comm *c, const struct tern_topo *t, const int *remain,
                     struct tern_group **out)
{
    int *xy = malloc((size_t)(t->ndims ? t->ndims : 1) * sizeof *xy);
    struct tern_group *g = tern_group_new(c->size); /* trimmed to the slice below */
    int m = 0;
    if (!xy || !g) {
        free(xy);
        if (g) tern_group_release(g);
        return tern_err_make(MPI_ERR_NO_MEM, "MPI_Cart_sub: out of memory");
    }
    for (int r = 0; r < c->size; r++) {
        tern_cart_coords_of(t, r, xy);
        int same = 1;
        for (int d = 0; d < t->ndims && same; d++) same = remain[d] || xy[d] == t->coords[d];
        if (same) g->world[m++] = tern_comm_world_rank(c, r);
    }
    g->size = m;
    tern_group_set_rank(g);
    free(xy);
    *out = g;
    return MPI_SUCCESS;
}

/* The slice's own grid: the kept dimensions. */
static struct tern_topo *sub_topo(const struct tern_topo *t, const int *remain)
{
    struct tern_topo *s = tern_topo_new(MPI_CART);
    if (!s) return NULL;
    s->dims = malloc((size_t)(t->ndims ? t->ndims : 1) * sizeof(int));
    s->periods = malloc((size_t)(t->ndims ? t->ndims : 1) * sizeof(int));
    if (!s->dims || !s->periods) {
        tern_topo_free(s);
        return NULL;
    }
    for (int d = 0; d < t->ndims; d++) {
        if (!remain[d]) continue;
        s->dims[s->ndims] = t->dims[d];
        s->periods[s->ndims++] = t->periods[d];
    }
    return s;
}

int tern_api_cart_sub(const char *fn, struct tern_comm *comm_o, const int remain_dims[],
                      MPI_Comm *newcomm)
{
    struct tern_comm *c = comm_o, *nc = NULL;
    const struct tern_topo *t = c->topo;
    struct tern_topo *s = NULL;
    struct tern_group *g = NULL;
    int rc;
    if ((rc = tern_topo_chk_array(c, fn, "remain_dims", remain_dims, t->ndims))) return rc;
    if ((rc = tern_check_ptr(c, newcomm, fn, "newcomm"))) return rc;
    rc = sub_group(c, t, remain_dims, &g);
    if (!rc && !(s = sub_topo(t, remain_dims)))
        rc = tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    /* Every process joins, even after a local failure, so none hangs. */
    int rc2 = tern_topo_comm_build(c, rc ? NULL : g, s, tern_cart_finish, &nc);
    if (g) tern_group_release(g);
    if (!rc) rc = rc2;
    return tern_topo_new_result(c, rc, nc, newcomm);
}

int tern_api_cart_map(const char *fn, struct tern_comm *comm_o, int ndims, const int dims[],
                      const int periods[], int *newrank)
{
    struct tern_comm *c = comm_o;
    long size = 0;
    int rc;
    TRY(tern_topo_chk_grid(c, fn, ndims, dims, periods, &size));
    TRY(tern_check_ptr(c, newrank, fn, "newrank"));
    if (size > c->size) {
        char lb[64];
        rc = tern_err_comm(c, MPI_ERR_DIMS, "%s: the grid has %ld processes but %s has only %d", fn,
                           size, tern_comm_label(c, lb, sizeof lb), c->size);
        goto out;
    }
    *newrank = c->rank < size ? c->rank : MPI_UNDEFINED;
out:
    return rc;
}

int tern_api_dims_create(const char *fn, int nnodes, int ndims, int dims[])
{
    int rc;
    if (nnodes <= 0) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: nnodes=%d must be positive", fn, nnodes);
        goto out;
    }
    TRY(tern_topo_chk_nonneg(NULL, fn, "ndims", ndims));
    TRY(tern_topo_chk_array(NULL, fn, "dims", dims, ndims));
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0) {
            rc = tern_err_comm(NULL, MPI_ERR_DIMS, "%s: dims[%d]=%d must not be negative", fn, i,
                               dims[i]);
            goto out;
        }
    }
    rc = tern_dims_fill(nnodes, ndims, dims);
    if (rc == MPI_ERR_DIMS) {
        rc = tern_err_comm(NULL, MPI_ERR_DIMS,
                           "%s: nnodes=%d cannot be split over the %d dimensions with the "
                           "nonzero entries of dims as given",
                           fn, nnodes, ndims);
    } else if (rc) {
        rc = tern_err_raise(NULL, rc);
    }
out:
    return rc;
}
