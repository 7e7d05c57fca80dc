/* The collectives: buffers, calls (blocking and nonblocking) and checks.
 *
 * Sizes follow OMB: for gather, scatter, allgather and alltoall the size is
 * one rank's block; for reductions it is the vector summed, of MPI_CHAR as
 * OMB 7.x by default (-T int or float as OMB's -T); for
 * reduce_scatter(_block) it is the whole vector, split among the ranks.
 * The root is rank 0.  The neighbourhood collectives run on OMB's default
 * neighbourhood (-N cart:1:1): a periodic ring of all ranks, each rank's
 * neighbours the one before and the one after.  OMB refuses fewer than 3
 * ranks; there the ring is left open (the missing neighbour is
 * MPI_PROC_NULL and sends nothing), because on a ring of 1 or 2 a rank meets
 * the same neighbour twice and some libraries' nonblocking versions then mix
 * the two blocks up.  Size is one neighbour's block. */
#include "coll.h"

#include <string.h>

/* ---- data patterns ---------------------------------------------------------------------- */

/* Byte blocks: the block rank 'from' sends to rank 'to'. */
static unsigned blk(int from, int to) { return (unsigned)from * 4099u + (unsigned)to + 17u; }

/* Reduction input: small integers, so sums are exact in int and float; an
 * MPI_CHAR sum wraps modulo 256 and is compared so.  They follow the hash
 * of the byte patterns, so a block of elements moved to the wrong place
 * does not sum to the right values. */
static long rv(int rank, size_t i) { return tb_pat((unsigned)rank * 7u + 3u, i) % 17; }

static long rsum(int lo, int hi, size_t i)
{
    long s = 0;
    for (int r = lo; r < hi; r++) s += rv(r, i);
    return s;
}

static void fill(struct coll_args *a, const struct coll_op *op)
{
    size_t blocks = op->slen == LEN_PER_RANK ? (size_t)a->peers : 1;
    if (op->reduction) {
        for (size_t i = 0; i < (size_t)a->count; i++)
            tb_elem_set(a->type, a->sbuf, i, rv(a->rank, i));
    } else if (op->slen != LEN_NONE) {
        for (size_t d = 0; d < blocks; d++)
            tb_fill(a->sbuf + d * a->size, a->size, blk(a->rank, (int)d));
    }
    if (op->rlen != LEN_NONE)
        memset(a->rbuf, 0, (op->rlen == LEN_PER_RANK ? (size_t)a->peers : 1) * a->size);
    if (op == &tb_op_bcast && a->rank == 0) tb_fill(a->rbuf, a->size, blk(0, 0));
}

/* rbuf[0..n) holds elements first.. of the sum over ranks lo..hi-1. */
static int check_sums(struct tb_ctx *c, const struct coll_args *a, size_t first, size_t n, int lo,
                      int hi)
{
    tb_tamper(c, a->rbuf, n * a->tsize);
    for (size_t i = 0; i < n; i++)
        if (!tb_elem_match(a->type, a->rbuf, i, rsum(lo, hi, first + i)))
            return tb_fail(
                c, "validation: rank %d, reduction result: element %zu of %zu is %g, expected %ld",
                c->rank, first + i, n, tb_elem_get(a->type, a->rbuf, i), rsum(lo, hi, first + i));
    return 0;
}

/* rbuf holds one block from every rank r, made by blk(r, to(r)). */
static int check_blocks(struct tb_ctx *c, const struct coll_args *a, int alltoall)
{
    for (int r = 0; r < a->nprocs; r++)
        TB_TRY(tb_check(c, a->rbuf + (size_t)r * a->size, a->size, blk(r, alltoall ? a->rank : 0),
                        "block received from a rank"));
    return 0;
}

static int ck_bcast(struct tb_ctx *c, const struct coll_args *a)
{
    return tb_check(c, a->rbuf, a->size, blk(0, 0), "broadcast buffer");
}
static int ck_gather(struct tb_ctx *c, const struct coll_args *a)
{
    return a->rank == 0 ? check_blocks(c, a, 0) : 0;
}
static int ck_scatter(struct tb_ctx *c, const struct coll_args *a)
{
    return tb_check(c, a->rbuf, a->size, blk(0, a->rank), "scattered block");
}
static int ck_allgather(struct tb_ctx *c, const struct coll_args *a)
{
    return check_blocks(c, a, 0);
}
static int ck_alltoall(struct tb_ctx *c, const struct coll_args *a)
{
    return check_blocks(c, a, 1);
}
/* Slot j of a neighbourhood collective faces neighbour nbr[j]; that
 * neighbour sees this rank in the opposite direction, slot j^1. */
static int ck_neighbor_allgather(struct tb_ctx *c, const struct coll_args *a)
{
    for (int j = 0; j < a->peers; j++)
        if (a->nbr[j] != MPI_PROC_NULL)
            TB_TRY(tb_check(c, a->rbuf + (size_t)j * a->size, a->size, blk(a->nbr[j], 0),
                            "block from a neighbour"));
    return 0;
}
static int ck_neighbor_alltoall(struct tb_ctx *c, const struct coll_args *a)
{
    for (int j = 0; j < a->peers; j++)
        if (a->nbr[j] != MPI_PROC_NULL)
            TB_TRY(tb_check(c, a->rbuf + (size_t)j * a->size, a->size, blk(a->nbr[j], j ^ 1),
                            "block from a neighbour"));
    return 0;
}
static int ck_reduce(struct tb_ctx *c, const struct coll_args *a)
{
    return a->rank == 0 ? check_sums(c, a, 0, (size_t)a->count, 0, a->nprocs) : 0;
}
static int ck_allreduce(struct tb_ctx *c, const struct coll_args *a)
{
    return check_sums(c, a, 0, (size_t)a->count, 0, a->nprocs);
}
static int ck_scan(struct tb_ctx *c, const struct coll_args *a)
{
    return check_sums(c, a, 0, (size_t)a->count, 0, a->rank + 1);
}
static int ck_exscan(struct tb_ctx *c, const struct coll_args *a)
{
    /* rank 0's result is undefined */
    return a->rank ? check_sums(c, a, 0, (size_t)a->count, 0, a->rank) : 0;
}
static int ck_reduce_scatter(struct tb_ctx *c, const struct coll_args *a)
{
    return check_sums(c, a, (size_t)a->displs[a->rank], (size_t)a->counts[a->rank], 0, a->nprocs);
}

/* ---- calls ---------------------------------------------------------------------------- */

#define S a->sbuf
#define R a->rbuf
#define N a->count
#define T a->type

static int c_barrier(struct coll_args *a) { return MPI_Barrier(a->comm); }
static int i_barrier(struct coll_args *a, MPI_Request *q) { return MPI_Ibarrier(a->comm, q); }
static int c_bcast(struct coll_args *a) { return MPI_Bcast(R, N, T, 0, a->comm); }
static int i_bcast(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ibcast(R, N, T, 0, a->comm, q);
}
static int c_gather(struct coll_args *a) { return MPI_Gather(S, N, T, R, N, T, 0, a->comm); }
static int i_gather(struct coll_args *a, MPI_Request *q)
{
    return MPI_Igather(S, N, T, R, N, T, 0, a->comm, q);
}
static int c_gatherv(struct coll_args *a)
{
    return MPI_Gatherv(S, N, T, R, a->counts, a->displs, T, 0, a->comm);
}
static int i_gatherv(struct coll_args *a, MPI_Request *q)
{
    return MPI_Igatherv(S, N, T, R, a->counts, a->displs, T, 0, a->comm, q);
}
static int c_scatter(struct coll_args *a) { return MPI_Scatter(S, N, T, R, N, T, 0, a->comm); }
static int i_scatter(struct coll_args *a, MPI_Request *q)
{
    return MPI_Iscatter(S, N, T, R, N, T, 0, a->comm, q);
}
static int c_scatterv(struct coll_args *a)
{
    return MPI_Scatterv(S, a->counts, a->displs, T, R, N, T, 0, a->comm);
}
static int i_scatterv(struct coll_args *a, MPI_Request *q)
{
    return MPI_Iscatterv(S, a->counts, a->displs, T, R, N, T, 0, a->comm, q);
}
static int c_allgather(struct coll_args *a) { return MPI_Allgather(S, N, T, R, N, T, a->comm); }
static int i_allgather(struct coll_args *a, MPI_Request *q)
{
    return MPI_Iallgather(S, N, T, R, N, T, a->comm, q);
}
static int c_allgatherv(struct coll_args *a)
{
    return MPI_Allgatherv(S, N, T, R, a->counts, a->displs, T, a->comm);
}
static int i_allgatherv(struct coll_args *a, MPI_Request *q)
{
    return MPI_Iallgatherv(S, N, T, R, a->counts, a->displs, T, a->comm, q);
}
static int c_alltoall(struct coll_args *a) { return MPI_Alltoall(S, N, T, R, N, T, a->comm); }
static int i_alltoall(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ialltoall(S, N, T, R, N, T, a->comm, q);
}
static int c_alltoallv(struct coll_args *a)
{
    return MPI_Alltoallv(S, a->counts, a->displs, T, R, a->counts, a->displs, T, a->comm);
}
static int i_alltoallv(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ialltoallv(S, a->counts, a->displs, T, R, a->counts, a->displs, T, a->comm, q);
}
/* MPI_CHAR blocks: displacements in bytes equal those in elements. */
static int c_alltoallw(struct coll_args *a)
{
    return MPI_Alltoallw(S, a->counts, a->displs, a->types, R, a->counts, a->displs, a->types,
                         a->comm);
}
static int i_alltoallw(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ialltoallw(S, a->counts, a->displs, a->types, R, a->counts, a->displs, a->types,
                          a->comm, q);
}
static int c_reduce(struct coll_args *a) { return MPI_Reduce(S, R, N, T, MPI_SUM, 0, a->comm); }
static int i_reduce(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ireduce(S, R, N, T, MPI_SUM, 0, a->comm, q);
}
static int c_allreduce(struct coll_args *a) { return MPI_Allreduce(S, R, N, T, MPI_SUM, a->comm); }
static int i_allreduce(struct coll_args *a, MPI_Request *q)
{
    return MPI_Iallreduce(S, R, N, T, MPI_SUM, a->comm, q);
}
static int c_reduce_scatter(struct coll_args *a)
{
    return MPI_Reduce_scatter(S, R, a->counts, T, MPI_SUM, a->comm);
}
static int i_reduce_scatter(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ireduce_scatter(S, R, a->counts, T, MPI_SUM, a->comm, q);
}
static int c_reduce_scatter_block(struct coll_args *a)
{
    return MPI_Reduce_scatter_block(S, R, a->counts[0], T, MPI_SUM, a->comm);
}
static int i_reduce_scatter_block(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ireduce_scatter_block(S, R, a->counts[0], T, MPI_SUM, a->comm, q);
}
static int c_scan(struct coll_args *a) { return MPI_Scan(S, R, N, T, MPI_SUM, a->comm); }
static int i_scan(struct coll_args *a, MPI_Request *q)
{
    return MPI_Iscan(S, R, N, T, MPI_SUM, a->comm, q);
}
static int c_exscan(struct coll_args *a) { return MPI_Exscan(S, R, N, T, MPI_SUM, a->comm); }
static int i_exscan(struct coll_args *a, MPI_Request *q)
{
    return MPI_Iexscan(S, R, N, T, MPI_SUM, a->comm, q);
}

static int c_neighbor_allgather(struct coll_args *a)
{
    return MPI_Neighbor_allgather(S, N, T, R, N, T, a->comm);
}
static int i_neighbor_allgather(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ineighbor_allgather(S, N, T, R, N, T, a->comm, q);
}
static int c_neighbor_alltoall(struct coll_args *a)
{
    return MPI_Neighbor_alltoall(S, N, T, R, N, T, a->comm);
}
static int i_neighbor_alltoall(struct coll_args *a, MPI_Request *q)
{
    return MPI_Ineighbor_alltoall(S, N, T, R, N, T, a->comm, q);
}

#undef S
#undef R
#undef N
#undef T

/* name, MPI name, send length, receive length, reduction, no size, split, neighbourhood, check */
#define OP(lower, upper, sl, rl, red, nosize, split, check)                             \
    const struct coll_op tb_op_##lower = {#lower, "MPI_" #upper, "MPI_I" #lower, sl,    \
                                          rl,     red,           nosize,         split, \
                                          0,      c_##lower,     i_##lower,      check}
#define NOP(lower, upper, sl, rl, check)   \
    const struct coll_op tb_op_##lower = { \
        #lower, "MPI_" #upper, "MPI_I" #lower, sl, rl, 0, 0, 0, 1, c_##lower, i_##lower, check}

OP(barrier, Barrier, LEN_NONE, LEN_NONE, 0, 1, 0, NULL);
OP(bcast, Bcast, LEN_NONE, LEN_ONE, 0, 0, 0, ck_bcast);
OP(gather, Gather, LEN_ONE, LEN_PER_RANK, 0, 0, 0, ck_gather);
OP(gatherv, Gatherv, LEN_ONE, LEN_PER_RANK, 0, 0, 0, ck_gather);
OP(scatter, Scatter, LEN_PER_RANK, LEN_ONE, 0, 0, 0, ck_scatter);
OP(scatterv, Scatterv, LEN_PER_RANK, LEN_ONE, 0, 0, 0, ck_scatter);
OP(allgather, Allgather, LEN_ONE, LEN_PER_RANK, 0, 0, 0, ck_allgather);
OP(allgatherv, Allgatherv, LEN_ONE, LEN_PER_RANK, 0, 0, 0, ck_allgather);
OP(alltoall, Alltoall, LEN_PER_RANK, LEN_PER_RANK, 0, 0, 0, ck_alltoall);
OP(alltoallv, Alltoallv, LEN_PER_RANK, LEN_PER_RANK, 0, 0, 0, ck_alltoall);
OP(alltoallw, Alltoallw, LEN_PER_RANK, LEN_PER_RANK, 0, 0, 0, ck_alltoall);
OP(reduce, Reduce, LEN_ONE, LEN_ONE, 1, 0, 0, ck_reduce);
OP(allreduce, Allreduce, LEN_ONE, LEN_ONE, 1, 0, 0, ck_allreduce);
OP(reduce_scatter, Reduce_scatter, LEN_ONE, LEN_ONE, 1, 0, 1, ck_reduce_scatter);
OP(reduce_scatter_block, Reduce_scatter_block, LEN_ONE, LEN_ONE, 1, 0, 1, ck_reduce_scatter);
OP(scan, Scan, LEN_ONE, LEN_ONE, 1, 0, 0, ck_scan);
OP(exscan, Exscan, LEN_ONE, LEN_ONE, 1, 0, 0, ck_exscan);
NOP(neighbor_allgather, Neighbor_allgather, LEN_ONE, LEN_PER_RANK, ck_neighbor_allgather);
NOP(neighbor_alltoall, Neighbor_alltoall, LEN_PER_RANK, LEN_PER_RANK, ck_neighbor_alltoall);

/* ---- buffers and calls for the runners ------------------------------------------------------------ */

static size_t len(enum coll_len l, size_t size, int peers)
{
    return l == LEN_NONE ? 0 : l == LEN_ONE ? size : size * (size_t)peers;
}

static int make_ring(struct tb_ctx *c, struct coll_args *a)
{
    int dims[1] = {c->size}, periods[1] = {c->size >= 3};
    TB_MPI(c, MPI_Cart_create(c->comm, 1, dims, periods, 0, &a->comm));
    tb_track_comm(c, a->comm);
    TB_MPI(c, MPI_Cart_shift(a->comm, 0, 1, &a->nbr[0], &a->nbr[1]));
    a->peers = 2;
    return 0;
}

int coll_init(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b)
{
    memset(b, 0, sizeof *b);
    struct coll_args *a = &b->a;
    a->comm = c->comm;
    a->rank = c->rank;
    a->nprocs = c->size;
    a->peers = c->size;
    a->type = op->reduction ? tb_reduction_type(c->o) : MPI_CHAR;
    int tsize = 1;
    TB_MPI(c, MPI_Type_size(a->type, &tsize));
    a->tsize = (size_t)tsize;
    /* OMB skips the sizes smaller than one element */
    c->granule = a->tsize;
    if (op->neighbor) TB_TRY(make_ring(c, a));
    size_t max = op->nosize ? 0 : tb_max_size(c);
    TB_TRY(tb_pool_init(c, &b->sp, len(op->slen, max, a->peers)));
    TB_TRY(tb_pool_init(c, &b->rp, len(op->rlen, max, a->peers)));
    a->counts = tb_alloc(c, (size_t)c->size * sizeof *a->counts);
    a->displs = tb_alloc(c, (size_t)c->size * sizeof *a->displs);
    a->types = tb_alloc(c, (size_t)c->size * sizeof *a->types);
    if (!a->counts || !a->displs || !a->types) return -1;
    for (int i = 0; i < c->size; i++) a->types[i] = MPI_CHAR;
    return 0;
}

int coll_size(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b, size_t size)
{
    struct coll_args *a = &b->a;
    int p = c->size;
    a->size = size;
    a->count = (int)(size / a->tsize);
    if (op->per_rank_split) {
        /* reduce_scatter: the first ranks get one element more;
         * reduce_scatter_block: equal blocks, the rest of the vector unused. */
        int block = a->count / p, extra = op == &tb_op_reduce_scatter ? a->count % p : 0;
        if (!block && !extra) return 1;
        for (int i = 0, at = 0; i < p; i++) {
            a->counts[i] = block + (i < extra);
            a->displs[i] = at;
            at += a->counts[i];
        }
    } else {
        for (int i = 0; i < p; i++) {
            a->counts[i] = a->count;
            a->displs[i] = i * a->count;
        }
    }
    tb_pool_set(&b->sp, len(op->slen, size, a->peers));
    tb_pool_set(&b->rp, len(op->rlen, size, a->peers));
    coll_next(b);
    return 0;
}

void coll_next(struct coll_bufs *b)
{
    b->a.sbuf = tb_pool_next(&b->sp);
    b->a.rbuf = tb_pool_next(&b->rp);
}

int coll_call(struct tb_ctx *c, const struct coll_op *op, struct coll_args *a)
{
    int rc = op->call(a);
    return rc == MPI_SUCCESS ? 0 : tb_mpi_error(c, op->mpi, rc);
}

int coll_start(struct tb_ctx *c, const struct coll_op *op, struct coll_args *a, MPI_Request *req)
{
    int rc = op->icall(a, req);
    return rc == MPI_SUCCESS ? 0 : tb_mpi_error(c, op->impi, rc);
}

int coll_validate(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b, int nonblocking)
{
    struct coll_args *a = &b->a;
    fill(a, op);
    if (nonblocking) {
        MPI_Request req;
        TB_TRY(coll_start(c, op, a, &req));
        TB_MPI(c, MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        TB_TRY(coll_call(c, op, a));
    }
    return op->check ? op->check(c, a) : 0;
}
