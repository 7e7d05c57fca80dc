/* The TCP of the launch tree: a listening socket on a free port, a
 * connection with a time limit, and the addresses a proxy is told to try
 * to call back on. */
#include "mpiexec.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int tcp_listen(int *port)
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

int tcp_connect(const char *addr, int port, int timeout_ms)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) return fd;
    if (errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    struct pollfd pf = {.fd = fd, .events = POLLOUT};
    int err = 0;
    socklen_t len = sizeof err;
    if (poll(&pf, 1, timeout_ms) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 ||
        err) {
        close(fd);
        errno = err ? err : ETIMEDOUT;
        return -1;
    }
    return fd;
}

/* Loopback last: a proxy tries them in order (over ssh it tries the address
 * it was reached from first), and loopback only works on this machine. */
char *tcp_addresses(void)
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
