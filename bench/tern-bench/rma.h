/* The one-sided family: OMB's one-sided set (rma.c) and the halo exchange
 * by MPI_Put (rma_halo.c) share the window and synchronisation choices. */
#ifndef TB_RMA_H
#define TB_RMA_H

#include "dtype.h"

struct tb_rma_win {
    enum tb_win kind; /* --win, or allocate (OMB's default) */
    MPI_Win win;      /* MPI_WIN_NULL when none is open */
    char *base;       /* this rank's window memory */
    MPI_Aint *disp;   /* per rank of the window: where its memory starts (dynamic: its address) */
    void *attached;   /* dynamic: the memory attached */
    MPI_Comm comm;    /* tb_rma_pair: ranks 0 and 1 */
    int in_pair, prank;
};

/* --win, or allocate (OMB's default). */
enum tb_win tb_rma_kind(const struct tb_ctx *c);
/* Ranks 0 and 1 in a communicator of their own (the others get
 * MPI_COMM_NULL and only join the barriers), and the window kind. */
int tb_rma_pair(struct tb_ctx *c, struct tb_rma_win *w);
/* Opens a window of w->kind over 'bytes' on comm: create and dynamic use
 * 'user' (which must hold bytes), allocate its own memory, zeroed. */
int tb_rma_open(struct tb_ctx *c, struct tb_rma_win *w, MPI_Comm comm, size_t bytes, char *user);
int tb_rma_close(struct tb_ctx *c, struct tb_rma_win *w);
/* --sync, or the benchmark's default; a mode not in 'offered' (a bit per
 * enum tb_sync) fails the benchmark, naming those offered. */
int tb_rma_sync_of(struct tb_ctx *c, enum tb_sync def, unsigned offered, enum tb_sync *out);

int tb_run_rma_halo(struct tb_ctx *c);

#endif
