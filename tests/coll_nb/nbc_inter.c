/* The nonblocking (or persistent: see nbc_test.h) collectives on an
 * intercommunicator between the two halves of MPI_COMM_WORLD (side 0 =
 * world ranks [0, n/2), side 1 = the rest: unequal groups at odd n).
 * Every rooted one with every root on either side (MPI_ROOT at the root,
 * MPI_PROC_NULL at its group's other ranks, whose buffers must stay
 * untouched), every value checked, small and beyond-eager counts, some _c
 * forms; then several collectives outstanding at once completed in reverse
 * order, progress while one side computes and only calls MPI_Test, and the
 * argument errors the blocking forms give. */
#include "nbc_test.h"

#include "tern_expect.h"

#define SENT (-1)
#define BIG 30000 /* ints: beyond the eager size */

static int wrank, wsize, half, side, lr, ls, rs;
static MPI_Comm ic;

static int size_of(int s) { return s == 0 ? half : wsize - half; }
/* A value only (side s, local rank r, index j, rep) produces. */
static int V(int s, int r, int j, int rep) { return tt_val(s * 64 + r, j, rep); }

static int root_arg(int rside, int r0)
{
    if (side != rside) return r0;
    return lr == r0 ? MPI_ROOT : MPI_PROC_NULL;
}

static int *ints(size_t n) { return tt_alloc(n * sizeof(int)); }
static void fill(int *a, size_t n, int v)
{
    for (size_t i = 0; i < n; i++) a[i] = v;
}

static void untouched(const int *a, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) CHECK(a[i] == SENT, "%s: idle buffer[%zu] = %d", what, i, a[i]);
}

static void t_bcast(int rside, int r0, int count)
{
    int root = root_arg(rside, r0), *buf = ints((size_t)count);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int j = 0; j < count; j++) buf[j] = root == MPI_ROOT ? V(side, lr, j, rep) : SENT;
        NT_ISSUE(rep, MPI_Ibcast(buf, count, MPI_INT, root, ic, &nt_req),
                 MPI_Bcast_init(buf, count, MPI_INT, root, ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int j = 0; j < count; j++) {
            int want = root == MPI_PROC_NULL ? SENT : V(rside, r0, j, rep);
            CHECK(buf[j] == want, "bcast root %d/%d count %d rep %d: [%d] = %d want %d", rside, r0,
                  count, rep, j, buf[j], want);
        }
    }
    nt_done();
    free(buf);
}

static void t_gather(int rside, int r0, int count)
{
    int root = root_arg(rside, r0), *send = ints((size_t)count);
    int *recv = ints((size_t)rs * count);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int j = 0; j < count; j++) send[j] = V(side, lr, j, rep);
        fill(recv, (size_t)rs * count, SENT);
        NT_ISSUE(rep, MPI_Igather(send, count, MPI_INT, recv, count, MPI_INT, root, ic, &nt_req),
                 MPI_Gather_init(send, count, MPI_INT, recv, count, MPI_INT, root, ic,
                                 MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        if (root != MPI_ROOT) {
            untouched(recv, (size_t)rs * count, "gather");
            continue;
        }
        for (int i = 0; i < rs; i++)
            for (int j = 0; j < count; j++)
                CHECK(recv[i * count + j] == V(!side, i, j, rep),
                      "gather count %d rep %d: from %d [%d] = %d", count, rep, i, j,
                      recv[i * count + j]);
    }
    nt_done();
    free(send);
    free(recv);
}

static void t_scatter(int rside, int r0, int count)
{
    int root = root_arg(rside, r0), *recv = ints((size_t)count);
    int *send = ints((size_t)rs * count);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int k = 0; k < rs * count; k++)
            send[k] = root == MPI_ROOT ? V(side, lr, k, rep) : SENT;
        fill(recv, (size_t)count, SENT);
        NT_ISSUE(rep, MPI_Iscatter(send, count, MPI_INT, recv, count, MPI_INT, root, ic, &nt_req),
                 MPI_Scatter_init(send, count, MPI_INT, recv, count, MPI_INT, root, ic,
                                  MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int j = 0; j < count; j++) {
            int want = side == rside ? SENT : V(rside, r0, lr * count + j, rep);
            CHECK(recv[j] == want, "scatter root %d/%d count %d rep %d: [%d] = %d want %d", rside,
                  r0, count, rep, j, recv[j], want);
        }
    }
    nt_done();
    free(send);
    free(recv);
}

/* Remote rank i's block: i % 3 + 1 elements, in reverse rank order with a
 * gap of one after each. */
static int v_layout(int n, int *counts, int *displs)
{
    int off = 0;
    for (int i = n - 1; i >= 0; i--) {
        counts[i] = i % 3 + 1;
        displs[i] = off;
        off += counts[i] + 1;
    }
    return off;
}

static void t_gatherv(int rside, int r0)
{
    int root = root_arg(rside, r0), counts[64], displs[64], send[3];
    int total = v_layout(rs, counts, displs), *recv = ints((size_t)total);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int j = 0; j < 3; j++) send[j] = V(side, lr, j, rep);
        fill(recv, (size_t)total, SENT);
        NT_ISSUE(rep,
                 MPI_Igatherv(send, lr % 3 + 1, MPI_INT, recv, counts, displs, MPI_INT, root, ic,
                              &nt_req),
                 MPI_Gatherv_init(send, lr % 3 + 1, MPI_INT, recv, counts, displs, MPI_INT, root,
                                  ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        if (root != MPI_ROOT) {
            untouched(recv, (size_t)total, "gatherv");
            continue;
        }
        for (int i = 0; i < rs; i++) {
            for (int j = 0; j < counts[i]; j++)
                CHECK(recv[displs[i] + j] == V(!side, i, j, rep),
                      "gatherv rep %d: from %d [%d] = %d", rep, i, j, recv[displs[i] + j]);
            CHECK(recv[displs[i] + counts[i]] == SENT, "gatherv: gap after %d written", i);
        }
    }
    nt_done();
    free(recv);
}

/* The large-count form, with MPI_Count and MPI_Aint arrays. */
static void t_scatterv_c(int rside, int r0)
{
    int root = root_arg(rside, r0), counts[64], displs[64], recv[4];
    MPI_Count ccounts[64];
    MPI_Aint cdispls[64];
    int total = v_layout(rs, counts, displs), *send = ints((size_t)total);
    for (int i = 0; i < rs; i++) {
        ccounts[i] = counts[i];
        cdispls[i] = displs[i];
    }
    for (int rep = 0; rep < nt_reps(); rep++) {
        fill(send, (size_t)total, SENT);
        for (int i = 0; root == MPI_ROOT && i < rs; i++)
            for (int j = 0; j < counts[i]; j++) send[displs[i] + j] = V(side, lr, 10 * i + j, rep);
        fill(recv, 4, SENT);
        NT_ISSUE(rep,
                 MPI_Iscatterv_c(send, ccounts, cdispls, MPI_INT, recv, lr % 3 + 1, MPI_INT, root,
                                 ic, &nt_req),
                 MPI_Scatterv_init_c(send, ccounts, cdispls, MPI_INT, recv, lr % 3 + 1, MPI_INT,
                                     root, ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int j = 0; j < 4; j++) {
            int want = side == rside || j > lr % 3 ? SENT : V(rside, r0, 10 * lr + j, rep);
            CHECK(recv[j] == want, "scatterv_c root %d/%d rep %d: [%d] = %d want %d", rside, r0,
                  rep, j, recv[j], want);
        }
    }
    nt_done();
    free(send);
}

/* A non-commutative operation: the lower-ranked operand wins. */
static void first_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    memcpy(inout, in, sizeof(int) * (size_t)*len);
}

static MPI_Op first_op;

static void t_reduce(int rside, int r0, int count, MPI_Op op)
{
    int root = root_arg(rside, r0), *send = ints((size_t)count), *recv = ints((size_t)count);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int j = 0; j < count; j++) send[j] = V(side, lr, j, rep) % 1000;
        fill(recv, (size_t)count, SENT);
        NT_ISSUE(rep, MPI_Ireduce(send, recv, count, MPI_INT, op, root, ic, &nt_req),
                 MPI_Reduce_init(send, recv, count, MPI_INT, op, root, ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        if (root != MPI_ROOT) {
            untouched(recv, (size_t)count, "reduce");
            continue;
        }
        for (int j = 0; j < count; j++) {
            int want = 0;
            for (int i = 0; i < rs; i++) want += V(!side, i, j, rep) % 1000;
            if (op == first_op) want = V(!side, 0, j, rep) % 1000;
            CHECK(recv[j] == want, "reduce count %d rep %d: [%d] = %d want %d", count, rep, j,
                  recv[j], want);
        }
    }
    nt_done();
    free(send);
    free(recv);
}

static void t_allreduce(int count, MPI_Op op)
{
    int *send = ints((size_t)count), *recv = ints((size_t)count);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int j = 0; j < count; j++) send[j] = V(side, lr, j, rep) % 1000;
        fill(recv, (size_t)count, SENT);
        NT_ISSUE(rep, MPI_Iallreduce(send, recv, count, MPI_INT, op, ic, &nt_req),
                 MPI_Allreduce_init(send, recv, count, MPI_INT, op, ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int j = 0; j < count; j++) {
            int want = 0;
            for (int i = 0; i < rs; i++) want += V(!side, i, j, rep) % 1000;
            if (op == first_op) want = V(!side, 0, j, rep) % 1000;
            CHECK(recv[j] == want, "allreduce count %d rep %d: [%d] = %d want %d", count, rep, j,
                  recv[j], want);
        }
    }
    nt_done();
    free(send);
    free(recv);
}

static void t_allgather(int count)
{
    int *send = ints((size_t)count), *recv = ints((size_t)rs * count);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int j = 0; j < count; j++) send[j] = V(side, lr, j, rep);
        fill(recv, (size_t)rs * count, SENT);
        NT_ISSUE(rep, MPI_Iallgather(send, count, MPI_INT, recv, count, MPI_INT, ic, &nt_req),
                 MPI_Allgather_init(send, count, MPI_INT, recv, count, MPI_INT, ic, MPI_INFO_NULL,
                                    &nt_req));
        nt_complete(rep);
        for (int i = 0; i < rs; i++)
            for (int j = 0; j < count; j++)
                CHECK(recv[i * count + j] == V(!side, i, j, rep),
                      "allgather count %d rep %d: from %d [%d] = %d", count, rep, i, j,
                      recv[i * count + j]);
    }
    nt_done();
    free(send);
    free(recv);
}

static void t_allgatherv_c(void)
{
    int counts[64], displs[64], send[3];
    MPI_Count ccounts[64];
    MPI_Aint cdispls[64];
    int total = v_layout(rs, counts, displs), *recv = ints((size_t)total);
    for (int i = 0; i < rs; i++) {
        ccounts[i] = counts[i];
        cdispls[i] = displs[i];
    }
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int j = 0; j < 3; j++) send[j] = V(side, lr, j, rep);
        fill(recv, (size_t)total, SENT);
        NT_ISSUE(rep,
                 MPI_Iallgatherv_c(send, lr % 3 + 1, MPI_INT, recv, ccounts, cdispls, MPI_INT, ic,
                                   &nt_req),
                 MPI_Allgatherv_init_c(send, lr % 3 + 1, MPI_INT, recv, ccounts, cdispls, MPI_INT,
                                       ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int i = 0; i < rs; i++) {
            for (int j = 0; j < counts[i]; j++)
                CHECK(recv[displs[i] + j] == V(!side, i, j, rep),
                      "allgatherv_c rep %d: from %d [%d] = %d", rep, i, j, recv[displs[i] + j]);
            CHECK(recv[displs[i] + counts[i]] == SENT, "allgatherv_c: gap after %d written", i);
        }
    }
    nt_done();
    free(recv);
}

/* Alltoall, then v ((my local rank + remote rank) % 3 elements each way,
 * gaps of one), then w (the same in bytes, pairs as one MPI_2INT). */
static void t_alltoall(void)
{
    int *send = ints((size_t)rs * 2), *recv = ints((size_t)rs * 2);
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int k = 0; k < rs * 2; k++) send[k] = V(side, lr, 10 * (k / 2) + k % 2, rep);
        fill(recv, (size_t)rs * 2, SENT);
        NT_ISSUE(rep, MPI_Ialltoall(send, 2, MPI_INT, recv, 2, MPI_INT, ic, &nt_req),
                 MPI_Alltoall_init(send, 2, MPI_INT, recv, 2, MPI_INT, ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int i = 0; i < rs; i++)
            for (int j = 0; j < 2; j++)
                CHECK(recv[2 * i + j] == V(!side, i, 10 * lr + j, rep),
                      "alltoall rep %d: from %d [%d] = %d", rep, i, j, recv[2 * i + j]);
    }
    nt_done();
    free(send);
    free(recv);

    int sc[64], sd[64], rc[64], rd[64], soff = 0, roff = 0;
    int swc[64], sdb[64], rdb[64];
    MPI_Datatype st[64];
    for (int i = 0; i < rs; i++) {
        sc[i] = rc[i] = (lr + i) % 3;
        sd[i] = soff;
        rd[i] = roff;
        soff += sc[i] + 1;
        roff += rc[i] + 1;
        st[i] = sc[i] == 2 ? MPI_2INT : sc[i] ? MPI_INT : MPI_DATATYPE_NULL;
        swc[i] = sc[i] == 2 ? 1 : sc[i];
        sdb[i] = sd[i] * (int)sizeof(int);
        rdb[i] = rd[i] * (int)sizeof(int);
    }
    send = ints((size_t)soff);
    recv = ints((size_t)roff);
    for (int w = 0; w < 2; w++) {
        for (int rep = 0; rep < nt_reps(); rep++) {
            fill(send, (size_t)soff, SENT);
            for (int i = 0; i < rs; i++)
                for (int j = 0; j < sc[i]; j++) send[sd[i] + j] = V(side, lr, 10 * i + j, rep);
            fill(recv, (size_t)roff, SENT);
            if (w)
                NT_ISSUE(rep, MPI_Ialltoallw(send, swc, sdb, st, recv, swc, rdb, st, ic, &nt_req),
                         MPI_Alltoallw_init(send, swc, sdb, st, recv, swc, rdb, st, ic,
                                            MPI_INFO_NULL, &nt_req));
            else
                NT_ISSUE(rep,
                         MPI_Ialltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, ic, &nt_req),
                         MPI_Alltoallv_init(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, ic,
                                            MPI_INFO_NULL, &nt_req));
            nt_complete(rep);
            for (int i = 0; i < rs; i++) {
                for (int j = 0; j < rc[i]; j++)
                    CHECK(recv[rd[i] + j] == V(!side, i, 10 * lr + j, rep),
                          "alltoall%c rep %d: from %d [%d] = %d", w ? 'w' : 'v', rep, i, j,
                          recv[rd[i] + j]);
                CHECK(recv[rd[i] + rc[i]] == SENT, "alltoallv: gap after %d written", i);
            }
        }
        nt_done();
    }
    free(send);
    free(recv);
}

/* Both sides reduce vectors of ls * rs elements; local rank 0 takes its
 * block and the last rank's (which gets none) when there are several. */
static void t_reduce_scatter(void)
{
    int total = ls * rs, counts[64], displs[64], off = 0;
    for (int i = 0; i < ls; i++) counts[i] = rs;
    if (ls > 1) {
        counts[0] += counts[ls - 1];
        counts[ls - 1] = 0;
    }
    for (int i = 0; i < ls; i++) {
        displs[i] = off;
        off += counts[i];
    }
    int *send = ints((size_t)total), *recv = ints((size_t)total + 1);
    for (int block = 0; block < 2; block++) {
        int mine = block ? rs : counts[lr], first = block ? lr * rs : displs[lr];
        for (int rep = 0; rep < nt_reps(); rep++) {
            for (int k = 0; k < total; k++) send[k] = V(side, lr, k, rep) % 1000;
            fill(recv, (size_t)total + 1, SENT);
            if (block)
                NT_ISSUE(rep,
                         MPI_Ireduce_scatter_block(send, recv, rs, MPI_INT, MPI_SUM, ic, &nt_req),
                         MPI_Reduce_scatter_block_init(send, recv, rs, MPI_INT, MPI_SUM, ic,
                                                       MPI_INFO_NULL, &nt_req));
            else
                NT_ISSUE(rep,
                         MPI_Ireduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, ic, &nt_req),
                         MPI_Reduce_scatter_init(send, recv, counts, MPI_INT, MPI_SUM, ic,
                                                 MPI_INFO_NULL, &nt_req));
            nt_complete(rep);
            for (int j = 0; j < mine; j++) {
                int want = 0;
                for (int i = 0; i < rs; i++) want += V(!side, i, first + j, rep) % 1000;
                CHECK(recv[j] == want, "reduce_scatter%s rep %d: [%d] = %d want %d",
                      block ? "_block" : "", rep, j, recv[j], want);
            }
            CHECK(recv[mine] == SENT, "reduce_scatter%s wrote past its block",
                  block ? "_block" : "");
        }
        nt_done();
    }
    free(send);
    free(recv);
}

/* Nobody completes the barrier before everyone on the other side started
 * it: the last rank of side 1 starts late and tells when (one host, one
 * monotonic clock). */
static void t_barrier(void)
{
    int late = side == 1 && lr == ls - 1;
    for (int rep = 0; rep < nt_reps(); rep++) {
        double entered = 0;
        if (late) {
            nt_sleep_ms(50);
            entered = nt_now();
        }
        NT_ISSUE(rep, MPI_Ibarrier(ic, &nt_req), MPI_Barrier_init(ic, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        double left = nt_now();
        CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, wsize - 1, MPI_COMM_WORLD));
        CHECK(left >= entered, "barrier rep %d completed %.6f s before the late rank started it",
              rep, entered - left);
    }
    nt_done();
}

/* Five collectives outstanding at once, completed in reverse order of
 * starting (each one's schedule has its own tag). */
static void t_outstanding(void)
{
    enum { N = 5 };
    MPI_Request req[N];
    int b1[4], b2[4], sum[3], *ag = ints((size_t)rs), *a2a_s = ints((size_t)rs),
                              *a2a_r = ints((size_t)rs);
    for (int j = 0; j < 4; j++) b1[j] = b2[j] = SENT;
    if (side == 0 && lr == 0)
        for (int j = 0; j < 4; j++) b1[j] = V(0, 0, j, 7);
    if (side == 1 && lr == ls - 1)
        for (int j = 0; j < 4; j++) b2[j] = V(1, ls - 1, j, 8);
    int s3[3] = {V(side, lr, 0, 9) % 1000, V(side, lr, 1, 9) % 1000, V(side, lr, 2, 9) % 1000};
    for (int i = 0; i < rs; i++) a2a_s[i] = V(side, lr, i, 10);
    int mine = V(side, lr, 0, 11);
    CHECK_MPI(MPI_Ibcast(b1, 4, MPI_INT, root_arg(0, 0), ic, &req[0]));
    CHECK_MPI(MPI_Iallreduce(s3, sum, 3, MPI_INT, MPI_SUM, ic, &req[1]));
    CHECK_MPI(MPI_Ibcast(b2, 4, MPI_INT, root_arg(1, size_of(1) - 1), ic, &req[2]));
    CHECK_MPI(MPI_Iallgather(&mine, 1, MPI_INT, ag, 1, MPI_INT, ic, &req[3]));
    CHECK_MPI(MPI_Ialltoall(a2a_s, 1, MPI_INT, a2a_r, 1, MPI_INT, ic, &req[4]));
    for (int k = N - 1; k >= 0; k--) CHECK_MPI(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    for (int j = 0; j < 4; j++) {
        int w1 = side == 1 ? V(0, 0, j, 7) : lr == 0 ? V(0, 0, j, 7) : SENT;
        int w2 = side == 0 ? V(1, size_of(1) - 1, j, 8) : lr == ls - 1 ? V(1, ls - 1, j, 8) : SENT;
        CHECK(b1[j] == w1 && b2[j] == w2, "outstanding bcasts [%d] = %d, %d want %d, %d", j, b1[j],
              b2[j], w1, w2);
    }
    for (int j = 0; j < 3; j++) {
        int want = 0;
        for (int i = 0; i < rs; i++) want += V(!side, i, j, 9) % 1000;
        CHECK(sum[j] == want, "outstanding allreduce [%d] = %d want %d", j, sum[j], want);
    }
    for (int i = 0; i < rs; i++) {
        CHECK(ag[i] == V(!side, i, 0, 11), "outstanding allgather [%d] = %d", i, ag[i]);
        CHECK(a2a_r[i] == V(!side, i, lr, 10), "outstanding alltoall [%d] = %d", i, a2a_r[i]);
    }
    free(ag);
    free(a2a_s);
    free(a2a_r);
}

/* Side 1 starts late; side 0 computes and calls only MPI_Test until its
 * large allreduce completes, which it cannot before side 1 started. */
static volatile double sink;
static void t_overlap(void)
{
    int *send = ints(BIG), *recv = ints(BIG);
    for (int j = 0; j < BIG; j++) send[j] = V(side, lr, j, 12) % 1000;
    double start = 0;
    if (side == 1) {
        nt_sleep_ms(200);
        start = nt_now();
    }
    MPI_Request req;
    CHECK_MPI(MPI_Iallreduce(send, recv, BIG, MPI_INT, MPI_SUM, ic, &req));
    int flag = 0;
    double t0 = nt_now(), x = 1;
    while (!flag) {
        for (int i = 0; i < 20000; i++) x = x * 1.0000001 + 1e-9;
        sink = x;
        CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        CHECK(flag || nt_now() - t0 < 60, "overlap: not complete after 60 s of MPI_Test");
        if (!flag) sched_yield();
    }
    double done = nt_now();
    CHECK(req == MPI_REQUEST_NULL, "overlap: Test gave flag but kept the request");
    CHECK_MPI(MPI_Bcast(&start, 1, MPI_DOUBLE, wsize - 1, MPI_COMM_WORLD));
    CHECK(done >= start, "overlap: completed %.3f s before the other side started", start - done);
    for (int j = 0; j < BIG; j++) {
        int want = 0;
        for (int i = 0; i < rs; i++) want += V(!side, i, j, 12) % 1000;
        CHECK(recv[j] == want, "overlap allreduce [%d] = %d want %d", j, recv[j], want);
    }
    free(send);
    free(recv);
}

/* Every call here fails at every rank before any schedule is built. */
static void t_errors(void)
{
    int x[4] = {0, 0, 0, 0}, y[4], neg[64];
    MPI_Request r = MPI_REQUEST_NULL;
    for (int i = 0; i < 64; i++) neg[i] = i == ls - 1 ? -1 : 1;
    expect(MPI_Iscan(x, y, 1, MPI_INT, MPI_SUM, ic, &r), MPI_ERR_COMM, "MPI_Iscan",
           "intercommunicator");
    expect(MPI_Iexscan(x, y, 1, MPI_INT, MPI_SUM, ic, &r), MPI_ERR_COMM, "MPI_Iexscan",
           "intercommunicator");
    expect(MPI_Scan_init(x, y, 1, MPI_INT, MPI_SUM, ic, MPI_INFO_NULL, &r), MPI_ERR_COMM,
           "MPI_Scan_init", "intercommunicator");
    expect(MPI_Ibcast(x, 1, MPI_INT, rs, ic, &r), MPI_ERR_ROOT, "MPI_Ibcast", "remote group");
    expect(MPI_Reduce_init(x, y, 1, MPI_INT, MPI_SUM, -7, ic, MPI_INFO_NULL, &r), MPI_ERR_ROOT,
           "MPI_Reduce_init", "MPI_ROOT");
    expect(MPI_Iallreduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, ic, &r), MPI_ERR_BUFFER,
           "MPI_Iallreduce", "MPI_IN_PLACE");
    expect(MPI_Igather(x, 1, MPI_INT, NULL, 1, MPI_INT, MPI_ROOT, ic, &r), MPI_ERR_BUFFER,
           "MPI_Igather", "recvbuf");
    expect(MPI_Igatherv(x, 1, MPI_INT, y, NULL, neg, MPI_INT, MPI_ROOT, ic, &r), MPI_ERR_ARG,
           "MPI_Igatherv", "recvcounts");
    expect(MPI_Ialltoall(x, -1, MPI_INT, y, 1, MPI_INT, ic, &r), MPI_ERR_COUNT, "MPI_Ialltoall",
           "sendcount");
    expect(MPI_Ireduce_scatter(x, y, neg, MPI_INT, MPI_SUM, ic, &r), MPI_ERR_COUNT,
           "MPI_Ireduce_scatter", "recvcounts");
    expect(MPI_Iallreduce(x, y, 1, MPI_INT, MPI_OP_NULL, ic, &r), MPI_ERR_OP, "MPI_Iallreduce",
           "MPI_OP_NULL");
    expect(MPI_Iscatter(side ? x : MPI_IN_PLACE, 1, MPI_INT, side ? MPI_IN_PLACE : y, 1, MPI_INT,
                        side ? 0 : MPI_ROOT, ic, &r),
           MPI_ERR_BUFFER, "MPI_Iscatter", "MPI_IN_PLACE");
    expect(MPI_Ibarrier(ic, NULL), MPI_ERR_ARG, "MPI_Ibarrier", "request");
    CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    nt_mode(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize >= 2 && wsize <= 64, "needs 2..64 ranks");
    half = wsize / 2;
    side = wrank >= half;
    lr = side ? wrank - half : wrank;
    ls = size_of(side);
    rs = size_of(!side);
    MPI_Comm local;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : half, 5, &ic));
    CHECK_MPI(MPI_Op_create(first_fn, 0, &first_op));

    t_barrier();
    for (int rside = 0; rside < 2; rside++) {
        for (int r0 = 0; r0 < size_of(rside); r0++) {
            t_bcast(rside, r0, 3);
            t_gather(rside, r0, 2);
            t_gatherv(rside, r0);
            t_scatter(rside, r0, 2);
            t_scatterv_c(rside, r0);
            t_reduce(rside, r0, 3, MPI_SUM);
            t_reduce(rside, r0, 3, first_op);
        }
    }
    /* Beyond the eager size, the first and last root. */
    t_bcast(0, 0, BIG);
    t_gather(1, size_of(1) - 1, BIG / 4);
    t_scatter(0, 0, BIG / 4);
    t_reduce(1, size_of(1) - 1, BIG, MPI_SUM);
    for (int count = 0; count <= BIG; count += BIG) {
        t_allreduce(count ? count : 1, MPI_SUM);
        t_allgather(count ? count / 4 : 0);
    }
    t_allreduce(5, first_op);
    t_allgatherv_c();
    t_alltoall();
    t_reduce_scatter();
    if (!nt_persistent) {
        t_outstanding();
        t_overlap();
    }

    CHECK_MPI(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));
    t_errors();

    MPI_Op_free(&first_op);
    CHECK_MPI(MPI_Comm_free(&ic));
    CHECK_MPI(MPI_Comm_free(&local));
    MPI_Finalize();
    return 0;
}
