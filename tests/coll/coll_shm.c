/* The shared-memory collectives (src/coll/shm_coll.c): results, and whether
 * point-to-point messages flowed.
 *
 * On each communicator (world, a dup, two splits, the ranks of this host), phase A runs barrier, bcast, gather, scatter,
 * allgather, reduce and allreduce with data that fits a slot: assorted
 * datatypes (contiguous, vector, a derived contiguous one), every root,
 * MPI_IN_PLACE, MPI_SUM, MPI_MAX and a user non-commutative operation, then
 * a long back-to-back run that changes roots at every call.  The MPI_T
 * counters of messages sent must stay at 0 on a communicator whose ranks
 * all share a host, and move elsewhere.  Phase B checks the calls that
 * leave shared memory (data beyond a slot, a non-contiguous reduction type)
 * and point-to-point traffic around and during collectives: a rank blocked
 * in MPI_Ssend needs the others, waiting in a broadcast, to progress.
 *   coll_shm shm   the shared-memory algorithms are expected where possible
 *   coll_shm p2p   they are not (forced off, or no area): messages everywhere
 * With TERN_SHMCOLL_GROUP=N (groups made up along a level of the machine,
 * coll/shm_coll_levels.c) world's barrier, bcast, reduce and allreduce must
 * have gone through the groups' leaders (MPI_T's tern_shmcoll_level_calls);
 * with TERN_SHMCOLL_LEVEL=none, never. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_msgcount.h"
#include "coll_util.h"

#define SMALL 500     /* ints: 2000 bytes, within the default 4 KiB slot */
#define LARGE 3000    /* ints: 12000 bytes, beyond it */
#define BACK2BACK 300 /* collectives in a row without a barrier */

/* A double per (rank, index, salt), exact in binary. */
static double tt_real(int rank, int i, int salt) { return tt_val(rank, i, salt) / 64.0 - 1e6; }

static void check_ints(const int *got, const int *want, int n, const char *what, int root)
{
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s root %d: [%d] = %d, expected %d", what, root, i, got[i],
              want[i]);
}

static void test_bcast(MPI_Comm c, int r, int n, int salt)
{
    int buf[SMALL], want[SMALL];
    MPI_Datatype vec = tt_vector_type();
    for (int root = 0; root < n; root++) {
        for (int k = 1; k <= SMALL; k += SMALL - 1) { /* 1 and SMALL ints */
            for (int i = 0; i < k; i++) want[i] = tt_val(root, i, salt);
            for (int i = 0; i < k; i++) buf[i] = r == root ? want[i] : -1;
            CHECK_MPI(MPI_Bcast(buf, k, MPI_INT, root, c));
            check_ints(buf, want, k, "bcast int", root);
        }
        /* Non-contiguous: the holes stay as they were. */
        int v[4 * TT_VEC_EXTENT];
        for (int j = 0; j < 4 * TT_VEC_EXTENT; j++)
            v[j] = r == root || tt_vec_hole(j % TT_VEC_EXTENT) ? tt_val(root, j, salt + 1) : -1;
        CHECK_MPI(MPI_Bcast(v, 4, vec, root, c));
        for (int j = 0; j < 4 * TT_VEC_EXTENT; j++)
            CHECK(v[j] == tt_val(root, j, salt + 1), "bcast vector root %d: [%d] = %d", root, j,
                  v[j]);
        double d[3] = {r == root ? 1.5 : 0, r == root ? -2.25 : 0, r == root ? 1e300 : 0};
        CHECK_MPI(MPI_Bcast(d, 3, MPI_DOUBLE, root, c));
        CHECK(d[0] == 1.5 && d[1] == -2.25 && d[2] == 1e300, "bcast double root %d", root);
        CHECK_MPI(MPI_Bcast(NULL, 0, MPI_INT, root, c));
    }
    MPI_Type_free(&vec);
}

static void test_gather_scatter(MPI_Comm c, int r, int n, int salt)
{
    enum { B = 6 }; /* ints per block: one vector element */
    int *all = tt_alloc(sizeof(int) * (size_t)n * TT_VEC_EXTENT);
    int mine[B];
    MPI_Datatype vec = tt_vector_type();
    for (int root = 0; root < n; root++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            /* gather: ints from every rank, a vector element per block at the root */
            for (int k = 0; k < B; k++) mine[k] = tt_val(r, k, salt + root);
            for (int j = 0; j < n * TT_VEC_EXTENT; j++) all[j] = -7;
            if (inplace && r == root)
                for (int k = 0; k < B; k++) all[root * TT_VEC_EXTENT + tt_vec_pos(k)] = mine[k];
            CHECK_MPI(MPI_Gather(inplace && r == root ? MPI_IN_PLACE : mine, B, MPI_INT, all, 1,
                                 vec, root, c));
            if (r == root)
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < TT_VEC_EXTENT; j++) {
                        int want =
                            tt_vec_hole(j) ? -7 : tt_val(i, (j / 4) * 2 + j % 2, salt + root);
                        CHECK(all[i * TT_VEC_EXTENT + j] == want,
                              "gather root %d in_place %d: block %d [%d] = %d, expected %d", root,
                              inplace, i, j, all[i * TT_VEC_EXTENT + j], want);
                    }
            /* scatter: the reverse, vector elements out of the root */
            if (r == root)
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < TT_VEC_EXTENT; j++)
                        all[i * TT_VEC_EXTENT + j] = tt_val(i, j, salt - root);
            for (int k = 0; k < B; k++) mine[k] = -1;
            CHECK_MPI(MPI_Scatter(all, 1, vec, inplace && r == root ? MPI_IN_PLACE : mine, B,
                                  MPI_INT, root, c));
            if (!(inplace && r == root))
                for (int k = 0; k < B; k++)
                    CHECK(mine[k] == tt_val(r, tt_vec_pos(k), salt - root),
                          "scatter root %d in_place %d: [%d] = %d", root, inplace, k, mine[k]);
        }
    }
    MPI_Type_free(&vec);
    free(all);
}

static void test_allgather(MPI_Comm c, int r, int n, int salt)
{
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int k = 1; k <= 64; k *= 8) {
            int *all = tt_alloc(sizeof(int) * (size_t)n * (size_t)k), mine[64];
            for (int j = 0; j < k; j++) mine[j] = tt_val(r, j, salt);
            for (int j = 0; j < n * k; j++) all[j] = -1;
            if (inplace) memcpy(all + r * k, mine, sizeof(int) * (size_t)k);
            CHECK_MPI(MPI_Allgather(inplace ? MPI_IN_PLACE : mine, k, MPI_INT, all, k, MPI_INT, c));
            for (int i = 0; i < n; i++)
                for (int j = 0; j < k; j++)
                    CHECK(all[i * k + j] == tt_val(i, j, salt),
                          "allgather k %d in_place %d: block %d [%d] = %d", k, inplace, i, j,
                          all[i * k + j]);
            free(all);
        }
    }
}

/* The reductions: MPI_SUM on ints, MPI_MAX on doubles, the matrix product
 * (non-commutative, a user operation on a derived type), every root. */
static void test_reductions(MPI_Comm c, int r, int n, int salt)
{
    enum { K = 100 };
    int in[K], out[K];
    double din[K], dout[K];
    tt_mat min[K / 4], mout[K / 4];
    MPI_Datatype mt = tt_mat_type();
    MPI_Op matop;
    CHECK_MPI(MPI_Op_create(tt_mat_op, 0, &matop));
    for (int root = 0; root <= n; root++) { /* root n: the allreduces */
        for (int inplace = 0; inplace < 2; inplace++) {
            int here = root == n || r == root; /* receives the result */
            int ip = inplace && here;
            for (int i = 0; i < K; i++) {
                in[i] = tt_val(r, i, salt);
                din[i] = tt_real(r, i, salt);
                out[i] = ip ? in[i] : -1;
                dout[i] = ip ? din[i] : -1;
            }
            for (int i = 0; i < K / 4; i++) mout[i] = min[i] = tt_mat_of(r, i + salt);
            if (root == n) {
                CHECK_MPI(MPI_Allreduce(ip ? MPI_IN_PLACE : in, out, K, MPI_INT, MPI_SUM, c));
                CHECK_MPI(MPI_Allreduce(ip ? MPI_IN_PLACE : din, dout, K, MPI_DOUBLE, MPI_MAX, c));
                CHECK_MPI(MPI_Allreduce(ip ? MPI_IN_PLACE : min, mout, K / 4, mt, matop, c));
            } else {
                CHECK_MPI(MPI_Reduce(ip ? MPI_IN_PLACE : in, out, K, MPI_INT, MPI_SUM, root, c));
                CHECK_MPI(
                    MPI_Reduce(ip ? MPI_IN_PLACE : din, dout, K, MPI_DOUBLE, MPI_MAX, root, c));
                CHECK_MPI(MPI_Reduce(ip ? MPI_IN_PLACE : min, mout, K / 4, mt, matop, root, c));
            }
            if (!here) continue;
            for (int i = 0; i < K; i++) {
                int want = 0;
                double dwant = -1e300;
                for (int q = 0; q < n; q++) {
                    want += tt_val(q, i, salt);
                    double d = tt_real(q, i, salt);
                    if (d > dwant) dwant = d;
                }
                CHECK(out[i] == want, "sum root %d in_place %d: [%d] = %d, expected %d", root,
                      inplace, i, out[i], want);
                CHECK(dout[i] == dwant, "max root %d in_place %d: [%d] = %g, expected %g", root,
                      inplace, i, dout[i], dwant);
            }
            for (int i = 0; i < K / 4; i++)
                CHECK(tt_mat_eq(mout[i], tt_mat_range(0, n - 1, i + salt)),
                      "matrix product (rank order) root %d in_place %d: [%d]", root, inplace, i);
        }
    }
    MPI_Op_free(&matop);
    MPI_Type_free(&mt);
}

/* Rank 0 arrives late: nobody may leave the barrier before it arrives
 * (MPI_Wtime is one clock for the processes of a machine). */
static void test_barrier(MPI_Comm c, int r)
{
    CHECK_MPI(MPI_Barrier(c));
    double arrived = 0;
    if (r == 0) {
        usleep(50000);
        arrived = MPI_Wtime();
    }
    CHECK_MPI(MPI_Barrier(c));
    double left = MPI_Wtime();
    CHECK_MPI(MPI_Bcast(&arrived, 1, MPI_DOUBLE, 0, c));
    CHECK(left >= arrived, "left the barrier %.6f s before rank 0 arrived", arrived - left);
}

/* Collectives in a row, roots changing at every call, no barrier between:
 * a root may run ahead of its readers by a call, never corrupt them. */
static void test_back_to_back(MPI_Comm c, int r, int n, int iters)
{
    for (int it = 0; it < iters; it++) {
        int root = it % n, root2 = (it * 7 + 3) % n, v[8], s, sum = 0;
        for (int j = 0; j < 8; j++) v[j] = r == root ? tt_val(root, j, it) : -1;
        CHECK_MPI(MPI_Bcast(v, 8, MPI_INT, root, c));
        for (int j = 0; j < 8; j++)
            CHECK(v[j] == tt_val(root, j, it), "back-to-back %d: bcast [%d] = %d", it, j, v[j]);
        int x = tt_val(r, it, 0) & 0xffff;
        for (int q = 0; q < n; q++) sum += tt_val(q, it, 0) & 0xffff;
        CHECK_MPI(MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, c));
        CHECK(s == sum, "back-to-back %d: allreduce %d, expected %d", it, s, sum);
        s = -1;
        CHECK_MPI(MPI_Reduce(&x, &s, 1, MPI_INT, MPI_SUM, root2, c));
        CHECK(r != root2 || s == sum, "back-to-back %d: reduce %d, expected %d", it, s, sum);
        int g[64], one = tt_val(r, it, 1);
        CHECK_MPI(MPI_Gather(&one, 1, MPI_INT, g, 1, MPI_INT, root2, c));
        if (r == root2)
            for (int q = 0; q < n; q++)
                CHECK(g[q] == tt_val(q, it, 1), "back-to-back %d: gather [%d]", it, q);
        if (r == root)
            for (int q = 0; q < n; q++) g[q] = tt_val(q, it, 2);
        CHECK_MPI(MPI_Scatter(g, 1, MPI_INT, &one, 1, MPI_INT, root, c));
        CHECK(one == tt_val(r, it, 2), "back-to-back %d: scatter %d", it, one);
        CHECK_MPI(MPI_Allgather(&x, 1, MPI_INT, g, 1, MPI_INT, c));
        for (int q = 0; q < n; q++)
            CHECK(g[q] == (tt_val(q, it, 0) & 0xffff), "back-to-back %d: allgather [%d]", it, q);
        if (it % 50 == 0) CHECK_MPI(MPI_Barrier(c));
    }
}

/* Beyond the slots: data larger than a slot, a reduction on a type with
 * holes (MPI_DOUBLE_INT), and point-to-point traffic around collectives. */
static void test_beyond(MPI_Comm c, int r, int n)
{
    int *big = tt_alloc(sizeof(int) * LARGE);
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < LARGE; i++) big[i] = r == root ? tt_val(root, i, 5) : -1;
        CHECK_MPI(MPI_Bcast(big, LARGE, MPI_INT, root, c));
        for (int i = 0; i < LARGE; i++)
            CHECK(big[i] == tt_val(root, i, 5), "large bcast root %d: [%d] = %d", root, i, big[i]);
    }
    struct {
        double v;
        int i;
    } dl = {(double)((r * 5) % n), r}, res;
    CHECK_MPI(MPI_Allreduce(&dl, &res, 1, MPI_DOUBLE_INT, MPI_MINLOC, c));
    CHECK(res.v == 0 && res.i == 0, "minloc: (%g, %d)", res.v, res.i);

    /* Rank 0 blocks in MPI_Ssend to each rank before joining a broadcast
     * the others wait in: they must match its message meanwhile. */
    int got = -1, token = 1234, b = r == 0 ? 77 : 0;
    MPI_Request req = MPI_REQUEST_NULL;
    if (r != 0) CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, 0, 99, c, &req));
    if (r == 0)
        for (int q = 1; q < n; q++) CHECK_MPI(MPI_Ssend(&token, 1, MPI_INT, q, 99, c));
    CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, c));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(b == 77 && (r == 0 || got == token), "bcast during ssend: b %d got %d", b, got);

    /* A ring exchange between collectives, its receive posted across them. */
    int next = (r + 1) % n, prev = (r + n - 1) % n, in = -1, out = tt_val(r, 0, 9), sum = 0, s;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, prev, 7, c, &req));
    CHECK_MPI(MPI_Allreduce(&r, &s, 1, MPI_INT, MPI_SUM, c));
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, next, 7, c));
    CHECK_MPI(MPI_Barrier(c));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int q = 0; q < n; q++) sum += q;
    CHECK(s == sum && in == tt_val(prev, 0, 9), "ring around collectives: s %d in %d", s, in);
    free(big);
}

/* The host of a world rank: TERN_RANKS_PER_HOST simulates hosts of that
 * many consecutive ranks (MPI_COMM_TYPE_SHARED keeps the whole machine). */
static int host_of(int world_rank)
{
    const char *e = getenv("TERN_RANKS_PER_HOST");
    int k = e ? atoi(e) : 0;
    return k > 0 ? world_rank / k : 0;
}

/* Whether every rank of c is on one host. */
static int one_host(MPI_Comm c)
{
    int wr, h, lo, hi;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    h = host_of(wr);
    CHECK_MPI(MPI_Allreduce(&h, &lo, 1, MPI_INT, MPI_MIN, c));
    CHECK_MPI(MPI_Allreduce(&h, &hi, 1, MPI_INT, MPI_MAX, c));
    return lo == hi;
}

static void exercise(MPI_Comm c, const char *label, int expect_shm)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int shm = expect_shm && n > 1 && one_host(c);
    CHECK_MPI(MPI_Barrier(c)); /* the first collective takes the area */

    /* Across simulated hosts every message crosses TCP: one round. */
    int rounds = one_host(c) ? 2 : 1;
    unsigned long long before = sends();
    test_barrier(c, r);
    for (int salt = 0; salt < rounds; salt++) {
        test_bcast(c, r, n, salt);
        test_gather_scatter(c, r, n, salt);
        test_allgather(c, r, n, salt);
        test_reductions(c, r, n, salt);
    }
    test_back_to_back(c, r, n, rounds == 2 ? BACK2BACK : BACK2BACK / 10);
    unsigned long long mine = sends() - before, all = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, c));
    if (shm)
        CHECK(all == 0, "%s: %llu point-to-point messages in shared-memory collectives", label,
              all);
    else if (n > 1)
        CHECK(all > 0,
              "%s: no point-to-point message, yet the shared-memory collectives "
              "cannot serve it here",
              label);
    test_beyond(c, r, n);
    if (r == 0) printf("%s: %d ranks, %s, %llu messages\n", label, n, shm ? "shm" : "p2p", all);
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    int expect_shm = argc < 2 || strcmp(argv[1], "p2p") != 0;
    pv_setup();
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    MPI_T_pvar_handle levels =
        pvar_handle(pv_session, "tern_shmcoll_level_calls", MPI_T_PVAR_CLASS_COUNTER);
    CHECK_T(MPI_T_pvar_start(pv_session, levels), MPI_SUCCESS);
    exercise(MPI_COMM_WORLD, "world", expect_shm);
    const char *group = getenv("TERN_SHMCOLL_GROUP"), *level = getenv("TERN_SHMCOLL_LEVEL");
    int per = group ? atoi(group) : 0, groups = per > 0 ? (n + per - 1) / per : 0;
    unsigned long long through = pvar_read(pv_session, levels);
    if (expect_shm && one_host(MPI_COMM_WORLD) && groups > 1 && groups < n)
        CHECK(through > 0, "TERN_SHMCOLL_GROUP=%d: no collective went through the leaders", per);
    if (level && !strcmp(level, "none") && !group)
        CHECK(through == 0, "TERN_SHMCOLL_LEVEL=none: %llu collectives through leaders", through);
    MPI_Comm dup, half, rev, node;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    exercise(dup, "dup", expect_shm);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half));
    exercise(half, "split by parity", expect_shm);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, n - r, &rev));
    exercise(rev, "split reversed", expect_shm);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, host_of(r), r, &node));
    exercise(node, "split by host", expect_shm);
    /* World again, after the others: its area still serves it. */
    exercise(MPI_COMM_WORLD, "world again", expect_shm);

    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&node);
    /* The freed communicators' areas serve new ones. */
    for (int i = 0; i < 40; i++) {
        MPI_Comm d;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        int v = i, s;
        CHECK_MPI(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, d));
        CHECK(s == i * n, "dup %d: allreduce %d", i, s);
        MPI_Comm_free(&d);
    }
    /* More communicators alive than areas (TERN_SHMCOLL_COMMS, 16): the
     * ones without an area run point to point, with the same results. */
    enum { ALIVE = 20 };
    MPI_Comm live[ALIVE];
    for (int i = 0; i < ALIVE; i++) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &live[i]));
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < ALIVE; i++) {
            int v = r + i, s, b = r == i % n ? i * 3 + round : -1;
            CHECK_MPI(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, live[i]));
            CHECK(s == n * (n - 1) / 2 + n * i, "live dup %d: allreduce %d", i, s);
            CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, i % n, live[i]));
            CHECK(b == i * 3 + round, "live dup %d: bcast %d", i, b);
        }
    for (int i = 0; i < ALIVE; i++) MPI_Comm_free(&live[i]);
    MPI_Comm dd;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dd));
    exercise(dd, "dup after 40 freed", expect_shm);
    MPI_Comm_free(&dd);

    MPI_T_pvar_session_free(&pv_session);
    MPI_Finalize();
    MPI_T_finalize();
    if (r == 0) printf("coll_shm passed\n");
    return 0;
}
