/* MPI_Comm_join between two singletons (two jobs of one process each): the
 * program forks before MPI_Init, and the two ends of a socketpair join.
 * Run without mpiexec.  Both then exchange messages, reduce across the
 * intercommunicator and disconnect; the parent checks the child's exit. */
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tern_test.h"

static int run(int fd, int side)
{
    MPI_Init(NULL, NULL);
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_join(fd, &ic));
    int rsize = 0, flag = 0, v = 100 + side, got = -1;
    MPI_Comm_test_inter(ic, &flag);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(flag && rsize == 1, "join gave inter=%d remote size %d", flag, rsize);
    CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, ic, MPI_STATUS_IGNORE));
    CHECK(got == 100 + (1 - side), "side %d got %d", side, got);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == 100 + (1 - side), "allreduce gave %d", sum);
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    /* The socket is still the caller's. */
    char c = 'x';
    CHECK(write(fd, &c, 1) == 1 && read(fd, &c, 1) == 1 && c == 'x', "the socket after join");
    close(fd);
    MPI_Finalize();
    return 0;
}

int main(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        return run(sv[1], 1);
    }
    close(sv[1]);
    run(sv[0], 0);
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "FAIL: the other side of the join ended with status %d\n", st);
        return 1;
    }
    printf("join: ok\n");
    return 0;
}
