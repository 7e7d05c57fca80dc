/* Data representations other than "native".  "external32" files are
 * checked byte for byte against big-endian values laid out by hand (read
 * with pread; files for reading written with pwrite), for int, double, a
 * struct and a vector filetype of MPI_LONG (4 bytes there), collective and
 * independent, blocking, nonblocking, split, shared and ordered, with the
 * positions and extents counted in the file's representation.  A
 * registered representation that stores each int as its negation in 64
 * bits is checked on disk, with its conversion functions' chunks and
 * positions; one registered with MPI_Register_datarep_c byte-swaps (and
 * one has no read function); conversion and extent functions that fail
 * raise MPI_ERR_CONVERSION on the file's handler.  A nonblocking read of a
 * derived type freed before MPI_Wait converts with the type's handle still
 * valid, and the handle dies with the request. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>

#include "io_common.h"

static int rank, size;

static void put_be(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

static uint64_t get_be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The whole file, read by rank 0 with plain POSIX calls. */
static unsigned char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0, "cannot open %s", path);
    off_t n = lseek(fd, 0, SEEK_END);
    unsigned char *b = malloc((size_t)n + 1);
    CHECK(pread(fd, b, (size_t)n, 0) == n, "short read of %s", path);
    close(fd);
    *len = (size_t)n;
    return b;
}

/* A file rank 0 writes by hand, the others waiting for it. */
static void spit(const char *path, const unsigned char *b, size_t len)
{
    if (rank == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        CHECK(fd >= 0, "cannot create %s", path);
        CHECK(pwrite(fd, b, len, 0) == (ssize_t)len, "short write of %s", path);
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static MPI_File open_rw(const char *path)
{
    MPI_File fh;
    CHECK_MPI(
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    return fh;
}

static void close_delete(MPI_File *fh, const char *path)
{
    CHECK_MPI(MPI_File_close(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void check_count(MPI_Status *s, MPI_Datatype dt, int want, const char *what)
{
    int n = -1;
    MPI_Get_count(s, dt, &n);
    CHECK(n == want, "%s: count %d, expected %d", what, n, want);
}

static void check_type_extent(MPI_File fh, MPI_Datatype dt, MPI_Aint want, const char *what)
{
    MPI_Aint ext = -1;
    CHECK_MPI(MPI_File_get_type_extent(fh, dt, &ext));
    CHECK(ext == want, "file extent of %s: %ld, expected %ld", what, (long)ext, (long)want);
}

/* ---- external32: int ---- */

#define NI 10
#define HDR 8
static int ival(int r, int i) { return (i % 2 ? -1 : 1) * (r * 1000 + i) * 65537; }

static void x32_int(int coll)
{
    const char *path = io_path("x32-int");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    CHECK_MPI(MPI_File_set_view(fh, HDR, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    check_type_extent(fh, MPI_INT, 4, "MPI_INT");
    check_type_extent(fh, MPI_LONG, 4, "MPI_LONG");
    check_type_extent(fh, MPI_SHORT, 2, "MPI_SHORT");
    check_type_extent(fh, MPI_DOUBLE, 8, "MPI_DOUBLE");
    check_type_extent(fh, MPI_LONG_DOUBLE, 16, "MPI_LONG_DOUBLE");
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp, pos;
    MPI_Datatype et, ft;
    CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "external32") == 0 && disp == HDR && et == MPI_INT && ft == MPI_INT,
          "get_view: %s, disp %lld", rep, (long long)disp);
    int v[NI], w[NI];
    for (int i = 0; i < NI; i++) v[i] = ival(rank, i);
    if (coll) {
        CHECK_MPI(MPI_File_seek(fh, rank * NI, MPI_SEEK_SET));
        CHECK_MPI(MPI_File_write_all(fh, v, NI, MPI_INT, &s));
        CHECK_MPI(MPI_File_get_position(fh, &pos));
        CHECK(pos == rank * NI + NI, "position %lld after write_all", (long long)pos);
    } else {
        CHECK_MPI(MPI_File_write_at(fh, rank * NI, v, NI, MPI_INT, &s));
    }
    check_count(&s, MPI_INT, NI, "external32 int write");
    CHECK_MPI(MPI_File_get_byte_offset(fh, rank * NI + 3, &pos));
    CHECK(pos == HDR + (rank * NI + 3) * 4, "byte offset %lld", (long long)pos);
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == HDR + (size_t)size * NI * 4, "external32 int file of %zu bytes", len);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < NI; i++) {
                uint32_t got = (uint32_t)get_be(b + HDR + (r * NI + i) * 4, 4);
                CHECK(got == (uint32_t)ival(r, i), "int (%d,%d) on disk 0x%08x, expected 0x%08x", r,
                      i, got, (uint32_t)ival(r, i));
            }
        free(b);
    }
    /* The same data back through the view, then a file laid out by hand. */
    if (coll)
        CHECK_MPI(MPI_File_read_at_all(fh, rank * NI, w, NI, MPI_INT, &s));
    else
        CHECK_MPI(MPI_File_read_at(fh, rank * NI, w, NI, MPI_INT, &s));
    check_count(&s, MPI_INT, NI, "external32 int read");
    CHECK(memcmp(v, w, sizeof v) == 0, "external32 ints read back differ");
    close_delete(&fh, path);

    size_t len = HDR + (size_t)size * NI * 4;
    unsigned char *b = calloc(1, len);
    for (int k = 0; k < size * NI; k++) put_be(b + HDR + k * 4, (uint32_t)(k * 31 - 500), 4);
    spit(path, b, len);
    free(b);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_view(fh, HDR, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    if (coll)
        CHECK_MPI(MPI_File_read_at_all(fh, rank * NI, w, NI, MPI_INT, &s));
    else
        CHECK_MPI(MPI_File_read_at(fh, rank * NI, w, NI, MPI_INT, &s));
    for (int i = 0; i < NI; i++)
        CHECK(w[i] == (rank * NI + i) * 31 - 500, "hand-made int %d read as %d", i, w[i]);
    /* MPI_SEEK_END counts etypes of the file: size * NI ints. */
    CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == size * NI, "end position %lld, expected %d", (long long)pos, size * NI);
    /* Past the end: nothing read. */
    CHECK_MPI(MPI_File_read(fh, w, 1, MPI_INT, &s));
    check_count(&s, MPI_INT, 0, "read past the end");
    close_delete(&fh, path);
}

/* ---- external32: double, nonblocking and split ---- */

static double dval(int r, int i) { return (r * 100 + i) * 0.75 - 1e10 * (i % 2); }

static void x32_double(int coll)
{
    const char *path = io_path("x32-double");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    MPI_Request q;
    double v[NI], w[NI];
    for (int i = 0; i < NI; i++) v[i] = dval(rank, i);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
    if (coll) {
        CHECK_MPI(MPI_File_write_at_all_begin(fh, rank * NI, v, NI, MPI_DOUBLE));
        CHECK_MPI(MPI_File_write_at_all_end(fh, v, &s));
    } else {
        CHECK_MPI(MPI_File_iwrite_at(fh, rank * NI, v, NI, MPI_DOUBLE, &q));
        CHECK_MPI(MPI_Wait(&q, &s));
    }
    check_count(&s, MPI_DOUBLE, NI, "external32 double write");
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == (size_t)size * NI * 8, "external32 double file of %zu bytes", len);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < NI; i++)
                CHECK(get_be(b + (r * NI + i) * 8, 8) == dbits(dval(r, i)),
                      "double (%d,%d) on disk is not big-endian IEEE", r, i);
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (coll) {
        CHECK_MPI(MPI_File_iread_at_all(fh, rank * NI, w, NI, MPI_DOUBLE, &q));
    } else {
        CHECK_MPI(MPI_File_seek(fh, rank * NI, MPI_SEEK_SET));
        CHECK_MPI(MPI_File_iread(fh, w, NI, MPI_DOUBLE, &q));
    }
    CHECK_MPI(MPI_Wait(&q, &s));
    check_count(&s, MPI_DOUBLE, NI, "external32 double read");
    CHECK(memcmp(v, w, sizeof v) == 0, "external32 doubles read back differ");
    close_delete(&fh, path);
}

/* ---- external32: a struct (byte displacements: the file's own) ---- */

struct rec {
    int a;
    double b;
    long c;
    short d;
};
#define NR 3
#define REC_FILE 18 /* 4 + 8 + 4 + 2 */

static struct rec rval(int r, int k)
{
    struct rec x = {-(r * 10 + k) - 1, (r * 10 + k) / 8.0, -70000L * (r + 1) + k,
                    (short)(-300 + r * 10 + k)};
    return x;
}

static void x32_struct(int coll)
{
    int bl[4] = {1, 1, 1, 1};
    MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_LONG, MPI_SHORT}, tmp, mem, file;
    MPI_Aint mdisp[4] = {offsetof(struct rec, a), offsetof(struct rec, b), offsetof(struct rec, c),
                         offsetof(struct rec, d)};
    MPI_Aint fdisp[4] = {0, 4, 12, 16};
    MPI_Type_create_struct(4, bl, mdisp, types, &tmp);
    MPI_Type_create_resized(tmp, 0, sizeof(struct rec), &mem);
    MPI_Type_commit(&mem);
    MPI_Type_free(&tmp);
    MPI_Type_create_struct(4, bl, fdisp, types, &file);
    MPI_Type_commit(&file);

    const char *path = io_path("x32-struct");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    CHECK_MPI(MPI_File_set_view(fh, 0, file, file, "external32", MPI_INFO_NULL));
    check_type_extent(fh, file, REC_FILE, "the file's struct");
    /* Byte displacements stay: the memory struct's resized extent is kept. */
    check_type_extent(fh, mem, sizeof(struct rec), "the memory struct");
    struct rec v[NR], w[NR];
    memset(w, 0, sizeof w);
    for (int k = 0; k < NR; k++) v[k] = rval(rank, k);
    if (coll)
        CHECK_MPI(MPI_File_write_at_all(fh, rank * NR, v, NR, mem, &s));
    else
        CHECK_MPI(MPI_File_write_at(fh, rank * NR, v, NR, mem, &s));
    check_count(&s, mem, NR, "external32 struct write");
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == (size_t)size * NR * REC_FILE, "external32 struct file of %zu bytes", len);
        for (int r = 0; r < size; r++)
            for (int k = 0; k < NR; k++) {
                const unsigned char *p = b + (r * NR + k) * REC_FILE;
                struct rec x = rval(r, k);
                CHECK(get_be(p, 4) == (uint32_t)x.a && get_be(p + 4, 8) == dbits(x.b) &&
                          get_be(p + 12, 4) == (uint32_t)x.c && get_be(p + 16, 2) == (uint16_t)x.d,
                      "struct (%d,%d) on disk differs", r, k);
            }
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (coll)
        CHECK_MPI(MPI_File_read_at_all(fh, rank * NR, w, NR, mem, &s));
    else
        CHECK_MPI(MPI_File_read_at(fh, rank * NR, w, NR, mem, &s));
    check_count(&s, mem, NR, "external32 struct read");
    for (int k = 0; k < NR; k++)
        CHECK(w[k].a == v[k].a && w[k].b == v[k].b && w[k].c == v[k].c && w[k].d == v[k].d,
              "struct %d read back differs", k);
    close_delete(&fh, path);
    MPI_Type_free(&mem);
    MPI_Type_free(&file);
}

/* ---- external32: a vector filetype of MPI_LONG (stride in elements: scaled) ---- */

#define NB 4
static long lval(int r, int k) { return (k % 2 ? -1L : 1L) * (100000L * r + 17 * k + 1); }

static void x32_vector(int coll)
{
    MPI_Datatype ft;
    MPI_Type_vector(NB, 2, 2 * size, MPI_LONG, &ft);
    MPI_Type_commit(&ft);
    const char *path = io_path("x32-vector");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    /* disp is in the file's bytes: two 4-byte longs per rank */
    CHECK_MPI(MPI_File_set_view(fh, rank * 2 * 4, MPI_LONG, ft, "external32", MPI_INFO_NULL));
    check_type_extent(fh, ft, ((NB - 1) * 2 * size + 2) * 4, "the vector filetype");
    MPI_Offset off;
    CHECK_MPI(MPI_File_get_byte_offset(fh, 2, &off));
    CHECK(off == rank * 8 + 2 * size * 4, "byte offset of the second block %lld", (long long)off);
    long v[2 * NB], w[2 * NB];
    for (int k = 0; k < 2 * NB; k++) v[k] = lval(rank, k);
    if (coll)
        CHECK_MPI(MPI_File_write_all(fh, v, 2 * NB, MPI_LONG, &s));
    else
        CHECK_MPI(MPI_File_write(fh, v, 2 * NB, MPI_LONG, &s));
    check_count(&s, MPI_LONG, 2 * NB, "external32 vector write");
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == (size_t)NB * 2 * size * 4, "external32 vector file of %zu bytes", len);
        for (int blk = 0; blk < NB; blk++)
            for (int r = 0; r < size; r++)
                for (int j = 0; j < 2; j++) {
                    size_t at = ((size_t)blk * 2 * size + r * 2 + j) * 4;
                    long want = lval(r, blk * 2 + j);
                    CHECK(get_be(b + at, 4) == (uint32_t)want,
                          "long of rank %d block %d on disk 0x%08x, expected 0x%08x", r, blk,
                          (unsigned)get_be(b + at, 4), (uint32_t)want);
                }
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    if (coll)
        CHECK_MPI(MPI_File_read_all(fh, w, 2 * NB, MPI_LONG, &s));
    else
        CHECK_MPI(MPI_File_read(fh, w, 2 * NB, MPI_LONG, &s));
    check_count(&s, MPI_LONG, 2 * NB, "external32 vector read");
    CHECK(memcmp(v, w, sizeof v) == 0, "external32 longs read back differ");
    close_delete(&fh, path);
    MPI_Type_free(&ft);
}

/* ---- external32: the shared file pointer and ordered access ---- */

static void x32_shared(void)
{
    const char *path = io_path("x32-shared");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    MPI_Offset pos;
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    int two[2] = {rank * 10 - 5, rank * 10 + 1}, got[2], one = 100 + rank;
    CHECK_MPI(MPI_File_write_ordered(fh, two, 2, MPI_INT, &s));
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 2 * size, "shared position %lld after write_ordered", (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_write_shared(fh, &one, 1, MPI_INT, &s));
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == (size_t)3 * size * 4, "shared-pointer file of %zu bytes", len);
        for (int r = 0; r < size; r++)
            for (int j = 0; j < 2; j++)
                CHECK(get_be(b + (r * 2 + j) * 4, 4) == (uint32_t)(r * 10 + (j ? 1 : -5)),
                      "ordered int %d of rank %d on disk", j, r);
        unsigned seen = 0;
        for (int r = 0; r < size; r++) {
            uint32_t x = (uint32_t)get_be(b + (2 * size + r) * 4, 4);
            CHECK(x >= 100 && x < 100u + (unsigned)size, "shared int %u on disk", x);
            seen |= 1u << (x - 100);
        }
        CHECK(seen == (1u << size) - 1, "write_shared lost a rank's int (mask 0x%x)", seen);
        free(b);
    }
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_END));
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 3 * size, "shared end position %lld", (long long)pos);
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_ordered(fh, got, 2, MPI_INT, &s));
    CHECK(got[0] == two[0] && got[1] == two[1], "read_ordered: %d %d", got[0], got[1]);
    close_delete(&fh, path);
}

/* ---- A registered representation: each int as its negation, 64 bits ---- */

#define NN 40000 /* several chunks of the conversion */
static int neg_state;
static struct {
    int calls, bad;
    MPI_Offset next;
    void *buf;
} trace;

static void trace_reset(void) { memset(&trace, 0, sizeof trace); }

/* Each call continues where the last one stopped, on the same buffer. */
static int trace_call(void *userbuf, MPI_Datatype dt, MPI_Offset position, MPI_Count count,
                      void *extra)
{
    if (dt != MPI_INT || extra != &neg_state) return MPI_ERR_TYPE;
    if (position != trace.next || (trace.buf && userbuf != trace.buf) || count <= 0) trace.bad++;
    trace.calls++;
    trace.next = position + count;
    trace.buf = userbuf;
    return MPI_SUCCESS;
}

static int neg_extent(MPI_Datatype dt, MPI_Aint *extent, void *extra)
{
    if (dt != MPI_INT || extra != &neg_state) return MPI_ERR_TYPE;
    *extent = 8;
    return MPI_SUCCESS;
}

static int neg_write(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position,
                     void *extra)
{
    int rc = trace_call(userbuf, dt, position, count, extra);
    const int *u = (const int *)userbuf + position;
    for (int i = 0; !rc && i < count; i++) {
        int64_t x = -(int64_t)u[i];
        memcpy((char *)filebuf + 8 * (size_t)i, &x, 8);
    }
    return rc;
}

static int neg_read(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position,
                    void *extra)
{
    int rc = trace_call(userbuf, dt, position, count, extra);
    int *u = (int *)userbuf + position;
    for (int i = 0; !rc && i < count; i++) {
        int64_t x;
        memcpy(&x, (char *)filebuf + 8 * (size_t)i, 8);
        u[i] = (int)-x;
    }
    return rc;
}

static int nval(int r, int i) { return r * NN + i - 7777; }

static void user_negate(void)
{
    const char *path = io_path("negate");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    MPI_Offset off;
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tern-negate", MPI_INFO_NULL));
    check_type_extent(fh, MPI_INT, 8, "MPI_INT in tern-negate");
    CHECK_MPI(MPI_File_get_byte_offset(fh, 3, &off));
    CHECK(off == 24, "byte offset of int 3 in tern-negate: %lld", (long long)off);
    int *v = malloc(NN * sizeof *v), *w = malloc(NN * sizeof *w);
    for (int i = 0; i < NN; i++) v[i] = nval(rank, i);
    trace_reset();
    CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * NN, v, NN, MPI_INT, &s));
    check_count(&s, MPI_INT, NN, "tern-negate write");
    CHECK(trace.calls >= 2 && trace.bad == 0 && trace.next == NN && trace.buf == v,
          "write conversion: %d calls, %d out of order, %lld items", trace.calls, trace.bad,
          (long long)trace.next);
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == (size_t)size * NN * 8, "tern-negate file of %zu bytes", len);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < NN; i++) {
                int64_t x;
                memcpy(&x, b + ((size_t)r * NN + i) * 8, 8);
                CHECK(x == -(int64_t)nval(r, i), "int (%d,%d) on disk %lld, expected %lld", r, i,
                      (long long)x, -(long long)nval(r, i));
            }
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    trace_reset();
    CHECK_MPI(MPI_File_read_at_all(fh, (MPI_Offset)rank * NN, w, NN, MPI_INT, &s));
    check_count(&s, MPI_INT, NN, "tern-negate read");
    CHECK(trace.calls >= 2 && trace.bad == 0 && trace.next == NN && trace.buf == w,
          "read conversion: %d calls, %d out of order, %lld items", trace.calls, trace.bad,
          (long long)trace.next);
    CHECK(memcmp(v, w, NN * sizeof *v) == 0, "tern-negate ints read back differ");
    /* Independent and nonblocking take the same path. */
    MPI_Request q;
    int one = -42 - rank, back = 0;
    CHECK_MPI(MPI_File_iwrite_at(fh, (MPI_Offset)rank * NN, &one, 1, MPI_INT, &q));
    CHECK_MPI(MPI_Wait(&q, &s));
    CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)rank * NN, &back, 1, MPI_INT, &s));
    CHECK(back == one, "tern-negate independent int %d, wrote %d", back, one);
    free(v);
    free(w);
    close_delete(&fh, path);
}

/* ---- MPI_Register_datarep_c: byte-swapped ints; one without a read function ---- */

static int ext4(MPI_Datatype dt, MPI_Aint *extent, void *extra)
{
    (void)extra;
    if (dt != MPI_INT) return MPI_ERR_TYPE;
    *extent = 4;
    return MPI_SUCCESS;
}

static int swap_write_c(void *userbuf, MPI_Datatype dt, MPI_Count count, void *filebuf,
                        MPI_Offset position, void *extra)
{
    (void)dt, (void)extra;
    const uint32_t *u = (const uint32_t *)userbuf + position;
    for (MPI_Count i = 0; i < count; i++) {
        uint32_t x = __builtin_bswap32(u[i]);
        memcpy((char *)filebuf + 4 * i, &x, 4);
    }
    return MPI_SUCCESS;
}

static int swap_read_c(void *userbuf, MPI_Datatype dt, MPI_Count count, void *filebuf,
                       MPI_Offset position, void *extra)
{
    (void)dt, (void)extra;
    uint32_t *u = (uint32_t *)userbuf + position;
    for (MPI_Count i = 0; i < count; i++) {
        uint32_t x;
        memcpy(&x, (char *)filebuf + 4 * i, 4);
        u[i] = __builtin_bswap32(x);
    }
    return MPI_SUCCESS;
}

static void user_swap_c(void)
{
    const char *path = io_path("swap");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    int v[5], w[5];
    for (int i = 0; i < 5; i++) v[i] = ival(rank, i);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tern-swap-c", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_write_at(fh, rank * 5, v, 5, MPI_INT, &s));
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == (size_t)size * 5 * 4, "tern-swap-c file of %zu bytes", len);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 5; i++)
                CHECK(get_be(b + (r * 5 + i) * 4, 4) == (uint32_t)ival(r, i),
                      "tern-swap-c int (%d,%d) on disk", r, i);
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_read_at_all(fh, rank * 5, w, 5, MPI_INT, &s));
    CHECK(memcmp(v, w, sizeof v) == 0, "tern-swap-c ints read back differ");
    /* MPI_CONVERSION_FN_NULL_C to read: the file's bytes as they are. */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tern-swap-wonly", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_read_at(fh, rank * 5, w, 5, MPI_INT, &s));
    for (int i = 0; i < 5; i++)
        CHECK((uint32_t)w[i] == __builtin_bswap32((uint32_t)v[i]), "tern-swap-wonly int %d: 0x%08x",
              i, (unsigned)w[i]);
    close_delete(&fh, path);
}

/* ---- A nonblocking read whose datatype is freed before it completes ----
 * The read's conversion runs at MPI_Wait and is given the user's handle,
 * which the program freed after MPI_File_iread_at: the conversion
 * functions here decode it (envelope, contents, extent), so a dead handle
 * shows as a failed call or wrong values. */

#define NV 300 /* elements of vector(2, 1, 2, MPI_INT): 2 ints each */
static int vec_state, vec_calls, vec_bad;

/* Where data item q of (buf, dt) lies: dt is vector(count, bl, stride) of
 * MPI_INT, learnt from the handle. */
static int *vec_item(void *buf, MPI_Datatype dt, MPI_Offset q)
{
    int ni, na, nd, comb, ints[3];
    MPI_Aint lb, ext, ad[1];
    MPI_Datatype old[1];
    if (MPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
        comb != MPI_COMBINER_VECTOR || ni != 3 || nd != 1 ||
        MPI_Type_get_contents(dt, 3, 0, 1, ints, ad, old) != MPI_SUCCESS || old[0] != MPI_INT ||
        MPI_Type_get_extent(dt, &lb, &ext) != MPI_SUCCESS)
        return NULL;
    MPI_Offset per = (MPI_Offset)ints[0] * ints[1], e = q / per, j = q % per;
    return (int *)((char *)buf + e * ext) + (j / ints[1]) * ints[2] + j % ints[1];
}

static int vec_extent(MPI_Datatype dt, MPI_Aint *extent, void *extra)
{
    if (dt != MPI_INT || extra != &vec_state) return MPI_ERR_TYPE;
    *extent = 8;
    return MPI_SUCCESS;
}

static int vec_write(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position,
                     void *extra)
{
    (void)extra;
    vec_calls++;
    for (int i = 0; i < count; i++) {
        int *u = vec_item(userbuf, dt, position + i);
        if (!u) return vec_bad++, MPI_ERR_TYPE;
        int64_t x = -(int64_t)*u;
        memcpy((char *)filebuf + 8 * (size_t)i, &x, 8);
    }
    return MPI_SUCCESS;
}

static int vec_read(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position,
                    void *extra)
{
    (void)extra;
    vec_calls++;
    for (int i = 0; i < count; i++) {
        int *u = vec_item(userbuf, dt, position + i);
        if (!u) return vec_bad++, MPI_ERR_TYPE;
        int64_t x;
        memcpy(&x, (char *)filebuf + 8 * (size_t)i, 8);
        *u = (int)-x;
    }
    return MPI_SUCCESS;
}

static int vval(int r, int i) { return (r + 1) * 100000 + i * 3 - 50000; }

static MPI_Datatype vec_type(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static void freed_type_iread(const char *datarep, int fbytes)
{
    const char *path = io_path("freed-type");
    MPI_File fh = open_rw(path);
    MPI_Status s;
    MPI_Request q;
    int *v = malloc(NV * 3 * sizeof *v), *w = malloc(NV * 3 * sizeof *w);
    for (int i = 0; i < NV * 3; i++) v[i] = i % 3 == 1 ? -1 : vval(rank, i);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, datarep, MPI_INFO_NULL));
    MPI_Datatype t = vec_type();
    vec_calls = vec_bad = 0;
    CHECK_MPI(MPI_File_write_at(fh, (MPI_Offset)rank * NV * 2, v, NV, t, &s));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == (size_t)size * NV * 2 * fbytes, "%s file of %zu bytes", datarep, len);
        for (int r = 0; r < size; r++)
            for (int e = 0; e < NV; e++)
                for (int k = 0; k < 2; k++) {
                    const unsigned char *p = b + ((size_t)(r * NV + e) * 2 + k) * fbytes;
                    int want = vval(r, e * 3 + 2 * k);
                    int64_t x = 0;
                    if (fbytes == 8) memcpy(&x, p, 8);
                    CHECK(fbytes == 8 ? x == -(int64_t)want : get_be(p, 4) == (uint32_t)want,
                          "%s: int (%d,%d,%d) wrong on disk", datarep, r, e, k);
                }
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < NV * 3; i++) w[i] = 7;
    t = vec_type();
    MPI_Datatype gone = t;
    vec_calls = 0;
    CHECK_MPI(MPI_File_iread_at(fh, (MPI_Offset)rank * NV * 2, w, NV, t, &q));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free left the handle");
    CHECK_MPI(MPI_Wait(&q, &s));
    check_count(&s, MPI_INT, NV * 2, datarep);
    CHECK(vec_bad == 0, "%s: a conversion function found the freed type's handle dead", datarep);
    CHECK(fbytes != 8 || vec_calls > 0, "%s: the read conversion function was not called", datarep);
    for (int i = 0; i < NV * 3; i++)
        CHECK(w[i] == (i % 3 == 1 ? 7 : vval(rank, i)), "%s: int %d read back %d", datarep, i,
              w[i]);
    /* The handle dies with the request. */
    MPI_Aint lb, ext;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Type_get_extent(gone, &lb, &ext);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(rc != MPI_SUCCESS, "%s: the freed type's handle outlived the read", datarep);
    free(v);
    free(w);
    close_delete(&fh, path);
}

/* ---- Conversion functions that fail ---- */

static int fail_rank = -1; /* the rank whose write function fails; -1: every rank's */
static int errh_calls, errh_class;

static void file_errh(MPI_File *fh, int *code, ...)
{
    (void)fh;
    errh_calls++;
    MPI_Error_class(*code, &errh_class);
}

static int fail_extent(MPI_Datatype dt, MPI_Aint *extent, void *extra)
{
    (void)extra;
    if (dt != MPI_INT) return MPI_ERR_TYPE + 1000;
    *extent = 4;
    return MPI_SUCCESS;
}

static int fail_write(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position,
                      void *extra)
{
    (void)dt, (void)extra, (void)position;
    if (fail_rank < 0 || fail_rank == rank) return 4242;
    memcpy(filebuf, userbuf, (size_t)count * 4);
    return MPI_SUCCESS;
}

static int fail_read(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position,
                     void *extra)
{
    (void)userbuf, (void)dt, (void)count, (void)filebuf, (void)position, (void)extra;
    return 77;
}

/* The call failed with MPI_ERR_CONVERSION, raised on the file's handler. */
static void expect_conversion(int rc, const char *call, const char *word)
{
    expect(rc, MPI_ERR_CONVERSION, call, word);
    CHECK(errh_calls == 1 && errh_class == MPI_ERR_CONVERSION,
          "%s: the file's handler ran %d times, class %d", call, errh_calls, errh_class);
    errh_calls = 0;
}

static void user_failing(void)
{
    const char *path = io_path("fail");
    MPI_File fh = open_rw(path);
    MPI_Errhandler eh;
    MPI_Status s;
    MPI_Request q;
    int v[4] = {1, 2, 3, 4};
    CHECK_MPI(MPI_File_create_errhandler(file_errh, &eh));
    CHECK_MPI(MPI_File_set_errhandler(fh, eh));
    CHECK_MPI(MPI_File_write_at(fh, rank * 4 * 4, v, 4, MPI_INT, &s)); /* native: data to read */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tern-fail", MPI_INFO_NULL));
    expect_conversion(MPI_File_write_at(fh, rank * 4, v, 4, MPI_INT, &s), "MPI_File_write_at",
                      "tern-fail");
    expect_conversion(MPI_File_read_at(fh, rank * 4, v, 4, MPI_INT, &s), "MPI_File_read_at",
                      "tern-fail");
    CHECK_MPI(MPI_File_iread_at(fh, rank * 4, v, 4, MPI_INT, &q));
    expect_conversion(MPI_Wait(&q, &s), "MPI_File_iread_at", "tern-fail");
    MPI_Aint ext;
    expect_conversion(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext), "MPI_File_get_type_extent",
                      "tern-fail");
    /* One rank's write function fails: every rank's call fails, none hangs. */
    fail_rank = 0;
    int rc = MPI_File_write_at_all(fh, rank * 4, v, 4, MPI_INT, &s);
    if (rank == 0) {
        expect_conversion(rc, "MPI_File_write_at_all", "tern-fail");
    } else {
        CHECK(rc != MPI_SUCCESS && errh_calls == 1, "write_at_all beside a failed rank: rc %d", rc);
        errh_calls = 0;
    }
    fail_rank = -1;
    expect_conversion(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_DOUBLE, "tern-fail", MPI_INFO_NULL),
                      "MPI_File_set_view", "tern-fail");
    close_delete(&fh, path);
    MPI_Errhandler_free(&eh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_dir_make(argc, argv);
    CHECK_MPI(MPI_Register_datarep("tern-negate", neg_read, neg_write, neg_extent, &neg_state));
    CHECK_MPI(MPI_Register_datarep_c("tern-swap-c", swap_read_c, swap_write_c, ext4, NULL));
    CHECK_MPI(MPI_Register_datarep_c("tern-swap-wonly", MPI_CONVERSION_FN_NULL_C, swap_write_c,
                                     ext4, NULL));
    CHECK_MPI(MPI_Register_datarep("tern-vec", vec_read, vec_write, vec_extent, &vec_state));
    CHECK_MPI(MPI_Register_datarep("tern-fail", fail_read, fail_write, fail_extent, NULL));
    for (int coll = 0; coll < 2; coll++) {
        x32_int(coll);
        x32_double(coll);
        x32_struct(coll);
        x32_vector(coll);
    }
    x32_shared();
    user_negate();
    user_swap_c();
    freed_type_iread("tern-vec", 8);
    freed_type_iread("external32", 4);
    user_failing();
    io_dir_remove();
    MPI_Finalize();
    return 0;
}
