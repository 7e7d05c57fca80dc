/* MPI_Publish_name's name service: a folder (TERN_NAMESERVER_DIR, by
 * default /tmp/tern-names-<uid>) with one file per published service,
 * holding its port name.  Every job that names the same folder shares the
 * names, whichever mpiexec started it and on whichever host sees that
 * folder (a shared file system).  A file is written under a temporary
 * name and linked into place, so a reader never sees half a port name and
 * two publishers of one name cannot both succeed.
 *
 * The line after the port names its publisher (host, pid, and the pid's
 * start time, which tells a reused pid apart).  A job that died without
 * unpublishing leaves its names behind: a lookup or a publish on the
 * publisher's host finds that process gone and drops the entry, so no
 * one is handed a dead port.  (Two processes dropping the same stale entry
 * at once while a third publishes it anew may drop the new one: its
 * publisher's next lookup tells.) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comm/nameserv.h"
#include "core/errors.h"
#include "core/params.h"
#include "core/pid_life.h"

/* The folder, made if absent. */
static int folder(char *dir, size_t len)
{
    if (tern_param_is_set(tern_param.nameserver_dir))
        snprintf(dir, len, "%s", tern_param.nameserver_dir);
    else
        snprintf(dir, len, "/tmp/tern-names-%ld", (long)getuid());
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* The file of a service: its name in hex, so any name is a file name. */
static int path_of(const char *service, char *path, size_t len)
{
    char dir[4096];
    if (folder(dir, sizeof dir) != 0) return -1;
    size_t n = strlen(service);
    if (n == 0 || n > 200) return -2;
    int k = snprintf(path, len, "%s/", dir);
    for (size_t i = 0; i < n && (size_t)k + 3 < len; i++)
        k += snprintf(path + k, len - (size_t)k, "%02x", (unsigned char)service[i]);
    return 0;
}

static int bad_path(const char *fn, int r, const char *service)
{
    if (r == -2)
        return tern_err_make(MPI_ERR_SERVICE, "%s: the service name \"%s\" is empty or too long",
                             fn, service);
    return tern_err_make(MPI_ERR_SERVICE, "%s: cannot use the name-service folder: %s", fn,
                         strerror(errno));
}

static void host_name(char *host, size_t len)
{
    if (gethostname(host, len - 1) != 0) snprintf(host, len, "localhost");
    host[len - 1] = 0;
}

/* An entry: the port, and who published it (owner: "<host> <pid> <start>",
 * empty if the file has no second line). */
struct entry {
    char port[MPI_MAX_PORT_NAME];
    char owner[300];
};

/* The first line of src, cut to fit dst. */
static void copy_line(char *dst, size_t len, const char *src)
{
    size_t n = strcspn(src, "\n");
    if (n >= len) n = len - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static int read_entry(const char *path, struct entry *e)
{
    char buf[MPI_MAX_PORT_NAME + sizeof e->owner + 2];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0) return -1;
    buf[k] = 0;
    char *nl = strchr(buf, '\n');
    copy_line(e->port, sizeof e->port, buf);
    copy_line(e->owner, sizeof e->owner, nl ? nl + 1 : "");
    return 0;
}

/* Whether the publisher of e is known to be gone: on this host, with its
 * pid absent or started at another time. */
static int stale(const struct entry *e)
{
    char host[256], me[256];
    long pid;
    unsigned long long start;
    if (sscanf(e->owner, "%255s %ld %llu", host, &pid, &start) != 3 || pid <= 0) return 0;
    host_name(me, sizeof me);
    if (strcmp(host, me) != 0) return 0;
    return tern_pid_gone(pid, start);
}

/* Drops the entry at path if its publisher is gone: 1 if it did. */
static int drop_if_stale(const char *path)
{
    struct entry e;
    if (read_entry(path, &e) != 0 || !stale(&e)) return 0;
    unlink(path);
    return 1;
}

int tern_name_publish(const char *service, const char *port)
{
    char path[8192], tmp[8300], host[256];
    int r = path_of(service, path, sizeof path);
    if (r) return bad_path("MPI_Publish_name", r, service);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    host_name(host, sizeof host);
    char text[MPI_MAX_PORT_NAME + 400];
    int n = snprintf(text, sizeof text, "%s\n%s %ld %llu\n", port, host, (long)getpid(),
                     tern_pid_start_time((long)getpid()));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int ok = fd >= 0 && n > 0 && n < (int)sizeof text && write(fd, text, (size_t)n) == (ssize_t)n;
    if (fd >= 0) close(fd);
    int e = errno;
    if (ok && link(tmp, path) != 0) {
        e = errno;
        /* A name a dead job left: this publish takes its place. */
        if (e == EEXIST && drop_if_stale(path) && link(tmp, path) == 0)
            e = 0;
        else
            ok = 0;
    }
    unlink(tmp);
    if (ok) return MPI_SUCCESS;
    /* MPI_ERR_NAME, as MPICH answers a second publish of a name. */
    if (e == EEXIST)
        return tern_err_make(MPI_ERR_NAME,
                             "MPI_Publish_name: the service \"%s\" is already published "
                             "(MPI_Unpublish_name it first)",
                             service);
    return tern_err_make(MPI_ERR_SERVICE, "MPI_Publish_name: cannot publish \"%s\": %s", service,
                         strerror(e));
}

int tern_name_lookup(const char *service, char *port)
{
    char path[8192];
    int r = path_of(service, path, sizeof path);
    if (r == -2)
        return tern_err_make(MPI_ERR_NAME,
                             "MPI_Lookup_name: the service name \"%s\" is empty or "
                             "too long",
                             service);
    struct entry e;
    if (r || read_entry(path, &e) != 0)
        return tern_err_make(MPI_ERR_NAME, "MPI_Lookup_name: no service \"%s\" is published",
                             service);
    if (stale(&e)) {
        unlink(path);
        return tern_err_make(MPI_ERR_NAME,
                             "MPI_Lookup_name: the service \"%s\" was published by a process "
                             "that is gone (its entry is dropped)",
                             service);
    }
    snprintf(port, MPI_MAX_PORT_NAME, "%s", e.port);
    return MPI_SUCCESS;
}

int tern_name_unpublish(const char *service, const char *port)
{
    char path[8192];
    struct entry e;
    int r = path_of(service, path, sizeof path);
    if (r) return bad_path("MPI_Unpublish_name", r, service);
    const char *cur = e.port;
    if (read_entry(path, &e) != 0)
        return tern_err_make(MPI_ERR_SERVICE, "MPI_Unpublish_name: no service \"%s\" is published",
                             service);
    if (strcmp(cur, port) != 0)
        return tern_err_make(
            MPI_ERR_SERVICE,
            "MPI_Unpublish_name: the service \"%s\" is published with port \"%s\", "
            "not \"%s\"",
            service, cur, port);
    unlink(path);
    return MPI_SUCCESS;
}
