/* The few collectives MPI-IO runs on a file's private communicator, on
 * plain integers.  Each returns MPI_SUCCESS or the collective's code
 * (not raised: the caller raises it on the file). */
#ifndef TERN_IO_IO_COLL_H
#define TERN_IO_IO_COLL_H

#include <stdint.h>

struct tern_comm;

int tern_io_bcast_int(struct tern_comm *c, int *v, int root);
int tern_io_bcast_i64(struct tern_comm *c, int64_t *v, int root);
int tern_io_allreduce_max_int(struct tern_comm *c, int *v);
/* all[r] = rank r's v, for every rank (all has c->size entries). */
int tern_io_allgather_i64(struct tern_comm *c, int64_t v, int64_t *all);

#endif
