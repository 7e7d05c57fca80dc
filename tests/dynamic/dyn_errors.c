/* What goes wrong must come back as an error, never a hang: spawning a
 * program that does not exist (MPI_ERR_SPAWN, every errcode set), a port
 * nobody accepts on (MPI_ERR_PORT after TERN_CONNECT_TIMEOUT), a name
 * that is not a port, names never published, a port never opened. */
#include <string.h>

#include "dyn_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    int codes[3] = {-1, -1, -1};
    MPI_Comm ic = MPI_COMM_WORLD;
    int rc = MPI_Comm_spawn("/nonexistent/tern-no-such-program", MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0,
                            MPI_COMM_WORLD, &ic, codes);
    CHECK(dyn_err_class(rc) == MPI_ERR_SPAWN, "spawn of a missing program: class %d",
          dyn_err_class(rc));
    CHECK(ic == MPI_COMM_NULL, "intercomm after a failed spawn");
    if (rank == 0)
        for (int i = 0; i < 3; i++)
            CHECK(codes[i] == MPI_ERR_SPAWN, "errcodes[%d] = %d", i, codes[i]);

    /* The arguments of a spawn. */
    rc = MPI_Comm_spawn("true", MPI_ARGV_NULL, 0, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, codes);
    CHECK(dyn_err_class(rc) == MPI_ERR_SPAWN, "maxprocs 0: class %d", dyn_err_class(rc));
    rc = MPI_Comm_spawn("true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, size, MPI_COMM_WORLD, &ic, codes);
    CHECK(dyn_err_class(rc) == MPI_ERR_ROOT, "root = size: class %d", dyn_err_class(rc));
    rc = MPI_Comm_spawn("true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_NULL, &ic, codes);
    CHECK(dyn_err_class(rc) == MPI_ERR_COMM, "MPI_COMM_NULL: class %d", dyn_err_class(rc));
    rc = MPI_Comm_spawn("true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, NULL, codes);
    CHECK(dyn_err_class(rc) == MPI_ERR_ARG, "intercomm NULL: class %d", dyn_err_class(rc));

    /* A port that is open but where nobody accepts. */
    char port[MPI_MAX_PORT_NAME];
    if (rank == 0) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic);
    CHECK(dyn_err_class(rc) == MPI_ERR_PORT, "connect to nobody: class %d", dyn_err_class(rc));
    CHECK(MPI_Wtime() - t0 < 30, "the connect took %g s", MPI_Wtime() - t0);
    if (rank == 0) CHECK_MPI(MPI_Close_port(port));
    rc = MPI_Comm_connect("not-a-port", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic);
    CHECK(dyn_err_class(rc) == MPI_ERR_PORT, "connect to a bad name: class %d", dyn_err_class(rc));
    rc = MPI_Comm_accept("tern:nowhere:1:0123456789abcdef", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic);
    CHECK(dyn_err_class(rc) == MPI_ERR_PORT, "accept on a port never opened: class %d",
          dyn_err_class(rc));

    if (rank == 0) {
        rc = MPI_Close_port(port); /* closed above */
        CHECK(dyn_err_class(rc) == MPI_ERR_PORT, "closing a closed port: class %d",
              dyn_err_class(rc));
        rc = MPI_Lookup_name("tern-never-published", MPI_INFO_NULL, port);
        CHECK(dyn_err_class(rc) == MPI_ERR_NAME, "lookup: class %d", dyn_err_class(rc));
        rc = MPI_Unpublish_name("tern-never-published", MPI_INFO_NULL, "tern:x:1:0");
        CHECK(dyn_err_class(rc) == MPI_ERR_SERVICE, "unpublish: class %d", dyn_err_class(rc));
        CHECK_MPI(MPI_Publish_name("tern-twice", MPI_INFO_NULL, "tern:x:1:0123456789abcdef"));
        rc = MPI_Publish_name("tern-twice", MPI_INFO_NULL, "tern:y:2:0123456789abcdef");
        CHECK(dyn_err_class(rc) == MPI_ERR_NAME, "second publish: class %d", dyn_err_class(rc));
        char got[MPI_MAX_PORT_NAME];
        CHECK_MPI(MPI_Lookup_name("tern-twice", MPI_INFO_NULL, got));
        CHECK(strcmp(got, "tern:x:1:0123456789abcdef") == 0, "lookup gave %s", got);
        rc = MPI_Unpublish_name("tern-twice", MPI_INFO_NULL, "tern:y:2:0123456789abcdef");
        CHECK(dyn_err_class(rc) == MPI_ERR_SERVICE, "unpublish with another port: class %d",
              dyn_err_class(rc));
        CHECK_MPI(MPI_Unpublish_name("tern-twice", MPI_INFO_NULL, "tern:x:1:0123456789abcdef"));
        printf("errors: ok\n");
    }
    MPI_Finalize();
    return 0;
}
