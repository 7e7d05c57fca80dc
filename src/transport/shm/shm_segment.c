/* The node segment: one file with no name per host, which every rank
 * inherits from mpiexec (tools/mpiexec/shmfile.c says why) or, under PMI,
 * gets from the host's first rank (bootstrap/boot_shm.c); each host's
 * local rank 0 gives it its size, all map it.  It holds the ranks of its
 * host alone, indexed by their place there (shm.lidx).  Simulated hosts
 * under one mpiexec share its one file: each host has a part of it, in host
 * order.  Nothing in it ever has a name in /dev/shm, so nothing is left
 * there however the job ends: the kernel frees the file with the last
 * rank's mapping.
 *
 * A part is the rank blocks, CMA matrix and doorbells, the collectives'
 * areas, then a pair area for every ordered pair of the host's ranks.  The
 * file is sparse: the control lines are reserved at start-up, the parts of
 * a collective area as a communicator comes to use them, a pair area when
 * its sender first sends (shm_pairs.c).
 * So the memory a host uses grows with the pairs that talk, not with the
 * square of its ranks, and start-up maps no more than the head. */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bootstrap/boot.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/state.h"
#include "transport/shm/shm.h"
#include "transport/shm/shm_internal.h"

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* Whole cache lines, at least one: what a slot takes for v bytes. */
static size_t slot_lines(size_t v) { return v < SHM_LINE ? SHM_LINE : align_up(v, SHM_LINE); }

static size_t floor_pow2(size_t v)
{
    size_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

/* The collectives' slot: TERN_SHMCOLL_SLOT as given, or by default the
 * largest power of two within it that keeps every area together within
 * COLL_BUDGET for n ranks; never below TERN_SHMCOLL_MAX, which one slot must
 * carry.  Large slots are for the partitioned allreduce, whose two
 * synchronisations per chunk cost less the larger the chunk. */
static size_t coll_slot_bytes(int n)
{
    const size_t COLL_BUDGET = (size_t)32 << 20;
    size_t slot = (size_t)tern_param.shmcoll_slot, least = (size_t)tern_param.shmcoll_max;
    if (!tern_param_user_set("SHMCOLL_SLOT") && tern_param.shmcoll_comms > 0) {
        size_t fit = COLL_BUDGET / (2 * (size_t)n * (size_t)tern_param.shmcoll_comms);
        if (fit < slot) slot = floor_pow2(fit);
    }
    if (slot < least) slot = least;
    return slot_lines(slot);
}

size_t tern_shm_coll_move_for(int n)
{
    size_t slot = coll_slot_bytes(n), move = (size_t)tern_param.shmcoll_move_max;
    if (move > slot) move = slot;
    return move < (size_t)tern_param.shmcoll_max ? (size_t)tern_param.shmcoll_max : move;
}

static void compute_layout(struct shm_layout *l, int n)
{
    size_t ring = (size_t)tern_param.smp_queue_length;
    if (ring < 4096) ring = 4096;
    /* A power of two keeps the position -> offset step a mask. */
    l->ring_bytes = floor_pow2(ring);
    l->ring_lines = l->ring_bytes / SHM_LINE;
    l->pipe_chunks = tern_param.smp_send_buffers < 2 ? 2 : (size_t)tern_param.smp_send_buffers;
    l->pipe_chunk_bytes = align_up(
        tern_param.smp_send_buff_size < 4096 ? 4096 : (size_t)tern_param.smp_send_buff_size,
        SHM_LINE);
    /* Where every pair talks, pair areas grow with the square of the ranks:
     * unless the user chose the chunk count, keep each rank's share of the
     * segment near PIPE_BUDGET then by giving many-rank jobs fewer chunks
     * per pair. */
    const size_t PIPE_BUDGET = (size_t)32 << 20;
    if (n > 1 && !tern_param_user_set("SMP_SEND_BUFFERS")) {
        size_t per_pair = PIPE_BUDGET / (size_t)(n - 1);
        size_t fit =
            per_pair > l->ring_bytes ? (per_pair - l->ring_bytes) / l->pipe_chunk_bytes : 0;
        if (fit < l->pipe_chunks) l->pipe_chunks = fit < 2 ? 2 : fit;
    }
    l->pair_bytes =
        align_up(sizeof(struct shm_ring_ctl) + l->ring_bytes +
                     SHM_RNDV_SLOTS * sizeof(struct shm_rndv_slot) +
                     l->pipe_chunks * (sizeof(struct shm_pipe_flag) + l->pipe_chunk_bytes),
                 4096);
    l->bell_words = ((size_t)n + 63) / 64;
    l->bell_bytes = align_up(l->bell_words * 8, SHM_LINE);
    l->ctl_bytes =
        align_up((size_t)n * sizeof(struct shm_rank_ctl) +
                     align_up((size_t)n * (size_t)n, SHM_LINE) + (size_t)n * l->bell_bytes,
                 4096);
    /* An area serves any communicator of this host, so it has room for every
     * rank: it grows with n, and the pool with n times the area count. */
    l->coll_slot_bytes = coll_slot_bytes(n);
    l->coll_areas = tern_param.shmcoll_comms > 0 ? (int)tern_param.shmcoll_comms : 0;
    /* The nonblocking collectives' slots carry what the blocking ones carry
     * for the data movers. */
    l->coll_move_bytes = tern_shm_coll_move_for(n);
    l->coll_nbc_slot_bytes = slot_lines(l->coll_move_bytes);
    l->coll_area_bytes = SHM_LINE * (1 + 2 * (size_t)n) +
                         2 * (size_t)n * (l->coll_slot_bytes + l->coll_nbc_slot_bytes);
    l->coll_bytes = align_up((size_t)l->coll_areas * l->coll_area_bytes, 4096);
    l->total = l->ctl_bytes + l->coll_bytes + (size_t)n * (size_t)(n - 1) * l->pair_bytes;
}

size_t shm_pair_offset(int s, int r)
{
    int n = shm.nlocal;
    s = shm.lidx[s];
    r = shm.lidx[r];
    size_t idx = (size_t)s * (size_t)(n - 1) + (size_t)(r < s ? r : r - 1);
    return shm.lay.ctl_bytes + shm.lay.coll_bytes + idx * shm.lay.pair_bytes;
}

static char *pair_area(int s, int r) { return shm.base + shm_pair_offset(s, r); }

struct pair_view {
    struct shm_ring_ctl *ctl;
    char *ring;
    struct shm_rndv_slot *slots;
    struct shm_pipe_flag *flags;
    char *pipe;
};

static struct pair_view view_pair(int s, int r)
{
    struct pair_view v;
    char *a = pair_area(s, r);
    v.ctl = (struct shm_ring_ctl *)a;
    v.ring = a + sizeof(struct shm_ring_ctl);
    v.slots = (struct shm_rndv_slot *)(v.ring + shm.lay.ring_bytes);
    v.flags = (struct shm_pipe_flag *)(v.slots + SHM_RNDV_SLOTS);
    v.pipe = (char *)(v.flags + shm.lay.pipe_chunks);
    return v;
}

/* Local rank 0 gives the file its size and reserves the head of the
 * host's part.  Where hosts are simulated (TERN_RANKS_PER_HOST) under
 * mpiexec, each simulated host's local rank 0 does so for its own part of
 * the one file all ranks inherited, at the same time: every one of them
 * sets the same size. */
static void size_segment(int fd, size_t offset, size_t head, size_t file_bytes)
{
    /* f_blocks is 0 on a tmpfs without a size limit (a memfd's). */
    struct statvfs vfs;
    if (fstatvfs(fd, &vfs) == 0 && vfs.f_blocks != 0) {
        unsigned long long avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
        if (avail < head)
            tern_fatal("/dev/shm has %llu MiB free but %d ranks need %zu MiB of shared memory "
                       "to start, and %zu KiB more for each pair of ranks that talk; free space "
                       "in /dev/shm or lower TERN_SMP_QUEUE_LENGTH",
                       avail >> 20, shm.nlocal, head >> 20, shm.lay.pair_bytes >> 10);
    }
    if (ftruncate(fd, (off_t)file_bytes) != 0)
        tern_fatal("cannot size the shared-memory file to %zu MiB: %s", file_bytes >> 20,
                   strerror(errno));
    /* Reserve the head now: a full tmpfs becomes this clear error rather
     * than a SIGBUS in the middle of a collective. */
    int e = posix_fallocate(fd, (off_t)offset, (off_t)head);
    if (e)
        tern_fatal("cannot reserve %zu MiB in /dev/shm for the shared-memory segment: %s; "
                   "free space in /dev/shm or lower TERN_SHMCOLL_COMMS and TERN_SHMCOLL_SLOT",
                   head >> 20, strerror(e));
}

void shm_populate(void *at, size_t len)
{
#ifdef MADV_POPULATE_WRITE
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)at / page * page;
    (void)madvise((void *)a, (uintptr_t)at + len - a, MADV_POPULATE_WRITE);
#else
    (void)at;
    (void)len;
#endif
}

/* This host's ranks, and where its part of the file starts and the whole
 * file ends: the parts of the hosts sharing the file, in host order. */
static void place_segment(size_t *offset, size_t *file_bytes)
{
    int n = tern_g.world_size, host = tern_g.host_of[shm.me];
    shm.local = malloc((size_t)n * sizeof *shm.local);
    shm.lidx = malloc((size_t)n * sizeof *shm.lidx);
    int *count = calloc((size_t)tern_g.nhosts, sizeof *count);
    char *sharing = calloc((size_t)tern_g.nhosts, 1);
    if (!shm.local || !shm.lidx || !count || !sharing)
        tern_fatal("out of memory for the places of %d ranks", n);
    shm.nlocal = 0;
    for (int r = 0; r < n; r++) {
        int h = tern_g.host_of[r];
        count[h]++;
        sharing[h] |= tern_g.file_of[r] == tern_g.file_of[shm.me];
        shm.lidx[r] = h == host ? shm.nlocal : -1;
        if (h == host) shm.local[shm.nlocal++] = r;
    }
    shm.lme = shm.lidx[shm.me];
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *offset = *file_bytes = 0;
    for (int h = 0; h < tern_g.nhosts; h++) {
        if (!sharing[h]) continue;
        struct shm_layout l;
        compute_layout(&l, count[h]);
        size_t part = align_up(l.total, page);
        if (h < host) *offset += part;
        *file_bytes += part;
    }
    free(count);
    free(sharing);
}

int shm_segment_setup(void)
{
    shm.n = tern_g.world_size;
    shm.me = tern_g.world_rank;
    size_t offset, file_bytes;
    place_segment(&offset, &file_bytes);
    compute_layout(&shm.lay, shm.nlocal);

    int first = shm.local[0];
    int fd = tern_boot_take_shm_fd(first);
    if (fd < 0)
        tern_fatal("%d ranks need a shared-memory file for their host, and this rank has none: "
                   "Tern's mpiexec passes one (TERN_SHM_FD), under srun the host's first rank "
                   "makes one (a message above says what failed)",
                   shm.nlocal);
    /* Each host has its own file (one per proxy or Slurm node when the job
     * spans hosts), or part of one: the host's first rank sizes it. */
    /* The head: the control lines (the collectives reserve what they use of
     * their areas, coll/shm_coll_area.c). */
    size_t head = shm.lay.ctl_bytes;
    if (first == shm.me) size_segment(fd, offset, head, file_bytes);
    if (tern_boot_fence()) tern_fatal("bootstrap fence failed while creating shared memory");
    /* Ranks that read other parameters than rank 0 (-env per MPMD block)
     * would lay the segment out differently: stop before a SIGBUS. */
    struct stat st;
    if (fstat(fd, &st) != 0)
        tern_fatal("cannot examine the shared-memory segment: %s", strerror(errno));
    if ((size_t)st.st_size != file_bytes)
        tern_fatal("the shared-memory segment has %lld bytes, but this rank's parameters "
                   "(TERN_SMP_QUEUE_LENGTH, "
                   "TERN_SMP_SEND_BUFFERS, TERN_SMP_SEND_BUFF_SIZE) need %zu: give every rank the "
                   "same values",
                   (long long)st.st_size, file_bytes);
    void *base = mmap(NULL, shm.lay.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    if (base == MAP_FAILED) tern_fatal("cannot map the shared-memory segment: %s", strerror(errno));
    shm.base = base;
    shm.size = shm.lay.total;
    shm.fd = fd;
    shm.file_off = offset;
    /* The collectives' areas fault in as they are used: a rank touches its
     * own slots and those it reads, not the whole pool. */
    shm_populate(base, shm.lay.ctl_bytes);

    shm.peers = calloc((size_t)shm.n, sizeof *shm.peers);
    shm.active = calloc((size_t)shm.nlocal, sizeof *shm.active);
    shm.bell_seen = calloc(shm.lay.bell_words, sizeof *shm.bell_seen);
    if (!shm.peers || !shm.active || !shm.bell_seen)
        tern_fatal("out of memory for %d peers", shm.n);
    shm.bell = shm_doorbell(shm.lme);
    for (int k = 0; k < shm.nlocal; k++) {
        int p = shm.local[k];
        if (p == shm.me) continue;
        struct shm_peer *pe = &shm.peers[p];
        pe->world = p;
        struct pair_view out = view_pair(shm.me, p), in = view_pair(p, shm.me);
        pe->out_ctl = out.ctl;
        pe->out_ring = out.ring;
        pe->out_slots = out.slots;
        pe->out_pipe_flags = out.flags;
        pe->out_pipe_data = out.pipe;
        pe->in_ctl = in.ctl;
        pe->in_ring = in.ring;
        pe->in_slots = in.slots;
        pe->in_pipe_flags = in.flags;
        pe->in_pipe_data = in.pipe;
    }
    return 0;
}

void tern_shm_coll_pool(struct tern_shm_coll_pool *out)
{
    memset(out, 0, sizeof *out);
    if (!shm.base || shm.lay.coll_areas == 0) return;
    out->base = shm.base + shm.lay.ctl_bytes;
    out->area_bytes = shm.lay.coll_area_bytes;
    out->slot_bytes = shm.lay.coll_slot_bytes;
    out->nbc_slot_bytes = shm.lay.coll_nbc_slot_bytes;
    out->move_bytes = shm.lay.coll_move_bytes;
    out->nareas = shm.lay.coll_areas;
    out->max_ranks = shm.nlocal;
}

int tern_shm_reserve(const void *at, size_t len)
{
    size_t off = (size_t)((const char *)at - shm.base);
    return posix_fallocate(shm.fd, (off_t)(shm.file_off + off), (off_t)len);
}

struct shm_rank_ctl *shm_rank_ctl(int r) { return (struct shm_rank_ctl *)shm.base + r; }

int tern_shm_hw_instance(int world, int k)
{
    if (!shm.lidx || world < 0 || world >= shm.n || shm.lidx[world] < 0 || k < TERN_HW_PACKAGE ||
        k > TERN_HW_L3)
        return -1;
    return shm_rank_ctl(shm.lidx[world])->hw[k - TERN_HW_PACKAGE];
}
unsigned char *shm_cma_matrix(void) { return (unsigned char *)(shm_rank_ctl(shm.nlocal)); }
_Atomic uint64_t *shm_doorbell(int r)
{
    size_t n = (size_t)shm.nlocal;
    char *bells = (char *)shm_cma_matrix() + ((n * n + SHM_LINE - 1) / SHM_LINE) * SHM_LINE;
    return (_Atomic uint64_t *)(void *)(bells + (size_t)r * shm.lay.bell_bytes);
}

void shm_segment_teardown(void)
{
    if (shm.base) {
        munmap(shm.base, shm.size);
        close(shm.fd);
    }
    shm.base = NULL;
    free(shm.peers);
    free(shm.active);
    free(shm.bell_seen);
    shm.peers = NULL;
    shm.active = NULL;
    shm.bell_seen = NULL;
    shm.nactive = 0;
    free(shm.local);
    free(shm.lidx);
    shm.local = shm.lidx = NULL;
}
