/* A parent that dies ends its children: the parent spawns 2 children that
 * write their pids into the folder argv[1] and then wait for a message
 * that never comes; once both pids are there the parent exits without
 * MPI_Finalize.  dyn_orphan.sh checks that the children are gone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK(argc > 1, "usage: dyn_orphan DIR");
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    char path[4096];
    if (parent != MPI_COMM_NULL) {
        int rank, v;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        snprintf(path, sizeof path, "%s/child%d.pid", argv[1], rank);
        FILE *f = fopen(path, "w");
        CHECK(f != NULL, "cannot write %s", path);
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
        MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
        fprintf(stderr, "FAIL: a child got a message nobody sent\n");
        return 1;
    }
    MPI_Comm ic;
    char *args[] = {argv[1], NULL};
    CHECK_MPI(MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic,
                             MPI_ERRCODES_IGNORE));
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/child%d.pid", argv[1], i);
        for (int k = 0; k < 600 && access(path, R_OK) != 0; k++) usleep(50000);
        CHECK(access(path, R_OK) == 0, "child %d never wrote its pid", i);
    }
    usleep(100000); /* the pid files are complete */
    _exit(7);
}
