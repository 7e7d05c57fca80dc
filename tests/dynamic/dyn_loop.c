/* Many spawns: a task master (rank 0) spawns one child at a time on
 * MPI_COMM_SELF, 20 times, two children connected at a time; each child
 * publishes a name for the master to look up, unpublishes it and
 * disconnects.  Then every rank spawns on MPI_COMM_SELF at the same time,
 * three rounds.  Nothing may pile up: the master's open descriptors stay
 * the same from the third spawn on, the name-service folder
 * (TERN_NAMESERVER_DIR) is empty at the end, and no new entry of Tern's or
 * UCX's is left in /dev/shm. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dyn_test.h"

enum { TASKS = 20, ROUNDS = 3 };

static void child(MPI_Comm parent)
{
    int task = dyn_recv_mode(parent);
    if (task >= 0) {
        char service[64], port[MPI_MAX_PORT_NAME];
        snprintf(service, sizeof service, "tern-task-%d-%ld", task, (long)getpid());
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Send(service, sizeof service, MPI_CHAR, 0, 1, parent));
        CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 2, parent));
        int done = 0;
        CHECK_MPI(MPI_Recv(&done, 1, MPI_INT, 0, 3, parent, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Close_port(port));
    } else {
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 4, parent, MPI_STATUS_IGNORE));
        v *= 3;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 5, parent));
    }
    CHECK_MPI(MPI_Comm_disconnect(&parent));
}

static MPI_Comm task_start(const char *prog, int i)
{
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_spawn(prog, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic,
                             MPI_ERRCODES_IGNORE));
    dyn_send_mode(ic, i);
    return ic;
}

static void task_finish(MPI_Comm ic, int i)
{
    char service[64], port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
    CHECK_MPI(MPI_Recv(service, sizeof service, MPI_CHAR, 0, 1, ic, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 2, ic, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
    CHECK(strcmp(found, port) == 0, "task %d: lookup gave %s, the child published %s", i, found,
          port);
    int done = 1;
    CHECK_MPI(MPI_Send(&done, 1, MPI_INT, 0, 3, ic));
    CHECK_MPI(MPI_Comm_disconnect(&ic));
}

int main(int argc, char **argv)
{
    /* What is there already (an earlier run that failed may have left
     * names: each child's are its own). */
    int shm_before = dyn_shm_entries();
    int names_before = dyn_names_count();
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
    if (rank == 0) {
        /* Two children connected at a time: task i starts before task
         * i - 1 is finished. */
        int fds = 0;
        MPI_Comm prev = MPI_COMM_NULL;
        for (int i = 0; i < TASKS; i++) {
            MPI_Comm ic = task_start(argv[0], i);
            if (prev != MPI_COMM_NULL) task_finish(prev, i - 1);
            if (i == 1) fds = dyn_open_fds();
            prev = ic;
        }
        task_finish(prev, TASKS - 1);
        int now = dyn_open_fds();
        /* A little slack for what UCX opens once, not per peer, and for
         * the sockets of the last few disconnects, which UCX closes once
         * its close handshake with an exiting child ends; a descriptor
         * leaked per spawn would show 19. */
        CHECK(now <= fds + 5, "open descriptors grew from %d to %d over %d spawns", fds, now,
              TASKS - 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Every rank at once, each on its own. */
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm ic;
        CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic,
                                 MPI_ERRCODES_IGNORE));
        dyn_send_mode(ic, -1);
        int v = rank + 10 * round;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 4, ic));
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, ic, MPI_STATUS_IGNORE));
        CHECK(v == 3 * (rank + 10 * round), "round %d: the child replied %d", round, v);
        CHECK_MPI(MPI_Comm_disconnect(&ic));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();

    /* The launchers are done (MPI_Finalize waited for them); MPI is over,
     * so failures are reported by hand. */
    if (rank == 0) {
        int names = dyn_names_count() - names_before;
        /* Another program's segment may come and go meanwhile (ctest runs
         * this test alone, but processes of earlier tests may still be
         * ending): a leak stays, so it is judged after 2 s of settling. */
        int shm_after = dyn_shm_entries();
        for (int i = 0; i < 20 && shm_after > shm_before; i++) {
            usleep(100000);
            shm_after = dyn_shm_entries();
        }
        if (names > 0) {
            fprintf(stderr, "FAIL: %d new entries left in the name service\n", names);
            return 1;
        }
        if (shm_after > shm_before) {
            fprintf(stderr, "FAIL: /dev/shm had %d entries, now %d\n", shm_before, shm_after);
            return 1;
        }
        printf("%d tasks and %d rounds of %d concurrent spawns: ok\n", TASKS, ROUNDS, size);
    }
    return 0;
}
