/* The halo exchanges of halo.c (halo2d's strips, halo3d's pencils; the
 * same grid, faces, neighbours and sizes) done one-sided: the grid is a
 * window (--win), and each rank puts every boundary face straight into
 * the neighbour's ghost layer, the face's MPI_Type_create_subarray type as
 * origin type and the neighbour's ghost face as target type, inside one
 * epoch: --sync fence (the default: MPI_Win_fence before and after the
 * puts) or pscw (post and start to the neighbours, the puts, complete and
 * wait).  Reports the time of one exchange, averaged over the ranks, and
 * its spread. */
#include "halo.h"
#include "rma.h"

#include <stdio.h>
#include <string.h>

struct rma_halo {
    struct halo h;
    struct tb_rma_win w;
    enum tb_sync sync;
    MPI_Group nbrs; /* the neighbours, each once */
};

static int exchange(struct tb_ctx *c, void *arg)
{
    struct rma_halo *x = arg;
    struct halo *h = &x->h;
    MPI_Win win = x->w.win;
    if (x->sync == TB_SYNC_FENCE) {
        TB_MPI(c, MPI_Win_fence(0, win));
    } else {
        TB_MPI(c, MPI_Win_post(x->nbrs, 0, win));
        TB_MPI(c, MPI_Win_start(x->nbrs, 0, win));
    }
    /* what leaves across my face f lands in the neighbour's ghost face on
     * its opposite side, f ^ 1 */
    for (int f = h->f0; f < h->f0 + h->nfaces; f++)
        TB_MPI(c, MPI_Put(h->grid, 1, h->sface[f], h->nbr[f], x->w.disp[h->nbr[f]], 1,
                          h->rface[f ^ 1], win));
    if (x->sync == TB_SYNC_FENCE) {
        TB_MPI(c, MPI_Win_fence(0, win));
    } else {
        TB_MPI(c, MPI_Win_complete(win));
        TB_MPI(c, MPI_Win_wait(win));
    }
    return 0;
}

static int neighbour_group(struct tb_ctx *c, struct rma_halo *x)
{
    struct halo *h = &x->h;
    int ranks[NFACES], n = 0;
    for (int f = h->f0; f < h->f0 + h->nfaces; f++) {
        int seen = 0;
        for (int i = 0; i < n; i++) seen |= ranks[i] == h->nbr[f];
        if (!seen) ranks[n++] = h->nbr[f];
    }
    MPI_Group all;
    TB_MPI(c, MPI_Comm_group(h->cart, &all));
    int rc = MPI_Group_incl(all, n, ranks, &x->nbrs);
    MPI_Group_free(&all);
    if (rc != MPI_SUCCESS) return tb_mpi_error(c, "MPI_Group_incl", rc);
    return 0;
}

static int one_size(struct tb_ctx *c, struct rma_halo *x, size_t size)
{
    struct halo *h = &x->h;
    TB_TRY(tb_halo_set_side(c, h, tb_halo_side_of(h->shape, size)));
    size_t bytes = tb_halo_cells(h) * sizeof(double);
    TB_TRY(tb_rma_open(c, &x->w, h->cart, bytes, h->grids.base));
    h->grid = (double *)x->w.base;
    if (c->o->validate) {
        tb_halo_fill(h, h->grid, c->rank);
        TB_MPI(c, MPI_Barrier(c->comm));
        int rc = exchange(c, x);
        if (!rc) rc = tb_halo_check(c, h, h->grid);
        TB_TRY(tb_validated(c, size, rc));
    }
    int iters = tb_iters(c, TB_COLL, size), warm = tb_warmup(c, TB_COLL, size);
    double t, row[4] = {(double)size, 0, 0, 0};
    TB_TRY(tb_time_loop(c, 1, warm, iters, exchange, x, &t));
    TB_TRY(tb_stats(c, 1, t * 1e6 / iters, &row[2], &row[1], &row[3]));
    TB_TRY(tb_rma_close(c, &x->w));
    tb_row(c, row);
    return 0;
}

static int run(struct tb_ctx *c, struct rma_halo *x)
{
    struct halo *h = &x->h;
    h->shape = c->b->arg;
    h->nd = h->shape->ndims;
    h->f0 = 2 * h->shape->cut;
    h->nfaces = 2 * h->shape->ncut;
    h->how = "one-sided";
    TB_TRY(
        tb_rma_sync_of(c, TB_SYNC_FENCE, (1u << TB_SYNC_FENCE) | (1u << TB_SYNC_PSCW), &x->sync));
    x->w.kind = tb_rma_kind(c);
    if (x->w.kind == TB_WIN_ALLOC_MEM)
        return tb_fail(c, "--win alloc_mem: the halo's grids come from the heap; use create");
    size_t max = 0;
    for (size_t s = (size_t)-1; tb_next_size(c, &s);)
        if (tb_halo_side_of(h->shape, s) && s > max) max = s;
    if (!max) return tb_fail(c, "no message size is the size of a face (n*8 or %d*n*8 bytes)", W);
    TB_TRY(tb_halo_setup(c, h, max));
    if (x->sync == TB_SYNC_PSCW) TB_TRY(neighbour_group(c, x));
    snprintf(c->note, sizeof c->note, "window: %s, synchronisation: %s; time of one exchange",
             tb_win_names[x->w.kind], tb_sync_names[x->sync]);
    static const struct tb_col cols[] = {
        {"size", "B", 0, 0}, {"avg", "us", 2, -1}, {"min", "us", 2, -1}, {"max", "us", 2, -1}};
    tb_columns(c, 4, cols);
    for (size_t size = (size_t)-1; tb_next_size(c, &size);)
        if (tb_halo_side_of(h->shape, size)) TB_TRY(one_size(c, x, size));
    return 0;
}

int tb_run_rma_halo(struct tb_ctx *c)
{
    struct rma_halo x;
    memset(&x, 0, sizeof x);
    x.w.win = MPI_WIN_NULL;
    x.nbrs = MPI_GROUP_NULL;
    int rc = run(c, &x);
    /* whatever happened: a window left open would hang MPI_Finalize */
    if (x.w.win != MPI_WIN_NULL) tb_rma_close(c, &x.w);
    if (x.nbrs != MPI_GROUP_NULL) MPI_Group_free(&x.nbrs);
    return rc;
}
