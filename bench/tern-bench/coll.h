/* The collectives both the blocking (coll.c) and the nonblocking (nbc.c)
 * benchmarks run: buffers, one call, and the expected result of each. */
#ifndef TB_COLL_H
#define TB_COLL_H

#include "tb.h"

/* How a buffer's length follows the message size: not used, one block,
 * or one block per rank (per neighbour for the neighbourhood collectives). */
enum coll_len { LEN_NONE, LEN_ONE, LEN_PER_RANK };

struct coll_args {
    char *sbuf, *rbuf;
    size_t size;          /* message size in bytes, as OSU counts it for this collective */
    int count;            /* elements per block */
    int *counts, *displs; /* v and w variants, reduce_scatter */
    MPI_Datatype *types;  /* alltoallw */
    MPI_Datatype type;    /* MPI_CHAR, or -T's type for reductions */
    size_t tsize;         /* its size in bytes */
    MPI_Comm comm;
    int rank, nprocs;
    int peers; /* blocks of a LEN_PER_RANK buffer: nprocs, or the neighbours */
    int nbr
        [2]; /* neighbourhood collectives: the ranks before and after on a ring (or MPI_PROC_NULL) */
};

struct coll_op {
    const char *name;       /* lower case, as on the command line */
    const char *mpi, *impi; /* the blocking and nonblocking MPI names */
    enum coll_len slen, rlen;
    int reduction;      /* elements of -T's type summed (MPI_CHAR by default) */
    int nosize;         /* barrier: one row, no message */
    int per_rank_split; /* reduce_scatter: the vector is split among the ranks */
    int neighbor;       /* on a 2D Cartesian communicator */
    int (*call)(struct coll_args *a);
    int (*icall)(struct coll_args *a, MPI_Request *req);
    int (*check)(struct tb_ctx *c, const struct coll_args *a); /* result (or NULL) */
};

/* Buffers and argument arrays for a collective, sized for every message
 * size of the run; coll_set() points them at one size and the next slots. */
struct coll_bufs {
    struct tb_pool sp, rp;
    struct coll_args a;
};

int coll_init(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b);
/* Prepares size; returns 0, or 1 when this size cannot be run at this rank
 * count (a split vector smaller than the ranks). */
int coll_size(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b, size_t size);
void coll_next(struct coll_bufs *b); /* next buffers (fresh mode) */
/* One untimed call with patterned data, checked. */
int coll_validate(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b, int nonblocking);
/* Calls the collective once (nonblocking: start only). */
int coll_call(struct tb_ctx *c, const struct coll_op *op, struct coll_args *a);
int coll_start(struct tb_ctx *c, const struct coll_op *op, struct coll_args *a, MPI_Request *req);

/* Every collective: X(lower-case name, MPI name without MPI_).  Sizes that
 * are not a whole number of elements (of -T's type, for the reductions) are
 * skipped, as OMB does. */
/* clang-format off */
#define TB_COLLECTIVES(X)                         \
    X(barrier, Barrier)                           \
    X(bcast, Bcast)                               \
    X(gather, Gather)                             \
    X(gatherv, Gatherv)                           \
    X(scatter, Scatter)                           \
    X(scatterv, Scatterv)                         \
    X(allgather, Allgather)                       \
    X(allgatherv, Allgatherv)                     \
    X(alltoall, Alltoall)                         \
    X(alltoallv, Alltoallv)                       \
    X(alltoallw, Alltoallw)                       \
    X(reduce, Reduce)                             \
    X(allreduce, Allreduce)                       \
    X(reduce_scatter, Reduce_scatter)             \
    X(reduce_scatter_block, Reduce_scatter_block) \
    X(scan, Scan)                                 \
    X(exscan, Exscan)                             \
    X(neighbor_allgather, Neighbor_allgather)     \
    X(neighbor_alltoall, Neighbor_alltoall)
/* clang-format on */

#define TB_DECLARE_OP(lower, upper) extern const struct coll_op tb_op_##lower;
TB_COLLECTIVES(TB_DECLARE_OP)
#undef TB_DECLARE_OP

/* Default sizes of the collective benchmarks (OMB's): 1 B to 1 MiB. */
#define TB_COLL_MAX ((size_t)1 << 20)

#endif
