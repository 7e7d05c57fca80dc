/* MPI_Comm_spawn and MPI_Comm_spawn_multiple: the root of the parents
 * opens a port and starts a launcher (Tern's mpiexec) for the children as
 * a job of their own, with TERN_SPAWN_PORT naming the port in their
 * environment; the children's MPI_Init connects to it, and the parents
 * accept.  The launcher forwards the children's output and reports their
 * fates like any job's; its exit before the children connected (a program
 * that does not exist, a child that died in MPI_Init) fails the spawn with
 * MPI_ERR_SPAWN instead of leaving the parents waiting.
 *
 * Between the parent and the launcher stands a keeper process: it exits
 * with the launcher's status, and ends the launcher (and so the children)
 * when the parent process dies, which it learns from a pipe whose only
 * writer is the parent.  A parent's MPI_Finalize waits for its launchers. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "comm/comm_spawn.h"
#include "comm/dyn.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/params.h"
#include "core/state.h"
#include "p2p/transport.h"

extern char **environ;

#define PORT_VAR "TERN_SPAWN_PORT"

struct keeper {
    struct keeper *next;
    pid_t pid;
    int pipe_w; /* the parent's end: closed when the parent dies */
    int status, done;
};
static struct keeper *keepers;
static MPI_Comm parent = MPI_COMM_NULL;

MPI_Comm tern_spawn_parent(void) { return parent; }

/* The launcher: TERN_MPIEXEC, else the one that started this job, else
 * the one installed beside this library. */
static int find_launcher(char *path, size_t len)
{
    if (tern_param_is_set(tern_param.mpiexec)) {
        snprintf(path, len, "%s", tern_param.mpiexec);
        return access(path, X_OK) == 0 ? 0 : -1;
    }
    const char *lp = getenv("TERN_LAUNCHER_PID");
    if (lp) {
        char link[64];
        snprintf(link, sizeof link, "/proc/%s/exe", lp);
        ssize_t k = readlink(link, path, len - 1);
        if (k > 0) {
            path[k] = 0;
            if (strstr(path, "mpiexec") && access(path, X_OK) == 0) return 0;
        }
    }
    Dl_info di;
    if (dladdr((void *)find_launcher, &di) && di.dli_fname) {
        char lib[PATH_MAX];
        snprintf(lib, sizeof lib, "%s", di.dli_fname);
        char *slash = strrchr(lib, '/');
        if (slash) {
            *slash = 0;
            snprintf(path, len, "%s/../bin/mpiexec", lib);
            if (access(path, X_OK) == 0) return 0;
        }
    }
    return -1;
}

/* Growing argument and environment vectors. */
struct vec {
    char **v;
    int n, cap;
};

static int vpush(struct vec *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        int nc = a->cap ? 2 * a->cap : 32;
        char **p = realloc(a->v, (size_t)nc * sizeof *p);
        if (!p) return -1;
        a->v = p;
        a->cap = nc;
    }
    if (!(a->v[a->n] = strdup(s))) return -1;
    a->v[++a->n] = NULL;
    return 0;
}

static void vfree(struct vec *a)
{
    for (int i = 0; i < a->n; i++) free(a->v[i]);
    free(a->v);
}

/* The command of one block: with the info key "path", the first
 * directory of it that holds the program. */
static const char *resolve_cmd(const char *cmd, const char *pathlist, char *buf, size_t len)
{
    if (!pathlist || strchr(cmd, '/')) return cmd;
    const char *p = pathlist;
    while (*p) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, len, "%.*s/%s", (int)n, p, cmd);
        if (access(buf, X_OK) == 0) return buf;
        p += n + (e ? 1 : 0);
    }
    return cmd;
}

/* mpiexec's command line: one block per command, with its info keys. */
static int build_argv(const char *launcher, int count, char **cmds, char ***argvs,
                      const int *maxprocs, const MPI_Info *infos, struct vec *a)
{
    int bad = vpush(a, launcher);
    for (int i = 0; i < count && !bad; i++) {
        if (i > 0) bad |= vpush(a, ":");
        char num[16], buf[PATH_MAX];
        snprintf(num, sizeof num, "%d", maxprocs[i]);
        bad |= vpush(a, "-n") | vpush(a, num);
        MPI_Info info = infos ? infos[i] : MPI_INFO_NULL;
        const char *host = tern_info_lookup(info, "host");
        if (!host) host = tern_info_lookup(info, "hosts");
        const char *hostfile = tern_info_lookup(info, "hostfile");
        const char *wdir = tern_info_lookup(info, "wdir");
        if (host) bad |= vpush(a, "-hosts") | vpush(a, host);
        if (hostfile) bad |= vpush(a, "-f") | vpush(a, hostfile);
        if (wdir) bad |= vpush(a, "-wdir") | vpush(a, wdir);
        /* The count keeps an argument that is ':' from ending the block. */
        char **av = argvs ? argvs[i] : NULL;
        int nav = 0;
        while (av && av[nav]) nav++;
        snprintf(num, sizeof num, "%d", nav);
        bad |= vpush(a, "-nargs") | vpush(a, num) | vpush(a, "--");
        bad |= vpush(a, resolve_cmd(cmds[i], tern_info_lookup(info, "path"), buf, sizeof buf));
        for (int k = 0; k < nav && !bad; k++) bad |= vpush(a, av[k]);
    }
    return bad ? -1 : 0;
}

/* The children's environment: this process's, less what the launcher of
 * this job gave it about this job, plus the port to connect to. */
static int build_env(const char *port, struct vec *e)
{
    static const char *const drop[] = {
        "TERN_BOOT_FD=",    "TERN_RANK=",   "TERN_SIZE=",   "TERN_LOCAL_RANK=",
        "TERN_LOCAL_SIZE=", "TERN_APPNUM=", "TERN_JOB_ID=", "TERN_LAUNCHER_PID=",
        "TERN_SHM_FD=",     PORT_VAR "="};
    int bad = 0;
    for (char **p = environ; *p && !bad; p++) {
        int skip = 0;
        for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++)
            if (strncmp(*p, drop[k], strlen(drop[k])) == 0) skip = 1;
        if (!skip) bad |= vpush(e, *p);
    }
    char var[MPI_MAX_PORT_NAME + 32];
    snprintf(var, sizeof var, PORT_VAR "=%s", port);
    return bad | vpush(e, var) ? -1 : 0;
}

/* In the keeper (a fork of a process that may have threads: only
 * async-signal-safe calls): starts the launcher, then waits for it or
 * for the parent's end of the pipe to close. */
static _Noreturn void keep(int pipe_r, char **argv, char **envp)
{
    /* Only the pipe: a copy of the parent's descriptors (its ports, the
     * pipes of its other keepers) would keep them open past its close. */
    if (pipe_r != 3) {
        if (dup2(pipe_r, 3) < 0) _exit(127);
        close(pipe_r);
        pipe_r = 3;
    }
    closefrom(4);
    pid_t l = fork();
    if (l == 0) {
        close(pipe_r);
        /* The parent's input stays the parent's. */
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) dup2(null, 0);
        if (null > 0) close(null);
        execve(argv[0], argv, envp);
        _exit(127);
    }
    if (l < 0) _exit(127);
    for (;;) {
        int st;
        pid_t w = waitpid(l, &st, WNOHANG);
        if (w == l) _exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        struct pollfd pf = {.fd = pipe_r, .events = POLLIN};
        if (poll(&pf, 1, 100) > 0) {
            char c;
            if (read(pipe_r, &c, 1) <= 0) {
                /* The parent is gone: mpiexec ends its children on SIGTERM. */
                kill(l, SIGTERM);
                waitpid(l, &st, 0);
                _exit(143);
            }
        }
    }
}

/* The keepers whose launcher has ended, with their pipes: a process that
 * spawns many times holds only those still running. */
static void reap_keepers(void)
{
    for (struct keeper **kp = &keepers; *kp;) {
        struct keeper *k = *kp;
        if (!k->done && waitpid(k->pid, &k->status, WNOHANG) == k->pid) k->done = 1;
        if (!k->done) {
            kp = &k->next;
            continue;
        }
        *kp = k->next;
        close(k->pipe_w);
        free(k);
    }
}

static int start_keeper(const char *fn, struct vec *a, struct vec *e, struct keeper **out)
{
    reap_keepers();
    int p[2];
    struct keeper *k = calloc(1, sizeof *k);
    if (!k || pipe2(p, O_CLOEXEC) != 0) {
        free(k);
        return tern_err_make(MPI_ERR_SPAWN, "%s: cannot make a pipe: %s", fn, strerror(errno));
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(p[1]);
        keep(p[0], a->v, e->v);
    }
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        free(k);
        return tern_err_make(MPI_ERR_SPAWN, "%s: cannot fork: %s", fn, strerror(errno));
    }
    k->pid = pid;
    k->pipe_w = p[1];
    k->next = keepers;
    keepers = k;
    *out = k;
    return MPI_SUCCESS;
}

/* The accept's question between polls: has the launcher ended? */
static int launcher_ended(void *arg)
{
    struct keeper *k = arg;
    if (k->done || waitpid(k->pid, &k->status, WNOHANG) != k->pid) return 0;
    k->done = 1;
    int code = WIFEXITED(k->status) ? WEXITSTATUS(k->status) : 128 + WTERMSIG(k->status);
    return tern_err_make(MPI_ERR_SPAWN,
                         "MPI_Comm_spawn: the children could not be started: their launcher "
                         "exited with status %d before they connected%s (see its messages above)",
                         code, code == 127 ? " (no launcher, or a program not found)" : "");
}

/* The root's part: the launcher started and its children connected. */
static int root_start(const char *fn, int count, char **cmds, char ***argvs, const int *maxprocs,
                      const MPI_Info *infos, int *fd)
{
    char launcher[PATH_MAX], port[MPI_MAX_PORT_NAME];
    *fd = -1;
    if (find_launcher(launcher, sizeof launcher) != 0)
        return tern_err_make(MPI_ERR_SPAWN,
                             "%s: no launcher to start the children with (set TERN_MPIEXEC to "
                             "Tern's mpiexec)",
                             fn);
    for (int i = 0; i < count; i++) {
        if (!cmds[i] || !*cmds[i])
            return tern_err_make(MPI_ERR_SPAWN, "%s: command %d is empty", fn, i);
        if (maxprocs[i] < 1)
            return tern_err_make(MPI_ERR_SPAWN, "%s: maxprocs=%d for \"%s\" (at least 1)", fn,
                                 maxprocs[i], cmds[i]);
    }
    /* No children started that could not be reached. */
    void *addr = NULL;
    size_t alen;
    int rc = tern_p2p_foreign_address(&addr, &alen);
    free(addr);
    if (rc) return rc;
    if ((rc = tern_port_open(port))) return rc;
    struct vec a = {0}, e = {0};
    struct keeper *k = NULL;
    if (build_argv(launcher, count, cmds, argvs, maxprocs, infos, &a) || build_env(port, &e))
        rc = tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (!rc) rc = start_keeper(fn, &a, &e, &k);
    vfree(&a);
    vfree(&e);
    if (!rc) rc = tern_port_accept_fd(fn, port, launcher_ended, k, fd);
    tern_port_close(port);
    return rc;
}

int tern_spawn(const char *fn, int count, char **cmds, char ***argvs, const int *maxprocs,
               const MPI_Info *infos, int root, struct tern_comm *c, struct tern_comm **out)
{
    int fd = -1, rc = MPI_SUCCESS;
    if (c->rank == root) rc = root_start(fn, count, cmds, argvs, maxprocs, infos, &fd);
    rc = tern_dyn_meet(fn, c, root, fd, 1, rc, MPI_ERR_SPAWN, out);
    if (fd >= 0) close(fd);
    return rc;
}

int tern_spawn_connect_parent(void)
{
    const char *v = getenv(PORT_VAR);
    if (!v || !*v) return MPI_SUCCESS;
    char port[MPI_MAX_PORT_NAME];
    snprintf(port, sizeof port, "%s", v);
    /* Not for this process's own children. */
    unsetenv(PORT_VAR);
    int fd = -1, rc = MPI_SUCCESS;
    struct tern_comm *ic = NULL;
    if (tern_g.world_rank == 0) rc = tern_port_connect_fd("MPI_Init", port, &fd);
    rc = tern_dyn_meet("MPI_Init", &tern_comm_world, 0, fd, 0, rc, MPI_ERR_SPAWN, &ic);
    if (fd >= 0) close(fd);
    if (rc) return rc;
    snprintf(ic->name, sizeof ic->name, "MPI_COMM_PARENT");
    parent = ic->handle;
    return MPI_SUCCESS;
}

void tern_spawn_forget_parent(MPI_Comm h)
{
    if (h == parent) parent = MPI_COMM_NULL;
}

void tern_spawn_finalize(void)
{
    while (keepers) {
        struct keeper *k = keepers;
        keepers = k->next;
        if (!k->done) {
            tern_unlock();
            while (waitpid(k->pid, &k->status, 0) < 0 && errno == EINTR) {}
            tern_lock();
        }
        close(k->pipe_w);
        free(k);
    }
    tern_ports_close_all();
}
