/* Process topologies (MPI-4.1 chapter 8): what a communicator's 'topo'
 * pointer holds, and what the neighbourhood collectives (blocking here,
 * nonblocking on the schedule engine) need from it. */
#ifndef TERN_TOPO_TOPO_H
#define TERN_TOPO_TOPO_H

#include <mpi.h>

struct tern_comm;
struct tern_group;

struct tern_topo {
    int kind; /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */

    /* Cartesian: the grid, and this process's place in it. */
    int ndims;
    int *dims, *periods, *coords;

    /* Graph: the whole graph, as given to MPI_Graph_create. */
    int nnodes;
    int *index, *edges;

    /* Distributed graph: edge weights (NULL when unweighted). */
    int weighted;
    int *inw, *outw;

    /* The neighbours of this process in the order the neighbourhood
     * collectives use (MPI_PROC_NULL entries possible on a Cartesian grid). */
    int indeg, outdeg;
    int *in, *out;
};

/* ---- For the neighbourhood collectives (and MPI_Ineighbor_*). ---- */

/* c's neighbour lists: MPI_SUCCESS, or MPI_ERR_TOPOLOGY (not raised, no
 * message) when c has no process topology.  The lists live as long as c. */
int tern_topo_neighbors(struct tern_comm *c, int *indeg, const int **in, int *outdeg,
                        const int **out);

/* ---- Owned by the communicator: released through the hook that
 * runtime/init.c registers, copied by MPI_Comm_dup (src/api). ---- */

/* Frees what comm->topo points to (NULL is fine). */
void tern_topo_free(void *topo);
/* MPI_Comm_dup keeps the topology: 'to' gets a copy of from's.
 * MPI_SUCCESS or an MPI_ERR_NO_MEM code. */
int tern_topo_copy(const struct tern_comm *from, struct tern_comm *to);

/* ---- For the topology entry points (src/api/topo_*.c). ---- */

/* c's topology when it is of 'kind' (0: any kind); otherwise raises
 * MPI_ERR_TOPOLOGY on c naming fn and returns the code. */
int tern_topo_require(struct tern_comm *c, int kind, const char *fn, struct tern_topo **out);

/* An empty topology of 'kind', or NULL when out of memory. */
struct tern_topo *tern_topo_new(int kind);
/* A copy of n ints (NULL when n == 0 or src is NULL); *ok = 0 when out of
 * memory. */
int *tern_topo_ints(const int *src, int n, int *ok);

/* Cartesian helpers; t is a Cartesian topology, arguments are checked. */
int tern_cart_rank_of(const struct tern_topo *t, const int *coords); /* coords in range */
void tern_cart_coords_of(const struct tern_topo *t, int rank, int *coords);
/* MPI_Cart_shift for the process at 'coords'. */
void tern_cart_shift(const struct tern_topo *t, const int *coords, int dir, int disp, int *src,
                     int *dst);
/* Fills t->coords, t->in and t->out for the process with 'rank'. */
int tern_cart_finish(struct tern_topo *t, int rank);

/* MPI_Dims_create's balanced factorisation: the zero entries of dims[ndims]
 * get factors of nnodes / (product of the nonzero entries), non-increasing.
 * Arguments checked except divisibility: MPI_ERR_DIMS (no message) when the
 * free entries cannot make up nnodes. */
int tern_dims_fill(int nnodes, int ndims, int *dims);

#endif
