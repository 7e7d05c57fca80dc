/* The striping and access hints on a POSIX file system: striping_unit
 * aligns the aggregators' file domains (seen through the MPI_T variables
 * tern_io_cb_domains and tern_io_cb_boundary_gcd), striping_factor sets
 * how many aggregators there are when cb_nodes is not given, access_style
 * becomes page-cache advice; MPI_File_get_info reports each as used, and
 * values a hint cannot take are ignored.  The data is checked against
 * plain pread each time. */
#include <fcntl.h>

#include "../mpit/mpit_util.h"
#include "io_common.h"

#define BLOCK 3000 /* bytes a rank writes, from HEAD on */
#define HEAD 100

static int rank, size;
static MPI_T_pvar_session pvs;
static MPI_T_pvar_handle pv_calls, pv_domains, pv_gcd;

static void pvars_setup(void)
{
    int provided;
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_session_create(&pvs), MPI_SUCCESS);
    pv_calls = pvar_handle(pvs, "tern_io_cb_calls", MPI_T_PVAR_CLASS_COUNTER);
    pv_domains = pvar_handle(pvs, "tern_io_cb_domains", MPI_T_PVAR_CLASS_LEVEL);
    pv_gcd = pvar_handle(pvs, "tern_io_cb_boundary_gcd", MPI_T_PVAR_CLASS_LEVEL);
}

static void pvars_done(void)
{
    CHECK_T(MPI_T_pvar_session_free(&pvs), MPI_SUCCESS);
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
}

static void expect_hint(MPI_File fh, const char *key, const char *want)
{
    MPI_Info info;
    char v[MPI_MAX_INFO_VAL + 1];
    int flag;
    CHECK_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
    if (want)
        CHECK(flag && strcmp(v, want) == 0, "hint %s: %s, expected %s", key, flag ? v : "missing",
              want);
    else
        CHECK(!flag, "hint %s reported as %s, expected none", key, v);
    MPI_Info_free(&info);
}

static MPI_File open_with(const char *path, const char *const kv[])
{
    MPI_Info info;
    MPI_File fh;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    for (int i = 0; kv[i]; i += 2) MPI_Info_set(info, kv[i], kv[i + 1]);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE, info, &fh));
    MPI_Info_free(&info);
    return fh;
}

static unsigned char bval(int r, int i) { return (unsigned char)(r * 37 + i * 11 + 1); }

/* Every rank writes BLOCK bytes at HEAD + rank * BLOCK collectively and
 * reads them back; *domains and *gcd: the write's domains as MPI_T shows
 * them. */
static void write_blocks(MPI_File fh, const char *path, unsigned long long *domains,
                         unsigned long long *gcd)
{
    unsigned char b[BLOCK], back[BLOCK];
    MPI_Status s;
    for (int i = 0; i < BLOCK; i++) b[i] = bval(rank, i);
    unsigned long long calls = pvar_read(pvs, pv_calls);
    CHECK_MPI(MPI_File_write_at_all(fh, HEAD + (MPI_Offset)rank * BLOCK, b, BLOCK, MPI_BYTE, &s));
    CHECK(size == 1 || pvar_read(pvs, pv_calls) == calls + 1,
          "the write did not aggregate (tern_io_cb_calls %llu -> %llu)", calls,
          pvar_read(pvs, pv_calls));
    *domains = pvar_read(pvs, pv_domains);
    *gcd = pvar_read(pvs, pv_gcd);
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        int fd = open(path, O_RDONLY);
        CHECK(fd >= 0, "cannot open %s", path);
        for (int r = 0; r < size; r++) {
            CHECK(pread(fd, back, BLOCK, HEAD + (off_t)r * BLOCK) == BLOCK, "short file");
            for (int i = 0; i < BLOCK; i++)
                CHECK(back[i] == bval(r, i), "byte %d of rank %d's block on disk: %d", i, r,
                      back[i]);
        }
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_File_read_at_all(fh, HEAD + (MPI_Offset)rank * BLOCK, back, BLOCK, MPI_BYTE, &s));
    CHECK(memcmp(b, back, BLOCK) == 0, "the block read back differs");
}

/* The domains meet where equal cuts fall without striping_unit, at
 * multiples of it with it. */
static void striping(void)
{
    const char *path = io_path("striped");
    char nodes[16];
    int want = size < 2 ? size : 2;
    unsigned long long domains, gcd;
    snprintf(nodes, sizeof nodes, "%d", want);

    MPI_File fh = open_with(path, (const char *const[]){"striping_factor", "2", NULL});
    expect_hint(fh, "striping_factor", "2");
    expect_hint(fh, "cb_nodes", nodes);
    expect_hint(fh, "striping_unit", NULL);
    write_blocks(fh, path, &domains, &gcd);
    if (size > 1) {
        /* Two equal halves of [HEAD, HEAD + size * BLOCK). */
        unsigned long long cut = HEAD + (unsigned long long)size * BLOCK / 2;
        CHECK(domains == 2, "%llu domains with striping_factor 2", domains);
        CHECK(gcd == cut, "domains meet at %llu, expected %llu", gcd, cut);
        CHECK(gcd % 4096 != 0, "the unaligned cut happens to be aligned: the test shows nothing");
    }
    CHECK_MPI(MPI_File_close(&fh));

    fh = open_with(path,
                   (const char *const[]){"striping_factor", "2", "striping_unit", "4096", NULL});
    expect_hint(fh, "striping_unit", "4096");
    write_blocks(fh, path, &domains, &gcd);
    if (size > 1) {
        CHECK(domains == 2, "%llu domains with striping_factor 2", domains);
        CHECK(gcd > 0 && gcd % 4096 == 0, "domains meet at %llu, not a multiple of 4096", gcd);
    }
    /* cb_nodes, when given, wins over striping_factor. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", "1");
    CHECK_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    expect_hint(fh, "cb_nodes", "1");
    write_blocks(fh, path, &domains, &gcd);
    CHECK(size == 1 || (domains == 1 && gcd == 0), "cb_nodes 1: %llu domains, gcd %llu", domains,
          gcd);
    CHECK_MPI(MPI_File_close(&fh));
}

/* Values a hint cannot take leave the one in use as it was. */
static void bad_values(void)
{
    const char *path = io_path("bad");
    MPI_File fh = open_with(path, (const char *const[]){"striping_unit", "-4096", "striping_factor",
                                                        "two", "cb_buffer_size", "0",
                                                        "access_style", "bogus", NULL});
    expect_hint(fh, "striping_unit", NULL);
    expect_hint(fh, "striping_factor", NULL);
    expect_hint(fh, "cb_buffer_size", "16777216");
    expect_hint(fh, "access_style", NULL);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "striping_unit", "65536");
    MPI_Info_set(info, "romio_cb_read", "sometimes");
    CHECK_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    expect_hint(fh, "striping_unit", "65536");
    expect_hint(fh, "romio_cb_read", "enable");
    MPI_Info_create(&info);
    MPI_Info_set(info, "striping_unit", "4k");
    CHECK_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    expect_hint(fh, "striping_unit", "65536");
    CHECK_MPI(MPI_File_close(&fh));
}

/* access_style: the words Tern knows, as it uses them, after the kernel
 * took the advice; the reads still return the data. */
static void access_style(void)
{
    const char *path = io_path("style");
    unsigned long long domains, gcd;
    MPI_File fh = open_with(
        path, (const char *const[]){"access_style", "read_once, sequential,no_such_word", NULL});
    expect_hint(fh, "access_style", "read_once,sequential");
    write_blocks(fh, path, &domains, &gcd);
    /* Independent reads with read_once drop what they read from the cache. */
    unsigned char back[BLOCK];
    MPI_Status s;
    CHECK_MPI(MPI_File_read_at(fh, HEAD + (MPI_Offset)rank * BLOCK, back, BLOCK, MPI_BYTE, &s));
    for (int i = 0; i < BLOCK; i++) CHECK(back[i] == bval(rank, i), "read_once: byte %d", i);
    const char *styles[] = {"random", "write_once", "read_mostly,write_mostly",
                            "reverse_sequential"};
    for (int k = 0; k < 4; k++) {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "access_style", styles[k]);
        CHECK_MPI(MPI_File_set_info(fh, info));
        MPI_Info_free(&info);
        expect_hint(fh, "access_style", styles[k]);
        CHECK_MPI(MPI_File_read_at(fh, HEAD + (MPI_Offset)rank * BLOCK, back, BLOCK, MPI_BYTE, &s));
        for (int i = 0; i < BLOCK; i++)
            CHECK(back[i] == bval(rank, i), "%s: byte %d", styles[k], i);
    }
    CHECK_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_dir_make(argc, argv);
    pvars_setup();
    striping();
    bad_values();
    access_style();
    pvars_done();
    io_dir_remove();
    MPI_Finalize();
    return 0;
}
