/* The shared file pointer: records written by every rank at once land
 * whole, once each, in each rank's order; the ordered forms follow rank
 * order; seek_shared, get_position_shared, and MPI_MODE_SEQUENTIAL.
 *
 * argv[2] "spanning": the ranks sit on several hosts (real or simulated),
 * so the pointer must live in a hidden file beside the data file while it
 * is open; otherwise there must be none.  Either way nothing is left at
 * the end, and MPI_File_delete removes the hidden files a killed job left. */
#include <fcntl.h>
#include <stdlib.h>

#include "io_common.h"

#define K 64   /* ints in a record */
#define RECS 5 /* records per rank */

static int rank, size;

static void shared_records(MPI_File fh, const char *path)
{
    MPI_Status s;
    MPI_Request req;
    int rec[K];
    for (int q = 0; q < RECS; q++) {
        for (int k = 0; k < K; k++)
            rec[k] = k < 2 ? (k == 0 ? rank : q) : rank * 100000 + q * 100 + k;
        if (q % 2) {
            CHECK_MPI(MPI_File_iwrite_shared(fh, rec, K, MPI_INT, &req));
            CHECK_MPI(MPI_Wait(&req, &s));
        } else {
            CHECK_MPI(MPI_File_write_shared(fh, rec, K, MPI_INT, &s));
        }
        int n;
        MPI_Get_count(&s, MPI_INT, &n);
        CHECK(n == K, "write_shared counted %d", n);
    }
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)size * RECS * K, "shared position %lld after the records",
          (long long)pos);
    if (rank == 0) {
        int fd = open(path, O_RDONLY);
        size_t n = (size_t)size * RECS * K;
        int *all = malloc(n * sizeof *all);
        CHECK(pread(fd, all, n * sizeof *all, 0) == (ssize_t)(n * sizeof *all), "short file");
        close(fd);
        int *next = calloc((size_t)size, sizeof *next);
        for (size_t r = 0; r < (size_t)size * RECS; r++) {
            int *p = all + r * K, who = p[0], q = p[1];
            CHECK(who >= 0 && who < size && q == next[who],
                  "record %zu: rank %d record %d, expected that rank's record %d", r, who, q,
                  who >= 0 && who < size ? next[who] : -1);
            for (int k = 2; k < K; k++)
                CHECK(p[k] == who * 100000 + q * 100 + k, "record %zu torn at %d", r, k);
            next[who]++;
        }
        free(next);
        free(all);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void ordered(MPI_File fh, const char *path, int split)
{
    MPI_Status s;
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int mine = rank + 1, buf[64];
    for (int k = 0; k < mine; k++) buf[k] = rank * 10 + k;
    if (split) {
        CHECK_MPI(MPI_File_write_ordered_begin(fh, buf, mine, MPI_INT));
        CHECK_MPI(MPI_File_write_ordered_end(fh, buf, &s));
    } else {
        CHECK_MPI(MPI_File_write_ordered(fh, buf, mine, MPI_INT, &s));
    }
    int total = size * (size + 1) / 2;
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == total, "shared position %lld after write_ordered, expected %d", (long long)pos,
          total);
    CHECK_MPI(MPI_File_sync(fh));
    if (rank == 0) {
        int fd = open(path, O_RDONLY), v[64 * 64];
        CHECK(pread(fd, v, (size_t)total * sizeof(int), 0) == (ssize_t)(total * sizeof(int)),
              "short file");
        close(fd);
        int at = 0;
        for (int r = 0; r < size; r++)
            for (int k = 0; k <= r; k++, at++)
                CHECK(v[at] == r * 10 + k, "ordered: int %d is %d, expected %d", at, v[at],
                      r * 10 + k);
    }
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    for (int k = 0; k < mine; k++) buf[k] = -1;
    if (split) {
        CHECK_MPI(MPI_File_read_ordered_begin(fh, buf, mine, MPI_INT));
        CHECK_MPI(MPI_File_read_ordered_end(fh, buf, &s));
    } else {
        CHECK_MPI(MPI_File_read_ordered(fh, buf, mine, MPI_INT, &s));
    }
    for (int k = 0; k < mine; k++)
        CHECK(buf[k] == rank * 10 + k, "read_ordered: int %d is %d", k, buf[k]);
    /* read_shared: each rank one int, each a different one. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int one = -1, n;
    CHECK_MPI(MPI_File_read_shared(fh, &one, 1, MPI_INT, &s));
    MPI_Get_count(&s, MPI_INT, &n);
    int *seen = malloc((size_t)size * sizeof *seen);
    MPI_Allgather(&one, 1, MPI_INT, seen, 1, MPI_INT, MPI_COMM_WORLD);
    for (int a = 0; a < size; a++)
        for (int b = a + 1; b < size; b++)
            CHECK(seen[a] != seen[b], "ranks %d and %d read the same int %d", a, b, seen[a]);
    free(seen);
    CHECK(n == 1, "read_shared counted %d", n);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Entries of the test's directory whose names start with '.' + base + tag. */
static int hidden_files(const char *base)
{
    char pre[256];
    snprintf(pre, sizeof pre, ".%s.tern-shfp.", base);
    DIR *d = opendir(io_dir);
    CHECK(d != NULL, "cannot list %s", io_dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) n += strncmp(e->d_name, pre, strlen(pre)) == 0;
    closedir(d);
    return n;
}

/* A hidden file a killed job left goes with the data file. */
static void delete_stale(void)
{
    if (rank == 0) {
        const char *data = io_path("stale"), *left = io_path(".stale.tern-shfp.4242-0");
        const char *other = io_path(".stalemate.tern-shfp.1-0");
        int fds[3] = {open(data, O_CREAT | O_WRONLY, 0600), open(left, O_CREAT | O_WRONLY, 0600),
                      open(other, O_CREAT | O_WRONLY, 0600)};
        for (int i = 0; i < 3; i++) {
            CHECK(fds[i] >= 0, "cannot make test file %d", i);
            close(fds[i]);
        }
        CHECK_MPI(MPI_File_delete(data, MPI_INFO_NULL));
        CHECK(access(data, F_OK) != 0, "MPI_File_delete left the file");
        CHECK(hidden_files("stale") == 0, "MPI_File_delete left the stale shared-pointer file");
        CHECK(access(other, F_OK) == 0, "MPI_File_delete removed another file's hidden file");
        unlink(other);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void sequential(void)
{
    const char *path = io_path("sequential");
    MPI_File fh;
    MPI_Status s;
    int v = rank;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_SEQUENTIAL |
                                MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    expect(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, &s), MPI_ERR_UNSUPPORTED_OPERATION,
           "MPI_File_write_at", "MPI_MODE_SEQUENTIAL");
    expect(MPI_File_write(fh, &v, 1, MPI_INT, &s), MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_write",
           NULL);
    CHECK_MPI(MPI_File_write_ordered(fh, &v, 1, MPI_INT, &s));
    CHECK_MPI(
        MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    MPI_Offset disp;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(disp == (MPI_Offset)(size * sizeof(int)), "MPI_DISPLACEMENT_CURRENT gave %lld",
          (long long)disp);
    CHECK_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    io_dir_make(argc, argv);
    const char *path = io_path("shared");
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    int spanning = argc > 2 && strcmp(argv[2], "spanning") == 0;
    if (rank == 0)
        CHECK(hidden_files("shared") == (spanning ? 1 : 0),
              "%d hidden shared-pointer files beside the open file, expected %d",
              hidden_files("shared"), spanning ? 1 : 0);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    shared_records(fh, path);
    ordered(fh, path, 0);
    ordered(fh, path, 1);
    CHECK_MPI(MPI_File_close(&fh));
    sequential();
    delete_stale();
    io_dir_remove();
    MPI_Finalize();
    return 0;
}
