/* MPI-IO benchmarks: every rank writes (or reads) 'size' bytes of one
 * shared file, in one call, through a file view:
 *   3d       a 3-D array of doubles, block-decomposed over the ranks
 *            (MPI_Dims_create); each rank's block is as near a cube as the
 *            size allows and its view an MPI_Type_create_subarray of the
 *            global array, so its rows lie apart in the file
 *   contig   contiguous per-rank blocks: rank r's size bytes at r * size
 *   strided  interleaved: blocks of --io-block bytes (default 1 KiB; the
 *            largest power of two up to it that divides the size) dealt
 *            round-robin, rank r's k-th block at (k * N + r) * block
 * collectively (MPI_File_write_at_all / read_at_all) or, for the strided
 * pattern, also independently (MPI_File_write_at / read_at).  The file
 * lives in --dir (default: the current directory) and is removed when the
 * benchmark ends, also when it fails.
 *
 * Each iteration: a barrier, then the clock runs around the one call (and
 * MPI_File_sync with --io-sync); the iteration's time is the slowest
 * rank's.  Bandwidth = bytes of all ranks / that time, in MB/s; the row
 * gives the median, minimum and maximum over the iterations (default 5,
 * after 1 warm-up).  Reads read a file written and synced just before
 * (untimed): unless the file exceeds memory they come from the page cache,
 * as they would for an application that reads back what it wrote.
 *
 * Validation (-c), per size: after a write (and MPI_File_sync and a
 * barrier) every byte of the file is read back with plain pread, each rank
 * a share of it, and compared with the pattern of the whole file (byte o of
 * the file is byte o of one pattern, so data at a wrong offset or from
 * another rank shows); the file's size must be the bytes of all ranks.
 * For reads, then, what the read call delivered is compared with the
 * pattern of the places it came from. */
#include "tb.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum pattern { P3D, PCONTIG, PSTRIDED };

struct io_kind {
    enum pattern pat;
    int write;
    int collective;
};

struct io {
    const struct io_kind *k;
    char path[PATH_MAX];
    int created; /* rank 0: the file exists and must go */
    MPI_File fh;
    char *buf;
    size_t size;  /* bytes of this rank */
    size_t total; /* bytes of all ranks */
    /* this rank's piece as runs of contiguous bytes, in file order: run i
     * is run_len bytes at file offset run_off(i), at i * run_len in buf */
    size_t nruns, run_len;
    int gsize[3], lsize[3], start[3]; /* 3d: global array, block, its corner (elements) */
    size_t block;                     /* strided */
    MPI_Datatype ftype;
    MPI_Datatype etype;
    MPI_Offset disp;
    int count; /* etypes of one call */
};

#define SEED 0x10f11e5u

static size_t run_off(const struct io *x, int rank, int nranks, size_t i)
{
    switch (x->k->pat) {
    case P3D: {
        size_t r0 = i / (size_t)x->lsize[1], r1 = i % (size_t)x->lsize[1];
        size_t row = ((size_t)x->start[0] + r0) * (size_t)x->gsize[1] + (size_t)x->start[1] + r1;
        return (row * (size_t)x->gsize[2] + (size_t)x->start[2]) * sizeof(double);
    }
    case PCONTIG: return (size_t)rank * x->size;
    default: return (i * (size_t)nranks + (size_t)rank) * x->block;
    }
}

/* a x b x c = n with a <= b <= c as near each other as n's factors allow
 * (a the largest divisor up to the cube root, b of the rest likewise) */
static void near_cube(size_t n, int out[3])
{
    size_t a = 1, b = 1;
    for (size_t i = 1; i * i * i <= n; i++)
        if (n % i == 0) a = i;
    size_t rest = n / a;
    for (size_t i = 1; i * i <= rest; i++)
        if (rest % i == 0) b = i;
    size_t v[3] = {a, b, rest / b};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (v[j] < v[i]) {
                size_t t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
    for (int i = 0; i < 3; i++) out[i] = (int)v[i];
}

/* The view and the runs for one size. */
static int shape(struct tb_ctx *c, struct io *x, size_t size)
{
    x->size = size;
    x->total = size * (size_t)c->size;
    if (x->ftype != MPI_DATATYPE_NULL) MPI_Type_free(&x->ftype);
    x->ftype = MPI_DATATYPE_NULL;
    switch (x->k->pat) {
    case P3D: {
        int dims[3] = {0, 0, 0}, p[3];
        TB_MPI(c, MPI_Dims_create(c->size, 3, dims));
        near_cube(size / sizeof(double), x->lsize);
        p[0] = c->rank / (dims[1] * dims[2]);
        p[1] = c->rank / dims[2] % dims[1];
        p[2] = c->rank % dims[2];
        for (int d = 0; d < 3; d++) {
            x->gsize[d] = dims[d] * x->lsize[d];
            x->start[d] = p[d] * x->lsize[d];
        }
        x->nruns = (size_t)x->lsize[0] * (size_t)x->lsize[1];
        x->run_len = (size_t)x->lsize[2] * sizeof(double);
        TB_MPI(c, MPI_Type_create_subarray(3, x->gsize, x->lsize, x->start, MPI_ORDER_C, MPI_DOUBLE,
                                           &x->ftype));
        x->etype = MPI_DOUBLE;
        x->disp = 0;
        x->count = (int)(size / sizeof(double));
        break;
    }
    case PCONTIG:
        x->nruns = 1;
        x->run_len = size;
        x->etype = MPI_BYTE;
        TB_MPI(c, MPI_Type_contiguous(1, MPI_BYTE, &x->ftype));
        x->disp = (MPI_Offset)((size_t)c->rank * size);
        x->count = (int)size;
        break;
    default: {
        size_t b = 1;
        while (b * 2 <= c->o->io_block && size % (b * 2) == 0) b *= 2;
        x->block = b;
        x->nruns = size / b;
        x->run_len = b;
        MPI_Datatype vec;
        TB_MPI(c, MPI_Type_create_hvector((int)x->nruns, (int)b, (MPI_Aint)(b * (size_t)c->size),
                                          MPI_BYTE, &vec));
        int rc = MPI_Type_create_resized(vec, 0, (MPI_Aint)x->total, &x->ftype);
        MPI_Type_free(&vec);
        if (rc != MPI_SUCCESS) return tb_mpi_error(c, "MPI_Type_create_resized", rc);
        x->etype = MPI_BYTE;
        x->disp = (MPI_Offset)((size_t)c->rank * b);
        x->count = (int)size;
        break;
    }
    }
    TB_MPI(c, MPI_Type_commit(&x->ftype));
    /* an empty file for every size: a write that misses a place leaves a
     * hole of zeros, which the check sees */
    TB_MPI(c, MPI_File_set_size(x->fh, 0));
    TB_MPI(c, MPI_File_set_view(x->fh, x->disp, x->etype, x->ftype, "native", MPI_INFO_NULL));
    return 0;
}

static void fill(struct tb_ctx *c, struct io *x)
{
    for (size_t i = 0; i < x->nruns; i++)
        tb_fill_at(x->buf + i * x->run_len, x->run_len, SEED, run_off(x, c->rank, c->size, i));
}

static int transfer(struct tb_ctx *c, struct io *x, int write)
{
    MPI_Status st;
    if (write && x->k->collective)
        TB_MPI(c, MPI_File_write_at_all(x->fh, 0, x->buf, x->count, x->etype, &st));
    else if (write)
        TB_MPI(c, MPI_File_write_at(x->fh, 0, x->buf, x->count, x->etype, &st));
    else if (x->k->collective)
        TB_MPI(c, MPI_File_read_at_all(x->fh, 0, x->buf, x->count, x->etype, &st));
    else
        TB_MPI(c, MPI_File_read_at(x->fh, 0, x->buf, x->count, x->etype, &st));
    int got = 0;
    TB_MPI(c, MPI_Get_count(&st, x->etype, &got));
    if (got != x->count)
        return tb_fail(c, "rank %d: %s moved %d of %d elements", c->rank, write ? "write" : "read",
                       got, x->count);
    return 0;
}

/* Writes the file once, untimed, and makes it visible to every rank. */
static int write_file(struct tb_ctx *c, struct io *x)
{
    fill(c, x);
    TB_TRY(transfer(c, x, 1));
    TB_MPI(c, MPI_File_sync(x->fh));
    TB_MPI(c, MPI_Barrier(c->comm));
    TB_MPI(c, MPI_File_sync(x->fh));
    return 0;
}

/* The file as a whole, read with plain pread: each rank checks a share. */
#define CHUNK ((size_t)8 << 20)

static int check_file(struct tb_ctx *c, struct io *x)
{
    int fd = open(x->path, O_RDONLY);
    if (fd < 0) return tb_fail(c, "rank %d: cannot open %s: %s", c->rank, x->path, strerror(errno));
    struct stat sb;
    int rc = 0;
    if (fstat(fd, &sb) != 0 || (size_t)sb.st_size != x->total) {
        rc = tb_fail(c, "validation: rank %d, the file holds %lld bytes, expected %zu", c->rank,
                     (long long)sb.st_size, x->total);
    }
    size_t share = (x->total + (size_t)c->size - 1) / (size_t)c->size;
    size_t lo = share * (size_t)c->rank, hi = lo + share < x->total ? lo + share : x->total;
    char *chunk = rc ? NULL : malloc(CHUNK);
    if (!rc && !chunk) rc = tb_fail(c, "cannot allocate %zu bytes", CHUNK);
    for (size_t at = lo; !rc && at < hi; at += CHUNK) {
        size_t n = hi - at < CHUNK ? hi - at : CHUNK, got = 0;
        while (got < n) {
            ssize_t r = pread(fd, chunk + got, n - got, (off_t)(at + got));
            if (r <= 0) break;
            got += (size_t)r;
        }
        char what[96];
        snprintf(what, sizeof what, "file bytes %zu..%zu after the write", at, at + n - 1);
        if (got != n)
            rc = tb_fail(c, "rank %d: cannot read %s at %zu", c->rank, x->path, at);
        else if (x->k->write)
            rc = tb_check_at(c, chunk, n, SEED, at, what);
        else /* --corrupt-for-test aims at what the read benchmark reads */
            rc = tb_check_sent_at(c, chunk, n, SEED, at, what);
    }
    free(chunk);
    close(fd);
    return rc;
}

/* What a read delivered: every run holds the pattern of its place. */
static int check_read(struct tb_ctx *c, struct io *x)
{
    tb_tamper(c, x->buf, x->size);
    for (size_t i = 0; i < x->nruns; i++) {
        size_t off = run_off(x, c->rank, c->size, i);
        char what[96];
        snprintf(what, sizeof what, "data read, piece %zu of %zu (file offset %zu)", i, x->nruns,
                 off);
        TB_TRY(tb_check_sent_at(c, x->buf + i * x->run_len, x->run_len, SEED, off, what));
    }
    return 0;
}

static int validate(struct tb_ctx *c, struct io *x)
{
    TB_TRY(write_file(c, x));
    TB_TRY(check_file(c, x));
    if (x->k->write) return 0;
    memset(x->buf, 0, x->size);
    TB_TRY(transfer(c, x, 0));
    return check_read(c, x);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int one_size(struct tb_ctx *c, struct io *x, double *bw, int iters, int warm)
{
    if (c->o->validate) {
        TB_TRY(tb_validated(c, x->size, validate(c, x)));
    } else if (!x->k->write) {
        TB_TRY(write_file(c, x));
    } else {
        fill(c, x);
    }
    for (int i = 0; i < warm + iters; i++) {
        TB_MPI(c, MPI_Barrier(c->comm));
        double t0 = MPI_Wtime();
        TB_TRY(transfer(c, x, x->k->write));
        if (x->k->write && c->o->io_sync) TB_MPI(c, MPI_File_sync(x->fh));
        double t = MPI_Wtime() - t0, slowest = t;
        TB_MPI(c, MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, c->comm));
        if (i >= warm) bw[i - warm] = slowest > 0 ? (double)x->total / slowest / 1e6 : 0;
    }
    qsort(bw, (size_t)iters, sizeof *bw, cmp_double);
    double row[4] = {(double)x->size,
                     iters % 2 ? bw[iters / 2] : (bw[iters / 2 - 1] + bw[iters / 2]) / 2, bw[0],
                     bw[iters - 1]};
    tb_row(c, row);
    return 0;
}

static int run(struct tb_ctx *c, struct io *x)
{
    /* one name for all ranks, unique to this job and benchmark */
    long id[2] = {(long)getpid(), (long)(MPI_Wtime() * 1e6) % 1000000};
    TB_MPI(c, MPI_Bcast(id, 2, MPI_LONG, 0, c->comm));
    if (snprintf(x->path, sizeof x->path, "%s/tern-bench.%s.%ld.%ld.tmp", c->o->dir, c->b->name,
                 id[0], id[1]) >= (int)sizeof x->path)
        return tb_fail(c, "--dir %s: path too long", c->o->dir);
    int iters = c->o->iters ? c->o->iters : 5, warm = c->o->warmup >= 0 ? c->o->warmup : 1;
    double *bw = tb_alloc(c, (size_t)iters * sizeof *bw);
    x->buf = tb_alloc(c, tb_max_size(c));
    if (!bw || !x->buf) return -1;
    snprintf(c->note, sizeof c->note,
             "file in %s; size per rank; MB/s of all ranks, over %d iterations%s", c->o->dir, iters,
             c->o->io_sync ? "; MPI_File_sync timed" : "");
    static const struct tb_col cols[] = {{"size", "B", 0, 0},
                                         {"bandwidth", "MB/s", 2, +1},
                                         {"min", "MB/s", 2, +1},
                                         {"max", "MB/s", 2, +1}};
    tb_columns(c, 4, cols);
    int rc =
        MPI_File_open(c->comm, x->path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &x->fh);
    x->created = c->rank == 0;
    if (rc != MPI_SUCCESS) return tb_mpi_error(c, "MPI_File_open", rc);
    for (size_t size = (size_t)-1; tb_next_size(c, &size);) {
        if (!size) continue;
        if (size > INT_MAX) return tb_fail(c, "%zu bytes per rank: at most 1 GiB", size);
        TB_TRY(shape(c, x, size));
        TB_TRY(one_size(c, x, bw, iters, warm));
    }
    return 0;
}

static int run_io(struct tb_ctx *c)
{
    struct io x;
    memset(&x, 0, sizeof x);
    x.k = c->b->arg;
    x.fh = MPI_FILE_NULL;
    x.ftype = MPI_DATATYPE_NULL;
    int rc = run(c, &x);
    /* the file goes whatever happened */
    if (x.fh != MPI_FILE_NULL) MPI_File_close(&x.fh);
    if (x.ftype != MPI_DATATYPE_NULL) MPI_Type_free(&x.ftype);
    if (x.created && unlink(x.path) != 0 && errno != ENOENT && c->status == TB_OK)
        tb_fail(c, "cannot remove %s: %s", x.path, strerror(errno));
    return rc;
}

static const struct io_kind w3d = {P3D, 1, 1}, r3d = {P3D, 0, 1};
static const struct io_kind wcontig = {PCONTIG, 1, 1}, rcontig = {PCONTIG, 0, 1};
static const struct io_kind wstrided = {PSTRIDED, 1, 1}, rstrided = {PSTRIDED, 0, 1};
static const struct io_kind wind = {PSTRIDED, 1, 0}, rind = {PSTRIDED, 0, 0};

#define MiB(n) ((size_t)(n) << 20)

const struct tb_bench tb_io_benches[] = {
    {"io-write-3d", "io", "collective write of a 3-D block-decomposed array (subarray views)", 1,
     MiB(1), MiB(64), 8, run_io, &w3d},
    {"io-read-3d", "io", "collective read of a 3-D block-decomposed array (subarray views)", 1,
     MiB(1), MiB(64), 8, run_io, &r3d},
    {"io-write-contig", "io", "collective write of contiguous per-rank blocks", 1, MiB(1), MiB(64),
     1, run_io, &wcontig},
    {"io-read-contig", "io", "collective read of contiguous per-rank blocks", 1, MiB(1), MiB(64), 1,
     run_io, &rcontig},
    {"io-write-strided", "io", "collective write, blocks interleaved round-robin over the ranks", 1,
     MiB(1), MiB(64), 1, run_io, &wstrided},
    {"io-read-strided", "io", "collective read, blocks interleaved round-robin over the ranks", 1,
     MiB(1), MiB(64), 1, run_io, &rstrided},
    {"io-write-strided-indep", "io", "independent write, blocks interleaved over the ranks", 1,
     MiB(1), MiB(64), 1, run_io, &wind},
    {"io-read-strided-indep", "io", "independent read, blocks interleaved over the ranks", 1,
     MiB(1), MiB(64), 1, run_io, &rind},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL},
};
