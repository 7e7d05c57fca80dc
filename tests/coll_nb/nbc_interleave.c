/* A nonblocking reduction that one rank starts before a barrier and the
 * others after it, as mpi4py's ULFM Iagree test does (Iallreduce with
 * MPI_BAND): the calls are in different orders on different ranks, which
 * the standard forbids but MPICH and Open MPI run, so by default Tern must
 * give the right value and not hang.  Each rank in turn is the early one. */
#include <mpi.h>
#include <stdio.h>

#include "tern_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD); /* the world's shared area attached */
    for (int root = 0; root < size; root++) {
        int in = rank == root ? 0xb : 0xd, out = -1, done = 0;
        MPI_Request req;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == root) {
            CHECK_MPI(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
            CHECK(!done || size == 1, "rank %d: done before the others started", rank);
            MPI_Barrier(MPI_COMM_WORLD);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            CHECK_MPI(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD, &req));
        }
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int want = size == 1 ? 0xb : 0x9;
        CHECK(out == want, "rank %d, early rank %d: %#x, want %#x", rank, root, out, want);
    }
    if (rank == 0) printf("nbc_interleave passed\n");
    MPI_Finalize();
    return 0;
}
