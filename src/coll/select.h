/* Collective selection: which algorithm a collective call runs.
 *
 * Each collective (blocking, and nonblocking/persistent, which build
 * schedules) has a table of algorithms in select.c, most preferred first.
 * An entry says what the algorithm needs to be correct (kind of
 * communicator, a commutative operation, a power-of-two size) and when the
 * automatic choice takes it (communicator size, message size).  The
 * parameter TERN_<COLL>_ALGORITHM (coll_params.def) names the algorithm to
 * take, or "auto": the first row of the tuning table (coll/tuning.h) that
 * matches and whose algorithm can run, else the first entry whose every
 * condition holds.  A named
 * algorithm that cannot be correct for the call falls back to auto, and
 * rank 0 of the communicator warns once per collective.
 *
 * Every condition is a function of what all ranks of the call agree on
 * (communicator, operation, message size by the matching type
 * signatures), so every rank picks the same algorithm.
 *
 * The choice is cached on the communicator (c->coll_sel), one byte per
 * collective, message-size bucket and commutativity; the parameters are
 * fixed once MPI is initialised, so a cached choice never goes stale.
 * Buckets are powers of two: bucket k holds the sizes in (2^(k-1), 2^k],
 * and the table's size bounds are powers of two (select.c checks), so
 * every size of a bucket gets the same answer.
 *
 * Adding an algorithm: write it with its collective's signature
 * (coll/algos.h for blocking ones, coll/nbc_algos.h for schedules), add an
 * entry to the collective's table in select.c, and its name to the
 * parameter's choices in coll_params.def. */
#ifndef TERN_COLL_SELECT_H
#define TERN_COLL_SELECT_H

#include <stddef.h>
#include <stdint.h>

/* The collectives that have a table: name, parameter field, MPI name. */
#define TERN_COLL_LIST(X)                                                        \
    X(BARRIER, barrier, "MPI_Barrier")                                           \
    X(BCAST, bcast, "MPI_Bcast")                                                 \
    X(GATHER, gather, "MPI_Gather")                                              \
    X(GATHERV, gatherv, "MPI_Gatherv")                                           \
    X(SCATTER, scatter, "MPI_Scatter")                                           \
    X(SCATTERV, scatterv, "MPI_Scatterv")                                        \
    X(ALLGATHER, allgather, "MPI_Allgather")                                     \
    X(ALLGATHERV, allgatherv, "MPI_Allgatherv")                                  \
    X(ALLTOALL, alltoall, "MPI_Alltoall")                                        \
    X(ALLTOALLV, alltoallv, "MPI_Alltoallv")                                     \
    X(ALLTOALLW, alltoallw, "MPI_Alltoallw")                                     \
    X(REDUCE, reduce, "MPI_Reduce")                                              \
    X(ALLREDUCE, allreduce, "MPI_Allreduce")                                     \
    X(REDUCE_SCATTER, reduce_scatter, "MPI_Reduce_scatter")                      \
    X(REDUCE_SCATTER_BLOCK, reduce_scatter_block, "MPI_Reduce_scatter_block")    \
    X(SCAN, scan, "MPI_Scan")                                                    \
    X(EXSCAN, exscan, "MPI_Exscan")                                              \
    X(IBARRIER, ibarrier, "MPI_Ibarrier")                                        \
    X(IBCAST, ibcast, "MPI_Ibcast")                                              \
    X(IGATHER, igather, "MPI_Igather")                                           \
    X(IGATHERV, igatherv, "MPI_Igatherv")                                        \
    X(ISCATTER, iscatter, "MPI_Iscatter")                                        \
    X(ISCATTERV, iscatterv, "MPI_Iscatterv")                                     \
    X(IALLGATHER, iallgather, "MPI_Iallgather")                                  \
    X(IALLGATHERV, iallgatherv, "MPI_Iallgatherv")                               \
    X(IALLTOALL, ialltoall, "MPI_Ialltoall")                                     \
    X(IALLTOALLV, ialltoallv, "MPI_Ialltoallv")                                  \
    X(IALLTOALLW, ialltoallw, "MPI_Ialltoallw")                                  \
    X(IREDUCE, ireduce, "MPI_Ireduce")                                           \
    X(IALLREDUCE, iallreduce, "MPI_Iallreduce")                                  \
    X(IREDUCE_SCATTER, ireduce_scatter, "MPI_Ireduce_scatter")                   \
    X(IREDUCE_SCATTER_BLOCK, ireduce_scatter_block, "MPI_Ireduce_scatter_block") \
    X(ISCAN, iscan, "MPI_Iscan")                                                 \
    X(IEXSCAN, iexscan, "MPI_Iexscan")

enum tern_coll_id {
#define TERN_COLL_ID(ID, field, mpi) TERN_COLL_##ID,
    TERN_COLL_LIST(TERN_COLL_ID)
#undef TERN_COLL_ID
        TERN_COLL_COUNT
};

/* Message-size buckets: 0, 1, (1, 2], (2, 4], ..., and all beyond 2^32. */
#define TERN_COLL_BUCKETS 35

/* A communicator's cached choices: index + 1 into the collective's table,
 * 0 while not chosen.  Allocated at its first collective. */
struct tern_coll_sel {
    uint8_t pick[TERN_COLL_COUNT][TERN_COLL_BUCKETS][2];
};

struct tern_comm;

/* Frees c's cached choices (communicator destruction). */
void tern_coll_sel_free(struct tern_comm *c);

/* What the choice would be, for tern-info, on an intracommunicator of
 * 'size' ranks on 'hosts' hosts, at most 'ppn' on one, whose ranks share
 * this host's memory when 'shm' is set, for a message of 'bytes': the
 * algorithm's name (NULL: none serves), and in *row_line the line of the
 * tuning table's row that decided, or 0. */
const char *tern_coll_predict(enum tern_coll_id id, int size, int hosts, int ppn, int shm,
                              size_t bytes, int commutative, int *row_line);

/* Whether the collective has an algorithm of that name for intracommunicators. */
int tern_coll_algo_serves_intra(enum tern_coll_id id, const char *name);

#endif
