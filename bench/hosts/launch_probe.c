/* Launch time: from the moment the launcher was started to every rank past
 * MPI_Init.  The driver passes that moment (CLOCK_REALTIME, microseconds) as
 * argv[1]; the simulated hosts share the machine's clock, so each rank's own
 * clock after MPI_Init compares with it directly.  Rank 0 prints
 *   launch_us <latest rank> <earliest rank>
 * both relative to argv[1].  Any MPI builds it (bench/compare --extra). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long long t = now_us(); /* first thing after MPI_Init: nothing else counts */
    if (argc < 2) {
        fprintf(stderr,
                "usage: launch_probe START_US (CLOCK_REALTIME when the launcher started)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long long t0 = atoll(argv[1]), latest = 0, earliest = 0;
    MPI_Reduce(&t, &latest, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t, &earliest, 1, MPI_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("launch_us %lld %lld\n", latest - t0, earliest - t0);
        fflush(stdout); /* before MPI_Finalize, which may hang (see run.sh) */
    }
    MPI_Finalize();
    return 0;
}
