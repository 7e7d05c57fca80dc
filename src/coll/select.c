/* Collective selection (see select.h): the algorithm tables, the choice
 * and its cache, and the entry points of coll/coll.h (blocking) and
 * coll/nbc.h (schedules) that run the chosen algorithm. */
#include "coll/select.h"

#include <stdlib.h>
#include <string.h>

#include "coll/algos.h"
#include "coll/coll_hier.h"
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/nbc_inter.h"
#include "coll/op.h"
#include "coll/sched.h"
#include "coll/shm_coll.h"
#include "coll/tuning.h"
#include "core/params.h"
#include "transport/shm/shm.h"

/* The kinds of communicator an algorithm serves. */
enum { INTRA = 1, INTER = 2, ANY = INTRA | INTER };

union algo_fn {
    tern_coll_barrier_fn *barrier;
    tern_coll_bcast_fn *bcast;
    tern_coll_rooted_fn *rooted;
    tern_coll_gatherv_fn *gatherv;
    tern_coll_scatterv_fn *scatterv;
    tern_coll_all_block_fn *all_block;
    tern_coll_allgatherv_fn *allgatherv;
    tern_coll_alltoallv_fn *alltoallv;
    tern_coll_alltoallw_fn *alltoallw;
    tern_coll_reduce_fn *reduce;
    tern_coll_all_reduce_fn *all_reduce;
    tern_coll_reduce_scatter_fn *reduce_scatter;
    tern_coll_reduce_scatter_block_fn *reduce_scatter_block;
    tern_nbc_barrier_fn *nbc_barrier;
    tern_nbc_bcast_fn *nbc_bcast;
    tern_nbc_rooted_fn *nbc_rooted;
    tern_nbc_gatherv_fn *nbc_gatherv;
    tern_nbc_scatterv_fn *nbc_scatterv;
    tern_nbc_all_block_fn *nbc_all_block;
    tern_nbc_allgatherv_fn *nbc_allgatherv;
    tern_nbc_alltoallv_fn *nbc_alltoallv;
    tern_nbc_alltoallw_fn *nbc_alltoallw;
    tern_nbc_reduce_fn *nbc_reduce;
    tern_nbc_all_reduce_fn *nbc_all_reduce;
    tern_nbc_reduce_scatter_fn *nbc_reduce_scatter;
    tern_nbc_reduce_scatter_block_fn *nbc_reduce_scatter_block;
};

struct algo {
    const char *name; /* its word in the collective's parameter */
    union algo_fn fn;
    /* What it needs to be correct: a forced choice is checked against these. */
    unsigned char kinds;       /* INTRA, INTER or ANY */
    unsigned char commutative; /* the operation must be commutative */
    unsigned char pof2;        /* the communicator's size must be a power of two */
    unsigned char shm;         /* every rank on this host, with shared memory (coll/shm_coll.h):
                                  SLOTS or CHUNKS */
    unsigned char hier;        /* ranks on several hosts, several on one (coll/coll_hier.h) */
    /* When auto takes it (0: no bound).  Sizes are the collective's message
     * size in bytes (see the entry points), powers of two. */
    int min_ranks;
    size_t over, upto; /* more than 'over', at most 'upto' bytes */
    /* Only where every rank shares this host's memory (as .shm, but the
     * algorithm is correct anywhere and may be forced there). */
    unsigned char local;
    /* .shm = SLOTS entries carry the data in one slot: auto takes them up
     * to TERN_SHMCOLL_MAX bytes (rounded down to a power of two, so that it
     * bounds whole buckets).  CHUNKS entries pass it through the slots in
     * pieces, whatever its size: their own bounds say when auto takes them.
     * MOVES entries (bcast, gather, scatter, allgather and their
     * nonblocking forms) are SLOTS entries up to what a slot carries for
     * them (tern_shm_coll_move_for), which depends on how many ranks share the
     * host; MOVES_ALL ones (alltoall) put a block per rank in one slot, so
     * that many blocks must fit. */
};
enum { SLOTS = 1, CHUNKS = 2, MOVES = 3, MOVES_ALL = 4 };

#define ALGO(word, member, f, ...)                \
    {                                             \
        .name = word, .fn.member = f, __VA_ARGS__ \
    }
#define KIB 1024

/* ---- The tables, most preferred first ---- */

static const struct algo barrier_algos[] = {
    ALGO("hier", barrier, tern_coll_barrier_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", barrier, tern_coll_barrier_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("dissemination", barrier, tern_coll_barrier_dissemination, .kinds = INTRA),
    ALGO("inter_leader", barrier, tern_coll_barrier_inter_leader, .kinds = INTER),
};
/* Linear bcast and scatter from just above what the slots carry (4 KiB by
 * default): at 8-16 KiB on 2 cores the binomial tree's relays each wait for
 * a core, 1.2-1.6x linear's time at 4 ranks and 3-5x at 8; at 3 ranks the
 * two are within 10% either way. */
static const struct algo bcast_algos[] = {
    ALGO("hier", bcast, tern_coll_bcast_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", bcast, tern_coll_bcast_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("linear", bcast, tern_coll_bcast_linear, .kinds = INTRA, .local = 1, .min_ranks = 3,
         .over = 4 * KIB),
    ALGO("binomial", bcast, tern_coll_bcast_binomial, .kinds = INTRA),
    ALGO("inter_leader", bcast, tern_coll_bcast_inter_leader, .kinds = INTER),
};
static const struct algo gather_algos[] = {
    ALGO("hier", rooted, tern_coll_gather_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", rooted, tern_coll_gather_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("linear", rooted, tern_coll_gather_linear, .kinds = INTRA, .min_ranks = 3, .local = 1),
    ALGO("binomial", rooted, tern_coll_gather_binomial, .kinds = INTRA),
    ALGO("inter_leader", rooted, tern_coll_gather_inter_leader, .kinds = INTER),
};
static const struct algo gatherv_algos[] = {
    ALGO("shm", gatherv, tern_coll_gatherv_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("linear", gatherv, tern_coll_gatherv_linear, .kinds = INTRA),
    ALGO("inter_direct", gatherv, tern_coll_gatherv_inter_direct, .kinds = INTER),
};
static const struct algo scatter_algos[] = {
    ALGO("hier", rooted, tern_coll_scatter_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", rooted, tern_coll_scatter_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("linear", rooted, tern_coll_scatter_linear, .kinds = INTRA, .local = 1, .min_ranks = 3,
         .over = 4 * KIB),
    ALGO("binomial", rooted, tern_coll_scatter_binomial, .kinds = INTRA),
    ALGO("inter_leader", rooted, tern_coll_scatter_inter_leader, .kinds = INTER),
};
static const struct algo scatterv_algos[] = {
    ALGO("shm", scatterv, tern_coll_scatterv_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("linear", scatterv, tern_coll_scatterv_linear, .kinds = INTRA),
    ALGO("inter_direct", scatterv, tern_coll_scatterv_inter_direct, .kinds = INTER),
};
static const struct algo allgather_algos[] = {
    /* Up to 128 KiB in all: at 4 ranks on two simulated hosts, 64 KiB
     * blocks took 1.26x the flat algorithms' time once UCX sent up to
     * 64 KiB eagerly (docs/comparison/hosts/2026-11-29-coll.txt). */
    ALGO("hier", all_block, tern_coll_allgather_hier, .kinds = INTRA, .hier = 1, .upto = 128 * KIB),
    ALGO("shm", all_block, tern_coll_allgather_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("bruck", all_block, tern_coll_allgather_bruck, .kinds = INTRA, .min_ranks = 4,
         .upto = 64 * KIB),
    ALGO("linear", all_block, tern_coll_allgather_linear, .kinds = INTRA, .min_ranks = 3,
         .local = 1),
    ALGO("ring", all_block, tern_coll_allgather_ring, .kinds = INTRA),
    ALGO("inter_leader", all_block, tern_coll_allgather_inter_leader, .kinds = INTER),
};
static const struct algo allgatherv_algos[] = {
    ALGO("hier", allgatherv, tern_coll_allgatherv_hier, .kinds = INTRA, .hier = 1,
         .upto = 128 * KIB),
    ALGO("shm", allgatherv, tern_coll_allgatherv_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("bruck", allgatherv, tern_coll_allgatherv_bruck, .kinds = INTRA, .min_ranks = 4,
         .upto = 64 * KIB),
    ALGO("linear", allgatherv, tern_coll_allgatherv_linear, .kinds = INTRA, .min_ranks = 3,
         .local = 1),
    ALGO("ring", allgatherv, tern_coll_allgatherv_ring, .kinds = INTRA),
    ALGO("inter_leader", allgatherv, tern_coll_allgatherv_inter_leader, .kinds = INTER),
};
static const struct algo alltoall_algos[] = {
    ALGO("hier", all_block, tern_coll_alltoall_hier, .kinds = INTRA, .hier = 1, .upto = KIB),
    ALGO("shm", all_block, tern_coll_alltoall_shm, .kinds = INTRA, .shm = MOVES_ALL),
    ALGO("bruck", all_block, tern_coll_alltoall_bruck, .kinds = INTRA, .min_ranks = 3, .upto = 256),
    /* Beyond 256 KiB blocks the n - 1 paired steps beat every message at
     * once, 7-10% at 4 and 8 ranks on 2 cores (one transfer at a time per
     * rank contends less for the memory). */
    ALGO("exchange", all_block, tern_coll_alltoall_exchange, .kinds = ANY, .min_ranks = 3,
         .local = 1, .upto = 256 * KIB),
    ALGO("pairwise", all_block, tern_coll_alltoall_pairwise, .kinds = INTRA),
};
static const struct algo alltoallv_algos[] = {
    ALGO("shm", alltoallv, tern_coll_alltoallv_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("exchange", alltoallv, tern_coll_alltoallv_exchange, .kinds = ANY, .min_ranks = 3,
         .local = 1),
    ALGO("pairwise", alltoallv, tern_coll_alltoallv_pairwise, .kinds = INTRA),
};
static const struct algo alltoallw_algos[] = {
    ALGO("shm", alltoallw, tern_coll_alltoallw_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("exchange", alltoallw, tern_coll_alltoallw_exchange, .kinds = ANY, .min_ranks = 3,
         .local = 1),
    ALGO("pairwise", alltoallw, tern_coll_alltoallw_pairwise, .kinds = INTRA),
};
static const struct algo reduce_algos[] = {
    ALGO("hier", reduce, tern_coll_reduce_hier, .kinds = INTRA, .commutative = 1, .hier = 1),
    ALGO("shm", reduce, tern_coll_reduce_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("binomial", reduce, tern_coll_reduce_binomial, .kinds = INTRA),
    ALGO("inter_leader", reduce, tern_coll_reduce_inter_leader, .kinds = INTER),
};
static const struct algo allreduce_algos[] = {
    ALGO("hier", all_reduce, tern_coll_allreduce_hier, .kinds = INTRA, .commutative = 1, .hier = 1),
    ALGO("shm", all_reduce, tern_coll_allreduce_shm, .kinds = INTRA, .shm = SLOTS),
    /* With 256 KiB slots it beat recursive doubling from 16 KiB to 4 MiB at
     * 2 ranks, by 1.4x to 2x (docs/architecture.md). */
    ALGO("shm_partition", all_reduce, tern_coll_allreduce_shm_partition, .kinds = INTRA,
         .commutative = 1, .shm = CHUNKS, .over = 4 * KIB),
    ALGO("recursive_doubling", all_reduce, tern_coll_allreduce_recursive_doubling, .kinds = INTRA),
    ALGO("inter_leader", all_reduce, tern_coll_allreduce_inter_leader, .kinds = INTER),
};
static const struct algo reduce_scatter_algos[] = {
    ALGO("hier", reduce_scatter, tern_coll_reduce_scatter_hier, .kinds = INTRA, .commutative = 1,
         .hier = 1),
    ALGO("shm", reduce_scatter, tern_coll_reduce_scatter_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("shm_partition", reduce_scatter, tern_coll_reduce_scatter_shm_partition, .kinds = INTRA,
         .shm = CHUNKS, .over = 4 * KIB),
    ALGO("pairwise", reduce_scatter, tern_coll_reduce_scatter_pairwise, .kinds = INTRA,
         .commutative = 1, .over = 64 * KIB),
    ALGO("reduce_scatterv", reduce_scatter, tern_coll_reduce_scatter_reduce_scatterv,
         .kinds = INTRA),
    ALGO("inter_leader", reduce_scatter, tern_coll_reduce_scatter_inter_leader, .kinds = INTER),
};
static const struct algo reduce_scatter_block_algos[] = {
    ALGO("hier", reduce_scatter_block, tern_coll_reduce_scatter_block_hier, .kinds = INTRA,
         .commutative = 1, .hier = 1),
    ALGO("shm", reduce_scatter_block, tern_coll_reduce_scatter_block_shm, .kinds = INTRA,
         .shm = SLOTS),
    ALGO("shm_partition", reduce_scatter_block, tern_coll_reduce_scatter_block_shm_partition,
         .kinds = INTRA, .shm = CHUNKS, .over = 4 * KIB),
    ALGO("pairwise", reduce_scatter_block, tern_coll_reduce_scatter_block_pairwise, .kinds = INTRA,
         .commutative = 1, .over = 64 * KIB),
    ALGO("reduce_scatterv", reduce_scatter_block, tern_coll_reduce_scatter_block_reduce_scatterv,
         .kinds = INTRA),
    ALGO("inter_leader", reduce_scatter_block, tern_coll_reduce_scatter_block_inter_leader,
         .kinds = INTER),
};
static const struct algo scan_algos[] = {
    ALGO("hier", all_reduce, tern_coll_scan_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", all_reduce, tern_coll_scan_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("recursive_doubling", all_reduce, tern_coll_scan_recursive_doubling, .kinds = INTRA),
};
static const struct algo exscan_algos[] = {
    ALGO("hier", all_reduce, tern_coll_exscan_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", all_reduce, tern_coll_exscan_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("recursive_doubling", all_reduce, tern_coll_exscan_recursive_doubling, .kinds = INTRA),
};

static const struct algo ibarrier_algos[] = {
    ALGO("hier", nbc_barrier, tern_nbc_barrier_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", nbc_barrier, tern_nbc_barrier_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("dissemination", nbc_barrier, tern_nbc_barrier_dissemination, .kinds = INTRA),
    ALGO("inter_leader", nbc_barrier, tern_nbc_inter_barrier, .kinds = INTER),
};
static const struct algo ibcast_algos[] = {
    ALGO("hier", nbc_bcast, tern_nbc_bcast_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", nbc_bcast, tern_nbc_bcast_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("linear", nbc_bcast, tern_nbc_bcast_linear, .kinds = INTRA, .local = 1, .min_ranks = 3,
         .over = 4 * KIB),
    ALGO("binomial", nbc_bcast, tern_nbc_bcast_binomial, .kinds = INTRA),
    ALGO("inter_leader", nbc_bcast, tern_nbc_inter_bcast, .kinds = INTER),
};
static const struct algo igather_algos[] = {
    ALGO("hier", nbc_rooted, tern_nbc_gather_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", nbc_rooted, tern_nbc_gather_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("linear", nbc_rooted, tern_nbc_gather_linear, .kinds = INTRA, .local = 1, .min_ranks = 3),
    ALGO("binomial", nbc_rooted, tern_nbc_gather_binomial, .kinds = INTRA),
    ALGO("inter_leader", nbc_rooted, tern_nbc_inter_gather, .kinds = INTER),
};
static const struct algo igatherv_algos[] = {
    ALGO("shm", nbc_gatherv, tern_nbc_gatherv_shm, .kinds = INTRA, .shm = SLOTS, .min_ranks = 3),
    ALGO("linear", nbc_gatherv, tern_nbc_gatherv_linear, .kinds = INTRA),
    ALGO("inter_direct", nbc_gatherv, tern_nbc_inter_gatherv, .kinds = INTER),
};
static const struct algo iscatter_algos[] = {
    ALGO("hier", nbc_rooted, tern_nbc_scatter_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", nbc_rooted, tern_nbc_scatter_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("linear", nbc_rooted, tern_nbc_scatter_linear, .kinds = INTRA, .local = 1, .min_ranks = 3,
         .over = 4 * KIB),
    ALGO("binomial", nbc_rooted, tern_nbc_scatter_binomial, .kinds = INTRA),
    ALGO("inter_leader", nbc_rooted, tern_nbc_inter_scatter, .kinds = INTER),
};
static const struct algo iscatterv_algos[] = {
    ALGO("shm", nbc_scatterv, tern_nbc_scatterv_shm, .kinds = INTRA, .shm = SLOTS, .min_ranks = 3),
    ALGO("linear", nbc_scatterv, tern_nbc_scatterv_linear, .kinds = INTRA),
    ALGO("inter_direct", nbc_scatterv, tern_nbc_inter_scatterv, .kinds = INTER),
};
static const struct algo iallgather_algos[] = {
    ALGO("hier", nbc_all_block, tern_nbc_allgather_hier, .kinds = INTRA, .hier = 1,
         .upto = 128 * KIB),
    ALGO("shm", nbc_all_block, tern_nbc_allgather_shm, .kinds = INTRA, .shm = MOVES),
    ALGO("bruck", nbc_all_block, tern_nbc_allgather_bruck, .kinds = INTRA, .min_ranks = 4,
         .upto = 64 * KIB),
    ALGO("linear", nbc_all_block, tern_nbc_allgather_linear, .kinds = INTRA, .min_ranks = 3,
         .local = 1),
    ALGO("ring", nbc_all_block, tern_nbc_allgather_ring, .kinds = INTRA),
    ALGO("inter_leader", nbc_all_block, tern_nbc_inter_allgather, .kinds = INTER),
};
static const struct algo iallgatherv_algos[] = {
    ALGO("hier", nbc_allgatherv, tern_nbc_allgatherv_hier, .kinds = INTRA, .hier = 1,
         .upto = 128 * KIB),
    ALGO("shm", nbc_allgatherv, tern_nbc_allgatherv_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("linear", nbc_allgatherv, tern_nbc_allgatherv_linear, .kinds = INTRA, .min_ranks = 3,
         .local = 1),
    ALGO("ring", nbc_allgatherv, tern_nbc_allgatherv_ring, .kinds = INTRA),
    ALGO("inter_leader", nbc_allgatherv, tern_nbc_inter_allgatherv, .kinds = INTER),
};
static const struct algo ialltoall_algos[] = {
    ALGO("hier", nbc_all_block, tern_nbc_alltoall_hier, .kinds = INTRA, .hier = 1, .upto = KIB),
    ALGO("shm", nbc_all_block, tern_nbc_alltoall_shm, .kinds = INTRA, .shm = MOVES_ALL),
    ALGO("exchange", nbc_all_block, tern_nbc_alltoall_exchange, .kinds = ANY),
};
static const struct algo ialltoallv_algos[] = {
    ALGO("shm", nbc_alltoallv, tern_nbc_alltoallv_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("exchange", nbc_alltoallv, tern_nbc_alltoallv_exchange, .kinds = ANY),
};
static const struct algo ialltoallw_algos[] = {
    ALGO("shm", nbc_alltoallw, tern_nbc_alltoallw_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("exchange", nbc_alltoallw, tern_nbc_alltoallw_exchange, .kinds = ANY),
};
static const struct algo ireduce_algos[] = {
    ALGO("hier", nbc_reduce, tern_nbc_reduce_hier, .kinds = INTRA, .commutative = 1, .hier = 1),
    ALGO("shm", nbc_reduce, tern_nbc_reduce_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("binomial", nbc_reduce, tern_nbc_reduce_binomial, .kinds = INTRA),
    ALGO("inter_leader", nbc_reduce, tern_nbc_inter_reduce, .kinds = INTER),
};
static const struct algo iallreduce_algos[] = {
    ALGO("hier", nbc_all_reduce, tern_nbc_allreduce_hier, .kinds = INTRA, .commutative = 1,
         .hier = 1),
    ALGO("shm", nbc_all_reduce, tern_nbc_allreduce_shm, .kinds = INTRA, .shm = SLOTS),
    /* Above 8 KiB: at 8 KiB, 1.45x recursive doubling's time at 2 ranks and
     * 1.09x at 4 (docs/comparison/runs/2026-11-29-nbc-partition). */
    ALGO("shm_partition", nbc_all_reduce, tern_nbc_allreduce_shm_partition, .kinds = INTRA,
         .commutative = 1, .shm = CHUNKS, .over = 8 * KIB),
    ALGO("recursive_doubling", nbc_all_reduce, tern_nbc_allreduce_recursive_doubling,
         .kinds = INTRA),
    ALGO("inter_leader", nbc_all_reduce, tern_nbc_inter_allreduce, .kinds = INTER),
};
static const struct algo ireduce_scatter_algos[] = {
    ALGO("hier", nbc_reduce_scatter, tern_nbc_reduce_scatter_hier, .kinds = INTRA, .commutative = 1,
         .hier = 1),
    ALGO("shm", nbc_reduce_scatter, tern_nbc_reduce_scatter_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("direct", nbc_reduce_scatter, tern_nbc_reduce_scatter_direct, .kinds = INTRA),
    ALGO("inter_leader", nbc_reduce_scatter, tern_nbc_reduce_scatter_inter_leader, .kinds = INTER),
};
static const struct algo ireduce_scatter_block_algos[] = {
    ALGO("hier", nbc_reduce_scatter_block, tern_nbc_reduce_scatter_block_hier, .kinds = INTRA,
         .commutative = 1, .hier = 1),
    ALGO("shm", nbc_reduce_scatter_block, tern_nbc_reduce_scatter_block_shm, .kinds = INTRA,
         .shm = SLOTS),
    ALGO("direct", nbc_reduce_scatter_block, tern_nbc_reduce_scatter_block_direct, .kinds = INTRA),
    ALGO("inter_leader", nbc_reduce_scatter_block, tern_nbc_reduce_scatter_block_inter_leader,
         .kinds = INTER),
};
static const struct algo iscan_algos[] = {
    ALGO("hier", nbc_all_reduce, tern_nbc_scan_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", nbc_all_reduce, tern_nbc_scan_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("recursive_doubling", nbc_all_reduce, tern_nbc_scan_recursive_doubling, .kinds = INTRA),
};
static const struct algo iexscan_algos[] = {
    ALGO("hier", nbc_all_reduce, tern_nbc_exscan_hier, .kinds = INTRA, .hier = 1),
    ALGO("shm", nbc_all_reduce, tern_nbc_exscan_shm, .kinds = INTRA, .shm = SLOTS),
    ALGO("recursive_doubling", nbc_all_reduce, tern_nbc_exscan_recursive_doubling, .kinds = INTRA),
};

struct table {
    const char *mpi_name;
    const char *const *param; /* the value of TERN_<COLL>_ALGORITHM */
    const struct algo *algos;
    int n;
};

static const struct table tables[TERN_COLL_COUNT] = {
#define TABLE(ID, field, mpi)                                              \
    [TERN_COLL_##ID] = {mpi, &tern_param.field##_algorithm, field##_algos, \
                        (int)(sizeof field##_algos / sizeof field##_algos[0])},
    TERN_COLL_LIST(TABLE)
#undef TABLE
};

/* ---- The choice ---- */

static unsigned bucket_of(size_t bytes)
{
    if (bytes <= 1) return (unsigned)bytes;
    unsigned k = 65u - (unsigned)__builtin_clzll((unsigned long long)(bytes - 1));
    return k < TERN_COLL_BUCKETS ? k : TERN_COLL_BUCKETS - 1;
}

/* A size bound is exact on buckets when it is a power of two whose bucket
 * is not the last, open-ended one. */
static int bound_ok(size_t b)
{
    return b == 0 || ((b & (b - 1)) == 0 && bucket_of(b) < TERN_COLL_BUCKETS - 1);
}

/* The parameter of a table, found by its value's address. */
static const struct tern_param_desc *param_of(const struct table *t)
{
    for (int i = 0; i < tern_param_count; i++)
        if (tern_param_table[i].value == (const void *)t->param) return &tern_param_table[i];
    return NULL;
}

/* Once: the tables agree with coll_params.def, and their bounds with the
 * buckets.  A mismatch is a bug of the library, caught by any test. */
static void check_tables(void)
{
    static int checked;
    if (checked) return;
    checked = 1;
    for (int id = 0; id < TERN_COLL_COUNT; id++) {
        const struct table *t = &tables[id];
        const struct tern_param_desc *p = param_of(t);
        if (!p || tern_param_choice_count(p) != t->n + 1 || tern_param_choice_index(p, "auto") != 0)
            tern_fatal("%s: its parameter's choices are not auto and its %d algorithms",
                       t->mpi_name, t->n);
        for (int i = 0; i < t->n; i++) {
            const struct algo *a = &t->algos[i];
            if (tern_param_choice_index(p, a->name) < 0)
                tern_fatal("%s: algorithm %s is not a choice of TERN_%s", t->mpi_name, a->name,
                           p->name);
            if (!bound_ok(a->over) || !bound_ok(a->upto))
                tern_fatal("%s: algorithm %s has a size bound that is not a power of two up to "
                           "2^32",
                           t->mpi_name, a->name);
        }
    }
}

/* What a choice is made for: a communicator, or (tern-info) the
 * description of one. */
struct view {
    const struct tern_comm *c; /* NULL for a description */
    int size, is_inter;
    int shm;        /* every rank shares this host's memory; -1 until asked */
    int hier;       /* the ranks span hosts with several on one; -1 until asked */
    int hosts, ppn; /* how the ranks spread over hosts; hosts -1 until counted */
};

static struct view view_of(const struct tern_comm *c)
{
    return (struct view){
        .c = c, .size = c->size, .is_inter = c->is_inter, .shm = -1, .hier = -1, .hosts = -1};
}

/* Whether every rank of v shares this host's memory. */
static int on_host(struct view *v)
{
    if (v->shm < 0) v->shm = tern_shmc_usable(v->c);
    return v->shm;
}

/* Whether a can be correct for the call. */
static int can_run(const struct algo *a, struct view *v, int commutative)
{
    if (!(a->kinds & (v->is_inter ? INTER : INTRA))) return 0;
    if (a->commutative && !commutative) return 0;
    if (a->pof2 && (v->size & (v->size - 1))) return 0;
    /* One rank has nothing to share: the algorithm hands it to point to point. */
    if (a->shm && v->size > 1 && !on_host(v)) return 0;
    if (a->hier) {
        if (v->hier < 0)
            v->hier = v->c ? tern_coll_hier_usable(v->c)
                           : !v->is_inter && v->size >= 3 && v->hosts >= 2 && v->ppn >= 2;
        if (!v->hier) return 0;
    }
    return 1;
}

/* The largest size auto gives the shared-memory algorithms that carry
 * 'max' bytes in a slot: a power of two, so that it bounds whole buckets. */
static size_t pow2_bound(size_t max)
{
    size_t b = 1;
    while (b * 2 <= max && b < ((size_t)1 << 32)) b *= 2;
    return max ? b : 0;
}

/* The top of bytes' bucket, so that a bound decides whole buckets. */
static size_t pow2_up(size_t bytes)
{
    size_t b = 1;
    while (b < bytes && b < ((size_t)1 << 62)) b *= 2;
    return b;
}

/* What a slot carries for the MOVES entries, on v's host (none when
 * TERN_SHMCOLL_MAX keeps auto from every shared-memory algorithm). */
static size_t move_bound(const struct view *v)
{
    if (!tern_param.shmcoll_max) return 0;
    if (!v->c) return pow2_bound(tern_shm_coll_move_for(v->ppn > 0 ? v->ppn : v->size));
    struct tern_shm_coll_pool p;
    tern_shm_coll_pool(&p);
    return pow2_bound(p.move_bytes);
}

/* Whether auto takes a. */
static int preferred(const struct algo *a, struct view *v, size_t bytes)
{
    if (a->min_ranks && v->size < a->min_ranks) return 0;
    if (a->local && !on_host(v)) return 0;
    if (a->over && bytes <= a->over) return 0;
    if (a->upto && bytes > a->upto) return 0;
    if (a->shm == SLOTS && bytes > pow2_bound((size_t)tern_param.shmcoll_max)) return 0;
    if (a->shm == MOVES && bytes > move_bound(v)) return 0;
    if (a->shm == MOVES_ALL && pow2_up(bytes) * (size_t)v->size > move_bound(v)) return 0;
    /* Two ranks swap each block once by CMA, both cores copying
     * (transport/shm/shm_rndv.c): 5-10% faster than two copies through the
     * slots from 32 KiB blocks. */
    if (a->shm == MOVES_ALL && v->size == 2 && bytes > 16 * KIB) return 0;
    return 1;
}

static const struct algo *by_name(const struct table *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->algos[i].name, name)) return &t->algos[i];
    return NULL;
}

/* The choice for a call on v: the forced algorithm where it can run, else
 * the first row of the tuning table (coll/tuning.h) whose algorithm can,
 * else the first entry whose every condition holds.  *refused: a forced
 * algorithm that cannot run, or NULL; *row: the row that decided, or NULL. */
static const struct algo *decide(enum tern_coll_id id, struct view *v, size_t bytes,
                                 int commutative, const struct algo **refused,
                                 const struct tern_coll_tuning_row **row)
{
    const struct table *t = &tables[id];
    const struct algo *a = NULL;
    *refused = NULL;
    *row = NULL;
    check_tables();
    const char *want = *t->param;
    if (strcmp(want, "auto")) {
        a = by_name(t, want);
        if (a && can_run(a, v, commutative)) return a;
        *refused = a;
    }
    if (!v->is_inter && tern_coll_tuning_has(id)) {
        if (v->hosts < 0) tern_coll_tuning_shape(v->c, &v->hosts, &v->ppn);
        const struct tern_coll_tuning_row *r;
        for (int at = 0;
             (r = tern_coll_tuning_next(id, v->size, v->hosts, v->ppn, bucket_of(bytes), &at));) {
            a = by_name(t, r->algo);
            if (a && can_run(a, v, commutative)) {
                *row = r;
                return a;
            }
        }
    }
    for (int i = 0; i < t->n; i++)
        if (can_run(&t->algos[i], v, commutative) && preferred(&t->algos[i], v, bytes))
            return &t->algos[i];
    /* Auto prefers none: the first that can run (on an intercommunicator,
     * alltoall's exchange whatever its size). */
    for (int i = 0; i < t->n; i++)
        if (can_run(&t->algos[i], v, commutative)) return &t->algos[i];
    return NULL;
}

__attribute__((cold, noinline)) static const struct algo *
choose(struct tern_comm *c, enum tern_coll_id id, size_t bytes, int commutative)
{
    static unsigned char warned[TERN_COLL_COUNT];
    const struct table *t = &tables[id];
    const struct algo *refused;
    const struct tern_coll_tuning_row *row;
    struct view v = view_of(c);
    const struct algo *a = decide(id, &v, bytes, commutative, &refused, &row);
    if (refused && c->rank == 0 && !warned[id]) {
        char lb[64];
        tern_warn("%s on %s: the algorithm %s asked for cannot run here (%s); "
                  "choosing automatically",
                  t->mpi_name, tern_comm_label(c, lb, sizeof lb), refused->name,
                  !(refused->kinds & (c->is_inter ? INTER : INTRA))
                      ? (c->is_inter ? "an intercommunicator" : "an intracommunicator")
                  : refused->commutative && !commutative       ? "the operation is not commutative"
                  : refused->pof2 && (c->size & (c->size - 1)) ? "the size is not a power of two"
                  : refused->hier ? "its ranks are not on several hosts with several on one"
                                  : "its ranks do not all share this host's memory");
        warned[id] = 1;
    }
    if (!a) tern_fatal("%s: no algorithm serves this communicator", t->mpi_name);
    /* Without memory for the cache the choice is made again next time. */
    if (!c->coll_sel) c->coll_sel = calloc(1, sizeof *c->coll_sel);
    if (c->coll_sel)
        c->coll_sel->pick[id][bucket_of(bytes)][commutative] = (uint8_t)(a - t->algos + 1);
    return a;
}

const char *tern_coll_predict(enum tern_coll_id id, int size, int hosts, int ppn, int shm,
                              size_t bytes, int commutative, int *row_line)
{
    struct view v = {.size = size, .shm = shm, .hier = -1, .hosts = hosts, .ppn = ppn};
    const struct algo *refused;
    const struct tern_coll_tuning_row *row;
    const struct algo *a = decide(id, &v, bytes, commutative, &refused, &row);
    *row_line = row ? row->line : 0;
    return a ? a->name : NULL;
}

int tern_coll_algo_serves_intra(enum tern_coll_id id, const char *name)
{
    const struct algo *a = by_name(&tables[id], name);
    return a && (a->kinds & INTRA);
}

/* Defines the entry point 'name': it runs the algorithm chosen for (id,
 * bytes, commutative) on comm.  The cached choice costs a load of the cache
 * pointer, one of the byte and one of the function, then a tail call; the
 * choice itself lives in name_miss, out of the way, so that the hit path
 * saves no registers. */
#define ENTRY(name, params, comm, id, bytes, commutative, member, args)                   \
    __attribute__((cold, noinline)) static int name##_miss params                         \
    {                                                                                     \
        return choose(comm, id, bytes, commutative)->fn.member args;                      \
    }                                                                                     \
    int name params                                                                       \
    {                                                                                     \
        const struct tern_coll_sel *sel = (comm)->coll_sel;                               \
        unsigned k;                                                                       \
        if (__builtin_expect(sel != NULL, 1) &&                                           \
            __builtin_expect((k = sel->pick[id][bucket_of(bytes)][commutative]) != 0, 1)) \
            return tables[id].algos[k - 1].fn.member args;                                \
        return name##_miss args;                                                          \
    }

void tern_coll_sel_free(struct tern_comm *c)
{
    free(c->coll_sel);
    c->coll_sel = NULL;
}

/* ---- Blocking entry points (coll/coll.h) ----
 *
 * The message size each one selects on: the bytes of the buffer or block
 * its tables' size bounds speak of, equal on all ranks; 0 where no entry
 * has a size bound (give it the size when one does). */

static size_t sum_counts(const int *counts, int n)
{
    size_t total = 0;
    for (int i = 0; i < n; i++) total += (size_t)counts[i];
    return total;
}

ENTRY(tern_coll_barrier, (struct tern_comm * c), c, TERN_COLL_BARRIER, 0, 0, barrier, (c))

ENTRY(tern_coll_bcast,
      (void *buf, size_t count, struct tern_datatype *dt, int root, struct tern_comm *c), c,
      TERN_COLL_BCAST, (c->is_inter ? 0 : count * dt->size), 0, bcast, (buf, count, dt, root, c))

/* gather and scatter: one block (the root's receive or send block, which
 * an MPI_IN_PLACE root still describes) */
ENTRY(tern_coll_gather,
      (const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf, size_t rcount,
       struct tern_datatype *rdt, int root, struct tern_comm *c),
      c, TERN_COLL_GATHER,
      (c->is_inter       ? 0
       : c->rank == root ? rcount * rdt->size
                         : scount * sdt->size),
      0, rooted, (sbuf, scount, sdt, rbuf, rcount, rdt, root, c))

ENTRY(tern_coll_gatherv,
      (const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf, const int *rcounts,
       const int *displs, struct tern_datatype *rdt, int root, struct tern_comm *c),
      c, TERN_COLL_GATHERV, 0, 0, gatherv, (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, c))

ENTRY(tern_coll_scatter,
      (const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf, size_t rcount,
       struct tern_datatype *rdt, int root, struct tern_comm *c),
      c, TERN_COLL_SCATTER,
      (c->is_inter       ? 0
       : c->rank == root ? scount * sdt->size
                         : rcount * rdt->size),
      0, rooted, (sbuf, scount, sdt, rbuf, rcount, rdt, root, c))

ENTRY(tern_coll_scatterv,
      (const void *sbuf, const int *scounts, const int *displs, struct tern_datatype *sdt,
       void *rbuf, size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c),
      c, TERN_COLL_SCATTERV, 0, 0, scatterv,
      (sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, c))

/* allgather: all blocks together */
ENTRY(tern_coll_allgather,
      (const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf, size_t rcount,
       struct tern_datatype *rdt, struct tern_comm *c),
      c, TERN_COLL_ALLGATHER, (rcount * rdt->size * (size_t)c->size), 0, all_block,
      (sbuf, scount, sdt, rbuf, rcount, rdt, c))

ENTRY(tern_coll_allgatherv,
      (const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf, const int *rcounts,
       const int *displs, struct tern_datatype *rdt, struct tern_comm *c),
      c, TERN_COLL_ALLGATHERV, (c->is_inter ? 0 : sum_counts(rcounts, c->size) * rdt->size), 0,
      allgatherv, (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, c))

/* alltoall: one block */
ENTRY(tern_coll_alltoall,
      (const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf, size_t rcount,
       struct tern_datatype *rdt, struct tern_comm *c),
      c, TERN_COLL_ALLTOALL, rcount * rdt->size, 0, all_block,
      (sbuf, scount, sdt, rbuf, rcount, rdt, c))

ENTRY(tern_coll_alltoallv,
      (const void *sbuf, const int *scounts, const int *sdispls, struct tern_datatype *sdt,
       void *rbuf, const int *rcounts, const int *rdispls, struct tern_datatype *rdt,
       struct tern_comm *c),
      c, TERN_COLL_ALLTOALLV, 0, 0, alltoallv,
      (sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, c))

ENTRY(tern_coll_alltoallw,
      (const void *sbuf, const int *scounts, const int *sdispls, struct tern_datatype *const *sdts,
       void *rbuf, const int *rcounts, const int *rdispls, struct tern_datatype *const *rdts,
       struct tern_comm *c),
      c, TERN_COLL_ALLTOALLW, 0, 0, alltoallw,
      (sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, c))

ENTRY(tern_coll_reduce,
      (const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt, struct tern_op *op,
       int root, struct tern_comm *c),
      c, TERN_COLL_REDUCE, (c->is_inter ? 0 : count * dt->size), op && op->commutative, reduce,
      (sbuf, rbuf, count, dt, op, root, c))

ENTRY(tern_coll_allreduce,
      (const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt, struct tern_op *op,
       struct tern_comm *c),
      c, TERN_COLL_ALLREDUCE, (c->is_inter ? 0 : count * dt->size), op->commutative != 0,
      all_reduce, (sbuf, rbuf, count, dt, op, c))

/* reduce_scatter(_block): the whole vector, per operation kind */
ENTRY(tern_coll_reduce_scatter,
      (const void *sbuf, void *rbuf, const int *rcounts, struct tern_datatype *dt,
       struct tern_op *op, struct tern_comm *c),
      c, TERN_COLL_REDUCE_SCATTER, (sum_counts(rcounts, c->size) * dt->size), op->commutative != 0,
      reduce_scatter, (sbuf, rbuf, rcounts, dt, op, c))

ENTRY(tern_coll_reduce_scatter_block,
      (const void *sbuf, void *rbuf, size_t rcount, struct tern_datatype *dt, struct tern_op *op,
       struct tern_comm *c),
      c, TERN_COLL_REDUCE_SCATTER_BLOCK, (rcount * dt->size * (size_t)c->size),
      op->commutative != 0, reduce_scatter_block, (sbuf, rbuf, rcount, dt, op, c))

ENTRY(tern_coll_scan,
      (const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt, struct tern_op *op,
       struct tern_comm *c),
      c, TERN_COLL_SCAN, count * dt->size, 0, all_reduce, (sbuf, rbuf, count, dt, op, c))

ENTRY(tern_coll_exscan,
      (const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt, struct tern_op *op,
       struct tern_comm *c),
      c, TERN_COLL_EXSCAN, count * dt->size, 0, all_reduce, (sbuf, rbuf, count, dt, op, c))

/* ---- Schedule builders (coll/nbc.h): the choice is made on the
 * schedule's communicator, which is the local one while an
 * intercommunicator algorithm adds its local phases ---- */

ENTRY(tern_nbc_barrier, (struct tern_sched * s), tern_sched_comm(s), TERN_COLL_IBARRIER, 0, 0,
      nbc_barrier, (s))

ENTRY(tern_nbc_bcast,
      (struct tern_sched * s, void *buf, size_t count, struct tern_datatype *dt, int root),
      tern_sched_comm(s), TERN_COLL_IBCAST, (tern_sched_comm(s)->is_inter ? 0 : count * dt->size),
      0, nbc_bcast, (s, buf, count, dt, root))

ENTRY(tern_nbc_gather,
      (struct tern_sched * s, const void *sbuf, size_t scount, struct tern_datatype *sdt,
       void *rbuf, size_t rcount, struct tern_datatype *rdt, int root),
      tern_sched_comm(s), TERN_COLL_IGATHER,
      (tern_sched_comm(s)->is_inter       ? 0
       : tern_sched_comm(s)->rank == root ? rcount * rdt->size
                                          : scount * sdt->size),
      0, nbc_rooted, (s, sbuf, scount, sdt, rbuf, rcount, rdt, root))

ENTRY(tern_nbc_gatherv,
      (struct tern_sched * s, const void *sbuf, size_t scount, struct tern_datatype *sdt,
       void *rbuf, const int *rcounts, const int *displs, struct tern_datatype *rdt, int root),
      tern_sched_comm(s), TERN_COLL_IGATHERV, 0, 0, nbc_gatherv,
      (s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root))

ENTRY(tern_nbc_scatter,
      (struct tern_sched * s, const void *sbuf, size_t scount, struct tern_datatype *sdt,
       void *rbuf, size_t rcount, struct tern_datatype *rdt, int root),
      tern_sched_comm(s), TERN_COLL_ISCATTER,
      (tern_sched_comm(s)->is_inter       ? 0
       : tern_sched_comm(s)->rank == root ? scount * sdt->size
                                          : rcount * rdt->size),
      0, nbc_rooted, (s, sbuf, scount, sdt, rbuf, rcount, rdt, root))

ENTRY(tern_nbc_scatterv,
      (struct tern_sched * s, const void *sbuf, const int *scounts, const int *displs,
       struct tern_datatype *sdt, void *rbuf, size_t rcount, struct tern_datatype *rdt, int root),
      tern_sched_comm(s), TERN_COLL_ISCATTERV, 0, 0, nbc_scatterv,
      (s, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root))

/* iallgather: all blocks together */
ENTRY(tern_nbc_allgather,
      (struct tern_sched * s, const void *sbuf, size_t scount, struct tern_datatype *sdt,
       void *rbuf, size_t rcount, struct tern_datatype *rdt),
      tern_sched_comm(s), TERN_COLL_IALLGATHER,
      (rcount * rdt->size * (size_t)tern_sched_comm(s)->size), 0, nbc_all_block,
      (s, sbuf, scount, sdt, rbuf, rcount, rdt))

ENTRY(tern_nbc_allgatherv,
      (struct tern_sched * s, const void *sbuf, size_t scount, struct tern_datatype *sdt,
       void *rbuf, const int *rcounts, const int *displs, struct tern_datatype *rdt),
      tern_sched_comm(s), TERN_COLL_IALLGATHERV,
      (tern_sched_comm(s)->is_inter ? 0
                                    : sum_counts(rcounts, tern_sched_comm(s)->size) * rdt->size),
      0, nbc_allgatherv, (s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt))

ENTRY(tern_nbc_alltoall,
      (struct tern_sched * s, const void *sbuf, size_t scount, struct tern_datatype *sdt,
       void *rbuf, size_t rcount, struct tern_datatype *rdt),
      tern_sched_comm(s), TERN_COLL_IALLTOALL, rcount * rdt->size, 0, nbc_all_block,
      (s, sbuf, scount, sdt, rbuf, rcount, rdt))

ENTRY(tern_nbc_alltoallv,
      (struct tern_sched * s, const void *sbuf, const int *scounts, const int *sdispls,
       struct tern_datatype *sdt, void *rbuf, const int *rcounts, const int *rdispls,
       struct tern_datatype *rdt),
      tern_sched_comm(s), TERN_COLL_IALLTOALLV, 0, 0, nbc_alltoallv,
      (s, sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt))

ENTRY(tern_nbc_alltoallw,
      (struct tern_sched * s, const void *sbuf, const int *scounts, const int *sdispls,
       struct tern_datatype *const *sdts, void *rbuf, const int *rcounts, const int *rdispls,
       struct tern_datatype *const *rdts),
      tern_sched_comm(s), TERN_COLL_IALLTOALLW, 0, 0, nbc_alltoallw,
      (s, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts))

ENTRY(tern_nbc_reduce,
      (struct tern_sched * s, const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
       struct tern_op *op, int root),
      tern_sched_comm(s), TERN_COLL_IREDUCE, (tern_sched_comm(s)->is_inter ? 0 : count * dt->size),
      op && op->commutative, nbc_reduce, (s, sbuf, rbuf, count, dt, op, root))

ENTRY(tern_nbc_allreduce,
      (struct tern_sched * s, const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
       struct tern_op *op),
      tern_sched_comm(s), TERN_COLL_IALLREDUCE,
      (tern_sched_comm(s)->is_inter ? 0 : count * dt->size), op && op->commutative, nbc_all_reduce,
      (s, sbuf, rbuf, count, dt, op))

ENTRY(tern_nbc_reduce_scatter,
      (struct tern_sched * s, const void *sbuf, void *rbuf, const int *rcounts,
       struct tern_datatype *dt, struct tern_op *op),
      tern_sched_comm(s), TERN_COLL_IREDUCE_SCATTER,
      (sum_counts(rcounts, tern_sched_comm(s)->size) * dt->size), op && op->commutative,
      nbc_reduce_scatter, (s, sbuf, rbuf, rcounts, dt, op))

ENTRY(tern_nbc_reduce_scatter_block,
      (struct tern_sched * s, const void *sbuf, void *rbuf, size_t rcount, struct tern_datatype *dt,
       struct tern_op *op),
      tern_sched_comm(s), TERN_COLL_IREDUCE_SCATTER_BLOCK,
      (rcount * dt->size * (size_t)tern_sched_comm(s)->size), op && op->commutative,
      nbc_reduce_scatter_block, (s, sbuf, rbuf, rcount, dt, op))

ENTRY(tern_nbc_scan,
      (struct tern_sched * s, const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
       struct tern_op *op),
      tern_sched_comm(s), TERN_COLL_ISCAN, count * dt->size, 0, nbc_all_reduce,
      (s, sbuf, rbuf, count, dt, op))

ENTRY(tern_nbc_exscan,
      (struct tern_sched * s, const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
       struct tern_op *op),
      tern_sched_comm(s), TERN_COLL_IEXSCAN, count * dt->size, 0, nbc_all_reduce,
      (s, sbuf, rbuf, count, dt, op))
