/* The nonblocking and persistent collectives through shared memory
 * (src/coll/shm_nbc.c): values of Ibarrier, Ibcast, Igather(v),
 * Iscatter(v), Iallgather(v), Ialltoall(v,w), Ireduce, Iallreduce,
 * Ireduce_scatter(_block), Iscan and Iexscan at 4 B, 1 KiB and 4 KiB, with
 * MPI_IN_PLACE, empty blocks and a non-commutative user operation; several outstanding at once with blocking collectives between
 * their posts on the same communicator, completed by MPI_Wait, MPI_Test
 * loops and MPI_Waitall in different orders on different ranks; persistent
 * requests started many times (MPI_Start, MPI_Startall) among nonblocking
 * and blocking calls, in the same order everywhere (asserted by
 * mpi_assert_strict_persistent_collective_ordering) and in another order
 * on odd ranks; posts that must not block while the peers are
 * elsewhere (a root posting three broadcasts and a barrier before its peers
 * post any, then sending to them); and a first nonblocking collective on a
 * communicator whose area no blocking collective has attached yet.
 *
 *   nbc_shm shm   no point-to-point message in the sections after the first
 *                 barrier (one host, 2 ranks or more)
 *   nbc_shm p2p   the point-to-point algorithms serve (forced, no area, or tiny slots) */
#include "nbc_test.h"

#include "../coll/coll_msgcount.h"

static int rank, size;
static MPI_Op matop;
static MPI_Datatype mattype, pairtype;

/* 4 B, 1 KiB and 4 KiB of ints. */
static const int counts[] = {1, 256, 1024};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static int val(int r, long i, int salt) { return tt_val(r, i, salt) % 100003; }

static int *ints(size_t n) { return tt_alloc(n * sizeof(int)); }

/* Completes one request: 0 MPI_Wait, 1 a loop of MPI_Test. */
static void finish(MPI_Request *req, int how)
{
    if (how == 0) {
        CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
        return;
    }
    int flag = 0;
    double t0 = nt_now();
    while (!flag) {
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        CHECK(flag || nt_now() - t0 < 60, "not complete after 60 s of MPI_Test");
        if (!flag) sched_yield();
    }
}

/* Completes n requests in an order that depends on the rank: MPI_Waitall,
 * MPI_Wait from the last to the first, or MPI_Test round robin. */
static void finish_all(int n, MPI_Request *reqs)
{
    switch (rank % 3) {
    case 0: CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE)); break;
    case 1:
        for (int i = n - 1; i >= 0; i--) CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
        break;
    default: {
        int left = n;
        double t0 = nt_now();
        while (left) {
            for (int i = 0; i < n; i++) {
                if (reqs[i] == MPI_REQUEST_NULL) continue;
                int flag;
                CHECK_MPI(MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE));
                if (flag && !reqs[i]) left--;
                /* A persistent request stays set when complete. */
                if (flag && reqs[i]) {
                    left--;
                    reqs[i] = MPI_REQUEST_NULL;
                }
            }
            CHECK(nt_now() - t0 < 60, "%d requests not complete after 60 s of MPI_Test", left);
            if (left) sched_yield();
        }
    }
    }
}

static void check_ints(const int *got, const int *want, long n, const char *what, int count)
{
    for (long i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s (count %d): element %ld is %d, expected %d", what, count, i,
              got[i], want[i]);
}

static void check_mats(const tt_mat *got, int lo, int hi, long n, int salt, const char *what)
{
    for (long i = 0; i < n; i++)
        CHECK(tt_mat_eq(got[i], tt_mat_range(lo, hi, i + salt)),
              "%s: matrix %ld is not the product of ranks %d..%d in order", what, i, lo, hi);
}

/* ---- Each collective alone, at each size ---- */

/* Igatherv, Iscatterv and Iallgatherv of cnt ints: rank j's block has
 * cnt - j % 2 (none at count 1), the blocks in reverse rank order with a
 * gap of one int.  a, b, w: room for n * (cnt + 1) ints. */
static void vees(MPI_Comm c, int rep, int cnt, int *a, int *b, int *w)
{
    int n = size, r = rank, how = rep % 2, inplace = rep % 2, salt = 300 + rep + cnt;
    int root = (rep + cnt + 1) % n;
    int *vc = ints((size_t)n), *vd = ints((size_t)n);
    long vt = 0;
    for (int j = n - 1; j >= 0; j--) {
        vc[j] = cnt - j % 2;
        vd[j] = (int)vt;
        vt += vc[j] + 1;
    }
    for (long i = 0; i < vt; i++) w[i] = -1;
    for (int j = 0; j < n; j++)
        for (long i = 0; i < vc[j]; i++) w[vd[j] + i] = val(j, i, salt);
    MPI_Request q;

    for (long i = 0; i < vt; i++) b[i] = -1;
    for (long i = 0; i < vc[r]; i++) a[i] = val(r, i, salt);
    if (r == root && inplace) {
        memcpy(b + vd[r], a, (size_t)vc[r] * sizeof(int));
        CHECK_MPI(MPI_Igatherv(MPI_IN_PLACE, 0, MPI_INT, b, vc, vd, MPI_INT, root, c, &q));
    } else {
        CHECK_MPI(MPI_Igatherv(a, vc[r], MPI_INT, b, vc, vd, MPI_INT, root, c, &q));
    }
    finish(&q, how);
    if (r == root) check_ints(b, w, vt, "igatherv", cnt);

    if (r == root) memcpy(a, w, (size_t)vt * sizeof(int));
    for (long i = 0; i < cnt; i++) b[i] = -1;
    if (r == root && inplace) {
        CHECK_MPI(MPI_Iscatterv(a, vc, vd, MPI_INT, MPI_IN_PLACE, 0, MPI_INT, root, c, &q));
        finish(&q, how);
        check_ints(a + vd[r], w + vd[r], vc[r], "iscatterv in place", cnt);
    } else {
        CHECK_MPI(MPI_Iscatterv(a, vc, vd, MPI_INT, b, vc[r], MPI_INT, root, c, &q));
        finish(&q, how);
        check_ints(b, w + vd[r], vc[r], "iscatterv", cnt);
    }

    for (long i = 0; i < vt; i++) b[i] = -1;
    for (long i = 0; i < vc[r]; i++) a[i] = val(r, i, salt);
    if (inplace) {
        memcpy(b + vd[r], a, (size_t)vc[r] * sizeof(int));
        CHECK_MPI(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_INT, b, vc, vd, MPI_INT, c, &q));
    } else {
        CHECK_MPI(MPI_Iallgatherv(a, vc[r], MPI_INT, b, vc, vd, MPI_INT, c, &q));
    }
    finish(&q, how);
    check_ints(b, w, vt, "iallgatherv", cnt);
    free(vc);
    free(vd);
}

/* Ialltoallv and Ialltoallw: rank i sends rank j a2a_len(i, j) ints,
 * none, cnt or 2 cnt of them; blocks in reverse rank order with a gap
 * after each, in place on odd reps.  Ialltoallw takes the blocks of an
 * even length between ranks of different parity as pairs of ints. */
static int a2a_len(int i, int j, int cnt) { return ((i + 2 * j) % 3) * cnt; }

static void alltoallvw(MPI_Comm c, int rep, int cnt, MPI_Datatype pair)
{
    int n = size, r = rank, how = rep % 2, inplace = rep % 2, salt = 500 + rep + cnt;
    int *arrays = ints(8 * (size_t)n);
    int *sc = arrays, *sd = sc + n, *rc = sd + n, *rd = rc + n, *sdb = rd + n, *rdb = sdb + n,
        *wsc = rdb + n, *wrc = wsc + n;
    MPI_Datatype *st = tt_alloc(2 * (size_t)n * sizeof *st), *rt = st + n;
    int sat = 0, rat = 0;
    for (int j = n - 1; j >= 0; j--) {
        /* In place the layout must be symmetric: what j sends here is what
         * this rank sends j. */
        sc[j] = inplace ? a2a_len(r, j, cnt) + a2a_len(j, r, cnt) : a2a_len(r, j, cnt);
        rc[j] = inplace ? sc[j] : a2a_len(j, r, cnt);
        sd[j] = sat;
        rd[j] = rat;
        sat += sc[j] + 1;
        rat += rc[j] + 1;
    }
    for (int j = 0; j < n; j++) {
        int ps = sc[j] % 2 == 0 && (r + j) % 2, pr = rc[j] % 2 == 0 && (j + r) % 2;
        st[j] = ps ? pair : MPI_INT;
        rt[j] = pr ? pair : MPI_INT;
        wsc[j] = ps ? sc[j] / 2 : sc[j];
        wrc[j] = pr ? rc[j] / 2 : rc[j];
        sdb[j] = sd[j] * (int)sizeof(int);
        rdb[j] = rd[j] * (int)sizeof(int);
    }
    int *sb = ints((size_t)sat), *rb = ints((size_t)rat);
    for (int w = 0; w < 2; w++) {
        int *src = inplace ? rb : sb;
        for (int j = 0; j < rat; j++) rb[j] = -1;
        for (int j = 0; j < n; j++)
            for (int e = 0; e < sc[j]; e++) src[sd[j] + e] = val(r, j * 10000 + e, salt + w);
        const void *sbuf = inplace ? MPI_IN_PLACE : sb;
        MPI_Request q;
        if (w)
            CHECK_MPI(MPI_Ialltoallw(sbuf, wsc, sdb, st, rb, wrc, rdb, rt, c, &q));
        else
            CHECK_MPI(MPI_Ialltoallv(sbuf, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, c, &q));
        finish(&q, how);
        for (int i = 0; i < n; i++) {
            for (int e = 0; e < rc[i]; e++)
                CHECK(rb[rd[i] + e] == val(i, r * 10000 + e, salt + w),
                      "ialltoall%c (count %d, in place %d): from %d [%d] is %d, expected %d",
                      w ? 'w' : 'v', cnt, inplace, i, e, rb[rd[i] + e],
                      val(i, r * 10000 + e, salt + w));
            CHECK(rb[rd[i] + rc[i]] == -1, "ialltoall%c (count %d): the gap after %d written",
                  w ? 'w' : 'v', cnt, i);
        }
    }
    free(arrays);
    free(st);
    free(sb);
    free(rb);
}

/* Iscan and Iexscan of cnt ints (MPI_SUM) and of 2x2 matrices (products in
 * rank order). */
static void scans(MPI_Comm c, int rep, int cnt, int *a, int *b, int *w)
{
    int r = rank, how = rep % 2, inplace = rep % 2, salt = 400 + rep + cnt;
    MPI_Request q;
    for (int ex = 0; ex < 2; ex++) {
        const char *what = ex ? "iexscan" : "iscan";
        for (long i = 0; i < cnt; i++) {
            a[i] = val(r, i, salt);
            w[i] = 0;
            for (int j = 0; j < r + !ex; j++) w[i] += val(j, i, salt);
        }
        const void *sb = a;
        if (inplace) {
            memcpy(b, a, (size_t)cnt * sizeof(int));
            sb = MPI_IN_PLACE;
        }
        if (ex)
            CHECK_MPI(MPI_Iexscan(sb, b, cnt, MPI_INT, MPI_SUM, c, &q));
        else
            CHECK_MPI(MPI_Iscan(sb, b, cnt, MPI_INT, MPI_SUM, c, &q));
        finish(&q, how);
        if (r + !ex > 0) check_ints(b, w, cnt, what, cnt);

        int nm = cnt / 4 ? cnt / 4 : 1;
        tt_mat *ma = tt_alloc((size_t)nm * sizeof *ma), *mb = tt_alloc((size_t)nm * sizeof *mb);
        for (long i = 0; i < nm; i++) ma[i] = tt_mat_of(r, i + salt);
        if (ex)
            CHECK_MPI(MPI_Iexscan(ma, mb, nm, mattype, matop, c, &q));
        else
            CHECK_MPI(MPI_Iscan(ma, mb, nm, mattype, matop, c, &q));
        finish(&q, how);
        if (r + !ex > 0)
            check_mats(mb, 0, r - ex, nm, salt, ex ? "iexscan, matrices" : "iscan, matrices");
        free(ma);
        free(mb);
    }
}

/* counts[k0..k1) */
static void singles(MPI_Comm c, int rep, int k0, int k1)
{
    int n = size, r = rank, how = rep % 2, inplace = rep % 2;
    for (int k = k0; k < k1; k++) {
        int cnt = counts[k], salt = 100 * rep + k;
        long nc = (long)n * cnt;
        /* room for reduce_scatter's vector too (up to 2 per rank) */
        size_t room = (size_t)(nc + 2 * n);
        int *a = ints(room), *b = ints(room), *w = ints(room);
        MPI_Request q;

        CHECK_MPI(MPI_Ibarrier(c, &q));
        finish(&q, how);

        int root = (rep + k) % n;
        for (long i = 0; i < cnt; i++) a[i] = r == root ? val(root, i, salt) : -1;
        CHECK_MPI(MPI_Ibcast(a, cnt, MPI_INT, root, c, &q));
        finish(&q, how);
        for (long i = 0; i < cnt; i++) w[i] = val(root, i, salt);
        check_ints(a, w, cnt, "ibcast", cnt);

        /* Ireduce and Iallreduce, MPI_SUM */
        for (long i = 0; i < cnt; i++) {
            a[i] = val(r, i, salt);
            w[i] = 0;
            for (int j = 0; j < n; j++) w[i] += val(j, i, salt);
        }
        memset(b, 0, (size_t)cnt * sizeof(int));
        CHECK_MPI(MPI_Ireduce(a, b, cnt, MPI_INT, MPI_SUM, root, c, &q));
        finish(&q, how);
        if (r == root) check_ints(b, w, cnt, "ireduce", cnt);
        if (inplace) {
            memcpy(b, a, (size_t)cnt * sizeof(int));
            CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, b, cnt, MPI_INT, MPI_SUM, c, &q));
        } else {
            CHECK_MPI(MPI_Iallreduce(a, b, cnt, MPI_INT, MPI_SUM, c, &q));
        }
        finish(&q, how);
        check_ints(b, w, cnt, inplace ? "iallreduce in place" : "iallreduce", cnt);

        /* The same with 2x2 matrices (16 B each): products in rank order. */
        int nm = cnt / 4 ? cnt / 4 : 1;
        tt_mat *ma = tt_alloc((size_t)nm * sizeof *ma), *mb = tt_alloc((size_t)nm * sizeof *mb);
        for (long i = 0; i < nm; i++) ma[i] = tt_mat_of(r, i + salt);
        CHECK_MPI(MPI_Ireduce(ma, mb, nm, mattype, matop, root, c, &q));
        finish(&q, how);
        if (r == root) check_mats(mb, 0, n - 1, nm, salt, "ireduce, matrices");
        if (inplace) {
            memcpy(mb, ma, (size_t)nm * sizeof *ma);
            CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, mb, nm, mattype, matop, c, &q));
        } else {
            CHECK_MPI(MPI_Iallreduce(ma, mb, nm, mattype, matop, c, &q));
        }
        finish(&q, how);
        check_mats(mb, 0, n - 1, nm, salt, "iallreduce, matrices");
        free(ma);
        free(mb);

        /* Igather: cnt ints from each rank; the root in place on odd reps. */
        for (long i = 0; i < nc; i++) b[i] = -1;
        for (long i = 0; i < cnt; i++) a[i] = val(r, i, salt + 1);
        if (r == root && inplace) {
            memcpy(b + (long)root * cnt, a, (size_t)cnt * sizeof(int));
            CHECK_MPI(MPI_Igather(MPI_IN_PLACE, cnt, MPI_INT, b, cnt, MPI_INT, root, c, &q));
        } else {
            CHECK_MPI(MPI_Igather(a, cnt, MPI_INT, b, cnt, MPI_INT, root, c, &q));
        }
        finish(&q, how);
        for (int j = 0; j < n; j++)
            for (long i = 0; i < cnt; i++) w[(long)j * cnt + i] = val(j, i, salt + 1);
        if (r == root) check_ints(b, w, nc, "igather", cnt);

        /* Iscatter: the root's blocks; the root in place on odd reps. */
        if (r == root) memcpy(a, w, (size_t)nc * sizeof(int));
        for (long i = 0; i < cnt; i++) b[i] = -1;
        if (r == root && inplace) {
            CHECK_MPI(MPI_Iscatter(a, cnt, MPI_INT, MPI_IN_PLACE, cnt, MPI_INT, root, c, &q));
            finish(&q, how);
            check_ints(a + (long)r * cnt, w + (long)r * cnt, cnt, "iscatter in place", cnt);
        } else {
            CHECK_MPI(MPI_Iscatter(a, cnt, MPI_INT, b, cnt, MPI_INT, root, c, &q));
            finish(&q, how);
            check_ints(b, w + (long)r * cnt, cnt, "iscatter", cnt);
        }

        /* Iallgather */
        for (long i = 0; i < nc; i++) b[i] = -1;
        for (long i = 0; i < cnt; i++) a[i] = val(r, i, salt + 1);
        if (inplace) {
            memcpy(b + (long)r * cnt, a, (size_t)cnt * sizeof(int));
            CHECK_MPI(MPI_Iallgather(MPI_IN_PLACE, cnt, MPI_INT, b, cnt, MPI_INT, c, &q));
        } else {
            CHECK_MPI(MPI_Iallgather(a, cnt, MPI_INT, b, cnt, MPI_INT, c, &q));
        }
        finish(&q, how);
        check_ints(b, w, nc, "iallgather", cnt);

        /* Ialltoall: block j of rank r is val(r, j * cnt + i) */
        for (long i = 0; i < nc; i++) a[i] = val(r, i, salt + 2);
        for (int j = 0; j < n; j++)
            for (long i = 0; i < cnt; i++)
                w[(long)j * cnt + i] = val(j, (long)r * cnt + i, salt + 2);
        if (inplace) {
            memcpy(b, a, (size_t)nc * sizeof(int));
            CHECK_MPI(MPI_Ialltoall(MPI_IN_PLACE, cnt, MPI_INT, b, cnt, MPI_INT, c, &q));
        } else {
            CHECK_MPI(MPI_Ialltoall(a, cnt, MPI_INT, b, cnt, MPI_INT, c, &q));
        }
        finish(&q, how);
        check_ints(b, w, nc, "ialltoall", cnt);

        /* Ireduce_scatter_block: cnt / n each (at least 1); Ireduce_scatter:
         * counts 1, 2, 1, 2, ... */
        int blk = cnt / n ? cnt / n : 1;
        for (long i = 0; i < (long)blk * n; i++) a[i] = val(r, i, salt + 3);
        for (long i = 0; i < blk; i++) {
            w[i] = 0;
            for (int j = 0; j < n; j++) w[i] += val(j, (long)r * blk + i, salt + 3);
        }
        CHECK_MPI(MPI_Ireduce_scatter_block(a, b, blk, MPI_INT, MPI_SUM, c, &q));
        finish(&q, how);
        check_ints(b, w, blk, "ireduce_scatter_block", cnt);
        int *rc = ints((size_t)n);
        long first = 0, total = 0;
        for (int j = 0; j < n; j++) {
            rc[j] = 1 + j % 2;
            if (j < r) first += rc[j];
            total += rc[j];
        }
        for (long i = 0; i < total; i++) a[i] = val(r, i, salt + 4);
        for (long i = 0; i < rc[r]; i++) {
            w[i] = 0;
            for (int j = 0; j < n; j++) w[i] += val(j, first + i, salt + 4);
        }
        if (inplace) {
            memcpy(b, a, (size_t)total * sizeof(int));
            CHECK_MPI(MPI_Ireduce_scatter(MPI_IN_PLACE, b, rc, MPI_INT, MPI_SUM, c, &q));
        } else {
            CHECK_MPI(MPI_Ireduce_scatter(a, b, rc, MPI_INT, MPI_SUM, c, &q));
        }
        finish(&q, how);
        check_ints(b, w, rc[r], "ireduce_scatter", cnt);
        free(rc);

        vees(c, rep, cnt, a, b, w);
        alltoallvw(c, rep, cnt, pairtype);
        scans(c, rep, cnt, a, b, w);
        free(a);
        free(b);
        free(w);
    }
}

/* ---- Several outstanding, blocking collectives between the posts ---- */

#define NQ 7
#define MC 16

static void outstanding(MPI_Comm c, int rep)
{
    int n = size, r = rank, salt = 1000 + rep;
    MPI_Request q[NQ];
    int bc[MC], ar[MC], ga[MC], *gr = ints((size_t)n * MC), *ta = ints((size_t)n * MC),
                                *tr = ints((size_t)n * MC), *ag = ints((size_t)n * MC);
    tt_mat ms[4], mr[4];
    int blocking[MC], bb[MC];

    for (int i = 0; i < MC; i++) bc[i] = r == 0 ? val(0, i, salt) : -1;
    CHECK_MPI(MPI_Ibcast(bc, MC, MPI_INT, 0, c, &q[0]));
    for (int i = 0; i < MC; i++) blocking[i] = val(r, i, salt + 1);
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, blocking, MC, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < MC; i++) ar[i] = val(r, i, salt + 2);
    CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, ar, MC, MPI_INT, MPI_SUM, c, &q[1]));
    CHECK_MPI(MPI_Ibarrier(c, &q[2]));
    for (int i = 0; i < MC; i++) ga[i] = val(r, i, salt + 3);
    CHECK_MPI(MPI_Igather(ga, MC, MPI_INT, gr, MC, MPI_INT, n - 1, c, &q[3]));
    int broot = 1 % n;
    for (int i = 0; i < MC; i++) bb[i] = r == broot ? val(broot, i, salt + 4) : -1;
    CHECK_MPI(MPI_Bcast(bb, MC, MPI_INT, broot, c));
    for (long i = 0; i < (long)n * MC; i++) ta[i] = val(r, i, salt + 5);
    CHECK_MPI(MPI_Ialltoall(ta, MC, MPI_INT, tr, MC, MPI_INT, c, &q[4]));
    for (int i = 0; i < 4; i++) ms[i] = tt_mat_of(r, i + salt);
    CHECK_MPI(MPI_Ireduce(ms, mr, 4, mattype, matop, 0, c, &q[5]));
    for (int i = 0; i < MC; i++) ag[(long)r * MC + i] = val(r, i, salt + 6);
    CHECK_MPI(MPI_Iallgather(MPI_IN_PLACE, MC, MPI_INT, ag, MC, MPI_INT, c, &q[6]));

    /* The blocking ones are done now; the nonblocking ones may not be. */
    for (int i = 0; i < MC; i++) {
        int sum = 0;
        for (int j = 0; j < n; j++) sum += val(j, i, salt + 1);
        CHECK(blocking[i] == sum, "outstanding: blocking allreduce element %d", i);
        CHECK(bb[i] == val(broot, i, salt + 4), "outstanding: blocking bcast element %d", i);
    }
    finish_all(NQ, q);
    for (int i = 0; i < MC; i++) {
        int sum = 0;
        for (int j = 0; j < n; j++) sum += val(j, i, salt + 2);
        CHECK(bc[i] == val(0, i, salt), "outstanding: ibcast element %d", i);
        CHECK(ar[i] == sum, "outstanding: iallreduce element %d", i);
        for (int j = 0; j < n; j++) {
            if (r == n - 1)
                CHECK(gr[(long)j * MC + i] == val(j, i, salt + 3), "outstanding: igather %d/%d", j,
                      i);
            CHECK(tr[(long)j * MC + i] == val(j, (long)r * MC + i, salt + 5),
                  "outstanding: ialltoall %d/%d", j, i);
            CHECK(ag[(long)j * MC + i] == val(j, i, salt + 6), "outstanding: iallgather %d/%d", j,
                  i);
        }
    }
    if (r == 0) check_mats(mr, 0, n - 1, 4, salt, "outstanding: ireduce, matrices");
    free(gr);
    free(ta);
    free(tr);
    free(ag);
}

/* ---- Persistent requests started many times ---- */

static void persistent(MPI_Comm c, int reps)
{
    int n = size, r = rank;
    /* Read only after each start fills them; zeroed so that compilers see
     * no read of uninitialised memory in the _init calls. */
    int as[MC] = {0}, ar[MC] = {0}, bc[MC] = {0}, nb[MC] = {0};
    tt_mat ms[2], mr[2];
    memset(ms, 0, sizeof ms);
    memset(mr, 0, sizeof mr);
    MPI_Request p[4], q;
    int broot = 1 % n;
    CHECK_MPI(MPI_Allreduce_init(as, ar, MC, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &p[0]));
    CHECK_MPI(MPI_Bcast_init(bc, MC, MPI_INT, broot, c, MPI_INFO_NULL, &p[1]));
    CHECK_MPI(MPI_Barrier_init(c, MPI_INFO_NULL, &p[2]));
    CHECK_MPI(MPI_Reduce_init(ms, mr, 2, mattype, matop, n - 1, c, MPI_INFO_NULL, &p[3]));
    for (int rep = 0; rep < reps; rep++) {
        int salt = 2000 + rep;
        for (int i = 0; i < MC; i++) {
            as[i] = val(r, i, salt);
            bc[i] = r == broot ? val(broot, i, salt + 1) : -1;
            nb[i] = val(r, i, salt + 2);
        }
        for (int i = 0; i < 2; i++) ms[i] = tt_mat_of(r, i + salt);
        /* A nonblocking collective outstanding across the starts, and a
         * blocking one between them on some reps. */
        CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, nb, MC, MPI_INT, MPI_MAX, c, &q));
        if (rep % 3 == 0) {
            CHECK_MPI(MPI_Startall(4, p));
        } else {
            CHECK_MPI(MPI_Start(&p[0]));
            CHECK_MPI(MPI_Start(&p[1]));
            if (rep % 3 == 1) CHECK_MPI(MPI_Barrier(c));
            CHECK_MPI(MPI_Start(&p[2]));
            CHECK_MPI(MPI_Start(&p[3]));
        }
        MPI_Request all[5] = {p[0], p[1], p[2], p[3], q};
        finish_all(5, all);
        for (int i = 0; i < MC; i++) {
            int sum = 0, max = 0;
            for (int j = 0; j < n; j++) {
                sum += val(j, i, salt);
                if (val(j, i, salt + 2) > max) max = val(j, i, salt + 2);
            }
            CHECK(ar[i] == sum, "persistent allreduce, start %d: element %d is %d, expected %d",
                  rep, i, ar[i], sum);
            CHECK(bc[i] == val(broot, i, salt + 1), "persistent bcast, start %d: element %d", rep,
                  i);
            CHECK(nb[i] == max, "iallreduce among persistent starts %d: element %d", rep, i);
        }
        if (r == n - 1) check_mats(mr, 0, n - 1, 2, salt, "persistent reduce, matrices");
    }
    for (int i = 0; i < 4; i++) CHECK_MPI(MPI_Request_free(&p[i]));
}

/* Persistent collectives are matched by the order of their *_init calls,
 * so each rank may start them in an order of its own (MPI-4.1 6.13): here
 * odd ranks start a broadcast, a barrier and an allreduce in the reverse
 * order of even ranks, or pass them to MPI_Startall reversed. */
static void out_of_order(MPI_Comm c, int reps)
{
    int bc[MC], as[MC], ar[MC];
    for (int i = 0; i < MC; i++) bc[i] = as[i] = ar[i] = 0;
    MPI_Request p[3], q[3];
    int broot = size - 1;
    CHECK_MPI(MPI_Bcast_init(bc, MC, MPI_INT, broot, c, MPI_INFO_NULL, &p[0]));
    CHECK_MPI(MPI_Barrier_init(c, MPI_INFO_NULL, &p[1]));
    CHECK_MPI(MPI_Allreduce_init(as, ar, MC, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &p[2]));
    for (int rep = 0; rep < reps; rep++) {
        int salt = 3000 + rep;
        for (int i = 0; i < MC; i++) {
            bc[i] = rank == broot ? val(broot, i, salt) : -1;
            as[i] = val(rank, i, salt + 1);
        }
        int rev = rank % 2;
        for (int k = 0; k < 3; k++) q[k] = p[rev ? 2 - k : k];
        if (rep % 2)
            CHECK_MPI(MPI_Startall(3, q));
        else
            for (int k = 0; k < 3; k++) CHECK_MPI(MPI_Start(&q[k]));
        CHECK_MPI(MPI_Waitall(3, q, MPI_STATUSES_IGNORE));
        for (int i = 0; i < MC; i++) {
            int sum = 0;
            for (int j = 0; j < size; j++) sum += val(j, i, salt + 1);
            CHECK(bc[i] == val(broot, i, salt), "bcast started out of order, rep %d: [%d]=%d", rep,
                  i, bc[i]);
            CHECK(ar[i] == sum, "allreduce started out of order, rep %d: [%d]=%d, expected %d", rep,
                  i, ar[i], sum);
        }
    }
    for (int k = 0; k < 3; k++) CHECK_MPI(MPI_Request_free(&p[k]));
}

/* ---- Posts that must not wait for the peers ---- */

/* Rank 0 posts three broadcasts (the third writes the slots of the first
 * again, so it must wait for every rank to be past it: deferred) and a
 * barrier, then sends to every other rank, which posts its own only after
 * receiving: a post that waited for the peers would hang here. */
static void no_block(MPI_Comm c, int rep)
{
    int n = size, r = rank, salt = 3000 + rep;
    int x[3][MC], token = 0;
    MPI_Request q[4];
    if (r != 0) CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 7, c, MPI_STATUS_IGNORE));
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < MC; i++) x[k][i] = r == 0 ? val(0, i, salt + k) : -1;
        CHECK_MPI(MPI_Ibcast(x[k], MC, MPI_INT, 0, c, &q[k]));
    }
    CHECK_MPI(MPI_Ibarrier(c, &q[3]));
    if (r == 0) {
        token = 42;
        for (int j = 1; j < n; j++) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, j, 7, c));
    }
    CHECK(token == 42 || n == 1, "no_block: token %d", token);
    finish_all(4, q);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < MC; i++)
            CHECK(x[k][i] == val(0, i, salt + k), "no_block: ibcast %d element %d", k, i);
}

/* A fresh communicator: its first collective is nonblocking (no area
 * attached yet, so point to point), then a barrier attaches it. */
static void fresh(MPI_Comm parent)
{
    MPI_Comm d;
    MPI_Request q;
    int v[MC];
    CHECK_MPI(MPI_Comm_dup(parent, &d));
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < MC; i++) v[i] = val(rank, i, 4000 + round);
        CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, v, MC, MPI_INT, MPI_SUM, d, &q));
        finish(&q, round);
        for (int i = 0; i < MC; i++) {
            int sum = 0;
            for (int j = 0; j < size; j++) sum += val(j, i, 4000 + round);
            CHECK(v[i] == sum, "fresh communicator, round %d: element %d", round, i);
        }
        CHECK_MPI(MPI_Barrier(d));
    }
    CHECK_MPI(MPI_Comm_free(&d));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    CHECK(argc > 1 && (!strcmp(argv[1], "shm") || !strcmp(argv[1], "p2p")), "usage: %s shm|p2p",
          argv[0]);
    int expect_shm = !strcmp(argv[1], "shm");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pv_setup();
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &matop));
    mattype = tt_mat_type();
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pairtype));
    CHECK_MPI(MPI_Type_commit(&pairtype));

    fresh(MPI_COMM_WORLD);
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Barrier(c)); /* attaches c's area */

    /* Small enough for a slot whatever the ranks (alltoall: all of a
     * rank's blocks in one), so auto takes shm for all. */
    unsigned long long before = sends();
    for (int rep = 0; rep < 2; rep++) singles(c, rep, 0, 1);
    for (int rep = 0; rep < 12; rep++) outstanding(c, rep);
    /* Persistent collectives may take the shared-memory lane only where
     * their starts are asserted to come in the same order everywhere. */
    MPI_Info strict;
    CHECK_MPI(MPI_Info_create(&strict));
    CHECK_MPI(MPI_Info_set(strict, "mpi_assert_strict_persistent_collective_ordering", "true"));
    CHECK_MPI(MPI_Comm_set_info(c, strict));
    MPI_Info_free(&strict);
    persistent(c, 30);
    unsigned long long mine = sends() - before, all = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, c));
    if (size > 1 && expect_shm)
        CHECK(all == 0, "%llu point-to-point messages where shared memory should carry all", all);
    if (size > 1 && !expect_shm)
        CHECK(all > 0, "no message: the point-to-point algorithms did not run");

    for (int rep = 0; rep < 2; rep++) singles(c, rep, 0, NCOUNTS);
    for (int rep = 0; rep < 4; rep++) no_block(c, rep);
    out_of_order(MPI_COMM_WORLD, 20);
    for (int rep = 0; rep < 2; rep++) outstanding(MPI_COMM_WORLD, 100 + rep);

    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Op_free(&matop));
    CHECK_MPI(MPI_Type_free(&mattype));
    CHECK_MPI(MPI_Type_free(&pairtype));
    CHECK_T(MPI_T_pvar_session_free(&pv_session), MPI_SUCCESS);
    CHECK_MPI(MPI_T_finalize());
    if (rank == 0) printf("nbc_shm passed (%s, %llu messages)\n", argv[1], all);
    MPI_Finalize();
    return 0;
}
