/* Blocking reads and writes on the sockets that connect the roots of two
 * jobs (comm/dyn.h). */
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "comm/dyn.h"

double tern_dyn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int tern_sock_write(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int tern_sock_read(int fd, void *buf, size_t n, int timeout_ms)
{
    char *p = buf;
    double end = tern_dyn_now() + timeout_ms / 1000.0;
    while (n > 0) {
        int wait = -1;
        if (timeout_ms >= 0) {
            double left = end - tern_dyn_now();
            if (left <= 0) return -2;
            wait = (int)(left * 1000) + 1;
        }
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r = poll(&pf, 1, wait);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) continue;
        ssize_t k = read(fd, p, n);
        if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}
