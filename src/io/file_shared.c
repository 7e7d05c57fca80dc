/* The shared file pointer: one 64-bit counter in an anonymous memory file
 * that rank 0 makes and the other ranks of the file map through
 * /proc/<pid>/fd/<n>.  Reserving a stretch is one atomic fetch-and-add, so
 * no process serves the pointer and no lock is held; the memory file has
 * no name, so nothing is left behind when the job ends, however it ends.
 * (Ranks on other hosts would need the counter elsewhere: Tern's jobs run
 * on one host.) */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bootstrap/anon_file.h"
#include "coll/coll.h"
#include "core/objects.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "io/io_coll.h"

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2,
               "the shared file pointer needs lock-free 64-bit atomics");

static _Atomic int64_t *map_fd(int fd)
{
    void *p = mmap(NULL, sizeof(int64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : (_Atomic int64_t *)p;
}

int tern_file_shared_attach(const char *fn, struct tern_file *f)
{
    int err = 0, fd = -1;
    int64_t where[2] = {0, -1}; /* rank 0's pid and descriptor */
    if (f->comm->rank == 0) {
        fd = tern_anon_file_create("tern-shared-fp", NULL);
        if (fd < 0 || ftruncate(fd, sizeof(int64_t)) != 0 || !(f->shared = map_fd(fd)))
            err = errno ? errno : ENOMEM;
        where[0] = getpid();
        where[1] = fd;
    }
    int rc = tern_io_bcast_i64(f->comm, &where[0], 0);
    if (!rc) rc = tern_io_bcast_i64(f->comm, &where[1], 0);
    if (rc) {
        if (fd >= 0) close(fd);
        return tern_io_raise(NULL, rc);
    }
    if (f->comm->rank != 0 && where[1] >= 0) {
        fd = tern_anon_file_open_peer((long)where[0], (int)where[1], NULL, 0);
        if (fd < 0 || !(f->shared = map_fd(fd))) err = errno ? errno : ENOMEM;
    } else if (f->comm->rank != 0) {
        err = EIO;
    }
    /* Rank 0 keeps its descriptor until every rank has opened it. */
    int any = err;
    rc = tern_io_allreduce_max_int(f->comm, &any);
    if (fd >= 0) close(fd);
    if (rc) return tern_io_raise(NULL, rc);
    if (any)
        return tern_io_err(NULL, MPI_ERR_IO,
                           "%s: cannot share the shared file pointer of '%s' between ranks "
                           "(memfd through /proc/<pid>/fd): %s",
                           fn, f->path, strerror(any));
    return MPI_SUCCESS;
}

void tern_file_shared_detach(struct tern_file *f)
{
    if (f->shared) munmap((void *)f->shared, sizeof(int64_t));
    f->shared = NULL;
}

MPI_Offset tern_file_shared_fetch_add(struct tern_file *f, MPI_Offset n)
{
    return atomic_fetch_add_explicit(f->shared, n, memory_order_acq_rel);
}

MPI_Offset tern_file_shared_get(struct tern_file *f)
{
    return atomic_load_explicit(f->shared, memory_order_acquire);
}

void tern_file_shared_set(struct tern_file *f, MPI_Offset pos)
{
    atomic_store_explicit(f->shared, pos, memory_order_release);
}

/* Each rank's stretch follows those of the lower ranks; rank 0 moves the
 * pointer past all of them at once. */
int tern_file_xfer_ordered(const char *fn, struct tern_file *f, enum tern_io_dir dir, void *buf,
                           size_t count, struct tern_datatype *dt, size_t *bytes)
{
    int64_t mine = (int64_t)(count * dt->size / f->etype->size);
    int64_t *all = malloc((size_t)f->comm->size * sizeof *all);
    if (!all) return tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot allocate the ranks' sizes", fn);
    int rc = tern_io_allgather_i64(f->comm, mine, all);
    int64_t before = 0, total = 0;
    for (int r = 0; r < f->comm->size; r++) {
        if (r < f->comm->rank) before += all[r];
        total += all[r];
    }
    free(all);
    int64_t base = 0;
    if (!rc && f->comm->rank == 0) base = tern_file_shared_fetch_add(f, total);
    if (!rc) rc = tern_io_bcast_i64(f->comm, &base, 0);
    if (rc) return tern_io_raise(f, rc);
    return tern_file_xfer_all(fn, f, dir, base + before, buf, count, dt, bytes);
}
