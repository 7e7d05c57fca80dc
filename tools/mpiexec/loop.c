/* The poll loop: one poll(2) over the self-pipe, every rank's socket and
 * pipes, our stdout/stderr when output is queued, and the terminal when
 * stdin is relayed.  Its timeout is the nearest deadline (--timeout, the
 * SIGKILL escalation, giving up on unkillable ranks, the output drain), so
 * no wait is without an end.
 *
 * The loop ends when every rank has been reaped and their pipes are closed;
 * pipes still held open by the ranks' own children are given 100 ms. */
#include "mpiexec.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DRAIN_MS 100

enum what { W_SIG, W_SOCK, W_PIPE, W_OUT, W_STDIN, W_RELAY, W_REMOTE };

struct slot {
    enum what what;
    int rank, stream;
};

static int open_pipes(const struct job *job)
{
    for (int i = 0; i < job->size; i++)
        if (job->ranks[i].pipe[0] >= 0 || job->ranks[i].pipe[1] >= 0) return 1;
    return remote_streams_open(job);
}

static int min_timeout(int64_t now, int64_t deadline, int cur)
{
    if (deadline == 0) return cur;
    int64_t d = deadline - now;
    if (d < 0) d = 0;
    if (cur < 0 || d < cur) return (int)d;
    return cur;
}

int job_run(struct job *job)
{
    size_t max = 3 * (size_t)job->size + 6;
    size_t cap = 0;
    struct pollfd *pfd = xcalloc(max, sizeof *pfd);
    struct slot *tag = xcalloc(max, sizeof *tag);

    for (;;) {
        size_t need = max + remote_poll_max(job);
        if (need > cap) { /* proxies' connections come and go */
            cap = need;
            pfd = xrealloc(pfd, cap * sizeof *pfd);
            tag = xrealloc(tag, cap * sizeof *tag);
        }
        int64_t now = now_ms();
        if (job->alive == 0) {
            if (job->t_drain == 0) job->t_drain = now + DRAIN_MS;
            if (!open_pipes(job) || now >= job->t_drain) break;
        } else if (job->killed && now >= job->t_giveup) {
            output_report(job,
                          "mpiexec: %d rank%s did not exit even after SIGKILL; giving up on them",
                          job->alive, job->alive == 1 ? "" : "s");
            break;
        }

        size_t n = 0;
        pfd[n] = (struct pollfd){.fd = signals_fd(), .events = POLLIN};
        tag[n++] = (struct slot){W_SIG, -1, 0};
        for (int i = 0; i < job->size; i++) {
            struct rank *r = &job->ranks[i];
            if (r->sock >= 0) {
                short ev = (short)((kvs_want_read(r) ? POLLIN : 0) | (r->out.len ? POLLOUT : 0));
                if (ev) {
                    pfd[n] = (struct pollfd){.fd = r->sock, .events = ev};
                    tag[n++] = (struct slot){W_SOCK, i, 0};
                }
            }
            for (int s = 0; s < 2; s++)
                if (r->pipe[s] >= 0 && output_can_read(job, r, s)) {
                    pfd[n] = (struct pollfd){.fd = r->pipe[s], .events = POLLIN};
                    tag[n++] = (struct slot){W_PIPE, i, s};
                }
        }
        for (int s = 0; s < 2; s++)
            if (job->out[s].q.len > 0 && !job->out[s].broken) {
                pfd[n] = (struct pollfd){.fd = job->out[s].fd, .events = POLLOUT};
                tag[n++] = (struct slot){W_OUT, -1, s};
            }
        if (relay_wants_input(job)) {
            pfd[n] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
            tag[n++] = (struct slot){W_STDIN, -1, 0};
        }
        if (job->relay.pipe_w >= 0 && job->relay.pending.len > 0) {
            pfd[n] = (struct pollfd){.fd = job->relay.pipe_w, .events = POLLOUT};
            tag[n++] = (struct slot){W_RELAY, -1, 0};
        }

        size_t remote_at = n, remote_n = remote_poll_add(job, pfd + n, cap - n);
        for (size_t k = 0; k < remote_n; k++) tag[n++] = (struct slot){W_REMOTE, -1, 0};

        int timeout = -1;
        timeout = min_timeout(now, remote_next_deadline(job), timeout);
        timeout = min_timeout(now, job->reason == END_NONE ? job->t_timeout : 0, timeout);
        timeout = min_timeout(now, job->t_kill, timeout);
        timeout = min_timeout(now, job->killed ? job->t_giveup : 0, timeout);
        timeout = min_timeout(now, job->alive == 0 ? job->t_drain : 0, timeout);

        int rc = poll(pfd, n, timeout);
        if (rc < 0 && errno != EINTR) { /* cannot happen short of a bug: do not hang */
            output_report(job, "mpiexec: poll: %s; killing the job", strerror(errno));
            if (job->reason == END_NONE) {
                job->reason = END_FAILED;
                job->exit_code = 1;
            }
            job_signal_all(job, SIGKILL);
            break;
        }
        signals_drain();
        if (signals_take(SIGCHLD)) job_reap(job);
        job_signals(job);

        if (rc > 0) remote_poll_handle(job, pfd + remote_at, remote_n);
        for (size_t k = 0; rc > 0 && k < remote_at; k++) {
            if (!pfd[k].revents) continue;
            struct rank *r = tag[k].rank >= 0 ? &job->ranks[tag[k].rank] : NULL;
            switch (tag[k].what) {
            case W_SIG: break;
            case W_SOCK:
                if (r->sock != pfd[k].fd) break;
                if (pfd[k].revents & POLLOUT) kvs_write(job, r);
                if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) kvs_read(job, r);
                break;
            case W_PIPE:
                if (r->pipe[tag[k].stream] == pfd[k].fd)
                    output_read(job, r, tag[k].stream, job->alive == 0);
                break;
            case W_OUT: output_write_some(job, tag[k].stream); break;
            case W_STDIN: relay_read(job); break;
            case W_RELAY: relay_write(job); break;
            case W_REMOTE: break;
            }
        }
        job_deadlines(job);
        remote_deadlines(job);
    }
    free(pfd);
    free(tag);

    output_finish(job);
    remote_finish(job);
    return job->reason == END_NONE ? 0 : job->exit_code;
}
