/* Children that die: once the parents' spawn has succeeded, the children
 * (argv[1] = "die") exit without MPI_Finalize; their launcher reports
 * their fate; receives and sends that wait on them fail with an error
 * instead of hanging, and the parents must still get through MPI_Finalize.  With "early", the child
 * exits before MPI_Init: the spawn itself fails with MPI_ERR_SPAWN. */
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "early") == 0) return 3;
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        /* A child that dies without disconnecting, once its parents have
         * the intercommunicator. */
        int go = 0;
        MPI_Recv(&go, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
        exit(5);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm ic;
    char *die[] = {"die", NULL}, *early[] = {"early", NULL};
    CHECK_MPI(MPI_Comm_spawn(argv[0], die, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                             MPI_ERRCODES_IGNORE));
    int rank, go = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Child 0 dies on it; its launcher then ends child 1 too, which
     * waits for a message nobody sends. */
    CHECK_MPI(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));
    if (rank == 0) CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 0, 1, ic));
    /* What waits on a dead child fails; this job goes on.  From a named
     * child, from any (all are dead), and a receive posted before the
     * deaths and completed after. */
    int v = 0, cls = -1;
    MPI_Request req;
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, 1, 7, ic, &req));
    double t0 = MPI_Wtime();
    int rc = MPI_Recv(&v, 1, MPI_INT, 0, 7, ic, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER, "receive from a dead child: class %d", cls);
    CHECK(MPI_Wtime() - t0 < 20, "the failure took %.1f s", MPI_Wtime() - t0);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "has died") != NULL, "message: %s", msg);
    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER, "a receive posted before the deaths: class %d", cls);
    rc = MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, ic, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER, "MPI_ANY_SOURCE when every child is dead: class %d", cls);
    rc = MPI_Send(&go, 1, MPI_INT, 1, 1, ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER, "send to a dead child: class %d", cls);
    CHECK_MPI(MPI_Comm_free(&ic));
    int codes[2] = {-1, -1};
    MPI_Comm ic2;
    rc = MPI_Comm_spawn(argv[0], early, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic2, codes);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "spawn of children that exit early: class %d", cls);
    if (rank == 0) CHECK(codes[0] == MPI_ERR_SPAWN && codes[1] == MPI_ERR_SPAWN, "errcodes");
    if (rank == 0) printf("crash: ok\n");
    MPI_Finalize();
    return 0;
}
