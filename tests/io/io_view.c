/* Views: a 2-D block-distributed array written through subarray
 * filetypes (from a memory block with a halo) in every access form, and an
 * interleaved strided pattern; the file is compared byte for byte with the
 * array written serially, then read back through the view.  Also the
 * positions (seek, get_position, get_byte_offset), reads past the end, and
 * the errors of set_view. */
#include <fcntl.h>

#include "io_common.h"

#define HDR 16
static int rank, size, dims[2], coords[2];
static int R, C, lr, lc; /* global and local rows and columns */

static int gval(int i, int j) { return 1000 * i + j + 7; }

/* The whole file as rank 0 reads it with plain POSIX calls. */
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

/* The file a serial program would write: the header, then the array. */
static void check_array_file(const char *path, const char *what)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        size_t len;
        unsigned char *b = slurp(path, &len);
        CHECK(len == HDR + (size_t)R * C * sizeof(int), "%s: file of %zu bytes", what, len);
        CHECK(memcmp(b, "tern-io-header!", HDR) == 0, "%s: the header was overwritten", what);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) {
                int v;
                memcpy(&v, b + HDR + ((size_t)i * C + j) * sizeof v, sizeof v);
                CHECK(v == gval(i, j), "%s: element (%d,%d) is %d, expected %d", what, i, j, v,
                      gval(i, j));
            }
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The local block, inside a halo of one element that no access may touch. */
static int *local_block(int fill)
{
    int *a = malloc((size_t)(lr + 2) * (lc + 2) * sizeof *a);
    for (int i = 0; i < lr + 2; i++)
        for (int j = 0; j < lc + 2; j++) {
            int inside = i > 0 && j > 0 && i <= lr && j <= lc;
            a[i * (lc + 2) + j] =
                inside && fill ? gval(coords[0] * lr + i - 1, coords[1] * lc + j - 1) : -1;
        }
    return a;
}

static void check_block(const int *a, const char *what)
{
    for (int i = 0; i < lr + 2; i++)
        for (int j = 0; j < lc + 2; j++) {
            int inside = i > 0 && j > 0 && i <= lr && j <= lc;
            int want = inside ? gval(coords[0] * lr + i - 1, coords[1] * lc + j - 1) : -1;
            CHECK(a[i * (lc + 2) + j] == want, "%s: local (%d,%d) is %d, expected %d", what, i, j,
                  a[i * (lc + 2) + j], want);
        }
}

static void block_array(MPI_Info info)
{
    MPI_Datatype filetype, memtype;
    int gs[2] = {R, C}, ls[2] = {lr, lc}, st[2] = {coords[0] * lr, coords[1] * lc};
    MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_INT, &filetype);
    MPI_Type_commit(&filetype);
    int ms[2] = {lr + 2, lc + 2}, mst[2] = {1, 1};
    MPI_Type_create_subarray(2, ms, ls, mst, MPI_ORDER_C, MPI_INT, &memtype);
    MPI_Type_commit(&memtype);

    static const char *forms[] = {"write_all",          "write",    "iwrite_at_all",
                                  "write_at_all_begin", "write_at", "iwrite"};
    for (int form = 0; form < 6; form++) {
        char name[64];
        snprintf(name, sizeof name, "array-%d", form);
        const char *path = io_path(name);
        MPI_File fh;
        MPI_Status s;
        MPI_Request req;
        CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
        if (rank == 0) CHECK_MPI(MPI_File_write_at(fh, 0, "tern-io-header!", HDR, MPI_CHAR, &s));
        CHECK_MPI(MPI_File_set_view(fh, HDR, MPI_INT, filetype, "native", MPI_INFO_NULL));
        int *a = local_block(1);
        switch (form) {
        case 0: CHECK_MPI(MPI_File_write_all(fh, a, 1, memtype, &s)); break;
        case 1: CHECK_MPI(MPI_File_write(fh, a, 1, memtype, &s)); break;
        case 2:
            CHECK_MPI(MPI_File_iwrite_at_all(fh, 0, a, 1, memtype, &req));
            CHECK_MPI(MPI_Wait(&req, &s));
            break;
        case 3:
            CHECK_MPI(MPI_File_write_at_all_begin(fh, 0, a, 1, memtype));
            CHECK_MPI(MPI_File_write_at_all_end(fh, a, &s));
            break;
        case 4: CHECK_MPI(MPI_File_write_at(fh, 0, a, 1, memtype, &s)); break;
        default: CHECK_MPI(MPI_File_iwrite(fh, a, 1, memtype, &req)); CHECK_MPI(MPI_Wait(&req, &s));
        }
        int n;
        MPI_Get_count(&s, memtype, &n);
        CHECK(n == 1, "%s: count %d of the block type", forms[form], n);
        MPI_Get_count(&s, MPI_INT, &n);
        CHECK(n == lr * lc, "%s: count %d ints, expected %d", forms[form], n, lr * lc);
        if (form == 1 || form == 5) {
            MPI_Offset pos;
            CHECK_MPI(MPI_File_get_position(fh, &pos));
            CHECK(pos == lr * lc, "%s: position %lld after the write", forms[form], (long long)pos);
        }
        CHECK_MPI(MPI_File_sync(fh));
        check_array_file(path, forms[form]);

        /* Read back through the view, in the matching read form. */
        int *b = local_block(0);
        switch (form) {
        case 0: CHECK_MPI(MPI_File_read_at_all(fh, 0, b, 1, memtype, &s)); break;
        case 1:
            CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
            CHECK_MPI(MPI_File_read(fh, b, 1, memtype, &s));
            break;
        case 2:
            CHECK_MPI(MPI_File_iread_at_all(fh, 0, b, 1, memtype, &req));
            CHECK_MPI(MPI_Wait(&req, &s));
            break;
        case 3:
            CHECK_MPI(MPI_File_read_all_begin(fh, b, 1, memtype));
            CHECK_MPI(MPI_File_read_all_end(fh, b, &s));
            break;
        case 4: CHECK_MPI(MPI_File_read_at(fh, 0, b, 1, memtype, &s)); break;
        default:
            CHECK_MPI(MPI_File_iread_at(fh, 0, b, 1, memtype, &req));
            CHECK_MPI(MPI_Wait(&req, &s));
        }
        MPI_Get_count(&s, MPI_INT, &n);
        CHECK(n == lr * lc, "%s read back: count %d ints", forms[form], n);
        check_block(b, forms[form]);
        free(a);
        free(b);

        /* The view as set. */
        MPI_Offset disp;
        MPI_Datatype et, ft;
        char rep[MPI_MAX_DATAREP_STRING];
        CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
        /* A derived filetype comes back as a copy (MPI_COMBINER_DUP) of it. */
        int ni, na, nd, comb, sz, fsz;
        MPI_Datatype orig;
        MPI_Type_get_envelope(ft, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_DUP, "get_view: combiner %d", comb);
        MPI_Type_get_contents(ft, 0, 0, 1, NULL, NULL, &orig);
        MPI_Type_get_envelope(orig, &ni, &na, &nd, &comb);
        MPI_Type_size(ft, &sz);
        MPI_Type_size(filetype, &fsz);
        CHECK(disp == HDR && et == MPI_INT && comb == MPI_COMBINER_SUBARRAY && sz == fsz &&
                  strcmp(rep, "native") == 0,
              "get_view: disp %lld, combiner %d, size %d, datarep %s", (long long)disp, comb, sz,
              rep);
        MPI_Type_free(&orig);
        MPI_Type_free(&ft);
        CHECK_MPI(MPI_File_close(&fh));
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    }
    MPI_Type_free(&filetype);
    MPI_Type_free(&memtype);
}

/* Rank r owns 2 ints of every 2 * size: the pattern of many small pieces
 * (data sieving for independent access). */
#define N 1000
static int sval(int owner, int k) { return owner * 1000000 + k; }

static void strided(const char *ds_read, const char *ds_write, int collective)
{
    const char *path = io_path("strided");
    MPI_Datatype two, filetype;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_create_resized(two, 0, (MPI_Aint)(2 * size * sizeof(int)), &filetype);
    MPI_Type_commit(&filetype);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_read", ds_read);
    MPI_Info_set(info, "romio_ds_write", ds_write);
    MPI_File fh;
    MPI_Status s;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)(rank * 2 * sizeof(int)), MPI_INT, filetype,
                                "native", MPI_INFO_NULL));
    int *a = malloc(N * sizeof *a), *b = malloc((N + 4) * sizeof *b);
    for (int k = 0; k < N; k++) a[k] = sval(rank, k);
    if (collective)
        CHECK_MPI(MPI_File_write_at_all(fh, 0, a, N, MPI_INT, &s));
    else
        CHECK_MPI(MPI_File_write_at(fh, 0, a, N, MPI_INT, &s));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        size_t len;
        unsigned char *f = slurp(path, &len);
        CHECK(len == (size_t)N * size * sizeof(int), "strided (ds_write %s): %zu bytes", ds_write,
              len);
        for (size_t k = 0; k < len / sizeof(int); k++) {
            int v, owner = (int)(k / 2 % size);
            memcpy(&v, f + k * sizeof v, sizeof v);
            int want = sval(owner, (int)(k / 2 / size * 2 + k % 2));
            CHECK(v == want, "strided (ds_write %s): int %zu is %d, expected %d", ds_write, k, v,
                  want);
        }
        free(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < N + 4; k++) b[k] = -1;
    CHECK_MPI(MPI_File_read_at(fh, 0, b, N, MPI_INT, &s));
    for (int k = 0; k < N; k++)
        CHECK(b[k] == a[k], "strided read (ds_read %s): int %d is %d", ds_read, k, b[k]);

    /* Positions in the view: etypes of this rank's data. */
    MPI_Offset off, pos;
    CHECK_MPI(MPI_File_get_byte_offset(fh, 3, &off));
    CHECK(off == (MPI_Offset)((rank * 2 + 2 * size + 1) * sizeof(int)), "byte offset %lld",
          (long long)off);
    CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == N, "MPI_SEEK_END: position %lld, expected %d", (long long)pos, N);
    CHECK_MPI(MPI_File_seek(fh, -5, MPI_SEEK_CUR));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == N - 5, "MPI_SEEK_CUR: position %lld", (long long)pos);
    expect(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG, "MPI_File_seek", NULL);

    /* Past the end: the count says what was there. */
    int n;
    CHECK_MPI(MPI_File_read_at(fh, N - 2, b, 4, MPI_INT, &s));
    MPI_Get_count(&s, MPI_INT, &n);
    CHECK(n == 2 && b[0] == a[N - 2] && b[1] == a[N - 1], "read past the end: count %d", n);
    CHECK_MPI(MPI_File_read_at(fh, N + 10, b, 4, MPI_INT, &s));
    MPI_Get_count(&s, MPI_INT, &n);
    CHECK(n == 0, "read beyond the end: count %d", n);

    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    MPI_Type_free(&two);
    MPI_Type_free(&filetype);
    free(a);
    free(b);
}

static int extent_fn(MPI_Datatype dt, MPI_Aint *extent, void *extra)
{
    (void)extra;
    MPI_Aint lb;
    return MPI_Type_get_extent(dt, &lb, extent);
}

/* Registered representations: one without conversion functions stores the
 * memory layout, a name twice is MPI_ERR_DUP_DATAREP (io_datarep.c tests
 * conversion functions). */
static void registered_datareps(void)
{
    CHECK_MPI(MPI_Register_datarep("tern-plain", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                   extent_fn, NULL));
    expect(MPI_Register_datarep("tern-plain", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                extent_fn, NULL),
           MPI_ERR_DUP_DATAREP, "MPI_Register_datarep", "tern-plain");
    expect(MPI_Register_datarep("native", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn,
                                NULL),
           MPI_ERR_DUP_DATAREP, "MPI_Register_datarep", "native");
    const char *path = io_path("datarep");
    MPI_File fh;
    MPI_Status s;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tern-plain", MPI_INFO_NULL));
    int v = 1234 + rank, w = 0;
    CHECK_MPI(MPI_File_write_at(fh, rank, &v, 1, MPI_INT, &s));
    CHECK_MPI(MPI_File_read_at(fh, rank, &w, 1, MPI_INT, &s));
    CHECK(w == v, "read %d through 'tern-plain', wrote %d", w, v);
    MPI_Offset disp;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "tern-plain") == 0, "get_view's datarep is %s", rep);
    CHECK_MPI(MPI_File_close(&fh));
}

static void view_errors(void)
{
    const char *path = io_path("view-errors");
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    expect(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL),
           MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view", "no-such-rep");
    expect(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_INT, "native", MPI_INFO_NULL), MPI_ERR_ARG,
           "MPI_File_set_view", "etype");
    expect(
        MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL),
        MPI_ERR_ARG, "MPI_File_set_view", "MPI_MODE_SEQUENTIAL");
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "internal", MPI_INFO_NULL));
    MPI_Aint ext;
    CHECK_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
    CHECK(ext == sizeof(double), "type extent %ld", (long)ext);
    MPI_Status s;
    char c[3];
    /* Three chars are not a whole number of ints. */
    expect(MPI_File_write_at(fh, 0, c, 3, MPI_CHAR, &s), MPI_ERR_TYPE, "MPI_File_write_at", NULL);
    expect(MPI_File_write_at(fh, -1, c, 4, MPI_CHAR, &s), MPI_ERR_ARG, "MPI_File_write_at",
           "offset");
    expect(MPI_File_write_at(fh, 0, c, -1, MPI_INT, &s), MPI_ERR_COUNT, "MPI_File_write_at",
           "count");
    /* Typemaps whose displacements go below 0 or back, or whose bytes
     * overlap in a writable file (MPI-4.1 14.3), and a vector that steps
     * back; overlaps are fine in a file opened read-only. */
    static const struct {
        int d0, d1, what;
        const char *word;
    } bad[] = {{-2, 2, 0, "negative"}, {3, 0, 1, "decrease"}, {0, 0, 1, "overlap"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int bl[2] = {1, 1}, dp[2] = {bad[i].d0, bad[i].d1};
        MPI_Datatype t;
        CHECK_MPI(MPI_Type_indexed(2, bl, dp, MPI_INT, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        expect(MPI_File_set_view(fh, 0, bad[i].what ? MPI_INT : t, t, "native", MPI_INFO_NULL),
               MPI_ERR_IO, "MPI_File_set_view", bad[i].word);
        CHECK_MPI(MPI_Type_free(&t));
    }
    MPI_Datatype back;
    CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_INT, &back));
    CHECK_MPI(MPI_Type_commit(&back));
    expect(MPI_File_set_view(fh, 0, MPI_INT, back, "native", MPI_INFO_NULL), MPI_ERR_IO,
           "MPI_File_set_view", "decrease");
    CHECK_MPI(MPI_Type_free(&back));
    CHECK_MPI(MPI_File_close(&fh));
    MPI_File rd;
    int bl[2] = {2, 2}, dp[2] = {0, 1};
    MPI_Datatype ov;
    CHECK_MPI(MPI_Type_indexed(2, bl, dp, MPI_INT, &ov));
    CHECK_MPI(MPI_Type_commit(&ov));
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, io_path("view-errors-ro"),
                            MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &rd));
    expect(MPI_File_set_view(rd, 0, MPI_INT, ov, "native", MPI_INFO_NULL), MPI_ERR_IO,
           "MPI_File_set_view", "overlap");
    CHECK_MPI(MPI_File_close(&rd));
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, io_path("view-errors-ro"),
                            MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &rd));
    CHECK_MPI(MPI_File_set_view(rd, 0, MPI_INT, ov, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_close(&rd));
    CHECK_MPI(MPI_Type_free(&ov));
}

/* The aggregators in use are what MPI_File_get_info says: by default
 * IO_AGGREGATORS_PER_HOST (8) per host, at most the host's ranks (this job
 * runs on one host). */
static void cb_nodes_reported(void)
{
    MPI_File fh;
    MPI_Info info;
    char v[MPI_MAX_INFO_VAL + 1];
    int flag;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, io_path("cb"),
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL, v, &flag);
    const char *per = getenv("TERN_IO_AGGREGATORS_PER_HOST");
    int want = per ? atoi(per) : 8;
    if (want > size) want = size;
    CHECK(flag && atoi(v) == want, "cb_nodes %s on one host of %d ranks, expected %d",
          flag ? v : "missing", size, want);
    MPI_Info_free(&info);
    CHECK_MPI(MPI_File_close(&fh));
}

/* A collective interleaved read that runs past the end of the file: what
 * lies inside comes back, the count stops at the end.  With every rank
 * reading, the pieces tile the range (the aggregators' vectored path);
 * with rank 0 reading nothing they leave holes (the path through a block). */
static void read_past_end(int rank0_reads)
{
    enum { K = 8, TOTAL_SHORT = 3 };
    const char *path = io_path("past-end");
    int total = size * K - TOTAL_SHORT; /* ints in the file */
    MPI_File fh;
    MPI_Status s;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_read", "enable");
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
    MPI_Info_free(&info);
    if (rank == 0) {
        int *all = malloc((size_t)total * sizeof *all);
        for (int i = 0; i < total; i++) all[i] = 1000 + i;
        CHECK_MPI(MPI_File_write_at(fh, 0, all, total, MPI_INT, &s));
        free(all);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Datatype vec, filetype;
    MPI_Type_vector(K / 2, 2, 2 * size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(K * size * sizeof(int)), &filetype);
    MPI_Type_commit(&filetype);
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)(rank * 2 * sizeof(int)), MPI_INT, filetype,
                                "native", MPI_INFO_NULL));
    int b[K], n = rank0_reads || rank != 0 ? K : 0, want = 0;
    for (int k = 0; k < K; k++) b[k] = -1;
    CHECK_MPI(MPI_File_read_at_all(fh, 0, b, n, MPI_INT, &s));
    for (int k = 0; k < n; k++) {
        int at = k / 2 * 2 * size + rank * 2 + k % 2; /* the int's index in the file */
        if (at >= total) continue;
        want++;
        CHECK(b[k] == 1000 + at, "read past the end (rank 0 reads %d): int %d is %d, expected %d",
              rank0_reads, k, b[k], 1000 + at);
    }
    int got;
    MPI_Get_count(&s, MPI_INT, &got);
    CHECK(got == want, "read past the end (rank 0 reads %d): count %d, expected %d", rank0_reads,
          got, want);
    MPI_Type_free(&vec);
    MPI_Type_free(&filetype);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
}

/* A collective write through views with holes into a file opened
 * write-only, with two-phase forced: the aggregators cannot read the holes
 * to fill them, so they write around them, and what the file had there
 * stays.  Rank r writes 4-byte blocks r, r + size + 1, ... of a file whose
 * every (size + 1)-th block nobody writes. */
static void write_only_holes(void)
{
    const char *path = io_path("wronly");
    enum { NB = 6, B = 4 };
    int stride = size + 1, len = NB * stride * B;
    if (rank == 0) {
        char *old = malloc((size_t)len);
        for (int i = 0; i < len; i++) old[i] = (char)('a' + i % 26);
        FILE *fp = fopen(path, "w");
        CHECK(fp && fwrite(old, 1, (size_t)len, fp) == (size_t)len && fclose(fp) == 0,
              "cannot write %s", path);
        free(old);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "cb_nodes", "1");
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, info, &fh));
    MPI_Info_free(&info);
    MPI_Datatype ft;
    CHECK_MPI(MPI_Type_vector(NB, B, stride * B, MPI_CHAR, &ft));
    CHECK_MPI(MPI_Type_commit(&ft));
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * B, MPI_CHAR, ft, "native", MPI_INFO_NULL));
    char mine[NB * B];
    for (int i = 0; i < NB * B; i++) mine[i] = (char)('0' + rank % 10);
    CHECK_MPI(MPI_File_write_all(fh, mine, NB * B, MPI_CHAR, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_close(&fh));
    CHECK_MPI(MPI_Type_free(&ft));
    if (rank == 0) {
        char *got = malloc((size_t)len);
        FILE *fp = fopen(path, "r");
        CHECK(fp && fread(got, 1, (size_t)len, fp) == (size_t)len, "cannot read %s back", path);
        fclose(fp);
        for (int i = 0; i < len; i++) {
            int blk = i / B % stride;
            char want = blk < size ? (char)('0' + blk % 10) : (char)('a' + i % 26);
            CHECK(got[i] == want, "write-only collective: byte %d is '%c', want '%c'", i, got[i],
                  want);
        }
        free(got);
        CHECK(unlink(path) == 0, "cannot remove %s", path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    coords[0] = rank / dims[1];
    coords[1] = rank % dims[1];
    lr = 5;
    lc = 3;
    R = lr * dims[0];
    C = lc * dims[1];
    io_dir_make(argc, argv);
    block_array(MPI_INFO_NULL);
    /* Two-phase in many small rounds, two aggregators (one at 1 rank). */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "40");
    MPI_Info_set(info, "cb_nodes", "2");
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    block_array(info);
    MPI_Info_free(&info);
    cb_nodes_reported();
    strided("automatic", "automatic", 0);
    strided("disable", "enable", 0);
    strided("enable", "disable", 1);
    read_past_end(1);
    read_past_end(0);
    write_only_holes();
    view_errors();
    registered_datareps();
    io_dir_remove();
    MPI_Finalize();
    return 0;
}
