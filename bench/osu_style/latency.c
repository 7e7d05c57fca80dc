/* OSU-style ping-pong latency between ranks 0 and 1.
 *
 * For each size: warm-up round trips, then timed round trips; the one-way
 * latency is half the mean round-trip time.  Buffers are reused (cache-warm),
 * as in the OSU micro-benchmarks.  Ranks other than 0 and 1 only wait. */
#include "common.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    struct bench_opts o;
    int bad = bench_parse(argc, argv, &o, "Ping-pong latency", (size_t)4 << 20);
    if (bad || size < 2) {
        if (rank == 0 && size < 2) fprintf(stderr, "%s: needs at least 2 ranks\n", argv[0]);
        MPI_Finalize();
        return 1;
    }

    char *sbuf = bench_alloc(o.max_size), *rbuf = bench_alloc(o.max_size);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "%s: cannot allocate %zu bytes\n", argv[0], o.max_size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n")] = 0;
        printf("# OSU-style MPI latency test (one-way, half round trip)\n");
        printf("# library: %s\n", lib);
        printf("# %-10s %14s\n", "Size", "Latency (us)");
        fflush(stdout);
    }

    for (size_t sz = o.min_size; sz <= o.max_size; sz = bench_next_size(sz)) {
        int iters = o.iters ? o.iters : (sz > 8192 ? 1000 : 10000);
        int warm = o.warmup >= 0 ? o.warmup : (sz > 8192 ? 100 : 1000);
        int n = (int)sz;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = 0;
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) {
                t0 = MPI_Wtime();
            }
            if (rank == 0) {
                MPI_Send(sbuf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(rbuf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(rbuf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) {
            printf("%-12zu %14.2f\n", sz, t * 1e6 / (2.0 * iters));
            fflush(stdout);
        }
        if (sz == 0 && o.max_size == 0) break;
    }

    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
