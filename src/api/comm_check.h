/* Argument checks and the common ending of the communicator constructors
 * (api/comm*.c).  Checks return MPI_SUCCESS or a code already raised on c
 * (MPI_COMM_WORLD's handler when c is NULL). */
#ifndef TERN_API_COMM_CHECK_H
#define TERN_API_COMM_CHECK_H

#include <mpi.h>

#include "core/objects.h"

int tern_chk_intra(struct tern_comm *c, const char *fn);
int tern_chk_inter(struct tern_comm *c, const char *fn);
int tern_chk_group(struct tern_comm *c, const char *fn, const char *arg, MPI_Group h,
                   struct tern_group **out);
/* Every member of g must belong to c's (local) group. */
int tern_chk_subgroup(struct tern_comm *c, const char *fn, struct tern_group *g);
int tern_chk_newcomm(struct tern_comm *c, const char *fn, MPI_Comm *newcomm);

/* The end of every constructor: on failure a half-made communicator goes,
 * MPI_COMM_NULL goes out and the error through c's handler; else the new
 * handle (or MPI_COMM_NULL) goes out. */
int tern_finish_newcomm(struct tern_comm *c, int rc, struct tern_comm *nc, MPI_Comm *newcomm);

#endif
