/* What every file implementing an MPI procedure includes.
 *
 * Each procedure is defined once as PMPI_X; the public MPI_X is a weak alias
 * so profiling tools can interpose MPI_X and still reach PMPI_X.  Write
 *
 *     TERN_WEAK_ALIAS(MPI_Send)
 *     int PMPI_Send(...) { ... }
 *
 * tools/gen/genapi.py scans for TERN_WEAK_ALIAS(...) to learn which
 * procedures are implemented; every other procedure of the standard gets a
 * generated entry point (src/api/unimplemented.c) that reports
 * MPI_ERR_UNSUPPORTED_OPERATION with its name. */
#ifndef TERN_CORE_API_H
#define TERN_CORE_API_H

#include <mpi.h>

#define TERN_PRAGMA_(x) _Pragma(#x)
#define TERN_WEAK_ALIAS(name) TERN_PRAGMA_(weak name = P##name)

/* Exported from libmpi although not part of MPI (tern-info, data objects). */
#define TERN_EXPORT __attribute__((visibility("default")))

/* Reports "NAME is not implemented in Tern yet" as MPI_ERR_UNSUPPORTED_OPERATION
 * through MPI_COMM_WORLD's error handler; returns the error code. */
int tern_err_unsupported(const char *mpi_name);

#endif
