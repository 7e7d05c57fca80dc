/* What every persistent collective (MPI_X_init) checks besides the
 * arguments of its nonblocking form. */
#ifndef TERN_API_COLL_PERSIST_H
#define TERN_API_COLL_PERSIST_H

#include <mpi.h>

/* 'info' is a live info object or MPI_INFO_NULL, else MPI_ERR_INFO raised
 * on comm's handler.  An invalid comm is reported as the call's body would
 * report it.  No key changes anything, so the contents are not read. */
int tern_api_persist_info(const char *fn, MPI_Comm comm, MPI_Info info);

#endif
