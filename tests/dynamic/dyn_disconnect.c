/* MPI_Comm_disconnect and meeting again:
 *  - a second intercommunicator to the children (connect/accept while the
 *    spawn's one lives), disconnected before the first is used again;
 *  - messages just sent when the disconnect starts (a small and a large
 *    one from each child; a nonblocking send of parent 0 left to the
 *    disconnect) all arrive, and the disconnect completes them;
 *  - each side opened a port before the first disconnect; then four
 *    cycles of connect/accept (the parents accept, then the children),
 *    each with point-to-point, a broadcast, an allreduce and a barrier over
 *    the new intercommunicator, and a disconnect. */
#include <string.h>

#include "dyn_test.h"

enum { BIG = 1 << 19, CYCLES = 4 };

static int *big_buf(int seed)
{
    int *b = malloc(BIG * sizeof(int));
    for (int i = 0; i < BIG; i++) b[i] = i * 7 + seed;
    return b;
}

/* One cycle over a fresh intercommunicator. */
static void use(MPI_Comm ic, int is_parent, int cycle)
{
    int rank, size, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    /* Each rank sends to remote rank (rank % rsize) and receives from the
     * remote ranks that send to it. */
    int v = 100 * cycle + rank + (is_parent ? 0 : 50);
    MPI_Request req;
    CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, rank % rsize, 20 + cycle, ic, &req));
    for (int r = 0; r < rsize; r++) {
        if (r % size != rank) continue;
        int got = -1;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, r, 20 + cycle, ic, MPI_STATUS_IGNORE));
        CHECK(got == 100 * cycle + r + (is_parent ? 50 : 0), "cycle %d: remote %d sent %d", cycle,
              r, got);
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    int b = is_parent ? 1000 + cycle : -1;
    if (is_parent)
        CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic));
    else
        CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, ic));
    CHECK(b == 1000 + cycle, "cycle %d: bcast gave %d", cycle, b);
    int one = 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == rsize, "cycle %d: allreduce gave %d, remote size %d", cycle, sum, rsize);
    CHECK_MPI(MPI_Barrier(ic));
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    CHECK(ic == MPI_COMM_NULL, "cycle %d: the handle after disconnect", cycle);
}

/* Both sides: the ports swapped over the spawn's intercommunicator, the
 * first disconnect, then the cycles. */
static void run(MPI_Comm ic, int is_parent)
{
    int rank;
    MPI_Comm_rank(ic, &rank);
    char mine[MPI_MAX_PORT_NAME] = "", theirs[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, mine));
        CHECK_MPI(MPI_Sendrecv(mine, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 30, theirs, MPI_MAX_PORT_NAME,
                               MPI_CHAR, 0, 30, ic, MPI_STATUS_IGNORE));
    }

    /* A second intercommunicator to the same processes while the first
     * lives, used and disconnected; the first then carries on. */
    MPI_Comm second;
    if (is_parent)
        CHECK_MPI(MPI_Comm_accept(mine, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &second));
    else
        CHECK_MPI(MPI_Comm_connect(theirs, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &second));
    use(second, is_parent, 9);

    /* Messages in flight as the disconnect starts. */
    if (is_parent) {
        MPI_Request req = MPI_REQUEST_NULL;
        int token = 99;
        if (rank == 0) CHECK_MPI(MPI_Isend(&token, 1, MPI_INT, 0, 31, ic, &req));
        if (rank == 0) {
            int rsize, small = -1;
            MPI_Comm_remote_size(ic, &rsize);
            for (int c = 0; c < rsize; c++) {
                int *big = malloc(BIG * sizeof(int));
                CHECK_MPI(MPI_Recv(&small, 1, MPI_INT, c, 32, ic, MPI_STATUS_IGNORE));
                CHECK(small == c, "child %d's small message: %d", c, small);
                CHECK_MPI(MPI_Recv(big, BIG, MPI_INT, c, 33, ic, MPI_STATUS_IGNORE));
                for (int i = 0; i < BIG; i++)
                    CHECK(big[i] == i * 7 + c, "child %d's large message [%d] = %d", c, i, big[i]);
                free(big);
            }
        }
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        if (rank == 0) {
            int done = 0;
            CHECK_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
            CHECK(done, "the disconnect left a send to the children incomplete");
        }
    } else {
        int *big = big_buf(rank);
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 32, ic));
        CHECK_MPI(MPI_Send(big, BIG, MPI_INT, 0, 33, ic));
        free(big);
        if (rank == 0) {
            int token = -1;
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 31, ic, MPI_STATUS_IGNORE));
            CHECK(token == 99, "the parent's token: %d", token);
        }
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        MPI_Comm p;
        MPI_Comm_get_parent(&p);
        CHECK(p == MPI_COMM_NULL, "MPI_Comm_get_parent after the disconnect");
    }

    for (int cycle = 0; cycle < CYCLES; cycle++) {
        MPI_Comm nc;
        /* Even cycles: the parents accept; odd: the children. */
        int accepting = (cycle % 2 == 0) == is_parent;
        if (accepting)
            CHECK_MPI(MPI_Comm_accept(mine, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &nc));
        else
            CHECK_MPI(MPI_Comm_connect(theirs, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &nc));
        use(nc, is_parent, cycle);
    }
    if (rank == 0) CHECK_MPI(MPI_Close_port(mine));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        run(parent, 0);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                             MPI_ERRCODES_IGNORE));
    run(ic, 1);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("disconnect and %d reconnections: ok\n", CYCLES);
    MPI_Finalize();
    return 0;
}
