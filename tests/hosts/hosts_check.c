/* One job across hosts: every rank says where it runs, checks that the
 * shared-memory communicator holds exactly the ranks of its host (so the
 * host ids the proxies gave match the hosts), then point-to-point around a
 * ring (small and 1 MiB, so eager and rendezvous both cross hosts) and an
 * allreduce.  Prints "rank R of N on HOST: ok" or fails with a reason. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME 64
#define BIG (1 << 20)

static int rank, size;

static void fail(const char *what)
{
    fprintf(stderr, "rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char host[NAME] = "";
    gethostname(host, sizeof host - 1);
    const char *id = getenv("TERN_HOST_ID");
    char me[NAME];
    snprintf(me, sizeof me, "%s", id ? id : host);

    char *all = calloc((size_t)size, NAME);
    MPI_Allgather(me, NAME, MPI_CHAR, all, NAME, MPI_CHAR, MPI_COMM_WORLD);
    int same = 0;
    for (int r = 0; r < size; r++) same += strcmp(all + (size_t)r * NAME, me) == 0;
    MPI_Comm node;
    int node_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    if (node_size != same) fail("the shared-memory communicator is not the ranks of this host");

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int token = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, next, 1, &token, 1, MPI_INT, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (token != prev) fail("small ring message wrong");
    int *out = malloc(BIG), *in = malloc(BIG);
    for (int i = 0; i < BIG / (int)sizeof(int); i++) out[i] = rank * 1000003 + i;
    MPI_Sendrecv(out, BIG / (int)sizeof(int), MPI_INT, next, 2, in, BIG / (int)sizeof(int), MPI_INT,
                 prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < BIG / (int)sizeof(int); i++)
        if (in[i] != prev * 1000003 + i) fail("1 MiB ring message wrong");
    long sum = 0, want = (long)size * (size - 1) / 2;
    long mine = rank;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (sum != want) fail("allreduce sum wrong");
    printf("rank %d of %d on %s: node %d ranks: ok\n", rank, size, host, node_size);
    MPI_Comm_free(&node);
    free(in);
    free(out);
    free(all);
    MPI_Finalize();
    return 0;
}
