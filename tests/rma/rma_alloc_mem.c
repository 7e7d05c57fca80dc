/* MPI_Alloc_mem's blocks, and windows created on them: blocks of every
 * size survive the freeing of their neighbours in any order; a window whose
 * every member's memory came from MPI_Alloc_mem is reachable by load and
 * store (MPI_Win_shared_query answers the peers' memory), also from inside a
 * block and with members of no memory; one member on the heap sends the
 * whole window to CMA, with the same results.  Descriptors come back when
 * the blocks are freed.  Run with TERN_RMA_ALLOC_MEM_SHM=N to check the
 * blocks past the limit too, and 0 for every block on the heap. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>

#include "../mpit/mpit_util.h"
#include "rma_util.h"

static MPI_T_pvar_session pv_session;
static MPI_T_pvar_handle pv_mapped;

/* Blocks of other ranks this rank's windows mapped so far (MPI_T). */
static unsigned long long mapped(void) { return pvar_read(pv_session, pv_mapped); }

/* Whether TERN_RMA_ALLOC_MEM_SHM=0 puts every block on the heap. */
static int on_heap(void)
{
    const char *am = getenv("TERN_RMA_ALLOC_MEM_SHM");
    return am && !strcmp(am, "0");
}

static int count_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

static void blocks(int rank)
{
    enum { NB = 40 };
    static const MPI_Aint sizes[] = {0, 1, 8, 4095, 4096, 4097, 65536, 1 << 20};
    unsigned char *b[NB];
    MPI_Aint sz[NB];
    for (int i = 0; i < NB; i++) {
        sz[i] = sizes[(i * 5 + rank) % 8];
        CHECK_MPI(MPI_Alloc_mem(sz[i], MPI_INFO_NULL, &b[i]));
        CHECK(b[i] != NULL && (uintptr_t)b[i] % 8 == 0, "block %d of %ld bytes at %p", i,
              (long)sz[i], (void *)b[i]);
        memset(b[i], i + 1, (size_t)sz[i]);
    }
    /* every third, then the rest backwards: blocks that lie end to end
     * lose a neighbour on either side */
    for (int pass = 0; pass < 2; pass++)
        for (int i = pass ? NB - 1 : 0; pass ? i >= 0 : i < NB; i += pass ? -1 : 3) {
            if (!b[i]) continue;
            for (MPI_Aint j = 0; j < sz[i]; j++)
                CHECK(b[i][j] == (unsigned char)(i + 1), "block %d byte %ld is %d, want %d", i,
                      (long)j, b[i][j], i + 1);
            CHECK_MPI(MPI_Free_mem(b[i]));
            b[i] = NULL;
        }
}

/* Whether the next rank's memory (n bytes, disp_unit du_want) is reported
 * loadable. */
static int loadable(MPI_Win win, int rank, int size, MPI_Aint n, int du_want)
{
    int peer = (rank + 1) % size, du;
    MPI_Aint qs = -1;
    long *p = NULL;
    CHECK_MPI(MPI_Win_shared_query(win, peer, &qs, &du, &p));
    CHECK((qs == 0 && p == NULL) || (qs == n && p != NULL && du == du_want),
          "shared_query of rank %d: %ld bytes at %p", peer, (long)qs, (void *)p);
    return p != NULL;
}

/* Every rank adds to every element of every rank's window, fetches a
 * ticket from rank 0's first and, when loadable, stores into its neighbour
 * directly; the sums must be exact. */
static void window(int rank, int size, int heap_rank, int inside)
{
    enum { N = 64 };
    MPI_Aint bytes = N * (MPI_Aint)sizeof(long);
    char *block = NULL;
    long *mem;
    if (rank == heap_rank) {
        block = calloc(1, (size_t)bytes + 256);
        CHECK(block != NULL, "calloc");
    } else {
        CHECK_MPI(MPI_Alloc_mem(bytes + 256, MPI_INFO_NULL, &block));
        memset(block, 0, (size_t)bytes + 256);
    }
    mem = (long *)(void *)(block + (inside ? 128 : 0));
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int direct = loadable(win, rank, size, bytes, (int)sizeof(long));
    const char *am = getenv("TERN_RMA_ALLOC_MEM_SHM");
    int shm_off = am && !strcmp(am, "0");
    CHECK(direct == (size == 1 || (heap_rank < 0 && !shm_off)),
          "heap rank %d, TERN_RMA_ALLOC_MEM_SHM %s: peers' memory %sloadable", heap_rank,
          am ? am : "unset", direct ? "" : "not ");
    long ones[N];
    for (int i = 0; i < N; i++) ones[i] = 1;
    long one = 1, ticket = -1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Accumulate(ones, N, MPI_LONG, t, 0, N, MPI_LONG, MPI_SUM, win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 0, MPI_SUM, win));
    CHECK(ticket >= 0 && ticket < 2 * size, "ticket %ld", ticket);
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    /* element 0 of rank 0 took the tickets too */
    for (int i = 0; i < N; i++) {
        long want = size * (1 + (rank == 0 && i == 0));
        CHECK(mem[i] == want, "rank %d element %d is %ld, want %ld", rank, i, mem[i], want);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (direct) {
        int peer = (rank + 1) % size, du;
        MPI_Aint qs;
        long *p;
        CHECK_MPI(MPI_Win_shared_query(win, peer, &qs, &du, &p));
        CHECK_MPI(MPI_Win_lock_all(0, win));
        p[N - 1] = 1000 + rank;
        CHECK_MPI(MPI_Win_sync(win));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Win_sync(win));
        int from = (rank + size - 1) % size;
        CHECK(mem[N - 1] == 1000 + from, "rank %d: last element %ld, rank %d stored %d", rank,
              mem[N - 1], from, 1000 + from);
        CHECK_MPI(MPI_Win_unlock_all(win));
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (rank == heap_rank)
        free(block);
    else
        CHECK_MPI(MPI_Free_mem(block));
}

/* A dynamic window with two blocks of MPI_Alloc_mem attached per rank and
 * one of the heap: every rank puts into, accumulates into and gets from
 * every other's; then the blocks are detached, freed, allocated again (the
 * kept ones come back) and attached anew, and the same again.  Regions of
 * MPI_Alloc_mem are reached by mapping their files (counted by MPI_T),
 * the heap's by CMA; the values are the same. */
static void dynamic(int rank, int size)
{
    enum { N = 32 };
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    long *heap = calloc(N, sizeof *heap);
    MPI_Aint *addr = malloc((size_t)size * 3 * sizeof *addr);
    CHECK(heap && addr, "malloc");
    for (int round = 0; round < 2; round++) {
        long *blk[2];
        for (int b = 0; b < 2; b++) {
            CHECK_MPI(MPI_Alloc_mem(N * (MPI_Aint)sizeof(long), MPI_INFO_NULL, &blk[b]));
            memset(blk[b], 0, N * sizeof(long));
            CHECK_MPI(MPI_Win_attach(win, blk[b], N * (MPI_Aint)sizeof(long)));
        }
        memset(heap, 0, N * sizeof *heap);
        CHECK_MPI(MPI_Win_attach(win, heap, N * (MPI_Aint)sizeof *heap));
        MPI_Aint mine[3];
        MPI_Get_address(blk[0], &mine[0]);
        MPI_Get_address(blk[1], &mine[1]);
        MPI_Get_address(heap, &mine[2]);
        CHECK_MPI(MPI_Allgather(mine, 3, MPI_AINT, addr, 3, MPI_AINT, MPI_COMM_WORLD));
        unsigned long long before = mapped();
        long ones[N], got[N];
        for (int i = 0; i < N; i++) ones[i] = 1;
        CHECK_MPI(MPI_Win_lock_all(0, win));
        for (int t = 0; t < size; t++)
            for (int b = 0; b < 3; b++) {
                MPI_Aint at = addr[3 * t + b];
                long v = 100 * rank + b;
                /* element rank: this rank's own; the rest: sums */
                CHECK_MPI(
                    MPI_Put(&v, 1, MPI_LONG, t, MPI_Aint_add(at, rank * 8), 1, MPI_LONG, win));
                CHECK_MPI(MPI_Accumulate(ones + size, N - size, MPI_LONG, t,
                                         MPI_Aint_add(at, size * 8), N - size, MPI_LONG, MPI_SUM,
                                         win));
            }
        CHECK_MPI(MPI_Win_flush_all(win));
        MPI_Barrier(MPI_COMM_WORLD);
        int right = (rank + 1) % size;
        for (int b = 0; b < 3; b++) {
            CHECK_MPI(MPI_Get(got, N, MPI_LONG, right, addr[3 * right + b], N, MPI_LONG, win));
            CHECK_MPI(MPI_Win_flush(right, win));
            for (int i = 0; i < N; i++) {
                long want = i < size ? 100 * i + b : size;
                CHECK(got[i] == want, "round %d: rank %d's region %d element %d: %ld, want %ld",
                      round, right, b, i, got[i], want);
            }
        }
        CHECK_MPI(MPI_Win_unlock_all(win));
        unsigned long long now = mapped();
        if (size > 1 && !on_heap())
            CHECK(now > before || round > 0,
                  "round %d: no block of another rank was mapped (%llu before, %llu after)", round,
                  before, now);
        if (on_heap()) CHECK(now == 0, "every block on the heap, yet %llu mapped", now);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int b = 0; b < 2; b++) {
            CHECK_MPI(MPI_Win_detach(win, blk[b]));
            CHECK_MPI(MPI_Free_mem(blk[b]));
        }
        CHECK_MPI(MPI_Win_detach(win, heap));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK_MPI(MPI_Win_free(&win));
    free(heap);
    free(addr);
}

/* One pass of everything above. */
static void pass(int rank, int size)
{
    blocks(rank);
    dynamic(rank, size);
    window(rank, size, -1, 0);
    window(rank, size, -1, 1);
    window(rank, size, size - 1, 0);
    /* a member of no memory needs no block */
    MPI_Win win;
    long *mem = NULL;
    MPI_Aint n = rank == 0 ? 0 : 64;
    if (n) CHECK_MPI(MPI_Alloc_mem(n, MPI_INFO_NULL, &mem));
    CHECK_MPI(MPI_Win_create(mem, n, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    if (rank < size - 1) {
        /* the next rank has memory */
        const char *am = getenv("TERN_RMA_ALLOC_MEM_SHM");
        int dir = loadable(win, rank, size, 64, 1);
        CHECK(dir == !(am && !strcmp(am, "0")), "members of no memory: peers %sloadable",
              dir ? "" : "not ");
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (n) CHECK_MPI(MPI_Free_mem(mem));
}

int main(int argc, char **argv)
{
    int rank, size, provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    CHECK_T(MPI_T_pvar_session_create(&pv_session), MPI_SUCCESS);
    pv_mapped = pvar_handle(pv_session, "tern_rma_files_mapped", MPI_T_PVAR_CLASS_COUNTER);
    CHECK_T(MPI_T_pvar_start(pv_session, pv_mapped), MPI_SUCCESS);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int fds0 = count_fds();
    /* Freed blocks are kept open for reuse (src/rma/alloc_mem.c): a second
     * pass must end with the descriptors the first ended with, and with
     * every block on the heap with those at the start. */
    pass(rank, size);
    int fds1 = count_fds();
    pass(rank, size);
    CHECK(count_fds() == fds1, "descriptors: %d after one pass, %d after two", fds1, count_fds());
    const char *am = getenv("TERN_RMA_ALLOC_MEM_SHM");
    if (am && !strcmp(am, "0"))
        CHECK(count_fds() == fds0, "descriptors: %d at the start, %d at the end", fds0,
              count_fds());
    if (rank == 0) printf("rma_alloc_mem: %d ranks: ok\n", size);
    MPI_T_pvar_session_free(&pv_session);
    MPI_Finalize();
    MPI_T_finalize();
    return 0;
}
