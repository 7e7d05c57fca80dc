/* Small operations on memory an origin reaches by CMA (MPI_Win_create on
 * the heap, dynamic windows) are handed to a target that is inside MPI,
 * which does them on its own memory (src/rma/win_mbox.h); a target outside
 * MPI is reached by CMA after a short wait.  The origin's MPI_T counters
 * tern_rma_target_done and tern_rma_target_taken_back say which happened.
 *
 * 1. Every rank but 0 waits in MPI_Barrier while rank 0 runs every small
 *    operation on it: put (from a strided origin type), get (into one),
 *    accumulate (sum, replace), get_accumulate (sum, no_op), fetch_and_op,
 *    compare_and_swap (matching and not), on ints and doubles; put,
 *    accumulate, get_accumulate and get of 4 KiB and of 1 MiB (put and get
 *    in pieces; the runs with TERN_RMA_TARGET_MAX=1K take CMA, and
 *    TERN_RMA_TARGET_BOX=16K makes many small pieces), put and get from a
 *    strided origin, and an accumulate into a strided target (CMA); every
 *    value is checked.  One rank per core
 *    (argument 1 "served"), the targets must have done most of them.
 * 2. Every rank but 0 spins outside MPI until rank 0 puts a flag: the
 *    operations still complete, by CMA, once taken back.
 * 3. Every rank adds 1 to a counter at every rank, and increments a second
 *    word there by a compare-and-swap loop, ITER times, while the others
 *    do the same: the totals are exact.
 * 4. Every rank puts 1 MiB to the next rank and gets 1 MiB from the one
 *    before, all at once: a rank that is itself streaming must not take
 *    another's stream (each would wait for the other's pieces).
 * Argument 1 "off" (with TERN_RMA_TARGET_MAX=0): nothing is handed over. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "rma_target_counters.h"
#include "rma_util.h"

#define ITER 200
/* Byte offsets in each rank's window. */
enum { OFF_FLAG = 0, OFF_COUNT = 8, OFF_CASW = 16, OFF_INT = 64, OFF_DBL = 128, OFF_BIG = 256 };
/* 4 KiB fits a mailbox (TERN_RMA_TARGET_BOX); a put or get of 1 MiB and
 * 3 ints streams through it, an accumulate that large goes by CMA. */
#define MID 4096
#define BIG (1024 * 1024 + 12)
#define WIN_BYTES (OFF_BIG + BIG)

static const char *mode = "";

static void counters(unsigned long long *done, unsigned long long *back)
{
    *done = target_done();
    *back = target_taken_back();
}

/* An operation that may be handed over, counted in n. */
#define HANDED(call)     \
    do {                 \
        CHECK_MPI(call); \
        n++;             \
    } while (0)

/* Every small operation on target t, with the values checked; how many
 * operations it issued that may be handed over. */
static int small_ops(struct rwin *w, int t)
{
    MPI_Win win = w->win;
    MPI_Datatype strided;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &strided));
    CHECK_MPI(MPI_Type_commit(&strided));
    int src[6] = {11 * t, -1, 12 * t, -1, 13 * t, -1}, back[6] = {0, 77, 0, 77, 0, 77}, r[3];
    MPI_Aint di = rwin_disp(w, t, OFF_INT), dd = rwin_disp(w, t, OFF_DBL);
    int n = 0;

    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
    HANDED(MPI_Put(src, 1, strided, t, di, 3, MPI_INT, win));
    HANDED(MPI_Get(back, 1, strided, t, di, 3, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(t, win));
    for (int i = 0; i < 3; i++)
        CHECK(back[2 * i] == (11 + i) * t && back[2 * i + 1] == 77,
              "%s: target %d: got %d at %d (put %d), the gap holds %d", kind_name[w->k], t,
              back[2 * i], i, (11 + i) * t, back[2 * i + 1]);

    int add[3] = {1, 2, 3}, rep[3] = {5, 6, 7};
    HANDED(MPI_Accumulate(add, 3, MPI_INT, t, di, 3, MPI_INT, MPI_SUM, win));
    HANDED(MPI_Get_accumulate(add, 3, MPI_INT, r, 3, MPI_INT, t, di, 3, MPI_INT, MPI_SUM, win));
    for (int i = 0; i < 3; i++)
        CHECK(r[i] == (11 + i) * t + i + 1, "%s: target %d: get_accumulate fetched %d at %d",
              kind_name[w->k], t, r[i], i);
    HANDED(MPI_Accumulate(rep, 3, MPI_INT, t, di, 3, MPI_INT, MPI_REPLACE, win));
    HANDED(MPI_Get_accumulate(NULL, 0, MPI_INT, r, 3, MPI_INT, t, di, 3, MPI_INT, MPI_NO_OP, win));
    for (int i = 0; i < 3; i++)
        CHECK(r[i] == 5 + i, "%s: target %d: %d at %d after MPI_REPLACE", kind_name[w->k], t, r[i],
              i);

    double x = 0.5, old = -1;
    HANDED(MPI_Put(&x, 1, MPI_DOUBLE, t, dd, 1, MPI_DOUBLE, win));
    HANDED(MPI_Fetch_and_op(&x, &old, MPI_DOUBLE, t, dd, MPI_SUM, win));
    CHECK(old == 0.5, "%s: target %d: fetch_and_op fetched %g", kind_name[w->k], t, old);
    HANDED(MPI_Fetch_and_op(&x, &old, MPI_DOUBLE, t, dd, MPI_PROD, win));
    CHECK(old == 1.0, "%s: target %d: fetch_and_op fetched %g", kind_name[w->k], t, old);

    long long nw = 9, cmp = 0, was = -1;
    HANDED(MPI_Compare_and_swap(&nw, &cmp, &was, MPI_LONG_LONG, t, rwin_disp(w, t, OFF_CASW), win));
    CHECK(was == 0, "%s: target %d: compare_and_swap found %lld", kind_name[w->k], t, was);
    nw = 10;
    HANDED(MPI_Compare_and_swap(&nw, &cmp, &was, MPI_LONG_LONG, t, rwin_disp(w, t, OFF_CASW), win));
    CHECK(was == 9, "%s: target %d: compare_and_swap found %lld", kind_name[w->k], t, was);

    /* Larger blocks, and a strided target (by CMA). */
    const int sizes[] = {MID, BIG};
    for (int si = 0; si < 2; si++) {
        int bytes = sizes[si];
        int *big = malloc((size_t)bytes), *bigback = malloc((size_t)bytes), c = bytes / 4;
        MPI_Aint db = rwin_disp(w, t, OFF_BIG);
        for (int i = 0; i < c; i++) big[i] = i ^ (t + bytes);
        CHECK_MPI(MPI_Put(big, c, MPI_INT, t, db, c, MPI_INT, win));
        CHECK_MPI(MPI_Accumulate(big, c, MPI_INT, t, db, c, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Get_accumulate(big, c, MPI_INT, bigback, c, MPI_INT, t, db, c, MPI_INT,
                                     MPI_SUM, win));
        for (int i = 0; i < c; i++)
            CHECK(bigback[i] == 2 * (i ^ (t + bytes)),
                  "%s: target %d: %d at %d of %d bytes fetched by get_accumulate", kind_name[w->k],
                  t, bigback[i], i, bytes);
        CHECK_MPI(MPI_Get(bigback, c, MPI_INT, t, db, c, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        for (int i = 0; i < c; i++)
            CHECK(bigback[i] == 3 * (i ^ (t + bytes)), "%s: target %d: %d at %d of %d bytes",
                  kind_name[w->k], t, bigback[i], i, bytes);
        /* Every other int of the origin: packed and unpacked piece by piece. */
        int *wide = malloc(2 * (size_t)bytes);
        MPI_Datatype every2;
        CHECK_MPI(MPI_Type_vector(c, 1, 2, MPI_INT, &every2));
        CHECK_MPI(MPI_Type_commit(&every2));
        for (int i = 0; i < 2 * c; i++) wide[i] = i % 2 ? -7 : i / 2 + t;
        CHECK_MPI(MPI_Put(wide, 1, every2, t, db, c, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        for (int i = 0; i < 2 * c; i++) wide[i] = i % 2 ? -7 : -1;
        CHECK_MPI(MPI_Get(wide, 1, every2, t, db, c, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        for (int i = 0; i < 2 * c; i++)
            CHECK(wide[i] == (i % 2 ? -7 : i / 2 + t),
                  "%s: target %d: %d at %d of %d bytes through a strided origin", kind_name[w->k],
                  t, wide[i], i, bytes);
        MPI_Type_free(&every2);
        free(wide);
        free(big);
        free(bigback);
    }
    int s3[3] = {1, 1, 1};
    CHECK_MPI(MPI_Accumulate(s3, 3, MPI_INT, t, di, 1, strided, MPI_SUM, win));
    CHECK_MPI(MPI_Get(back, 6, MPI_INT, t, di, 6, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(t, win));
    /* 5 6 7 at di, then the strided sum adds 1 at di, di+2 and di+4 ints. */
    CHECK(back[0] == 6 && back[1] == 6 && back[2] == 8 && back[4] == 1,
          "%s: target %d: %d %d %d .. %d after the strided accumulate", kind_name[w->k], t, back[0],
          back[1], back[2], back[4]);
    MPI_Type_free(&strided);
    return n;
}

/* Phase 1, then phase 2 (ranks other than 0 spin outside MPI). */
static void to_each(struct rwin *w, int rank, int size)
{
    unsigned long long d0, b0, d1, b1;
    counters(&d0, &b0);
    int n = 0;
    if (rank == 0)
        for (int t = 1; t < size; t++) n += small_ops(w, t);
    MPI_Barrier(MPI_COMM_WORLD);
    counters(&d1, &b1);
    if (rank == 0 && !strcmp(mode, "off"))
        CHECK(d1 == d0 && b1 == b0, "%s: %llu operations handed over with TERN_RMA_TARGET_MAX=0",
              kind_name[w->k], (d1 - d0) + (b1 - b0));
    /* A target that lost its core for the whole wait costs one or two. */
    if (rank == 0 && !strcmp(mode, "served"))
        CHECK(d1 - d0 >= (unsigned long long)n / 2,
              "%s: the targets, waiting in MPI_Barrier, did %llu of %d small operations "
              "(%llu taken back)",
              kind_name[w->k], d1 - d0, n, b1 - b0);

    volatile int64_t *flag = (volatile int64_t *)(void *)(w->mem + OFF_FLAG);
    if (rank != 0) {
        while (*flag != 1) {}
        return;
    }
    /* The others have left MPI_Barrier and spin by now. */
    nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    for (int t = 1; t < size; t++) {
        int64_t one = 1, got = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w->win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &got, MPI_INT64_T, t, rwin_disp(w, t, OFF_COUNT), MPI_SUM,
                                   w->win));
        CHECK_MPI(
            MPI_Put(&one, 1, MPI_INT64_T, t, rwin_disp(w, t, OFF_FLAG), 1, MPI_INT64_T, w->win));
        CHECK_MPI(MPI_Win_unlock(t, w->win));
        CHECK(got == 0, "%s: target %d outside MPI: fetched %lld", kind_name[w->k], t,
              (long long)got);
    }
    counters(&d1, &b1);
    if (strcmp(mode, "off"))
        CHECK(b1 - b0 >= 1,
              "%s: no operation was taken back from targets spinning outside MPI (%llu done by "
              "them)",
              kind_name[w->k], d1 - d0);
}

/* Phase 4: every rank puts BIG bytes to the next rank and gets them from
 * the one before, all at once (two ranks stream to each other). */
static void ring_streams(struct rwin *w, int rank, int size)
{
    int c = BIG / 4, next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *out = malloc(BIG), *in = malloc(BIG);
    for (int i = 0; i < c; i++) out[i] = i * 7 + rank;
    MPI_Aint db = rwin_disp(w, next, OFF_BIG), dp = rwin_disp(w, prev, OFF_BIG);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, w->win));
    CHECK_MPI(MPI_Put(out, c, MPI_INT, next, db, c, MPI_INT, w->win));
    CHECK_MPI(MPI_Win_flush_all(w->win));
    CHECK_MPI(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, w->win));
    CHECK_MPI(MPI_Get(in, c, MPI_INT, prev, dp, c, MPI_INT, w->win));
    CHECK_MPI(MPI_Win_unlock_all(w->win));
    /* prev's window holds what prev's own predecessor put there. */
    int from = (prev + size - 1) % size;
    for (int i = 0; i < c; i++)
        CHECK(in[i] == i * 7 + from, "%s: rank %d: %d at %d of rank %d's window, want %d",
              kind_name[w->k], rank, in[i], i, prev, i * 7 + from);
    free(out);
    free(in);
    /* Nobody detaches a dynamic window's region while another reads it. */
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Phase 3. */
static void all_to_all(struct rwin *w, int rank, int size)
{
    int64_t *mem = (int64_t *)(void *)w->mem;
    mem[OFF_COUNT / 8] = mem[OFF_CASW / 8] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, w->win));
    for (int i = 0; i < ITER; i++)
        for (int k = 0; k < size; k++) {
            int t = (rank + k) % size;
            int64_t one = 1, got, cur = 0, want;
            CHECK_MPI(MPI_Fetch_and_op(&one, &got, MPI_INT64_T, t, rwin_disp(w, t, OFF_COUNT),
                                       MPI_SUM, w->win));
            do {
                want = cur + 1;
                CHECK_MPI(MPI_Compare_and_swap(&want, &cur, &got, MPI_INT64_T, t,
                                               rwin_disp(w, t, OFF_CASW), w->win));
                if (got == cur) break;
                cur = got;
            } while (1);
            CHECK_MPI(MPI_Win_flush(t, w->win));
        }
    CHECK_MPI(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mem[OFF_COUNT / 8] == (int64_t)size * ITER && mem[OFF_CASW / 8] == (int64_t)size * ITER,
          "%s: rank %d: counter %lld, compare-and-swap word %lld, want %lld each", kind_name[w->k],
          rank, (long long)mem[OFF_COUNT / 8], (long long)mem[OFF_CASW / 8],
          (long long)size * ITER);
}

int main(int argc, char **argv)
{
    int rank, size;
    if (argc > 1) mode = argv[1];
    target_counters_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const enum kind kinds[] = {K_CREATE, K_DYNAMIC};
    for (int i = 0; i < 2; i++) {
        struct rwin w;
        rwin_make(&w, kinds[i], WIN_BYTES, MPI_COMM_WORLD);
        to_each(&w, rank, size);
        MPI_Barrier(MPI_COMM_WORLD);
        all_to_all(&w, rank, size);
        ring_streams(&w, rank, size);
        rwin_free(&w);
    }
    target_counters_finalize();
    if (rank == 0) printf("rma_handoff: ok (%d ranks%s%s)\n", size, *mode ? ", " : "", mode);
    return 0;
}
