/* The bootstrap client without mpiexec: singleton mode, a descriptor that is
 * not the launcher's, and a fake launcher that answers and then goes away
 * (tern_boot_launcher_alive must notice; a blocking call must fail, not
 * hang), and the job's shared-memory file (TERN_SHM_FD): taken once when it
 * is an unnamed file, refused otherwise; a task of a several-task srun step
 * without PMI refused, a one-task step a singleton.  Each case runs in a
 * child process since the client keeps state. */
#include "boot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c)                                                                             \
    do {                                                                                     \
        if (!(c)) {                                                                          \
            fprintf(stderr, "boot_unit: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            _exit(1);                                                                        \
        }                                                                                    \
    } while (0)

static void clear_env(void)
{
    const char *vars[] = {
        "TERN_BOOT_FD",    "TERN_RANK",     "TERN_SIZE",      "TERN_LOCAL_RANK",
        "TERN_LOCAL_SIZE", "TERN_APPNUM",   "TERN_JOB_ID",    "TERN_LAUNCHER_PID",
        "TERN_SHM_FD",     "SLURM_STEP_ID", "SLURM_PROCID",   "SLURM_STEP_NUM_TASKS",
        "PMI_FD",          "PMI_RANK",      "PMIX_NAMESPACE", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) unsetenv(vars[i]);
}

static void set_int(const char *name, long v)
{
    char s[32];
    snprintf(s, sizeof s, "%ld", v);
    setenv(name, s, 1);
}

static void singleton_case(void)
{
    struct tern_boot_info info;
    CHECK(tern_boot_init(&info) == 0);
    CHECK(info.singleton == 1 && info.rank == 0 && info.size == 1 && info.appnum == 0);
    CHECK(info.local_rank == 0 && info.local_size == 1 && info.job_id[0] != '\0');
    char v[16];
    CHECK(tern_boot_get(0, "a", v, sizeof v) == -1);
    CHECK(tern_boot_put("a", "1") == 0);
    CHECK(tern_boot_put("a", "2") == 0);
    CHECK(tern_boot_fence() == 0);
    CHECK(tern_boot_get(0, "a", v, sizeof v) == 0 && strcmp(v, "2") == 0);
    CHECK(tern_boot_get(0, "a", v, 1) == -1); /* does not fit */
    CHECK(tern_boot_put("bad key", "x") == -1);
    CHECK(tern_boot_launcher_alive() == 1);
    CHECK(tern_boot_finalize() == 0);
}

static void not_a_launcher_case(void)
{
    int fd = open("/dev/null", O_RDONLY);
    CHECK(fd >= 3);
    set_int("TERN_BOOT_FD", fd);
    set_int("TERN_RANK", 1);
    set_int("TERN_SIZE", 2);
    setenv("TERN_JOB_ID", "x", 1);
    struct tern_boot_info info;
    CHECK(tern_boot_init(&info) == 0);
    CHECK(info.singleton == 1 && info.rank == 0 && info.size == 1);
}

static void wrong_peer_case(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    set_int("TERN_BOOT_FD", sv[1]);
    set_int("TERN_RANK", 0);
    set_int("TERN_SIZE", 1);
    setenv("TERN_JOB_ID", "x", 1);
    set_int("TERN_LAUNCHER_PID", 1); /* not the socket's peer */
    struct tern_boot_info info;
    CHECK(tern_boot_init(&info) == 0);
    CHECK(info.singleton == 1);
}

/* Reads one line from fd with a time limit. */
static int server_line(int fd, char *line, size_t max)
{
    size_t n = 0;
    while (n + 1 < max) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 5000) <= 0) return -1;
        ssize_t r = read(fd, line + n, 1);
        if (r <= 0) return -1;
        if (line[n] == '\n') {
            line[n] = '\0';
            return 0;
        }
        n++;
    }
    return -1;
}

static void fake_launcher_case(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    set_int("TERN_BOOT_FD", sv[1]);
    set_int("TERN_RANK", 2);
    set_int("TERN_SIZE", 4);
    set_int("TERN_APPNUM", 1);
    setenv("TERN_JOB_ID", "unit-job", 1);
    set_int("TERN_LAUNCHER_PID", getpid()); /* creator of the pair = its peer */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(sv[0]);
        struct tern_boot_info info;
        CHECK(tern_boot_init(&info) == 0);
        CHECK(info.singleton == 0 && info.rank == 2 && info.size == 4 && info.appnum == 1);
        CHECK(strcmp(info.job_id, "unit-job") == 0);
        CHECK(fcntl(sv[1], F_GETFD) & FD_CLOEXEC);
        CHECK(tern_boot_launcher_alive() == 1);
        char v[32];
        CHECK(tern_boot_get(0, "k", v, sizeof v) == 0 && strcmp(v, "hello") == 0);
        CHECK(tern_boot_put("ready", "1") == 0);
        /* the fake launcher now closes its end */
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        while (tern_boot_launcher_alive()) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            CHECK(t1.tv_sec - t0.tv_sec < 5);
            usleep(1000);
        }
        CHECK(tern_boot_fence() == -1);
        CHECK(tern_boot_finalize() == -1);
        _exit(0);
    }
    close(sv[1]);
    char line[256];
    CHECK(server_line(sv[0], line, sizeof line) == 0);
    char want[64];
    snprintf(want, sizeof want, "init 1 %ld", (long)pid);
    CHECK(strcmp(line, want) == 0);
    CHECK(write(sv[0], "ok\n", 3) == 3);
    CHECK(server_line(sv[0], line, sizeof line) == 0 && strcmp(line, "get k") == 0);
    CHECK(write(sv[0], "val hello\n", 10) == 10);
    CHECK(server_line(sv[0], line, sizeof line) == 0 && strcmp(line, "put ready 1") == 0);
    close(sv[0]);
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* A rank of a 2-rank job whose launcher answers "init" and nothing more;
 * TERN_SHM_FD names 'shm_fd'.  Returns tern_boot_init's result. */
static int init_with_shm_fd(int shm_fd)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    set_int("TERN_BOOT_FD", sv[1]);
    set_int("TERN_RANK", 0);
    set_int("TERN_SIZE", 2);
    setenv("TERN_JOB_ID", "unit-job", 1);
    set_int("TERN_SHM_FD", shm_fd);
    CHECK(write(sv[0], "ok\n", 3) == 3); /* the answer to "init", ahead of time */
    struct tern_boot_info info;
    return tern_boot_init(&info);
}

static void shm_unnamed_case(void)
{
    int fd = memfd_create("boot-unit", 0);
    CHECK(fd >= 3);
    CHECK(init_with_shm_fd(fd) == 0);
    CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC); /* programs the rank starts do not get it */
    CHECK(tern_boot_take_shm_fd(0) == fd);
    CHECK(tern_boot_take_shm_fd(0) == -1);
}

static void shm_named_case(void)
{
    char path[] = "/tmp/boot-unit-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 3);
    int rc = init_with_shm_fd(fd); /* a file with a name: the segment code would resize it */
    unlink(path);
    CHECK(rc == -1);
}

static void shm_not_a_file_case(void)
{
    int fd = open("/dev/null", O_RDWR);
    CHECK(fd >= 3);
    CHECK(init_with_shm_fd(fd) == -1);
}

static void shm_none_case(void)
{
    struct tern_boot_info info;
    CHECK(tern_boot_init(&info) == 0);
    CHECK(tern_boot_take_shm_fd(0) == -1);
}

static void srun_step(int tasks)
{
    setenv("SLURM_STEP_ID", "0", 1);
    setenv("SLURM_PROCID", "0", 1);
    set_int("SLURM_STEP_NUM_TASKS", tasks);
}

static void srun_without_pmi_case(void)
{
    srun_step(4);
    struct tern_boot_info info;
    CHECK(tern_boot_init(&info) == -1); /* with a message naming srun --mpi= */
}

static void srun_one_task_case(void)
{
    srun_step(1);
    struct tern_boot_info info;
    CHECK(tern_boot_init(&info) == 0 && info.singleton == 1 && info.size == 1);
}

static void abort_singleton_case(void)
{
    struct tern_boot_info info;
    CHECK(tern_boot_init(&info) == 0);
    tern_boot_abort(256, "bye"); /* 0 modulo 256: exits 1 */
}

static int run_case(const char *name, void (*fn)(void), int want_status)
{
    pid_t pid = fork();
    if (pid == 0) {
        clear_env();
        fn();
        _exit(0);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
        fprintf(stderr, "boot_unit: %s: fork/wait failed: %s\n", name, strerror(errno));
        return 1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != want_status) {
        fprintf(stderr, "boot_unit: %s: FAILED (status 0x%x)\n", name, st);
        return 1;
    }
    printf("boot_unit: %s: ok\n", name);
    return 0;
}

int main(void)
{
    int bad = 0;
    bad += run_case("singleton", singleton_case, 0);
    bad += run_case("not-a-launcher-fd", not_a_launcher_case, 0);
    bad += run_case("wrong-peer", wrong_peer_case, 0);
    bad += run_case("fake-launcher-goes-away", fake_launcher_case, 0);
    bad += run_case("abort-singleton", abort_singleton_case, 1);
    bad += run_case("shm-file-unnamed", shm_unnamed_case, 0);
    bad += run_case("shm-file-named-refused", shm_named_case, 0);
    bad += run_case("shm-file-not-a-file-refused", shm_not_a_file_case, 0);
    bad += run_case("shm-file-none-singleton", shm_none_case, 0);
    bad += run_case("srun-without-pmi-refused", srun_without_pmi_case, 0);
    bad += run_case("srun-one-task-singleton", srun_one_task_case, 0);
    return bad ? 1 : 0;
}
