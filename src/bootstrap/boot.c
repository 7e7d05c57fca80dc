/* Bootstrap client: talks to Tern's mpiexec over the inherited socket whose
 * number is in TERN_BOOT_FD; else to PMIx or PMI2 where the environment
 * names one and the build has it (boot_backend.h); else runs as a
 * singleton.
 *
 * Protocol (version 1; the server side is tools/mpiexec/kvs_server.c): lines
 * of text, words separated by single spaces.
 *
 *   init 1 <pid>          -> "ok"
 *   put <key> <value>     (no answer)
 *   get <key>             -> "val <value>" or "absent"
 *   fence                 -> "fence-done" once every rank has sent fence
 *   fin                   -> "ok"
 *   abort <code> [<text>] (no answer; the rank then exits)
 *
 * Every request that has an answer waits for it with a blocking read; the
 * launcher always answers or exits, and its exit closes the socket, so a read
 * never hangs: end of file becomes an error message and -1.
 *
 * Environment: TERN_BOOT_FD, TERN_RANK, TERN_SIZE, TERN_LOCAL_RANK,
 * TERN_LOCAL_SIZE, TERN_APPNUM, TERN_JOB_ID, TERN_LAUNCHER_PID (mpiexec's
 * pid, checked against the socket's peer) and TERN_SHM_FD (the job's
 * shared-memory file, in jobs of more than one rank).  The boot fd and the
 * shared-memory file are made close-on-exec so programs this rank starts
 * (system()) do not inherit them; they see TERN_BOOT_FD without a valid
 * socket behind it and run as singletons.
 *
 * Thread safety: one mutex serialises requests; tern_boot_launcher_alive
 * does not take it. */
#include "boot.h"
#include "boot_backend.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BOOT_MAX_KEY 64     /* key length < this */
#define BOOT_MAX_VALUE 1024 /* value length <= this */
#define BOOT_LINE_MAX 2048

struct local_kv { /* the singleton's own table */
    struct local_kv *next;
    char *key, *value;
};

static struct {
    int inited;
    int fd;                             /* -1: singleton or a backend */
    const struct tern_boot_backend *pm; /* PMIx or PMI2, or NULL */
    int finishing;                      /* finalize seen: the next fence is the last */
    pid_t parent;                       /* under a backend: who started us */
    int shm_fd;                         /* TERN_SHM_FD until tern_boot_take_shm_fd; else -1 */
    struct tern_boot_info info;
    char rbuf[BOOT_LINE_MAX + 2];
    size_t rlen;
    struct local_kv *kv;
} boot = {.fd = -1, .shm_fd = -1};

/* Where both are built and named, PMIx first: it is the richer interface. */
static const struct tern_boot_backend *const backends[] = {
#if defined(TERN_WITH_PMIX)
    &tern_boot_pmix,
#endif
#if defined(TERN_WITH_PMI2)
    &tern_boot_pmi2,
#endif
    NULL,
};

static pthread_mutex_t boot_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int boot_gone; /* the launcher closed the socket */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (boot.inited && (boot.fd >= 0 || boot.pm))
        fprintf(stderr, "tern: rank %d: %s\n", boot.info.rank, line);
    else
        fprintf(stderr, "tern: %s\n", line);
}

static int env_int(const char *name, int dflt, int *out)
{
    const char *s = getenv(name);
    if (!s) {
        if (dflt < 0) return -1;
        *out = dflt;
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < 0 || v > 0x7fffffff) return -1;
    *out = (int)v;
    return 0;
}

/* The socket that mpiexec handed us, or -1 when there is none (singleton):
 * TERN_BOOT_FD absent, or naming a descriptor that is not a stream socket
 * connected to the launcher (a program started by a rank inherits the
 * variable but not the descriptor). */
static int launcher_fd(void)
{
    int fd;
    if (env_int("TERN_BOOT_FD", -1, &fd) < 0) return -1;
    if (fd < 3) return -1;
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode)) return -1;
    int type = 0;
    socklen_t len = sizeof type;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 || type != SOCK_STREAM) return -1;
    int launcher;
    if (env_int("TERN_LAUNCHER_PID", 0, &launcher) == 0 && launcher > 0) {
        struct ucred cred;
        len = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid != launcher)
            return -1;
    }
    return fd;
}

/* The job's shared-memory file, or -1 where the launcher gave none.  The
 * segment code resizes what it gets, so anything but an unnamed regular
 * file (a stale number, a file some other program opened) is refused. */
static int shm_file(int *out)
{
    *out = -1;
    const char *s = getenv("TERN_SHM_FD");
    if (!s) return 0;
    int fd;
    struct stat st;
    if (env_int("TERN_SHM_FD", -1, &fd) < 0 || fd < 3 || fstat(fd, &st) < 0 ||
        !S_ISREG(st.st_mode) || st.st_nlink != 0) {
        say("TERN_SHM_FD=%.40s is not the unnamed shared-memory file mpiexec creates for the job",
            s);
        return -1;
    }
    fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
    *out = fd;
    return 0;
}

static int lost(const char *during)
{
    static atomic_int said;
    if (!atomic_exchange(&said, 1))
        say("lost the connection to mpiexec during %s (the launcher has exited)", during);
    boot_gone = 1;
    return -1;
}

static int send_all(const char *p, size_t n, const char *during)
{
    if (boot_gone) return lost(during);
    while (n > 0) {
        ssize_t w = send(boot.fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EPIPE || errno == ECONNRESET)) return lost(during);
        if (w < 0) {
            say("cannot write to mpiexec during %s: %s", during, strerror(errno));
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads one answer line into boot.rbuf (NUL-terminated, newline removed). */
static int read_line(const char *during)
{
    for (;;) {
        char *nl = memchr(boot.rbuf, '\n', boot.rlen);
        if (nl) {
            *nl = '\0';
            return (int)(nl - boot.rbuf);
        }
        if (boot.rlen >= BOOT_LINE_MAX) {
            say("answer from mpiexec too long during %s", during);
            return -1;
        }
        ssize_t n = recv(boot.fd, boot.rbuf + boot.rlen, BOOT_LINE_MAX - boot.rlen, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0 || (n < 0 && errno == ECONNRESET)) return lost(during);
        if (n < 0) {
            say("cannot read from mpiexec during %s: %s", during, strerror(errno));
            return -1;
        }
        boot.rlen += (size_t)n;
    }
}

static void consume_line(void)
{
    char *nl = memchr(boot.rbuf, '\0', boot.rlen);
    size_t used = nl ? (size_t)(nl - boot.rbuf) + 1 : boot.rlen;
    memmove(boot.rbuf, boot.rbuf + used, boot.rlen - used);
    boot.rlen -= used;
}

/* Sends 'req' and reads the answer into boot.rbuf; caller consumes it. */
static int request(const char *req, size_t len, const char *during)
{
    if (send_all(req, len, during) < 0) return -1;
    return read_line(during);
}

static int expect_ok(const char *req, const char *during)
{
    if (request(req, strlen(req), during) < 0) return -1;
    int ok = strcmp(boot.rbuf, "ok") == 0;
    if (!ok) say("mpiexec refused %s: %s", during, boot.rbuf);
    consume_line();
    return ok ? 0 : -1;
}

static void singleton_id(char *id, size_t len)
{
    unsigned rnd = 0;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != (ssize_t)sizeof rnd)
        rnd = (unsigned)ts.tv_nsec * 2654435761u;
    snprintf(id, len, "s%lx-%llx-%08x", (long)getpid(),
             (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)(ts.tv_nsec / 1000),
             rnd);
}

static const struct tern_boot_backend *backend_present(void)
{
    for (int i = 0; backends[i]; i++)
        if (backends[i]->present()) return backends[i];
    return NULL;
}

/* srun starts every task as the same program with no launcher of Tern's:
 * without a PMI plugin (or with one this build lacks) each task would be a
 * singleton, N copies of rank 0 of 1 that never meet.  The plugin's
 * variables say which one was asked for. */
static int srun_without_pmi(void)
{
    int tasks;
    const char *task = getenv("SLURM_PROCID");
    if (!getenv("SLURM_STEP_ID") || !task || env_int("SLURM_STEP_NUM_TASKS", -1, &tasks) < 0 ||
        tasks < 2)
        return 0;
    char built[64] = "";
    for (int i = 0; backends[i]; i++)
        snprintf(built + strlen(built), sizeof built - strlen(built), "%s%s", i ? " or " : "",
                 backends[i]->srun_option);
    const char *asked = getenv("PMIX_NAMESPACE") ? "PMIx" : getenv("PMI_FD") ? "PMI2" : NULL;
    if (asked)
        say("srun started this program as task %s of %d through %s, which this build of Tern "
            "does not speak (it was configured without TERN_WITH_%s); %s%s",
            task, tasks, asked, asked[3] == 'x' ? "PMIX" : "PMI2",
            built[0] ? "use srun " : "start the job with Tern's mpiexec inside the allocation",
            built);
    else if (built[0])
        say("srun started this program as task %s of %d without a PMI plugin, so the tasks "
            "cannot find each other: run it with srun %s",
            task, tasks, built);
    else
        say("srun started this program as task %s of %d, but this build of Tern has neither "
            "PMI2 nor PMIx (TERN_WITH_PMI2, TERN_WITH_PMIX), so the tasks cannot find each "
            "other: start the job with Tern's mpiexec inside the allocation",
            task, tasks);
    return 1;
}

static int init_backend(const struct tern_boot_backend *pm, struct tern_boot_info *info)
{
    struct tern_boot_info in;
    memset(&in, 0, sizeof in);
    if (pm->init(&in) != 0) {
        say("cannot start through %s (see above)", pm->name);
        return -1;
    }
    boot.pm = pm;
    boot.parent = getppid();
    boot.info = in;
    boot.inited = 1;
    *info = in;
    return 0;
}

static int init_locked(struct tern_boot_info *info)
{
    struct tern_boot_info in;
    memset(&in, 0, sizeof in);
    int fd = launcher_fd();
    const struct tern_boot_backend *pm = fd < 0 ? backend_present() : NULL;
    if (pm) return init_backend(pm, info);
    if (fd < 0 && srun_without_pmi()) return -1;
    if (fd < 0) {
        in.rank = in.local_rank = in.appnum = 0;
        in.size = in.local_size = 1;
        in.singleton = 1;
        singleton_id(in.job_id, sizeof in.job_id);
        boot.fd = -1;
        boot.info = in;
        boot.inited = 1;
        *info = in;
        return 0;
    }
    const char *id = getenv("TERN_JOB_ID");
    if (env_int("TERN_RANK", -1, &in.rank) < 0 || env_int("TERN_SIZE", -1, &in.size) < 0 ||
        in.size < 1 || in.rank >= in.size ||
        env_int("TERN_LOCAL_RANK", in.rank, &in.local_rank) < 0 ||
        env_int("TERN_LOCAL_SIZE", in.size, &in.local_size) < 0 ||
        env_int("TERN_APPNUM", 0, &in.appnum) < 0 || !id || !*id ||
        strlen(id) >= sizeof in.job_id) {
        say("TERN_BOOT_FD is set but TERN_RANK, TERN_SIZE or TERN_JOB_ID is missing or invalid");
        return -1;
    }
    strcpy(in.job_id, id);
    if (shm_file(&boot.shm_fd) < 0) return -1;
    fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
    boot.fd = fd;
    boot.info = in;
    boot.inited = 1;
    char req[64];
    snprintf(req, sizeof req, "init 1 %ld\n", (long)getpid());
    if (expect_ok(req, "MPI initialization") < 0) {
        boot.inited = 0;
        return -1;
    }
    *info = in;
    return 0;
}

int tern_boot_job_size(void)
{
    pthread_mutex_lock(&boot_lock);
    int size = 1;
    /* The test tern_boot_init makes, so a program that inherited TERN_SIZE
     * without the launcher's socket is a singleton here too. */
    const struct tern_boot_backend *pm;
    if (boot.inited)
        size = boot.info.size;
    else if (launcher_fd() >= 0) {
        if (env_int("TERN_SIZE", -1, &size) < 0 || size < 1) size = 1;
    } else if ((pm = backend_present()) && pm->env_size() > 0) {
        size = pm->env_size();
    }
    pthread_mutex_unlock(&boot_lock);
    return size;
}

int tern_boot_init(struct tern_boot_info *info)
{
    pthread_mutex_lock(&boot_lock);
    int rc = 0;
    if (boot.inited)
        *info = boot.info;
    else
        rc = init_locked(info);
    pthread_mutex_unlock(&boot_lock);
    return rc;
}

int tern_boot_take_shm_fd(int first)
{
    pthread_mutex_lock(&boot_lock);
    int fd = boot.shm_fd, shared = boot.inited && boot.pm && boot.info.size > 1;
    int me = boot.info.rank;
    boot.shm_fd = -1;
    pthread_mutex_unlock(&boot_lock);
    return shared ? tern_boot_shm_share(first, me) : fd;
}

void tern_boot_shm_file_id(char *out, size_t len)
{
    pthread_mutex_lock(&boot_lock);
    struct stat st;
    if (boot.shm_fd >= 0 && fstat(boot.shm_fd, &st) == 0)
        snprintf(out, len, "%llx:%llx", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
    else
        snprintf(out, len, "-");
    pthread_mutex_unlock(&boot_lock);
}

static int valid_word(const char *s, size_t min, size_t max)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (s[n] <= ' ' || s[n] > '~' || n >= max) return 0;
    return n >= min;
}

static int not_inited(const char *what)
{
    say("%s called before tern_boot_init", what);
    return -1;
}

int tern_boot_put(const char *key, const char *value)
{
    if (!key || !valid_word(key, 1, BOOT_MAX_KEY - 1)) {
        say("bootstrap put: invalid key '%.80s' (1 to %d printable characters, no spaces)",
            key ? key : "(null)", BOOT_MAX_KEY - 1);
        return -1;
    }
    if (!value || !valid_word(value, 0, BOOT_MAX_VALUE)) {
        say("bootstrap put: invalid value for key '%s' (at most %d printable characters, no "
            "spaces)",
            key, BOOT_MAX_VALUE);
        return -1;
    }
    pthread_mutex_lock(&boot_lock);
    int rc = 0;
    if (!boot.inited) {
        rc = not_inited("tern_boot_put");
    } else if (boot.pm) {
        rc = boot.pm->put(key, value);
    } else if (boot.fd < 0) {
        struct local_kv *e = boot.kv;
        while (e && strcmp(e->key, key) != 0) e = e->next;
        char *v = strdup(value);
        if (!v) {
            rc = -1;
        } else if (e) {
            free(e->value);
            e->value = v;
        } else if ((e = malloc(sizeof *e)) && (e->key = strdup(key))) {
            e->value = v;
            e->next = boot.kv;
            boot.kv = e;
        } else {
            free(e);
            free(v);
            rc = -1;
        }
        if (rc < 0) say("bootstrap put: out of memory");
    } else {
        char req[16 + BOOT_MAX_KEY + BOOT_MAX_VALUE];
        int n = snprintf(req, sizeof req, "put %s %s\n", key, value);
        rc = send_all(req, (size_t)n, "a key-value put");
    }
    pthread_mutex_unlock(&boot_lock);
    return rc;
}

int tern_boot_get(int owner, const char *key, char *value, size_t max)
{
    if (!key || !valid_word(key, 1, BOOT_MAX_KEY - 1)) {
        say("bootstrap get: invalid key '%.80s'", key ? key : "(null)");
        return -1;
    }
    pthread_mutex_lock(&boot_lock);
    int rc = -1, answered = 0;
    const char *found = NULL;
    if (!boot.inited) {
        not_inited("tern_boot_get");
    } else if (boot.pm) {
        rc = boot.pm->get(owner, key, value, max);
    } else if (boot.fd < 0) {
        for (struct local_kv *e = boot.kv; e; e = e->next)
            if (strcmp(e->key, key) == 0) found = e->value;
    } else {
        char req[8 + BOOT_MAX_KEY];
        int n = snprintf(req, sizeof req, "get %s\n", key);
        if (request(req, (size_t)n, "a key-value get") >= 0) {
            answered = 1;
            if (strncmp(boot.rbuf, "val ", 4) == 0)
                found = boot.rbuf + 4;
            else if (strcmp(boot.rbuf, "absent") != 0)
                say("unexpected answer from mpiexec to get: '%.80s'", boot.rbuf);
        }
    }
    if (found) {
        size_t len = strlen(found);
        if (len < max) {
            memcpy(value, found, len + 1);
            rc = 0;
        } else {
            say("bootstrap get: the value of '%s' (%zu bytes) does not fit in %zu bytes", key, len,
                max);
        }
    }
    if (answered) consume_line();
    pthread_mutex_unlock(&boot_lock);
    return rc;
}

int tern_boot_fence(void)
{
    pthread_mutex_lock(&boot_lock);
    int rc = 0;
    if (!boot.inited) {
        rc = not_inited("tern_boot_fence");
    } else if (boot.pm) {
        rc = boot.pm->fence();
        /* The fence after finalize is the job's last word with PMI. */
        if (boot.finishing && boot.pm->finalize() != 0) rc = -1;
        if (boot.finishing) boot.finishing = 0;
    } else if (boot.fd >= 0) {
        rc = request("fence\n", 6, "a fence");
        if (rc >= 0) {
            rc = strcmp(boot.rbuf, "fence-done") == 0 ? 0 : -1;
            if (rc < 0) say("unexpected answer from mpiexec to fence: '%.80s'", boot.rbuf);
            consume_line();
        }
    }
    pthread_mutex_unlock(&boot_lock);
    return rc < 0 ? -1 : 0;
}

int tern_boot_finalize(void)
{
    pthread_mutex_lock(&boot_lock);
    int rc = 0;
    if (!boot.inited) {
        rc = not_inited("tern_boot_finalize");
    } else if (boot.pm) {
        /* The runtime fences after this when the job has several ranks;
         * PMI is finalized after that fence, or now when none comes. */
        if (boot.info.size > 1)
            boot.finishing = 1;
        else
            rc = boot.pm->finalize();
    } else if (boot.fd >= 0) {
        rc = expect_ok("fin\n", "MPI finalization");
    } else {
        while (boot.kv) {
            struct local_kv *e = boot.kv;
            boot.kv = e->next;
            free(e->key);
            free(e->value);
            free(e);
        }
    }
    pthread_mutex_unlock(&boot_lock);
    return rc;
}

_Noreturn void tern_boot_abort(int code, const char *msg)
{
    /* An abort is never a success: 0 modulo 256 becomes 1 (as in mpiexec). */
    int status = (int)((unsigned)code & 0xffu);
    if (status == 0) status = 1;
    char text[1024];
    size_t n = 0;
    for (const char *p = msg ? msg : ""; *p && n < sizeof text - 1; p++)
        text[n++] = (*p == '\n' || *p == '\r') ? ' ' : *p;
    text[n] = '\0';
    /* No lock: abort may be called from a thread that holds it, or from a
     * signal handler; a lost message only costs the report its text. */
    int fd = boot.fd;
    if (boot.inited && boot.pm) {
        fprintf(stderr, "tern: rank %d: %s\n", boot.info.rank, n ? text : "MPI_Abort was called");
        boot.pm->abort(status, text);
    } else if (boot.inited && fd >= 0 && !boot_gone) {
        char req[1100];
        int len = snprintf(req, sizeof req, "abort %d%s%s\n", code, n ? " " : "", text);
        const char *p = req;
        size_t left = (size_t)len;
        while (left > 0) {
            ssize_t w = send(fd, p, left, MSG_NOSIGNAL);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) break;
            p += w;
            left -= (size_t)w;
        }
    } else {
        fprintf(stderr, "tern: MPI_Abort was called with code %d%s%s\n", code, n ? ": " : "", text);
    }
    _exit(status);
}

int tern_boot_launcher_alive(void)
{
    int fd = boot.fd;
    if (boot.inited && boot.pm) return getppid() == boot.parent;
    if (!boot.inited || fd < 0) return 1;
    if (boot_gone) return 0;
    struct pollfd p = {.fd = fd, .events = POLLIN | POLLRDHUP};
    int rc = poll(&p, 1, 0);
    if (rc <= 0) return 1; /* nothing to see (or EINTR): still there */
    if (p.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL)) {
        boot_gone = 1;
        return 0;
    }
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) {
        boot_gone = 1;
        return 0;
    }
    return 1;
}

void tern_boot_to_word(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == 0x7f) *s = '_';
}
