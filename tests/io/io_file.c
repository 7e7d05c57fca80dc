/* Files as objects: opening and its errors (each class on the right
 * handler, MPI_ERRORS_RETURN by default), the access modes, size,
 * preallocation, group, hints, handlers, Fortran handles and deletion. */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "io_common.h"

static int handler_calls, handler_code;
static MPI_File handler_file;
static void on_error(MPI_File *fh, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_file = *fh;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void open_errors(void)
{
    MPI_File fh = MPI_FILE_NULL;
    const char *missing = io_path("missing");
    /* Bad access modes, caught before the file system is asked. */
    int bad[] = {0,
                 MPI_MODE_RDONLY | MPI_MODE_WRONLY,
                 MPI_MODE_RDWR | MPI_MODE_RDONLY,
                 MPI_MODE_RDONLY | MPI_MODE_CREATE,
                 MPI_MODE_RDONLY | MPI_MODE_EXCL,
                 MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                 MPI_MODE_RDWR | 0x100000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        expect(MPI_File_open(MPI_COMM_WORLD, missing, bad[i], MPI_INFO_NULL, &fh), MPI_ERR_AMODE,
               "MPI_File_open", "amode");
        CHECK(fh == MPI_FILE_NULL, "fh set by a failed open");
    }
    CHECK(!exists(missing), "a refused open created %s", missing);
    expect(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
           MPI_ERR_NO_SUCH_FILE, "MPI_File_open", missing);
    expect(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE, "MPI_File_delete",
           missing);
    expect(MPI_File_open(MPI_COMM_WORLD, io_dir, MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
           MPI_ERR_BAD_FILE, "MPI_File_open", io_dir);
    expect(MPI_File_open(MPI_COMM_WORLD, io_path("no/such/dir"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                         MPI_INFO_NULL, &fh),
           MPI_ERR_NO_SUCH_FILE, "MPI_File_open", "no/such/dir");

    /* MPI_MODE_EXCL on a file that exists. */
    const char *path = io_path("excl");
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close left the handle");
    expect(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
                         MPI_INFO_NULL, &fh),
           MPI_ERR_FILE_EXISTS, "MPI_File_open", path);
    MPI_Barrier(MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);

    /* The errors went to MPI_FILE_NULL's handler: a user handler set there
     * sees them. */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_File_create_errhandler(on_error, &eh));
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    handler_calls = 0;
    int rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(handler_calls == 1 && handler_code == rc && handler_file == MPI_FILE_NULL,
          "MPI_FILE_NULL's handler ran %d times", handler_calls);
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));
}

static void modes_and_queries(void)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *path = io_path("queries");
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "1048576");
    MPI_Info_set(info, "striping_factor", "4");
    MPI_Info_set(info, "no_such_hint", "x");
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
    MPI_Info_free(&info);

    /* The default handler of a file is MPI_ERRORS_RETURN. */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_File_get_errhandler(fh, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "a new file's handler is 0x%x", (unsigned)eh);
    MPI_Errhandler_free(&eh);

    int amode;
    CHECK_MPI(MPI_File_get_amode(fh, &amode));
    CHECK(amode == (MPI_MODE_RDWR | MPI_MODE_CREATE), "amode 0x%x", (unsigned)amode);

    MPI_Group g, wg;
    int cmp;
    CHECK_MPI(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT, "the file's group is not the communicator's (%d)", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* Hints: the ones given, the defaults, none unknown. */
    char v[MPI_MAX_INFO_VAL + 1];
    int flag;
    CHECK_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, "cb_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "1048576") == 0, "cb_buffer_size %s", flag ? v : "missing");
    MPI_Info_get(info, "striping_factor", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "4") == 0, "striping_factor %s", flag ? v : "missing");
    MPI_Info_get(info, "romio_cb_write", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "automatic") == 0, "romio_cb_write %s", flag ? v : "missing");
    MPI_Info_get(info, "no_such_hint", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(!flag, "an unknown hint was kept");
    MPI_Info_free(&info);
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_read", "disable");
    CHECK_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, "romio_ds_read", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "disable") == 0, "romio_ds_read %s", flag ? v : "missing");
    MPI_Info_free(&info);

    /* Size: set, grow by preallocation, never shrink by it. */
    MPI_Offset sz;
    CHECK_MPI(MPI_File_set_size(fh, 1000));
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == 1000, "size %lld after set_size(1000)", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD); /* get_size is not collective: all have looked */
    CHECK_MPI(MPI_File_preallocate(fh, 4096));
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == 4096, "size %lld after preallocate(4096)", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_preallocate(fh, 10));
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == 4096, "preallocate shrank the file to %lld", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_set_size(fh, 0));
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == 0, "size %lld after set_size(0)", (long long)sz);
    expect(MPI_File_set_size(fh, -1), MPI_ERR_ARG, "MPI_File_set_size", "size");

    /* Atomicity and sync. */
    int atom;
    CHECK_MPI(MPI_File_get_atomicity(fh, &atom));
    CHECK(atom == 0, "atomic by default");
    CHECK_MPI(MPI_File_set_atomicity(fh, 1));
    CHECK_MPI(MPI_File_get_atomicity(fh, &atom));
    CHECK(atom == 1, "set_atomicity(1) not kept");
    CHECK_MPI(MPI_File_sync(fh));

    /* Fortran handles. */
    MPI_Fint fi = MPI_File_c2f(fh);
    CHECK(fi != 0 && MPI_File_f2c(fi) == fh, "c2f/f2c do not round-trip");
    CHECK(MPI_File_c2f(MPI_FILE_NULL) == 0 && MPI_File_f2c(0) == MPI_FILE_NULL,
          "MPI_FILE_NULL's Fortran handle is not 0");

    /* The file's own handler: a user one sees the file's errors, and
     * MPI_File_call_errhandler. */
    CHECK_MPI(MPI_File_create_errhandler(on_error, &eh));
    CHECK_MPI(MPI_File_set_errhandler(fh, eh));
    handler_calls = 0;
    int rc = MPI_File_seek(fh, 0, 12345);
    CHECK(handler_calls == 1 && handler_file == fh && handler_code == rc,
          "the file's handler ran %d times", handler_calls);
    CHECK_MPI(MPI_File_call_errhandler(fh, MPI_ERR_OTHER));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_OTHER, "call_errhandler did not call it");
    MPI_Errhandler got;
    CHECK_MPI(MPI_File_get_errhandler(fh, &got));
    CHECK(got == eh, "get_errhandler gave another handler");
    MPI_Errhandler_free(&got);
    /* MPI_FILE_NULL's handler is not the file's. */
    CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    CHECK(got == MPI_ERRORS_RETURN, "setting a file's handler changed MPI_FILE_NULL's");
    CHECK_MPI(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);

    CHECK_MPI(MPI_File_close(&fh));
    expect(MPI_File_get_amode(fh, &amode), MPI_ERR_FILE, "MPI_File_get_amode", NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(!exists(path), "MPI_File_delete left %s", path);
}

static void access_modes(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *path = io_path("modes");
    MPI_File fh;
    char buf[8] = "abcdefg";
    MPI_Status st;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    expect(MPI_File_read_at(fh, 0, buf, 1, MPI_CHAR, &st), MPI_ERR_ACCESS, "MPI_File_read_at",
           path);
    CHECK_MPI(MPI_File_write_at(fh, rank, buf + rank % 8, 1, MPI_CHAR, &st));
    int n;
    MPI_Get_count(&st, MPI_CHAR, &n);
    CHECK(n == 1, "write_at counted %d", n);
    CHECK(exists(path), "the file is not there while open");
    CHECK_MPI(MPI_File_close(&fh));
    CHECK(!exists(path), "MPI_MODE_DELETE_ON_CLOSE left %s", path);
    MPI_Barrier(MPI_COMM_WORLD); /* all have looked before rank 0 makes it again */

    /* Read-only: no writes; MPI_MODE_APPEND starts the pointers at the end. */
    if (rank == 0) {
        FILE *fp = fopen(path, "w");
        CHECK(fp && fwrite("0123456789", 1, 10, fp) == 10 && fclose(fp) == 0, "cannot write %s",
              path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    expect(MPI_File_write_at(fh, 0, buf, 1, MPI_CHAR, &st), MPI_ERR_READ_ONLY, "MPI_File_write_at",
           path);
    CHECK_MPI(MPI_File_close(&fh));
    CHECK_MPI(
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh));
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == 10, "MPI_MODE_APPEND: position %lld", (long long)pos);
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 10, "MPI_MODE_APPEND: shared position %lld", (long long)pos);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
}

/* Offsets beyond INT_MAX and 4 GiB (a sparse file), through the large-count
 * forms too. */
static void large_offsets(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *path = io_path("large");
    MPI_File fh;
    MPI_Status st;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    MPI_Offset at = ((MPI_Offset)5 << 30) + 1000 * rank + 3; /* 5 GiB and a bit */
    long v = 0x1122334455667788L + rank, w = 0;
    int rc = MPI_File_write_at_c(fh, at, &v, (MPI_Count)1, MPI_LONG, &st);
    if (rc != MPI_SUCCESS) {
        int cls;
        MPI_Error_class(rc, &cls);
        /* A file system without room or large files says so: that is fine. */
        CHECK(cls == MPI_ERR_NO_SPACE || cls == MPI_ERR_QUOTA, "write at 5 GiB: class %d", cls);
    } else {
        MPI_Count n;
        MPI_Get_count_c(&st, MPI_LONG, &n);
        CHECK(n == 1, "write_at_c counted %lld", (long long)n);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Offset size;
        CHECK_MPI(MPI_File_get_size(fh, &size));
        CHECK(size >= at + (MPI_Offset)sizeof v, "size %lld after a write at %lld", (long long)size,
              (long long)at);
        CHECK_MPI(MPI_File_read_at_c(fh, at, &w, (MPI_Count)1, MPI_LONG, &st));
        CHECK(w == v, "read back %lx at 5 GiB, wrote %lx", (unsigned long)w, (unsigned long)v);
        MPI_Offset pos;
        CHECK_MPI(MPI_File_seek(fh, at, MPI_SEEK_SET));
        CHECK_MPI(MPI_File_get_position(fh, &pos));
        CHECK(pos == at, "position %lld after a seek to %lld", (long long)pos, (long long)at);
    }
    MPI_Count ext;
    CHECK_MPI(MPI_File_get_type_extent_c(fh, MPI_LONG, &ext));
    CHECK(ext == sizeof(long), "type extent %lld", (long long)ext);
    CHECK_MPI(MPI_File_close(&fh));
}

/* A write that runs out of room (here the file size limit, RLIMIT_FSIZE,
 * standing in for a full disk) fails with MPI_ERR_NO_SPACE, and what was
 * written before stays intact. */
static void out_of_space(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[32];
    snprintf(name, sizeof name, "full-%d", rank);
    const char *path = io_path(name);
    enum { LIMIT = 1 << 20 };
    unsigned char *buf = malloc(2 * LIMIT), *back = malloc(LIMIT);
    for (int i = 0; i < 2 * LIMIT; i++) buf[i] = (unsigned char)(i * 13 + rank);
    MPI_File fh;
    MPI_Status st;
    CHECK_MPI(MPI_File_open(MPI_COMM_SELF, path,
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = LIMIT;
    signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "setrlimit");
    int rc = MPI_File_write_at(fh, 0, buf, 2 * LIMIT, MPI_BYTE, &st);
    setrlimit(RLIMIT_FSIZE, &old);
    expect(rc, MPI_ERR_NO_SPACE, "MPI_File_write_at", path);
    CHECK_MPI(MPI_File_read_at(fh, 0, back, LIMIT, MPI_BYTE, &st));
    int n;
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(n == LIMIT && memcmp(back, buf, LIMIT) == 0,
          "the first %d bytes written before the limit are not intact (%d read)", LIMIT, n);
    CHECK_MPI(MPI_File_close(&fh));
    free(buf);
    free(back);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    io_dir_make(argc, argv);
    open_errors();
    modes_and_queries();
    access_modes();
    large_offsets();
    out_of_space();
    io_dir_remove();
    MPI_Finalize();
    return 0;
}
