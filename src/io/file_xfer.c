/* Moving typed data between memory and a file's view.  The view gives the
 * file's pieces, the memory datatype gives iovecs, and each piece of the
 * file is one preadv/pwritev with the memory iovecs it takes.  Many small
 * pieces close together are read as one covering block instead (data
 * sieving), and written that way under a byte-range lock when the hints
 * ask for it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/objects.h"
#include "datatype/datatype.h"
#include "io/io.h"

#define PIECES 64
#define MEM_IOV 256
/* Sieving pays when the pieces are short: below this mean length. */
#define SIEVE_PIECE_MAX 4096

int tern_io_lock_range(int fd, int type, MPI_Offset from, MPI_Offset to)
{
    struct flock l = {
        .l_type = (short)type, .l_whence = SEEK_SET, .l_start = from, .l_len = to - from};
    while (fcntl(fd, F_SETLKW, &l) != 0)
        if (errno != EINTR) return errno;
    return 0;
}

/* One contiguous stretch of the file against bytes [mpos, mpos + len) of
 * the memory stream.  *moved < len only at the end of the file (reads).
 * Returns 0 or errno. */
static int piece_io(const struct tern_file *f, enum tern_io_dir dir, const struct tern_dt_view *mv,
                    size_t mpos, MPI_Offset off, size_t len, size_t *moved)
{
    struct iovec iov[MEM_IOV];
    *moved = 0;
    while (len > 0) {
        size_t covered, n = tern_dt_view_iov(mv, mpos, len, iov, MEM_IOV, &covered);
        if (n == 0) break;
        ssize_t r = dir == TERN_IO_READ ? preadv(f->fd, iov, (int)n, off)
                                        : pwritev(f->fd, iov, (int)n, off);
        if (r < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (r == 0) break; /* end of file */
        *moved += (size_t)r;
        mpos += (size_t)r;
        off += r;
        len -= (size_t)r;
    }
    return 0;
}

int tern_io_pread_all(int fd, char *buf, size_t len, MPI_Offset off, size_t *got)
{
    *got = 0;
    while (*got < len) {
        ssize_t r = pread(fd, buf + *got, len - *got, off + (MPI_Offset)*got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errno;
        if (r == 0) break;
        *got += (size_t)r;
    }
    return 0;
}

int tern_io_pwrite_all(int fd, const char *buf, size_t len, MPI_Offset off)
{
    size_t done = 0;
    while (done < len) {
        ssize_t r = pwrite(fd, buf + done, len - done, off + (MPI_Offset)done);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errno;
        done += (size_t)r;
    }
    return 0;
}

int tern_io_rwv_all(int fd, enum tern_io_dir dir, struct iovec *iov, size_t n, MPI_Offset off,
                    size_t *moved)
{
    *moved = 0;
    while (n > 0) {
        int cnt = n > IOV_MAX ? IOV_MAX : (int)n;
        ssize_t r = dir == TERN_IO_READ ? preadv(fd, iov, cnt, off) : pwritev(fd, iov, cnt, off);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errno;
        if (r == 0) break; /* end of file */
        *moved += (size_t)r;
        off += r;
        for (size_t left = (size_t)r; left > 0;) {
            size_t take = left < iov->iov_len ? left : iov->iov_len;
            iov->iov_base = (char *)iov->iov_base + take;
            iov->iov_len -= take;
            left -= take;
            if (iov->iov_len == 0) iov++, n--;
        }
        while (n > 0 && iov->iov_len == 0) iov++, n--;
    }
    return 0;
}

/* Pieces p[0..n) through one covering block: read it, then copy out (read)
 * or copy in and write it back (write, under a lock unless the whole access
 * holds one).  *moved: the stream bytes done.  Returns 0 or errno, and
 * what failed in *what. */
static int sieve(const struct tern_file *f, enum tern_io_dir dir, const struct tern_dt_view *mv,
                 size_t mpos, const struct tern_io_piece *p, size_t n, char *block, size_t *moved,
                 const char **what)
{
    MPI_Offset base = p[0].off;
    size_t span = (size_t)(p[n - 1].off + (MPI_Offset)p[n - 1].len - base), got;
    *moved = 0;
    int err = 0;
    if (dir == TERN_IO_WRITE && !f->atomic)
        err = tern_io_lock_range(f->fd, F_WRLCK, base, base + (MPI_Offset)span);
    if (err) {
        *what = "cannot lock a range of";
        return err;
    }
    *what = "cannot read";
    err = tern_io_pread_all(f->fd, block, span, base, &got);
    if (!err && dir == TERN_IO_READ) {
        for (size_t i = 0; i < n; i++) {
            size_t at = (size_t)(p[i].off - base);
            size_t len = at >= got ? 0 : at + p[i].len <= got ? p[i].len : got - at;
            tern_dt_view_unpack(mv, mpos + *moved, block + at, len);
            *moved += len;
            if (len < p[i].len) break; /* end of file */
        }
    } else if (!err) {
        if (got < span) memset(block + got, 0, span - got);
        for (size_t i = 0; i < n; i++) {
            tern_dt_view_pack(mv, mpos + *moved, block + (p[i].off - base), p[i].len);
            *moved += p[i].len;
        }
        *what = "cannot write";
        err = tern_io_pwrite_all(f->fd, block, span, base);
        if (err) *moved = 0;
    }
    if (dir == TERN_IO_WRITE && !f->atomic)
        tern_io_lock_range(f->fd, F_UNLCK, base, base + (MPI_Offset)span);
    return err;
}

/* Whether pieces p[0..n) go through a covering block of at most 'cap'
 * bytes: romio_ds_read/write "enable" always, "disable" never; by default
 * reads of short pieces do, and writes do not (sieving a write rewrites the
 * holes, which other ranks writing there without the lock would lose). */
static int sieve_pays(const struct tern_file *f, enum tern_io_dir dir,
                      const struct tern_io_piece *p, size_t n, size_t cap)
{
    if (n < 2) return 0;
    if (dir == TERN_IO_WRITE && (f->amode & MPI_MODE_WRONLY)) return 0; /* cannot read the holes */
    int sw = tern_file_hint_switch(f, dir == TERN_IO_READ ? "romio_ds_read" : "romio_ds_write");
    size_t span = (size_t)(p[n - 1].off + (MPI_Offset)p[n - 1].len - p[0].off), sum = 0;
    if (sw == 0 || span > cap) return 0;
    if (sw == 1) return 1;
    if (dir == TERN_IO_WRITE) return 0;
    for (size_t i = 0; i < n; i++) sum += p[i].len;
    return sum / n < SIEVE_PIECE_MAX && span <= 4 * sum;
}

void tern_file_access_range(const struct tern_file *f, MPI_Offset off, size_t total, MPI_Offset *lo,
                            MPI_Offset *hi)
{
    struct tern_io_piece last;
    size_t got;
    *lo = tern_file_byte_offset(f, off);
    tern_file_view_pieces(f, (size_t)off * f->file_etype->size + total - 1, 1, &last, 1, &got);
    *hi = last.off + (MPI_Offset)last.len;
}

int tern_file_xfer_raw(const struct tern_file *f, enum tern_io_dir dir, MPI_Offset off, void *buf,
                       size_t count, const struct tern_datatype *dt, size_t *bytes,
                       const char **what)
{
    *bytes = 0;
    *what = dir == TERN_IO_READ ? "cannot read" : "cannot write";
    size_t total = count * dt->size;
    if (total == 0) return 0;
    struct tern_dt_view mv;
    tern_dt_view_local(&mv, dt, buf, count);
    size_t from = (size_t)off * f->file_etype->size;
    MPI_Offset lo = 0, hi = 0;
    int err = 0;
    if (f->atomic) {
        /* One lock over the whole access makes it atomic against the other
         * ranks' accesses, which take theirs. */
        tern_file_access_range(f, off, total, &lo, &hi);
        if ((err = tern_io_lock_range(f->fd, dir == TERN_IO_READ ? F_RDLCK : F_WRLCK, lo, hi))) {
            *what = "cannot lock a range of";
            return err;
        }
    }
    size_t cap =
        tern_file_hint_size(f, dir == TERN_IO_READ ? "ind_rd_buffer_size" : "ind_wr_buffer_size",
                            dir == TERN_IO_READ ? 4194304 : 524288);
    char *block = NULL;
    size_t done = 0;
    int eof = 0;
    while (!err && !eof && done < total) {
        struct tern_io_piece p[PIECES];
        size_t got, n = tern_file_view_pieces(f, from + done, total - done, p, PIECES, &got);
        if (n == 0) break;
        if (sieve_pays(f, dir, p, n, cap) && (block || (block = malloc(cap)))) {
            size_t moved;
            err = sieve(f, dir, &mv, done, p, n, block, &moved, what);
            eof = moved < got;
            done += moved;
            continue;
        }
        for (size_t i = 0; i < n && !err; i++) {
            size_t moved;
            err = piece_io(f, dir, &mv, done, p[i].off, p[i].len, &moved);
            done += moved;
            if (moved < p[i].len) {
                eof = 1;
                break;
            }
        }
    }
    free(block);
    if (f->atomic) tern_io_lock_range(f->fd, F_UNLCK, lo, hi);
    *bytes = done;
    return err;
}

int tern_file_access_allowed(const char *fn, struct tern_file *f, enum tern_io_dir dir)
{
    if (dir == TERN_IO_WRITE && (f->amode & MPI_MODE_RDONLY))
        return tern_io_err(f, MPI_ERR_READ_ONLY, "%s: '%s' was opened MPI_MODE_RDONLY", fn,
                           f->path);
    if (dir == TERN_IO_READ && (f->amode & MPI_MODE_WRONLY))
        return tern_io_err(f, MPI_ERR_ACCESS, "%s: '%s' was opened MPI_MODE_WRONLY", fn, f->path);
    return MPI_SUCCESS;
}

int tern_file_xfer_as_is(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                         void *buf, size_t count, struct tern_datatype *dt, size_t *bytes)
{
    *bytes = 0;
    int rc = tern_file_access_allowed(fn, f, dir);
    if (rc) return rc;
    if (off < 0)
        return tern_io_err(f, MPI_ERR_ARG, "%s: offset %lld is negative", fn, (long long)off);
    const char *what;
    int err = tern_file_xfer_raw(f, dir, off, buf, count, dt, bytes, &what);
    if (dir == TERN_IO_READ && *bytes) {
        MPI_Offset lo, hi;
        tern_file_access_range(f, off, *bytes, &lo, &hi);
        tern_file_read_done(f, lo, hi);
    }
    return err ? tern_io_errno(f, fn, f->path, what, err) : MPI_SUCCESS;
}

int tern_file_xfer(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                   void *buf, size_t count, struct tern_datatype *dt, size_t *bytes)
{
    struct tern_io_conv c;
    size_t moved;
    *bytes = 0;
    int rc = tern_file_access_allowed(fn, f, dir);
    if (rc) return rc;
    if ((rc = tern_file_conv_begin(fn, f, dir, buf, count, dt, &c))) return tern_io_raise(f, rc);
    if ((rc = tern_file_xfer_as_is(fn, f, dir, off, c.buf, c.count, c.dt, &moved))) {
        tern_file_conv_free(&c);
        return rc;
    }
    rc = tern_file_conv_end(fn, f, dir, &c, buf, count, dt, moved, bytes);
    return rc ? tern_io_raise(f, rc) : MPI_SUCCESS;
}
