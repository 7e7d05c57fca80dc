/* File objects: open, close, delete, size, sync, and the handle table
 * behind MPI_File_c2f/f2c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "comm/comm.h"
#include "core/errhandler.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "io/io_coll.h"

/* ---- Handles: a table of the open files, whose index is the Fortran
 * handle, so an MPI_File that is not in it is refused before any use. ---- */

static struct tern_file **files;
static int nfiles;

struct tern_file *tern_file_get(MPI_File h)
{
    struct tern_file *f = (struct tern_file *)(void *)h;
    if (!f) return NULL;
    for (int i = 0; i < nfiles; i++)
        if (files[i] == f) return f;
    return NULL;
}

MPI_Fint tern_file_c2f(MPI_File h)
{
    struct tern_file *f = tern_file_get(h);
    return f ? f->fint : 0;
}

MPI_File tern_file_f2c(MPI_Fint i)
{
    if (i <= 0 || i > nfiles || !files[i - 1]) return MPI_FILE_NULL;
    return tern_file_handle(files[i - 1]);
}

static int table_add(struct tern_file *f)
{
    int i = 0;
    while (i < nfiles && files[i]) i++;
    if (i == nfiles) {
        struct tern_file **n = realloc(files, (size_t)(nfiles + 8) * sizeof *n);
        if (!n) return 0;
        memset(n + nfiles, 0, 8 * sizeof *n);
        files = n;
        nfiles += 8;
    }
    files[i] = f;
    f->fint = i + 1;
    return 1;
}

static void table_remove(struct tern_file *f)
{
    if (f->fint > 0 && f->fint <= nfiles) files[f->fint - 1] = NULL;
}

/* ---- Errors ---- */

int tern_io_raise(struct tern_file *f, int code)
{
    struct tern_errhandler *e = f ? f->errh : tern_errh_file_null();
    return tern_err_raise_file(e, f ? tern_file_handle(f) : MPI_FILE_NULL, code);
}

int tern_io_err(struct tern_file *f, int errclass, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tern_io_raise(f, tern_err_make(errclass, "%s", msg));
}

int tern_io_errno_class(int err)
{
    switch (err) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC:
    case EFBIG: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP: return MPI_ERR_BAD_FILE;
    case ETXTBSY:
    case EBUSY: return MPI_ERR_FILE_IN_USE;
    case ENOMEM: return MPI_ERR_NO_MEM;
    default: return MPI_ERR_IO;
    }
}

int tern_io_errno(struct tern_file *f, const char *fn, const char *path, const char *what, int err)
{
    return tern_io_err(f, tern_io_errno_class(err), "%s: %s '%s': %s", fn, what, path,
                       strerror(err));
}

/* ---- Open ---- */

static int check_amode(const char *fn, int amode)
{
    const int known = MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_CREATE |
                      MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN |
                      MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
    int access = amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR);
    const char *why = NULL;
    if (amode & ~known)
        why = "has bits that are no MPI_MODE_* constant";
    else if (access != MPI_MODE_RDONLY && access != MPI_MODE_WRONLY && access != MPI_MODE_RDWR)
        why = "must hold exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR";
    else if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        why = "MPI_MODE_RDONLY cannot go with MPI_MODE_CREATE or MPI_MODE_EXCL";
    else if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        why = "MPI_MODE_RDWR cannot go with MPI_MODE_SEQUENTIAL";
    if (!why) return MPI_SUCCESS;
    return tern_io_err(NULL, MPI_ERR_AMODE, "%s: amode=0x%x %s", fn, (unsigned)amode, why);
}

static int open_flags(int amode)
{
    int fl = O_CLOEXEC;
    if (amode & MPI_MODE_RDONLY) fl |= O_RDONLY;
    if (amode & MPI_MODE_WRONLY) fl |= O_WRONLY;
    if (amode & MPI_MODE_RDWR) fl |= O_RDWR;
    return fl;
}

static void file_free(struct tern_file *f)
{
    if (f->fd >= 0) close(f->fd);
    tern_file_shared_detach(f);
    if (f->comm) tern_comm_release(f->comm);
    if (f->etype) tern_dt_release(f->etype);
    if (f->filetype) tern_dt_release(f->filetype);
    if (f->file_etype) tern_dt_release(f->file_etype);
    if (f->file_filetype) tern_dt_release(f->file_filetype);
    if (f->hints) tern_info_destroy(f->hints);
    if (f->errh) tern_errh_release(f->errh);
    table_remove(f);
    tern_file_cb_scratch_free(f);
    free(f->path);
    free(f);
}

/* The file's own communicator: a copy of c's group on fresh context ids,
 * whose errors come back as codes (the file's handler raises them). */
static int private_comm(struct tern_comm *c, struct tern_comm **out)
{
    uint32_t ctx;
    int rc = tern_ctx_agree(c, c->size, NULL, c->rank, TERN_TAG_CTX, NULL, 2, &ctx);
    if (rc) return rc;
    return tern_comm_build(&tern_errh_return, c->group, ctx, 0, out);
}

/* Rank 0 creates (so that MPI_MODE_EXCL means one creation), the others
 * open what it made; every rank learns the first failure. */
static int open_everywhere(const char *fn, struct tern_file *f)
{
    int fl = open_flags(f->amode);
    int err = 0;
    if (f->comm->rank == 0) {
        int create = (f->amode & MPI_MODE_CREATE) ? O_CREAT : 0;
        int excl = (f->amode & MPI_MODE_EXCL) ? O_EXCL | O_CREAT : 0;
        f->fd = open(f->path, fl | create | excl, 0666);
        if (f->fd < 0) err = errno;
    }
    int rc = tern_io_bcast_int(f->comm, &err, 0);
    if (rc) return tern_io_raise(NULL, rc);
    if (err) return tern_io_errno(NULL, fn, f->path, "cannot open", err);
    if (f->comm->rank != 0) {
        f->fd = open(f->path, fl);
        if (f->fd < 0) err = errno;
    }
    int any = err;
    rc = tern_io_allreduce_max_int(f->comm, &any);
    if (rc) return tern_io_raise(NULL, rc);
    if (err) return tern_io_errno(NULL, fn, f->path, "cannot open", err);
    if (any)
        return tern_io_err(NULL, tern_io_errno_class(any), "%s: another rank cannot open '%s': %s",
                           fn, f->path, strerror(any));
    return MPI_SUCCESS;
}

int tern_file_open(const char *fn, struct tern_comm *c, const char *path, int amode,
                   struct tern_info *info, struct tern_file **out)
{
    int rc = check_amode(fn, amode);
    if (rc) return rc;
    struct tern_file *f = calloc(1, sizeof *f);
    if (f) f->path = strdup(path);
    if (!f || !f->path || !table_add(f)) {
        if (f) free(f->path);
        free(f);
        return tern_io_err(NULL, MPI_ERR_NO_MEM, "%s: cannot allocate a file", fn);
    }
    f->fd = -1;
    f->shfp_fd = -1;
    f->amode = amode;
    f->errh = tern_errh_file_null(); /* a new file starts with MPI_FILE_NULL's handler */
    tern_errh_retain(f->errh);
    f->etype = tern_dt_get(MPI_BYTE);
    f->filetype = tern_dt_get(MPI_BYTE);
    tern_dt_retain(f->etype);
    tern_dt_retain(f->filetype);
    f->file_etype = f->etype; /* "native": the file holds the types as they are */
    f->file_filetype = f->filetype;
    f->datarep = TERN_DATAREP_NATIVE;
    if ((rc = private_comm(c, &f->comm))) {
        f->comm = NULL;
        file_free(f);
        return tern_io_raise(NULL, rc);
    }
    if ((rc = open_everywhere(fn, f)) || (rc = tern_file_shared_attach(fn, f))) {
        file_free(f);
        return rc;
    }
    if (tern_file_hints_set(f, info)) {
        file_free(f);
        return tern_io_err(NULL, MPI_ERR_NO_MEM, "%s: cannot keep the hints", fn);
    }
    if (amode & MPI_MODE_APPEND) {
        struct stat st;
        int src = MPI_SUCCESS;
        if (fstat(f->fd, &st) == 0) {
            f->pos = st.st_size;
            src = tern_file_shared_reset(fn, f, st.st_size);
        }
        /* Nobody reads the shared pointer before every rank has set up. */
        if ((rc = tern_coll_barrier(f->comm)) || src) {
            file_free(f);
            return src ? src : tern_io_raise(NULL, rc);
        }
    }
    *out = f;
    return MPI_SUCCESS;
}

int tern_file_close(const char *fn, struct tern_file *f)
{
    int rc = MPI_SUCCESS;
    tern_file_async_drain(f);
    if (close(f->fd) != 0) rc = tern_io_errno(f, fn, f->path, "cannot close", errno);
    f->fd = -1;
    /* Every rank has closed before the name goes, and nobody returns
     * before it has gone. */
    int crc = tern_coll_barrier(f->comm);
    int err = 0;
    if (f->amode & MPI_MODE_DELETE_ON_CLOSE && f->comm->rank == 0 && unlink(f->path) != 0 &&
        errno != ENOENT)
        err = errno;
    if (!crc) crc = tern_io_allreduce_max_int(f->comm, &err);
    if (!rc && err)
        rc = tern_io_errno(f, fn, f->path, "cannot delete (MPI_MODE_DELETE_ON_CLOSE)", err);
    if (!rc && crc) rc = tern_io_raise(f, crc);
    file_free(f);
    return rc;
}

int tern_file_delete(const char *fn, const char *path)
{
    if (unlink(path) == 0) {
        tern_file_shared_remove_stale(path);
        return MPI_SUCCESS;
    }
    return tern_io_errno(NULL, fn, path, "cannot delete", errno);
}

/* ---- Size, space, sync, atomicity ---- */

int tern_file_get_size(const char *fn, struct tern_file *f, MPI_Offset *size)
{
    struct stat st;
    if (fstat(f->fd, &st) != 0) return tern_io_errno(f, fn, f->path, "cannot stat", errno);
    *size = st.st_size;
    return MPI_SUCCESS;
}

/* Rank 0 has changed the file: nobody returns before it has, and every
 * rank learns its error. */
static int rank0_then_barrier(const char *fn, struct tern_file *f, int err, const char *what)
{
    int rc = tern_io_allreduce_max_int(f->comm, &err);
    if (rc) return tern_io_raise(f, rc);
    if (err) return tern_io_errno(f, fn, f->path, what, err);
    return MPI_SUCCESS;
}

int tern_file_set_size(const char *fn, struct tern_file *f, MPI_Offset size)
{
    int err = 0;
    if (f->comm->rank == 0 && ftruncate(f->fd, size) != 0) err = errno;
    return rank0_then_barrier(fn, f, err, "cannot resize");
}

int tern_file_preallocate(const char *fn, struct tern_file *f, MPI_Offset size)
{
    int err = 0;
    if (f->comm->rank == 0 && size > 0) {
        err = posix_fallocate(f->fd, 0, size);
        /* A file system without fallocate still gets the size. */
        if (err == EOPNOTSUPP || err == EINVAL) {
            struct stat st;
            err = 0;
            if (fstat(f->fd, &st) != 0)
                err = errno;
            else if (st.st_size < size && ftruncate(f->fd, size) != 0)
                err = errno;
        }
    }
    return rank0_then_barrier(fn, f, err, "cannot allocate space in");
}

int tern_file_sync(const char *fn, struct tern_file *f)
{
    int rc = MPI_SUCCESS;
    if (fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS)
        rc = tern_io_errno(f, fn, f->path, "cannot sync", errno);
    int brc = tern_coll_barrier(f->comm);
    return rc ? rc : brc ? tern_io_raise(f, brc) : MPI_SUCCESS;
}

int tern_file_set_atomicity(const char *fn, struct tern_file *f, int flag)
{
    (void)fn;
    f->atomic = flag != 0;
    int rc = tern_coll_barrier(f->comm);
    return rc ? tern_io_raise(f, rc) : MPI_SUCCESS;
}

int tern_file_barrier(struct tern_file *f)
{
    int rc = tern_coll_barrier(f->comm);
    return rc ? tern_io_raise(f, rc) : MPI_SUCCESS;
}
