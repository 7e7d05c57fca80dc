/* Entry points of dynamic processes: ports, names, MPI_Comm_join and
 * spawning (the work is in src/comm/: dyn_*.c, nameserv.c, comm_spawn.c).
 * Errors of the calls with no communicator go to MPI_COMM_SELF's handler,
 * as the other calls of Tern without an object do; but while that is
 * still the default and MPI_COMM_WORLD's is not fatal, to MPI_COMM_WORLD's:
 * programs written for MPI-3 (and MPICH's own tests of these calls) ask
 * for their errors there, as MPI before 4.0 said. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "api/locked.h"
#include "comm/comm_spawn.h"
#include "comm/dyn.h"
#include "comm/nameserv.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "msg/procs.h"

static int self_err(int rc)
{
    if (tern_g.world_state != TERN_STATE_ACTIVE) return tern_err_raise(NULL, rc);
    struct tern_comm *c = &tern_comm_self;
    if (c->errh == &tern_errh_fatal && tern_comm_world.errh != &tern_errh_fatal)
        c = &tern_comm_world;
    return tern_err_raise(c, rc);
}

static int null_arg(const char *fn, const char *arg)
{
    return self_err(tern_err_make(MPI_ERR_ARG, "%s: %s is NULL", fn, arg));
}

static int open_port(const char *fn, MPI_Info info, char *port_name)
{
    struct tern_info *io;
    int rc = tern_info_check(info, 1, fn, "info", &tern_comm_self, &io);
    if (rc) return rc;
    if (!port_name) return null_arg(fn, "port_name");
    return self_err(tern_port_open(port_name));
}

TERN_WEAK_ALIAS(MPI_Open_port)
int PMPI_Open_port(MPI_Info info, char *port_name)
{
    TERN_LOCKED_CALL("MPI_Open_port", open_port, info, port_name);
}

static int close_port(const char *fn, const char *port_name)
{
    if (!port_name) return null_arg(fn, "port_name");
    return self_err(tern_port_close(port_name));
}

TERN_WEAK_ALIAS(MPI_Close_port)
int PMPI_Close_port(const char *port_name)
{
    TERN_LOCKED_CALL("MPI_Close_port", close_port, port_name);
}

/* The checks of accept and connect, whose arguments are alike; the port
 * name is significant only at the root. */
static int meet_check(const char *fn, const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm, struct tern_comm **c)
{
    int rc = tern_comm_check(comm, fn, "comm", c);
    if (rc) return rc;
    if ((*c)->is_inter)
        return tern_err_comm(*c, MPI_ERR_COMM, "%s: comm is an intercommunicator", fn);
    if (root < 0 || root >= (*c)->size)
        return tern_err_comm(*c, MPI_ERR_ROOT, "%s: root=%d is not a rank of comm (size %d)", fn,
                             root, (*c)->size);
    if (!newcomm) return tern_err_comm(*c, MPI_ERR_ARG, "%s: newcomm is NULL", fn);
    if ((*c)->rank == root && !port_name)
        return tern_err_comm(*c, MPI_ERR_ARG, "%s: port_name is NULL at the root", fn);
    struct tern_info *io;
    return tern_info_check(info, 1, fn, "info", *c, &io);
}

static int accept_or_connect(const char *fn, int accepting, const char *port_name, MPI_Info info,
                             int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    struct tern_comm *c, *ic = NULL;
    int rc = meet_check(fn, port_name, info, root, comm, newcomm, &c);
    if (rc) return rc;
    int fd = -1;
    if (c->rank == root)
        rc = accepting ? tern_port_accept_fd(fn, port_name, NULL, NULL, &fd)
                       : tern_port_connect_fd(fn, port_name, &fd);
    rc = tern_dyn_meet(fn, c, root, fd, accepting, rc, MPI_ERR_PORT, &ic);
    if (fd >= 0) close(fd);
    if (rc) return tern_err_raise(c, rc);
    *newcomm = ic->handle;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Comm_accept)
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    TERN_LOCKED_CALL("MPI_Comm_accept", accept_or_connect, 1, port_name, info, root, comm, newcomm);
}

TERN_WEAK_ALIAS(MPI_Comm_connect)
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    TERN_LOCKED_CALL("MPI_Comm_connect", accept_or_connect, 0, port_name, info, root, comm,
                     newcomm);
}

/* Both ends call MPI_Comm_join alike: each sends who it is, and the one
 * that sorts first (job key, then rank) writes first. */
static int join(const char *fn, int fd, MPI_Comm *intercomm)
{
    if (!intercomm) return null_arg(fn, "intercomm");
    struct {
        uint64_t job;
        int64_t rank;
    } me = {tern_procs_job_key(), tern_g.world_rank}, them;
    int rc = MPI_SUCCESS;
    if (fd < 0 || tern_sock_write(fd, &me, sizeof me) != 0 ||
        tern_sock_read(fd, &them, sizeof them, -1) != 0)
        rc = tern_err_make(MPI_ERR_ARG,
                           "%s: fd=%d is not a socket connected to another process calling "
                           "MPI_Comm_join",
                           fn, fd);
    int first = !rc && (me.job != them.job ? me.job < them.job : me.rank < them.rank);
    if (!rc && me.job == them.job && me.rank == them.rank)
        rc = tern_err_make(MPI_ERR_ARG, "%s: fd=%d leads back to this process", fn, fd);
    struct tern_comm *ic = NULL;
    rc = tern_dyn_meet(fn, &tern_comm_self, 0, fd, first, rc, MPI_ERR_OTHER, &ic);
    if (rc) return self_err(rc);
    *intercomm = ic->handle;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Comm_join)
int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    TERN_LOCKED_CALL("MPI_Comm_join", join, fd, intercomm);
}

/* The arguments the three name-service calls share. */
static int name_args(const char *fn, const char *service_name, MPI_Info info, const char *port_name)
{
    struct tern_info *io;
    int rc = tern_info_check(info, 1, fn, "info", &tern_comm_self, &io);
    if (rc) return rc;
    if (!service_name) return null_arg(fn, "service_name");
    return port_name ? MPI_SUCCESS : null_arg(fn, "port_name");
}

static int publish(const char *fn, const char *service_name, MPI_Info info, const char *port_name)
{
    int rc = name_args(fn, service_name, info, port_name);
    if (rc) return rc;
    return self_err(tern_name_publish(service_name, port_name));
}

TERN_WEAK_ALIAS(MPI_Publish_name)
int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    TERN_LOCKED_CALL("MPI_Publish_name", publish, service_name, info, port_name);
}

static int unpublish(const char *fn, const char *service_name, MPI_Info info, const char *port_name)
{
    int rc = name_args(fn, service_name, info, port_name);
    if (rc) return rc;
    return self_err(tern_name_unpublish(service_name, port_name));
}

TERN_WEAK_ALIAS(MPI_Unpublish_name)
int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    TERN_LOCKED_CALL("MPI_Unpublish_name", unpublish, service_name, info, port_name);
}

static int lookup(const char *fn, const char *service_name, MPI_Info info, char *port_name)
{
    int rc = name_args(fn, service_name, info, port_name);
    if (rc) return rc;
    return self_err(tern_name_lookup(service_name, port_name));
}

TERN_WEAK_ALIAS(MPI_Lookup_name)
int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    TERN_LOCKED_CALL("MPI_Lookup_name", lookup, service_name, info, port_name);
}

/* Both spawn calls: the root's arguments were checked by the caller. */
static int spawn_common(const char *fn, int count, char **cmds, char ***argvs, const int *maxprocs,
                        const MPI_Info *infos, int root, MPI_Comm comm, MPI_Comm *intercomm,
                        int *errcodes)
{
    struct tern_comm *c, *ic = NULL;
    int rc = tern_comm_check(comm, fn, "comm", &c);
    if (rc) return rc;
    if (c->is_inter) return tern_err_comm(c, MPI_ERR_COMM, "%s: comm is an intercommunicator", fn);
    if (root < 0 || root >= c->size)
        return tern_err_comm(c, MPI_ERR_ROOT, "%s: root=%d is not a rank of comm (size %d)", fn,
                             root, c->size);
    if (!intercomm) return tern_err_comm(c, MPI_ERR_ARG, "%s: intercomm is NULL", fn);
    if (c->rank == root) {
        if (count < 1) rc = tern_err_make(MPI_ERR_ARG, "%s: count=%d (at least 1)", fn, count);
        for (int i = 0; i < count && !rc; i++)
            if (!cmds || !cmds[i])
                rc = tern_err_make(MPI_ERR_ARG, "%s: command %d is NULL", fn, i);
            else if (!maxprocs)
                rc = tern_err_make(MPI_ERR_ARG, "%s: array_of_maxprocs is NULL", fn);
    }
    /* The root's verdict comes with the meeting, so no member waits alone. */
    if (!rc) {
        rc = tern_spawn(fn, count, cmds, argvs, maxprocs, infos, root, c, &ic);
    } else {
        struct tern_comm *none;
        rc = tern_dyn_meet(fn, c, root, -1, 1, rc, MPI_ERR_SPAWN, &none);
    }
    /* Every child was started or none: the codes are all the same. */
    if (errcodes != MPI_ERRCODES_IGNORE) {
        int total = 0;
        if (c->rank == root && cmds && maxprocs)
            for (int i = 0; i < count; i++) total += maxprocs[i] > 0 ? maxprocs[i] : 0;
        if (rc == MPI_SUCCESS) total = ic->peer_size;
        for (int i = 0; i < total; i++) errcodes[i] = rc ? MPI_ERR_SPAWN : MPI_SUCCESS;
    }
    if (rc) {
        *intercomm = MPI_COMM_NULL;
        return tern_err_raise(c, rc);
    }
    *intercomm = ic->handle;
    return MPI_SUCCESS;
}

static int spawn(const char *fn, const char *command, char *argv[], int maxprocs, MPI_Info info,
                 int root, MPI_Comm comm, MPI_Comm *intercomm, int *errcodes)
{
    char *cmd = (char *)command;
    char **av = argv == MPI_ARGV_NULL ? NULL : argv;
    return spawn_common(fn, 1, &cmd, &av, &maxprocs, &info, root, comm, intercomm, errcodes);
}

TERN_WEAK_ALIAS(MPI_Comm_spawn)
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    TERN_LOCKED_CALL("MPI_Comm_spawn", spawn, command, argv, maxprocs, info, root, comm, intercomm,
                     array_of_errcodes);
}

static int spawn_multiple(const char *fn, int count, char *cmds[], char **argvs[],
                          const int maxprocs[], const MPI_Info infos[], int root, MPI_Comm comm,
                          MPI_Comm *intercomm, int *errcodes)
{
    return spawn_common(fn, count, cmds, argvs == MPI_ARGVS_NULL ? NULL : argvs, maxprocs, infos,
                        root, comm, intercomm, errcodes);
}

TERN_WEAK_ALIAS(MPI_Comm_spawn_multiple)
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    TERN_LOCKED_CALL("MPI_Comm_spawn_multiple", spawn_multiple, count, array_of_commands,
                     array_of_argv, array_of_maxprocs, array_of_info, root, comm, intercomm,
                     array_of_errcodes);
}
