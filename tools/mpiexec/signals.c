/* Signals.  Handlers only count the signal and write a byte to a self-pipe
 * that the poll loop watches; all work happens in the loop.  Handlers are
 * installed without SA_RESTART, so a signal also interrupts any blocking call
 * (the final flush of output) and the loop gets to look at it.
 *
 * SIGPIPE is ignored: a write to a rank that has gone away returns EPIPE.
 * A signal that was ignored when mpiexec started (nohup, '&' in a script)
 * stays ignored, for mpiexec and for the ranks. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int handled[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT};
#define NHANDLED (sizeof handled / sizeof handled[0])

static volatile sig_atomic_t counts[NHANDLED];
static int self_pipe[2] = {-1, -1};
static int was_ignored[NHANDLED];
static int pipe_was_ignored;
static sigset_t start_mask;

static int slot(int sig)
{
    for (size_t i = 0; i < NHANDLED; i++)
        if (handled[i] == sig) return (int)i;
    return -1;
}

static void on_signal(int sig)
{
    int saved = errno;
    int i = slot(sig);
    if (i >= 0) counts[i]++;
    char c = (char)sig;
    if (write(self_pipe[1], &c, 1) < 0) {
        /* full pipe: the loop wakes up anyway */
    }
    errno = saved;
}

int signals_init(void)
{
    if (pipe2(self_pipe, O_CLOEXEC | O_NONBLOCK) < 0) return -1;
    sigprocmask(SIG_SETMASK, NULL, &start_mask);
    struct sigaction old, sa;
    sigaction(SIGPIPE, NULL, &old);
    pipe_was_ignored = old.sa_handler == SIG_IGN;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    for (size_t i = 0; i < NHANDLED; i++) {
        sigaction(handled[i], NULL, &old);
        was_ignored[i] = old.sa_handler == SIG_IGN;
        if (was_ignored[i] && handled[i] != SIGCHLD && handled[i] != SIGCONT) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask);
        sa.sa_flags = handled[i] == SIGCHLD ? SA_NOCLDSTOP : 0; /* no SA_RESTART */
        sigaction(handled[i], &sa, NULL);
    }
    /* Make sure none of ours is blocked (an inherited mask could). */
    sigset_t ours;
    sigemptyset(&ours);
    for (size_t i = 0; i < NHANDLED; i++) sigaddset(&ours, handled[i]);
    sigprocmask(SIG_UNBLOCK, &ours, NULL);
    return 0;
}

int signals_fd(void) { return self_pipe[0]; }

void signals_drain(void)
{
    char b[64];
    while (read(self_pipe[0], b, sizeof b) > 0) {}
}

int signals_take(int sig)
{
    int i = slot(sig);
    if (i < 0 || counts[i] == 0) return 0;
    /* Only the loop decrements; a handler may add more meanwhile. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int n = counts[i];
    counts[i] = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return n;
}

void signals_block_all(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old);
}

void signals_restore(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

/* In a freshly forked child, with all signals blocked: give the program the
 * dispositions and mask that mpiexec itself was started with. */
void signals_child_reset(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NHANDLED; i++) {
        sa.sa_handler = was_ignored[i] ? SIG_IGN : SIG_DFL;
        sigaction(handled[i], &sa, NULL);
    }
    sa.sa_handler = pipe_was_ignored ? SIG_IGN : SIG_DFL;
    sigaction(SIGPIPE, &sa, NULL);
    sigprocmask(SIG_SETMASK, &start_mask, NULL);
}
