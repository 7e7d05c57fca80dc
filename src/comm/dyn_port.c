/* Ports: a listening TCP socket of the process that opened it, named
 * "tern:<host>:<tcp port>:<nonce>:<address>,<address>...".  A connecting
 * root sends the nonce first, so a stray connection (or one meant for a
 * port closed and whose number was reused) is refused rather than taken
 * for a group.  The IPv4 addresses of the host's interfaces follow, for a
 * connecting host that cannot resolve the host's name (clusters without a
 * shared hosts file, the simulated hosts of the tests). */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "comm/dyn.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/state.h"

#define MAGIC "TERNPORT"
#define NONCE_LEN 16 /* hex characters */

struct port {
    struct port *next;
    int fd;
    char name[MPI_MAX_PORT_NAME];
    char nonce[NONCE_LEN + 1];
};
static struct port *ports;

static struct port *find(const char *name)
{
    for (struct port *p = ports; p; p = p->next)
        if (strcmp(p->name, name) == 0) return p;
    return NULL;
}

/* The host's IPv4 addresses other than loopback, comma-separated, from
 * name[at] on, as many as fit. */
static void append_addresses(char *name, size_t len, size_t at)
{
    struct ifaddrs *ifs = NULL;
    if (at >= len || getifaddrs(&ifs) != 0) return;
    const char *sep = "";
    for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || (i->ifa_flags & IFF_LOOPBACK) ||
            !(i->ifa_flags & IFF_UP))
            continue;
        char a[INET_ADDRSTRLEN];
        if (!inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, a, sizeof a))
            continue;
        if (at + strlen(sep) + strlen(a) + 1 > len) break;
        at += (size_t)snprintf(name + at, len - at, "%s%s", sep, a);
        sep = ",";
    }
    freeifaddrs(ifs);
}

int tern_port_open(char *name)
{
    struct port *p = calloc(1, sizeof *p);
    if (!p) return tern_err_make(MPI_ERR_NO_MEM, "MPI_Open_port: out of memory");
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t sl = sizeof sa;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 16) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
        int e = errno;
        if (fd >= 0) close(fd);
        free(p);
        return tern_err_make(MPI_ERR_PORT, "MPI_Open_port: cannot listen on a TCP port: %s",
                             strerror(e));
    }
    uint64_t rnd = 0;
    if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != (ssize_t)sizeof rnd)
        rnd = (uint64_t)getpid() * 2654435761u ^ (uint64_t)(tern_dyn_now() * 1e9);
    snprintf(p->nonce, sizeof p->nonce, "%016llx", (unsigned long long)rnd);
    char host[128];
    if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = 0;
    int k = snprintf(p->name, sizeof p->name, "tern:%s:%u:%s:", host, (unsigned)ntohs(sa.sin_port),
                     p->nonce);
    append_addresses(p->name, sizeof p->name, k > 0 ? (size_t)k : 0);
    p->fd = fd;
    p->next = ports;
    ports = p;
    snprintf(name, MPI_MAX_PORT_NAME, "%s", p->name);
    return MPI_SUCCESS;
}

int tern_port_close(const char *name)
{
    for (struct port **pp = &ports; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) != 0) continue;
        struct port *p = *pp;
        *pp = p->next;
        close(p->fd);
        free(p);
        return MPI_SUCCESS;
    }
    return tern_err_make(MPI_ERR_PORT, "MPI_Close_port: \"%s\" is not a port this process opened",
                         name);
}

void tern_ports_close_all(void)
{
    while (ports) {
        struct port *p = ports;
        ports = p->next;
        close(p->fd);
        free(p);
    }
}

/* One connection taken from the port: the caller's if it names the
 * nonce; else closed (-1). */
static int take(struct port *p)
{
    int fd = accept4(p->fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) return -1;
    char hello[sizeof MAGIC - 1 + NONCE_LEN];
    if (tern_sock_read(fd, hello, sizeof hello, 5000) != 0 ||
        memcmp(hello, MAGIC, sizeof MAGIC - 1) != 0 ||
        memcmp(hello + sizeof MAGIC - 1, p->nonce, NONCE_LEN) != 0 ||
        tern_sock_write(fd, "A", 1) != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int tern_port_accept_fd(const char *fn, const char *name, int (*give_up)(void *), void *arg,
                        int *fd)
{
    *fd = -1;
    struct port *p = find(name);
    if (!p)
        return tern_err_make(
            MPI_ERR_PORT, "%s: \"%s\" is not a port this process opened (MPI_Open_port)", fn, name);
    for (;;) {
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        /* Other threads may call MPI while this one waits for a peer. */
        tern_unlock();
        int r = poll(&pf, 1, 100);
        tern_lock();
        if (r > 0 && (*fd = take(p)) >= 0) return MPI_SUCCESS;
        if (r < 0 && errno != EINTR)
            return tern_err_make(MPI_ERR_PORT, "%s: waiting on port \"%s\": %s", fn, name,
                                 strerror(errno));
        if (give_up) {
            int rc = give_up(arg);
            if (rc) return rc;
        }
    }
}

/* "tern:<host>:<port>:<nonce>[:<addresses>]" -> its parts (addrs: ""
 * when absent); 0 or -1. */
static int parse(const char *name, char *host, size_t hlen, char *port, char *nonce, char *addrs,
                 size_t alen)
{
    if (strncmp(name, "tern:", 5) != 0) return -1;
    const char *h = name + 5, *c1 = strchr(h, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || (size_t)(c1 - h) >= hlen || c2 - c1 - 1 > 7 || c2 - c1 < 2) return -1;
    const char *c3 = strchr(c2 + 1, ':');
    size_t nlen = c3 ? (size_t)(c3 - c2 - 1) : strlen(c2 + 1);
    if (nlen != NONCE_LEN || (c3 && strlen(c3 + 1) >= alen)) return -1;
    memcpy(host, h, (size_t)(c1 - h));
    host[c1 - h] = 0;
    memcpy(port, c1 + 1, (size_t)(c2 - c1 - 1));
    port[c2 - c1 - 1] = 0;
    memcpy(nonce, c2 + 1, NONCE_LEN);
    snprintf(addrs, alen, "%s", c3 ? c3 + 1 : "");
    return 0;
}

/* One try at reaching 'host' at 'port' (host may be an address); the
 * socket, or -1 (errno set). */
static int dial_one(const char *host, const char *port)
{
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *ai = NULL;
    if (getaddrinfo(host, port, &hints, &ai) != 0) {
        errno = EHOSTUNREACH;
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            int e = errno;
            close(fd);
            fd = -1;
            errno = e;
        }
    }
    freeaddrinfo(ai);
    return fd;
}

/* The host's name, then each of its addresses, then this host (jobs on
 * one machine whose name does not resolve). */
static int dial(const char *host, const char *port, const char *addrs)
{
    int fd = dial_one(host, port);
    char a[INET_ADDRSTRLEN];
    for (const char *p = addrs; fd < 0 && *p;) {
        size_t n = strcspn(p, ",");
        if (n < sizeof a) {
            memcpy(a, p, n);
            a[n] = 0;
            fd = dial_one(a, port);
        }
        p += n + (p[n] == ',');
    }
    return fd >= 0 ? fd : dial_one("127.0.0.1", port);
}

int tern_port_connect_fd(const char *fn, const char *name, int *fd)
{
    char host[256], port[8], nonce[NONCE_LEN], addrs[MPI_MAX_PORT_NAME];
    *fd = -1;
    if (parse(name, host, sizeof host, port, nonce, addrs, sizeof addrs) != 0)
        return tern_err_make(MPI_ERR_PORT,
                             "%s: \"%s\" is not a Tern port name "
                             "(tern:<host>:<port>:<nonce>:<addresses>, as MPI_Open_port makes)",
                             fn, name);
    long timeout = tern_param.connect_timeout;
    double end = tern_dyn_now() + (double)timeout;
    int s = -1, e = 0;
    /* The port may not be open yet (the other job is starting): retry
     * until the time is up. */
    for (;;) {
        s = dial(host, port, addrs);
        if (s >= 0) break;
        e = errno;
        if (tern_dyn_now() >= end) break;
        tern_unlock();
        usleep(50000);
        tern_lock();
    }
    if (s < 0)
        return tern_err_make(MPI_ERR_PORT, "%s: cannot reach port \"%s\" within %ld s: %s", fn,
                             name, timeout, strerror(e));
    char hello[sizeof MAGIC - 1 + NONCE_LEN], ok;
    memcpy(hello, MAGIC, sizeof MAGIC - 1);
    memcpy(hello + sizeof MAGIC - 1, nonce, NONCE_LEN);
    int left_ms = (int)((end - tern_dyn_now()) * 1000);
    tern_unlock();
    int r = tern_sock_write(s, hello, sizeof hello) != 0
                ? -1
                : tern_sock_read(s, &ok, 1, left_ms > 0 ? left_ms : 0);
    tern_lock();
    if (r != 0) {
        close(s);
        if (r == -2)
            return tern_err_make(MPI_ERR_PORT,
                                 "%s: nobody accepted on port \"%s\" within %ld s "
                                 "(TERN_CONNECT_TIMEOUT)",
                                 fn, name, timeout);
        return tern_err_make(MPI_ERR_PORT,
                             "%s: port \"%s\" refused the connection (closed, or another "
                             "port now)",
                             fn, name);
    }
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *fd = s;
    return MPI_SUCCESS;
}
