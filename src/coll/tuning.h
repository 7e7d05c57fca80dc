/* The collective tuning table: which algorithm the automatic choice takes
 * for a collective, by the size of the communicator, how its ranks spread
 * over hosts and the message size, read from the file that
 * TERN_COLL_TUNING_FILE names ("auto" or empty: the built-in table).
 *
 * One row a line, six fields apart by blanks, '#' to the end of the line a
 * comment:
 *
 *     collective  ranks  hosts  ppn  bytes   algorithm
 *     allreduce   2-8    1      *    8K-     shm_partition
 *
 * collective: a name of coll/select.h's list (barrier, allreduce, ibcast, ...);
 * ranks: the communicator's size; hosts: how many hosts its ranks are on;
 * ppn: the most of its ranks on one host; each "*", "N", "N-" (N or more) or
 * "N-M".  bytes: the size the collective selects on, rounded up to a power
 * of two, in the same forms, with bounds 0 or powers of two up to 4G (K, M,
 * G suffixes), so that a row covers whole buckets of the choice cache.
 * algorithm: one of the collective's TERN_<COLL>_ALGORITHM words.
 *
 * Rows apply to intracommunicators.  On a call where no
 * TERN_<COLL>_ALGORITHM forced choice runs, the first row that matches and
 * whose algorithm can be correct for the call (select.c's checks) decides;
 * with none, the algorithm tables' own conditions do.
 *
 * Every rank must load the same table, or ranks of one collective could
 * run different algorithms: at MPI_Init rank 0 publishes a digest of its
 * rows through the bootstrap and the others compare theirs with it.  A
 * file that cannot be read, or a row that does not parse, stops the job at
 * MPI_Init with the file and line. */
#ifndef TERN_COLL_TUNING_H
#define TERN_COLL_TUNING_H

#include <stddef.h>

#include "coll/select.h"

struct tern_comm;

struct tern_coll_tuning_row {
    int ranks_lo, ranks_hi; /* inclusive; hi INT_MAX when open */
    int hosts_lo, hosts_hi;
    int ppn_lo, ppn_hi;
    unsigned char coll;                 /* enum tern_coll_id */
    unsigned char bucket_lo, bucket_hi; /* choice-cache buckets (select.h), inclusive */
    const char *algo;                   /* the word, as the collective's parameter spells it */
    int line;                           /* in the file, for reports */
};

/* Reads the table TERN_COLL_TUNING_FILE names, in place of the one held.
 * 0, or -1 with a message naming the file and line in err (the table held
 * is then empty). */
int tern_coll_tuning_load(char *err, size_t len);

/* Where the table held came from: the file's path, or "(built-in)". */
const char *tern_coll_tuning_source(void);
int tern_coll_tuning_count(void);

/* Whether some row is for collective id. */
int tern_coll_tuning_has(enum tern_coll_id id);

/* The rows for id that match a communicator of 'ranks' ranks on 'hosts'
 * hosts, 'ppn' at most on one, and a size in bucket 'bucket', in the
 * table's order: start with *at = 0; NULL after the last. */
const struct tern_coll_tuning_row *tern_coll_tuning_next(enum tern_coll_id id, int ranks, int hosts,
                                                         int ppn, unsigned bucket, int *at);

/* How c's ranks spread over the hosts: their number and the most on one. */
void tern_coll_tuning_shape(const struct tern_comm *c, int *hosts, int *ppn);

/* The agreement at MPI_Init, around the bootstrap's host exchange (whose
 * fence makes the put visible): rank 0 publishes before it, the others
 * check after it.  0, or -1 with a message in err. */
int tern_coll_tuning_publish(char *err, size_t len);
int tern_coll_tuning_check(char *err, size_t len);

#endif
