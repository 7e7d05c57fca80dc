/* Starting a proxy on a host, and the launch tree.
 *
 * The agent is ssh (default), rsh, srun (the default inside a Slurm
 * allocation: one task of a step on that node, sharing the job's
 * resources), any command (-launcher-exec, so that
 * `ip netns exec` or a site's own wrapper can be one: the host name and the
 * proxy's command line follow its words), or fork (the proxy runs here;
 * also used by ssh and rsh for a host that is this machine).  ssh and rsh
 * take the remote command as one string, so the words are quoted for the
 * remote shell.
 *
 * Each agent leads its own process group, so that a Ctrl-C in the terminal
 * reaches mpiexec alone, which passes it to every host over the proxies'
 * connections.  Its stdin is /dev/null and its stdout is dropped (proxies
 * talk over TCP); its stderr comes back through a pipe, for the report when
 * the host cannot be reached. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int agent_conf_init(struct agent_conf *c, const char *kind, const char *exec)
{
    memset(c, 0, sizeof *c);
    if (!kind || !*kind) kind = exec && *exec ? "exec" : "ssh";
    if (strcmp(kind, "ssh") != 0 && strcmp(kind, "rsh") != 0 && strcmp(kind, "srun") != 0 &&
        strcmp(kind, "exec") != 0 && strcmp(kind, "fork") != 0) {
        fprintf(stderr, "mpiexec: unknown launcher '%s'; use ssh, rsh, srun, exec or fork\n", kind);
        return -1;
    }
    snprintf(c->kind, sizeof c->kind, "%s", kind);
    if (strcmp(kind, "srun") == 0 && !(exec && *exec))
        /* --overlap: the step shares the CPUs the ranks' own steps or the
         * batch script hold; --mpi=none: the proxy is no MPI task. */
        c->exec = xstrdup("srun --nodes=1 --ntasks=1 --overlap --mpi=none --input=none -w");
    else if (exec && *exec)
        c->exec = xstrdup(exec);
    else if (strcmp(kind, "exec") == 0) {
        fprintf(stderr, "mpiexec: -launcher exec needs a command: -launcher-exec CMD or "
                        "TERN_LAUNCHER_EXEC\n");
        return -1;
    } else if (strcmp(kind, "fork") != 0)
        c->exec = xstrdup(kind);
    return 0;
}

/* 'word' quoted for a POSIX shell. */
static void shell_quote(struct buf *b, const char *word)
{
    buf_append(b, "'", 1);
    for (const char *p = word; *p; p++)
        if (*p == '\'')
            buf_append(b, "'\\''", 4);
        else
            buf_append(b, p, 1);
    buf_append(b, "'", 1);
}

static char **split_words(const char *s, size_t *n)
{
    char **v = NULL, *copy = xstrdup(s), *save = NULL;
    *n = 0;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        v = xrealloc(v, (*n + 1) * sizeof *v);
        v[(*n)++] = xstrdup(w);
    }
    free(copy);
    return v;
}

/* The agent's argv; NULL-terminated, malloc'd words. */
static char **build_argv(const struct agent_conf *c, const char *host, char *const proxy_argv[])
{
    size_t np = 0;
    while (proxy_argv[np]) np++;
    /* srun, like exec, goes through the agent for this host too: the
     * proxy then runs inside the allocation's step. */
    int as_exec = strcmp(c->kind, "exec") == 0 || strcmp(c->kind, "srun") == 0;
    int local = strcmp(c->kind, "fork") == 0 || (!as_exec && hosts_is_this_host(host));
    size_t nw = 0;
    char **words = local ? NULL : split_words(c->exec, &nw);
    char **av = xcalloc(nw + np + 6, sizeof *av);
    size_t n = 0;
    for (size_t i = 0; i < nw; i++) av[n++] = words[i];
    free(words);
    if (local || as_exec) {
        if (!local) av[n++] = xstrdup(host);
        for (size_t i = 0; i < np; i++) av[n++] = xstrdup(proxy_argv[i]);
        return av;
    }
    if (strcmp(c->kind, "ssh") == 0) { /* no X11, no password prompt that would hang */
        av[n++] = xstrdup("-x");
        av[n++] = xstrdup("-oBatchMode=yes");
    }
    av[n++] = xstrdup(host);
    struct buf cmd = {0};
    for (size_t i = 0; i < np; i++) {
        if (i) buf_append(&cmd, " ", 1);
        shell_quote(&cmd, proxy_argv[i]);
    }
    buf_append(&cmd, "", 1);
    av[n++] = xstrdup(buf_ptr(&cmd));
    buf_free(&cmd);
    return av;
}

pid_t agent_start(const struct agent_conf *c, const char *host, char *const proxy_argv[],
                  int *err_fd)
{
    char **av = build_argv(c, host, proxy_argv);
    int pe[2];
    pid_t pid = -1;
    if (pipe2(pe, O_CLOEXEC) < 0) {
        fprintf(stderr, "mpiexec: pipe for the agent of %s: %s\n", host, strerror(errno));
        goto out;
    }
    pid_t parent = getpid();
    sigset_t old;
    signals_block_all(&old);
    pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        /* The agent goes with its parent; the proxy behind it notices the
         * closed connection on its own. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);
        int nul = open("/dev/null", O_RDWR);
        if (nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 || dup2(pe[1], 2) < 0) _exit(127);
        signals_child_reset();
        execvp(av[0], av);
        dprintf(2, "cannot run %s: %s\n", av[0], strerror(errno));
        _exit(127);
    }
    int err = errno;
    signals_restore(&old);
    close(pe[1]);
    if (pid < 0) {
        fprintf(stderr, "mpiexec: cannot start the agent for %s: fork: %s\n", host, strerror(err));
        close(pe[0]);
        goto out;
    }
    setpgid(pid, pid);
    set_nonblock(pe[0]);
    *err_fd = pe[0];
out:
    for (char **p = av; *p; p++) free(*p);
    free(av);
    return pid;
}

void agent_describe(const struct agent_conf *c, int status, const char *err, char *out, size_t len)
{
    const char *who = strcmp(c->kind, "fork") == 0 ? "the proxy" : c->exec;
    char how[96];
    if (WIFSIGNALED(status))
        snprintf(how, sizeof how, "%s was killed by signal %d", who, WTERMSIG(status));
    else
        snprintf(how, sizeof how, "%s exited %d", who, WEXITSTATUS(status));
    /* the last non-empty line says why */
    const char *line = "", *p = err ? err : "";
    size_t ll = 0;
    while (*p) {
        size_t l = strcspn(p, "\n");
        if (l > 0) {
            line = p;
            ll = l;
        }
        p += l;
        if (*p) p++;
    }
    if (ll > 300) ll = 300;
    snprintf(out, len, "%s%s%.*s", how, ll ? ": " : " (no message)", (int)ll, line);
}
