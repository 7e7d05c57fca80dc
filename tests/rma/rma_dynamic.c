/* Dynamic windows with many regions: every rank attaches NREG blocks of
 * its own (more than any fixed table would hold) and one buffer as two
 * halves side by side; the next rank puts into, gets from and accumulates
 * into blocks across the table, and into the buffer across the seam
 * between the halves.  A region detached is out of reach at once for
 * every rank (MPI_ERR_RMA_RANGE), and attached again it is back.  Across
 * hosts (argv[1] = "hosts", one rank per host) the target checks. */
#include <string.h>

#include "rma_util.h"

#define NREG 1000
#define BLK 16   /* ints per block */
#define HALF 256 /* ints per half of the buffer */

static void expect_range(int rc, const char *what)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    CHECK(c == MPI_ERR_RMA_RANGE, "%s: error class %d, not MPI_ERR_RMA_RANGE", what, c);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int hosts = argc > 1 && strcmp(argv[1], "hosts") == 0;
    int t = (rank + 1) % size, from = (rank + size - 1) % size;

    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int *blk[NREG];
    for (int i = 0; i < NREG; i++) {
        blk[i] = malloc(BLK * sizeof(int));
        CHECK(blk[i], "out of memory");
        for (int j = 0; j < BLK; j++) blk[i][j] = -1;
        CHECK_MPI(MPI_Win_attach(win, blk[i], BLK * sizeof(int)));
    }
    int *buf = malloc(2 * HALF * sizeof(int));
    CHECK(buf, "out of memory");
    for (int j = 0; j < 2 * HALF; j++) buf[j] = 0;
    CHECK_MPI(MPI_Win_attach(win, buf, HALF * sizeof(int)));
    CHECK_MPI(MPI_Win_attach(win, buf + HALF, HALF * sizeof(int)));

    /* Where target t's blocks and buffer are. */
    MPI_Aint mine[NREG + 1], *all = malloc((size_t)size * (NREG + 1) * sizeof *all);
    CHECK(all, "out of memory");
    for (int i = 0; i < NREG; i++) MPI_Get_address(blk[i], &mine[i]);
    MPI_Get_address(buf, &mine[NREG]);
    CHECK_MPI(MPI_Allgather(mine, NREG + 1, MPI_AINT, all, NREG + 1, MPI_AINT, MPI_COMM_WORLD));
    const MPI_Aint *at = all + (size_t)t * (NREG + 1);

    static const int pick[] = {0, 1, 499, 998, NREG - 1};
    int v[2 * HALF], back[2 * HALF];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (size_t k = 0; k < sizeof pick / sizeof pick[0]; k++) {
        int i = pick[k];
        for (int j = 0; j < BLK; j++) v[j] = rank * 100000 + i * 100 + j;
        CHECK_MPI(MPI_Put(v, BLK, MPI_INT, t, at[i], BLK, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        CHECK_MPI(MPI_Get(back, BLK, MPI_INT, t, at[i], BLK, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        for (int j = 0; j < BLK; j++)
            CHECK(back[j] == v[j], "block %d of rank %d: [%d]=%d, not %d", i, t, j, back[j], v[j]);
        /* One int past a block lies in no region (blocks are apart). */
        if (!hosts) {
            int rc = MPI_Put(v, BLK + 1, MPI_INT, t, at[i], BLK + 1, MPI_INT, win);
            if (rc == MPI_SUCCESS) {
                /* The next block may follow right after this one. */
                int adjacent = 0;
                for (int o = 0; o < NREG; o++)
                    adjacent |= at[o] == MPI_Aint_add(at[i], BLK * sizeof(int));
                CHECK(adjacent, "a put past block %d of rank %d succeeded", i, t);
                CHECK_MPI(MPI_Put(v, BLK, MPI_INT, t, at[i], BLK, MPI_INT, win));
            } else {
                expect_range(rc, "put past a block");
            }
        }
    }
    /* Across the seam of the two halves: put, accumulate, get. */
    MPI_Aint seam = MPI_Aint_add(at[NREG], (HALF - 8) * sizeof(int));
    for (int j = 0; j < 16; j++) v[j] = rank + j;
    CHECK_MPI(MPI_Put(v, 16, MPI_INT, t, seam, 16, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(v, 16, MPI_INT, t, seam, 16, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_flush(t, win));
    CHECK_MPI(MPI_Get(back, 2 * HALF, MPI_INT, t, at[NREG], 2 * HALF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(t, win));
    for (int j = 0; j < 2 * HALF; j++) {
        int want = j >= HALF - 8 && j < HALF + 8 ? 2 * (rank + j - (HALF - 8)) : 0;
        CHECK(back[j] == want, "buffer of rank %d across the seam: [%d]=%d, not %d", t, j, back[j],
              want);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));

    /* The data arrived in this rank's own memory. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int j = 0; j < BLK; j++)
        CHECK(blk[NREG - 1][j] == from * 100000 + (NREG - 1) * 100 + j,
              "my last block: [%d]=%d from rank %d", j, blk[NREG - 1][j], from);
    CHECK(buf[HALF] == 2 * (from + 8), "my buffer at the seam: %d", buf[HALF]);

    /* The second half detached: out of reach, across the seam too. */
    CHECK_MPI(MPI_Win_detach(win, buf + HALF));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    int rc = MPI_Get(back, 16, MPI_INT, t, seam, 16, MPI_INT, win);
    if (hosts && rc == MPI_SUCCESS) rc = MPI_Win_flush(t, win);
    expect_range(rc, "get across the seam after the detach");
    CHECK_MPI(MPI_Get(back, 8, MPI_INT, t, seam, 8, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(t, win));
    CHECK(back[0] == 2 * rank, "the first half after the detach: %d", back[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_attach(win, buf + HALF, HALF * sizeof(int)));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    CHECK_MPI(MPI_Get(back, 16, MPI_INT, t, seam, 16, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(t, win));
    CHECK(back[15] == 2 * (rank + 15), "across the seam after attaching again: %d", back[15]);

    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = NREG - 1; i >= 0; i--) CHECK_MPI(MPI_Win_detach(win, blk[i]));
    CHECK_MPI(MPI_Win_detach(win, buf));
    CHECK_MPI(MPI_Win_detach(win, buf + HALF));
    int c = -1;
    MPI_Error_class(MPI_Win_detach(win, buf), &c);
    CHECK(c == MPI_ERR_RMA_RANGE, "a second detach: class %d", c);
    CHECK_MPI(MPI_Win_free(&win));
    for (int i = 0; i < NREG; i++) free(blk[i]);
    free(buf);
    free(all);
    if (rank == 0) printf("rma_dynamic: %d regions per rank, seams and detaches right\n", NREG + 2);
    MPI_Finalize();
    return 0;
}
