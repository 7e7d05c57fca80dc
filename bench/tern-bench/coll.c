/* Blocking collectives, after OMB 7.x (osu_bcast, osu_allreduce, ...): each
 * call is timed on its own, with a barrier between calls (outside the
 * timing), warm-up calls skipped; each rank's mean is reduced to min, average
 * and max over the ranks.  osu_barrier times back-to-back barriers, with no
 * other barrier between them. */
#include "coll.h"

static int run_coll(struct tb_ctx *c)
{
    const struct coll_op *op = c->b->arg;
    struct coll_bufs b;
    TB_TRY(coll_init(c, op, &b));
    static const struct tb_col cols[] = {{"size", "B", 0, 0},
                                         {"avg", "us", 2, -1},
                                         {"min", "us", 2, -1},
                                         {"max", "us", 2, -1},
                                         {"iterations", "", 0, 0}};
    tb_columns(c, 5, cols);
    for (size_t size = (size_t)-1; op->nosize ? size == (size_t)-1 : tb_next_size(c, &size);) {
        if (op->nosize) size = 0;
        if (coll_size(c, op, &b, size)) continue;
        if (c->o->validate) TB_TRY(tb_validated(c, size, coll_validate(c, op, &b, 0)));
        int iters = tb_iters(c, TB_COLL, size), warm = tb_warmup(c, TB_COLL, size);
        double timer = 0;
        TB_MPI(c, MPI_Barrier(c->comm));
        for (int i = 0; i < warm + iters; i++) {
            coll_next(&b);
            double t0 = MPI_Wtime();
            TB_TRY(coll_call(c, op, &b.a));
            double t = MPI_Wtime() - t0;
            if (i >= warm) timer += t;
            if (!op->nosize) TB_MPI(c, MPI_Barrier(c->comm));
        }
        double row[5] = {(double)size, 0, 0, 0, iters};
        TB_TRY(tb_stats(c, 1, timer * 1e6 / iters, &row[2], &row[1], &row[3]));
        tb_row(c, row);
    }
    return 0;
}

#define B(lower, upper)                                                     \
    {#lower, "coll",   "latency of MPI_" #upper ", min/avg/max over ranks", \
     1,      1,        TB_COLL_MAX,                                         \
     1,      run_coll, &tb_op_##lower},

const struct tb_bench tb_coll_benches[] = {
    TB_COLLECTIVES(B){NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL}};
