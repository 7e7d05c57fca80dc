/* A window's shared segment: its control area (win.h) and, for the windows
 * MPI allocates, every member's memory.  Rank 0 of the window creates a
 * file with no name (bootstrap/anon_file.h), the others open it through
 * /proc/<pid>/fd while rank 0 keeps it open, and all map it.  Nothing ever has a name in /dev/shm, so
 * nothing is left there however the job ends (as with the node segment,
 * tools/mpiexec/shmfile.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bootstrap/anon_file.h"
#include "coll/coll.h"
#include "coll/op.h"
#include "core/errors.h"
#include "core/progress.h"
#include "rma/alloc_mem.h"
#include "rma/win_am.h"
#include "rma/win_mbox.h"
#include "rma/win_seg.h"

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static size_t off_ranks(void) { return sizeof(struct tern_win_ctl); }
static size_t off_post(int n) { return off_ranks() + (size_t)n * sizeof(struct tern_win_rank_ctl); }
static size_t off_done(int n) { return off_post(n) + (size_t)n * (size_t)n * sizeof(uint32_t); }
static size_t off_mbox(int n)
{
    return align_up(off_done(n) + (size_t)n * (size_t)n * sizeof(uint32_t), 4096);
}
size_t tern_win_ctl_bytes(int n) { return align_up(off_mbox(n) + tern_win_mbox_bytes(n), 4096); }

struct tern_win_rank_ctl *tern_win_rank_ctl(struct tern_win *w, int r)
{
    return (struct tern_win_rank_ctl *)(w->seg + off_ranks()) + r;
}
_Atomic uint32_t *tern_win_post_ctr(struct tern_win *w, int origin, int target)
{
    return (_Atomic uint32_t *)(w->seg + off_post(w->size)) + (size_t)origin * (size_t)w->size +
           (size_t)target;
}
struct tern_win_mbox *tern_win_mbox_of(struct tern_win *w, int r)
{
    return (struct tern_win_mbox *)(void *)(w->seg + off_mbox(w->size) +
                                            (size_t)r * w->mbox_stride);
}
_Atomic uint32_t *tern_win_done_ctr(struct tern_win *w, int target, int origin)
{
    return (_Atomic uint32_t *)(w->seg + off_done(w->size)) + (size_t)target * (size_t)w->size +
           (size_t)origin;
}

/* An empty file of 'bytes' with every page reserved, so that a full
 * /dev/shm is this error rather than a SIGBUS at the first store; but for
 * the mailboxes' data past their first page (skip_at: the first mailbox,
 * n of 'stride' bytes each), which an origin reserves itself before it
 * first uses them (win_mbox.c), so that making a window costs no more
 * with larger mailboxes. */
static int make_file(size_t bytes, size_t skip_at, int n, size_t stride, int *fd_out)
{
    int fd = tern_anon_file_create("tern-win", NULL);
    if (fd < 0) return errno;
    int e = 0;
    if (ftruncate(fd, (off_t)bytes) != 0) e = errno;
    if (!e) e = posix_fallocate(fd, 0, (off_t)skip_at);
    for (int r = 0; r < n && !e; r++)
        e = posix_fallocate(fd, (off_t)(skip_at + (size_t)r * stride), 4096);
    size_t end = skip_at + (size_t)n * stride;
    if (!e && bytes > end) e = posix_fallocate(fd, (off_t)end, (off_t)(bytes - end));
    if (e) {
        close(fd);
        return e;
    }
    *fd_out = fd;
    return 0;
}

struct seg_offer {
    int32_t pid, fd, err;
};

int tern_win_seg_open(struct tern_win *w, struct tern_comm *comm, size_t bytes)
{
    struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
    struct seg_offer offer = {getpid(), -1, 0};
    if (w->rank == 0)
        offer.err =
            make_file(bytes, off_mbox(w->size), w->size, tern_win_mbox_stride(w->size), &offer.fd);
    int rc = tern_coll_bcast(&offer, sizeof offer, byte, 0, comm);
    if (rc) return rc;
    if (offer.err)
        return tern_err_make(MPI_ERR_NO_MEM,
                             "cannot make the window's shared segment of %zu bytes in /dev/shm: %s",
                             bytes, strerror(offer.err));
    int fd = offer.fd, err = 0;
    if (w->rank != 0) {
        fd = tern_anon_file_open_peer(offer.pid, offer.fd, NULL, 0);
        if (fd < 0) err = errno;
    }
    void *p = MAP_FAILED;
    if (!err) {
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) err = errno;
    }
    /* Rank 0 keeps its descriptor until every member has opened the file. */
    int *errs = calloc((size_t)w->size, sizeof *errs);
    if (!errs) tern_fatal("out of memory for a window of %d ranks", w->size);
    rc = tern_coll_allgather(&err, sizeof err, byte, errs, sizeof err, byte, comm);
    if (fd >= 0) close(fd);
    int bad = -1;
    for (int r = 0; r < w->size && !rc; r++)
        if (errs[r] && bad < 0) bad = r;
    if (!rc && bad >= 0)
        rc = tern_err_make(MPI_ERR_OTHER,
                           "rank %d of the window cannot map its shared segment (opened through "
                           "/proc/%d/fd/%d): %s",
                           bad, (int)offer.pid, (int)offer.fd, strerror(errs[bad]));
    free(errs);
    if (rc) {
        if (p != MAP_FAILED) munmap(p, bytes);
        return rc;
    }
    w->seg = p;
    w->seg_bytes = bytes;
    w->ctl = (struct tern_win_ctl *)p;
    tern_win_rank_ctl(w, w->rank)->seg_at = (uint64_t)(uintptr_t)p;
    return MPI_SUCCESS;
}

static void unmap_files(struct tern_win *w)
{
    for (int r = 0; r < w->size; r++) {
        struct tern_win_peer *p = &w->peer[r];
        if (!p->file_map) continue;
        munmap(p->file_map, p->file_bytes);
        p->file_map = NULL;
        p->local = NULL;
    }
}

int tern_win_seg_map_created(struct tern_win *w, struct tern_comm *comm,
                             const struct tern_win_file_offer *offered)
{
    for (int r = 0; r < w->size; r++)
        if (w->peer[r].size > 0 && offered[r].fd < 0) return MPI_SUCCESS;
    /* Every member takes this path: each decides from the same offers. */
    int ok = 1;
    for (int r = 0; r < w->size && ok; r++) {
        struct tern_win_peer *p = &w->peer[r];
        if (r == w->rank || p->size == 0) continue;
        const struct tern_win_file_offer *o = &offered[r];
        char *m = tern_alloc_mem_map_peer(o->pid, o->fd, o->ino, o->file_bytes);
        if (!m) {
            ok = 0;
            break;
        }
        p->file_map = m;
        p->file_bytes = o->file_bytes;
        p->local = p->file_map + offered[r].offset;
    }
    /* Mapped everywhere or nowhere: an origin that cannot map one member
     * reaches it by CMA, and then every accumulate must take the lock. */
    int all_ok = 0;
    int rc = tern_coll_allreduce(&ok, &all_ok, 1, tern_dt_get(MPI_INT), tern_op_get(MPI_MIN), comm);
    if (rc || !all_ok) {
        unmap_files(w);
        return rc;
    }
    w->mapped = 1;
    return MPI_SUCCESS;
}

void tern_win_seg_close(struct tern_win *w)
{
    unmap_files(w);
    if (w->seg) munmap(w->seg, w->seg_bytes);
    w->seg = NULL;
    w->ctl = NULL;
}

void tern_win_spin(struct tern_waiter *wt) { tern_progress_wait(wt); }

void tern_win_barrier(struct tern_win *w)
{
    if (w->am) {
        tern_win_am_barrier(w);
        return;
    }
    uint32_t sense = w->barrier_sense ^= 1u;
    struct tern_win_ctl *c = w->ctl;
    if (atomic_fetch_add(&c->barrier_count, 1) == (uint32_t)w->size - 1) {
        atomic_store(&c->barrier_count, 0);
        atomic_store(&c->barrier_sense, sense);
        return;
    }
    struct tern_waiter wt = TERN_WAITER_INIT;
    while (atomic_load(&c->barrier_sense) != sense) tern_win_spin(&wt);
}
