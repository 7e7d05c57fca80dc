/* Nonblocking collectives: time and overlap, after OMB 7.x (osu_iallreduce,
 * osu_ibcast, ...).
 *
 * First the pure collective (start, then wait at once) is timed per call,
 * with a barrier between calls.  Then each call is started, the rank
 * computes (no MPI calls) for as long as its own pure collective took, and
 * waits, again with a barrier between calls.  With every time averaged over
 * the ranks, the share of the communication hidden behind the computation is
 *   overlap = max(0, 100 * (1 - (overall - compute) / pure)),
 * OMB's formula (its MPI_Test probes are off by default, so they add
 * nothing).  osu_ibarrier runs the large-message iteration counts and times
 * its pure calls back to back; ibarrier does the same. */
#include "coll.h"

/* Mean time of start + wait of one call, this rank. */
static int pure_time(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b, int warm,
                     int iters, double *pure)
{
    MPI_Request req;
    double sum = 0;
    TB_MPI(c, MPI_Barrier(c->comm));
    for (int i = 0; i < warm + iters; i++) {
        coll_next(b);
        double t0 = MPI_Wtime();
        TB_TRY(coll_start(c, op, &b->a, &req));
        TB_MPI(c, MPI_Wait(&req, MPI_STATUS_IGNORE));
        double t = MPI_Wtime() - t0;
        if (i >= warm) sum += t;
        if (!op->nosize) TB_MPI(c, MPI_Barrier(c->comm));
    }
    *pure = sum / iters;
    return 0;
}

/* Mean time of start + compute + wait, and of the computation alone. */
static int overlap_times(struct tb_ctx *c, const struct coll_op *op, struct coll_bufs *b, int warm,
                         int iters, double pure, double *overall, double *compute)
{
    MPI_Request req;
    double all = 0, comp = 0;
    TB_MPI(c, MPI_Barrier(c->comm));
    for (int i = 0; i < warm + iters; i++) {
        coll_next(b);
        double t0 = MPI_Wtime();
        TB_TRY(coll_start(c, op, &b->a, &req));
        double t1 = MPI_Wtime();
        tb_compute(pure);
        double t2 = MPI_Wtime();
        TB_MPI(c, MPI_Wait(&req, MPI_STATUS_IGNORE));
        double t3 = MPI_Wtime();
        if (i >= warm) {
            all += t3 - t0;
            comp += t2 - t1;
        }
        TB_MPI(c, MPI_Barrier(c->comm));
    }
    *overall = all / iters;
    *compute = comp / iters;
    return 0;
}

static int run_nbc(struct tb_ctx *c)
{
    const struct coll_op *op = c->b->arg;
    struct coll_bufs b;
    TB_TRY(coll_init(c, op, &b));
    static const struct tb_col cols[] = {{"size", "B", 0, 0},     {"overall", "us", 2, -1},
                                         {"compute", "us", 2, 0}, {"pure", "us", 2, -1},
                                         {"overlap", "%", 1, +1}, {"iterations", "", 0, 0}};
    tb_columns(c, 6, cols);
    for (size_t size = (size_t)-1; op->nosize ? size == (size_t)-1 : tb_next_size(c, &size);) {
        if (op->nosize) size = 0;
        if (coll_size(c, op, &b, size)) continue;
        if (c->o->validate) TB_TRY(tb_validated(c, size, coll_validate(c, op, &b, 1)));
        /* osu_ibarrier: the large-message counts */
        size_t counted = op->nosize ? (size_t)-1 : size;
        int iters = tb_iters(c, TB_COLL, counted), warm = tb_warmup(c, TB_COLL, counted);
        double pure = 0, overall = 0, compute = 0;
        TB_TRY(pure_time(c, op, &b, warm, iters, &pure));
        TB_TRY(overlap_times(c, op, &b, warm, iters, pure, &overall, &compute));

        double mn, mx, row[6] = {(double)size, 0, 0, 0, 0, iters};
        TB_TRY(tb_stats(c, 1, overall * 1e6, &mn, &row[1], &mx));
        TB_TRY(tb_stats(c, 1, compute * 1e6, &mn, &row[2], &mx));
        TB_TRY(tb_stats(c, 1, pure * 1e6, &mn, &row[3], &mx));
        double ov = row[3] > 0 ? 100.0 * (1.0 - (row[1] - row[2]) / row[3]) : 0;
        row[4] = ov < 0 ? 0 : ov;
        tb_row(c, row);
    }
    return 0;
}

#define B(lower, upper)                                                           \
    {                                                                             \
        "i" #lower,                                                               \
        "nbc",                                                                    \
        "MPI_I" #lower ": overall time with computation, pure time, overlap (%)", \
        1,                                                                        \
        1,                                                                        \
        TB_COLL_MAX,                                                              \
        1,                                                                        \
        run_nbc,                                                                  \
        &tb_op_##lower},

const struct tb_bench tb_nbc_benches[] = {
    TB_COLLECTIVES(B){NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL}};
