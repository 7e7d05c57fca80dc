/* mpiexec's side of a job on several hosts.
 *
 * The proxies form a tree (tree.c: node j starts nodes j*k+1 .. j*k+k, and
 * mpiexec is node 0).  mpiexec listens on a TCP port and starts its own
 * children; a proxy with children listens too, starts them, and relays for
 * them (links.c, proxy.c).  Every proxy calls its parent, not mpiexec: the
 * parent's address, port and the job's token are on its command line.  It
 * says "hello <node> <token>" and gets its part of the job from its parent:
 *
 *   conf <size> <nhosts> <fanout> <job id> <launch timeout>
 *   launcher <kind> <command or ->     how to start its children
 *   cwd <dir>                          where mpiexec runs (ranks start there)
 *   envclear                           -genvall: replace the environment ...
 *   base <NAME=VALUE>                  ... with these (-genvall, -genvlist)
 *   genv <name> <value>                -genv
 *   block <k> <path> <wdir or ->       one MPMD block, its arguments and
 *   arg <k> <word>                     -env settings
 *   benv <k> <name> <value>
 *   host <node> <name>                 each host of its subtree
 *   rank <rank> <block> <node>         each rank of its subtree, and where
 *   go
 *
 * A parent passes on the lines before "host" as they came, and writes the
 * hosts and ranks of the child's subtree (spec.c), so mpiexec describes the
 * job to its own children only.  Having answered a hello, the parent sends
 * "up <node>" upward, so that mpiexec knows every host that called.  A
 * child that calls mpiexec once the job is ending gets "bye" instead; one
 * that has not called a proxy by the time that proxy gets "bye" is refused
 * and ended (links.c).
 *
 * Every other frame names the rank or node it is about, so a relay needs no
 * state beyond the tree's formula and the rank -> node table of its subtree:
 * upward it passes every frame of a child on unchanged; downward it gives a
 * frame about rank r to the child whose subtree holds r's node, and "sig"
 * and "bye" to itself and every child.
 *
 * Upward, from the proxy of a host: its ranks' bootstrap lines ("b <rank>
 * <line>", answered the same way), their output ("o" frames, wire.c; "e
 * <rank> <stream>" at end of file), their pids ("pid <rank> <pid>") and
 * exits ("x <rank> <pid> <wait status>"), the fate of the agents it started
 * ("agent <node> <wait status> <stderr>"), "lost <node>" when a child's
 * connection closed before "bye", and "fail <node> <message>" when it cannot
 * run its part.  Downward: "sig <n>" passes a signal to every rank and "bye"
 * ends the job.  To the proxy of rank 0 mpiexec sends its own stdin: "i 0
 * <length>" frames (wire.c), then "ie 0" at its end; that proxy answers
 * "ia 0 <bytes>" as they enter rank 0's stdin, and "ic 0" once rank 0 no
 * longer reads it (stdin_relay.c).  The bootstrap lines are served by
 * kvs_server.c exactly as for ranks of this host, so fences, aborts and
 * protocol errors behave the same.
 *
 * A host is lost when its connection to its parent closes before "bye" (its
 * subtree goes with it: each proxy ends when its parent's connection
 * closes), and unreachable when its agent exits before it called (or it does
 * not call within TERN_LAUNCH_TIMEOUT): either ends the job, naming the host
 * and the cause.  A host that cannot be reached takes its subtree with it. */
#include "mpiexec.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

extern char **environ;

struct host_state { /* hs[node]: what mpiexec knows of each host's proxy */
    int up;         /* it called and has its part of the job */
    int closed;     /* lost, unreachable, or not waited for any more */
    int agent_done, agent_status;
    int alive_ranks; /* not yet reported as exited */
};

struct remote {
    struct links links; /* mpiexec's own children in the tree */
    char token[40];
    char *addrs;
    char *proxy_path;
    struct agent_conf agent;
    int nhosts, fanout;
    int64_t launch_timeout_ms, t_start;
    struct host_state *hs;
    char **names; /* by node */
    int *rank_node, *rank_block;
    struct buf common; /* the job's description up to its hosts (spec.c) */
};

static struct spec_tree tree_of(const struct job *job)
{
    const struct remote *rm = job->remote;
    return (struct spec_tree){rm->nhosts, rm->fanout,    job->size,
                              rm->names,  rm->rank_node, rm->rank_block};
}

static int node_of(const struct rank *r) { return r->host + 1; }

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

static void put_word2(struct buf *b, const char *tag, const char *x, const char *y)
{
    char *ex = wire_escape(x), *ey = y ? wire_escape(y) : NULL;
    wire_put(b, "%s %s%s%s", tag, ex, ey ? " " : "", ey ? ey : "");
    free(ex);
    free(ey);
}

/* What every host gets, once: the lines before "host". */
static void put_common(struct job *job, struct buf *b)
{
    struct remote *rm = job->remote;
    struct options *o = job->opt;
    wire_put(b, "conf %d %d %d %s %lld", job->size, rm->nhosts, rm->fanout, job->job_id,
             (long long)rm->launch_timeout_ms);
    char *e = wire_escape(rm->agent.exec ? rm->agent.exec : "-");
    wire_put(b, "launcher %s %s", rm->agent.kind, e);
    free(e);
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
}

int remote_start(struct job *job)
{
    struct options *o = job->opt;
    struct remote *rm = xcalloc(1, sizeof *rm);
    job->remote = rm;
    rm->links.listen_fd = -1;
    rm->nhosts = o->nhosts;
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
    rm->hs = xcalloc((size_t)rm->nhosts + 1, sizeof *rm->hs);
    rm->names = xcalloc((size_t)rm->nhosts + 1, sizeof *rm->names);
    for (int h = 0; h < rm->nhosts; h++) rm->names[h + 1] = o->hosts[h].name;
    rm->rank_node = xcalloc((size_t)job->size, sizeof *rm->rank_node);
    rm->rank_block = xcalloc((size_t)job->size, sizeof *rm->rank_block);
    for (int i = 0; i < job->size; i++) {
        job->ranks[i].pid = 0;
        rm->rank_node[i] = node_of(&job->ranks[i]);
        rm->rank_block[i] = job->ranks[i].block;
        rm->hs[rm->rank_node[i]].alive_ranks++;
    }
    job->alive = job->spawned = job->size;
    put_common(job, &rm->common);
    if (links_init(&rm->links, 0, rm->nhosts, rm->fanout, rm->token, rm->names, "mpiexec") < 0)
        return -1;
    rm->addrs = tcp_addresses();
    rm->t_start = now_ms();
    if (o->verbose)
        fprintf(stderr, "mpiexec: job %s on %d hosts, fan-out %d, launcher %s%s%s\n", job->job_id,
                rm->nhosts, rm->fanout, rm->agent.kind, rm->agent.exec ? " " : "",
                rm->agent.exec ? rm->agent.exec : "");
    return links_start(&rm->links, &rm->agent, rm->proxy_path, rm->addrs) ? -1 : 0;
}

/* ---- sending ---- */

/* The connection toward 'node', once that node called. */
static struct link *route(struct job *job, int node)
{
    struct remote *rm = job->remote;
    if (node < 1 || node > rm->nhosts || !rm->hs[node].up) return NULL;
    struct link *l = links_toward(&rm->links, node);
    return l && l->fd >= 0 && !l->bye ? l : NULL;
}

void remote_answer(struct job *job, struct rank *r, const char *a, const char *b)
{
    struct link *l = route(job, node_of(r));
    if (!l) return;
    wire_put(&l->out, "b %d %s%s", r->rank, a, b ? b : "");
    links_send(l);
}

void remote_signal_all(struct job *job, int sig)
{
    if (!job->remote) return;
    char line[32];
    snprintf(line, sizeof line, "sig %d", sig);
    links_broadcast(&job->remote->links, line);
}

/* ---- failures ---- */

/* The ranks of the node and its subtree will never report. */
static void forget_subtree(struct job *job, int node)
{
    struct remote *rm = job->remote;
    for (int i = 0; i < job->size; i++)
        if (tree_holds(node, rm->rank_node[i], rm->fanout) && !job->ranks[i].reaped)
            job_forget(job, &job->ranks[i]);
    for (int n = node; n <= rm->nhosts; n++)
        if (tree_holds(node, n, rm->fanout)) {
            rm->hs[n].alive_ranks = 0;
            rm->hs[n].closed = 1;
        }
}

static void unreachable(struct job *job, int node, const char *why)
{
    struct host_state *h = &job->remote->hs[node];
    if (h->up || h->closed) return;
    job_fail(job, END_EXEC, 1, "mpiexec: cannot reach %s: %s; ending the job",
             job->remote->names[node], why);
    forget_subtree(job, node);
}

static void agent_ended(struct job *job, int node, int status, const char *err)
{
    struct host_state *h = &job->remote->hs[node];
    h->agent_done = 1;
    h->agent_status = status;
    if (h->up || job->reason != END_NONE) {
        if (!h->up) forget_subtree(job, node);
        return;
    }
    char why[512];
    agent_describe(&job->remote->agent, status, err, why, sizeof why);
    unreachable(job, node, why);
}

static void lost(struct job *job, int node)
{
    struct remote *rm = job->remote;
    struct host_state *h = &rm->hs[node];
    if (h->closed) return;
    struct buf list = {0};
    int n = 0, below = 0;
    for (int i = 0; i < job->size; i++)
        if (tree_holds(node, rm->rank_node[i], rm->fanout) && !job->ranks[i].reaped) {
            char s[16];
            int l = snprintf(s, sizeof s, "%s%d", n++ ? ", " : "", i);
            if (n <= 16) buf_append(&list, s, (size_t)l);
        }
    buf_append(&list, "", 1);
    for (int c = node + 1; c <= rm->nhosts; c++)
        below += tree_holds(node, c, rm->fanout) && !rm->hs[c].closed;
    if (n > 0) {
        char why[512] = "its connection closed", sub[96] = "";
        if (h->agent_done) agent_describe(&rm->agent, h->agent_status, "", why, sizeof why);
        if (below)
            snprintf(sub, sizeof sub, ", and with it the %d host%s below it in the launch tree",
                     below, below == 1 ? "" : "s");
        job_fail(job, END_FAILED, 1,
                 "mpiexec: lost host %s (%s)%s: rank%s %s%s gone; ending the job", rm->names[node],
                 why, sub, n == 1 ? "" : "s", buf_ptr(&list), n > 16 ? ", ..." : "");
    }
    buf_free(&list);
    forget_subtree(job, node);
}

/* ---- receiving ---- */

/* The node named by a frame that came through link l: one below l's. */
static int node_below(struct job *job, struct link *l, const char *s)
{
    int node = atoi(s);
    return node > l->node && node <= job->remote->nhosts &&
                   tree_holds(l->node, node, job->remote->fanout)
               ? node
               : -1;
}

/* The rank named by a frame that came through link l: one of its subtree. */
static struct rank *rank_of(struct job *job, struct link *l, const char *s)
{
    int r = atoi(s);
    if (r < 0 || r >= job->size ||
        !tree_holds(l->node, job->remote->rank_node[r], job->remote->fanout))
        return NULL;
    return &job->ranks[r];
}

static void node_up(struct job *job, int node)
{
    struct remote *rm = job->remote;
    rm->hs[node].up = 1;
    struct link *l;
    if (rm->rank_node[0] == node && !job->relay.src_open && (l = route(job, node))) {
        wire_put(&l->out, "ie 0");
        links_send(l);
    }
}

static void on_hello(void *ctx, struct link *l)
{
    struct job *job = ctx;
    struct remote *rm = job->remote;
    if (job->reason != END_NONE) { /* too late: the job is ending */
        l->bye = 1;
        wire_put(&l->out, "bye");
        links_send(l);
        forget_subtree(job, l->node);
        return;
    }
    struct spec_tree t = tree_of(job);
    spec_put(&l->out, &rm->common, &t, l->node);
    links_send(l);
    node_up(job, l->node);
}

static void on_frame(void *ctx, struct link *l, char *line, const char *data, size_t n)
{
    struct job *job = ctx;
    struct remote *rm = job->remote;
    char *args = strchr(line, ' ');
    if (args)
        *args++ = '\0';
    else
        args = line + strlen(line);
    struct rank *r;
    int node, rank, stream;
    if (strcmp(line, "b") == 0) {
        char *text = strchr(args, ' ');
        if (!text || !(r = rank_of(job, l, args))) return;
        kvs_line(job, r, text + 1);
    } else if (strcmp(line, "o") == 0) {
        if (sscanf(args, "%d %d", &rank, &stream) == 2 && (r = rank_of(job, l, args)) &&
            (stream == 0 || stream == 1))
            output_feed(job, r, stream, data, n);
    } else if (strcmp(line, "e") == 0) {
        if (sscanf(args, "%d %d", &rank, &stream) == 2 && (r = rank_of(job, l, args)) &&
            (stream == 0 || stream == 1))
            output_eof(job, r, stream);
    } else if (strcmp(line, "pid") == 0) {
        long pid;
        if ((r = rank_of(job, l, args)) && sscanf(args, "%*d %ld", &pid) == 1) r->pid = (pid_t)pid;
    } else if (strcmp(line, "x") == 0) {
        long pid;
        int st;
        if ((r = rank_of(job, l, args)) && sscanf(args, "%*d %ld %d", &pid, &st) == 2 &&
            !r->reaped) {
            rm->hs[rm->rank_node[r->rank]].alive_ranks--;
            job_remote_exit(job, r, (pid_t)pid, st);
        }
    } else if (strcmp(line, "up") == 0) {
        if ((node = node_below(job, l, args)) > 0) node_up(job, node);
    } else if (strcmp(line, "lost") == 0) {
        if ((node = node_below(job, l, args)) > 0) lost(job, node);
    } else if (strcmp(line, "agent") == 0) {
        int st;
        char err[2048] = "";
        if ((node = node_below(job, l, args)) > 0 && sscanf(args, "%*d %d %2047s", &st, err) >= 1) {
            wire_unescape(err);
            agent_ended(job, node, st, err);
        }
    } else if (strcmp(line, "ia") == 0) {
        long long done;
        if (sscanf(args, "0 %lld", &done) == 1 && done > 0 && rank_of(job, l, "0"))
            relay_remote_written(job, done);
    } else if (strcmp(line, "ic") == 0) {
        if (rank_of(job, l, "0")) job->relay.src_open = 0; /* rank 0 closed its stdin or exited */
    } else if (strcmp(line, "fail") == 0) {
        char *msg = strchr(args, ' ');
        node = atoi(args);
        if (!msg || !tree_holds(l->node, node, rm->fanout)) return;
        wire_unescape(++msg);
        job_fail(job, END_EXEC, 1, "mpiexec: on %s: %s; ending the job", rm->names[node], msg);
    }
}

static void on_closed(void *ctx, struct link *l)
{
    struct job *job = ctx;
    if (links_await(l, 200)) /* so that the report says how it ended */
        agent_ended(job, l->node, l->agent_status, buf_ptr(&l->err));
    lost(job, l->node);
}

static const struct link_ops ops = {on_hello, on_frame, on_closed};

/* ---- the poll loop's view ---- */

size_t remote_poll_max(const struct job *job)
{
    return job->remote ? 1 + links_poll_max(&job->remote->links) : 0;
}

/* The connection toward rank 0's proxy once it has its part of the job. */
static struct link *stdin_conn(struct job *job) { return route(job, job->remote->rank_node[0]); }

size_t remote_poll_add(struct job *job, struct pollfd *pfd, size_t max)
{
    struct remote *rm = job->remote;
    if (!rm || max < remote_poll_max(job)) return 0;
    int in = stdin_conn(job) && relay_remote_wants(job);
    pfd[0] = (struct pollfd){.fd = in ? STDIN_FILENO : -1, .events = POLLIN};
    return 1 + links_poll_add(&rm->links, pfd + 1, 1);
}

void remote_poll_handle(struct job *job, struct pollfd *pfd, size_t n)
{
    struct remote *rm = job->remote;
    if (!rm || n == 0) return;
    struct link *in = stdin_conn(job);
    if (pfd[0].fd == STDIN_FILENO && pfd[0].revents && in) {
        relay_remote_read(job, &in->out);
        links_send(in);
    }
    links_poll_handle(&rm->links, pfd + 1, n - 1, &ops, job);
}

int remote_reaped(struct job *job, pid_t pid, int st)
{
    if (!job->remote) return 0;
    struct link *l = links_reaped(&job->remote->links, pid, st);
    if (!l) return 0;
    agent_ended(job, l->node, st, buf_ptr(&l->err));
    return 1;
}

int remote_streams_open(const struct job *job)
{
    if (!job->remote) return 0;
    for (int i = 0; i < job->size; i++) {
        const struct rank *r = &job->ranks[i];
        if (!job->remote->hs[node_of(r)].closed && (!r->line[0].eof || !r->line[1].eof)) return 1;
    }
    return 0;
}

int64_t remote_next_deadline(const struct job *job)
{
    struct remote *rm = job->remote;
    if (!rm || job->reason != END_NONE) return 0;
    for (int node = 1; node <= rm->nhosts; node++)
        if (!rm->hs[node].up && !rm->hs[node].closed) return rm->t_start + rm->launch_timeout_ms;
    return 0;
}

void remote_deadlines(struct job *job)
{
    struct remote *rm = job->remote;
    if (!rm) return;
    int64_t now = now_ms();
    if (job->reason == END_NONE && now >= rm->t_start + rm->launch_timeout_ms)
        for (int node = 1; node <= rm->nhosts; node++)
            if (!rm->hs[node].up && !rm->hs[node].closed) {
                char why[96];
                snprintf(why, sizeof why, "its proxy did not call back within %.1f s",
                         (double)rm->launch_timeout_ms / 1000.0);
                unreachable(job, node, why);
            }
    /* Once the job is ending, hosts still on their way will not be waited for. */
    if (job->reason != END_NONE)
        for (int node = 1; node <= rm->nhosts; node++)
            if (!rm->hs[node].up && rm->hs[node].alive_ranks > 0) {
                for (int i = 0; i < job->size; i++)
                    if (rm->rank_node[i] == node && !job->ranks[i].reaped)
                        job_forget(job, &job->ranks[i]);
                rm->hs[node].alive_ranks = 0;
            }
}

void remote_finish(struct job *job)
{
    struct remote *rm = job->remote;
    if (!rm) return;
    links_bye(&rm->links, 1000);
    links_free(&rm->links);
    buf_free(&rm->common);
    free(rm->hs);
    free(rm->names);
    free(rm->rank_node);
    free(rm->rank_block);
    free(rm->addrs);
    free(rm->proxy_path);
    free(rm->agent.exec);
    free(rm);
    job->remote = NULL;
}
