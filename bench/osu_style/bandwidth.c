/* OSU-style unidirectional bandwidth from rank 0 to rank 1.
 *
 * For each size and iteration rank 0 posts a window of 64 nonblocking sends
 * and waits for all; rank 1 posts 64 receives, waits, and answers with a
 * 4-byte acknowledgement.  Bandwidth = bytes moved / time.  Buffers are
 * reused (cache-warm), as in the OSU micro-benchmarks. */
#include "common.h"

#define WINDOW 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    struct bench_opts o;
    int bad = bench_parse(argc, argv, &o, "Unidirectional bandwidth (window of 64)", (size_t)4 << 20);
    if (bad || size < 2) {
        if (rank == 0 && size < 2) fprintf(stderr, "%s: needs at least 2 ranks\n", argv[0]);
        MPI_Finalize();
        return 1;
    }
    if (o.min_size == 0) o.min_size = 1;

    char *sbuf = bench_alloc(o.max_size), *rbuf = bench_alloc(o.max_size);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "%s: cannot allocate %zu bytes\n", argv[0], o.max_size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Request req[WINDOW];
    MPI_Status stat[WINDOW]; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow misfires on it */
    int ack = 0;

    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n")] = 0;
        printf("# OSU-style MPI bandwidth test (window %d)\n", WINDOW);
        printf("# library: %s\n", lib);
        printf("# %-10s %14s %12s\n", "Size", "Bandwidth MB/s", "GB/s");
        fflush(stdout);
    }

    for (size_t sz = o.min_size; sz <= o.max_size; sz *= 2) {
        int iters = o.iters ? o.iters : (sz > 8192 ? 20 : 100);
        int warm = o.warmup >= 0 ? o.warmup : (sz > 8192 ? 2 : 10);
        int n = (int)sz;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = 0;
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) t0 = MPI_Wtime();
            if (rank == 0) {
                for (int w = 0; w < WINDOW; w++)
                    MPI_Isend(sbuf, n, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &req[w]);
                MPI_Waitall(WINDOW, req, stat);
                MPI_Recv(&ack, 1, MPI_INT, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                for (int w = 0; w < WINDOW; w++)
                    MPI_Irecv(rbuf, n, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &req[w]);
                MPI_Waitall(WINDOW, req, stat);
                MPI_Send(&ack, 1, MPI_INT, 0, 101, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) {
            double bytes = (double)sz * WINDOW * iters;
            printf("%-12zu %14.2f %12.2f\n", sz, bytes / t / 1e6, bytes / t / 1e9);
            fflush(stdout);
        }
    }

    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
