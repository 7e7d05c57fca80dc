/* Large puts and gets are shared with a target inside MPI: it copies
 * pieces from the back by CMA while the origin copies from the front
 * (src/rma/win_mbox.h), by load and store on memory it maps
 * (MPI_Win_allocate, _allocate_shared, MPI_Win_create on memory of
 * MPI_Alloc_mem, a dynamic window's region of MPI_Alloc_mem), by CMA on
 * the heap's (MPI_Win_create, a dynamic window's region).  The origin's MPI_T counters
 * tern_rma_target_done and tern_rma_target_taken_back say which happened.
 *
 * 1. Every rank but 0 waits in MPI_Barrier while rank 0 puts to it and
 *    gets back blocks of 32 KiB, 64 KiB + 12 B, 1 MiB + 4 B and 4 MiB at
 *    offsets that are no multiple of a page: every byte is checked, and in
 *    the "served" run rank 0 repeats 1 MiB gets until a target has done a
 *    share (2 s at most: a loaded machine may leave a target without a
 *    core for a while, never for that long).
 * 2. Every rank but 0 spins outside MPI until rank 0 puts a flag: the
 *    blocks still move, by rank 0 alone, each share taken back.
 * 3. Every rank puts 1 MiB to the next rank and gets 1 MiB from the one
 *    before, all at once: origins and targets of shares at the same time.
 * Argument 1 "off" (with TERN_RMA_SHARE_MIN=0 and TERN_RMA_TARGET_MAX=0):
 * nothing is shared. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "rma_target_counters.h"
#include "rma_util.h"

enum { OFF_FLAG = 0, OFF_DATA = 4096 + 40 };
#define MIB (1024 * 1024)
#define WIN_BYTES (OFF_DATA + 4 * MIB + 64)

static const char *mode = "";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A window of one of six kinds, and where rank t's data starts in it. */
#define NSWIN 6
struct swin {
    struct rwin r;    /* the kinds of rma_util.h */
    void *dyn_mem;    /* the dynamic window's region, of MPI_Alloc_mem */
    MPI_Aint *dyn_at; /* its address at every rank */
    int dynamic;
};
static const char *swin_name(const struct swin *w)
{
    return w->dynamic ? "dynamic window on MPI_Alloc_mem" : kind_name[w->r.k];
}
static char *swin_mem(struct swin *w) { return w->dynamic ? w->dyn_mem : w->r.mem; }
static MPI_Aint swin_disp(const struct swin *w, int t, MPI_Aint off)
{
    return w->dynamic ? MPI_Aint_add(w->dyn_at[t], off) : rwin_disp(&w->r, t, off);
}

static void swin_make(struct swin *w, int which, int size)
{
    memset(w, 0, sizeof *w);
    if (which < NSWIN - 1) {
        const enum kind k[] = {K_ALLOCATE, K_SHARED, K_ALLOC_MEM, K_CREATE, K_DYNAMIC};
        rwin_make(&w->r, k[which], WIN_BYTES, MPI_COMM_WORLD);
        return;
    }
    w->dynamic = 1;
    CHECK_MPI(MPI_Alloc_mem(WIN_BYTES, MPI_INFO_NULL, &w->dyn_mem));
    memset(w->dyn_mem, 0, WIN_BYTES);
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->r.win));
    CHECK_MPI(MPI_Win_attach(w->r.win, w->dyn_mem, WIN_BYTES));
    MPI_Aint mine;
    MPI_Get_address(w->dyn_mem, &mine);
    w->dyn_at = malloc((size_t)size * sizeof *w->dyn_at);
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, w->dyn_at, 1, MPI_AINT, MPI_COMM_WORLD));
}

static void swin_free(struct swin *w)
{
    if (!w->dynamic) {
        rwin_free(&w->r);
        return;
    }
    CHECK_MPI(MPI_Win_detach(w->r.win, w->dyn_mem));
    CHECK_MPI(MPI_Win_free(&w->r.win));
    CHECK_MPI(MPI_Free_mem(w->dyn_mem));
    free(w->dyn_at);
}

static unsigned char pattern(size_t i, int seed)
{
    return (unsigned char)(i * 131 + i / 4096 + seed);
}

/* A put of 'bytes' to target t, then a get of them into a fresh buffer:
 * every byte checked. */
static void put_get(struct swin *w, int t, size_t bytes, int seed)
{
    unsigned char *out = malloc(bytes), *in = malloc(bytes);
    for (size_t i = 0; i < bytes; i++) out[i] = pattern(i, seed);
    memset(in, 0xee, bytes);
    MPI_Aint d = swin_disp(w, t, OFF_DATA);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w->r.win));
    CHECK_MPI(MPI_Put(out, (int)bytes, MPI_BYTE, t, d, (int)bytes, MPI_BYTE, w->r.win));
    CHECK_MPI(MPI_Win_flush(t, w->r.win));
    CHECK_MPI(MPI_Get(in, (int)bytes, MPI_BYTE, t, d, (int)bytes, MPI_BYTE, w->r.win));
    CHECK_MPI(MPI_Win_unlock(t, w->r.win));
    for (size_t i = 0; i < bytes; i++)
        if (in[i] != out[i])
            CHECK(0, "%s: target %d: byte %zu of %zu got back %d, put %d", swin_name(w), t, i,
                  bytes, in[i], out[i]);
    free(out);
    free(in);
}

/* Phase 1: targets in MPI_Barrier. */
static void to_each(struct swin *w, int rank, int size)
{
    const size_t sizes[] = {32 * 1024, 64 * 1024 + 12, MIB + 4, 4 * MIB};
    unsigned long long d0 = target_done(), b0 = target_taken_back();
    if (rank == 0)
        for (int t = 1; t < size; t++)
            for (int s = 0; s < 4; s++) put_get(w, t, sizes[s], t * 10 + s);
    if (rank == 0 && !strcmp(mode, "served")) {
        double end = now() + 2;
        while (target_done() == d0 && now() < end) put_get(w, 1, MIB, 99);
        CHECK(target_done() > d0,
              "%s: the target, waiting in MPI_Barrier, took no share of any put or get in 2 s "
              "(%llu taken back)",
              swin_name(w), target_taken_back() - b0);
    }
    if (rank == 0 && !strcmp(mode, "off"))
        CHECK(target_done() == d0 && target_taken_back() == b0,
              "%s: %llu puts and gets shared with TERN_RMA_SHARE_MIN=0 and TERN_RMA_TARGET_MAX=0",
              swin_name(w), target_done() - d0 + target_taken_back() - b0);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Phase 2: targets spinning outside MPI. */
static void to_busy(struct swin *w, int rank, int size)
{
    volatile int64_t *flag = (volatile int64_t *)(void *)(swin_mem(w) + OFF_FLAG);
    if (rank != 0) {
        while (*flag != 1) {}
        *flag = 0;
        return;
    }
    /* The others have left MPI_Barrier and spin by now. */
    nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    unsigned long long b0 = target_taken_back();
    for (int t = 1; t < size; t++) put_get(w, t, MIB + 4, 50 + t);
    if (strcmp(mode, "off"))
        CHECK(target_taken_back() > b0, "%s: no share taken back from targets spinning outside MPI",
              swin_name(w));
    for (int t = 1; t < size; t++) {
        int64_t one = 1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w->r.win));
        CHECK_MPI(
            MPI_Put(&one, 1, MPI_INT64_T, t, swin_disp(w, t, OFF_FLAG), 1, MPI_INT64_T, w->r.win));
        CHECK_MPI(MPI_Win_unlock(t, w->r.win));
    }
}

/* Phase 3: a ring of puts, then of gets, all at once. */
static void ring(struct swin *w, int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    unsigned char *out = malloc(MIB), *in = malloc(MIB);
    for (size_t i = 0; i < MIB; i++) out[i] = pattern(i, 200 + rank);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, w->r.win));
    CHECK_MPI(
        MPI_Put(out, MIB, MPI_BYTE, next, swin_disp(w, next, OFF_DATA), MIB, MPI_BYTE, w->r.win));
    CHECK_MPI(MPI_Win_unlock_all(w->r.win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, w->r.win));
    CHECK_MPI(
        MPI_Get(in, MIB, MPI_BYTE, prev, swin_disp(w, prev, OFF_DATA), MIB, MPI_BYTE, w->r.win));
    CHECK_MPI(MPI_Win_unlock_all(w->r.win));
    /* prev's window holds what prev's own predecessor put there. */
    int from = (prev + size - 1) % size;
    for (size_t i = 0; i < MIB; i++)
        if (in[i] != pattern(i, 200 + from))
            CHECK(0, "%s: rank %d: byte %zu of rank %d's window is %d, want %d", swin_name(w), rank,
                  i, prev, in[i], pattern(i, 200 + from));
    free(out);
    free(in);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    if (argc > 1) mode = argv[1];
    target_counters_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int which = 0; which < NSWIN; which++) {
        struct swin w;
        swin_make(&w, which, size);
        MPI_Barrier(MPI_COMM_WORLD);
        to_each(&w, rank, size);
        to_busy(&w, rank, size);
        ring(&w, rank, size);
        swin_free(&w);
    }
    target_counters_finalize();
    if (rank == 0) printf("rma_share: ok (%d ranks%s%s)\n", size, *mode ? ", " : "", mode);
    return 0;
}
