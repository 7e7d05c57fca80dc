/* Passive target across hosts while the target never calls MPI: every
 * rank but 0 spins on a flag in its own window, reading memory only,
 * until rank 0 has locked its window, put, got, fetched-and-added,
 * compared-and-swapped, and put the flag.  A target whose window waits
 * for its help gives up after the timeout (argument 1, seconds) and the
 * test fails, rather than hangs.  Every window kind a job across hosts
 * can make (MPI_Win_allocate_shared cannot span hosts).
 *
 * Across hosts, the MPI_T counters tern_ucx_rma_ops and
 * tern_ucx_rma_lock_atomics say which path the puts, gets and locks took:
 * UCP straight to memory for MPI_Win_create and MPI_Win_allocate (unless
 * TERN_RMA_UCP=0), request messages for dynamic windows.  Argument 2 "same_op": the windows say accumulate_ops=same_op,
 * and fetch-and-op and compare-and-swap take UCP's atomics as well.
 *
 * tern_library_lock says that every MPI call takes the library's lock
 * while a window spans hosts (its progress thread runs), and no longer
 * once it is freed; argument 3 "multiple": under MPI_THREAD_MULTIPLE, where
 * it stays on throughout; "session": a session asks for MPI_THREAD_MULTIPLE
 * while the first window exists, and the lock stays on from then. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "rma_util.h"

#define NDATA 16
static int same_op;
/* The target's window: flag, counter, cas word, then data. */
enum { OFF_FLAG = 0, OFF_COUNT = 8, OFF_CAS = 16, OFF_DATA = 24 };

/* The MPI_T counter tern_ucx_rma_ops (which 0), tern_ucx_rma_lock_atomics
 * (which 1), the level tern_library_lock (which 2), or -1 where it is
 * absent. */
static long long ucp_count(int which)
{
    static const char *const names[] = {"tern_ucx_rma_ops", "tern_ucx_rma_lock_atomics",
                                        "tern_library_lock"};
    static const int classes[] = {MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_COUNTER,
                                  MPI_T_PVAR_CLASS_LEVEL};
    static MPI_T_pvar_session ses;
    static MPI_T_pvar_handle hs[3];
    static int states[3]; /* 0: not looked up, 1: ready, -1: absent */
    static int t_up;
    MPI_T_pvar_handle *hp = &hs[which], h;
    int *sp = &states[which], state;
    if (*sp == 0) {
        int idx, provided, count;
        *sp = -1;
        if (!t_up) {
            CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS,
                  "MPI_T_init_thread");
            CHECK(MPI_T_pvar_session_create(&ses) == MPI_SUCCESS, "MPI_T_pvar_session_create");
            t_up = 1;
        }
        if (MPI_T_pvar_get_index(names[which], classes[which], &idx) != MPI_SUCCESS) return -1;
        CHECK(MPI_T_pvar_handle_alloc(ses, idx, NULL, hp, &count) == MPI_SUCCESS && count == 1,
              "MPI_T_pvar_handle_alloc");
        h = *hp;
        int e = MPI_T_pvar_start(ses, h); /* counters that are not continuous */
        CHECK(e == MPI_SUCCESS || e == MPI_T_ERR_PVAR_NO_STARTSTOP, "MPI_T_pvar_start: %d", e);
        *sp = 1;
    }
    state = *sp;
    h = *hp;
    unsigned long long v = 0;
    if (state < 0) return -1;
    CHECK(MPI_T_pvar_read(ses, h, &v) == MPI_SUCCESS, "MPI_T_pvar_read");
    return (long long)v;
}

/* expect_ucp: the window reaches its members through UCP (unless
 * TERN_RMA_UCP=0, for the kinds UCP serves). */
static void origin(struct rwin *w, int size, enum kind k, int expect_ucp)
{
    long long ops0 = ucp_count(0), locks0 = ucp_count(1);
    for (int t = 1; t < size; t++) {
        MPI_Aint d = rwin_disp(w, t, 0);
        int64_t data[NDATA], back[NDATA], one = 1, old = -1, cmp = 0, swp = 7 + t, was = -1;
        for (int i = 0; i < NDATA; i++) data[i] = 1000 * t + i;
        int lt = t % 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
        double t0 = MPI_Wtime();
        CHECK_MPI(MPI_Win_lock(lt, t, 0, w->win));
        CHECK_MPI(MPI_Put(data, NDATA, MPI_INT64_T, t, d + OFF_DATA, NDATA, MPI_INT64_T, w->win));
        CHECK_MPI(MPI_Win_flush(t, w->win));
        CHECK_MPI(MPI_Get(back, NDATA, MPI_INT64_T, t, d + OFF_DATA, NDATA, MPI_INT64_T, w->win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT64_T, t, d + OFF_COUNT, MPI_SUM, w->win));
        CHECK_MPI(MPI_Compare_and_swap(&swp, &cmp, &was, MPI_INT64_T, t, d + OFF_CAS, w->win));
        CHECK_MPI(MPI_Win_unlock(t, w->win));
        for (int i = 0; i < NDATA; i++)
            CHECK(back[i] == data[i], "%s: target %d: got %lld at %d, put %lld", kind_name[k], t,
                  (long long)back[i], i, (long long)data[i]);
        CHECK(old == 41 && was == 0, "%s: target %d: fetched %lld (want 41), swapped out %lld",
              kind_name[k], t, (long long)old, (long long)was);
        int64_t flag = 1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        CHECK_MPI(MPI_Put(&flag, 1, MPI_INT64_T, t, d + OFF_FLAG, 1, MPI_INT64_T, w->win));
        CHECK_MPI(MPI_Win_unlock(t, w->win));
        printf("rma_busy: %s: target %d: %.4f s while it spun outside MPI\n", kind_name[k], t,
               MPI_Wtime() - t0);
    }
    /* Two puts and a get per target, and with same_op a fetch-and-op and a
     * compare-and-swap. */
    long long ops = ucp_count(0) - ops0, want = expect_ucp ? (same_op ? 5 : 3) * (size - 1) : 0;
    CHECK(ops0 < 0 || ops == want, "%s: %lld puts and gets went through UCP, expected %lld",
          kind_name[k], ops, want);
    /* Two lock-unlock pairs per target, on the lock words (a shared lock
     * may take more tries), or none when the window keeps messages. */
    long long locks = ucp_count(1) - locks0;
    CHECK(locks0 < 0 || (expect_ucp ? locks >= 4 * (size - 1) : locks == 0),
          "%s: %lld atomics on lock words (UCP %s)", kind_name[k], locks,
          expect_ucp ? "on" : "off");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void target(struct rwin *w, int rank, enum kind k, double timeout)
{
    volatile int64_t *mem = (volatile int64_t *)(void *)w->mem;
    double t0 = now();
    while (mem[OFF_FLAG / 8] != 1)
        if (now() - t0 > timeout) {
            fprintf(stderr,
                    "rma_busy: %s: rank %d: no flag after %.0f s of spinning outside MPI: the "
                    "origin's epoch waited for this target's help\n",
                    kind_name[k], rank, timeout);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    for (int i = 0; i < NDATA; i++)
        CHECK(mem[OFF_DATA / 8 + i] == 1000 * rank + i, "%s: rank %d holds %lld at %d",
              kind_name[k], rank, (long long)mem[OFF_DATA / 8 + i], i);
    CHECK(mem[OFF_COUNT / 8] == 42 && mem[OFF_CAS / 8] == 7 + rank,
          "%s: rank %d: counter %lld (want 42), cas word %lld", kind_name[k], rank,
          (long long)mem[OFF_COUNT / 8], (long long)mem[OFF_CAS / 8]);
}

int main(int argc, char **argv)
{
    int rank, size;
    int multiple = argc > 3 && strcmp(argv[3], "multiple") == 0, provided;
    int session = argc > 3 && strcmp(argv[3], "session") == 0;
    MPI_Session ses = MPI_SESSION_NULL;
    MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double timeout = argc > 1 ? atof(argv[1]) : 20;
    same_op = argc > 2 && strcmp(argv[2], "same_op") == 0;
    if (same_op) rwin_same_op();
    int spans = rma_spans_hosts(MPI_COMM_WORLD);
    for (int k = 0; k < NKINDS; k++) {
        if (k == K_SHARED && spans) continue;
        struct rwin w;
        rwin_make(&w, (enum kind)k, OFF_DATA + 8 * NDATA, MPI_COMM_WORLD);
        const char *async = getenv("TERN_RMA_ASYNC");
        long long lock = ucp_count(2),
                  want = multiple || (spans && !(async && !strcmp(async, "0")));
        CHECK(lock < 0 || lock == want, "%s: tern_library_lock is %lld with the window, want %lld",
              kind_name[k], lock, want);
        if (session && k == 0) {
            MPI_Info info;
            CHECK_MPI(MPI_Info_create(&info));
            CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE"));
            CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &ses));
            CHECK_MPI(MPI_Info_free(&info));
            multiple = 1;
        }
        ((int64_t *)(void *)w.mem)[OFF_COUNT / 8] = 41;
        MPI_Barrier(MPI_COMM_WORLD);
        const char *ucp = getenv("TERN_RMA_UCP");
        int expect_ucp = spans && (k == K_CREATE || k == K_ALLOCATE || k == K_ALLOC_MEM) &&
                         !(ucp && !strcmp(ucp, "0"));
        if (rank == 0)
            origin(&w, size, (enum kind)k, expect_ucp);
        else
            target(&w, rank, (enum kind)k, timeout);
        MPI_Barrier(MPI_COMM_WORLD);
        rwin_free(&w);
        lock = ucp_count(2);
        CHECK(lock < 0 || lock == multiple,
              "%s: tern_library_lock is %lld after MPI_Win_free, want %d", kind_name[k], lock,
              multiple);
    }
    if (ses != MPI_SESSION_NULL) CHECK_MPI(MPI_Session_finalize(&ses));
    if (rank == 0)
        printf("rma_busy: %d ranks, %s: passed\n", size, spans ? "across hosts" : "one host");
    MPI_Finalize();
    return 0;
}
