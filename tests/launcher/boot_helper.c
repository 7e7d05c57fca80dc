/* A rank for the launcher tests, linked directly against the bootstrap
 * client (src/bootstrap/boot.c), not libmpi.
 *
 *   boot_helper kvs [ROUNDS]      put/fence/get across all ranks, ROUNDS times
 *   boot_helper info              print what tern_boot_init says
 *   boot_helper env NAME...       print the NAMEs from the environment
 *   boot_helper segv R            rank R dies of SIGSEGV after a fence
 *   boot_helper kill9 R           rank R kills itself with SIGKILL
 *   boot_helper abort R CODE      rank R calls tern_boot_abort(CODE, ...)
 *   boot_helper exit R CODE       rank R exits with CODE before finalizing
 *   boot_helper sleep SECONDS     sleep, then finalize
 *   boot_helper stubborn          ignore SIGTERM and sleep forever
 *   boot_helper chatty LINES      print LINES lines in pieces
 *   boot_helper longlines N LEN   print N lines of LEN bytes in 10000-byte writes
 *   boot_helper stdin             report what stdin holds
 *   boot_helper fence             one fence, then finalize
 *   boot_helper sigcount          count SIGINTs for 0.2 s after the first
 *
 * Every mode that waits prints "pid RANK PID" first (after a fence, so all
 * ranks have printed before anything dies) for the driver's survivor check,
 * and the rank that dies prints "dying <CLOCK_MONOTONIC ns>" just before, so
 * the driver can time the teardown alone.
 * The others not named R sleep until they are killed. */
#include "boot.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct tern_boot_info me;

static void die(const char *what)
{
    fprintf(stderr, "boot_helper rank %d: %s\n", me.rank, what);
    exit(1);
}

static void start(void)
{
    if (tern_boot_init(&me) != 0) die("tern_boot_init failed");
}

static void announce(void)
{
    printf("pid %d %ld\n", me.rank, (long)getpid());
    fflush(stdout);
    if (tern_boot_fence() != 0) die("fence failed");
}

static _Noreturn void sleep_forever(void)
{
    for (;;) sleep(1000);
}

static void finish(void)
{
    if (tern_boot_finalize() != 0) die("tern_boot_finalize failed");
}

static void check_get(int owner, const char *key, const char *want)
{
    char got[1100];
    int rc = tern_boot_get(owner, key, got, sizeof got);
    if (want == NULL) {
        if (rc == 0) {
            fprintf(stderr, "rank %d: key %s should be absent, got '%s'\n", me.rank, key, got);
            exit(1);
        }
        return;
    }
    if (rc != 0 || strcmp(got, want) != 0) {
        fprintf(stderr, "rank %d: key %s: want '%s', got %s '%s'\n", me.rank, key, want,
                rc ? "error" : "value", rc ? "" : got);
        exit(1);
    }
}

static void mode_kvs(int rounds)
{
    start();
    char key[64], val[1100], want[1100];
    for (int round = 0; round < rounds; round++) {
        snprintf(key, sizeof key, "k%d-%d", round, me.rank);
        snprintf(val, sizeof val, "v%d-%d-%s", round, me.rank, me.job_id);
        if (tern_boot_put(key, val) != 0) die("put failed");
        if (round == 0 && me.rank == 0) { /* the longest value allowed */
            memset(val, 'z', 1024);
            val[1024] = '\0';
            if (tern_boot_put("long", val) != 0) die("put of a 1024-byte value failed");
        }
        if (tern_boot_fence() != 0) die("fence failed");
        /* every other rank's key (a sample of them in big jobs) */
        int step = me.size <= 64 ? 1 : me.size / 32;
        for (int r = 0; r < me.size; r += step) {
            int peer = (me.rank + r) % me.size;
            snprintf(key, sizeof key, "k%d-%d", round, peer);
            snprintf(want, sizeof want, "v%d-%d-%s", round, peer, me.job_id);
            check_get(peer, key, want);
        }
        snprintf(key, sizeof key, "k%d-%d", round + 1, me.rank);
        check_get(me.rank, key, NULL); /* not put yet */
        check_get(0, "no-such-key", NULL);
        if (round == 0) {
            memset(want, 'z', 1024);
            want[1024] = '\0';
            check_get(0, "long", want);
        }
    }
    finish();
    printf("ok %d\n", me.rank);
}

static void mode_info(void)
{
    start();
    printf("rank=%d size=%d local_rank=%d local_size=%d appnum=%d singleton=%d job=%s\n", me.rank,
           me.size, me.local_rank, me.local_size, me.appnum, me.singleton, me.job_id);
    finish();
}

static void mode_env(int argc, char **argv)
{
    start();
    for (int i = 0; i < argc; i++) {
        const char *v = getenv(argv[i]);
        printf("%d %s=%s\n", me.rank, argv[i], v ? v : "(unset)");
    }
    finish();
}

static void mode_victim(const char *how, int victim, int code)
{
    start();
    announce();
    if (me.rank != victim) sleep_forever();
    /* the driver measures the teardown from here */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("dying %lld\n", (long long)ts.tv_sec * 1000000000 + ts.tv_nsec);
    fflush(stdout);
    if (strcmp(how, "segv") == 0) {
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    } else if (strcmp(how, "kill9") == 0) {
        kill(getpid(), SIGKILL);
    } else if (strcmp(how, "abort") == 0) {
        tern_boot_abort(code, "test abort message");
    } else if (strcmp(how, "exit") == 0) {
        fflush(stdout);
        _exit(code);
    }
    die("still alive");
}

static void mode_chatty(int lines)
{
    /* Each line goes out in up to three write(2) calls, so lines arrive at
     * mpiexec in pieces. */
    char line[400];
    for (int i = 0; i < lines; i++) {
        int pad = (i * 7 + me.rank * 13) % 240;
        int n = snprintf(line, sizeof line, "r%d l%d ", me.rank, i);
        memset(line + n, 'x', (size_t)pad);
        n += pad;
        n += snprintf(line + n, sizeof line - (size_t)n, " end\n");
        int a = n / 3, b = 2 * n / 3;
        if (write(1, line, (size_t)a) < 0 || write(1, line + a, (size_t)(b - a)) < 0 ||
            write(1, line + b, (size_t)(n - b)) < 0)
            die("write failed");
    }
}

static void mode_longlines(int count, int len)
{
    char chunk[10000];
    memset(chunk, 'a' + me.rank % 26, sizeof chunk);
    for (int i = 0; i < count; i++) {
        char head[32];
        int h = snprintf(head, sizeof head, "%d:", me.rank);
        if (write(1, head, (size_t)h) < 0) die("write failed");
        for (int left = len; left > 0;) {
            int n = left < (int)sizeof chunk ? left : (int)sizeof chunk;
            if (write(1, chunk, (size_t)n) < 0) die("write failed");
            left -= n;
        }
        if (write(1, "\n", 1) < 0) die("write failed");
    }
}

static volatile sig_atomic_t sigints;

static void on_sigint(int sig)
{
    (void)sig;
    sigints++;
}

static void mode_sigcount(void)
{
    start();
    signal(SIGINT, on_sigint);
    announce();
    while (sigints == 0) pause();
    /* A relay that passes the signal twice does so within milliseconds;
     * the rest of mpiexec's 1 s grace after a SIGINT is margin for the line
     * below to reach it on a loaded machine (under a sanitizer, 0.5 s of
     * margin was once not enough). */
    struct timespec t = {0, 200000000};
    while (nanosleep(&t, &t) != 0) {}
    /* Out before the fence of finish(): a pipe's buffer would be lost to
     * mpiexec's kill. */
    printf("sigint %d %d\n", me.rank, (int)sigints);
    fflush(stdout);
    finish();
}

static void mode_stdin(void)
{
    start();
    char buf[4096];
    size_t total = 0;
    ssize_t n;
    char first[64] = "";
    while ((n = read(0, buf, sizeof buf)) > 0) {
        if (total == 0) {
            size_t k = (size_t)n < sizeof first - 1 ? (size_t)n : sizeof first - 1;
            memcpy(first, buf, k);
            first[k] = '\0';
            first[strcspn(first, "\n")] = '\0';
        }
        total += (size_t)n;
    }
    printf("rank %d read %zu bytes: %s\n", me.rank, total, first);
    finish();
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *mode = argc > 1 ? argv[1] : "info";
    int a1 = argc > 2 ? atoi(argv[2]) : 0;
    int a2 = argc > 3 ? atoi(argv[3]) : 0;
    if (strcmp(mode, "kvs") == 0) {
        mode_kvs(argc > 2 ? a1 : 3);
    } else if (strcmp(mode, "info") == 0) {
        mode_info();
    } else if (strcmp(mode, "env") == 0) {
        mode_env(argc - 2, argv + 2);
    } else if (strcmp(mode, "segv") == 0 || strcmp(mode, "kill9") == 0 ||
               strcmp(mode, "abort") == 0 || strcmp(mode, "exit") == 0) {
        mode_victim(mode, a1, a2);
    } else if (strcmp(mode, "sleep") == 0) {
        start();
        announce();
        sleep((unsigned)a1);
        finish();
    } else if (strcmp(mode, "stubborn") == 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
        start();
        announce();
        sleep_forever();
    } else if (strcmp(mode, "chatty") == 0) {
        start();
        mode_chatty(a1);
        finish();
    } else if (strcmp(mode, "longlines") == 0) {
        start();
        mode_longlines(a1, a2);
        finish();
    } else if (strcmp(mode, "sigcount") == 0) {
        mode_sigcount();
    } else if (strcmp(mode, "stdin") == 0) {
        mode_stdin();
    } else if (strcmp(mode, "fence") == 0) {
        start();
        if (tern_boot_fence() != 0) die("fence failed");
        finish();
    } else {
        fprintf(stderr, "boot_helper: unknown mode '%s'\n", mode);
        return 2;
    }
    return 0;
}
