/* What tern-info --coll prints: the collective algorithms the automatic
 * choice takes.  Exported from libmpi (not an MPI name) for the tool. */
#ifndef TERN_COLL_COLL_INFO_H
#define TERN_COLL_COLL_INFO_H

#include <stdio.h>

/* For every collective and message-size bucket, the algorithm chosen on an
 * intracommunicator of np ranks placed ppn to a host (the last host takes
 * the rest), under the parameters of the environment and the tuning table
 * they name (or the one MPI_Init loaded).  0, or 1 when the table cannot
 * be loaded (the reason printed to err). */
__attribute__((visibility("default"))) int tern_coll_info_print(FILE *out, FILE *err, int np,
                                                                int ppn);

/* One line per collective: its name as the tuning table spells it, then
 * the algorithms that serve intracommunicators, most preferred first.
 * tools/tune/coll_tune.py reads it to know what to measure. */
__attribute__((visibility("default"))) void tern_coll_info_algorithms(FILE *out);

#endif
