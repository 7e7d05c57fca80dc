/* stdin goes to rank 0; the other ranks read /dev/null.
 *
 * When mpiexec's stdin is a file or a pipe, rank 0 simply inherits it.  When
 * it is the terminal, rank 0 cannot read it directly: the ranks live in
 * process groups of their own (see spawn.c) and a background group reading
 * the terminal is stopped with SIGTTIN.  Then mpiexec, which is the
 * foreground group, reads the terminal and copies it into a pipe that is rank
 * 0's stdin.  End of input (Ctrl-D) closes the pipe.
 *
 * Across hosts rank 0 cannot inherit anything of mpiexec's: mpiexec reads
 * its stdin (file, pipe or terminal alike) and sends it as "i" frames to the
 * proxy of rank 0's host, which copies them into a pipe as above (its half
 * is relay_open and relay_write).  Flow control is a window: mpiexec stops
 * reading while RELAY_WINDOW bytes it sent are not yet in rank 0's pipe
 * (the proxy counts them back with "ia"), so a slow reader holds back the
 * writer of mpiexec's stdin instead of filling mpiexec's memory. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define RELAY_MAX 65536
#define RELAY_WINDOW (256 * 1024)

int relay_open(struct job *job)
{
    struct stdin_relay *s = &job->relay;
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) return -1;
    set_nonblock(p[1]);
    s->child_r = p[0];
    s->pipe_w = p[1];
    s->active = 1;
    s->src_open = 1;
    return 0;
}

void relay_setup(struct job *job)
{
    struct stdin_relay *s = &job->relay;
    s->pipe_w = s->child_r = -1;
    if (!isatty(STDIN_FILENO) || tcgetpgrp(STDIN_FILENO) != getpgrp()) return;
    relay_open(job); /* on failure rank 0 inherits the terminal */
}

void relay_remote_setup(struct job *job)
{
    struct stdin_relay *s = &job->relay;
    s->pipe_w = s->child_r = -1;
    /* In the background a read of the terminal would stop mpiexec (SIGTTIN):
     * rank 0 gets end of file, as it would from /dev/null. */
    s->src_open = !isatty(STDIN_FILENO) || tcgetpgrp(STDIN_FILENO) == getpgrp();
}

int relay_remote_wants(const struct job *job)
{
    const struct stdin_relay *s = &job->relay;
    return s->src_open && s->sent - s->written < RELAY_WINDOW;
}

void relay_remote_read(struct job *job, struct buf *out)
{
    struct stdin_relay *s = &job->relay;
    static char chunk[RELAY_MAX];
    size_t room = (size_t)(RELAY_WINDOW - (s->sent - s->written));
    ssize_t n = read(STDIN_FILENO, chunk, room < sizeof chunk ? room : sizeof chunk);
    if (n > 0) {
        wire_put_input(out, 0, chunk, (size_t)n);
        s->sent += n;
        return;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    s->src_open = 0; /* end of input, or an error: rank 0 sees end of file */
    wire_put(out, "ie 0");
}

void relay_remote_written(struct job *job, long long n) { job->relay.written += n; }

void relay_after_spawn(struct job *job)
{
    if (job->relay.child_r >= 0) {
        close(job->relay.child_r);
        job->relay.child_r = -1;
    }
}

void relay_stop(struct job *job)
{
    struct stdin_relay *s = &job->relay;
    if (s->pipe_w >= 0) close(s->pipe_w);
    s->pipe_w = -1;
    s->src_open = 0;
    buf_free(&s->pending);
}

void relay_read(struct job *job)
{
    struct stdin_relay *s = &job->relay;
    char chunk[4096];
    ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
    if (n > 0) {
        buf_append(&s->pending, chunk, (size_t)n);
        relay_write(job);
        return;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    s->src_open = 0; /* end of input, or an error: rank 0 sees end of file */
    if (s->pending.len == 0) relay_stop(job);
}

void relay_write(struct job *job)
{
    struct stdin_relay *s = &job->relay;
    if (s->pipe_w < 0) return;
    if (s->pending.len > 0) {
        ssize_t w = write(s->pipe_w, buf_ptr(&s->pending), s->pending.len);
        if (w > 0)
            buf_consume(&s->pending, (size_t)w);
        else if (w < 0 && errno != EINTR && errno != EAGAIN) {
            relay_stop(job); /* rank 0 closed its stdin */
            return;
        }
    }
    if (s->pending.len == 0 && !s->src_open) relay_stop(job);
}

int relay_wants_input(const struct job *job)
{
    const struct stdin_relay *s = &job->relay;
    return s->active && s->src_open && s->pipe_w >= 0 && s->pending.len < RELAY_MAX;
}
