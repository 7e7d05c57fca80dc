/* The halo exchange's grid, faces and checks, shared by the derived and
 * packed exchanges (halo.c) and the one-sided one (rma_halo.c). */
#ifndef TB_HALO_H
#define TB_HALO_H

#include "dtype.h"

#define W 8
#define MAXD 3
#define NFACES (2 * MAXD)

struct halo {
    const struct halo_shape *shape;
    int nd;
    int f0, nfaces;  /* faces exchanged: f0 .. f0+nfaces-1, those of the cut dimensions */
    int len[MAXD];   /* interior cells in each dimension */
    int ext[MAXD];   /* len + 2 */
    int nbr[NFACES]; /* face f = 2*dim + side (0 low, 1 high): the neighbour across it */
    MPI_Comm cart;
    struct tb_pool grids;
    double *grid; /* the grid of this exchange */
    MPI_Datatype sface[NFACES], rface[NFACES];
    double *spk[NFACES], *rpk[NFACES];
    int packed;
    const char *how; /* names the exchange in messages; NULL: derived or packed */
    size_t face_elems;
    MPI_Request req[2 * NFACES];
    MPI_Status
        st[2 * NFACES]; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow misfires on it */
};

/* n for a face of 'size' bytes, or 0 when no n fits. */
int tb_halo_side_of(const struct halo_shape *sh, size_t size);
/* The Cartesian grid of the ranks, the neighbours, buffers for the largest size. */
int tb_halo_setup(struct tb_ctx *c, struct halo *h, size_t maxsize);
/* Lengths and face datatypes (sface: sent, rface: ghost) for side n. */
int tb_halo_set_side(struct tb_ctx *c, struct halo *h, int n);
size_t tb_halo_cells(const struct halo *h);
/* Known cells, ghost faces wrong; after an exchange, every cell checked. */
void tb_halo_fill(const struct halo *h, double *grid, int rank);
int tb_halo_check(struct tb_ctx *c, const struct halo *h, double *grid);

#endif
