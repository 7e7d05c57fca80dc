/* MPI_APPNUM is the index of the rank's block on an MPMD command line
 * (mpiexec -n 1 prog 0 : -n 2 prog 1): the expected value is the argument.
 * MPI_UNIVERSE_SIZE counts every block (and may count more: by default
 * the processors that spawned processes could use). */
#include "tern_test.h"

int main(int argc, char **argv)
{
    int *v, flag, size;
    MPI_Init(&argc, &argv);
    CHECK(argc == 3, "usage: attr_appnum APPNUM UNIVERSE");
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &v, &flag));
    CHECK(flag && *v == atoi(argv[1]), "MPI_APPNUM %d, want %s", flag ? *v : -1, argv[1]);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag));
    CHECK(flag && *v >= atoi(argv[2]) && *v >= size, "MPI_UNIVERSE_SIZE %d", flag ? *v : -1);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
