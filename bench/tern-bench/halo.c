/* Halo exchange of a stencil code, 2D or 3D, decomposed so that the
 * exchanged faces are the non-contiguous ones and can grow to many MiB:
 *   halo2d  strips: a 2D grid cut along its rows' direction, each rank owns
 *           n x W cells and trades its first and last columns with its left
 *           and right neighbours: one double per row, (W+2)*8 bytes apart
 *   halo3d  pencils: a 3D grid cut along its two slow dimensions, each rank
 *           owns W x W x n cells and trades four faces of W rows of n
 *           contiguous doubles (long pieces, some rows apart)
 * with W = 8 and n set by the size.  The ranks form a periodic Cartesian
 * grid over the cut dimensions (MPI_Dims_create); each has a ghost layer
 * one cell deep, and one exchange sends its boundary faces to the
 * neighbours and receives theirs into its ghost layer (all MPI_Irecv, then
 * all MPI_Isend, then MPI_Waitall).  Once the faces are
 * MPI_Type_create_subarray types sent as they lie; once they are copied
 * into contiguous buffers by loops, sent as doubles and copied out (the
 * copies are timed).  Size: the bytes of one face, n*8 (2D) or W*n*8 (3D;
 * sizes that are not are skipped). */
#include "halo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the interior of a rank's block: W, or -1 for the n that the size sets */
const struct halo_shape tb_halo2d = {2, 1, 1, {-1, W}}, tb_halo3d = {3, 0, 2, {W, W, -1}};

/* The box of face f: what is sent (ghost 0) or what is received (ghost 1). */
static void face_box(const struct halo *h, int f, int ghost, int start[MAXD], int sub[MAXD])
{
    int d = f / 2, high = f % 2;
    for (int i = 0; i < h->nd; i++) {
        start[i] = 1;
        sub[i] = h->len[i];
    }
    sub[d] = 1;
    if (ghost)
        start[d] = high ? h->len[d] + 1 : 0;
    else
        start[d] = high ? h->len[d] : 1;
}

static size_t lin(const struct halo *h, const int idx[MAXD])
{
    size_t l = 0;
    for (int i = 0; i < h->nd; i++) l = l * (size_t)h->ext[i] + (size_t)idx[i];
    return l;
}

/* Copies a box between the grid and a contiguous buffer, in C order, the
 * way a programmer packs by hand: a box of rows of contiguous doubles
 * (halo3d's faces) a memcpy per row; a box one double wide (halo2d's
 * columns) a plain strided loop over its doubles, the fastest simple loop
 * for that shape, rather than a memcpy call for every 8 bytes. */
static void box_copy(const struct halo *h, double *grid, double *buf, int f, int ghost, int to_buf)
{
    int start[MAXD], sub[MAXD], idx[MAXD];
    face_box(h, f, ghost, start, sub);
    /* The box as 3 dimensions, leading ones of extent 1 when nd is 2. */
    int s3[3] = {0, 0, 0}, n3[3] = {1, 1, 1}, off = 3 - h->nd;
    for (int i = 0; i < h->nd; i++) {
        s3[off + i] = start[i];
        n3[off + i] = sub[i];
    }
    /* rows follow each other one innermost extent apart */
    size_t rows = (size_t)n3[1], len = (size_t)n3[2], step = (size_t)h->ext[h->nd - 1], k = 0;
    for (int a = 0; a < n3[0]; a++, k += rows * len) {
        int full[3] = {s3[0] + a, s3[1], s3[2]};
        for (int i = 0; i < h->nd; i++) idx[i] = full[off + i];
        double *g = grid + lin(h, idx), *p = buf + k;
        if (len == 1 && to_buf) {
            for (size_t r = 0; r < rows; r++) p[r] = g[r * step];
        } else if (len == 1) {
            for (size_t r = 0; r < rows; r++) g[r * step] = p[r];
        } else {
            for (size_t r = 0; r < rows; r++) {
                if (to_buf)
                    memcpy(p + r * len, g + r * step, len * sizeof *g);
                else
                    memcpy(g + r * step, p + r * len, len * sizeof *g);
            }
        }
    }
}

static int exchange(struct tb_ctx *c, void *arg)
{
    struct halo *h = arg;
    int nf = h->nfaces, cnt = (int)h->face_elems;
    h->grid = (double *)tb_pool_next(&h->grids);
    /* The message crossing face f travels toward side f%2; its tag says
     * which way, so two faces to the same neighbour never mix. */
    for (int f = h->f0; f < h->f0 + nf; f++) {
        int tag = f ^ 1; /* what arrives over my low face was sent across the sender's high face */
        if (h->packed)
            TB_MPI(c, MPI_Irecv(h->rpk[f], cnt, MPI_DOUBLE, h->nbr[f], tag, h->cart,
                                &h->req[f - h->f0]));
        else
            TB_MPI(c,
                   MPI_Irecv(h->grid, 1, h->rface[f], h->nbr[f], tag, h->cart, &h->req[f - h->f0]));
    }
    for (int f = h->f0; f < h->f0 + nf; f++) {
        if (h->packed) {
            box_copy(h, h->grid, h->spk[f], f, 0, 1);
            TB_MPI(c, MPI_Isend(h->spk[f], cnt, MPI_DOUBLE, h->nbr[f], f, h->cart,
                                &h->req[nf + f - h->f0]));
        } else {
            TB_MPI(c, MPI_Isend(h->grid, 1, h->sface[f], h->nbr[f], f, h->cart,
                                &h->req[nf + f - h->f0]));
        }
    }
    TB_MPI(c, MPI_Waitall(2 * nf, h->req, h->st));
    if (h->packed)
        for (int f = h->f0; f < h->f0 + nf; f++) box_copy(h, h->grid, h->rpk[f], f, 1, 0);
    return 0;
}

/* Cell values: the owner's rank and the cell's place, exact in a double
 * and distinct for every rank and place. */
static double cell(int rank, size_t l) { return (double)rank * 4294967296.0 + (double)l; }

size_t tb_halo_cells(const struct halo *h)
{
    size_t cells = 1;
    for (int d = 0; d < h->nd; d++) cells *= (size_t)h->ext[d];
    return cells;
}

void tb_halo_fill(const struct halo *h, double *grid, int rank)
{
    size_t total = tb_halo_cells(h);
    for (size_t l = 0; l < total; l++) grid[l] = cell(rank, l);
    /* ghost faces start out wrong (no cell holds -1) */
    for (int f = h->f0; f < h->f0 + h->nfaces; f++) {
        double *tmp = h->rpk[f];
        for (size_t i = 0; i < h->face_elems; i++) tmp[i] = -1;
        box_copy(h, grid, tmp, f, 1, 0);
    }
}

/* After an exchange every cell of the grid is known: a ghost cell of an
 * exchanged face holds the neighbour's boundary cell across that face;
 * every other cell (interior, boundary, the ghost cells of the faces not
 * exchanged, the corners) still holds what tb_halo_fill put there. */
int tb_halo_check(struct tb_ctx *c, const struct halo *h, double *grid)
{
    int gs[NFACES][MAXD], ss[NFACES][MAXD], sub[NFACES][MAXD], idx[MAXD] = {0, 0, 0};
    for (int f = h->f0; f < h->f0 + h->nfaces; f++) {
        face_box(h, f, 1, gs[f], sub[f]);
        face_box(h, f ^ 1, 0, ss[f], sub[f]);
    }
    size_t total = tb_halo_cells(h);
    tb_tamper(c, grid, total * sizeof *grid);
    for (size_t l = 0; l < total; l++) {
        int owner = c->rank, face = -1;
        size_t from = l;
        for (int f = h->f0; f < h->f0 + h->nfaces && face < 0; f++) {
            int in = 1;
            for (int d = 0; d < h->nd; d++)
                in = in && idx[d] >= gs[f][d] && idx[d] < gs[f][d] + sub[f][d];
            if (in) face = f;
        }
        if (face >= 0) {
            int src[MAXD];
            for (int d = 0; d < h->nd; d++) src[d] = ss[face][d] + idx[d] - gs[face][d];
            owner = h->nbr[face];
            from = lin(h, src);
        }
        if (grid[l] != cell(owner, from)) {
            char where[48];
            if (face >= 0)
                snprintf(where, sizeof where, "ghost cell of face %d", face);
            else
                snprintf(where, sizeof where, "cell outside the ghost faces");
            return tb_fail(c,
                           "validation: rank %d, %s halo, %s at (%d,%d,%d) of (%d,%d,%d) is %.17g, "
                           "expected %.17g",
                           c->rank,
                           h->how      ? h->how
                           : h->packed ? "packed"
                                       : "derived",
                           where, idx[0], idx[1], h->nd > 2 ? idx[2] : 0, h->ext[0], h->ext[1],
                           h->nd > 2 ? h->ext[2] : 1, grid[l], cell(owner, from));
        }
        /* the next cell in C order */
        for (int d = h->nd - 1; d >= 0 && ++idx[d] == h->ext[d]; d--) idx[d] = 0;
    }
    return 0;
}

/* One untimed exchange on a patterned grid, checked. */
static int validate(struct tb_ctx *c, struct halo *h)
{
    tb_pool_set(&h->grids, h->grids.stride);
    double *g = (double *)h->grids.base;
    tb_halo_fill(h, g, c->rank);
    TB_TRY(exchange(c, h));
    return tb_halo_check(c, h, g);
}

/* A face's cells per unit of n: the fixed lengths of the dimensions that
 * are neither the face's own (a cut one, all of length W) nor n's. */
static size_t face_fixed(const struct halo_shape *sh)
{
    size_t k = 1;
    for (int d = 0; d < sh->ndims; d++)
        if (sh->len[d] > 0) k *= (size_t)sh->len[d];
    return k / (size_t)sh->len[sh->cut];
}

/* n for a face of 'size' bytes, or 0 when no n fits. */
int tb_halo_side_of(const struct halo_shape *sh, size_t size)
{
    size_t elems = size / sizeof(double), k = face_fixed(sh);
    if (elems % k || elems / k > 1u << 30) return 0;
    return (int)(elems / k);
}

static void set_lengths(struct halo *h, int n)
{
    h->face_elems = (size_t)n * face_fixed(h->shape);
    for (int d = 0; d < h->nd; d++) {
        h->len[d] = h->shape->len[d] > 0 ? h->shape->len[d] : n;
        h->ext[d] = h->len[d] + 2;
    }
}

int tb_halo_setup(struct tb_ctx *c, struct halo *h, size_t maxsize)
{
    /* only the cut dimensions spread over the ranks: the others are whole here */
    int dims[MAXD], periods[MAXD] = {1, 1, 1};
    for (int d = 0; d < h->nd; d++)
        dims[d] = d >= h->shape->cut && d < h->shape->cut + h->shape->ncut ? 0 : 1;
    TB_MPI(c, MPI_Dims_create(c->size, h->nd, dims));
    TB_MPI(c, MPI_Cart_create(c->comm, h->nd, dims, periods, 0, &h->cart));
    tb_track_comm(c, h->cart);
    for (int d = 0; d < h->nd; d++)
        TB_MPI(c, MPI_Cart_shift(h->cart, d, 1, &h->nbr[2 * d], &h->nbr[2 * d + 1]));
    set_lengths(h, tb_halo_side_of(h->shape, maxsize));
    TB_TRY(tb_pool_init(c, &h->grids, tb_halo_cells(h) * sizeof(double)));
    for (int f = h->f0; f < h->f0 + h->nfaces; f++) {
        h->spk[f] = tb_alloc(c, h->face_elems * sizeof(double));
        h->rpk[f] = tb_alloc(c, h->face_elems * sizeof(double));
        if (!h->spk[f] || !h->rpk[f]) return -1;
    }
    return 0;
}

int tb_halo_set_side(struct tb_ctx *c, struct halo *h, int n)
{
    set_lengths(h, n);
    tb_pool_set(&h->grids, tb_halo_cells(h) * sizeof(double));
    for (int f = h->f0; f < h->f0 + h->nfaces; f++) {
        int start[MAXD], sub[MAXD];
        face_box(h, f, 0, start, sub);
        TB_MPI(c, MPI_Type_create_subarray(h->nd, h->ext, sub, start, MPI_ORDER_C, MPI_DOUBLE,
                                           &h->sface[f]));
        TB_TRY(tb_type_commit(c, &h->sface[f]));
        face_box(h, f, 1, start, sub);
        TB_MPI(c, MPI_Type_create_subarray(h->nd, h->ext, sub, start, MPI_ORDER_C, MPI_DOUBLE,
                                           &h->rface[f]));
        TB_TRY(tb_type_commit(c, &h->rface[f]));
    }
    return 0;
}

int tb_run_halo(struct tb_ctx *c)
{
    const struct halo_shape *shape = c->b->arg;
    struct halo h;
    memset(&h, 0, sizeof h);
    h.shape = shape;
    h.nd = shape->ndims;
    h.f0 = 2 * shape->cut;
    h.nfaces = 2 * shape->ncut;
    size_t max = 0;
    for (size_t s = (size_t)-1; tb_next_size(c, &s);)
        if (tb_halo_side_of(shape, s) && s > max) max = s;
    if (!max) return tb_fail(c, "no message size is the size of a face (n*8 or %d*n*8 bytes)", W);
    TB_TRY(tb_halo_setup(c, &h, max));
    tb_columns(c, 4, dt_cols);
    for (size_t size = (size_t)-1; tb_next_size(c, &size);) {
        int n = tb_halo_side_of(shape, size);
        if (!n) continue;
        TB_TRY(tb_halo_set_side(c, &h, n));
        int iters = tb_iters(c, TB_COLL, size), warm = tb_warmup(c, TB_COLL, size);
        double us[2];
        for (h.packed = 0; h.packed < 2; h.packed++) {
            if (c->o->validate) TB_TRY(tb_validated(c, size, validate(c, &h)));
            tb_pool_set(&h.grids, h.grids.stride);
            double t, mn, mx;
            TB_TRY(tb_time_loop(c, 1, warm, iters, exchange, &h, &t));
            TB_TRY(tb_stats(c, 1, t * 1e6 / iters, &mn, &us[h.packed], &mx));
        }
        double row[4] = {(double)size, us[0], us[1], us[1] > 0 ? us[0] / us[1] : 0};
        tb_row(c, row);
    }
    return 0;
}
