/* What bench/scale/run.sh measures inside the ranks, in three modes.  Built
 * with each library's mpicc, so only MPI calls and POSIX appear.
 *
 *   scale_probe startup
 *       MPI_Init, one MPI_Barrier, MPI_Finalize.  Rank 0 prints
 *         init_us MAX MIN          time inside MPI_Init over the ranks
 *       and every rank, after MPI_Finalize returns,
 *         finalize_us RANK US      time inside MPI_Finalize
 *       (nothing can be reduced after MPI_Finalize: the driver takes the max).
 *
 *   scale_probe hold DIR
 *       MPI_Init, one 8-byte MPI_Allreduce (so that the paths a first
 *       message opens are open), then each rank writes its pid to
 *       DIR/pid.RANK and sleeps until DIR/go exists: the driver reads memory
 *       while every rank is held.  Sleeping, not spinning, so the reading
 *       runs on a quiet machine.  Then a barrier and MPI_Finalize.
 *
 *   scale_probe lat SECONDS
 *       MPI_Barrier, then an 8-byte MPI_Allreduce (one double, MPI_SUM),
 *       each timed over about SECONDS of calls (rank 0's clock decides, so
 *       all ranks make the same calls), after a tenth of that as warm-up.
 *       Rank 0 prints
 *         lat_us barrier US ITERS
 *         lat_us allreduce US ITERS
 *       US: the mean per call of the slowest rank. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int startup(int *argc, char ***argv)
{
    double t0 = now_us();
    MPI_Init(argc, argv);
    double init = now_us() - t0, mx = 0, mn = 0;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Reduce(&init, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&init, &mn, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("init_us %.0f %.0f\n", mx, mn);
    fflush(stdout);
    t0 = now_us();
    MPI_Finalize();
    printf("finalize_us %d %.0f\n", rank, now_us() - t0);
    return 0;
}

static int hold(int *argc, char ***argv, const char *dir)
{
    MPI_Init(argc, argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = 1, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    char path[4096];
    snprintf(path, sizeof path, "%s/pid.%d.tmp", dir, rank);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    char done[4096];
    snprintf(done, sizeof done, "%s/pid.%d", dir, rank);
    rename(path, done); /* the driver never reads a half-written file */
    snprintf(path, sizeof path, "%s/go", dir);
    while (access(path, F_OK) != 0) sleep_ms(20);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}

/* Mean microseconds per call of op, slowest rank, over chunks of growing
 * length until rank 0 has spent SECONDS in them: timing by the clock, not by
 * a count calibrated up front, so a slow stretch of a loaded machine during
 * the first calls cannot make the run too short or far too long.  The
 * broadcast that ends the loop is outside the timed chunks. */
static double timed(int which, double seconds, long *iters)
{
    double x = 1, sum = 0, spent = 0, mx = 0;
    long chunk = 1;
    int more = 1;
    *iters = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    while (more) {
        double t = now_us();
        for (long i = 0; i < chunk; i++) {
            if (which == 0)
                MPI_Barrier(MPI_COMM_WORLD);
            else
                MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        spent += now_us() - t;
        *iters += chunk;
        if (chunk < 1024) chunk *= 2;
        more = spent < seconds * 1e6;
        MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    double per = spent / (double)*iters;
    MPI_Allreduce(&per, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return mx;
}

static int lat(int *argc, char ***argv, double seconds)
{
    MPI_Init(argc, argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    static const char *name[] = {"barrier", "allreduce"};
    for (int which = 0; which < 2; which++) {
        long iters;
        timed(which, seconds / 10,
              &iters); /* warm-up: first calls may set up what later ones reuse */
        double us = timed(which, seconds, &iters);
        if (rank == 0) printf("lat_us %s %.3f %ld\n", name[which], us, iters);
    }
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "startup")) return startup(&argc, &argv);
    if (!strcmp(mode, "hold") && argc > 2) return hold(&argc, &argv, argv[2]);
    if (!strcmp(mode, "lat") && argc > 2) return lat(&argc, &argv, atof(argv[2]));
    fprintf(stderr, "usage: scale_probe startup | hold DIR | lat SECONDS\n");
    return 2;
}
