#include <limits.h>

#include "api/check.h"
#include "api/topo_check.h"
#include "core/errors.h"

int tern_topo_chk_comm(MPI_Comm comm, int kind, const char *fn, struct tern_comm **c,
                       struct tern_topo **t)
{
    int rc = tern_comm_check(comm, fn, "comm", c);
    return rc ? rc : tern_topo_require(*c, kind, fn, t);
}

int tern_topo_chk_kind(struct tern_comm *c, int kind, const char *fn)
{
    struct tern_topo *t;
    return tern_topo_require(c, kind, fn, &t);
}

int tern_topo_new_result(struct tern_comm *c, int rc, struct tern_comm *nc, MPI_Comm *newcomm)
{
    if (rc) return tern_err_raise(c, rc);
    *newcomm = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int tern_topo_chk_nonneg(struct tern_comm *c, const char *fn, const char *arg, int v)
{
    if (v >= 0) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_ARG, "%s: %s=%d must not be negative", fn, arg, v);
}

int tern_topo_chk_array(struct tern_comm *c, const char *fn, const char *arg, const void *a, int n)
{
    if (a || n <= 0) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL but has %d entries to give", fn, arg, n);
}

int tern_topo_chk_rank(struct tern_comm *c, const char *fn, const char *arg, int rank)
{
    if (rank >= 0 && rank < c->size) return MPI_SUCCESS;
    char lb[64];
    return tern_err_comm(c, MPI_ERR_RANK, "%s: %s=%d is not a rank of %s (valid: 0..%d)", fn, arg,
                         rank, tern_comm_label(c, lb, sizeof lb), c->size - 1);
}

int tern_topo_chk_direction(struct tern_comm *c, const char *fn, int direction)
{
    const struct tern_topo *t = c->topo;
    int ndims = t->ndims;
    if (direction >= 0 && direction < ndims) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_ARG,
                         "%s: direction=%d is not a dimension of the grid (valid: 0..%d)", fn,
                         direction, ndims - 1);
}

int tern_topo_chk_ranks(struct tern_comm *c, const char *fn, const char *arg, const int *a, int n)
{
    for (int i = 0; i < n; i++) {
        if (a[i] >= 0 && a[i] < c->size) continue;
        char lb[64];
        return tern_err_comm(c, MPI_ERR_RANK, "%s: %s[%d]=%d is not a rank of %s (valid: 0..%d)",
                             fn, arg, i, a[i], tern_comm_label(c, lb, sizeof lb), c->size - 1);
    }
    return MPI_SUCCESS;
}

int tern_topo_chk_grid(struct tern_comm *c, const char *fn, int ndims, const int *dims,
                       const int *periods, long *size)
{
    int rc;
    if (ndims < 0)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: ndims=%d must not be negative", fn, ndims);
    if ((rc = tern_topo_chk_array(c, fn, "dims", dims, ndims))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, "periods", periods, ndims))) return rc;
    long n = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return tern_err_comm(c, MPI_ERR_DIMS, "%s: dims[%d]=%d must be positive", fn, i,
                                 dims[i]);
        n *= dims[i];
        if (n > INT_MAX)
            return tern_err_comm(c, MPI_ERR_DIMS, "%s: the grid has more than %d processes", fn,
                                 INT_MAX);
    }
    *size = n;
    return MPI_SUCCESS;
}
