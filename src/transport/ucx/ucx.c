/* Setting up the UCX transport, its peers and endpoints, and tearing it
 * down.  The messages themselves are in ucx_msg.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bootstrap/boot.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/state.h"
#include "msg/procs.h"
#include "transport/ucx/ucx.h"
#include "transport/ucx/ucx_internal.h"

struct ucx_state ucx = {.dead = -1};

/* Bootstrap values hold < 1024 bytes: a worker address (a few hundred
 * bytes, more with many devices) is spread over keys of this many hex
 * characters. */
#define ADDR_CHUNK 960

static int ucx_error(const char *what, ucs_status_t st)
{
    return tern_err_make(MPI_ERR_OTHER, "UCX: %s failed: %s", what, ucs_status_string(st));
}

static int publish_address(void)
{
    ucp_address_t *addr;
    size_t len;
    ucs_status_t st = ucp_worker_get_address(ucx.worker, &addr, &len);
    if (st != UCS_OK) return ucx_error("ucp_worker_get_address", st);
    size_t hex_len = 2 * len, nchunks = (hex_len + ADDR_CHUNK - 1) / ADDR_CHUNK;
    char *hex = malloc(hex_len + 1);
    if (!hex) tern_fatal("out of memory for a %zu-byte UCX worker address", len);
    for (size_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", ((const unsigned char *)addr)[i]);
    ucp_worker_release_address(ucx.worker, addr);
    char key[64], val[ADDR_CHUNK + 1];
    int bad = 0;
    snprintf(key, sizeof key, "ucx.%d.n", tern_g.world_rank);
    snprintf(val, sizeof val, "%zu", nchunks);
    bad |= tern_boot_put(key, val);
    for (size_t c = 0; c < nchunks; c++) {
        snprintf(key, sizeof key, "ucx.%d.%zu", tern_g.world_rank, c);
        snprintf(val, sizeof val, "%.*s", ADDR_CHUNK, hex + c * ADDR_CHUNK);
        bad |= tern_boot_put(key, val);
    }
    free(hex);
    if (bad || tern_boot_fence()) tern_fatal("bootstrap exchange of UCX worker addresses failed");
    return MPI_SUCCESS;
}

/* The worker address a peer published; malloc'd, NULL when the launcher
 * does not have it. */
static void *fetch_address(int world)
{
    char key[64], val[ADDR_CHUNK + 1];
    snprintf(key, sizeof key, "ucx.%d.n", world);
    if (tern_boot_get(world, key, val, sizeof val) != 0) return NULL;
    size_t nchunks = strtoul(val, NULL, 10);
    unsigned char *addr = malloc(nchunks * ADDR_CHUNK / 2 + 1);
    if (!addr) return NULL;
    size_t n = 0;
    for (size_t c = 0; c < nchunks; c++) {
        snprintf(key, sizeof key, "ucx.%d.%zu", world, c);
        if (tern_boot_get(world, key, val, sizeof val) != 0) {
            free(addr);
            return NULL;
        }
        for (const char *h = val; h[0] && h[1]; h += 2) {
            unsigned v;
            if (sscanf(h, "%2x", &v) != 1) {
                free(addr);
                return NULL;
            }
            addr[n++] = (unsigned char)v;
        }
    }
    return addr;
}

struct ucx_peer *ucx_peer_if_made(int world)
{
    int pg = world / UCX_PEER_PAGE;
    if (world < 0 || pg >= ucx.npages || !ucx.pages[pg]) return NULL;
    return ucx.pages[pg][world % UCX_PEER_PAGE];
}

struct ucx_peer *ucx_peer(int world)
{
    struct ucx_peer *p = ucx_peer_if_made(world);
    if (p) return p;
    int pg = world / UCX_PEER_PAGE;
    if (pg >= ucx.npages) { /* processes of other jobs come after this job's */
        struct ucx_peer ***t = realloc(ucx.pages, (size_t)(pg + 1) * sizeof *t);
        if (!t) return NULL;
        memset(t + ucx.npages, 0, (size_t)(pg + 1 - ucx.npages) * sizeof *t);
        ucx.pages = t;
        ucx.npages = pg + 1;
    }
    if (!ucx.pages[pg] && !(ucx.pages[pg] = calloc(UCX_PEER_PAGE, sizeof **ucx.pages))) return NULL;
    if (!(p = calloc(1, sizeof *p))) return NULL;
    p->world = world;
    p->next = ucx.made;
    ucx.made = p;
    return ucx.pages[pg][world % UCX_PEER_PAGE] = p;
}

/* UCP found an endpoint broken (the peer died, or its connection did):
 * the progress engine's liveness check reports it. */
static void on_ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    (void)ep;
    /* Another job's end is not this job's (MPI-4.1 11.10.4): what waits on
     * that process fails instead (p2p's watch). */
    if ((intptr_t)arg >= tern_g.world_size) {
        tern_proc_mark_dead((int)(intptr_t)arg);
        return;
    }
    if (ucx.dead < 0) {
        ucx.dead = (int)(intptr_t)arg;
        ucx.dead_status = (int)status;
    }
}

/* An endpoint detects its peer's death unless 'silent' (the liveness check
 * ends the job when the peer is a rank of it).  Silent ones: the data
 * endpoints of this job's ranks (ucx_internal.h), and those to another
 * job's processes whose pid this process sees: UCX then may use its shared
 * memory (posix, sysv) and single copy (cma) between jobs on one host,
 * which cannot detect a peer's death and which it leaves out of endpoints
 * that must; the pid check of p2p's watch finds those deaths instead.
 * Processes on other hosts have no shared memory to lose, and only the
 * endpoint can tell. */
static ucs_status_t create_ep(int world, const void *addr, int silent, ucp_ep_h *ep)
{
    ucp_ep_params_t ep_params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                      (silent ? 0 : UCP_EP_PARAM_FIELD_ERR_HANDLER),
        .address = addr,
        .err_mode = silent ? UCP_ERR_HANDLING_MODE_NONE : UCP_ERR_HANDLING_MODE_PEER,
        .err_handler = {.cb = on_ep_error, .arg = (void *)(intptr_t)world},
    };
    return ucp_ep_create(ucx.worker, &ep_params, ep);
}

/* An endpoint to rank 'world' of this job, from the address it left in
 * the bootstrap; 'silent': without failure handling. */
static ucp_ep_h connect_rank(int world, int silent, ucp_ep_h *ep, int *err)
{
    void *addr = fetch_address(world);
    if (!addr) {
        *err = tern_err_make(MPI_ERR_OTHER, "UCX: the launcher has no worker address of rank %d",
                             world);
        return NULL;
    }
    ucs_status_t st = create_ep(world, addr, silent, ep);
    free(addr);
    if (st != UCS_OK) {
        *ep = NULL;
        *err = tern_err_make(MPI_ERR_OTHER, "UCX: cannot connect to rank %d: %s", world,
                             ucs_status_string(st));
    }
    return *ep;
}

int ucx_sender(uint64_t job, int32_t world_src)
{
    if (job == tern_procs_job_key()) return world_src;
    int w = tern_proc_intern(job, world_src);
    if (w < 0) tern_fatal("out of memory for the state of a process of another job");
    return w;
}

ucp_ep_h ucx_ep(int world, int *err)
{
    struct ucx_peer *p = ucx_peer(world);
    if (!p) {
        *err =
            tern_err_make(MPI_ERR_NO_MEM, "out of memory for the UCX state of peer rank %d", world);
        return NULL;
    }
    if (p->ep) return p->ep;
    if (tern_proc_is_dead(world)) {
        *err = tern_err_make(MPI_ERR_OTHER, "a process of a connected job (%s) has died",
                             tern_proc_describe(world));
        return NULL;
    }
    if (world >= tern_g.world_size && p->addr) {
        ucs_status_t st = create_ep(world, p->addr, tern_proc_pid_visible(world), &p->ep);
        if (st == UCS_OK) return p->ep;
        p->ep = NULL;
    }
    if (world >= tern_g.world_size) {
        *err = tern_err_make(MPI_ERR_OTHER,
                             "UCX: no endpoint to process %d of another job (the connection to its "
                             "job is not complete)",
                             world);
        return NULL;
    }
    return connect_rank(world, 0, &p->ep, err);
}

ucp_ep_h ucx_data_ep(int world, int *err)
{
    /* Another job's process may end while this one goes on: only an
     * endpoint that handles failures may reach it. */
    if (!ucx.data_endpoint || world >= tern_g.world_size) return ucx_ep(world, err);
    /* The first endpoint first: it is what notices the peer's death. */
    if (!ucx_ep(world, err)) return NULL;
    struct ucx_peer *p = ucx_peer_if_made(world);
    return p->data_ep ? p->data_ep : connect_rank(world, 1, &p->data_ep, err);
}

static int set_handler(unsigned id, ucp_am_recv_callback_t cb)
{
    ucp_am_handler_param_t hp = {
        .field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                      UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
        .id = id,
        .cb = cb,
        .flags = UCP_AM_FLAG_WHOLE_MSG,
    };
    ucs_status_t st = ucp_worker_set_am_recv_handler(ucx.worker, &hp);
    return st == UCS_OK ? MPI_SUCCESS : ucx_error("ucp_worker_set_am_recv_handler", st);
}

/* The context, the worker and its handlers: what this process needs
 * before any peer can reach it. */
static int setup_worker(void)
{
    ucx.eager_max = (size_t)tern_param.ucx_eagersize;
    ucx.iov_min = (size_t)tern_param.ucx_iov_min;
    ucx.data_endpoint = tern_param.ucx_data_endpoint;
    ucx.dead = -1;
    ucx.outstanding = 0;
    /* The page table's first pointers are per UCX_PEER_PAGE ranks of this
     * job, made at once: 16 KiB at a million ranks. */
    ucx.npages = (tern_procs_count() + UCX_PEER_PAGE - 1) / UCX_PEER_PAGE;
    ucx.pages = calloc((size_t)ucx.npages + 1, sizeof *ucx.pages);
    if (!ucx.pages) tern_fatal("out of memory for the UCX peer table of %d ranks", ucx.npages);
    ucx.made = NULL;

    /* UCX_* variables of the environment configure UCX, as with other MPIs. */
    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK) return ucx_error("reading the UCX_* configuration", st);
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED,
        /* RMA and atomics for windows that span hosts (rma/win_am.h);
         * wakeup for the progress thread (ucx_async.c). */
        .features = UCP_FEATURE_AM | UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 |
                    UCP_FEATURE_WAKEUP,
        .mt_workers_shared = 0,
    };
    st = ucp_init(&params, config, &ucx.ctx);
    ucp_config_release(config);
    if (st != UCS_OK) return ucx_error("ucp_init", st);
    /* Threads take turns under Tern's big lock. */
    ucp_worker_params_t wp = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = UCS_THREAD_MODE_SERIALIZED,
    };
    st = ucp_worker_create(ucx.ctx, &wp, &ucx.worker);
    if (st != UCS_OK) return ucx_error("ucp_worker_create", st);
    int rc = set_handler(UCX_AM_MSG, ucx_on_msg);
    if (rc == MPI_SUCCESS) rc = set_handler(UCX_AM_CTL, ucx_on_ctl);
    return rc;
}

static int tern_ucx_init(void)
{
    int rc = setup_worker();
    /* Handlers first: a peer may send as soon as it has our address. */
    return rc != MPI_SUCCESS ? rc : publish_address();
}

int tern_ucx_dyn_start(void)
{
    if (ucx.worker) return MPI_SUCCESS;
    return setup_worker();
}

int tern_ucx_dyn_address(void **addr, size_t *len)
{
    ucp_address_t *a;
    ucs_status_t st = ucp_worker_get_address(ucx.worker, &a, len);
    if (st != UCS_OK) return ucx_error("ucp_worker_get_address", st);
    *addr = malloc(*len);
    if (*addr) memcpy(*addr, a, *len);
    ucp_worker_release_address(ucx.worker, a);
    return *addr ? MPI_SUCCESS : tern_err_make(MPI_ERR_NO_MEM, "out of memory for a UCX address");
}

int tern_ucx_dyn_connect(int w, const void *addr, size_t len)
{
    struct ucx_peer *p = ucx_peer(w);
    void *copy = p ? realloc(p->addr, len) : NULL;
    if (!copy) return tern_err_make(MPI_ERR_NO_MEM, "out of memory for the UCX state of a peer");
    memcpy(copy, addr, len);
    p->addr = copy;
    /* The endpoint comes with the first message (ucx_ep), as to this job's
     * ranks: a process never talked to costs no connection, and one gone
     * already is reported by the message that needs it. */
    return MPI_SUCCESS;
}

static int tern_ucx_progress(void) { return (int)ucp_worker_progress(ucx.worker); }

static int tern_ucx_find_dead_peer(void) { return ucx.dead; }

static void wait_request(void *req)
{
    if (!req || UCS_PTR_IS_ERR(req)) return;
    while (ucp_request_check_status(req) == UCS_INPROGRESS) ucp_worker_progress(ucx.worker);
    ucp_request_free(req);
}

static size_t peers_made(void)
{
    size_t n = 0;
    for (struct ucx_peer *p = ucx.made; p; p = p->next) n++;
    return n;
}

/* Progress until the n requests complete or 'ms' milliseconds pass;
 * frees them either way (UCP releases an unfinished one when it ends, or
 * with the worker). */
#define DYN_CLOSE_WAIT_MS 2000
#define QUIESCE_FLUSH_WAIT_MS 1000
static void wait_requests_for(void **reqs, int n, long ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int done = 0; done < n;) {
        if (ucp_request_check_status(reqs[done]) != UCS_INPROGRESS) {
            done++;
            continue;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= ms) break;
        ucp_worker_progress(ucx.worker);
    }
    for (int i = 0; i < n; i++) ucp_request_free(reqs[i]);
}

/* Flushes every endpoint (close_data 0), or closes the data endpoints (1),
 * and gives the requests a bounded time together: a peer past its own
 * quiesce, or past MPI_Finalize's last fence, no longer progresses to
 * answer.  A data endpoint's close is not forced: UCP forbids that on an
 * endpoint without failure handling. */
static void endpoints_for_a_while(int close_data)
{
    void **reqs = calloc(2 * peers_made() + 1, sizeof *reqs);
    int n = 0;
    ucp_request_param_t rp = {.op_attr_mask = 0};
    for (struct ucx_peer *p = ucx.made; p; p = p->next) {
        ucp_ep_h eps[2] = {close_data ? NULL : p->ep, p->data_ep};
        for (int e = 0; e < 2; e++) {
            if (!eps[e]) continue;
            void *r = close_data ? ucp_ep_close_nbx(eps[e], &rp) : ucp_ep_flush_nbx(eps[e], &rp);
            if (!reqs)
                wait_request(r);
            else if (r && !UCS_PTR_IS_ERR(r))
                reqs[n++] = r;
        }
        if (close_data) p->data_ep = NULL;
    }
    wait_requests_for(reqs, n, QUIESCE_FLUSH_WAIT_MS);
    free(reqs);
}

/* Our UCP requests done, then everything sent has reached its peer (a
 * peer may still be waiting for an eager message this rank buffered). */
static int tern_ucx_quiesce(void)
{
    if (!ucx.worker) return 0;
    /* Windows never freed leave their holds on the progress thread: it
     * stops before the teardown, which it must not see half done. */
    while (tern_ucx_async_held()) tern_ucx_async_release();
    while (ucx.outstanding > 0) {
        struct tern_waiter w = TERN_WAITER_INIT;
        tern_progress_wait(&w);
    }
    /* A process of another job may be gone (what it was owed left when it
     * disconnected): its endpoint closes first, or the flush would wait for
     * it forever. */
    for (struct ucx_peer *p = ucx.made; p; p = p->next)
        if (p->world >= tern_g.world_size) tern_ucx_dyn_disconnect(p->world);
    /* Each live endpoint, not the worker: a worker flush would also wait
     * for closes left to finish on their own (tern_ucx_dyn_disconnect).
     * A peer that is already past its own quiesce needs nothing more from
     * this one, and no longer progresses to acknowledge: the flushes get a
     * bounded time together. */
    endpoints_for_a_while(0);
    return 0;
}

void tern_ucx_dyn_disconnect(int w)
{
    struct ucx_peer *p = ucx.worker ? ucx_peer_if_made(w) : NULL;
    if (!p || !p->ep) return;
    if (tern_proc_is_dead(w)) { /* a flush would wait for it forever */
        tern_ucx_dyn_fail(w);
        return;
    }
    while (ucx.outstanding > 0) {
        struct tern_waiter wt = TERN_WAITER_INIT;
        tern_progress_wait(&wt);
    }
    /* A forced close is for endpoints that detect a dead peer; this one
     * is flushed (the peer had it all, past the disconnect's barrier).
     * Over TCP the flush needs the peer's progress, which a peer already
     * blocked in MPI_Finalize's fence no longer makes: past 2 s the close
     * is left to finish on its own (UCP frees the request then, or at the
     * worker's end), since nothing the peer needs is in it.  Not sooner: a
     * peer that is merely slow and then exits leaves such a close, and its
     * socket, open until the worker ends. */
    ucp_request_param_t cp = {.op_attr_mask = 0};
    void *req = ucp_ep_close_nbx(p->ep, &cp);
    p->ep = NULL;
    if (!req || UCS_PTR_IS_ERR(req)) return;
    wait_requests_for(&req, 1, DYN_CLOSE_WAIT_MS);
}

void tern_ucx_dyn_fail(int w)
{
    struct ucx_peer *p = ucx.worker ? ucx_peer_if_made(w) : NULL;
    if (!p || !p->ep) return;
    /* Forced: UCP completes what was under way to w with an error. */
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                              .flags = UCP_EP_CLOSE_FLAG_FORCE};
    wait_request(ucp_ep_close_nbx(p->ep, &rp));
    p->ep = NULL;
}

static void tern_ucx_finalize(void)
{
    if (!ucx.worker) return;
    while (tern_ucx_async_held()) tern_ucx_async_release();
    ucx_rma_release_all();
    endpoints_for_a_while(1);
    while (ucx.made) {
        struct ucx_peer *p = ucx.made;
        ucx.made = p->next;
        if (p->ep) {
            /* After the last fence every peer is done: nothing to flush. */
            ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                      .flags = UCP_EP_CLOSE_FLAG_FORCE};
            wait_request(ucp_ep_close_nbx(p->ep, &rp));
        }
        ucx_peer_free_held(p);
        free(p->addr);
        free(p);
    }
    for (int pg = 0; pg < ucx.npages; pg++) free(ucx.pages[pg]);
    free(ucx.pages);
    ucx.pages = NULL;
    ucx.npages = 0;
    ucp_worker_destroy(ucx.worker);
    ucx.worker = NULL;
    ucp_cleanup(ucx.ctx);
    ucx.ctx = NULL;
}

const struct tern_transport tern_ucx_transport = {
    .name = "ucx",
    .init = tern_ucx_init,
    .finalize = tern_ucx_finalize,
    .progress = tern_ucx_progress,
    .quiesce = tern_ucx_quiesce,
    .find_dead_peer = tern_ucx_find_dead_peer,
    .send = tern_ucx_send,
    .recv_rndv = tern_ucx_recv_rndv,
    .sync_ack = tern_ucx_sync_ack,
    .cancel_send = tern_ucx_cancel_send,
};
