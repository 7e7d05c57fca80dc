/* MPI_Open_port / MPI_Publish_name / MPI_Comm_accept in one job (argv[1]
 * = "server"), MPI_Lookup_name / MPI_Comm_connect in another ("client"),
 * started separately (dyn_ports.sh).  Both sides then use the
 * intercommunicator: point-to-point both ways, an allreduce, a merge, and
 * disconnect.  argv[2] is the service name. */
#include <string.h>
#include <unistd.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK(argc > 2, "usage: dyn_ports server|client SERVICE");
    int server = strcmp(argv[1], "server") == 0, rank, size, rsize;
    const char *service = argv[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm ic;
    if (server) {
        if (rank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
        }
        CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    } else {
        if (rank == 0) {
            /* The server may not have published yet. */
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
            int rc = MPI_ERR_NAME;
            for (int i = 0; i < 600 && rc != MPI_SUCCESS; i++) {
                rc = MPI_Lookup_name(service, MPI_INFO_NULL, port);
                if (rc != MPI_SUCCESS) usleep(50000);
            }
            CHECK_MPI(rc);
        }
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    }
    CHECK_MPI(MPI_Comm_remote_size(ic, &rsize));

    /* Each rank sends its rank + 10 * side to every remote rank. */
    int side = server ? 1 : 2;
    for (int r = 0; r < rsize; r++) {
        int v = rank + 10 * side;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, r, 5, ic));
    }
    for (int r = 0; r < rsize; r++) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, r, 5, ic, MPI_STATUS_IGNORE));
        CHECK(v == r + 10 * (3 - side), "from remote %d got %d", r, v);
    }
    int one = 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == rsize, "allreduce over the intercommunicator gave %d, remote size %d", sum, rsize);
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(ic, server ? 0 : 1, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == size + rsize, "merged size %d", msize);
    CHECK(mrank == (server ? rank : rsize + rank), "merged rank %d", mrank);
    /* A vector datatype across jobs. */
    double buf[20];
    MPI_Datatype vec;
    MPI_Type_vector(10, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 20; i++) buf[i] = mrank == 0 ? i : -1;
    CHECK_MPI(MPI_Bcast(buf, 1, vec, 0, merged));
    for (int i = 0; i < 20; i++)
        CHECK(buf[i] == (i % 2 == 0 || mrank == 0 ? i : -1), "buf[%d] = %g", i, buf[i]);
    MPI_Type_free(&vec);
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    if (server && rank == 0) {
        CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Close_port(port));
        printf("ports: ok\n");
    }
    MPI_Finalize();
    return 0;
}
