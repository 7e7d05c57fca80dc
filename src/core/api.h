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

/* An alias attribute rather than "#pragma weak": clang gives the pragma's
 * alias the default -fvisibility=hidden, not mpi.h's declared visibility,
 * so libmpi would export no MPI_X at all.  mpi.h declares PMPI_X first. */
#define TERN_WEAK_ALIAS(name) \
    extern __typeof__(P##name) name __attribute__((weak, alias("P" #name)));

/* Exported from libmpi although not part of MPI (tern-info, data objects). */
#define TERN_EXPORT __attribute__((visibility("default")))

/* Report "NAME is not implemented in Tern yet" as MPI_ERR_UNSUPPORTED_OPERATION
 * on the handler the standard names for an error in that call, and return
 * the code (core/errors_unsupported.c): for a call that refers to no object,
 * to a communicator, a window, or a file (or to MPI_FILE_NULL's handler for
 * an I/O call that takes no file).  An invalid handle counts as no object. */
int tern_err_unsupported(const char *mpi_name);
int tern_err_unsupported_comm(const char *mpi_name, MPI_Comm comm);
int tern_err_unsupported_win(const char *mpi_name, MPI_Win win);
int tern_err_unsupported_file(const char *mpi_name, MPI_File file);

#endif
