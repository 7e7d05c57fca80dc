/* Collective requests as requests: several outstanding on one
 * communicator completed in reverse order and mixed with blocking
 * collectives, rounds posted late, the any/all/some completion calls,
 * MPI_Request_get_status, MPI_Request_free of active collectives,
 * MPI_Startall, MPI_Comm_free while a collective is outstanding,
 * MPI_COMM_SELF. */
#include "nbc_test.h"

#define W MPI_COMM_WORLD
#define N 5000 /* ints: beyond the 16 KiB eager size, so sends wait for their receivers */

static int rank, size;

/* Different ranks reach their calls at different times. */
static void stagger(int k)
{
    if ((rank + k) % 3 == 0) nt_sleep_ms(5);
}

static void reverse_order(void)
{
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(W, &dup));
    int *bc = tt_alloc(N * sizeof(int)), *ar = tt_alloc(N * sizeof(int)),
        *ars = tt_alloc(N * sizeof(int));
    int *a2s = tt_alloc((size_t)size * 4 * sizeof(int)),
        *a2r = tt_alloc((size_t)size * 4 * sizeof(int));
    int *g = tt_alloc((size_t)size * sizeof(int)), *bd = tt_alloc(N * sizeof(int));
    int sc = 0, mine = rank + 1, blk = 0, bl2 = 0;
    MPI_Request rq[8];
    for (int i = 0; i < N; i++) {
        bc[i] = rank == 0 ? tt_val(0, i, 1) : -1;
        ars[i] = tt_val(rank, i, 2);
        bd[i] = rank == size - 1 ? tt_val(size - 1, i, 3) : -1;
    }
    for (int i = 0; i < size * 4; i++) a2s[i] = rank * 100000 + i;

    CHECK_MPI(MPI_Ibcast(bc, N, MPI_INT, 0, W, &rq[0]));
    stagger(0);
    CHECK_MPI(MPI_Iallreduce(ars, ar, N, MPI_INT, MPI_SUM, W, &rq[1]));
    CHECK_MPI(MPI_Ialltoall(a2s, 4, MPI_INT, a2r, 4, MPI_INT, W, &rq[2]));
    stagger(1);
    /* A blocking collective while three nonblocking ones are outstanding. */
    int one = 1;
    CHECK_MPI(MPI_Allreduce(&one, &blk, 1, MPI_INT, MPI_SUM, W));
    CHECK(blk == size, "blocking allreduce among nonblocking ones: %d", blk);
    CHECK_MPI(MPI_Igather(&mine, 1, MPI_INT, g, 1, MPI_INT, size - 1, W, &rq[3]));
    CHECK_MPI(MPI_Ibarrier(W, &rq[4]));
    stagger(2);
    CHECK_MPI(MPI_Iscan(&mine, &sc, 1, MPI_INT, MPI_SUM, W, &rq[5]));
    CHECK_MPI(MPI_Ibcast(bd, N, MPI_INT, size - 1, dup, &rq[6]));
    CHECK_MPI(MPI_Bcast(&bl2, 1, MPI_INT, 0, W));
    CHECK_MPI(MPI_Ibarrier(dup, &rq[7]));
    for (int k = 7; k >= 0; k--) {
        if (rank % 2) nt_sleep_ms(2);
        CHECK_MPI(MPI_Wait(&rq[k], MPI_STATUS_IGNORE));
        CHECK(rq[k] == MPI_REQUEST_NULL, "wait left request %d", k);
    }
    for (int i = 0; i < N; i++) {
        CHECK(bc[i] == tt_val(0, i, 1), "ibcast [%d]=%d", i, bc[i]);
        CHECK(bd[i] == tt_val(size - 1, i, 3), "ibcast on dup [%d]=%d", i, bd[i]);
        long want = 0;
        for (int r = 0; r < size; r++) want += tt_val(r, i, 2);
        CHECK(ar[i] == (int)want, "iallreduce [%d]=%d want %ld", i, ar[i], want);
    }
    for (int from = 0; from < size; from++)
        for (int j = 0; j < 4; j++)
            CHECK(a2r[from * 4 + j] == from * 100000 + rank * 4 + j, "ialltoall from %d [%d]=%d",
                  from, j, a2r[from * 4 + j]);
    if (rank == size - 1)
        for (int r = 0; r < size; r++) CHECK(g[r] == r + 1, "igather [%d]=%d", r, g[r]);
    CHECK(sc == (rank + 1) * (rank + 2) / 2, "iscan %d", sc);
    CHECK_MPI(MPI_Comm_free(&dup));
    free(bc);
    free(ar);
    free(ars);
    free(a2s);
    free(a2r);
    free(g);
    free(bd);
}

/* Many of the same kind at once: one Ibcast per root, completed by
 * Waitany, Waitsome, Testall and Testany loops in turn. */
static void many_same(void)
{
    int *bufs = tt_alloc((size_t)size * N * sizeof(int));
    MPI_Request *rq = tt_alloc((size_t)size * sizeof(MPI_Request));
    int *idx = tt_alloc((size_t)size * sizeof(int));
    for (int how = 0; how < 4; how++) {
        for (int root = 0; root < size; root++) {
            int *b = bufs + (size_t)root * N;
            for (int i = 0; i < N; i++) b[i] = rank == root ? tt_val(root, i, how) : -1;
            CHECK_MPI(MPI_Ibcast(b, N, MPI_INT, root, W, &rq[root]));
            stagger(root);
        }
        int left = size, flag, n;
        while (left) {
            switch (how) {
            case 0:
                CHECK_MPI(MPI_Waitany(size, rq, &idx[0], MPI_STATUS_IGNORE));
                CHECK(idx[0] >= 0 && idx[0] < size && rq[idx[0]] == MPI_REQUEST_NULL,
                      "waitany index %d", idx[0]);
                left--;
                break;
            case 1:
                CHECK_MPI(MPI_Waitsome(size, rq, &n, idx, MPI_STATUSES_IGNORE));
                CHECK(n >= 1 && n <= left, "waitsome outcount %d with %d left", n, left);
                left -= n;
                break;
            case 2:
                CHECK_MPI(MPI_Testall(size, rq, &flag, MPI_STATUSES_IGNORE));
                if (flag)
                    left = 0;
                else
                    sched_yield();
                break;
            case 3:
                CHECK_MPI(MPI_Testany(size, rq, &idx[0], &flag, MPI_STATUS_IGNORE));
                if (flag && idx[0] != MPI_UNDEFINED)
                    left--;
                else
                    sched_yield();
                break;
            }
        }
        for (int root = 0; root < size; root++) {
            CHECK(rq[root] == MPI_REQUEST_NULL, "request of root %d not freed (how %d)", root, how);
            for (int i = 0; i < N; i++)
                CHECK(bufs[(size_t)root * N + i] == tt_val(root, i, how),
                      "ibcast root %d how %d [%d]=%d", root, how, i, bufs[(size_t)root * N + i]);
        }
    }
    free(bufs);
    free(rq);
    free(idx);
}

/* MPI_Request_get_status polls without freeing; Wait then frees. */
static void get_status(void)
{
    int in = rank, out = -1, flag = 0;
    MPI_Request rq;
    MPI_Status st;
    CHECK_MPI(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_MAX, W, &rq));
    while (!flag) {
        CHECK_MPI(MPI_Request_get_status(rq, &flag, &st));
        if (!flag) sched_yield();
    }
    CHECK(rq != MPI_REQUEST_NULL, "get_status freed the request");
    CHECK(out == size - 1, "iallreduce max %d", out);
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(rq == MPI_REQUEST_NULL, "wait after get_status");
}

/* Everyone learns that every rank has its data, using blocking
 * collectives only: those drive the freed request to completion. */
static void until_all_have(const int *buf, int root, int salt)
{
    double t0 = nt_now();
    for (;;) {
        int ok = 1, all;
        for (int i = 0; i < N && ok; i++) ok = buf[i] == tt_val(root, i, salt);
        CHECK_MPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, W));
        if (all) return;
        CHECK(nt_now() - t0 < 60, "freed collective never completed");
    }
}

/* The buffers stay allocated until the end: a freed request gives no
 * sign of completion at the root. */
static int *freed_bufs[3];

static void free_active(void)
{
    for (int k = 0; k < 3; k++) {
        int *b = freed_bufs[k] = tt_alloc(N * sizeof(int));
        int root = k % size;
        for (int i = 0; i < N; i++) b[i] = rank == root ? tt_val(root, i, 40 + k) : -1;
        MPI_Request rq;
        if (k == 0) {
            CHECK_MPI(MPI_Ibcast(b, N, MPI_INT, root, W, &rq));
        } else { /* persistent, started (twice for k == 2) then freed while active */
            CHECK_MPI(MPI_Bcast_init(b, N, MPI_INT, root, W, MPI_INFO_NULL, &rq));
            if (k == 2) {
                CHECK_MPI(MPI_Start(&rq));
                CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            }
            CHECK_MPI(MPI_Start(&rq));
        }
        CHECK_MPI(MPI_Request_free(&rq));
        CHECK(rq == MPI_REQUEST_NULL, "request_free left the handle");
        until_all_have(b, root, 40 + k);
    }
    /* A persistent request freed without ever being started. */
    int x = 0;
    MPI_Request rq;
    CHECK_MPI(MPI_Allreduce_init(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &rq));
    CHECK_MPI(MPI_Request_free(&rq));
}

/* Startall over several persistent collectives on one communicator, with
 * Waitall and new data each time. */
static void startall(void)
{
    int a = 0, b = 0, c[2] = {0, 0}, e = -1, *all = tt_alloc((size_t)size * 2 * sizeof(int));
    MPI_Request rq[4];
    CHECK_MPI(MPI_Allreduce_init(&a, &b, 1, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &rq[0]));
    CHECK_MPI(MPI_Barrier_init(W, MPI_INFO_NULL, &rq[1]));
    CHECK_MPI(MPI_Allgather_init(c, 2, MPI_INT, all, 2, MPI_INT, W, MPI_INFO_NULL, &rq[2]));
    CHECK_MPI(MPI_Exscan_init(&a, &e, 1, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &rq[3]));
    for (int rep = 0; rep < 4; rep++) {
        a = rank * rep + 1;
        c[0] = rank + 1000 * rep;
        c[1] = -rep;
        CHECK_MPI(MPI_Startall(4, rq));
        stagger(rep);
        CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        int want = 0;
        for (int r = 0; r < size; r++) want += r * rep + 1;
        CHECK(b == want, "persistent allreduce rep %d: %d want %d", rep, b, want);
        for (int r = 0; r < size; r++)
            CHECK(all[2 * r] == r + 1000 * rep && all[2 * r + 1] == -rep,
                  "persistent allgather rep %d block %d: %d %d", rep, r, all[2 * r],
                  all[2 * r + 1]);
        want = 0;
        for (int r = 0; r < rank; r++) want += r * rep + 1;
        CHECK(rank == 0 || e == want, "persistent exscan rep %d: %d want %d", rep, e, want);
        for (int k = 0; k < 4; k++)
            CHECK(rq[k] != MPI_REQUEST_NULL, "waitall freed a persistent request");
    }
    for (int k = 0; k < 4; k++) CHECK_MPI(MPI_Request_free(&rq[k]));
    free(all);
}

/* The communicator may be freed while its collective is outstanding. */
static void comm_freed(void)
{
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(W, &dup));
    int in = rank + 1, out = 0;
    MPI_Request rq;
    CHECK_MPI(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, dup, &rq));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(out == size * (size + 1) / 2, "iallreduce on a freed communicator: %d", out);
}

static void self(void)
{
    int s = 5, r = 0;
    MPI_Request rq;
    CHECK_MPI(MPI_Iallreduce(&s, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(r == 5, "iallreduce on MPI_COMM_SELF: %d", r);
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_SELF, &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
}

/* A barrier cannot complete before the last rank enters it.  The ranks
 * share one host, so CLOCK_MONOTONIC readings compare across them. */
static void barrier_waits(void)
{
    MPI_Request rq;
    double entered = 0;
    if (rank == size - 1) {
        nt_sleep_ms(200);
        entered = nt_now();
    }
    CHECK_MPI(MPI_Ibarrier(W, &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    double done = nt_now();
    CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, size - 1, W));
    CHECK(done >= entered, "ibarrier completed %.3f s before the last rank entered it",
          entered - done);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(W, &rank);
    MPI_Comm_size(W, &size);
    reverse_order();
    many_same();
    get_status();
    free_active();
    startall();
    comm_freed();
    self();
    barrier_waits();
    MPI_Finalize();
    for (int k = 0; k < 3; k++) free(freed_bufs[k]);
    return 0;
}
