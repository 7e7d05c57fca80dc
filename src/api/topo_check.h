/* Argument checks shared by the topology entry points (src/api/topo_*.c,
 * their generated entry points and coll_neighbor.c).  Each returns
 * MPI_SUCCESS or a code that has already gone through c's error handler. */
#ifndef TERN_API_TOPO_CHECK_H
#define TERN_API_TOPO_CHECK_H

#include <mpi.h>

#include "api/check.h"
#include "core/objects.h"
#include "topo/topo.h"

/* A query's communicator and its topology of 'kind' (0: any). */
int tern_topo_chk_comm(MPI_Comm comm, int kind, const char *fn, struct tern_comm **c,
                       struct tern_topo **t);
/* c has a topology of 'kind', else MPI_ERR_TOPOLOGY. */
int tern_topo_chk_kind(struct tern_comm *c, int kind, const char *fn);
/* The end of a constructor: on failure the error goes through c's handler;
 * otherwise the new handle (MPI_COMM_NULL for non-members) goes out. */
int tern_topo_new_result(struct tern_comm *c, int rc, struct tern_comm *nc, MPI_Comm *newcomm);

/* v >= 0, else MPI_ERR_ARG. */
int tern_topo_chk_nonneg(struct tern_comm *c, const char *fn, const char *arg, int v);
/* An array of n entries is present when n > 0, else MPI_ERR_ARG. */
int tern_topo_chk_array(struct tern_comm *c, const char *fn, const char *arg, const void *a, int n);
/* Every a[i] is a rank of c, else MPI_ERR_RANK. */
int tern_topo_chk_ranks(struct tern_comm *c, const char *fn, const char *arg, const int *a, int n);
/* A rank of c, else MPI_ERR_RANK. */
int tern_topo_chk_rank(struct tern_comm *c, const char *fn, const char *arg, int rank);
/* A dimension of c's Cartesian grid, else MPI_ERR_ARG. */
int tern_topo_chk_direction(struct tern_comm *c, const char *fn, int direction);
/* Grid extents: ndims >= 0 (MPI_ERR_ARG), dims present, every dims[i] > 0
 * (MPI_ERR_DIMS); *size is their product, or MPI_ERR_DIMS past INT_MAX. */
int tern_topo_chk_grid(struct tern_comm *c, const char *fn, int ndims, const int *dims,
                       const int *periods, long *size);

#endif
