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
 * A line longer than LINE_HOLD_MAX is forwarded in pieces as it arrives.  Its
 * rank then owns the queue until the line ends: other ranks' lines wait in
 * their buffers (we keep reading them, so a rank blocked on output can never
 * hold up a fence) and mpiexec's own reports wait too.  Should another rank
 * pile up more than OTHERS_HOLD_MAX meanwhile, the long line is cut with a
 * newline rather than let memory grow without bound.
 *
 * A last line without a newline is forwarded when the rank closes the
 * stream; a newline is added when there is more than one rank or -l is on,
 * so the next rank's output starts on a line of its own.
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
#define LINE_HOLD_MAX (256u << 10)
#define OTHERS_HOLD_MAX (16u << 20)
#define WRITE_CHUNK 4096u
#define READ_CHUNK 65536u

void output_init(struct job *job)
{
    job->out[OUT_STDOUT].fd = STDOUT_FILENO;
    job->out[OUT_STDERR].fd = STDERR_FILENO;
    for (int s = 0; s < 2; s++) {
        job->out[s].owner = -1;
        job->out[s].line_start = 1;
    }
}

static void append(struct job *job, int stream, const char *p, size_t n)
{
    if (n == 0) return;
    buf_append(&job->out[stream].q, p, n);
    job->out[stream].line_start = p[n - 1] == '\n';
}

static void emit(struct job *job, struct rank *r, int stream, const char *p, size_t n, int complete)
{
    struct outq *q = &job->out[stream];
    struct linebuf *lb = &r->line[stream];
    if (q->broken) return;
    if (job->opt->label && !lb->mid_line) {
        char pre[24];
        int len = snprintf(pre, sizeof pre, "[%d] ", r->rank);
        append(job, stream, pre, (size_t)len);
    }
    append(job, stream, p, n);
    lb->mid_line = !complete;
    if (!complete) {
        q->owner = r->rank;
    } else if (q->owner == r->rank) {
        q->owner = -1;
        job->out[stream].pass_needed = 1;
    }
}

/* Cuts the owner's long line short (see above). */
static void force_release(struct job *job, int stream)
{
    struct outq *q = &job->out[stream];
    append(job, stream, "\n", 1);
    job->ranks[q->owner].line[stream].mid_line = 0;
    q->owner = -1;
    job->out[stream].pass_needed = 1;
}

/* Forwards what r's buffer holds, as far as ownership allows. */
static void process(struct job *job, struct rank *r, int stream)
{
    struct outq *q = &job->out[stream];
    struct linebuf *lb = &r->line[stream];
    while (lb->b.len > 0) {
        if (q->broken) {
            buf_free(&lb->b);
            return;
        }
        if (q->owner >= 0 && q->owner != r->rank) {
            if (lb->b.len <= OTHERS_HOLD_MAX) return;
            force_release(job, stream);
        }
        const char *p = buf_ptr(&lb->b);
        size_t n = lb->b.len;
        const char *nl = job->opt->label ? memchr(p, '\n', n) : memrchr(p, '\n', n);
        if (nl) { /* one line (-l), or every whole line at once */
            size_t seg = (size_t)(nl - p) + 1;
            emit(job, r, stream, p, seg, 1);
            buf_consume(&lb->b, seg);
        } else if (lb->eof) {
            int add_nl = job->opt->label || job->size > 1;
            emit(job, r, stream, p, n, !add_nl);
            if (add_nl) emit(job, r, stream, "\n", 1, 1);
            buf_consume(&lb->b, n);
        } else if (lb->mid_line || n > LINE_HOLD_MAX) {
            emit(job, r, stream, p, n, 0);
            buf_consume(&lb->b, n);
        } else {
            return; /* wait for the rest of the line */
        }
    }
    if (lb->eof && lb->mid_line && q->owner == r->rank) { /* ended inside a long line */
        if (job->opt->label || job->size > 1)
            emit(job, r, stream, "\n", 1, 1);
        else {
            lb->mid_line = 0;
            q->owner = -1;
            job->out[stream].pass_needed = 1;
        }
    }
    if (lb->eof) buf_free(&lb->b);
}

/* After a long line ended: forward what others held back, and our reports. */
static void pass(struct job *job, int stream)
{
    struct outq *q = &job->out[stream];
    while (job->out[stream].pass_needed) {
        job->out[stream].pass_needed = 0;
        if (q->owner < 0 && q->held.len > 0) {
            if (!q->broken) append(job, stream, buf_ptr(&q->held), q->held.len);
            buf_free(&q->held);
        }
        for (int i = 0; i < job->size; i++) process(job, &job->ranks[i], stream);
    }
}

static void feed(struct job *job, struct rank *r, int stream, const char *p, size_t n)
{
    buf_append(&r->line[stream].b, p, n);
    process(job, r, stream);
    pass(job, stream);
}

static void at_eof(struct job *job, struct rank *r, int stream)
{
    if (r->pipe[stream] >= 0) close(r->pipe[stream]);
    r->pipe[stream] = -1;
    r->line[stream].eof = 1;
    process(job, r, stream);
    pass(job, stream);
}

void output_feed(struct job *job, struct rank *r, int stream, const char *p, size_t n)
{
    feed(job, r, stream, p, n);
}

void output_eof(struct job *job, struct rank *r, int stream)
{
    if (!r->line[stream].eof) at_eof(job, r, stream);
}

int output_can_read(const struct job *job, const struct rank *r, int stream)
{
    (void)r;
    return job->alive == 0 || job->out[stream].q.len <= OUTQ_HIGH;
}

/* Reads what the pipe has (once, or until empty when 'unlimited').
 * Returns -1 once the stream is closed. */
int output_read(struct job *job, struct rank *r, int stream, int unlimited)
{
    static char chunk[READ_CHUNK];
    while (r->pipe[stream] >= 0) {
        ssize_t n = read(r->pipe[stream], chunk, sizeof chunk);
        if (n > 0) {
            feed(job, r, stream, chunk, (size_t)n);
            if (!unlimited) return 0;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return 0;
        at_eof(job, r, stream); /* end of file, or an error */
    }
    return -1;
}

int output_broken(const struct job *job)
{
    return job->out[OUT_STDOUT].broken || job->out[OUT_STDERR].broken;
}

static void mark_broken(struct job *job, int stream)
{
    struct outq *q = &job->out[stream];
    q->broken = 1;
    q->owner = -1;
    buf_free(&q->q);
    buf_free(&q->held);
    /* As in a shell pipeline: the ranks now get EPIPE/SIGPIPE when they
     * write to this stream. */
    for (int i = 0; i < job->size; i++) {
        struct rank *r = &job->ranks[i];
        buf_free(&r->line[stream].b);
        if (r->pipe[stream] >= 0) {
            close(r->pipe[stream]);
            r->pipe[stream] = -1;
        }
        r->line[stream].eof = 1;
    }
}

/* Size of the next write: whole lines up to WRITE_CHUNK where possible. */
static size_t next_chunk(const struct outq *q)
{
    size_t n = q->q.len < WRITE_CHUNK ? q->q.len : WRITE_CHUNK;
    if (n < q->q.len) {
        const char *p = buf_ptr(&q->q);
        size_t k = n;
        while (k > 0 && p[k - 1] != '\n') k--;
        if (k > 0) n = k;
    }
    return n;
}

void output_write_some(struct job *job, int stream)
{
    struct outq *q = &job->out[stream];
    if (q->broken || q->q.len == 0) return;
    ssize_t w = write(q->fd, buf_ptr(&q->q), next_chunk(q));
    if (w > 0)
        buf_consume(&q->q, (size_t)w);
    else if (w < 0 && errno != EINTR && errno != EAGAIN)
        mark_broken(job, stream);
}

/* Blocking, but a signal (a second Ctrl-C, SIGTERM) ends it. */
static void flush_all(struct job *job)
{
    for (int s = 0; s < 2; s++) {
        struct outq *q = &job->out[s];
        while (!q->broken && q->q.len > 0) {
            struct pollfd pfd = {.fd = q->fd, .events = POLLOUT};
            int rc = poll(&pfd, 1, -1);
            if (rc < 0 && errno == EINTR) {
                if (signals_take(SIGINT) || signals_take(SIGTERM) || signals_take(SIGHUP)) return;
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

void output_finish(struct job *job)
{
    for (int s = 0; s < 2; s++) {
        struct outq *q = &job->out[s];
        if (q->owner >= 0) /* let the long line end first */
            at_eof(job, &job->ranks[q->owner], s);
        for (int i = 0; i < job->size; i++) at_eof(job, &job->ranks[i], s);
        if (q->owner >= 0) force_release(job, s);
        q->pass_needed = 1;
        pass(job, s);
    }
    flush_all(job);
}

void output_report(struct job *job, const char *fmt, ...)
{
    struct outq *q = &job->out[OUT_STDERR];
    char line[1400];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || q->broken) return;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (q->owner >= 0) {
        buf_append(&q->held, line, (size_t)n);
        return;
    }
    if (!q->line_start) append(job, OUT_STDERR, "\n", 1);
    append(job, OUT_STDERR, line, (size_t)n);
}

void output_free(struct job *job)
{
    for (int s = 0; s < 2; s++) {
        buf_free(&job->out[s].q);
        buf_free(&job->out[s].held);
    }
    for (int i = 0; i < job->size; i++)
        for (int s = 0; s < 2; s++) buf_free(&job->ranks[i].line[s].b);
}
