/* What the MPI-IO entry points (file.c, file_data.c) share: the file
 * argument, checked, with its errors on MPI_FILE_NULL's handler. */
#ifndef TERN_API_FILE_CHECK_H
#define TERN_API_FILE_CHECK_H

#include <mpi.h>

#include "io/io.h"

/* fh an open file: MPI_SUCCESS and *f, or MPI_ERR_FILE raised on
 * MPI_FILE_NULL's handler. */
int tern_file_check(MPI_File fh, const char *fn, struct tern_file **f);

#endif
