/* Every collective of MPI_COMM_WORLD in one program, at any rank count, with
 * every received value checked: small messages, so that many oversubscribed
 * ranks (64, 128 on two cores) stay quick.  Each collective runs three ways:
 * blocking, nonblocking (MPI_I<coll> + MPI_Wait) and persistent
 * (MPI_<coll>_init, started twice); each way twice with different data.
 * Covered: barrier; bcast; gather(v), scatter(v), allgather(v),
 * alltoall(v, w), with uneven counts (zero for some ranks) and gaps between
 * blocks that must stay untouched; reduce, allreduce (also in place),
 * reduce_scatter(_block), scan, exscan, with MPI_SUM, MPI_MAX and a
 * non-commutative user operation; the five neighbourhood collectives on a
 * graph of uneven degrees; and MPI_Reduce_local.  Roots differ between
 * collectives.  With an argument naming a collective only that one runs. */
#include <string.h>
#include <time.h>

#include "coll_util.h"

#define W MPI_COMM_WORLD
#define REPS 2
#define GAP (-77) /* what the gaps between v-blocks hold, before and after */

enum mode { BLOCKING, NONBLOCKING, PERSISTENT };
static const char *mode_name[] = {"blocking", "nonblocking", "persistent"};

static int rank, size;
static enum mode mode;
static MPI_Request req = MPI_REQUEST_NULL;

/* Small values, so that sums over 128 ranks stay far from overflow. */
static int val(int r, int i, int salt) { return (r * 31 + i * 7 + salt * 13) % 1000; }
/* Uneven counts, zero for every fourth rank. */
static int cnt(int r) { return (7 * r + 3) % 4; }
/* Uneven counts per (sender, receiver) pair, zero for a third of them. */
static int pcnt(int s, int d) { return (s + 2 * d) % 3; }

/* The test itself is checked against other MPIs too; those older than MPI
 * 4.0 (and MPICH 4.0) lack the persistent collectives: built with
 * EVERY_COLL_NO_PERSISTENT, it leaves them out. */
#ifdef EVERY_COLL_NO_PERSISTENT
#define PERSIST(call) MPI_ERR_OTHER
#define LAST_MODE NONBLOCKING
#else
#define PERSIST(call) call
#define LAST_MODE PERSISTENT
#endif

/* Runs the operation the chosen way; a persistent request is made on the
 * first repetition and started on each. */
#define RUN(rep, BLOCK, ICALL, INITCALL)                                           \
    do {                                                                           \
        if (mode == BLOCKING) {                                                    \
            CHECK_MPI(BLOCK);                                                      \
        } else if (mode == NONBLOCKING) {                                          \
            CHECK_MPI(ICALL);                                                      \
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));                          \
            CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left the request set");       \
        } else {                                                                   \
            if ((rep) == 0) CHECK_MPI(PERSIST(INITCALL));                          \
            CHECK_MPI(MPI_Start(&req));                                            \
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));                          \
            CHECK(req != MPI_REQUEST_NULL, "MPI_Wait freed a persistent request"); \
        }                                                                          \
    } while (0)

static void done(void)
{
    if (mode == PERSISTENT) CHECK_MPI(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL, "request left set");
}

#define FAIL_IF(cond, what, ...) \
    CHECK(!(cond), "%s %s rep %d: " what, mode_name[mode], __func__, rep, __VA_ARGS__)

static int *ints(size_t n) { return tt_alloc(n * sizeof(int)); }
static void fill(int *b, size_t n, int v)
{
    for (size_t i = 0; i < n; i++) b[i] = v;
}

/* Displacements of per-rank blocks of counts c[], one gap int before each. */
static size_t gapped(const int *c, int *displs, int n)
{
    size_t at = 0;
    for (int r = 0; r < n; r++) {
        at++;
        displs[r] = (int)at;
        at += (size_t)c[r];
    }
    return at + 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Nobody leaves before the dawdling rank entered (one clock: one node). */
static void barrier(void)
{
    for (int rep = 0; rep < REPS; rep++) {
        int late = (size - 1 + rep) % size;
        double entered = 0;
        if (rank == late) {
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
            entered = now();
        }
        RUN(rep, MPI_Barrier(W), MPI_Ibarrier(W, &req), MPI_Barrier_init(W, MPI_INFO_NULL, &req));
        double left = now();
        CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, late, W));
        FAIL_IF(left < entered, "left %.6f s before rank %d entered", entered - left, late);
    }
    done();
}

static void bcast(void)
{
    int b[3], root = size - 1;
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 3; i++) b[i] = rank == root ? val(root, i, rep) : -1;
        RUN(rep, MPI_Bcast(b, 3, MPI_INT, root, W), MPI_Ibcast(b, 3, MPI_INT, root, W, &req),
            MPI_Bcast_init(b, 3, MPI_INT, root, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 3; i++) FAIL_IF(b[i] != val(root, i, rep), "[%d]=%d", i, b[i]);
    }
    done();
}

static void gather(void)
{
    int s[2], *r = ints(2 * (size_t)size), root = size / 2;
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2; i++) s[i] = val(rank, i, rep);
        fill(r, 2 * (size_t)size, -1);
        RUN(rep, MPI_Gather(s, 2, MPI_INT, r, 2, MPI_INT, root, W),
            MPI_Igather(s, 2, MPI_INT, r, 2, MPI_INT, root, W, &req),
            MPI_Gather_init(s, 2, MPI_INT, r, 2, MPI_INT, root, W, MPI_INFO_NULL, &req));
        if (rank == root)
            for (int p = 0; p < size; p++)
                for (int i = 0; i < 2; i++)
                    FAIL_IF(r[2 * p + i] != val(p, i, rep), "from %d [%d]=%d", p, i, r[2 * p + i]);
    }
    done();
    free(r);
}

static void gatherv(void)
{
    int *c = ints((size_t)size), *d = ints((size_t)size), s[3], root = 0;
    for (int p = 0; p < size; p++) c[p] = cnt(p);
    size_t n = gapped(c, d, size);
    int *r = ints(n);
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 3; i++) s[i] = val(rank, i, rep);
        fill(r, n, GAP);
        RUN(rep, MPI_Gatherv(s, c[rank], MPI_INT, r, c, d, MPI_INT, root, W),
            MPI_Igatherv(s, c[rank], MPI_INT, r, c, d, MPI_INT, root, W, &req),
            MPI_Gatherv_init(s, c[rank], MPI_INT, r, c, d, MPI_INT, root, W, MPI_INFO_NULL, &req));
        if (rank != root) continue;
        for (int p = 0; p < size; p++) {
            FAIL_IF(r[d[p] - 1] != GAP, "gap before %d overwritten: %d", p, r[d[p] - 1]);
            for (int i = 0; i < c[p]; i++)
                FAIL_IF(r[d[p] + i] != val(p, i, rep), "from %d [%d]=%d", p, i, r[d[p] + i]);
        }
        FAIL_IF(r[n - 1] != GAP, "last gap overwritten: %d", r[n - 1]);
    }
    done();
    free(c);
    free(d);
    free(r);
}

static void scatter(void)
{
    int *s = ints(2 * (size_t)size), r[2], root = 0;
    for (int rep = 0; rep < REPS; rep++) {
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 2; i++) s[2 * p + i] = rank == root ? val(p, i, rep) : -1;
        fill(r, 2, -1);
        RUN(rep, MPI_Scatter(s, 2, MPI_INT, r, 2, MPI_INT, root, W),
            MPI_Iscatter(s, 2, MPI_INT, r, 2, MPI_INT, root, W, &req),
            MPI_Scatter_init(s, 2, MPI_INT, r, 2, MPI_INT, root, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 2; i++) FAIL_IF(r[i] != val(rank, i, rep), "[%d]=%d", i, r[i]);
    }
    done();
    free(s);
}

static void scatterv(void)
{
    int *c = ints((size_t)size), *d = ints((size_t)size), r[4], root = size - 1;
    for (int p = 0; p < size; p++) c[p] = cnt(p);
    size_t n = gapped(c, d, size);
    int *s = ints(n);
    for (int rep = 0; rep < REPS; rep++) {
        fill(s, n, GAP);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < c[p]; i++) s[d[p] + i] = val(p, i, rep);
        fill(r, 4, GAP);
        RUN(rep, MPI_Scatterv(s, c, d, MPI_INT, r, c[rank], MPI_INT, root, W),
            MPI_Iscatterv(s, c, d, MPI_INT, r, c[rank], MPI_INT, root, W, &req),
            MPI_Scatterv_init(s, c, d, MPI_INT, r, c[rank], MPI_INT, root, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 4; i++)
            FAIL_IF(r[i] != (i < c[rank] ? val(rank, i, rep) : GAP), "[%d]=%d", i, r[i]);
    }
    done();
    free(c);
    free(d);
    free(s);
}

static void allgather(void)
{
    int s[2], *r = ints(2 * (size_t)size);
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2; i++) s[i] = val(rank, i, rep);
        fill(r, 2 * (size_t)size, -1);
        RUN(rep, MPI_Allgather(s, 2, MPI_INT, r, 2, MPI_INT, W),
            MPI_Iallgather(s, 2, MPI_INT, r, 2, MPI_INT, W, &req),
            MPI_Allgather_init(s, 2, MPI_INT, r, 2, MPI_INT, W, MPI_INFO_NULL, &req));
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 2; i++)
                FAIL_IF(r[2 * p + i] != val(p, i, rep), "from %d [%d]=%d", p, i, r[2 * p + i]);
    }
    done();
    free(r);
}

static void allgatherv(void)
{
    int *c = ints((size_t)size), *d = ints((size_t)size), s[3];
    for (int p = 0; p < size; p++) c[p] = cnt(p);
    size_t n = gapped(c, d, size);
    int *r = ints(n);
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 3; i++) s[i] = val(rank, i, rep);
        fill(r, n, GAP);
        RUN(rep, MPI_Allgatherv(s, c[rank], MPI_INT, r, c, d, MPI_INT, W),
            MPI_Iallgatherv(s, c[rank], MPI_INT, r, c, d, MPI_INT, W, &req),
            MPI_Allgatherv_init(s, c[rank], MPI_INT, r, c, d, MPI_INT, W, MPI_INFO_NULL, &req));
        for (int p = 0; p < size; p++) {
            FAIL_IF(r[d[p] - 1] != GAP, "gap before %d overwritten: %d", p, r[d[p] - 1]);
            for (int i = 0; i < c[p]; i++)
                FAIL_IF(r[d[p] + i] != val(p, i, rep), "from %d [%d]=%d", p, i, r[d[p] + i]);
        }
        FAIL_IF(r[n - 1] != GAP, "last gap overwritten: %d", r[n - 1]);
    }
    done();
    free(c);
    free(d);
    free(r);
}

/* Block for d from s: salted by the receiver too, so a misrouted block shows. */
static int pval(int s, int d, int i, int rep) { return val(s, i, rep + 3 * d); }

static void alltoall(void)
{
    int *s = ints(2 * (size_t)size), *r = ints(2 * (size_t)size);
    for (int rep = 0; rep < REPS; rep++) {
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 2; i++) s[2 * p + i] = pval(rank, p, i, rep);
        fill(r, 2 * (size_t)size, -1);
        RUN(rep, MPI_Alltoall(s, 2, MPI_INT, r, 2, MPI_INT, W),
            MPI_Ialltoall(s, 2, MPI_INT, r, 2, MPI_INT, W, &req),
            MPI_Alltoall_init(s, 2, MPI_INT, r, 2, MPI_INT, W, MPI_INFO_NULL, &req));
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 2; i++)
                FAIL_IF(r[2 * p + i] != pval(p, rank, i, rep), "from %d [%d]=%d", p, i,
                        r[2 * p + i]);
    }
    done();
    free(s);
    free(r);
}

static void alltoallv(void)
{
    int *sc = ints((size_t)size), *sd = ints((size_t)size), *rc = ints((size_t)size),
        *rd = ints((size_t)size);
    for (int p = 0; p < size; p++) {
        sc[p] = pcnt(rank, p);
        rc[p] = pcnt(p, rank);
    }
    size_t sn = gapped(sc, sd, size), rn = gapped(rc, rd, size);
    int *s = ints(sn), *r = ints(rn);
    for (int rep = 0; rep < REPS; rep++) {
        fill(s, sn, GAP);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < sc[p]; i++) s[sd[p] + i] = pval(rank, p, i, rep);
        fill(r, rn, GAP);
        RUN(rep, MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, W),
            MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, W, &req),
            MPI_Alltoallv_init(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, W, MPI_INFO_NULL, &req));
        for (int p = 0; p < size; p++) {
            FAIL_IF(r[rd[p] - 1] != GAP, "gap before %d overwritten: %d", p, r[rd[p] - 1]);
            for (int i = 0; i < rc[p]; i++)
                FAIL_IF(r[rd[p] + i] != pval(p, rank, i, rep), "from %d [%d]=%d", p, i,
                        r[rd[p] + i]);
        }
        FAIL_IF(r[rn - 1] != GAP, "last gap overwritten: %d", r[rn - 1]);
    }
    done();
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(s);
    free(r);
}

/* Alltoallw: pairs of ints (a contiguous type) with some peers, plain ints
 * with others, at byte displacements with gaps. */
static MPI_Datatype pair_type;
static MPI_Datatype wtype(int s, int d) { return (s + d) % 2 ? pair_type : MPI_INT; }
static int wints(int s, int d) { return pcnt(s, d) * ((s + d) % 2 ? 2 : 1); }

static void alltoallw(void)
{
    size_t z = (size_t)size;
    int *sc = ints(z), *sd = ints(z), *rc = ints(z), *rd = ints(z), *sn_ = ints(z), *rn_ = ints(z);
    MPI_Datatype *st = tt_alloc(z * sizeof *st), *rt = tt_alloc(z * sizeof *rt);
    for (int p = 0; p < size; p++) {
        sc[p] = pcnt(rank, p);
        rc[p] = pcnt(p, rank);
        st[p] = wtype(rank, p);
        rt[p] = wtype(p, rank);
        sn_[p] = wints(rank, p);
        rn_[p] = wints(p, rank);
    }
    size_t sn = gapped(sn_, sd, size), rn = gapped(rn_, rd, size);
    int *s = ints(sn), *r = ints(rn);
    for (int p = 0; p < size; p++) {
        sd[p] *= (int)sizeof(int); /* bytes, as alltoallw takes them */
        rd[p] *= (int)sizeof(int);
    }
    for (int rep = 0; rep < REPS; rep++) {
        fill(s, sn, GAP);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < sn_[p]; i++)
                s[sd[p] / (int)sizeof(int) + i] = pval(rank, p, i, rep);
        fill(r, rn, GAP);
        RUN(rep, MPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, W),
            MPI_Ialltoallw(s, sc, sd, st, r, rc, rd, rt, W, &req),
            MPI_Alltoallw_init(s, sc, sd, st, r, rc, rd, rt, W, MPI_INFO_NULL, &req));
        for (int p = 0; p < size; p++) {
            int at = rd[p] / (int)sizeof(int);
            FAIL_IF(r[at - 1] != GAP, "gap before %d overwritten: %d", p, r[at - 1]);
            for (int i = 0; i < rn_[p]; i++)
                FAIL_IF(r[at + i] != pval(p, rank, i, rep), "from %d [%d]=%d", p, i, r[at + i]);
        }
        FAIL_IF(r[rn - 1] != GAP, "last gap overwritten: %d", r[rn - 1]);
    }
    done();
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sn_);
    free(rn_);
    free(st);
    free(rt);
    free(s);
    free(r);
}

static int sum_of(int i, int salt, int lo, int hi)
{
    int t = 0;
    for (int p = lo; p <= hi; p++) t += val(p, i, salt);
    return t;
}

static void reduce(void)
{
    int s[3], r[3], root = size - 1;
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 3; i++) s[i] = val(rank, i, rep);
        fill(r, 3, -1);
        RUN(rep, MPI_Reduce(s, r, 3, MPI_INT, MPI_SUM, root, W),
            MPI_Ireduce(s, r, 3, MPI_INT, MPI_SUM, root, W, &req),
            MPI_Reduce_init(s, r, 3, MPI_INT, MPI_SUM, root, W, MPI_INFO_NULL, &req));
        if (rank == root)
            for (int i = 0; i < 3; i++)
                FAIL_IF(r[i] != sum_of(i, rep, 0, size - 1), "[%d]=%d", i, r[i]);
    }
    done();
}

/* The non-commutative product, in rank order, at root 0. */
static MPI_Datatype mat_type;
static MPI_Op mat_op;

static void reduce_noncomm(void)
{
    tt_mat s[2], r[2];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2; i++) s[i] = tt_mat_of(rank, i + rep);
        memset(r, 0, sizeof r);
        RUN(rep, MPI_Reduce(s, r, 2, mat_type, mat_op, 0, W),
            MPI_Ireduce(s, r, 2, mat_type, mat_op, 0, W, &req),
            MPI_Reduce_init(s, r, 2, mat_type, mat_op, 0, W, MPI_INFO_NULL, &req));
        if (rank == 0)
            for (int i = 0; i < 2; i++)
                FAIL_IF(!tt_mat_eq(r[i], tt_mat_range(0, size - 1, i + rep)), "[%d] wrong", i);
    }
    done();
}

static void allreduce(void)
{
    int s[3], r[3];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 3; i++) s[i] = val(rank, i, rep);
        fill(r, 3, -1);
        RUN(rep, MPI_Allreduce(s, r, 3, MPI_INT, MPI_SUM, W),
            MPI_Iallreduce(s, r, 3, MPI_INT, MPI_SUM, W, &req),
            MPI_Allreduce_init(s, r, 3, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 3; i++)
            FAIL_IF(r[i] != sum_of(i, rep, 0, size - 1), "[%d]=%d", i, r[i]);
    }
    done();
}

/* MPI_MAX in place: the largest rank's values win. */
static void allreduce_inplace(void)
{
    int b[2];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2; i++) b[i] = 1000 * rank + i + rep;
        RUN(rep, MPI_Allreduce(MPI_IN_PLACE, b, 2, MPI_INT, MPI_MAX, W),
            MPI_Iallreduce(MPI_IN_PLACE, b, 2, MPI_INT, MPI_MAX, W, &req),
            MPI_Allreduce_init(MPI_IN_PLACE, b, 2, MPI_INT, MPI_MAX, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 2; i++)
            FAIL_IF(b[i] != 1000 * (size - 1) + i + rep, "[%d]=%d", i, b[i]);
    }
    done();
}

static void allreduce_noncomm(void)
{
    tt_mat s, r;
    for (int rep = 0; rep < REPS; rep++) {
        s = tt_mat_of(rank, rep);
        memset(&r, 0, sizeof r);
        RUN(rep, MPI_Allreduce(&s, &r, 1, mat_type, mat_op, W),
            MPI_Iallreduce(&s, &r, 1, mat_type, mat_op, W, &req),
            MPI_Allreduce_init(&s, &r, 1, mat_type, mat_op, W, MPI_INFO_NULL, &req));
        FAIL_IF(!tt_mat_eq(r, tt_mat_range(0, size - 1, rep)), "product of %d ranks wrong", size);
    }
    done();
}

/* Rank p gets cnt(p) sums: element i of the whole vector is the sum of
 * every rank's val(., i). */
static void reduce_scatter(void)
{
    int *c = ints((size_t)size), total = 0, first = 0;
    for (int p = 0; p < size; p++) {
        c[p] = cnt(p);
        if (p < rank) first += c[p];
        total += c[p];
    }
    int *s = ints((size_t)total), r[4];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < total; i++) s[i] = val(rank, i, rep);
        fill(r, 4, GAP);
        RUN(rep, MPI_Reduce_scatter(s, r, c, MPI_INT, MPI_SUM, W),
            MPI_Ireduce_scatter(s, r, c, MPI_INT, MPI_SUM, W, &req),
            MPI_Reduce_scatter_init(s, r, c, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 4; i++)
            FAIL_IF(r[i] != (i < c[rank] ? sum_of(first + i, rep, 0, size - 1) : GAP), "[%d]=%d", i,
                    r[i]);
    }
    done();
    free(c);
    free(s);
}

static void reduce_scatter_block(void)
{
    int *s = ints(2 * (size_t)size), r[2];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2 * size; i++) s[i] = val(rank, i, rep);
        fill(r, 2, -1);
        RUN(rep, MPI_Reduce_scatter_block(s, r, 2, MPI_INT, MPI_SUM, W),
            MPI_Ireduce_scatter_block(s, r, 2, MPI_INT, MPI_SUM, W, &req),
            MPI_Reduce_scatter_block_init(s, r, 2, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 2; i++)
            FAIL_IF(r[i] != sum_of(2 * rank + i, rep, 0, size - 1), "[%d]=%d", i, r[i]);
    }
    done();
    free(s);
}

static void scan(void)
{
    int s[2], r[2];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2; i++) s[i] = val(rank, i, rep);
        fill(r, 2, -1);
        RUN(rep, MPI_Scan(s, r, 2, MPI_INT, MPI_SUM, W),
            MPI_Iscan(s, r, 2, MPI_INT, MPI_SUM, W, &req),
            MPI_Scan_init(s, r, 2, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &req));
        for (int i = 0; i < 2; i++) FAIL_IF(r[i] != sum_of(i, rep, 0, rank), "[%d]=%d", i, r[i]);
    }
    done();
}

static void scan_noncomm(void)
{
    tt_mat s, r;
    for (int rep = 0; rep < REPS; rep++) {
        s = tt_mat_of(rank, rep);
        memset(&r, 0, sizeof r);
        RUN(rep, MPI_Scan(&s, &r, 1, mat_type, mat_op, W),
            MPI_Iscan(&s, &r, 1, mat_type, mat_op, W, &req),
            MPI_Scan_init(&s, &r, 1, mat_type, mat_op, W, MPI_INFO_NULL, &req));
        FAIL_IF(!tt_mat_eq(r, tt_mat_range(0, rank, rep)), "product of ranks 0..%d wrong", rank);
    }
    done();
}

/* Rank 0's result is undefined: only the others are checked. */
static void exscan(void)
{
    int s[2], r[2];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2; i++) s[i] = val(rank, i, rep);
        fill(r, 2, -1);
        RUN(rep, MPI_Exscan(s, r, 2, MPI_INT, MPI_SUM, W),
            MPI_Iexscan(s, r, 2, MPI_INT, MPI_SUM, W, &req),
            MPI_Exscan_init(s, r, 2, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &req));
        if (rank > 0)
            for (int i = 0; i < 2; i++)
                FAIL_IF(r[i] != sum_of(i, rep, 0, rank - 1), "[%d]=%d", i, r[i]);
    }
    done();
}

static void reduce_local(void)
{
    for (int rep = 0; rep < REPS; rep++) {
        int in[3], io[3];
        for (int i = 0; i < 3; i++) {
            in[i] = val(rank, i, rep);
            io[i] = val(rank + 1, i, rep);
        }
        CHECK_MPI(MPI_Reduce_local(in, io, 3, MPI_INT, MPI_SUM));
        for (int i = 0; i < 3; i++)
            FAIL_IF(io[i] != val(rank, i, rep) + val(rank + 1, i, rep), "[%d]=%d", i, io[i]);
    }
}

/* ---- neighbourhood collectives ---------------------------------------------------------
 * A directed graph of uneven degrees: rank s sends to s+1 .. s+deg(s)
 * (mod size), deg(s) = min(size - 1, 1 + s % 3); so rank r hears from r-k
 * for each k whose sender reaches that far.  Block j of a sender goes to its
 * (j+1)-th successor. */
static MPI_Comm graph;
static int nin, nout, in_from[3], in_k[3], out_to[3];

static int deg(int s) { return size - 1 < 1 + s % 3 ? size - 1 : 1 + s % 3; }

static void make_graph(void)
{
    nout = deg(rank);
    for (int k = 1; k <= nout; k++) out_to[k - 1] = (rank + k) % size;
    nin = 0;
    for (int k = 1; k <= 3 && k < size; k++) {
        int s = (rank - k + size) % size;
        if (deg(s) >= k) {
            in_from[nin] = s;
            in_k[nin++] = k;
        }
    }
    CHECK_MPI(MPI_Dist_graph_create_adjacent(W, nin, in_from, MPI_UNWEIGHTED, nout, out_to,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph));
}

static void neighbor_allgather(void)
{
    int s[2], r[6];
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 2; i++) s[i] = val(rank, i, rep);
        fill(r, 6, GAP);
        RUN(rep, MPI_Neighbor_allgather(s, 2, MPI_INT, r, 2, MPI_INT, graph),
            MPI_Ineighbor_allgather(s, 2, MPI_INT, r, 2, MPI_INT, graph, &req),
            MPI_Neighbor_allgather_init(s, 2, MPI_INT, r, 2, MPI_INT, graph, MPI_INFO_NULL, &req));
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 2; i++)
                FAIL_IF(r[2 * j + i] != (j < nin ? val(in_from[j], i, rep) : GAP),
                        "from neighbour %d [%d]=%d", j, i, r[2 * j + i]);
    }
    done();
}

static void neighbor_allgatherv(void)
{
    int c[3], d[3], s[3], r[16];
    for (int j = 0; j < nin; j++) c[j] = cnt(in_from[j]);
    size_t n = gapped(c, d, nin);
    for (int rep = 0; rep < REPS; rep++) {
        for (int i = 0; i < 3; i++) s[i] = val(rank, i, rep);
        fill(r, 16, GAP);
        RUN(rep, MPI_Neighbor_allgatherv(s, cnt(rank), MPI_INT, r, c, d, MPI_INT, graph),
            MPI_Ineighbor_allgatherv(s, cnt(rank), MPI_INT, r, c, d, MPI_INT, graph, &req),
            MPI_Neighbor_allgatherv_init(s, cnt(rank), MPI_INT, r, c, d, MPI_INT, graph,
                                         MPI_INFO_NULL, &req));
        for (int j = 0; j < nin; j++) {
            FAIL_IF(r[d[j] - 1] != GAP, "gap before neighbour %d overwritten: %d", j, r[d[j] - 1]);
            for (int i = 0; i < c[j]; i++)
                FAIL_IF(r[d[j] + i] != val(in_from[j], i, rep), "from neighbour %d [%d]=%d", j, i,
                        r[d[j] + i]);
        }
        for (size_t i = n - 1; i < 16; i++)
            FAIL_IF(r[i] != GAP, "[%zu] beyond the blocks: %d", i, r[i]);
    }
    done();
}

static void neighbor_alltoall(void)
{
    int s[6], r[6];
    for (int rep = 0; rep < REPS; rep++) {
        for (int j = 0; j < nout; j++)
            for (int i = 0; i < 2; i++) s[2 * j + i] = val(rank, i, rep + 5 * (j + 1));
        fill(r, 6, GAP);
        RUN(rep, MPI_Neighbor_alltoall(s, 2, MPI_INT, r, 2, MPI_INT, graph),
            MPI_Ineighbor_alltoall(s, 2, MPI_INT, r, 2, MPI_INT, graph, &req),
            MPI_Neighbor_alltoall_init(s, 2, MPI_INT, r, 2, MPI_INT, graph, MPI_INFO_NULL, &req));
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 2; i++)
                FAIL_IF(r[2 * j + i] != (j < nin ? val(in_from[j], i, rep + 5 * in_k[j]) : GAP),
                        "from neighbour %d [%d]=%d", j, i, r[2 * j + i]);
    }
    done();
}

/* Counts per (sender, k-th successor): some zero. */
static int ncnt(int s, int k) { return (s + k) % 3; }

static void neighbor_alltoallv(void)
{
    int sc[3], sd[3], rc[3], rd[3], s[16], r[16];
    for (int j = 0; j < nout; j++) sc[j] = ncnt(rank, j + 1);
    for (int j = 0; j < nin; j++) rc[j] = ncnt(in_from[j], in_k[j]);
    gapped(sc, sd, nout);
    size_t rn = gapped(rc, rd, nin);
    for (int rep = 0; rep < REPS; rep++) {
        fill(s, 16, GAP);
        for (int j = 0; j < nout; j++)
            for (int i = 0; i < sc[j]; i++) s[sd[j] + i] = val(rank, i, rep + 5 * (j + 1));
        fill(r, 16, GAP);
        RUN(rep, MPI_Neighbor_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, graph),
            MPI_Ineighbor_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, graph, &req),
            MPI_Neighbor_alltoallv_init(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, graph,
                                        MPI_INFO_NULL, &req));
        for (int j = 0; j < nin; j++) {
            FAIL_IF(r[rd[j] - 1] != GAP, "gap before neighbour %d overwritten: %d", j,
                    r[rd[j] - 1]);
            for (int i = 0; i < rc[j]; i++)
                FAIL_IF(r[rd[j] + i] != val(in_from[j], i, rep + 5 * in_k[j]),
                        "from neighbour %d [%d]=%d", j, i, r[rd[j] + i]);
        }
        for (size_t i = rn - 1; i < 16; i++)
            FAIL_IF(r[i] != GAP, "[%zu] beyond the blocks: %d", i, r[i]);
    }
    done();
}

/* Byte displacements, pairs of ints towards odd successors. */
static void neighbor_alltoallw(void)
{
    int sc[3], rc[3], si[3], ri[3], sd_i[3], rd_i[3], s[32], r[32];
    MPI_Aint sd[3], rd[3];
    MPI_Datatype st[3], rt[3];
    for (int j = 0; j < nout; j++) {
        int k = j + 1;
        sc[j] = ncnt(rank, k);
        st[j] = k % 2 ? pair_type : MPI_INT;
        si[j] = sc[j] * (k % 2 ? 2 : 1);
    }
    for (int j = 0; j < nin; j++) {
        int k = in_k[j];
        rc[j] = ncnt(in_from[j], k);
        rt[j] = k % 2 ? pair_type : MPI_INT;
        ri[j] = rc[j] * (k % 2 ? 2 : 1);
    }
    gapped(si, sd_i, nout);
    size_t rn = gapped(ri, rd_i, nin);
    for (int j = 0; j < nout; j++) sd[j] = (MPI_Aint)sd_i[j] * (MPI_Aint)sizeof(int);
    for (int j = 0; j < nin; j++) rd[j] = (MPI_Aint)rd_i[j] * (MPI_Aint)sizeof(int);
    for (int rep = 0; rep < REPS; rep++) {
        fill(s, 32, GAP);
        for (int j = 0; j < nout; j++)
            for (int i = 0; i < si[j]; i++) s[sd_i[j] + i] = val(rank, i, rep + 5 * (j + 1));
        fill(r, 32, GAP);
        RUN(rep, MPI_Neighbor_alltoallw(s, sc, sd, st, r, rc, rd, rt, graph),
            MPI_Ineighbor_alltoallw(s, sc, sd, st, r, rc, rd, rt, graph, &req),
            MPI_Neighbor_alltoallw_init(s, sc, sd, st, r, rc, rd, rt, graph, MPI_INFO_NULL, &req));
        for (int j = 0; j < nin; j++) {
            FAIL_IF(r[rd_i[j] - 1] != GAP, "gap before neighbour %d overwritten: %d", j,
                    r[rd_i[j] - 1]);
            for (int i = 0; i < ri[j]; i++)
                FAIL_IF(r[rd_i[j] + i] != val(in_from[j], i, rep + 5 * in_k[j]),
                        "from neighbour %d [%d]=%d", j, i, r[rd_i[j] + i]);
        }
        for (size_t i = rn - 1; i < 32; i++)
            FAIL_IF(r[i] != GAP, "[%zu] beyond the blocks: %d", i, r[i]);
    }
    done();
}

static const struct {
    const char *name;
    void (*run)(void);
} colls[] = {
    {"barrier", barrier},
    {"bcast", bcast},
    {"gather", gather},
    {"gatherv", gatherv},
    {"scatter", scatter},
    {"scatterv", scatterv},
    {"allgather", allgather},
    {"allgatherv", allgatherv},
    {"alltoall", alltoall},
    {"alltoallv", alltoallv},
    {"alltoallw", alltoallw},
    {"reduce", reduce},
    {"reduce_noncomm", reduce_noncomm},
    {"allreduce", allreduce},
    {"allreduce_inplace", allreduce_inplace},
    {"allreduce_noncomm", allreduce_noncomm},
    {"reduce_scatter", reduce_scatter},
    {"reduce_scatter_block", reduce_scatter_block},
    {"scan", scan},
    {"scan_noncomm", scan_noncomm},
    {"exscan", exscan},
    {"neighbor_allgather", neighbor_allgather},
    {"neighbor_allgatherv", neighbor_allgatherv},
    {"neighbor_alltoall", neighbor_alltoall},
    {"neighbor_alltoallv", neighbor_alltoallv},
    {"neighbor_alltoallw", neighbor_alltoallw},
};
#define NCOLLS ((int)(sizeof colls / sizeof colls[0]))

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(W, &rank);
    MPI_Comm_size(W, &size);
    const char *only = argc > 1 ? argv[1] : NULL;
    int found = !only;
    for (int k = 0; k < NCOLLS && only; k++) found |= !strcmp(colls[k].name, only);
    CHECK(found, "no collective called '%s'", only);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair_type));
    CHECK_MPI(MPI_Type_commit(&pair_type));
    mat_type = tt_mat_type();
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &mat_op));
    make_graph();
    double t0 = MPI_Wtime();
    for (int m = BLOCKING; m <= LAST_MODE; m++) {
        mode = (enum mode)m;
        for (int k = 0; k < NCOLLS; k++)
            if (!only || !strcmp(colls[k].name, only)) colls[k].run();
    }
    reduce_local();
    CHECK_MPI(MPI_Barrier(W));
    if (rank == 0)
        printf("every_coll: %d collectives x %d ways on %d ranks: %.2f s\n", NCOLLS, LAST_MODE + 1,
               size, MPI_Wtime() - t0);
    CHECK_MPI(MPI_Comm_free(&graph));
    CHECK_MPI(MPI_Op_free(&mat_op));
    CHECK_MPI(MPI_Type_free(&mat_type));
    CHECK_MPI(MPI_Type_free(&pair_type));
    MPI_Finalize();
    return 0;
}
