/* The route from each peer to its transport, decided once at init, and the
 * calls that go to every transport in turn. */
#include "p2p/transport.h"

#include <stdlib.h>

#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/state.h"

const struct tern_transport **tern_p2p_route;
static int route_cap; /* entries of tern_p2p_route */

/* Every transport built in, in the order they are set up and polled. */
static const struct tern_transport *const built[] = {
    &tern_shm_transport,
#if defined(TERN_WITH_UCX)
    &tern_ucx_transport,
#endif
};
#define NBUILT ((int)(sizeof built / sizeof built[0]))

/* The transports some peer uses. */
static const struct tern_transport *used[NBUILT];
static int nused;

static void mark_used(const struct tern_transport *t)
{
    for (int i = 0; i < nused; i++)
        if (used[i] == t) return;
    used[nused++] = t;
}

/* Peers on this host share memory (unless TERN_USE_SHARED_MEM=0); UCX,
 * when built, reaches the others. */
static const struct tern_transport *route_kind(int same_host)
{
    if (same_host && tern_param.use_shared_mem) return &tern_shm_transport;
#if defined(TERN_WITH_UCX)
    return &tern_ucx_transport;
#else
    return NULL;
#endif
}

/* Setting a transport up takes fences, so every rank sets up the transports
 * that some pair of ranks in the job uses, whether or not it talks through
 * them itself (a rank alone on its host still joins shared memory's setup).
 * host_of and the parameter are the same everywhere, so all ranks agree. */
static void mark_job_transports(void)
{
    int n = tern_g.world_size, shared_pair = 0;
    int *count = calloc((size_t)tern_g.nhosts, sizeof *count);
    if (!count) tern_fatal("out of memory counting the ranks of %d hosts", tern_g.nhosts);
    for (int w = 0; w < n && !shared_pair; w++)
        if (++count[tern_g.host_of[w]] > 1) shared_pair = 1;
    free(count);
    const struct tern_transport *t;
    if (shared_pair && (t = route_kind(1))) mark_used(t);
    if (tern_g.nhosts > 1 && (t = route_kind(0))) mark_used(t);
}

int tern_p2p_transports_init(void)
{
    int n = tern_g.world_size;
    tern_p2p_route = calloc((size_t)n, sizeof *tern_p2p_route);
    if (!tern_p2p_route) tern_fatal("out of memory for the transport routes of %d ranks", n);
    route_cap = n;
    for (int w = 0; w < n; w++) {
        if (w == tern_g.world_rank) continue;
        const struct tern_transport *t =
            route_kind(tern_g.host_of[w] == tern_g.host_of[tern_g.world_rank]);
        if (!t && !tern_param.use_shared_mem)
            tern_fatal("TERN_USE_SHARED_MEM=0 (or MV2_USE_SHARED_MEM=0) leaves no transport to "
                       "rank %d: this "
                       "build of Tern has no UCX transport (configure with TERN_WITH_UCX=ON)",
                       w);
        if (!t)
            tern_fatal(
                "rank %d runs on host %d of %d and this rank on host %d, but this build of Tern "
                "has no "
                "transport between hosts (it reaches only ranks that share this host's memory); "
                "run the job on one host, or unset TERN_HOST_ID/TERN_RANKS_PER_HOST",
                w, tern_g.host_of[w], tern_g.nhosts, tern_g.host_of[tern_g.world_rank]);
        tern_p2p_route[w] = t;
    }
    mark_job_transports();
    /* In the order of built[]: the same order, so the same fences, everywhere. */
    for (int b = 0; b < NBUILT; b++)
        for (int i = 0; i < nused; i++) {
            if (used[i] != built[b]) continue;
            int rc = used[i]->init();
            if (rc != MPI_SUCCESS) return rc;
        }
    return MPI_SUCCESS;
}

static int route_grow(int n)
{
    if (n <= route_cap) return 0;
    const struct tern_transport **r = realloc(tern_p2p_route, (size_t)n * sizeof *r);
    if (!r) return -1;
    for (int i = route_cap; i < n; i++) r[i] = NULL;
    tern_p2p_route = r;
    route_cap = n;
    return 0;
}

int tern_p2p_route_new_proc(int w)
{
    if (route_grow(w + 1) != 0) return -1;
#if defined(TERN_WITH_UCX)
    if (tern_ucx_dyn_start() != MPI_SUCCESS) return -1;
    mark_used(&tern_ucx_transport);
    tern_p2p_route[w] = &tern_ucx_transport;
    return 0;
#else
    (void)w;
    return -1;
#endif
}

int tern_p2p_foreign_address(void **addr, size_t *len)
{
#if defined(TERN_WITH_UCX)
    int rc = tern_ucx_dyn_start();
    if (rc) return rc;
    mark_used(&tern_ucx_transport);
    return tern_ucx_dyn_address(addr, len);
#else
    *addr = NULL;
    *len = 0;
    return tern_err_make(MPI_ERR_UNSUPPORTED_OPERATION,
                         "processes of other jobs are reached through UCX, and this build of Tern "
                         "has no UCX transport (configure with TERN_WITH_UCX=ON)");
#endif
}

int tern_p2p_foreign_connect(int w, const void *addr, size_t len)
{
#if defined(TERN_WITH_UCX)
    return tern_ucx_dyn_connect(w, addr, len);
#else
    (void)w, (void)addr, (void)len;
    return tern_err_make(MPI_ERR_UNSUPPORTED_OPERATION, "this build of Tern has no UCX transport");
#endif
}

void tern_p2p_foreign_disconnect(int w)
{
#if defined(TERN_WITH_UCX)
    if (w < tern_g.world_size || tern_p2p_route[w] != &tern_ucx_transport) return;
    tern_ucx_dyn_disconnect(w);
#else
    (void)w;
#endif
}

void tern_p2p_foreign_fail(int w)
{
#if defined(TERN_WITH_UCX)
    if (w < tern_g.world_size || tern_p2p_route[w] != &tern_ucx_transport) return;
    tern_ucx_dyn_fail(w);
#else
    (void)w;
#endif
}

int tern_p2p_transports_progress(void)
{
#if defined(TERN_XPORT_ONLY_SHM)
    return nused ? tern_shm_progress() : 0;
#else
    int n = 0;
    for (int i = 0; i < nused; i++) n += used[i]->progress();
    return n;
#endif
}

void tern_p2p_transports_quiesce(void)
{
    for (int i = 0; i < nused; i++) used[i]->quiesce();
}

int tern_p2p_find_dead_peer(void)
{
    for (int i = 0; i < nused; i++) {
        int w = used[i]->find_dead_peer();
        if (w >= 0) return w;
    }
    return -1;
}

void tern_p2p_transports_finalize(void)
{
    for (int i = nused - 1; i >= 0; i--) used[i]->finalize();
    nused = 0;
    free(tern_p2p_route);
    tern_p2p_route = NULL;
    route_cap = 0;
}
