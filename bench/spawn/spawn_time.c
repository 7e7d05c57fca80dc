/* The time from MPI_Comm_spawn of N children (default 4) to an
 * intercommunicator that has carried a message both ways with each child:
 * the parent spawns, sends each child a token and waits for it back, then
 * disconnects.  Prints one line per spawn: "spawn N children: S s".
 *
 *   spawn_time [REPS [N]]
 *
 * Built with each library's mpicc (run.sh), so only MPI calls appear. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int token;
        MPI_Recv(&token, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int reps = argc > 1 ? atoi(argv[1]) : 5, n = argc > 2 ? atoi(argv[2]) : 4;
    char *cargv[] = {"child", NULL};
    for (int r = 0; r < reps; r++) {
        MPI_Comm ic;
        double t0 = MPI_Wtime();
        int rc = MPI_Comm_spawn(argv[0], cargv, n, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic,
                                MPI_ERRCODES_IGNORE);
        if (rc != MPI_SUCCESS) {
            char msg[MPI_MAX_ERROR_STRING];
            int len;
            MPI_Error_string(rc, msg, &len);
            printf("spawn failed: %s\n", msg);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int c = 0; c < n; c++) {
            int token = c;
            MPI_Send(&token, 1, MPI_INT, c, 0, ic);
        }
        for (int c = 0; c < n; c++) {
            int token = -1;
            MPI_Recv(&token, 1, MPI_INT, c, 0, ic, MPI_STATUS_IGNORE);
            if (token != c) {
                printf("child %d sent %d back\n", c, token);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        double t1 = MPI_Wtime();
        printf("spawn %d children: %.4f s\n", n, t1 - t0);
        fflush(stdout);
        MPI_Comm_disconnect(&ic);
    }
    MPI_Finalize();
    return 0;
}
