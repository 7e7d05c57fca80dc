/* The derived-datatype family: ping-pongs (dtype.c) and halo exchanges
 * (halo.c) share the derived-vs-packed result columns. */
#ifndef TB_DTYPE_H
#define TB_DTYPE_H

#include "tb.h"

/* size, derived (us), packed (us), derived / packed */
extern const struct tb_col dt_cols[4];

struct halo_shape {
    int ndims;
    int cut, ncut; /* dimensions cut across the ranks: cut .. cut+ncut-1 */
    int len[3];    /* a rank's interior cells per dimension; -1: the one the size sets */
};
extern const struct halo_shape tb_halo2d, tb_halo3d;
int tb_run_halo(struct tb_ctx *c);

#endif
