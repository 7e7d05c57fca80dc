/* Progress while the user computes: every rank starts a collective and
 * then computes, calling only MPI_Test now and then; the last rank starts
 * late (it sleeps first), so the others' parts can only move forward
 * inside those MPI_Test calls.  The operation must be complete before the
 * final MPI_Wait, which then only sees MPI_REQUEST_NULL.  Messages beyond
 * the eager size need the receivers' help (rendezvous), so the large cases
 * also prove that a Test moves other ranks' data. */
#include "nbc_test.h"

#define W MPI_COMM_WORLD
#define BIG 200000 /* ints */

static int rank, size;
static volatile double sink;

static void compute(void)
{
    double x = 1;
    for (int i = 0; i < 20000; i++) x = x * 1.0000001 + 1e-9;
    sink = x;
}

/* Computes and tests until req completes. */
static void overlap(MPI_Request *req, const char *what)
{
    int flag = 0;
    double t0 = nt_now();
    while (!flag) {
        compute();
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        CHECK(flag || nt_now() - t0 < 60, "%s: not complete after 60 s of computing and MPI_Test",
              what);
        if (!flag) sched_yield(); /* oversubscribed machines: let the others run too */
    }
    CHECK(*req == MPI_REQUEST_NULL, "%s: Test returned flag but kept the request", what);
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE)); /* the final Wait finds nothing left to do */
}

static void late_start(void)
{
    if (rank == size - 1) nt_sleep_ms(300);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(W, &rank);
    MPI_Comm_size(W, &size);
    int *a = tt_alloc(BIG * sizeof(int)), *b = tt_alloc(BIG * sizeof(int));
    MPI_Request req;

    /* Barrier: no rank can finish before the late one starts. */
    late_start();
    double entered = nt_now(); /* the ranks share a host: one monotonic clock */
    CHECK_MPI(MPI_Ibarrier(W, &req));
    overlap(&req, "ibarrier");
    double done = nt_now();
    CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, size - 1, W));
    CHECK(done >= entered, "ibarrier completed %.3f s before the last rank started it",
          entered - done);

    /* Large bcast from the late rank, then from rank 0 with the late rank
     * still the last to start. */
    for (int root = size - 1; root >= 0; root -= size > 1 ? size - 1 : 1) {
        for (int i = 0; i < BIG; i++) a[i] = rank == root ? tt_val(root, i, 1) : -1;
        late_start();
        CHECK_MPI(MPI_Ibcast(a, BIG, MPI_INT, root, W, &req));
        overlap(&req, "ibcast");
        for (int i = 0; i < BIG; i++)
            CHECK(a[i] == tt_val(root, i, 1), "ibcast root %d [%d]=%d", root, i, a[i]);
        if (root == 0) break;
    }

    /* Large allreduce: every rank's data crosses several ranks. */
    for (int i = 0; i < BIG; i++) a[i] = tt_val(rank, i, 2) % 1000;
    late_start();
    CHECK_MPI(MPI_Iallreduce(a, b, BIG, MPI_INT, MPI_SUM, W, &req));
    overlap(&req, "iallreduce");
    for (int i = 0; i < BIG; i++) {
        long want = 0;
        for (int r = 0; r < size; r++) want += tt_val(r, i, 2) % 1000;
        CHECK(b[i] == want, "iallreduce [%d]=%d want %ld", i, b[i], want);
    }

    /* Alltoall with blocks beyond the eager size. */
    int blk = BIG / size;
    for (int i = 0; i < blk * size; i++) a[i] = tt_val(rank, i, 3);
    late_start();
    CHECK_MPI(MPI_Ialltoall(a, blk, MPI_INT, b, blk, MPI_INT, W, &req));
    overlap(&req, "ialltoall");
    for (int from = 0; from < size; from++)
        for (int j = 0; j < blk; j++)
            CHECK(b[from * blk + j] == tt_val(from, rank * blk + j, 3), "ialltoall from %d [%d]=%d",
                  from, j, b[from * blk + j]);

    /* A persistent allgather started late, twice. */
    CHECK_MPI(MPI_Allgather_init(a, blk, MPI_INT, b, blk, MPI_INT, W, MPI_INFO_NULL, &req));
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < blk; i++) a[i] = tt_val(rank, i, 4 + rep);
        late_start();
        CHECK_MPI(MPI_Start(&req));
        int flag = 0;
        double t1 = nt_now();
        while (!flag) {
            compute();
            CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            CHECK(flag || nt_now() - t1 < 60, "persistent allgather: not complete after 60 s");
            if (!flag) sched_yield();
        }
        for (int r = 0; r < size; r++)
            for (int j = 0; j < blk; j++)
                CHECK(b[r * blk + j] == tt_val(r, j, 4 + rep), "allgather rep %d block %d [%d]=%d",
                      rep, r, j, b[r * blk + j]);
    }
    CHECK_MPI(MPI_Request_free(&req));
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
