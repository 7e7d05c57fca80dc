/* Nonblocking collectives: time and overlap, after the OSU methodology.
 *
 * First the pure collective (start, then wait at once) is timed per call,
 * with a barrier between calls.  Then each call is started, the rank
 * computes (no MPI calls) for as long as its pure collective took, and waits.
 * The share of the communication hidden behind the computation is
 *   overlap = 100 * (1 - (overall - compute) / pure),  clamped to 0..100,
 * with every time averaged over the ranks. */
#include "coll.h"

static int run_nbc(struct tb_ctx *c)
{
    const struct coll_op *op = c->b->arg;
    struct coll_bufs b;
    TB_TRY(coll_init(c, op, &b));
    static const struct tb_col cols[] = {
        {"size", "B", 0, 0},     {"overall", "us", 2, -1}, {"compute", "us", 2, 0},
        {"pure", "us", 2, -1},   {"overlap", "%", 1, +1},  {"iterations", "", 0, 0}};
    tb_columns(c, 6, cols);
    MPI_Request req;
    for (size_t size = (size_t)-1; op->nosize ? size == (size_t)-1 : tb_next_size(c, &size);) {
        if (op->nosize) size = 0;
        if (coll_size(c, op, &b, size)) continue;
        if (c->o->validate) TB_TRY(tb_all_ok(c, coll_validate(c, op, &b, 1)));
        int iters = tb_iters(c, TB_COLL, size), warm = tb_warmup(c, TB_COLL, size);

        double pure = 0;
        TB_MPI(c, MPI_Barrier(c->comm));
        for (int i = 0; i < warm + iters; i++) {
            coll_next(&b);
            double t0 = MPI_Wtime();
            TB_TRY(coll_start(c, op, &b.a, &req));
            TB_MPI(c, MPI_Wait(&req, MPI_STATUS_IGNORE));
            double t = MPI_Wtime() - t0;
            if (i >= warm) pure += t;
            TB_MPI(c, MPI_Barrier(c->comm));
        }
        pure /= iters;

        double overall = 0, compute = 0;
        for (int i = 0; i < warm + iters; i++) {
            coll_next(&b);
            double t0 = MPI_Wtime();
            TB_TRY(coll_start(c, op, &b.a, &req));
            double t1 = MPI_Wtime();
            tb_compute(pure);
            double t2 = MPI_Wtime();
            TB_MPI(c, MPI_Wait(&req, MPI_STATUS_IGNORE));
            double t3 = MPI_Wtime();
            if (i >= warm) {
                overall += t3 - t0;
                compute += t2 - t1;
            }
            TB_MPI(c, MPI_Barrier(c->comm));
        }
        overall /= iters;
        compute /= iters;

        double mn, mx, row[6] = {(double)size, 0, 0, 0, 0, iters};
        TB_TRY(tb_stats(c, 1, overall * 1e6, &mn, &row[1], &mx));
        TB_TRY(tb_stats(c, 1, compute * 1e6, &mn, &row[2], &mx));
        TB_TRY(tb_stats(c, 1, pure * 1e6, &mn, &row[3], &mx));
        double ov = row[3] > 0 ? 100.0 * (1.0 - (row[1] - row[2]) / row[3]) : 0;
        row[4] = ov < 0 ? 0 : ov > 100 ? 100 : ov;
        tb_row(c, row);
    }
    return 0;
}

#define B(lower, upper, unit)                                                                                  \
    {"i" #lower, "nbc", "MPI_I" #lower ": overall time with computation, pure time, overlap (%)", 1, unit, \
     TB_COLL_MAX, unit, run_nbc, &tb_op_##lower},

const struct tb_bench tb_nbc_benches[] = {TB_COLLECTIVES(B){NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL}};
