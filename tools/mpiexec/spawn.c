/* Starting one rank.
 *
 * Each rank gets one end of its own socketpair (the bootstrap channel; its
 * number is in TERN_BOOT_FD) and two pipes for stdout and stderr.  Every
 * descriptor mpiexec opens is close-on-exec, so a rank inherits only its
 * own: dup2 onto 0/1/2 and an explicit clear of FD_CLOEXEC on the boot fd
 * and on the job's shared-memory file (shmfile.c), the one fd all ranks
 * share.
 *
 * Process groups: every rank is the leader of a process group of its own,
 * not in mpiexec's.  A Ctrl-C in a terminal goes to the foreground process
 * group, which is mpiexec's alone, so mpiexec sees it once and forwards it
 * to each rank's group (which also reaches processes the rank started).
 * Were the ranks in mpiexec's group, each would get the terminal's SIGINT
 * and then mpiexec's copy too.  The price is that ranks cannot read the
 * terminal themselves (SIGTTIN); stdin_relay.c forwards it to rank 0.
 *
 * PR_SET_PDEATHSIG(SIGKILL) ties each rank to mpiexec: a kill -9 of mpiexec
 * takes the ranks with it.  The getppid() check after it closes the window
 * in which mpiexec could die before the prctl.
 *
 * Signals are blocked across fork, so a SIGTERM meant for a rank cannot be
 * swallowed by a copy of mpiexec's handler in the not-yet-exec'd child. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

static void child_report(int boot_fd, int err, const char *what)
{
    char msg[64];
    int n = snprintf(msg, sizeof msg, "execfail %d %s\n", err, what);
    if (n > 0 && send(boot_fd, msg, (size_t)n, MSG_NOSIGNAL) < 0) {
        /* mpiexec is gone; nothing to tell */
    }
}

static _Noreturn void child(pid_t parent, int stdin_fd, int out_fd, int err_fd, int boot_fd,
                            int shm_fd, const struct block *b, char **envp)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (stdin_fd != STDIN_FILENO && dup2(stdin_fd, STDIN_FILENO) < 0) _exit(127);
    if (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0) _exit(127);
    if (set_cloexec(boot_fd, 0) < 0 || (shm_fd >= 0 && set_cloexec(shm_fd, 0) < 0)) _exit(127);
    if (b->wdir && chdir(b->wdir) < 0) {
        child_report(boot_fd, errno, "chdir");
        _exit(127);
    }
    signals_child_reset();
    execve(b->path, b->argv, envp);
    int err = errno;
    if (err == ENOEXEC) { /* a script without #!: run it with sh, as execvp does */
        size_t n = 0;
        while (b->argv[n]) n++;
        char **av = malloc((n + 2) * sizeof(char *));
        if (av) {
            av[0] = "sh";
            av[1] = b->path;
            for (size_t i = 1; i <= n; i++) av[i + 1] = b->argv[i];
            execve("/bin/sh", av, envp);
        }
    }
    child_report(boot_fd, err, "exec");
    _exit(127);
}

int spawn_rank(struct job *job, struct rank *r, struct rank_env *re, const struct block *b)
{
    int sv[2], po[2], pe[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        fprintf(stderr, "mpiexec: socketpair for rank %d: %s\n", r->rank, strerror(errno));
        return -1;
    }
    if (pipe2(po, O_CLOEXEC) < 0) {
        fprintf(stderr, "mpiexec: pipe for rank %d: %s\n", r->rank, strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pipe2(pe, O_CLOEXEC) < 0) {
        fprintf(stderr, "mpiexec: pipe for rank %d: %s\n", r->rank, strerror(errno));
        close(sv[0]);
        close(sv[1]);
        close(po[0]);
        close(po[1]);
        return -1;
    }
    int stdin_fd = job->devnull;
    if (r->rank == 0) stdin_fd = job->relay.active ? job->relay.child_r : STDIN_FILENO;
    envbuild_rank(re, r->rank, sv[1]);

    pid_t parent = getpid();
    sigset_t old;
    signals_block_all(&old);
    pid_t pid = fork();
    if (pid == 0) child(parent, stdin_fd, po[1], pe[1], sv[1], job->shm_fd, b, re->envp);
    int err = errno;
    signals_restore(&old);
    close(sv[1]);
    close(po[1]);
    close(pe[1]);
    if (pid < 0) {
        close(sv[0]);
        close(po[0]);
        close(pe[0]);
        fprintf(stderr, "mpiexec: cannot start rank %d: fork: %s\n", r->rank, strerror(err));
        return -1;
    }
    setpgid(pid, pid); /* also done by the child; whichever runs first wins */
    r->pid = pid;
    r->sock = sv[0];
    r->pipe[OUT_STDOUT] = po[0];
    r->pipe[OUT_STDERR] = pe[0];
    set_nonblock(sv[0]);
    set_nonblock(po[0]);
    set_nonblock(pe[0]);
    job->alive++;
    job->spawned++;
    return 0;
}
