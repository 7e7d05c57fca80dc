/* Info objects (MPI_Info): what other parts of the library read from them. */
#ifndef TERN_CORE_INFO_H
#define TERN_CORE_INFO_H

#include <mpi.h>

/* The value of 'key' in info, or NULL when info is MPI_INFO_NULL or has no
 * such key.  The string belongs to the info object. */
const char *tern_info_lookup(MPI_Info info, const char *key);

#endif
