/* A node of the launch tree and the proxies it starts: mpiexec (node 0) and
 * every tern-proxy with children in the tree use this alike.
 *
 * Each child is started through the agent (agent.c) with this node's port,
 * addresses and the job's token on its command line; it calls back here and
 * says "hello <node> <token>" (the token is a random word of mpiexec's, so
 * that a stranger cannot join, and only this node's own children may).  From
 * then on its frames (wire.c) come up through the caller's link_ops, and the
 * caller queues frames for it on l->out.  The agent's stderr is kept for the
 * report when the child cannot be reached. */
#include "mpiexec.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define ERR_KEEP 16384 /* of an agent's stderr: its last lines say why */

int links_init(struct links *ls, int self, int nhosts, int fanout, const char *token,
               char *const *names, const char *who)
{
    memset(ls, 0, sizeof *ls);
    ls->self = self;
    ls->nhosts = nhosts;
    ls->fanout = fanout;
    ls->token = token;
    ls->listen_fd = -1;
    int first, last;
    tree_children(self, nhosts, fanout, &first, &last);
    if (first > last) return 0;
    ls->n = last - first + 1;
    ls->l = xcalloc((size_t)ls->n, sizeof *ls->l);
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        l->node = first + i;
        l->name = names[l->node] ? names[l->node] : "?";
        l->fd = l->err_fd = -1;
    }
    if ((ls->listen_fd = tcp_listen(&ls->port)) < 0) {
        fprintf(stderr, "%s: cannot listen for the proxies: %s\n", who, strerror(errno));
        return -1;
    }
    return 0;
}

int links_start(struct links *ls, const struct agent_conf *a, const char *proxy, const char *addrs)
{
    char sport[16];
    snprintf(sport, sizeof sport, "%d", ls->port);
    int failed = 0;
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        char snode[16];
        snprintf(snode, sizeof snode, "%d", l->node);
        char *argv[] = {(char *)proxy, snode, sport, (char *)addrs, (char *)ls->token, NULL};
        l->agent = agent_start(a, l->name, argv, &l->err_fd);
        if (l->agent > 0) continue;
        l->agent = -1;
        l->agent_done = 1;
        l->agent_status = 127 << 8;
        const char *why = "the agent could not be started (fork failed)";
        buf_append(&l->err, why, strlen(why) + 1);
        failed++;
    }
    return failed;
}

struct link *links_toward(struct links *ls, int node)
{
    int c = tree_toward(ls->self, node, ls->fanout);
    if (c < 0 || ls->n == 0 || c < ls->l[0].node || c > ls->l[ls->n - 1].node) return NULL;
    return &ls->l[c - ls->l[0].node];
}

void links_send(struct link *l)
{
    if (l->fd >= 0 && wire_send(l->fd, &l->out) < 0) buf_free(&l->out); /* closed: read sees it */
}

void links_broadcast(struct links *ls, const char *line)
{
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        if (l->fd < 0 || l->bye) continue;
        wire_put(&l->out, "%s", line);
        links_send(l);
    }
}

/* ---- calls ---- */

static void hello(struct links *ls, struct link_pending *q, const struct link_ops *ops, void *ctx)
{
    const char *data;
    size_t len, flen;
    char *line = wire_next(&q->in, &data, &len, &flen);
    if (!line) return;
    int node;
    char token[64];
    struct link *l = NULL;
    if (sscanf(line, "hello %d %63s", &node, token) == 2 && strcmp(token, ls->token) == 0 &&
        tree_toward(ls->self, node, ls->fanout) == node)
        l = links_toward(ls, node);
    if (!l || l->hello) { /* not one of ours */
        close(q->fd);
        q->fd = -1;
        return;
    }
    buf_consume(&q->in, flen);
    l->fd = q->fd;
    l->in = q->in;
    q->fd = -1;
    memset(&q->in, 0, sizeof q->in);
    l->hello = 1;
    int one = 1;
    setsockopt(l->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ops->hello(ctx, l);
}

static void pending_read(struct links *ls, struct link_pending *q, const struct link_ops *ops,
                         void *ctx)
{
    char chunk[256];
    ssize_t n = recv(q->fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        close(q->fd);
        q->fd = -1;
        return;
    }
    if (n > 0) buf_append(&q->in, chunk, (size_t)n);
    if (q->in.len > 512) { /* no hello line is that long */
        close(q->fd);
        q->fd = -1;
        return;
    }
    hello(ls, q, ops, ctx);
}

static void accept_all(struct links *ls)
{
    for (;;) {
        int fd = accept4(ls->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) return;
        ls->pend = xrealloc(ls->pend, (size_t)(ls->npend + 1) * sizeof *ls->pend);
        ls->pend[ls->npend++] = (struct link_pending){.fd = fd};
    }
}

/* ---- frames ---- */

static void link_read(struct link *l, const struct link_ops *ops, void *ctx)
{
    char chunk[65536];
    for (int round = 0; round < 16 && l->fd >= 0; round++) {
        ssize_t n = recv(l->fd, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            close(l->fd);
            l->fd = -1;
            l->closed = 1;
            buf_free(&l->out);
            if (!l->bye) ops->closed(ctx, l);
            return;
        }
        buf_append(&l->in, chunk, (size_t)n);
        const char *data;
        size_t len, flen;
        char *line;
        while ((line = wire_next(&l->in, &data, &len, &flen))) {
            ops->frame(ctx, l, line, data, len);
            buf_consume(&l->in, flen);
        }
    }
}

static void err_read(struct link *l, int all)
{
    char chunk[4096];
    while (l->err_fd >= 0) {
        ssize_t n = read(l->err_fd, chunk, sizeof chunk);
        if (n > 0) {
            if (l->err.len < ERR_KEEP) buf_append(&l->err, chunk, (size_t)n);
            if (!all) return;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN && !all) return;
        close(l->err_fd);
        l->err_fd = -1;
    }
}

/* ---- the poll loop's view ---- */

size_t links_poll_max(const struct links *ls) { return 1 + (size_t)ls->npend + 2 * (size_t)ls->n; }

size_t links_poll_add(struct links *ls, struct pollfd *pfd, int reading)
{
    size_t n = 0;
    pfd[n++] = (struct pollfd){.fd = ls->listen_fd, .events = POLLIN};
    for (int i = 0; i < ls->npend; i++)
        pfd[n++] = (struct pollfd){.fd = ls->pend[i].fd, .events = POLLIN};
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        short ev = (short)((reading ? POLLIN : 0) | (l->out.len ? POLLOUT : 0));
        pfd[n++] = (struct pollfd){.fd = ev ? l->fd : -1, .events = ev};
        pfd[n++] = (struct pollfd){.fd = l->err_fd, .events = POLLIN};
    }
    return n;
}

void links_poll_handle(struct links *ls, struct pollfd *pfd, size_t n, const struct link_ops *ops,
                       void *ctx)
{
    if (n < links_poll_max(ls)) return;
    size_t k = 1;
    int npend = ls->npend;
    for (int i = 0; i < npend; i++, k++)
        if (pfd[k].revents && ls->pend[i].fd == pfd[k].fd) pending_read(ls, &ls->pend[i], ops, ctx);
    for (int i = 0; i < ls->n; i++, k += 2) {
        struct link *l = &ls->l[i];
        if (pfd[k].fd >= 0 && l->fd == pfd[k].fd) {
            if (pfd[k].revents & POLLOUT) links_send(l);
            if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) link_read(l, ops, ctx);
        }
        if (pfd[k + 1].fd >= 0 && l->err_fd == pfd[k + 1].fd && pfd[k + 1].revents) err_read(l, 0);
    }
    int w = 0; /* drop the pending connections that closed or said hello */
    for (int i = 0; i < ls->npend; i++)
        if (ls->pend[i].fd >= 0)
            ls->pend[w++] = ls->pend[i];
        else
            buf_free(&ls->pend[i].in);
    ls->npend = w;
    if (pfd[0].fd >= 0 && (pfd[0].revents & POLLIN)) accept_all(ls);
}

static void agent_end(struct link *l, int st)
{
    l->agent_done = 1;
    l->agent_status = st;
    err_read(l, 1); /* its last words */
    buf_append(&l->err, "", 1);
}

struct link *links_reaped(struct links *ls, pid_t pid, int st)
{
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        if (l->agent != pid || l->agent_done) continue;
        agent_end(l, st);
        return l;
    }
    return NULL;
}

int links_await(struct link *l, int ms)
{
    int64_t until = now_ms() + ms;
    while (l->agent > 0 && !l->agent_done) {
        int st;
        pid_t w = waitpid(l->agent, &st, WNOHANG);
        if (w == l->agent) {
            agent_end(l, st);
            return 1;
        }
        if (w < 0 || now_ms() >= until) return 0;
        usleep(5000);
    }
    return 0;
}

/* ---- the end ---- */

void links_bye(struct links *ls, int wait_ms)
{
    /* A child that has not called yet has no part left to play: it is
     * refused (closing the listening socket resets its queued call) and
     * ended, not waited for. */
    if (ls->listen_fd >= 0) close(ls->listen_fd);
    ls->listen_fd = -1;
    for (int i = 0; i < ls->npend; i++) {
        close(ls->pend[i].fd);
        buf_free(&ls->pend[i].in);
    }
    ls->npend = 0;
    int64_t until = now_ms() + 1000;
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        if (!l->hello && l->agent > 0 && !l->agent_done) kill(-l->agent, SIGTERM);
        if (l->fd < 0) continue;
        if (!l->bye) wire_put(&l->out, "bye");
        l->bye = 1;
        while (l->out.len && now_ms() < until) {
            if (wire_send(l->fd, &l->out) < 0) break;
            if (l->out.len) {
                struct pollfd pf = {.fd = l->fd, .events = POLLOUT};
                poll(&pf, 1, 50);
            }
        }
    }
    /* The agents end when their proxies do; wait a little, then end them. */
    until = now_ms() + wait_ms;
    for (;;) {
        int left = 0;
        for (int i = 0; i < ls->n; i++) {
            struct link *l = &ls->l[i];
            if (l->agent <= 0 || l->agent_done) continue;
            if (waitpid(l->agent, NULL, WNOHANG) == l->agent)
                l->agent_done = 1;
            else
                left++;
        }
        if (!left) return;
        if (now_ms() >= until) break;
        usleep(10000);
    }
    links_kill(ls, SIGKILL);
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        if (l->agent > 0 && !l->agent_done) {
            waitpid(l->agent, NULL, 0);
            l->agent_done = 1;
        }
    }
}

void links_kill(struct links *ls, int sig)
{
    for (int i = 0; i < ls->n; i++)
        if (ls->l[i].agent > 0 && !ls->l[i].agent_done) kill(-ls->l[i].agent, sig);
}

void links_free(struct links *ls)
{
    for (int i = 0; i < ls->n; i++) {
        struct link *l = &ls->l[i];
        if (l->fd >= 0) close(l->fd);
        if (l->err_fd >= 0) close(l->err_fd);
        buf_free(&l->in);
        buf_free(&l->out);
        buf_free(&l->err);
    }
    for (int i = 0; i < ls->npend; i++) {
        close(ls->pend[i].fd);
        buf_free(&ls->pend[i].in);
    }
    if (ls->listen_fd >= 0) close(ls->listen_fd);
    free(ls->pend);
    free(ls->l);
    memset(ls, 0, sizeof *ls);
    ls->listen_fd = -1;
}
