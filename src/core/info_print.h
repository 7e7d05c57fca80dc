/* What tern-info prints; also printed by rank 0 when TERN_SHOW_ENV_INFO=1.
 * Exported from libmpi (not an MPI name) so the tern-info tool can call it. */
#ifndef TERN_CORE_INFO_PRINT_H
#define TERN_CORE_INFO_PRINT_H

#include <stdio.h>

/* Version, build configuration, and every parameter with its value and the
 * source of the value (default, TERN_ variable, MV2_ alias).  Loads the
 * parameters from the environment first if MPI_Init has not. */
__attribute__((visibility("default"))) void tern_info_print(FILE *out);

/* The same, to stderr, for TERN_SHOW_ENV_INFO at MPI_Init. */
void tern_info_print_stderr(void);

#endif
