/* Ranks of one MPI_COMM_WORLD meeting each other as if they were other
 * jobs (2 ranks or more):
 *  - connect/accept through MPI_COMM_SELF (ranks 0 and 1);
 *  - one process with two ports, accepting on each in turn, from two
 *    connectors (ranks 1 and 2; with 2 ranks, rank 1 connects twice);
 *  - groups of ranks (split communicators) connecting to each other
 *    pairwise, then the same groups through MPI_Intercomm_create;
 *  - publish, lookup and unpublish, with the errors MPICH gives (a name
 *    not published: MPI_ERR_NAME; unpublishing it: MPI_ERR_SERVICE; a
 *    second publish: MPI_ERR_NAME), asked for on MPI_COMM_WORLD alone;
 *  - MPI_Comm_join over a TCP connection between ranks 0 and 1.
 * Every intercommunicator carries messages both ways and an allreduce. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dyn_test.h"

static int wrank, wsize;

/* Each side sends its world rank to every remote rank; every process
 * checks the sum it gets against the remote group's world ranks
 * ('remote_sum'), by messages and by an allreduce. */
static void exercise(MPI_Comm ic, int remote_sum, const char *what)
{
    int rsize, got = 0;
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Request *reqs = malloc((size_t)rsize * sizeof *reqs);
    for (int r = 0; r < rsize; r++) CHECK_MPI(MPI_Isend(&wrank, 1, MPI_INT, r, 40, ic, &reqs[r]));
    for (int r = 0; r < rsize; r++) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, r, 40, ic, MPI_STATUS_IGNORE));
        got += v;
    }
    for (int r = 0; r < rsize; r++) CHECK_MPI(MPI_Wait(&reqs[r], MPI_STATUS_IGNORE));
    free(reqs);
    CHECK(got == remote_sum, "%s: messages summed to %d, expected %d", what, got, remote_sum);
    int sum = -1;
    CHECK_MPI(MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == remote_sum, "%s: allreduce gave %d, expected %d", what, sum, remote_sum);
}

static void self_connect_accept(void)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm ic;
    if (wrank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
        exercise(ic, 1, "MPI_COMM_SELF accept");
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        CHECK_MPI(MPI_Close_port(port));
    } else if (wrank == 1) {
        CHECK_MPI(
            MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
        exercise(ic, 0, "MPI_COMM_SELF connect");
        CHECK_MPI(MPI_Comm_disconnect(&ic));
    }
}

static void multiple_ports(void)
{
    char port[2][MPI_MAX_PORT_NAME];
    int connector[2] = {1, wsize > 2 ? 2 : 1};
    MPI_Comm ic;
    if (wrank == 0) {
        for (int i = 0; i < 2; i++) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port[i]));
            CHECK_MPI(MPI_Send(port[i], MPI_MAX_PORT_NAME, MPI_CHAR, connector[i], 2 + i,
                               MPI_COMM_WORLD));
        }
        for (int i = 0; i < 2; i++) {
            CHECK_MPI(MPI_Comm_accept(port[i], MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
            exercise(ic, connector[i], "second port");
            CHECK_MPI(MPI_Comm_disconnect(&ic));
        }
        for (int i = 0; i < 2; i++) CHECK_MPI(MPI_Close_port(port[i]));
    }
    for (int i = 0; i < 2; i++) {
        if (wrank != connector[i]) continue;
        CHECK_MPI(MPI_Recv(port[i], MPI_MAX_PORT_NAME, MPI_CHAR, 0, 2 + i, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_connect(port[i], MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
        exercise(ic, 0, "connector of a second port");
        CHECK_MPI(MPI_Comm_disconnect(&ic));
    }
}

/* Groups rank % ngroups; the sum of the world ranks of group g. */
static int group_sum(int g, int ngroups)
{
    int s = 0;
    for (int r = g; r < wsize; r += ngroups) s += r;
    return s;
}

static void process_groups(int use_ports)
{
    int ngroups = wsize >= 3 ? 3 : 2, mine = wrank % ngroups, grank;
    MPI_Comm group, ic[3] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, mine, wrank, &group));
    MPI_Comm_rank(group, &grank);
    for (int a = 0; a < ngroups; a++)
        for (int b = a + 1; b < ngroups; b++) {
            if (mine != a && mine != b) continue;
            int other = mine == a ? b : a, tag = 10 * a + b;
            if (!use_ports) {
                /* A group's leader is its lowest world rank: the group's number. */
                CHECK_MPI(MPI_Intercomm_create(group, 0, MPI_COMM_WORLD, other, tag, &ic[other]));
                continue;
            }
            char port[MPI_MAX_PORT_NAME] = "";
            if (mine == a) {
                if (grank == 0) {
                    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
                    CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, b, tag, MPI_COMM_WORLD));
                }
                CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, group, &ic[other]));
                if (grank == 0) CHECK_MPI(MPI_Close_port(port));
            } else {
                if (grank == 0)
                    CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, a, tag, MPI_COMM_WORLD,
                                       MPI_STATUS_IGNORE));
                CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, group, &ic[other]));
            }
        }
    for (int g = 0; g < ngroups; g++) {
        if (g == mine) continue;
        exercise(ic[g], group_sum(g, ngroups), use_ports ? "groups by ports" : "groups by create");
        MPI_Comm merged;
        CHECK_MPI(MPI_Intercomm_merge(ic[g], mine > g, &merged));
        int msize, total = 0;
        MPI_Comm_size(merged, &msize);
        CHECK_MPI(MPI_Allreduce(&wrank, &total, 1, MPI_INT, MPI_SUM, merged));
        CHECK(total == group_sum(g, ngroups) + group_sum(mine, ngroups), "merged groups: %d",
              total);
        CHECK_MPI(MPI_Comm_free(&merged));
        if (use_ports)
            CHECK_MPI(MPI_Comm_disconnect(&ic[g]));
        else
            CHECK_MPI(MPI_Comm_free(&ic[g]));
    }
    CHECK_MPI(MPI_Comm_free(&group));
}

static void names(void)
{
    char service[64], got[MPI_MAX_PORT_NAME];
    const char *fake = "otherhost:122";
    int rc;
    /* Only MPI_COMM_WORLD returns errors, as in programs written for MPI-3. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* A name of this run alone; the folder may hold what an earlier run
     * that failed left. */
    long id = (long)getpid();
    MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    snprintf(service, sizeof service, "tern-namepub-%ld", id);
    int before = dyn_names_count();
    if (wrank == 0) CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, fake));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, got));
    CHECK(strcmp(got, fake) == 0, "lookup gave \"%s\"", got);
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        rc = MPI_Publish_name(service, MPI_INFO_NULL, "otherhost:123");
        CHECK(dyn_err_class(rc) == MPI_ERR_NAME, "a second publish: class %d", dyn_err_class(rc));
        CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, fake));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    got[0] = 0;
    rc = MPI_Lookup_name(service, MPI_INFO_NULL, got);
    CHECK(dyn_err_class(rc) == MPI_ERR_NAME, "lookup after unpublish: class %d", dyn_err_class(rc));
    if (wrank == 0) {
        rc = MPI_Unpublish_name(service, MPI_INFO_NULL, fake);
        CHECK(dyn_err_class(rc) == MPI_ERR_SERVICE, "unpublish of an unknown name: class %d",
              dyn_err_class(rc));
        int after = dyn_names_count();
        CHECK(after <= before, "the name service had %d entries, now %d", before, after);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void join(void)
{
    int fd = -1;
    if (wrank == 0) {
        int ls = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        socklen_t sl = sizeof sa;
        CHECK(ls >= 0 && bind(ls, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(ls, 1) == 0 &&
                  getsockname(ls, (struct sockaddr *)&sa, &sl) == 0,
              "a listening socket");
        int port = ntohs(sa.sin_port);
        CHECK_MPI(MPI_Send(&port, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
        fd = accept(ls, NULL, NULL);
        CHECK(fd >= 0, "accept");
        close(ls);
    } else if (wrank == 1) {
        int port = 0;
        CHECK_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        struct sockaddr_in sa = {.sin_family = AF_INET,
                                 .sin_port = htons((uint16_t)port),
                                 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        fd = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "connect");
    }
    if (fd < 0) return;
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_join(fd, &ic));
    exercise(ic, 1 - wrank, "join");
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    close(fd);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize >= 2, "run with 2 ranks or more (%d)", wsize);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL, "a process mpiexec started has a parent");
    self_connect_accept();
    multiple_ports();
    process_groups(1);
    process_groups(0);
    names();
    join();
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) printf("connect/accept inside one job of %d: ok\n", wsize);
    MPI_Finalize();
    return 0;
}
