/* Nonblocking access that overlaps: a write started in atomic mode waits
 * for a byte-range lock another process holds, so MPI_Test must keep
 * saying "not done" while the program goes on, and MPI_Wait completes it
 * once the lock goes.  Then the data is checked byte for byte, and a
 * freed pending request still completes before the file closes. */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "io_common.h"

#define B 65536

static int rank, size;

/* A child process that holds a write lock on [from, from + len) of path
 * until it reads a byte from *release. */
static pid_t lock_holder(const char *path, off_t from, off_t len, int *release)
{
    int held[2], go[2];
    CHECK(pipe(held) == 0 && pipe(go) == 0, "pipe");
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        int fd = open(path, O_RDWR);
        struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = from, .l_len = len};
        char c = fd >= 0 && fcntl(fd, F_SETLKW, &l) == 0 ? 'y' : 'n';
        if (write(held[1], &c, 1) != 1) _exit(1);
        if (read(go[0], &c, 1) != 1) _exit(1);
        _exit(0);
    }
    char c = 0;
    CHECK(read(held[0], &c, 1) == 1 && c == 'y', "the lock holder could not lock %s", path);
    close(held[0]);
    close(held[1]);
    close(go[0]);
    *release = go[1];
    return pid;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_dir_make(argc, argv);
    const char *path = io_path("async");
    MPI_File fh;
    MPI_Request req;
    MPI_Status st;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_atomicity(fh, 1));
    unsigned char *buf = malloc(B), *back = malloc(B);
    for (int i = 0; i < B; i++) buf[i] = (unsigned char)(rank * 31 + i * 7);

    int release;
    pid_t holder = lock_holder(path, (off_t)rank * B, B, &release);
    CHECK_MPI(MPI_File_iwrite_at(fh, (MPI_Offset)rank * B, buf, B, MPI_BYTE, &req));
    /* The program computes and tests while the I/O thread waits for the lock. */
    volatile double x = 0;
    for (int k = 0; k < 50; k++) {
        int flag = 1;
        for (int i = 0; i < 20000; i++) x += i * 0.5;
        CHECK_MPI(MPI_Test(&req, &flag, &st));
        CHECK(!flag, "the write completed while another process held its range's lock");
        usleep(1000);
    }
    CHECK(x > 0, "the computation did not run");
    CHECK(write(release, "g", 1) == 1, "cannot release the lock holder");
    close(release);
    CHECK(waitpid(holder, NULL, 0) == holder, "waitpid");
    CHECK_MPI(MPI_Wait(&req, &st));
    int n;
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(n == B, "iwrite_at counted %d", n);

    /* Read back every rank's block, nonblocking, through the individual
     * pointer, which moves when the read starts. */
    MPI_Barrier(MPI_COMM_WORLD);
    int peer = (rank + 1) % size;
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)peer * B, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_iread(fh, back, B, MPI_BYTE, &req));
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)(peer + 1) * B, "position %lld right after iread", (long long)pos);
    CHECK_MPI(MPI_Wait(&req, &st));
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(n == B, "iread counted %d", n);
    for (int i = 0; i < B; i++)
        CHECK(back[i] == (unsigned char)(peer * 31 + i * 7), "byte %d of rank %d's block is %d", i,
              peer, back[i]);

    /* Errors of the start are the call's, on the file's handler. */
    MPI_File ro;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &ro));
    expect(MPI_File_iwrite_at(ro, 0, buf, 1, MPI_BYTE, &req), MPI_ERR_READ_ONLY,
           "MPI_File_iwrite_at", path);
    CHECK_MPI(MPI_File_close(&ro));

    /* A request freed while pending still writes before the file closes. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_iwrite_shared(fh, buf, 16, MPI_BYTE, &req));
    CHECK_MPI(MPI_Request_free(&req));
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Offset shared;
    CHECK_MPI(MPI_File_get_position_shared(fh, &shared));
    CHECK(shared == 16 * size, "shared position %lld after %d iwrite_shared", (long long)shared,
          size);
    CHECK_MPI(MPI_File_close(&fh));
    free(buf);
    free(back);
    io_dir_remove();
    MPI_Finalize();
    return 0;
}
