/* The errors of one-sided communication, with MPI_ERRORS_RETURN on the
 * window: their classes, and that they go to the window's handler (a user
 * handler sees the window); the errors of creation go to the
 * communicator's.  Across hosts (run under TERN_RANKS_PER_HOST=1 by
 * rma_errors_hosts: argv[1] = "hosts") a shared window is refused, and an
 * access a target refuses (outside the regions of a dynamic window) comes
 * back as the error of the synchronisation that completes it. */
#include <stdio.h>

#include "rma_util.h"

static int calls;
static MPI_Win seen_win;
static int seen_code;
static const char *where = "created window"; /* in the messages of expect */

static void on_win(MPI_Win *w, int *code, ...)
{
    calls++;
    seen_win = *w;
    seen_code = *code;
}

static void expect(int rc, int cls, const char *what)
{
    int c = -1;
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len;
    MPI_Error_class(rc, &c);
    MPI_Error_string(rc, msg, &len);
    CHECK(c == cls, "%s, %s: class %d, want %d (%s)", where, what, c, cls, msg);
}

/* The errors of operations and passive-target synchronisation on win
 * toward rank t (a window of 16 ints, disp_unit sizeof(int)); ends with
 * the lock on t held.  On an allocated window these pass the fast paths
 * first (rma/win_fast.h), which must leave every error to the general
 * path. */
static void epoch_range_errors(MPI_Win win, int t, int size, const char *kind)
{
    int v = 1, buf[2] = {0}, got = 0;
    where = kind;
    expect(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC,
           "put outside an epoch");
    expect(MPI_Win_unlock(t, win), MPI_ERR_RMA_SYNC, "unlock without lock");
    expect(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "complete without start");
    expect(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "wait without post");
    expect(MPI_Win_flush(t, win), MPI_ERR_RMA_SYNC, "flush without lock");
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    expect(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win), MPI_ERR_RMA_SYNC, "lock twice");
    expect(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC, "fence inside a lock");
    expect(MPI_Put(&v, 1, MPI_INT, t, 16, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, "past the end");
    expect(MPI_Put(&v, 1, MPI_INT, t, -1, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, "before the start");
    expect(MPI_Get(buf, 2, MPI_INT, t, 15, 2, MPI_INT, win), MPI_ERR_RMA_RANGE,
           "straddling the end");
    expect(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK, "target = size");
    expect(MPI_Put(&v, 1, MPI_INT, -3, 0, 1, MPI_INT, win), MPI_ERR_RANK, "target = -3");
    expect(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_DOUBLE, win), MPI_ERR_TYPE,
           "sizes of origin and target differ");
    expect(MPI_Accumulate(&v, 1, MPI_INT, t, 0, 1, MPI_FLOAT, MPI_SUM, win), MPI_ERR_TYPE,
           "accumulate of int into float");
    expect(MPI_Accumulate(&v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP,
           "accumulate with MPI_OP_NULL");
    expect(MPI_Put(&v, -1, MPI_INT, t, 0, 1, MPI_INT, win), MPI_ERR_COUNT, "negative count");
    expect(MPI_Win_lock(7, t, 0, win), MPI_ERR_LOCKTYPE, "lock type 7");
    expect(MPI_Fetch_and_op(&v, &got, MPI_INT, t, 16, MPI_SUM, win), MPI_ERR_RMA_RANGE,
           "fetch_and_op past the end");
    expect(MPI_Fetch_and_op(&v, &got, MPI_INT, size, 0, MPI_SUM, win), MPI_ERR_RANK,
           "fetch_and_op to target = size");
    expect(MPI_Fetch_and_op(&v, &got, MPI_INT, t, 0, MPI_OP_NULL, win), MPI_ERR_OP,
           "fetch_and_op with MPI_OP_NULL");
    expect(MPI_Fetch_and_op(&v, &got, MPI_FLOAT, t, 0, MPI_BAND, win), MPI_ERR_OP,
           "fetch_and_op MPI_BAND on a float");
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    /* MPI_PROC_NULL is a target of synchronisation too, where nothing happens. */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win));
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(MPI_PROC_NULL, win));
    CHECK_MPI(MPI_Win_flush_local(MPI_PROC_NULL, win));
    CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
    expect(MPI_Win_lock(MPI_LOCK_SHARED, -5, 0, win), MPI_ERR_RANK, "lock of rank -5");
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int buf[16] = {0};
    MPI_Win win;
    if (argc > 1 && strcmp(argv[1], "hosts") == 0) {
        void *mem = NULL;
        int rc = MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
        expect(rc, MPI_ERR_RMA_SHARED, "shared window across hosts");
        /* A dynamic window: rank 1 attaches 16 ints, rank 0 reaches past them. */
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
        CHECK_MPI(MPI_Win_attach(win, buf, sizeof buf));
        MPI_Aint mine, *addr = malloc((size_t)size * sizeof *addr);
        MPI_Get_address(buf, &mine);
        CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD));
        if (rank == 0) {
            int v[4] = {1, 2, 3, 4}, back[4] = {0};
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
            CHECK_MPI(MPI_Put(v, 4, MPI_INT, 1, MPI_Aint_add(addr[1], 12 * sizeof(int)), 4, MPI_INT,
                              win));
            CHECK_MPI(MPI_Win_flush(1, win));
            CHECK_MPI(MPI_Put(v, 4, MPI_INT, 1, MPI_Aint_add(addr[1], 14 * sizeof(int)), 4, MPI_INT,
                              win));
            expect(MPI_Win_flush(1, win), MPI_ERR_RMA_RANGE, "put past a dynamic region");
            CHECK_MPI(MPI_Get(back, 4, MPI_INT, 1, MPI_Aint_add(addr[1], 20 * sizeof(int)), 4,
                              MPI_INT, win));
            expect(MPI_Win_unlock(1, win), MPI_ERR_RMA_RANGE, "get outside a dynamic region");
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
            CHECK_MPI(MPI_Get(back, 4, MPI_INT, 1, MPI_Aint_add(addr[1], 12 * sizeof(int)), 4,
                              MPI_INT, win));
            CHECK_MPI(MPI_Win_unlock(1, win));
            for (int i = 0; i < 4; i++)
                CHECK(back[i] == i + 1, "dynamic window across hosts: [%d]=%d", i, back[i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Win_detach(win, buf));
        CHECK_MPI(MPI_Win_free(&win));
        free(addr);
        /* One host alone is fine for a shared window. */
        CHECK_MPI(MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_SELF, &mem, &win));
        CHECK_MPI(MPI_Win_free(&win));
        if (rank == 0)
            printf("rma_errors: shared windows across hosts refused, range errors back\n");
        MPI_Finalize();
        return 0;
    }

    /* creation: on the communicator's handler */
    expect(MPI_Win_create(buf, sizeof buf, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP,
           "disp_unit 0");
    expect(MPI_Win_allocate(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win), MPI_ERR_SIZE,
           "negative size");

    void *mem;
    CHECK_MPI(
        MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int v = 1, t = (rank + 1) % size;
    epoch_range_errors(win, t, size, "allocated window");
    CHECK_MPI(MPI_Win_unlock(t, win));
    CHECK_MPI(MPI_Win_free(&win));
    /* MPI_NO_OP where the info says accumulate_ops=same_op */
    MPI_Info same;
    MPI_Info_create(&same);
    MPI_Info_set(same, "accumulate_ops", "same_op");
    CHECK_MPI(MPI_Win_allocate(16 * sizeof(int), sizeof(int), same, MPI_COMM_WORLD, &mem, &win));
    MPI_Info_free(&same);
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    int old;
    expect(MPI_Fetch_and_op(NULL, &old, MPI_INT, t, 0, MPI_NO_OP, win), MPI_ERR_OP,
           "fetch_and_op MPI_NO_OP on a same_op window");
    CHECK_MPI(MPI_Fetch_and_op(&v, &old, MPI_INT, t, 0, MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(t, win));
    CHECK_MPI(MPI_Win_free(&win));
    where = "created window";
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    epoch_range_errors(win, t, size, "created window");
    CHECK_MPI(MPI_Win_unlock(t, win));
    expect(MPI_Win_free(&(MPI_Win){MPI_WIN_NULL}), MPI_ERR_WIN, "free of MPI_WIN_NULL");

    /* a user handler sees the window and the code */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_create_errhandler(on_win, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    MPI_Errhandler got;
    CHECK_MPI(MPI_Win_get_errhandler(win, &got));
    CHECK(got == eh, "MPI_Win_get_errhandler gave another handler");
    MPI_Errhandler_free(&got);
    int rc = MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win);
    CHECK(calls == 1 && seen_win == win && seen_code == rc, "the user handler ran %d times", calls);
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK(calls == 2 && seen_code == MPI_ERR_OTHER, "MPI_Win_call_errhandler did not call it");
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* dynamic windows: only attached memory is reachable */
    MPI_Win dyn;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
    CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_attach(dyn, buf, sizeof buf));
    MPI_Aint a, *addr = malloc((size_t)size * sizeof *addr);
    MPI_Get_address(buf, &a);
    MPI_Allgather(&a, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, dyn));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, addr[t] + 4, 1, MPI_INT, dyn));
    expect(MPI_Put(&v, 1, MPI_INT, t, addr[t] + sizeof buf, 1, MPI_INT, dyn), MPI_ERR_RMA_RANGE,
           "dynamic window past the attached region");
    CHECK_MPI(MPI_Win_unlock_all(dyn));
    expect(MPI_Win_detach(dyn, buf + 1), MPI_ERR_RMA_RANGE, "detach of memory never attached");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_detach(dyn, buf));
    expect(MPI_Win_attach(win, buf, 4), MPI_ERR_RMA_FLAVOR, "attach to a window not dynamic");
    CHECK_MPI(MPI_Win_free(&dyn));
    free(addr);

    /* a window freed with an epoch open, then really freed */
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    expect(MPI_Win_free(&win), MPI_ERR_RMA_SYNC, "free inside lock_all");
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
    expect(MPI_Win_fence(0, win), MPI_ERR_WIN, "fence on a freed window");
    if (rank == 0) printf("rma_errors: every error class as expected at %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
