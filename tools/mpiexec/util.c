/* Small helpers: allocation that cannot fail silently, byte buffers, time. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static _Noreturn void out_of_memory(size_t n)
{
    /* Not reached in practice; still say so rather than crash. */
    char msg[96];
    int len = snprintf(msg, sizeof msg, "mpiexec: out of memory (allocating %zu bytes)\n", n);
    if (len > 0 && write(STDERR_FILENO, msg, (size_t)len) < 0) {
        /* nothing more to do */
    }
    _exit(1);
}

int open_files_ensure(size_t need, char *why, size_t len)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need) return 0;
    rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
    rl.rlim_cur = want;
    setrlimit(RLIMIT_NOFILE, &rl);
    if (want >= need) return 0;
    snprintf(why, len, "need %zu open files; the limit is %lu (see ulimit -n)", need,
             (unsigned long)want);
    return -1;
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) out_of_memory(0);
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0) return -1;
    return fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int set_cloexec(int fd, int on)
{
    int fl = fcntl(fd, F_GETFD);
    if (fl < 0) return -1;
    return fcntl(fd, F_SETFD, on ? (fl | FD_CLOEXEC) : (fl & ~FD_CLOEXEC));
}

void buf_append(struct buf *b, const void *p, size_t n)
{
    if (n == 0) return;
    if (b->head + b->len + n > b->cap) {
        if (b->head > 0) { /* slide the live bytes to the front first */
            memmove(b->data, b->data + b->head, b->len);
            b->head = 0;
        }
        if (b->len + n > b->cap) {
            size_t cap = b->cap ? b->cap : 256;
            while (cap < b->len + n) cap *= 2;
            b->data = xrealloc(b->data, cap);
            b->cap = cap;
        }
    }
    memcpy(b->data + b->head + b->len, p, n);
    b->len += n;
}

void buf_consume(struct buf *b, size_t n)
{
    if (n >= b->len) {
        b->head = b->len = 0;
        return;
    }
    b->head += n;
    b->len -= n;
}

void buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->head = b->len = b->cap = 0;
}
