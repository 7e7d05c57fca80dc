/* The shared file pointer, kept without a server process in one of two
 * places, chosen at open:
 *
 * - every rank of the file on one host: one 64-bit counter in an anonymous
 *   memory file that rank 0 makes and the other ranks map through
 *   /proc/<pid>/fd/<n>.  Reserving a stretch is one atomic fetch-and-add;
 *   the memory file has no name, so nothing is left behind however the job
 *   ends.
 * - ranks on several hosts: a hidden file beside the data file
 *   (".<name>.tern-shfp.<pid>-<n>", the suffix rank 0's, so that two opens
 *   of one file keep two pointers), holding the counter in its first 8
 *   bytes (native byte order: the hosts of one job share an architecture),
 *   read and rewritten under an fcntl write lock on those bytes.  The hosts
 *   share the data file's file system, so they share this file and its
 *   locks.  Rank 0 removes it at close; MPI_File_delete removes any a
 *   killed job left.  Where it cannot be made (a read-only directory), the
 *   file still opens and only the shared-pointer calls fail, naming it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bootstrap/anon_file.h"
#include "coll/coll.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "io/io_coll.h"

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2,
               "the shared file pointer needs lock-free 64-bit atomics");

#define HIDDEN_TAG ".tern-shfp."

/* ---- In memory, one host ---- */

static _Atomic int64_t *map_fd(int fd)
{
    void *p = mmap(NULL, sizeof(int64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : (_Atomic int64_t *)p;
}

static int attach_memory(const char *fn, struct tern_file *f)
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

/* ---- In a hidden file, several hosts ---- */

/* The hidden file of the open whose rank 0 had 'pid', try n, in the data
 * file's directory as this rank names it; NULL: no memory. */
static char *hidden_name(const char *path, long pid, int n)
{
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    size_t len = strlen(path) + sizeof HIDDEN_TAG + 48;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%.*s.%s" HIDDEN_TAG "%ld-%d", dirlen, path, slash ? slash + 1 : path, pid,
                 n);
    return s;
}

/* Rank 0: a new hidden file holding 0.  Returns 0 or errno; *n: the try
 * that made it. */
static int hidden_create(struct tern_file *f, int *n)
{
    int err = EEXIST;
    for (*n = 0; *n < 1000 && err == EEXIST; ++*n) {
        free(f->shfp_path);
        if (!(f->shfp_path = hidden_name(f->path, (long)getpid(), *n))) return ENOMEM;
        f->shfp_fd = open(f->shfp_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        err = f->shfp_fd < 0 ? errno : 0;
    }
    --*n;
    if (err) return err;
    int64_t zero = 0;
    if ((err = tern_io_pwrite_all(f->shfp_fd, (const char *)&zero, sizeof zero, 0))) {
        unlink(f->shfp_path);
        close(f->shfp_fd);
        f->shfp_fd = -1;
    }
    return err;
}

static void hidden_drop(struct tern_file *f, int remove)
{
    if (f->shfp_fd >= 0) close(f->shfp_fd);
    if (remove && f->shfp_path) unlink(f->shfp_path);
    f->shfp_fd = -1;
}

static int attach_file(struct tern_file *f)
{
    int n = 0;
    int64_t v[3] = {0, 0, 0}; /* rank 0's errno, pid, try */
    if (f->comm->rank == 0) {
        v[0] = hidden_create(f, &n);
        v[1] = getpid();
        v[2] = n;
    }
    int rc = MPI_SUCCESS;
    for (int k = 0; k < 3 && !rc; k++) rc = tern_io_bcast_i64(f->comm, &v[k], 0);
    int err = rc ? EIO : (int)v[0];
    if (!err && f->comm->rank != 0) {
        if (!(f->shfp_path = hidden_name(f->path, (long)v[1], (int)v[2])))
            err = ENOMEM;
        else if ((f->shfp_fd = open(f->shfp_path, O_RDWR | O_CLOEXEC)) < 0)
            err = errno;
    }
    int any = err;
    if (!rc) rc = tern_io_allreduce_max_int(f->comm, &any);
    if (rc) {
        hidden_drop(f, f->comm->rank == 0);
        return tern_io_raise(NULL, rc);
    }
    if (any) {
        hidden_drop(f, f->comm->rank == 0);
        f->shfp_err = any;
    }
    return MPI_SUCCESS;
}

/* The counter read, and rewritten unless op is GET, under the lock:
 * 0 or errno. */
enum shfp_op { GET, ADD, SET };
static int hidden_update(struct tern_file *f, enum shfp_op op, int64_t v, int64_t *old)
{
    int fd = f->shfp_fd, err = tern_io_lock_range(fd, op == GET ? F_RDLCK : F_WRLCK, 0, 8);
    if (err) return err;
    int64_t cur = 0;
    size_t got;
    err = tern_io_pread_all(fd, (char *)&cur, sizeof cur, 0, &got);
    if (!err && got != sizeof cur) err = EIO; /* someone cut the file short */
    if (!err && op != GET) {
        int64_t nv = op == ADD ? cur + v : v;
        err = tern_io_pwrite_all(fd, (const char *)&nv, sizeof nv, 0);
    }
    tern_io_lock_range(fd, F_UNLCK, 0, 8);
    *old = cur;
    return err;
}

/* ---- Either way ---- */

/* Whether f's ranks sit on more than one host. */
static int spans_hosts(const struct tern_comm *c)
{
    if (!tern_g.host_of) return 0;
    int h0 = tern_g.host_of[c->group->world[0]];
    for (int r = 1; r < c->size; r++)
        if (tern_g.host_of[c->group->world[r]] != h0) return 1;
    return 0;
}

int tern_file_shared_attach(const char *fn, struct tern_file *f)
{
    f->shfp_fd = -1;
    return spans_hosts(f->comm) ? attach_file(f) : attach_memory(fn, f);
}

void tern_file_shared_detach(struct tern_file *f)
{
    if (f->shared) munmap((void *)f->shared, sizeof(int64_t));
    f->shared = NULL;
    /* Rank 0 made the hidden file; close and open failures come here after
     * the other ranks are done with it. */
    if (f->comm) hidden_drop(f, f->comm->rank == 0);
    free(f->shfp_path);
    f->shfp_path = NULL;
}

static int op_raise(const char *fn, struct tern_file *f, enum shfp_op op, int64_t v, int64_t *old)
{
    if (f->shared) {
        if (op == ADD)
            *old = atomic_fetch_add_explicit(f->shared, v, memory_order_acq_rel);
        else if (op == SET)
            atomic_store_explicit(f->shared, v, memory_order_release);
        else
            *old = atomic_load_explicit(f->shared, memory_order_acquire);
        return MPI_SUCCESS;
    }
    if (f->shfp_err)
        return tern_io_err(f, tern_io_errno_class(f->shfp_err),
                           "%s: the ranks of '%s' span hosts, and the file that keeps its shared "
                           "file pointer (beside it) could not be made: %s",
                           fn, f->path, strerror(f->shfp_err));
    int err = hidden_update(f, op, v, old);
    return err ? tern_io_errno(f, fn, f->shfp_path, "cannot update the shared file pointer kept in",
                               err)
               : MPI_SUCCESS;
}

int tern_file_shared_fetch_add(const char *fn, struct tern_file *f, MPI_Offset n, MPI_Offset *at)
{
    int64_t old = 0;
    int rc = op_raise(fn, f, ADD, n, &old);
    *at = old;
    return rc;
}

int tern_file_shared_get(const char *fn, struct tern_file *f, MPI_Offset *pos)
{
    int64_t old = 0;
    int rc = op_raise(fn, f, GET, 0, &old);
    *pos = old;
    return rc;
}

int tern_file_shared_set(const char *fn, struct tern_file *f, MPI_Offset pos)
{
    int64_t old;
    return op_raise(fn, f, SET, pos, &old);
}

int tern_file_shared_reset(const char *fn, struct tern_file *f, MPI_Offset pos)
{
    if (f->comm->rank != 0 || f->shfp_err) return MPI_SUCCESS;
    return tern_file_shared_set(fn, f, pos);
}

void tern_file_shared_remove_stale(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    size_t blen = strlen(base);
    DIR *d = dir ? opendir(dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *s = e->d_name;
        if (s[0] != '.' || strncmp(s + 1, base, blen) != 0 ||
            strncmp(s + 1 + blen, HIDDEN_TAG, sizeof HIDDEN_TAG - 1) != 0)
            continue;
        char *p = malloc(strlen(dir) + strlen(s) + 2);
        if (p) {
            sprintf(p, "%s%s%s", dir, slash ? "" : "/", s);
            unlink(p);
        }
        free(p);
    }
    if (d) closedir(d);
    free(dir);
}

/* Each rank's stretch follows those of the lower ranks; rank 0 moves the
 * pointer past all of them at once and tells the others where they start,
 * or that it could not (the class of its error). */
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
    int64_t base = 0, failed = 0;
    int own = MPI_SUCCESS;
    if (!rc && f->comm->rank == 0 && (own = tern_file_shared_fetch_add(fn, f, total, &base)))
        failed = tern_err_class_of(own);
    if (!rc) rc = tern_io_bcast_i64(f->comm, &failed, 0);
    if (!rc) rc = tern_io_bcast_i64(f->comm, &base, 0);
    if (rc) return tern_io_raise(f, rc);
    if (own) return own;
    if (failed)
        return tern_io_err(f, (int)failed,
                           "%s: rank 0 could not move the shared file pointer of '%s'", fn,
                           f->path);
    return tern_file_xfer_all(fn, f, dir, base + before, buf, count, dt, bytes);
}
