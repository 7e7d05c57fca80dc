/* Forwarding the ranks' stdout and stderr, line by line.
 *
 * Bytes from a rank's pipe collect in that rank's line buffer; each complete
 * line is appended whole to one queue per destination (our stdout or
 * stderr), with "[rank] " in front under -l.  Only whole lines enter a queue,
 * so lines of different ranks never mix.  The queues are written when poll
 * says the destination can take more, in chunks that end at a newline where
 * possible, so mpiexec never blocks on a slow reader while ranks wait for the
 * key-value server.  Above OUTQ_HIGH queued bytes we stop reading the ranks'
 * pipes: they block in write() until the reader catches up.
 *
 * A line longer than LINE_HOLD_MAX is forwarded in pieces (it may then mix
 * with other ranks' lines).  A last line without a newline is forwarded when
 * the rank closes the stream; a newline is added when there is more than one
 * rank or -l is on, so the next rank's output starts on a line of its own.
 *
 * Everything mpiexec itself says while ranks run goes through the stderr
 * queue too (output_report), so its reports never cut a rank's line. */
#include "mpiexec.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUTQ_HIGH (1u << 20)
#define LINE_HOLD_MAX (1u << 20)
#define WRITE_CHUNK 4096u
#define READ_CHUNK 65536u

void output_init(struct job *job)
{
    job->out[OUT_STDOUT].fd = STDOUT_FILENO;
    job->out[OUT_STDERR].fd = STDERR_FILENO;
}

static void emit(struct job *job, struct rank *r, int stream, const char *p, size_t n, int complete)
{
    struct outq *q = &job->out[stream];
    struct linebuf *lb = &r->line[stream];
    if (q->broken)
        return;
    if (job->opt->label && !lb->mid_line) {
        char pre[24];
        int len = snprintf(pre, sizeof pre, "[%d] ", r->rank);
        buf_append(&q->q, pre, (size_t)len);
    }
    buf_append(&q->q, p, n);
    lb->mid_line = !complete;
}

void output_feed(struct job *job, struct rank *r, int stream, const char *p, size_t n)
{
    struct linebuf *lb = &r->line[stream];
    while (n > 0) {
        const char *nl = memchr(p, '\n', n);
        if (!nl)
            break;
        size_t seg = (size_t)(nl - p) + 1;
        if (lb->b.len > 0) {
            buf_append(&lb->b, p, seg);
            emit(job, r, stream, buf_ptr(&lb->b), lb->b.len, 1);
            buf_consume(&lb->b, lb->b.len);
        } else if (!job->opt->label) {
            /* several whole lines at once: up to the last newline */
            const char *last = p + n - 1;
            while (*last != '\n')
                last--;
            seg = (size_t)(last - p) + 1;
            emit(job, r, stream, p, seg, 1);
        } else {
            emit(job, r, stream, p, seg, 1);
        }
        p += seg;
        n -= seg;
    }
    if (n > 0) {
        buf_append(&lb->b, p, n);
        if (lb->b.len > LINE_HOLD_MAX) {
            emit(job, r, stream, buf_ptr(&lb->b), lb->b.len, 0);
            buf_consume(&lb->b, lb->b.len);
        }
    }
}

void output_close_stream(struct job *job, struct rank *r, int stream)
{
    struct linebuf *lb = &r->line[stream];
    if (lb->b.len > 0) {
        if (job->opt->label || job->size > 1) {
            buf_append(&lb->b, "\n", 1);
            emit(job, r, stream, buf_ptr(&lb->b), lb->b.len, 1);
        } else {
            emit(job, r, stream, buf_ptr(&lb->b), lb->b.len, 0);
        }
    }
    buf_free(&lb->b);
    if (r->pipe[stream] >= 0) {
        close(r->pipe[stream]);
        r->pipe[stream] = -1;
    }
}

int output_blocked(const struct job *job, int stream)
{
    return job->out[stream].q.len > OUTQ_HIGH;
}

/* Reads what the pipe has (once, or until empty when 'unlimited').
 * Returns -1 once the stream is closed. */
int output_read(struct job *job, struct rank *r, int stream, int unlimited)
{
    static char chunk[READ_CHUNK];
    while (r->pipe[stream] >= 0) {
        ssize_t n = read(r->pipe[stream], chunk, sizeof chunk);
        if (n > 0) {
            output_feed(job, r, stream, chunk, (size_t)n);
            if (!unlimited)
                return 0;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        output_close_stream(job, r, stream); /* EOF or error */
    }
    return -1;
}

static void mark_broken(struct job *job, int stream)
{
    struct outq *q = &job->out[stream];
    q->broken = 1;
    buf_free(&q->q);
    /* As in a shell pipeline: the ranks now get EPIPE/SIGPIPE when they
     * write to this stream. */
    for (int i = 0; i < job->size; i++) {
        struct rank *r = &job->ranks[i];
        buf_free(&r->line[stream].b);
        if (r->pipe[stream] >= 0) {
            close(r->pipe[stream]);
            r->pipe[stream] = -1;
        }
    }
}

/* Size of the next write: whole lines up to WRITE_CHUNK where possible. */
static size_t next_chunk(const struct outq *q)
{
    size_t n = q->q.len < WRITE_CHUNK ? q->q.len : WRITE_CHUNK;
    if (n < q->q.len) {
        const char *p = buf_ptr(&q->q);
        size_t k = n;
        while (k > 0 && p[k - 1] != '\n')
            k--;
        if (k > 0)
            n = k;
    }
    return n;
}

void output_write_some(struct job *job, int stream)
{
    struct outq *q = &job->out[stream];
    if (q->broken || q->q.len == 0)
        return;
    ssize_t w = write(q->fd, buf_ptr(&q->q), next_chunk(q));
    if (w > 0)
        buf_consume(&q->q, (size_t)w);
    else if (w < 0 && errno != EINTR && errno != EAGAIN)
        mark_broken(job, stream);
}

/* At exit.  Blocking, but a signal (a second Ctrl-C, SIGTERM) ends it. */
void output_flush_all(struct job *job)
{
    for (int s = 0; s < 2; s++) {
        struct outq *q = &job->out[s];
        while (!q->broken && q->q.len > 0) {
            struct pollfd pfd = {.fd = q->fd, .events = POLLOUT};
            int rc = poll(&pfd, 1, -1);
            if (rc < 0 && errno == EINTR) {
                if (signals_take(SIGINT) || signals_take(SIGTERM) || signals_take(SIGHUP))
                    return;
                continue;
            }
            if (rc < 0 || (pfd.revents & (POLLERR | POLLNVAL))) {
                mark_broken(job, s);
                break;
            }
            output_write_some(job, s);
        }
    }
}

void output_report(struct job *job, const char *fmt, ...)
{
    struct outq *q = &job->out[OUT_STDERR];
    char line[1400];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (!q->broken)
        buf_append(&q->q, line, (size_t)n);
}

void output_free(struct job *job)
{
    for (int s = 0; s < 2; s++)
        buf_free(&job->out[s].q);
    for (int i = 0; i < job->size; i++)
        for (int s = 0; s < 2; s++)
            buf_free(&job->ranks[i].line[s].b);
}
