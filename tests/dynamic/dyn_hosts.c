/* Dynamic processes across hosts (run by tests/hosts on simulated hosts,
 * 2 parents on different hosts):
 *  - the parents spawn 2 children on the host of parent rank 1 (info key
 *    "host"); the children check they run there, values go both ways on
 *    every pair, a collective and a merge span both jobs and hosts;
 *  - parent rank 0 opens a port, the children connect to it from the other
 *    host (whose resolver does not know the parent's host name), and a
 *    second intercommunicator carries values; both are disconnected.
 * Each host names itself by gethostname. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dyn_test.h"

enum { TAG_VAL = 1, TAG_PORT = 2 };

static void exchange(MPI_Comm ic, int base, const char *what)
{
    int rank, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_remote_size(ic, &rsize);
    for (int p = 0; p < rsize; p++) {
        int out = base + 100 * rank + p, in = -1;
        CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, p, TAG_VAL, &in, 1, MPI_INT, p, TAG_VAL, ic,
                               MPI_STATUS_IGNORE));
        /* The other side's rank p sent base' + 100 p + rank, with its own base. */
        int want = (base == 1000 ? 2000 : 1000) + 100 * p + rank;
        CHECK(in == want, "%s: from remote rank %d got %d, want %d", what, p, in, want);
    }
}

/* Both jobs on the spawn's intercommunicator: values on every pair, an
 * allreduce over it (each side gets the other's 2), and a merge of all 4. */
static void spawned_pair(MPI_Comm ic, int base)
{
    exchange(ic, base, "spawned");
    int sum = -1, mine = 1, n = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == 2, "allreduce across the intercommunicator: %d", sum);
    MPI_Comm all;
    CHECK_MPI(MPI_Intercomm_merge(ic, base == 2000, &all));
    CHECK_MPI(MPI_Allreduce(&mine, &n, 1, MPI_INT, MPI_SUM, all));
    CHECK(n == 4, "merged: %d processes", n);
    CHECK_MPI(MPI_Comm_free(&all));
}

static void child(MPI_Comm parent)
{
    char host[256], want[256];
    gethostname(host, sizeof host);
    CHECK_MPI(MPI_Bcast(want, sizeof want, MPI_CHAR, 0, parent));
    CHECK(strcmp(host, want) == 0, "child runs on %s, asked for %s", host, want);
    spawned_pair(parent, 2000);

    char port[MPI_MAX_PORT_NAME];
    CHECK_MPI(MPI_Recv(port, sizeof port, MPI_CHAR, 0, TAG_PORT, parent, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_disconnect(&parent));
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    exchange(ic, 2000, "connected");
    CHECK_MPI(MPI_Comm_disconnect(&ic));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        child(parent);
        MPI_Finalize();
        return 0;
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "run with 2 ranks on 2 hosts");
    char host[256], other[256];
    gethostname(host, sizeof host);
    CHECK_MPI(MPI_Sendrecv(host, sizeof host, MPI_CHAR, 1 - rank, 0, other, sizeof other, MPI_CHAR,
                           1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(strcmp(host, other) != 0, "both parents run on %s", host);
    char target[256];
    snprintf(target, sizeof target, "%s", rank == 1 ? host : other);

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", target);
    MPI_Comm ic;
    int codes[2] = {-1, -1};
    CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, info, 0, MPI_COMM_WORLD, &ic, codes));
    MPI_Info_free(&info);
    CHECK(codes[0] == MPI_SUCCESS && codes[1] == MPI_SUCCESS, "errcodes %d %d", codes[0], codes[1]);
    CHECK_MPI(MPI_Bcast(target, sizeof target, MPI_CHAR, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic));
    spawned_pair(ic, 1000);

    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        for (int c = 0; c < 2; c++)
            CHECK_MPI(MPI_Send(port, sizeof port, MPI_CHAR, c, TAG_PORT, ic));
    }
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    MPI_Comm ic2;
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic2));
    exchange(ic2, 1000, "connected");
    CHECK_MPI(MPI_Comm_disconnect(&ic2));
    if (rank == 0) CHECK_MPI(MPI_Close_port(port));
    printf("rank %d on %s: spawned on %s and connected across hosts: ok\n", rank, host, target);
    MPI_Finalize();
    return 0;
}
