/* tern-proxy NODE PORT ADDRS TOKEN: one host's part of a job that spans
 * several (remote.c describes the protocol).  Started by its parent in the
 * launch tree, mpiexec or the proxy above it (agent.c), it calls that parent
 * at ADDRS:PORT, receives its part of the job, starts the proxies below it,
 * then this host's ranks with this host's shared-memory file (shmfile.c),
 * and relays for both until mpiexec says "bye" (proxy.c).
 *
 * The ranks see the same bootstrap socket as under a one-host mpiexec, and
 * TERN_HOST_ID set to this host's name in the host list: ranks with the same
 * id share this proxy's shared-memory file, the others are reached through
 * UCX.  -genv and -env can still override it. */
#include "proxy.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Over ssh, the address we were reached from is the likeliest way back. */
static int connect_back(struct proxy *px)
{
    struct buf list = {0};
    const char *sc = getenv("SSH_CONNECTION");
    if (sc && *sc) {
        buf_append(&list, sc, strcspn(sc, " "));
        buf_append(&list, ",", 1);
    }
    buf_append(&list, px->addrs, strlen(px->addrs) + 1);
    char *copy = xstrdup(buf_ptr(&list)), *save = NULL;
    buf_free(&list);
    int fd = -1, err = 0;
    for (char *a = strtok_r(copy, ",", &save); a && fd < 0; a = strtok_r(NULL, ",", &save)) {
        fd = tcp_connect(a, atoi(px->port), 2000);
        if (fd < 0)
            err = errno;
        else if (strcmp(a, "127.0.0.1") != 0) { /* pass the working one down first */
            char *addrs = xasprintf("%s,%s", a, px->addrs);
            free(px->addrs);
            px->addrs = addrs;
        }
    }
    free(copy);
    if (fd < 0) {
        fprintf(stderr, "tern-proxy: cannot call its parent in the launch tree at %s port %s: %s\n",
                px->addrs, px->port, strerror(err));
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static int up_line(struct proxy *px, char **out)
{
    for (;;) {
        const char *data;
        size_t n, flen;
        char *line = wire_next(&px->up_in, &data, &n, &flen);
        if (line) {
            *out = xstrdup(line);
            buf_consume(&px->up_in, flen);
            return 0;
        }
        struct pollfd pf = {.fd = px->up, .events = POLLIN};
        if (poll(&pf, 1, 60000) != 1) return -1;
        char chunk[65536];
        ssize_t r = recv(px->up, chunk, sizeof chunk, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        buf_append(&px->up_in, chunk, (size_t)r);
    }
}

static struct block *block_at(struct proxy *px, int k)
{
    if (k < 0 || k > 4096) return NULL;
    while (px->opt.nblocks <= k) {
        px->opt.blocks =
            xrealloc(px->opt.blocks, (size_t)(px->opt.nblocks + 1) * sizeof(struct block));
        struct block *b = &px->opt.blocks[px->opt.nblocks++];
        memset(b, 0, sizeof *b);
        b->argv = xcalloc(1, sizeof(char *));
    }
    return &px->opt.blocks[k];
}

/* "tag word word": the words after the tag, unescaped in place. */
static int words(char *args, char **w, int n)
{
    char *save = NULL;
    for (int i = 0; i < n; i++) {
        w[i] = strtok_r(i ? NULL : args, " ", &save);
        if (!w[i] || wire_unescape(w[i]) < 0) return -1;
    }
    return 0;
}

static int read_spec(struct proxy *px)
{
    char *line;
    int ranks_cap = 0;
    while (up_line(px, &line) == 0) {
        if (strncmp(line, "host ", 5) != 0 && strncmp(line, "rank ", 5) != 0 &&
            strcmp(line, "go") != 0 && strcmp(line, "bye") != 0) { /* our children get it too */
            buf_append(&px->common, line, strlen(line));
            buf_append(&px->common, "\n", 1);
        }
        char *args = strchr(line, ' ');
        if (args)
            *args++ = '\0';
        else
            args = line + strlen(line);
        char *w[3];
        int k;
        long long lt;
        if (strcmp(line, "go") == 0) {
            free(line);
            return 0;
        } else if (strcmp(line, "bye") == 0) {
            px->bye = 1;
            free(line);
            return 0;
        } else if (strcmp(line, "conf") == 0) {
            if (sscanf(args, "%d %d %d %63s %lld", &px->size, &px->nhosts, &px->fanout, px->job_id,
                       &lt) != 5 ||
                px->size < 1 || px->size > MPIEXEC_MAX_RANKS || px->nhosts < px->node ||
                px->fanout < 1 || px->names)
                goto bad;
            px->names = xcalloc((size_t)px->nhosts + 1, sizeof *px->names);
            px->rank_node = xmalloc((size_t)px->size * sizeof *px->rank_node);
            px->rank_block = xmalloc((size_t)px->size * sizeof *px->rank_block);
            for (int r = 0; r < px->size; r++) px->rank_node[r] = px->rank_block[r] = -1;
        } else if (strcmp(line, "launcher") == 0) {
            if (words(args, w, 2) < 0 ||
                agent_conf_init(&px->agent, w[0], strcmp(w[1], "-") ? w[1] : NULL) < 0)
                goto bad;
        } else if (strcmp(line, "host") == 0) {
            int node;
            if (!px->names || words(args, w, 2) < 0 || (node = atoi(w[0])) < 1 ||
                node > px->nhosts || px->names[node])
                goto bad;
            px->names[node] = xstrdup(w[1]);
            if (node == px->node) px->name = px->names[node];
        } else if (strcmp(line, "cwd") == 0) {
            if (words(args, w, 1) < 0) goto bad;
            if (chdir(w[0]) < 0) { /* not there on this host: start where we are */
            }
        } else if (strcmp(line, "envclear") == 0) {
            clearenv();
        } else if (strcmp(line, "base") == 0) {
            if (words(args, w, 1) < 0 || !strchr(w[0], '=')) goto bad;
            putenv(xstrdup(w[0]));
        } else if (strcmp(line, "genv") == 0) {
            if (words(args, w, 2) < 0) goto bad;
            envlist_set(&px->opt.genv, w[0], w[1]);
        } else if (strcmp(line, "block") == 0) {
            struct block *b;
            if (words(args, w, 3) < 0 || !(b = block_at(px, atoi(w[0])))) goto bad;
            b->path = xstrdup(w[1]);
            b->wdir = strcmp(w[2], "-") ? xstrdup(w[2]) : NULL;
        } else if (strcmp(line, "arg") == 0) {
            struct block *b;
            if (words(args, w, 2) < 0 || !(b = block_at(px, atoi(w[0])))) goto bad;
            size_t n = 0;
            while (b->argv[n]) n++;
            b->argv = xrealloc(b->argv, (n + 2) * sizeof(char *));
            b->argv[n] = xstrdup(w[1]);
            b->argv[n + 1] = NULL;
        } else if (strcmp(line, "benv") == 0) {
            struct block *b;
            if (words(args, w, 3) < 0 || !(b = block_at(px, atoi(w[0])))) goto bad;
            envlist_set(&b->env, w[1], w[2]);
        } else if (strcmp(line, "rank") == 0) {
            int r, node;
            if (!px->names || sscanf(args, "%d %d %d", &r, &k, &node) != 3 || r < 0 ||
                r >= px->size || px->rank_node[r] >= 0 || !block_at(px, k) ||
                !tree_holds(px->node, node, px->fanout) || node > px->nhosts)
                goto bad;
            px->rank_node[r] = node;
            px->rank_block[r] = k;
            if (node != px->node) {
                free(line);
                continue;
            }
            struct job *job = &px->job;
            if (job->size == ranks_cap) {
                ranks_cap = ranks_cap ? 2 * ranks_cap : 8;
                job->ranks = xrealloc(job->ranks, (size_t)ranks_cap * sizeof *job->ranks);
            }
            struct rank *rk = &job->ranks[job->size++];
            memset(rk, 0, sizeof *rk);
            rk->rank = r;
            rk->block = k;
            rk->host = -1;
            rk->sock = rk->pipe[0] = rk->pipe[1] = -1;
        } else {
            goto bad;
        }
        free(line);
        continue;
    bad:
        fprintf(stderr, "tern-proxy: malformed job description from its parent: '%.80s'\n", line);
        free(line);
        return -1;
    }
    fprintf(stderr, "tern-proxy: its parent went away while sending the job\n");
    return -1;
}

static void fail_up(struct proxy *px, const char *msg)
{
    char *e = wire_escape(msg);
    wire_put(&px->up_out, "fail %d %s", px->node, e);
    free(e);
}

static int start_ranks(struct proxy *px)
{
    struct job *job = &px->job;
    if (px->name) setenv("TERN_HOST_ID", px->name, 1);
    job->shm_fd = -1;
    for (int i = 0; i < job->size; i++) /* mpiexec's stdin comes down to rank 0 */
        if (job->ranks[i].rank == 0 && relay_open(job) < 0) {
            fail_up(px, "cannot make a pipe for rank 0's stdin");
            return -1;
        }
    if (px->size > 1 && job->size > 0 && (job->shm_fd = shmfile_create()) < 0) {
        fail_up(px, "cannot create the host's shared-memory file");
        return -1;
    }
    for (int k = 0; k < px->opt.nblocks; k++) {
        struct block *b = &px->opt.blocks[k];
        int any = 0;
        for (int i = 0; i < job->size; i++) any |= job->ranks[i].block == k;
        if (!any) continue;
        struct rank_env re;
        envbuild_block(&re, &px->opt, b, px->size, k, px->job_id, job->shm_fd);
        for (int i = 0; i < job->size; i++) {
            struct rank *r = &job->ranks[i];
            if (r->block != k) continue;
            if (spawn_rank(job, r, &re, b) < 0) {
                char msg[128];
                snprintf(msg, sizeof msg, "cannot start rank %d (see the proxy's stderr)", r->rank);
                fail_up(px, msg);
                envbuild_free(&re);
                return -1;
            }
            wire_put(&px->up_out, "pid %d %ld", r->rank, (long)r->pid);
        }
        envbuild_free(&re);
    }
    if (job->shm_fd >= 0) close(job->shm_fd);
    job->shm_fd = -1;
    relay_after_spawn(job);
    return 0;
}

int main(int argc, char **argv)
{
    int nul = open("/dev/null", O_RDWR);
    if (nul >= 0) { /* ranks get /dev/null as stdin; 0/1 must not be closed fds */
        dup2(nul, 0);
        if (fcntl(1, F_GETFD) < 0) dup2(nul, 1);
        if (fcntl(2, F_GETFD) < 0) dup2(nul, 2);
        if (nul > 2) close(nul);
    }
    if (argc != 5) {
        fprintf(stderr, "usage: tern-proxy NODE PORT ADDRS TOKEN (started by mpiexec)\n");
        return 2;
    }
    struct proxy px;
    memset(&px, 0, sizeof px);
    px.node = atoi(argv[1]);
    px.port = argv[2];
    px.addrs = xstrdup(argv[3]);
    px.token = argv[4];
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    px.self = exe;
    if (signals_init() < 0 || (px.up = connect_back(&px)) < 0) return 1;
    wire_put(&px.up_out, "hello %d %s", px.node, px.token);
    if (wire_send(px.up, &px.up_out) < 0 || read_spec(&px) < 0) return 1;
    if (px.bye) return 0;
    set_nonblock(px.up);
    struct job *job = &px.job;
    job->opt = &px.opt;
    /* Three per rank, and two per proxy below us (its agent's stderr and
     * its connection): over ssh our limit is the host's default, not
     * mpiexec's. */
    char why[128], msg[192];
    if (open_files_ensure((size_t)job->size * 3 + 2 * (size_t)px.fanout + 32, why, sizeof why) <
        0) {
        snprintf(msg, sizeof msg, "%d ranks and up to %d proxies below it %s", job->size, px.fanout,
                 why);
        fail_up(&px, msg);
        wire_send(px.up, &px.up_out);
        return 1;
    }
    job->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    job->relay.pipe_w = job->relay.child_r = -1;
    proxy_start_children(&px);
    if (start_ranks(&px) < 0) job_signal_all(job, SIGKILL);
    return proxy_run(&px);
}
