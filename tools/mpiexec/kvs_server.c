/* The bootstrap key-value server.
 *
 * Transport: one AF_UNIX stream socketpair per rank, created by mpiexec
 * before the fork; the rank finds its end in TERN_BOOT_FD.  Nothing is bound
 * in the file system, so only the job's own processes can talk to it.  On
 * other hosts the rank's socket leads to that host's proxy, which relays
 * each line here unchanged (remote.c); the answers go back the same way.
 *
 * Protocol (version 1): lines of text, one request or answer per line, words
 * separated by single spaces.  Keys are 1..63 bytes and values 0..1024 bytes
 * of printable ASCII without spaces.  Requests from the rank:
 *
 *   init 1 <pid>          -> "ok"           first message; the rank is MPI
 *   put <key> <value>     (no answer)       store; a later put replaces
 *   get <key>             -> "val <value>" or "absent"
 *   fence                 -> "fence-done"   once every rank has sent fence
 *   fin                   -> "ok"           entering MPI_Finalize
 *   abort <code> [<text>] (no answer)       end the job with exit code
 *                                           <code>; <text> is free text to
 *                                           the end of the line
 *
 * and, from mpiexec's own child when exec or chdir fails before the program
 * starts, "execfail <errno> exec|chdir".
 *
 * A put is stored at once, so it is certainly visible to every get after the
 * next fence (and may be seen earlier).  Gets are answered at once, inside or
 * outside a fence.  Fences may repeat any number of times.  A fence that can
 * never complete, because a rank that has not entered it has exited, ends the
 * job with a report instead of hanging.  Any other line ends the job as a
 * protocol error.  A rank "connected" once it sent anything; exiting after
 * that without "fin" is an error (teardown.c). */
#include "mpiexec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define OUT_HIGH 65536 /* stop reading a rank that does not read its answers */

int kvs_want_read(const struct rank *r) { return r->sock >= 0 && r->out.len < OUT_HIGH; }

static void close_sock(struct rank *r)
{
    if (r->sock >= 0) close(r->sock);
    r->sock = -1;
    buf_free(&r->out);
}

void kvs_write(struct job *job, struct rank *r)
{
    (void)job;
    while (r->sock >= 0 && r->out.len > 0) {
        ssize_t w = send(r->sock, buf_ptr(&r->out), r->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            buf_consume(&r->out, (size_t)w);
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) return;
        buf_free(&r->out); /* EPIPE, ECONNRESET: the rank is gone */
        return;
    }
}

static void answer(struct job *job, struct rank *r, const char *a, const char *b)
{
    if (r->host >= 0) {
        remote_answer(job, r, a, b);
        return;
    }
    if (r->sock < 0) return;
    buf_append(&r->out, a, strlen(a));
    if (b) buf_append(&r->out, b, strlen(b));
    buf_append(&r->out, "\n", 1);
    kvs_write(job, r);
}

static int valid_word(const char *s, size_t min, size_t max)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (s[n] <= ' ' || s[n] > '~') return 0;
    return n >= min && n <= max;
}

static void protocol_error(struct job *job, struct rank *r, const char *line)
{
    job_fail(
        job, END_PROTOCOL, 1,
        "mpiexec: rank %d (pid %ld) sent a malformed bootstrap message \"%.80s\"; ending the job",
        r->rank, (long)r->pid, line);
}

/* A fence that someone waits in can never complete if a rank that has not
 * entered it is gone. */
void kvs_check_fence(struct job *job)
{
    if (job->fence_waiting == 0 || job->reason != END_NONE) return;
    int waiter = -1;
    for (int i = 0; i < job->size; i++)
        if (job->ranks[i].in_fence) {
            waiter = i;
            break;
        }
    for (int i = 0; i < job->size; i++) {
        struct rank *g = &job->ranks[i];
        if (g->reaped && !g->in_fence) {
            job_fail(
                job, END_FAILED, 1,
                "mpiexec: rank %d (pid %ld) exited without joining the fence that rank %d waits "
                "in; ending the job",
                g->rank, (long)g->pid, waiter);
            return;
        }
    }
}

static void fence_enter(struct job *job, struct rank *r)
{
    if (r->in_fence) {
        protocol_error(job, r, "fence (while already in a fence)");
        return;
    }
    r->in_fence = 1;
    if (++job->fence_waiting < job->size) {
        kvs_check_fence(job);
        return;
    }
    job->fence_waiting = 0;
    job->fences_done++;
    for (int i = 0; i < job->size; i++) {
        job->ranks[i].in_fence = 0;
        answer(job, &job->ranks[i], "fence-done", NULL);
    }
}

static void on_abort(struct job *job, struct rank *r, char *args)
{
    char *end;
    errno = 0;
    long code = strtol(args, &end, 10);
    if (errno || end == args || (*end != '\0' && *end != ' ')) {
        protocol_error(job, r, "abort (without a code)");
        return;
    }
    const char *msg = *end == ' ' ? end + 1 : "";
    r->aborted = 1;
    job_fail(job, END_ABORT, abort_exit_code(code),
             "mpiexec: rank %d called MPI_Abort with code %ld%s%s", r->rank, code, *msg ? ": " : "",
             msg);
}

static void on_execfail(struct job *job, struct rank *r, char *args)
{
    char *what = strchr(args, ' ');
    int err = atoi(args);
    r->exec_errno = err ? err : EINVAL;
    const struct block *b = &job->opt->blocks[r->block];
    if (what && strcmp(what + 1, "chdir") == 0)
        job_fail(job, END_EXEC, 2, "mpiexec: cannot change rank %d to directory '%s': %s", r->rank,
                 b->wdir ? b->wdir : "?", strerror(r->exec_errno));
    else
        job_fail(job, END_EXEC, 2, "mpiexec: cannot run '%s' (rank %d): %s", b->argv[0], r->rank,
                 strerror(r->exec_errno));
}

static void handle_line(struct job *job, struct rank *r, char *line)
{
    char *args = strchr(line, ' ');
    if (args)
        *args++ = '\0';
    else
        args = line + strlen(line);

    if (strcmp(line, "execfail") == 0) {
        on_execfail(job, r, args);
        return;
    }
    r->connected = 1;
    if (strcmp(line, "put") == 0) {
        char *value = strchr(args, ' ');
        if (value) *value++ = '\0';
        if (!value || !valid_word(args, 1, KVS_MAX_KEY - 1) ||
            (*value && !valid_word(value, 0, KVS_MAX_VALUE))) {
            protocol_error(job, r, "put (bad key or value)");
            return;
        }
        kvstore_put(&job->kvs, args, value);
    } else if (strcmp(line, "get") == 0) {
        if (!valid_word(args, 1, KVS_MAX_KEY - 1)) {
            protocol_error(job, r, "get (bad key)");
            return;
        }
        const char *v = kvstore_get(&job->kvs, args);
        if (v)
            answer(job, r, "val ", v);
        else
            answer(job, r, "absent", NULL);
    } else if (strcmp(line, "fence") == 0 && *args == '\0') {
        fence_enter(job, r);
    } else if (strcmp(line, "init") == 0) {
        long pid = 0;
        if (sscanf(args, "1 %ld", &pid) != 1 || pid <= 0) {
            answer(job, r, "error unsupported protocol version (mpiexec speaks 1)", NULL);
            return;
        }
        if (r->claimed_pid && r->claimed_pid != (pid_t)pid) {
            job_fail(
                job, END_PROTOCOL, 1,
                "mpiexec: two processes (pids %ld and %ld) both initialized as rank %d; ending "
                "the job",
                (long)r->claimed_pid, pid, r->rank);
            return;
        }
        r->claimed_pid = (pid_t)pid;
        answer(job, r, "ok", NULL);
    } else if (strcmp(line, "fin") == 0 && *args == '\0') {
        r->finalized = 1;
        answer(job, r, "ok", NULL);
    } else if (strcmp(line, "abort") == 0) {
        on_abort(job, r, args);
    } else {
        if (args > line && args[-1] == '\0' && *args) args[-1] = ' ';
        protocol_error(job, r, line);
    }
}

void kvs_line(struct job *job, struct rank *r, char *line)
{
    if (strlen(line) > KVS_MAX_LINE)
        protocol_error(job, r, "(a line that is too long)");
    else
        handle_line(job, r, line);
}

/* Reads and serves what the rank sent, at most 16 chunks per call so that one
 * busy rank cannot starve the others.  Returns 1 if more may be waiting. */
int kvs_read(struct job *job, struct rank *r)
{
    char chunk[8192];
    for (int round = 0; r->sock >= 0; round++) {
        if (round == 16) return 1;
        ssize_t n = recv(r->sock, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return 0;
        if (n <= 0) { /* EOF or reset: the rank closed its end or died */
            close_sock(r);
            return 0;
        }
        buf_append(&r->in, chunk, (size_t)n);
        for (;;) {
            char *p = r->in.data + r->in.head;
            char *nl = memchr(p, '\n', r->in.len);
            if (!nl) break;
            *nl = '\0';
            size_t len = (size_t)(nl - p) + 1;
            if (len - 1 > KVS_MAX_LINE)
                protocol_error(job, r, "(a line that is too long)");
            else
                handle_line(job, r, p);
            buf_consume(&r->in, len);
            if (r->sock < 0) return 0;
        }
        if (r->in.len > KVS_MAX_LINE) {
            protocol_error(job, r, "(a line that is too long)");
            buf_free(&r->in);
            close_sock(r);
            return 0;
        }
        if (r->out.len >= OUT_HIGH) return 0; /* resume when the rank has read its answers */
    }
    return 0;
}
