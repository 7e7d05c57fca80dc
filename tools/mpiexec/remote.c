/* mpiexec's side of a job on several hosts.
 *
 * mpiexec listens on a TCP port and starts the first proxies of the launch
 * tree (agent.c); every proxy, wherever it sits in the tree, connects back
 * here directly, says "hello <node> <token>" (the token is a random word on
 * the proxy's command line, so a stranger cannot join), and gets its part of
 * the job:
 *
 *   conf <size> <nhosts> <fanout> <job id> <launch timeout>
 *   launcher <kind> <command or ->     how to start its children
 *   host <node> <name>                 each host of its subtree
 *   cwd <dir>                          where mpiexec runs (ranks start there)
 *   envclear                           -genvall: replace the environment ...
 *   base <NAME=VALUE>                  ... with these (-genvall, -genvlist)
 *   genv <name> <value>                -genv
 *   block <k> <path> <wdir or ->       one MPMD block, its arguments and
 *   arg <k> <word>                     -env settings
 *   benv <k> <name> <value>
 *   rank <rank> <block>                the ranks it runs
 *   go
 *
 * From then on the proxy relays its ranks' bootstrap lines ("b <rank>
 * <line>", answered the same way), their output ("o" frames, wire.c; "e
 * <rank> <stream>" at end of file), their pids ("pid <rank> <pid>") and
 * exits ("x <rank> <wait status>"), and the fate of the agents it started
 * ("agent <node> <wait status> <stderr>").  mpiexec sends "sig <n>" to pass
 * a signal to every rank and "bye" when the job is over.  To the proxy of
 * rank 0 it sends its own stdin: "i 0 <length>" frames (wire.c), then
 * "ie 0" at its end; that proxy answers "ia <bytes>" as they enter rank 0's
 * stdin, and "ic" once rank 0 no longer reads it (stdin_relay.c).  The bootstrap
 * lines are served by kvs_server.c exactly as for ranks of this host, so
 * fences, aborts and protocol errors behave the same.
 *
 * A host is lost when its proxy's connection closes before "bye", and
 * unreachable when its agent exits before the proxy called (or it does not
 * call within TERN_LAUNCH_TIMEOUT): either ends the job, naming the host and
 * the cause.  A host that cannot be reached takes its subtree with it. */
#include "mpiexec.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct proxy_conn {
    const char *name;
    int fd; /* after hello; -1 before and once closed */
    struct buf in, out;
    int hello, closed, bye;
    pid_t agent; /* when mpiexec started it itself */
    int agent_err;
    struct buf err_text;
    int agent_done, agent_status;
    int alive_ranks; /* not yet reported as exited */
};

struct pending { /* accepted, hello not yet read */
    int fd;
    struct buf in;
    int64_t since;
};

struct remote {
    int listen_fd;
    int port;
    char token[40];
    char *addrs;
    char *proxy_path;
    struct agent_conf agent;
    int nhosts, fanout;
    int64_t launch_timeout_ms, t_start;
    struct proxy_conn *px; /* px[node - 1] */
    struct pending *pend;
    int npend;
};

static struct proxy_conn *px_of(struct job *job, int node) { return &job->remote->px[node - 1]; }

/* This machine's IPv4 addresses, loopback last: a proxy tries them in order
 * (over ssh it tries the address it was reached from first). */
static char *my_addresses(void)
{
    struct buf b = {0};
    struct ifaddrs *ifa = NULL;
    if (getifaddrs(&ifa) == 0) {
        for (struct ifaddrs *i = ifa; i; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
            struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
            if ((ntohl(a.s_addr) >> 24) == 127) continue;
            char s[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, &a, s, sizeof s);
            if (b.len) buf_append(&b, ",", 1);
            buf_append(&b, s, strlen(s));
        }
        freeifaddrs(ifa);
    }
    if (b.len) buf_append(&b, ",", 1);
    buf_append(&b, "127.0.0.1", 10);
    char *s = xstrdup(buf_ptr(&b));
    buf_free(&b);
    return s;
}

static char *proxy_path(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = '\0';
    char *p = xasprintf("%s/tern-proxy", exe);
    if (access(p, X_OK) != 0) {
        fprintf(stderr, "mpiexec: cannot run the per-host proxy %s: %s\n", p, strerror(errno));
        free(p);
        return NULL;
    }
    return p;
}

static int listen_tcp(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t len = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 1024) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
        close(fd);
        return -1;
    }
    *port = ntohs(sa.sin_port);
    return fd;
}

/* Starts the proxy of 'node' through the agent (mpiexec's own children). */
static int start_node(struct job *job, int node)
{
    struct remote *rm = job->remote;
    char snode[16], sport[16];
    snprintf(snode, sizeof snode, "%d", node);
    snprintf(sport, sizeof sport, "%d", rm->port);
    char *argv[] = {rm->proxy_path, snode, sport, rm->addrs, rm->token, NULL};
    struct proxy_conn *p = px_of(job, node);
    p->agent = agent_start(&rm->agent, p->name, argv, &p->agent_err);
    return p->agent > 0 ? 0 : -1;
}

int remote_start(struct job *job)
{
    struct options *o = job->opt;
    struct remote *rm = xcalloc(1, sizeof *rm);
    job->remote = rm;
    rm->listen_fd = -1;
    rm->nhosts = o->nhosts;
    rm->px = xcalloc((size_t)o->nhosts, sizeof *rm->px);
    const char *exec = o->launcher_exec ? o->launcher_exec : param_get("LAUNCHER_EXEC");
    const char *kind = o->launcher;
    if (!kind && getenv("TERN_LAUNCHER") && *getenv("TERN_LAUNCHER")) kind = param_get("LAUNCHER");
    if (agent_conf_init(&rm->agent, kind, exec) < 0) return -1;
    rm->fanout = atoi(param_get("LAUNCH_FANOUT"));
    if (rm->fanout < 1) {
        fprintf(stderr, "mpiexec: TERN_LAUNCH_FANOUT must be a number >= 1, not '%s'\n",
                param_get("LAUNCH_FANOUT"));
        return -1;
    }
    double lt = atof(param_get("LAUNCH_TIMEOUT"));
    rm->launch_timeout_ms = lt > 0 ? (int64_t)(lt * 1000) : 60000;
    if (!(rm->proxy_path = proxy_path())) return -1;
    unsigned char rnd[16];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        fprintf(stderr, "mpiexec: getrandom: %s\n", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < sizeof rnd; i++) sprintf(rm->token + 2 * i, "%02x", rnd[i]);
    if ((rm->listen_fd = listen_tcp(&rm->port)) < 0) {
        fprintf(stderr, "mpiexec: cannot listen for the proxies: %s\n", strerror(errno));
        return -1;
    }
    rm->addrs = my_addresses();
    for (int h = 0; h < rm->nhosts; h++) {
        rm->px[h].name = o->hosts[h].name;
        rm->px[h].fd = rm->px[h].agent_err = -1;
    }
    for (int i = 0; i < job->size; i++) {
        job->ranks[i].pid = 0;
        rm->px[job->ranks[i].host].alive_ranks++;
    }
    job->alive = job->spawned = job->size;
    rm->t_start = now_ms();
    if (o->verbose)
        fprintf(stderr, "mpiexec: job %s on %d hosts, fan-out %d, launcher %s%s%s\n", job->job_id,
                rm->nhosts, rm->fanout, rm->agent.kind, rm->agent.exec ? " " : "",
                rm->agent.exec ? rm->agent.exec : "");
    int first, last;
    tree_children(0, rm->nhosts, rm->fanout, &first, &last);
    for (int node = first; node <= last; node++)
        if (start_node(job, node) < 0) return -1;
    return 0;
}

/* ---- sending ---- */

static void px_flush(struct job *job, struct proxy_conn *p)
{
    (void)job;
    if (p->fd >= 0 && wire_send(p->fd, &p->out) < 0) buf_free(&p->out); /* closed: read sees it */
}

void remote_answer(struct job *job, struct rank *r, const char *a, const char *b)
{
    struct proxy_conn *p = &job->remote->px[r->host];
    if (p->fd < 0) return;
    wire_put(&p->out, "b %d %s%s", r->rank, a, b ? b : "");
    px_flush(job, p);
}

void remote_signal_all(struct job *job, int sig)
{
    if (!job->remote) return;
    for (int h = 0; h < job->remote->nhosts; h++) {
        struct proxy_conn *p = &job->remote->px[h];
        if (p->fd < 0 || p->bye) continue;
        wire_put(&p->out, "sig %d", sig);
        px_flush(job, p);
    }
}

static void put_word2(struct buf *b, const char *tag, const char *x, const char *y)
{
    char *ex = wire_escape(x), *ey = y ? wire_escape(y) : NULL;
    wire_put(b, "%s %s%s%s", tag, ex, ey ? " " : "", ey ? ey : "");
    free(ex);
    free(ey);
}

static void add_subtree(struct job *job, struct buf *b, int node)
{
    char *e = wire_escape(px_of(job, node)->name);
    wire_put(b, "host %d %s", node, e);
    free(e);
    int first, last;
    tree_children(node, job->remote->nhosts, job->remote->fanout, &first, &last);
    for (int c = first; c <= last; c++) add_subtree(job, b, c);
}

static void send_spec(struct job *job, int node)
{
    struct remote *rm = job->remote;
    struct options *o = job->opt;
    struct proxy_conn *p = px_of(job, node);
    struct buf *b = &p->out;
    wire_put(b, "conf %d %d %d %s %lld", job->size, rm->nhosts, rm->fanout, job->job_id,
             (long long)rm->launch_timeout_ms);
    char *e = wire_escape(rm->agent.exec ? rm->agent.exec : "-");
    wire_put(b, "launcher %s %s", rm->agent.kind, e);
    free(e);
    add_subtree(job, b, node);
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd)) put_word2(b, "cwd", cwd, NULL);
    if (o->genv_mode == GENV_ALL) {
        wire_put(b, "envclear");
        for (char **v = environ; v && *v; v++) put_word2(b, "base", *v, NULL);
    } else if (o->genv_mode == GENV_LIST) {
        for (char **n = o->genvlist; n && *n; n++) {
            const char *v = getenv(*n);
            if (!v) continue;
            char *kv = xasprintf("%s=%s", *n, v);
            put_word2(b, "base", kv, NULL);
            free(kv);
        }
    }
    for (size_t i = 0; i < o->genv.n; i++)
        put_word2(b, "genv", o->genv.v[i].name, o->genv.v[i].value);
    for (int k = 0; k < o->nblocks; k++) {
        struct block *bl = &o->blocks[k];
        char *ep = wire_escape(bl->path), *ew = wire_escape(bl->wdir ? bl->wdir : "-");
        wire_put(b, "block %d %s %s", k, ep, ew);
        free(ep);
        free(ew);
        char tag[32];
        for (char **a = bl->argv; *a; a++) {
            snprintf(tag, sizeof tag, "arg %d", k);
            put_word2(b, tag, *a, NULL);
        }
        for (size_t i = 0; i < bl->env.n; i++) {
            snprintf(tag, sizeof tag, "benv %d", k);
            put_word2(b, tag, bl->env.v[i].name, bl->env.v[i].value);
        }
    }
    for (int i = 0; i < job->size; i++)
        if (job->ranks[i].host == node - 1) wire_put(b, "rank %d %d", i, job->ranks[i].block);
    wire_put(b, "go");
    if (job->ranks[0].host == node - 1 && !job->relay.src_open) wire_put(b, "ie 0");
    px_flush(job, p);
}

/* ---- failures ---- */

static void forget_host(struct job *job, int h)
{
    for (int i = 0; i < job->size; i++)
        if (job->ranks[i].host == h && !job->ranks[i].reaped) job_forget(job, &job->ranks[i]);
    job->remote->px[h].alive_ranks = 0;
}

/* The node and its subtree will never call. */
static void forget_subtree(struct job *job, int node)
{
    forget_host(job, node - 1);
    int first, last;
    tree_children(node, job->remote->nhosts, job->remote->fanout, &first, &last);
    for (int c = first; c <= last; c++)
        if (!px_of(job, c)->hello) forget_subtree(job, c);
}

static void unreachable(struct job *job, int node, const char *why)
{
    struct proxy_conn *p = px_of(job, node);
    if (p->hello || p->closed) return;
    p->closed = 1;
    job_fail(job, END_EXEC, 1, "mpiexec: cannot reach %s: %s; ending the job", p->name, why);
    forget_subtree(job, node);
}

static void agent_ended(struct job *job, int node, int status, const char *err)
{
    struct proxy_conn *p = px_of(job, node);
    p->agent_done = 1;
    p->agent_status = status;
    if (p->hello || job->reason != END_NONE) {
        if (!p->hello) forget_subtree(job, node);
        return;
    }
    char why[512];
    agent_describe(&job->remote->agent, status, err, why, sizeof why);
    unreachable(job, node, why);
}

static void lost(struct job *job, struct proxy_conn *p)
{
    int h = (int)(p - job->remote->px);
    close(p->fd);
    p->fd = -1;
    p->closed = 1;
    buf_free(&p->out);
    if (p->bye || p->alive_ranks == 0) return;
    struct buf list = {0};
    int n = 0;
    for (int i = 0; i < job->size; i++)
        if (job->ranks[i].host == h && !job->ranks[i].reaped) {
            char s[16];
            int l = snprintf(s, sizeof s, "%s%d", n++ ? ", " : "", i);
            if (n <= 16) buf_append(&list, s, (size_t)l);
        }
    buf_append(&list, "", 1);
    char why[512] = "its connection closed";
    if (p->agent_done) agent_describe(&job->remote->agent, p->agent_status, "", why, sizeof why);
    job_fail(job, END_FAILED, 1, "mpiexec: lost host %s (%s): rank%s %s%s gone; ending the job",
             p->name, why, n == 1 ? "" : "s", buf_ptr(&list), n > 16 ? ", ..." : "");
    buf_free(&list);
    forget_host(job, h);
}

/* ---- receiving ---- */

static struct rank *rank_of(struct job *job, struct proxy_conn *p, const char *s)
{
    int r = atoi(s);
    if (r < 0 || r >= job->size || job->ranks[r].host != (int)(p - job->remote->px)) return NULL;
    return &job->ranks[r];
}

static void frame(struct job *job, struct proxy_conn *p, char *line, const char *data, size_t n)
{
    char *args = strchr(line, ' ');
    if (args)
        *args++ = '\0';
    else
        args = line + strlen(line);
    struct rank *r;
    if (strcmp(line, "b") == 0) {
        char *text = strchr(args, ' ');
        if (!text || !(r = rank_of(job, p, args))) return;
        kvs_line(job, r, text + 1);
    } else if (strcmp(line, "o") == 0) {
        int rank, stream;
        if (sscanf(args, "%d %d", &rank, &stream) == 2 && (r = rank_of(job, p, args)) &&
            (stream == 0 || stream == 1))
            output_feed(job, r, stream, data, n);
    } else if (strcmp(line, "e") == 0) {
        int rank, stream;
        if (sscanf(args, "%d %d", &rank, &stream) == 2 && (r = rank_of(job, p, args)) &&
            (stream == 0 || stream == 1))
            output_eof(job, r, stream);
    } else if (strcmp(line, "pid") == 0) {
        long pid;
        if ((r = rank_of(job, p, args)) && sscanf(args, "%*d %ld", &pid) == 1) r->pid = (pid_t)pid;
    } else if (strcmp(line, "x") == 0) {
        long pid;
        int st;
        if ((r = rank_of(job, p, args)) && sscanf(args, "%*d %ld %d", &pid, &st) == 2 &&
            !r->reaped) {
            p->alive_ranks--;
            job_remote_exit(job, r, (pid_t)pid, st);
        }
    } else if (strcmp(line, "agent") == 0) {
        int node, st;
        char err[2048] = "";
        if (sscanf(args, "%d %d %2047s", &node, &st, err) >= 2 && node >= 1 &&
            node <= job->remote->nhosts) {
            wire_unescape(err);
            agent_ended(job, node, st, err);
        }
    } else if (strcmp(line, "ia") == 0) {
        long long done = atoll(args);
        if (done > 0 && p == &job->remote->px[job->ranks[0].host]) relay_remote_written(job, done);
    } else if (strcmp(line, "ic") == 0) {
        job->relay.src_open = 0; /* rank 0 closed its stdin or exited */
    } else if (strcmp(line, "fail") == 0) {
        wire_unescape(args);
        job_fail(job, END_EXEC, 1, "mpiexec: on %s: %s; ending the job", p->name, args);
    }
}

static void px_read(struct job *job, struct proxy_conn *p)
{
    char chunk[65536];
    for (int round = 0; round < 16 && p->fd >= 0; round++) {
        ssize_t n = recv(p->fd, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            lost(job, p);
            return;
        }
        buf_append(&p->in, chunk, (size_t)n);
        const char *data;
        size_t len, flen;
        char *line;
        while ((line = wire_next(&p->in, &data, &len, &flen))) {
            frame(job, p, line, data, len);
            buf_consume(&p->in, flen);
        }
    }
}

static void hello(struct job *job, struct pending *q)
{
    struct remote *rm = job->remote;
    const char *data;
    size_t len, flen;
    char *line = wire_next(&q->in, &data, &len, &flen);
    if (!line) return;
    int node;
    char token[64];
    if (sscanf(line, "hello %d %63s", &node, token) != 2 || node < 1 || node > rm->nhosts ||
        strcmp(token, rm->token) != 0 || px_of(job, node)->hello) {
        close(q->fd); /* not one of ours */
        q->fd = -1;
        return;
    }
    buf_consume(&q->in, flen);
    struct proxy_conn *p = px_of(job, node);
    p->fd = q->fd;
    p->in = q->in;
    q->fd = -1;
    memset(&q->in, 0, sizeof q->in);
    p->hello = 1;
    int one = 1;
    setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (job->reason != END_NONE || p->alive_ranks == 0) { /* too late: the job is ending */
        p->bye = 1;
        wire_put(&p->out, "bye");
        px_flush(job, p);
        return;
    }
    send_spec(job, node);
}

static void accept_all(struct job *job)
{
    struct remote *rm = job->remote;
    for (;;) {
        int fd = accept4(rm->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) return;
        rm->pend = xrealloc(rm->pend, (size_t)(rm->npend + 1) * sizeof *rm->pend);
        rm->pend[rm->npend++] = (struct pending){.fd = fd, .since = now_ms()};
    }
}

static void pending_read(struct job *job, struct pending *q)
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
    hello(job, q);
}

static void agent_read(struct proxy_conn *p)
{
    char chunk[4096];
    ssize_t n = read(p->agent_err, chunk, sizeof chunk);
    if (n > 0) {
        if (p->err_text.len < 16384) buf_append(&p->err_text, chunk, (size_t)n);
        return;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    close(p->agent_err);
    p->agent_err = -1;
}

/* ---- the poll loop's view ---- */

size_t remote_poll_max(const struct job *job)
{
    return job->remote ? 2 + 2 * (size_t)job->remote->nhosts + (size_t)job->remote->npend : 0;
}

/* The connection to rank 0's proxy once it has its part of the job. */
static struct proxy_conn *stdin_conn(struct job *job)
{
    struct proxy_conn *p = &job->remote->px[job->ranks[0].host];
    return p->hello && p->fd >= 0 && !p->bye ? p : NULL;
}

size_t remote_poll_add(struct job *job, struct pollfd *pfd, size_t max)
{
    struct remote *rm = job->remote;
    size_t n = 0;
    if (!rm || max < remote_poll_max(job)) return 0;
    pfd[n++] = (struct pollfd){.fd = rm->listen_fd, .events = POLLIN};
    int in = stdin_conn(job) && relay_remote_wants(job);
    pfd[n++] = (struct pollfd){.fd = in ? STDIN_FILENO : -1, .events = POLLIN};
    for (int i = 0; i < rm->npend; i++)
        pfd[n++] = (struct pollfd){.fd = rm->pend[i].fd, .events = POLLIN};
    for (int h = 0; h < rm->nhosts; h++) {
        struct proxy_conn *p = &rm->px[h];
        pfd[n++] =
            (struct pollfd){.fd = p->fd, .events = (short)(POLLIN | (p->out.len ? POLLOUT : 0))};
        pfd[n++] = (struct pollfd){.fd = p->agent_err, .events = POLLIN};
    }
    return n;
}

void remote_poll_handle(struct job *job, struct pollfd *pfd, size_t n)
{
    struct remote *rm = job->remote;
    if (!rm || n == 0) return;
    struct proxy_conn *in = stdin_conn(job);
    if (pfd[1].fd == STDIN_FILENO && pfd[1].revents && in) {
        relay_remote_read(job, &in->out);
        px_flush(job, in);
    }
    size_t k = 2;
    int npend = rm->npend;
    for (int i = 0; i < npend; i++, k++)
        if (pfd[k].revents && rm->pend[i].fd == pfd[k].fd) pending_read(job, &rm->pend[i]);
    for (int h = 0; h < rm->nhosts; h++, k += 2) {
        struct proxy_conn *p = &rm->px[h];
        if (pfd[k].fd >= 0 && p->fd == pfd[k].fd) {
            if (pfd[k].revents & POLLOUT) px_flush(job, p);
            if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) px_read(job, p);
        }
        if (pfd[k + 1].fd >= 0 && p->agent_err == pfd[k + 1].fd && pfd[k + 1].revents)
            agent_read(p);
    }
    /* drop closed pending connections */
    int w = 0;
    for (int i = 0; i < rm->npend; i++)
        if (rm->pend[i].fd >= 0)
            rm->pend[w++] = rm->pend[i];
        else
            buf_free(&rm->pend[i].in);
    rm->npend = w;
    if (pfd[0].revents & POLLIN) accept_all(job);
}

int remote_reaped(struct job *job, pid_t pid, int st)
{
    if (!job->remote) return 0;
    for (int h = 0; h < job->remote->nhosts; h++) {
        struct proxy_conn *p = &job->remote->px[h];
        if (p->agent != pid || p->agent_done) continue;
        while (p->agent_err >= 0) { /* its last words */
            char chunk[4096];
            ssize_t n = read(p->agent_err, chunk, sizeof chunk);
            if (n > 0 && p->err_text.len < 16384) buf_append(&p->err_text, chunk, (size_t)n);
            if (n > 0) continue;
            if (n < 0 && errno == EINTR) continue;
            close(p->agent_err);
            p->agent_err = -1;
        }
        buf_append(&p->err_text, "", 1);
        agent_ended(job, h + 1, st, buf_ptr(&p->err_text));
        return 1;
    }
    return 0;
}

int remote_streams_open(const struct job *job)
{
    if (!job->remote) return 0;
    for (int i = 0; i < job->size; i++) {
        const struct rank *r = &job->ranks[i];
        if (job->remote->px[r->host].fd >= 0 && (!r->line[0].eof || !r->line[1].eof)) return 1;
    }
    return 0;
}

int64_t remote_next_deadline(const struct job *job)
{
    struct remote *rm = job->remote;
    if (!rm || job->reason != END_NONE) return 0;
    for (int h = 0; h < rm->nhosts; h++)
        if (!rm->px[h].hello && !rm->px[h].closed) return rm->t_start + rm->launch_timeout_ms;
    return 0;
}

void remote_deadlines(struct job *job)
{
    struct remote *rm = job->remote;
    if (!rm) return;
    int64_t now = now_ms();
    if (job->reason == END_NONE && now >= rm->t_start + rm->launch_timeout_ms)
        for (int h = 0; h < rm->nhosts; h++)
            if (!rm->px[h].hello && !rm->px[h].closed) {
                char why[96];
                snprintf(why, sizeof why, "its proxy did not call back within %.1f s",
                         (double)rm->launch_timeout_ms / 1000.0);
                unreachable(job, h + 1, why);
            }
    /* Once the job is ending, hosts still on their way will not be waited for. */
    if (job->reason != END_NONE)
        for (int h = 0; h < rm->nhosts; h++)
            if (!rm->px[h].hello && rm->px[h].alive_ranks > 0) forget_host(job, h);
}

void remote_finish(struct job *job)
{
    struct remote *rm = job->remote;
    if (!rm) return;
    for (int h = 0; h < rm->nhosts; h++) {
        struct proxy_conn *p = &rm->px[h];
        if (p->fd < 0) continue;
        if (!p->bye) wire_put(&p->out, "bye");
        p->bye = 1;
        int64_t until = now_ms() + 1000;
        while (p->out.len && now_ms() < until) {
            if (wire_send(p->fd, &p->out) < 0) break;
            if (p->out.len) {
                struct pollfd pf = {.fd = p->fd, .events = POLLOUT};
                poll(&pf, 1, 50);
            }
        }
    }
    /* The agents end when their proxies do; wait a little, then end them. */
    int64_t until = now_ms() + 1000;
    for (;;) {
        int left = 0;
        for (int h = 0; h < rm->nhosts; h++) {
            struct proxy_conn *p = &rm->px[h];
            if (p->agent <= 0 || p->agent_done) continue;
            int st;
            pid_t w = waitpid(p->agent, &st, WNOHANG);
            if (w == p->agent)
                p->agent_done = 1;
            else
                left++;
        }
        if (!left) break;
        if (now_ms() >= until) {
            for (int h = 0; h < rm->nhosts; h++) {
                struct proxy_conn *p = &rm->px[h];
                if (p->agent > 0 && !p->agent_done) {
                    kill(-p->agent, SIGKILL);
                    waitpid(p->agent, NULL, 0);
                    p->agent_done = 1;
                }
            }
            break;
        }
        usleep(10000);
    }
    for (int h = 0; h < rm->nhosts; h++) {
        struct proxy_conn *p = &rm->px[h];
        if (p->fd >= 0) close(p->fd);
        if (p->agent_err >= 0) close(p->agent_err);
        buf_free(&p->in);
        buf_free(&p->out);
        buf_free(&p->err_text);
    }
    for (int i = 0; i < rm->npend; i++) {
        close(rm->pend[i].fd);
        buf_free(&rm->pend[i].in);
    }
    if (rm->listen_fd >= 0) close(rm->listen_fd);
    free(rm->pend);
    free(rm->px);
    free(rm->addrs);
    free(rm->proxy_path);
    free(rm->agent.exec);
    free(rm);
    job->remote = NULL;
}
