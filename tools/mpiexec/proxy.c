/* tern-proxy's loop: relays between this host's ranks, the proxies below it
 * in the launch tree, and its parent (mpiexec or the proxy above it).
 *
 * Upward: each bootstrap line of a rank as "b <rank> <line>", output as it
 * arrives ("o" frames; line assembly and -l labels are mpiexec's job),
 * "e <rank> <stream>" at end of file, "x <rank> <pid> <wait status>" once a
 * rank is reaped (after everything it wrote has been relayed), and for each
 * proxy we started, "agent <node> <wait status> <its stderr>" when its agent
 * exits, "up <node>" once it called and has its part of the job, and
 * "lost <node>" if its connection closes before "bye".  What the proxies
 * below us send goes up unchanged.  Downward: "b <rank> <answer>", "sig <n>"
 * and "bye", and for the proxy of rank 0 its stdin: "i" frames and "ie",
 * answered with "ia" as they enter rank 0's pipe and "ic" when rank 0 stops
 * reading.  A frame for a rank of another host goes to the child whose
 * subtree holds it; "sig" and "bye" go to every child as well.
 *
 * The ranks die with the proxy (PR_SET_PDEATHSIG in spawn.c) and the proxy
 * ends them when its parent's connection closes, so a lost mpiexec or a lost
 * host leaves nothing running, below it in the tree either. */
#include "proxy.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define UP_HIGH (1u << 20) /* stop reading the ranks while mpiexec lags */
#define LOST_WAIT_MS 200   /* for the agent of a child whose connection closed */

static void put_agent(struct proxy *px, struct link *l)
{
    char *e = wire_escape(buf_ptr(&l->err));
    wire_put(&px->up_out, "agent %d %d %s", l->node, l->agent_status, *e ? e : "%20");
    free(e);
}

void proxy_start_children(struct proxy *px)
{
    if (links_init(&px->links, px->node, px->nhosts, px->fanout, px->token, px->names,
                   "tern-proxy") < 0) {
        for (int i = 0; i < px->links.n; i++) { /* none of them can call */
            char *e = wire_escape("its parent proxy cannot listen for it");
            wire_put(&px->up_out, "agent %d %d %s", px->links.l[i].node, 127 << 8, e);
            free(e);
        }
        px->links.n = 0;
        return;
    }
    if (px->links.n == 0) return;
    char *addrs = tcp_addresses();
    links_start(&px->links, &px->agent, px->self, addrs);
    free(addrs);
    for (int i = 0; i < px->links.n; i++) {
        struct link *l = &px->links.l[i];
        if (l->agent <= 0) put_agent(px, l);
    }
}

static void up_rank_lines(struct proxy *px, struct rank *r)
{
    for (;;) {
        char *p = r->in.data + r->in.head;
        char *nl = r->in.len ? memchr(p, '\n', r->in.len) : NULL;
        if (!nl) break;
        *nl = '\0';
        wire_put(&px->up_out, "b %d %s", r->rank, p);
        buf_consume(&r->in, (size_t)(nl - p) + 1);
    }
    if (r->in.len > KVS_MAX_LINE) { /* mpiexec reports it as a protocol error */
        buf_append(&r->in, "", 1);
        wire_put(&px->up_out, "b %d %.*s", r->rank, KVS_MAX_LINE + 1, buf_ptr(&r->in));
        buf_free(&r->in);
    }
}

static void rank_sock_read(struct proxy *px, struct rank *r)
{
    char chunk[8192];
    while (r->sock >= 0) {
        ssize_t n = recv(r->sock, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        if (n <= 0) {
            close(r->sock);
            r->sock = -1;
            buf_free(&r->out);
            return;
        }
        buf_append(&r->in, chunk, (size_t)n);
        up_rank_lines(px, r);
    }
}

static void rank_pipe_read(struct proxy *px, struct rank *r, int s, int all)
{
    static char chunk[65536];
    while (r->pipe[s] >= 0) {
        ssize_t n = read(r->pipe[s], chunk, sizeof chunk);
        if (n > 0) {
            wire_put_data(&px->up_out, r->rank, s, chunk, (size_t)n);
            if (!all) return;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        close(r->pipe[s]);
        r->pipe[s] = -1;
        wire_put(&px->up_out, "e %d %d", r->rank, s);
    }
}

static void reap(struct proxy *px)
{
    struct job *job = &px->job;
    for (;;) {
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        if (pid < 0 && errno == EINTR) continue;
        if (pid <= 0) return;
        for (int i = 0; i < job->size; i++) {
            struct rank *r = &job->ranks[i];
            if (r->pid != pid || r->reaped) continue;
            rank_sock_read(px, r); /* its last requests and words first */
            for (int s = 0; s < 2; s++) rank_pipe_read(px, r, s, 1);
            r->reaped = 1;
            job->alive--;
            wire_put(&px->up_out, "x %d %ld %d", r->rank, (long)pid, st);
        }
        struct link *l = links_reaped(&px->links, pid, st);
        if (l) put_agent(px, l);
    }
}

static struct rank *local_rank(struct proxy *px, int rank)
{
    for (int i = 0; i < px->job.size; i++)
        if (px->job.ranks[i].rank == rank) return &px->job.ranks[i];
    return NULL;
}

/* Rank 0's stdin: what came down into its pipe, counted back up. */
static void stdin_pump(struct proxy *px)
{
    struct stdin_relay *s = &px->job.relay;
    size_t before = s->pending.len;
    relay_write(&px->job);
    if (s->pipe_w >= 0 && before > s->pending.len)
        wire_put(&px->up_out, "ia 0 %zu", before - s->pending.len);
    if (s->pipe_w < 0 && !px->stdin_eof && !px->stdin_closed) {
        px->stdin_closed = 1; /* rank 0 closed it or exited: mpiexec stops reading */
        wire_put(&px->up_out, "ic 0");
    }
}

/* A frame about a rank of another host: to the child whose subtree holds
 * it.  0 when the rank is ours (or nobody's: then it is dropped). */
static int route_down(struct proxy *px, const char *line, const char *data, size_t n)
{
    const char *w = strchr(line, ' ');
    int rank = w ? atoi(w + 1) : -1;
    if (rank < 0 || rank >= px->size || px->rank_node[rank] == px->node) return 0;
    struct link *l = px->rank_node[rank] > 0 ? links_toward(&px->links, px->rank_node[rank]) : NULL;
    if (l && l->fd >= 0 && !l->bye) {
        wire_forward(&l->out, line, data, n);
        links_send(l);
    }
    return 1;
}

static void down_frames(struct proxy *px)
{
    const char *data;
    size_t n, flen;
    char *line;
    while ((line = wire_next(&px->up_in, &data, &n, &flen))) {
        int sig;
        if (strcmp(line, "bye") == 0) {
            px->bye = 1; /* our children hear it as we finish */
        } else if (sscanf(line, "sig %d", &sig) == 1) {
            links_broadcast(&px->links, line);
            job_signal_all(&px->job, sig);
            if (sig != SIGKILL && sig != SIGCONT) job_signal_all(&px->job, SIGCONT);
        } else if (route_down(px, line, data, n)) {
        } else if (strncmp(line, "b ", 2) == 0) {
            char *text = strchr(line + 2, ' ');
            struct rank *r = text ? local_rank(px, atoi(line + 2)) : NULL;
            if (r && r->sock >= 0) {
                buf_append(&r->out, text + 1, strlen(text + 1));
                buf_append(&r->out, "\n", 1);
                kvs_write(&px->job, r);
            }
        } else if (line[0] == 'i' && line[1] == ' ' && px->job.relay.pipe_w >= 0) {
            buf_append(&px->job.relay.pending, data, n);
            stdin_pump(px);
        } else if (strncmp(line, "ie ", 3) == 0 && px->job.relay.active) {
            px->stdin_eof = 1;
            px->job.relay.src_open = 0;
            stdin_pump(px);
        }
        buf_consume(&px->up_in, flen);
    }
}

/* ---- the proxies below us ---- */

static void child_hello(void *ctx, struct link *l)
{
    struct proxy *px = ctx;
    struct spec_tree t = {px->nhosts, px->fanout,    px->size,
                          px->names,  px->rank_node, px->rank_block};
    spec_put(&l->out, &px->common, &t, l->node);
    links_send(l);
    wire_put(&px->up_out, "up %d", l->node);
}

static void child_frame(void *ctx, struct link *l, char *line, const char *data, size_t n)
{
    struct proxy *px = ctx;
    (void)l;
    wire_forward(&px->up_out, line, data, n);
}

static void child_closed(void *ctx, struct link *l)
{
    struct proxy *px = ctx;
    if (px->bye) return;
    if (links_await(l, LOST_WAIT_MS)) put_agent(px, l); /* how it ended goes first */
    wire_put(&px->up_out, "lost %d", l->node);
}

static const struct link_ops child_ops = {child_hello, child_frame, child_closed};

static void up_read(struct proxy *px)
{
    char chunk[65536];
    for (int round = 0; round < 16; round++) {
        ssize_t n = recv(px->up, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n <= 0) {
            px->lost = 1;
            break;
        }
        buf_append(&px->up_in, chunk, (size_t)n);
    }
    down_frames(px);
}

/* The end: nothing of ours may outlive the proxy. */
static void finish(struct proxy *px)
{
    struct job *job = &px->job;
    job_signal_all(job, SIGKILL);
    if (px->lost) { /* our subtree cannot report any more: it goes with us */
        links_kill(&px->links, SIGKILL);
        return;
    }
    int64_t until = now_ms() + 1000; /* what is queued still goes up, briefly */
    while (px->up_out.len && now_ms() < until && wire_send(px->up, &px->up_out) == 0) {
        struct pollfd pf = {.fd = px->up, .events = POLLOUT};
        poll(&pf, 1, 50);
    }
    links_bye(&px->links, 1000);
}

int proxy_run(struct proxy *px)
{
    struct job *job = &px->job;
    size_t cap = 0;
    struct pollfd *pfd = NULL;
    down_frames(px); /* what came with the job's description */
    while (!px->bye && !px->lost) {
        size_t need = 3 * (size_t)job->size + 3 + links_poll_max(&px->links);
        if (need > cap) { /* the children's connections come and go */
            cap = need;
            pfd = xrealloc(pfd, cap * sizeof *pfd);
        }
        size_t n = 0;
        pfd[n++] = (struct pollfd){.fd = signals_fd(), .events = POLLIN};
        pfd[n++] = (struct pollfd){.fd = px->up,
                                   .events = (short)(POLLIN | (px->up_out.len ? POLLOUT : 0))};
        int reading = px->up_out.len < UP_HIGH;
        for (int i = 0; i < job->size; i++) {
            struct rank *r = &job->ranks[i];
            short ev = (short)((r->sock >= 0 && reading ? POLLIN : 0) | (r->out.len ? POLLOUT : 0));
            pfd[n++] = (struct pollfd){.fd = ev ? r->sock : -1, .events = ev};
            for (int s = 0; s < 2; s++)
                pfd[n++] = (struct pollfd){.fd = reading ? r->pipe[s] : -1, .events = POLLIN};
        }
        struct stdin_relay *in = &job->relay;
        pfd[n++] = (struct pollfd){.fd = in->pending.len ? in->pipe_w : -1, .events = POLLOUT};
        size_t links_at = n;
        n += links_poll_add(&px->links, pfd + n, reading);

        int rc = poll(pfd, n, -1);
        if (rc < 0 && errno != EINTR) break;
        signals_drain();
        if (signals_take(SIGCHLD)) reap(px);
        /* Our own SIGTERM or SIGHUP (the session went away): end our ranks. */
        if (signals_take(SIGTERM) || signals_take(SIGHUP) || signals_take(SIGINT)) {
            px->lost = 1;
            break;
        }
        if (rc <= 0) continue;
        size_t k = 2;
        for (int i = 0; i < job->size; i++, k += 3) {
            struct rank *r = &job->ranks[i];
            if (pfd[k].revents & POLLOUT) kvs_write(job, r);
            if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) rank_sock_read(px, r);
            for (int s = 0; s < 2; s++)
                if (pfd[k + 1 + s].revents) rank_pipe_read(px, r, s, 0);
        }
        if (pfd[k].revents) stdin_pump(px);
        links_poll_handle(&px->links, pfd + links_at, n - links_at, &child_ops, px);
        if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) up_read(px);
        if (px->up_out.len && wire_send(px->up, &px->up_out) < 0) px->lost = 1;
    }
    free(pfd);
    finish(px);
    return px->lost ? 1 : 0;
}
