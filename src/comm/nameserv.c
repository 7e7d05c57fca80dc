/* MPI_Publish_name's name service: a folder (TERN_NAMESERVER_DIR, by
 * default /tmp/tern-names-<uid>) with one file per published service,
 * holding its port name.  Every job that names the same folder shares the
 * names, whichever mpiexec started it and on whichever host sees that
 * folder (a shared file system).  A file is written under a temporary
 * name and linked into place, so a reader never sees half a port name and
 * two publishers of one name cannot both succeed. */
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

int tern_name_publish(const char *service, const char *port)
{
    char path[8192], tmp[8300];
    int r = path_of(service, path, sizeof path);
    if (r) return bad_path("MPI_Publish_name", r, service);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    size_t n = strlen(port);
    int ok = fd >= 0 && write(fd, port, n) == (ssize_t)n;
    if (fd >= 0) close(fd);
    int e = errno;
    if (ok && link(tmp, path) != 0) {
        e = errno;
        ok = 0;
    }
    unlink(tmp);
    if (ok) return MPI_SUCCESS;
    if (e == EEXIST)
        return tern_err_make(MPI_ERR_SERVICE,
                             "MPI_Publish_name: the service \"%s\" is already published "
                             "(MPI_Unpublish_name it first)",
                             service);
    return tern_err_make(MPI_ERR_SERVICE, "MPI_Publish_name: cannot publish \"%s\": %s", service,
                         strerror(e));
}

/* The port published for a service: 0, or -1 when there is none. */
static int read_port(const char *path, char *port)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t k = read(fd, port, MPI_MAX_PORT_NAME - 1);
    close(fd);
    if (k <= 0) return -1;
    port[k] = 0;
    return 0;
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
    if (r || read_port(path, port) != 0)
        return tern_err_make(MPI_ERR_NAME, "MPI_Lookup_name: no service \"%s\" is published",
                             service);
    return MPI_SUCCESS;
}

int tern_name_unpublish(const char *service, const char *port)
{
    char path[8192], cur[MPI_MAX_PORT_NAME];
    int r = path_of(service, path, sizeof path);
    if (r) return bad_path("MPI_Unpublish_name", r, service);
    if (read_port(path, cur) != 0)
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
