// Compiled, not run, by check_header.sh: mpi.h in C++11 with every warning an
// error.  The declarations must have C linkage.
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace {

extern "C" void max_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    static_cast<void>(in);
    static_cast<void>(inout);
    static_cast<void>(len);
    static_cast<void>(type);
}

} // namespace

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::vector<double> data(16, 1.0);
    MPI_Op op = MPI_OP_NULL;
    MPI_Op_create(max_op, 1, &op);
    MPI_Bcast(data.data(), static_cast<int>(data.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Reduce(MPI_IN_PLACE, data.data(), 16, MPI_DOUBLE, op, 0, MPI_COMM_WORLD);
    std::vector<MPI_Request> reqs(2, MPI_REQUEST_NULL);
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
    MPI_T_pvar_handle all = MPI_T_PVAR_ALL_HANDLES;
    static_cast<void>(all);
    MPI_File fh = MPI_FILE_NULL;
    MPI_Fint ffh = MPI_File_c2f(fh);
    static_cast<void>(ffh);
    MPI_Op_free(&op);
    MPI_Finalize();
    return rank == 0 ? 0 : 1;
}
