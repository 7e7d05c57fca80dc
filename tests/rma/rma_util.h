/* What the one-sided tests share: the window kinds and synchronisation
 * modes they loop over. */
#ifndef RMA_UTIL_H
#define RMA_UTIL_H

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

/* K_ALLOC_MEM: MPI_Win_create on memory of MPI_Alloc_mem, which Tern's
 * members on one host map and reach by load and store, as the memory of
 * MPI_Win_allocate; K_CREATE's is the heap's. */
enum kind { K_CREATE, K_ALLOCATE, K_SHARED, K_DYNAMIC, K_ALLOC_MEM, NKINDS };
static const char *const kind_name[] = {"create", "allocate", "allocate_shared", "dynamic",
                                        "create on MPI_Alloc_mem"};

enum sync { S_FENCE, S_LOCK, S_LOCK_ALL, S_PSCW, NSYNCS };
static const char *const sync_name[] = {"fence", "lock", "lock_all+flush", "post-start"};

/* Whether comm's ranks are on more than one host (TERN_RANKS_PER_HOST
 * simulates hosts): windows then reach peers by messages, and a shared
 * window cannot be made. */
static inline int rma_spans_hosts(MPI_Comm comm)
{
    MPI_Comm node;
    int n, ln, one_host, all;
    CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_Comm_size(node, &ln);
    MPI_Comm_size(comm, &n);
    one_host = ln == n;
    CHECK_MPI(MPI_Allreduce(&one_host, &all, 1, MPI_INT, MPI_LAND, comm));
    MPI_Comm_free(&node);
    return !all;
}

/* A window of n bytes of kind k; *mem is this rank's memory, *disp0 the
 * displacement of its start at target 'peer' (dynamic windows address
 * absolutely: the peers' addresses are exchanged). */
struct rwin {
    MPI_Win win;
    char *mem;
    void *own;         /* memory to free after MPI_Win_free */
    MPI_Aint *base_of; /* dynamic: each rank's address */
    enum kind k;
};

/* The info every window rwin_make makes is created with (a test may set
 * hints such as accumulate_ops). */
static MPI_Info rwin_info = MPI_INFO_NULL;

/* Sets accumulate_ops=same_op on the windows made from here on. */
static inline void rwin_same_op(void)
{
    CHECK_MPI(MPI_Info_create(&rwin_info));
    CHECK_MPI(MPI_Info_set(rwin_info, "accumulate_ops", "same_op"));
}

static inline void rwin_make(struct rwin *w, enum kind k, MPI_Aint n, MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size);
    memset(w, 0, sizeof *w);
    w->k = k;
    switch (k) {
    case K_CREATE:
        w->own = w->mem = calloc((size_t)n, 1);
        CHECK_MPI(MPI_Win_create(w->mem, n, 1, rwin_info, comm, &w->win));
        break;
    case K_ALLOCATE:
        CHECK_MPI(MPI_Win_allocate(n, 1, rwin_info, comm, &w->mem, &w->win));
        memset(w->mem, 0, (size_t)n);
        break;
    case K_ALLOC_MEM:
        CHECK_MPI(MPI_Alloc_mem(n, MPI_INFO_NULL, &w->mem));
        memset(w->mem, 0, (size_t)n);
        CHECK_MPI(MPI_Win_create(w->mem, n, 1, rwin_info, comm, &w->win));
        break;
    case K_SHARED:
        CHECK_MPI(MPI_Win_allocate_shared(n, 1, rwin_info, comm, &w->mem, &w->win));
        memset(w->mem, 0, (size_t)n);
        break;
    default: {
        w->own = w->mem = calloc((size_t)n, 1);
        CHECK_MPI(MPI_Win_create_dynamic(rwin_info, comm, &w->win));
        CHECK_MPI(MPI_Win_attach(w->win, w->mem, n));
        MPI_Aint mine;
        MPI_Get_address(w->mem, &mine);
        w->base_of = malloc((size_t)size * sizeof *w->base_of);
        CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, w->base_of, 1, MPI_AINT, comm));
    }
    }
    /* The zeroing above is done before anyone reaches it. */
    MPI_Barrier(comm);
}

static inline MPI_Aint rwin_disp(const struct rwin *w, int target, MPI_Aint off)
{
    return w->k == K_DYNAMIC ? MPI_Aint_add(w->base_of[target], off) : off;
}

static inline void rwin_free(struct rwin *w)
{
    if (w->k == K_DYNAMIC) CHECK_MPI(MPI_Win_detach(w->win, w->mem));
    CHECK_MPI(MPI_Win_free(&w->win));
    CHECK(w->win == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
    if (w->k == K_ALLOC_MEM) CHECK_MPI(MPI_Free_mem(w->mem));
    free(w->own);
    free(w->base_of);
}

/* Opening and closing an access epoch to 'target' (and the exposure epoch
 * of everyone, for fence and post-start: every rank accesses one peer and
 * is accessed by one). */
static inline void epoch_open(MPI_Win win, enum sync s, int target, int origin)
{
    MPI_Group wg, g;
    switch (s) {
    case S_FENCE: CHECK_MPI(MPI_Win_fence(0, win)); break;
    case S_LOCK: CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win)); break;
    case S_LOCK_ALL: CHECK_MPI(MPI_Win_lock_all(0, win)); break;
    default:
        CHECK_MPI(MPI_Win_get_group(win, &wg));
        CHECK_MPI(MPI_Group_incl(wg, 1, &origin, &g));
        CHECK_MPI(MPI_Win_post(g, 0, win));
        MPI_Group_free(&g);
        CHECK_MPI(MPI_Group_incl(wg, 1, &target, &g));
        CHECK_MPI(MPI_Win_start(g, 0, win));
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
    }
}

static inline void epoch_close(MPI_Win win, enum sync s, int target)
{
    switch (s) {
    case S_FENCE: CHECK_MPI(MPI_Win_fence(0, win)); break;
    case S_LOCK:
        CHECK_MPI(MPI_Win_flush_local(target, win));
        CHECK_MPI(MPI_Win_flush_all(win));
        CHECK_MPI(MPI_Win_unlock(target, win));
        break;
    case S_LOCK_ALL:
        CHECK_MPI(MPI_Win_flush(target, win));
        CHECK_MPI(MPI_Win_flush_local_all(win));
        CHECK_MPI(MPI_Win_unlock_all(win));
        break;
    default: CHECK_MPI(MPI_Win_complete(win)); CHECK_MPI(MPI_Win_wait(win));
    }
    /* Passive target: the target reads its memory after everyone is done. */
    if (s == S_LOCK || s == S_LOCK_ALL) MPI_Barrier(MPI_COMM_WORLD);
}

#endif
