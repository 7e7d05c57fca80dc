/* Every rank says who it is, where it runs and which MPI it runs on.
 *
 *   mpicc -o hello hello.c && mpiexec -n 4 ./hello */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    int rank, size, len;
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);

    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int version, subversion;
        MPI_Get_library_version(lib, &len);
        MPI_Get_version(&version, &subversion);
        lib[strcspn(lib, "\n")] = '\0';
        printf("MPI %d.%d library: %s\n", version, subversion, lib);
    }
    /* Print in rank order: each rank waits for its turn. */
    for (int r = 0; r < size; r++) {
        if (r == rank) {
            printf("Hello from rank %d of %d on %s\n", rank, size, host);
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
