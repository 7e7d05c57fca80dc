/* An "external32" file written at one rank count and read at another:
 * "write PATH" lays out a header, NX doubles (rank r of n owning elements
 * r, r + n, ...: a vector filetype) and NX ints (in blocks, one a rank);
 * "read PATH" reads both back with its own rank count's decomposition and
 * checks the values, and rank 0 checks a few of the file's bytes by hand.
 * ctest runs the writer at 4 ranks, the readers at 1 and 3. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tern_test.h"

#define NX 24 /* a multiple of 1, 2, 3 and 4 */
#define HDR 8
#define INTS (HDR + NX * 8)

static double xd(int i) { return i * -1.5 + 0.125; }
static int xi(int i) { return (i - 12) * 100003; }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc == 3 && NX % size == 0, "usage: %s write|read PATH (at 1 to 4 ranks)", argv[0]);
    int writing = strcmp(argv[1], "write") == 0;
    int per = NX / size;
    MPI_Datatype strided;
    MPI_Type_vector(per, 1, size, MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    MPI_File fh;
    MPI_Status s;
    double d[NX];
    int v[NX];
    for (int k = 0; k < per; k++) {
        d[k] = xd(rank + k * size);
        v[k] = xi(rank * per + k);
    }
    if (writing && rank == 0) unlink(argv[2]); /* a run before may have left it */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, argv[2],
                            writing ? MPI_MODE_RDWR | MPI_MODE_CREATE : MPI_MODE_RDONLY,
                            MPI_INFO_NULL, &fh));
    if (writing) {
        if (rank == 0) CHECK_MPI(MPI_File_write_at(fh, 0, "TERNX32", HDR, MPI_CHAR, &s));
        CHECK_MPI(MPI_File_set_view(fh, HDR + rank * 8, MPI_DOUBLE, strided, "external32",
                                    MPI_INFO_NULL));
        CHECK_MPI(MPI_File_write_all(fh, d, per, MPI_DOUBLE, &s));
        CHECK_MPI(MPI_File_set_view(fh, INTS + rank * per * 4, MPI_INT, MPI_INT, "external32",
                                    MPI_INFO_NULL));
        CHECK_MPI(MPI_File_write_all(fh, v, per, MPI_INT, &s));
    } else {
        double dr[NX];
        int vr[NX];
        CHECK_MPI(MPI_File_set_view(fh, HDR + rank * 8, MPI_DOUBLE, strided, "external32",
                                    MPI_INFO_NULL));
        CHECK_MPI(MPI_File_read_all(fh, dr, per, MPI_DOUBLE, &s));
        CHECK_MPI(MPI_File_set_view(fh, INTS + rank * per * 4, MPI_INT, MPI_INT, "external32",
                                    MPI_INFO_NULL));
        CHECK_MPI(MPI_File_read_all(fh, vr, per, MPI_INT, &s));
        for (int k = 0; k < per; k++) {
            CHECK(dr[k] == d[k], "double %d read as %g, expected %g", rank + k * size, dr[k], d[k]);
            CHECK(vr[k] == v[k], "int %d read as %d, expected %d", rank * per + k, vr[k], v[k]);
        }
        if (rank == 0) {
            unsigned char b[INTS + NX * 4];
            int fd = open(argv[2], O_RDONLY);
            CHECK(fd >= 0 && pread(fd, b, sizeof b, 0) == (ssize_t)sizeof b &&
                      lseek(fd, 0, SEEK_END) == (off_t)sizeof b,
                  "%s is not %zu bytes", argv[2], sizeof b);
            close(fd);
            uint64_t u = 0, want;
            double x = xd(NX - 1);
            memcpy(&want, &x, 8);
            for (int i = 0; i < 8; i++) u = u << 8 | b[HDR + (NX - 1) * 8 + i];
            CHECK(memcmp(b, "TERNX32", HDR) == 0 && u == want, "the header or the last double");
            uint32_t w = (uint32_t)b[INTS] << 24 | (uint32_t)b[INTS + 1] << 16 |
                         (uint32_t)b[INTS + 2] << 8 | b[INTS + 3];
            CHECK(w == (uint32_t)xi(0), "the first int on disk is 0x%08x", w);
        }
    }
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Type_free(&strided);
    MPI_Finalize();
    return 0;
}
