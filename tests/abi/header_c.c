/* Compiled, not run, by check_header.sh: a C11 program using mpi.h the way
 * applications do, built with every warning an error. */
#include <mpi.h>
#include <mpi.h> /* a second inclusion must be harmless */

#include <stddef.h>

#if defined(MPICH) || defined(MPICH_VERSION) || defined(MPICH_NAME)
#error "Tern must not claim to be MPICH: programs would call MPIX_ extensions"
#endif
#if !defined(TERN_VERSION) || MPI_VERSION != 4 || MPI_SUBVERSION != 1
#error "version macros"
#endif

static int copy_attr(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    return MPI_COMM_DUP_FN(comm, keyval, extra, in, out, flag);
}

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)type;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0, value = 1, total = 0, keyval = MPI_KEYVAL_INVALID;
    MPI_Status status;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Op op = MPI_OP_NULL;
    MPI_Fint fcomm = MPI_Comm_c2f(MPI_COMM_WORLD);
    MPI_Comm comm = MPI_Comm_f2c(fcomm);
    MPI_Count big = 0;
    MPI_Aint addr = MPI_Aint_add(0, 8);
    double t0;
    int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm) = PMPI_Send;

    MPI_Init(&argc, &argv);
    t0 = MPI_Wtime();
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_create_keyval(copy_attr, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Op_create(sum_op, 1, &op);
    MPI_Allreduce(&value, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Isend(&value, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &req);
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Get_count_c(&status, MPI_INT, &big);
    send(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 0, NULL,
                                   MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &comm);
    MPI_Pcontrol(1, "phase", 2);
    MPI_Op_free(&op);
    MPI_Comm_free_keyval(&keyval);
    MPI_Finalize();
    return (int)(status.MPI_SOURCE + status.MPI_TAG + status.MPI_ERROR + (addr > 0) + (t0 > 0));
}
