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
#include "core/errors.h"
#include "core/progress.h"
#include "rma/win_am.h"
#include "rma/win_seg.h"

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static size_t off_ranks(void) { return sizeof(struct tern_win_ctl); }
static size_t off_post(int n) { return off_ranks() + (size_t)n * sizeof(struct tern_win_rank_ctl); }
static size_t off_done(int n) { return off_post(n) + (size_t)n * (size_t)n * sizeof(uint32_t); }
size_t tern_win_ctl_bytes(int n)
{
    return align_up(off_done(n) + (size_t)n * (size_t)n * sizeof(uint32_t), 4096);
}

struct tern_win_rank_ctl *tern_win_rank_ctl(struct tern_win *w, int r)
{
    return (struct tern_win_rank_ctl *)(w->seg + off_ranks()) + r;
}
_Atomic uint32_t *tern_win_post_ctr(struct tern_win *w, int origin, int target)
{
    return (_Atomic uint32_t *)(w->seg + off_post(w->size)) + (size_t)origin * (size_t)w->size +
           (size_t)target;
}
_Atomic uint32_t *tern_win_done_ctr(struct tern_win *w, int target, int origin)
{
    return (_Atomic uint32_t *)(w->seg + off_done(w->size)) + (size_t)target * (size_t)w->size +
           (size_t)origin;
}

/* An empty file of 'bytes' with every page reserved, so that a full
 * /dev/shm is this error rather than a SIGBUS at the first store. */
static int make_file(size_t bytes, int *fd_out)
{
    int fd = tern_anon_file_create("tern-win", NULL);
    if (fd < 0) return errno;
    int e = 0;
    if (ftruncate(fd, (off_t)bytes) != 0)
        e = errno;
    else
        e = posix_fallocate(fd, 0, (off_t)bytes);
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
    if (w->rank == 0) offer.err = make_file(bytes, &offer.fd);
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
    return MPI_SUCCESS;
}

void tern_win_seg_close(struct tern_win *w)
{
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
