/* A plain MPI program built with Debian's MPICH (mpicc.mpich) and run,
 * unchanged, on Tern: the tools.abi_mpich test.  It touches the parts of the
 * ABI a typical binary bakes in: handle constants (MPI_COMM_WORLD,
 * MPI_INT, ...), MPI_Status layout, the sentinel addresses MPI_STATUS_IGNORE
 * and MPI_IN_PLACE, the exported data object MPI_UNWEIGHTED, and MPI_Wtime.
 * Every check prints "ok <what>" or "FAIL <what>"; the last line from rank 0
 * is "abi_hello: all passed" when everything held. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int cond, const char *what, int rank)
{
    if (!cond) failures++;
    if (!cond || rank == 0) printf("rank %d: %s %s\n", rank, cond ? "ok" : "FAIL", what);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n")] = '\0';
        printf("library: %s\n", lib);
    }
    check(size >= 2, "at least 2 ranks", rank);

    /* Point-to-point with a status, then with MPI_STATUS_IGNORE. */
    int peer = rank ^ 1;
    if (peer < size) {
        int out[4] = {rank, rank + 10, rank + 20, rank + 30}, in[4] = {-1, -1, -1, -1};
        MPI_Status st;
        memset(&st, 0x55, sizeof st);
        MPI_Sendrecv(out, 4, MPI_INT, peer, 7, in, 4, MPI_INT, peer, 7, MPI_COMM_WORLD, &st);
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        check(in[0] == peer && in[3] == peer + 30, "sendrecv data", rank);
        check(st.MPI_SOURCE == peer && st.MPI_TAG == 7, "status source and tag", rank);
        check(count == 4, "MPI_Get_count", rank);

        double d = rank + 0.5, e = -1;
        if (rank < peer) {
            MPI_Send(&d, 1, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD);
            MPI_Recv(&e, 1, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&e, 1, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&d, 1, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD);
        }
        check(e == peer + 0.5, "send/recv with MPI_STATUS_IGNORE", rank);
    }

    /* A collective with MPI_IN_PLACE. */
    long v = rank + 1;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    check(v == (long)size * (size + 1) / 2, "allreduce MPI_IN_PLACE", rank);

    /* MPI_Wtime moves forward. */
    double t0 = MPI_Wtime(), t1;
    do {
        t1 = MPI_Wtime();
    } while (t1 == t0);
    check(t1 > t0 && MPI_Wtick() > 0, "MPI_Wtime", rank);

    /* Communicator split: even and odd ranks. */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hrank, hsize;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    check(hrank == rank / 2 && hsize == (size - rank % 2 + 1) / 2, "comm split", rank);
    int hsum = rank;
    MPI_Allreduce(MPI_IN_PLACE, &hsum, 1, MPI_INT, MPI_SUM, half);
    int expect = 0;
    for (int r = rank % 2; r < size; r += 2) expect += r;
    check(hsum == expect, "allreduce on the split communicator", rank);
    MPI_Comm_free(&half);

    /* A derived datatype: every other int of 8 (a vector). */
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int tsize = 0;
    MPI_Type_size(every_other, &tsize);
    check(tsize == 4 * (int)sizeof(int), "MPI_Type_size of a vector", rank);
    if (peer < size) {
        int src[8], dst[8];
        for (int i = 0; i < 8; i++) {
            src[i] = 100 * rank + i;
            dst[i] = -1;
        }
        MPI_Sendrecv(src, 1, every_other, peer, 11, dst, 1, every_other, peer, 11, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        int good = 1;
        for (int i = 0; i < 8; i++) good &= dst[i] == (i % 2 ? -1 : 100 * peer + i);
        check(good, "vector datatype sendrecv", rank);
    }
    MPI_Type_free(&every_other);

    /* MPI_UNWEIGHTED is an exported object whose address means "no
     * weights"; the binary holds MPICH's idea of that address, resolved
     * against our library at load time. */
    check(MPI_UNWEIGHTED != NULL && (void *)MPI_UNWEIGHTED != (void *)MPI_WEIGHTS_EMPTY &&
              (void *)MPI_UNWEIGHTED != (void *)MPI_STATUS_IGNORE,
          "MPI_UNWEIGHTED is a distinct address", rank);
    /* Hand it to the library: a ring graph without weights.  Where the
     * library does not offer distributed graphs yet, say so and go on. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int from = (rank + size - 1) % size, to = (rank + 1) % size;
    MPI_Comm ring;
    int rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, MPI_UNWEIGHTED, 1, &to,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &ring);
    if (rc == MPI_SUCCESS) {
        int indeg = -1, outdeg = -1, weighted = -1;
        MPI_Dist_graph_neighbors_count(ring, &indeg, &outdeg, &weighted);
        check(indeg == 1 && outdeg == 1 && weighted == 0,
              "MPI_UNWEIGHTED understood by the library", rank);
        MPI_Comm_free(&ring);
    } else if (rank == 0) {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        printf("note: MPI_Dist_graph_create_adjacent returned error class %d; "
               "MPI_UNWEIGHTED checked by address only\n",
               cls);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(failures ? "abi_hello: %d checks FAILED\n" : "abi_hello: all passed\n", failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
