/* Cross Memory Attach: single-copy reads and writes of a peer's memory
 * (process_vm_readv/writev), and the start-up probe that decides, per pair,
 * whether the kernel lets us use them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "bootstrap/boot.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/state.h"
#include "transport/shm/shm_internal.h"

/* Peers read this word to test CMA; its value ties it to our pid. */
static volatile uint64_t probe_word;
#define PROBE_MAGIC 0x7465726e00000000ull

/* One call moves at most about 2 GiB and may stop short: loop until done. */
int shm_cma_read(pid_t pid, void *local, uint64_t remote, size_t len)
{
    while (len) {
        struct iovec l = {local, len}, r = {(void *)(uintptr_t)remote, len};
        ssize_t n = process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (n == 0) return -EIO;
        local = (char *)local + n;
        remote += (uint64_t)n;
        len -= (size_t)n;
    }
    return 0;
}

/* The kernel takes at most UIO_MAXIOV (1024) iovecs a side per call.
 * Progress runs under the library lock, so one set serves the process. */
#define CMA_IOV_MAX 1024
static struct iovec local_iov[CMA_IOV_MAX], remote_iov[CMA_IOV_MAX];

static ssize_t cma_call(pid_t pid, int write, const struct iovec *l, size_t nl,
                        const struct iovec *r, size_t nr)
{
    return write ? process_vm_writev(pid, l, nl, r, nr, 0) : process_vm_readv(pid, l, nl, r, nr, 0);
}

/* Up to one bounce buffer's worth: the remote pieces against the bounce
 * buffer, packed before a write and unpacked after a read. */
static ssize_t copy_bounced(pid_t pid, int write, const struct tern_dt_view *local,
                            const struct tern_dt_view *remote, size_t off, size_t len)
{
    size_t rb, want = len < shm.coop_chunk ? len : shm.coop_chunk;
    size_t nr = tern_dt_view_iov(remote, off, want, remote_iov, CMA_IOV_MAX, &rb);
    struct iovec b = {shm.bounce, rb};
    if (write) tern_dt_view_pack(local, off, shm.bounce, rb);
    ssize_t n = cma_call(pid, write, &b, 1, remote_iov, nr);
    if (n > 0 && !write) tern_dt_view_unpack(local, off, shm.bounce, (size_t)n);
    return n;
}

/* Piece to piece: as many of both sides' pieces as one call takes. */
static ssize_t copy_direct(pid_t pid, int write, const struct tern_dt_view *local,
                           const struct tern_dt_view *remote, size_t off, size_t len)
{
    size_t lb, rb;
    size_t nl = tern_dt_view_iov(local, off, len, local_iov, CMA_IOV_MAX, &lb);
    size_t nr = tern_dt_view_iov(remote, off, lb, remote_iov, CMA_IOV_MAX, &rb);
    if (rb < lb) nl = tern_dt_view_iov(local, off, rb, local_iov, CMA_IOV_MAX, &lb);
    return cma_call(pid, write, local_iov, nl, remote_iov, nr);
}

int shm_cma_copy(pid_t pid, int write, const struct tern_dt_view *local,
                 const struct tern_dt_view *remote, size_t off, size_t len)
{
    int bounced = tern_dt_view_piece(local) < shm.iov_local_min;
    while (len) {
        ssize_t n = bounced ? copy_bounced(pid, write, local, remote, off, len)
                            : copy_direct(pid, write, local, remote, off, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (n == 0) return -EIO;
        off += (size_t)n;
        len -= (size_t)n;
    }
    return 0;
}

/* With Yama's ptrace_scope=1 only ancestors may attach; our peers are
 * siblings, so allow any process of ours to read us (the same uid and the
 * other kernel checks still apply). */
static void allow_peers(void)
{
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    if (!f) return;
    int scope = 0;
    if (fscanf(f, "%d", &scope) != 1) scope = 0;
    fclose(f);
    if (scope == 1) prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds for one core to move n bytes by memcpy or by one
 * process_vm_readv (of our own memory: the kernel pins and copies just as
 * for a peer); -1 if CMA fails. */
static double copy_time(int cma, char *src, char *dst, size_t n)
{
    double t = seconds();
    if (cma) {
        if (shm_cma_read(getpid(), dst, (uint64_t)(uintptr_t)src, n)) return -1;
    } else {
        memcpy(dst, src, n);
        __asm__ volatile("" : : "r"(dst) : "memory");
    }
    return seconds() - t;
}

/* Large messages move either by cooperative CMA (each byte copied once,
 * two cores at a time) or by the pipeline (each byte copied twice, both
 * cores busy).  Which wins depends on the host: where pinning pages for
 * CMA is slow, memcpy can be four times faster than process_vm_readv.
 * Measured with tern-bench bw on the CI machine kind: the pipeline
 * delivers about 0.8x what one core's memcpy does, cooperative CMA about
 * 1.7x one process_vm_readv call. */
static int pipeline_is_faster(void)
{
    const char *want = tern_param.smp_rndv_protocol;
    if (!strcmp(want, "pipeline")) return 1;
    if (!strcmp(want, "cma")) return 0;
    if (strcmp(want, "auto"))
        tern_warn("TERN_SMP_RNDV_PROTOCOL='%s' is not one of auto, cma, pipeline; using auto",
                  want);
    size_t n = 1 << 20;
    char *a = malloc(2 * n);
    if (!a) return 0;
    memset(a, 1, 2 * n);
    /* Best of 15, the two interleaved, so a moment of interference (the
     * host, another rank starting up) spoils neither. */
    double best_mem = 1e30, best_cma = 1e30;
    for (int i = 0; i < 16; i++) {
        double tm = copy_time(0, a, a + n, n), tc = copy_time(1, a, a + n, n);
        if (tc < 0) break;
        if (i == 0) continue; /* warm-up */
        if (tm < best_mem) best_mem = tm;
        if (tc < best_cma) best_cma = tc;
    }
    free(a);
    double mem = (double)n / best_mem / 1e9, cma = best_cma < 1e30 ? (double)n / best_cma / 1e9 : 0;
    int pipe = cma > 0 && 0.8 * mem > 1.7 * cma;
    if (tern_param.show_env_info)
        tern_note("rendezvous protocol: %s (one core moves 1 MiB at %.1f GB/s by memcpy, %.1f GB/s "
                  "by CMA)",
                  pipe ? "pipeline" : "cooperative CMA", mem, cma);
    return pipe;
}

int shm_cma_probe_all(void)
{
    int n = shm.nlocal, me = shm.lme; /* places on this host */
    unsigned char *ok = shm_cma_matrix();
    probe_word = PROBE_MAGIC | (uint64_t)getpid();
    struct shm_rank_ctl *mine = shm_rank_ctl(me);
    mine->probe_addr = (uint64_t)(uintptr_t)&probe_word;
    /* Where this rank runs, for the collectives' levels (tern_shm_hw_instance):
     * published with the pid, under the same fence.  Only the levels they
     * use: an unbound rank reads sysfs for every CPU it may run on. */
    for (int k = TERN_HW_PACKAGE; k <= TERN_HW_L3; k++)
        mine->hw[k - TERN_HW_PACKAGE] = tern_hw_instance_id((enum tern_hw_kind)k);
    atomic_store_explicit(&mine->pid, (int32_t)getpid(), memory_order_release);
    if (tern_param.smp_use_cma) allow_peers();
    if (me == 0) mine->prefer_pipe = !tern_param.smp_use_cma || pipeline_is_faster();
    if (tern_boot_fence()) tern_fatal("bootstrap fence failed while probing CMA");
    shm.prefer_pipe = shm_rank_ctl(0)->prefer_pipe;

    int first_errno = 0, refused = 0;
    for (int p = 0; p < n; p++) {
        if (p == me) continue;
        struct shm_rank_ctl *c = shm_rank_ctl(p);
        struct shm_peer *pe = &shm.peers[shm.local[p]];
        pe->pid = (pid_t)atomic_load_explicit(&c->pid, memory_order_acquire);
        int good = 0;
        if (tern_param.smp_use_cma) {
            uint64_t v = 0;
            int rc = shm_cma_read(pe->pid, &v, c->probe_addr, sizeof v);
            good = rc == 0 && v == (PROBE_MAGIC | (uint64_t)pe->pid);
            if (!good) {
                refused++;
                if (!first_errno) first_errno = rc ? -rc : EIO;
            }
        }
        ok[(size_t)me * (size_t)n + (size_t)p] = (unsigned char)good;
    }
    if (tern_boot_fence()) tern_fatal("bootstrap fence failed while probing CMA");
    for (int p = 0; p < n; p++) {
        if (p == me) continue;
        shm.peers[shm.local[p]].i_can_read = ok[(size_t)me * (size_t)n + (size_t)p];
        shm.peers[shm.local[p]].peer_can_read = ok[(size_t)p * (size_t)n + (size_t)me];
    }

    /* The user asked for CMA explicitly: say once, from the lowest rank that
     * was refused, that some pairs fall back. */
    if (refused && tern_param_user_set("SMP_USE_CMA")) {
        int lowest = -1, total = 0;
        for (int r = 0; r < n; r++)
            for (int s = 0; s < n; s++)
                if (r != s && !ok[(size_t)r * (size_t)n + (size_t)s]) {
                    if (lowest < 0) lowest = r;
                    total++;
                }
        if (lowest == me)
            tern_warn("CMA (process_vm_readv) was refused for %d of %d rank pairs (%s); those "
                      "pairs use the "
                      "two-copy shared-memory pipeline",
                      total, n * (n - 1), strerror(first_errno));
    }
    return 0;
}
