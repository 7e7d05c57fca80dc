/* Shared by the nonblocking-collective tests.  A program runs each
 * collective either as MPI_I<coll> (argument "nb") or as MPI_<coll>_init
 * started with MPI_Start (argument "persist"), several times with different
 * buffer contents ('rep' salts the data), completing alternately with
 * MPI_Wait and with a loop of MPI_Test.  A second argument "attach" makes
 * a blocking barrier first (nt_mode). */
#ifndef TERN_TEST_NBC_TEST_H
#define TERN_TEST_NBC_TEST_H

#include <sched.h>
#include <string.h>
#include <time.h>

#include "../coll/coll_util.h"

static int nt_persistent;
static MPI_Request nt_req = MPI_REQUEST_NULL;

static inline void nt_mode(int argc, char **argv)
{
    CHECK(argc > 1 && (!strcmp(argv[1], "nb") || !strcmp(argv[1], "persist")),
          "usage: %s nb|persist", argv[0]);
    nt_persistent = !strcmp(argv[1], "persist");
    /* "attach": a blocking collective first, which attaches the world's
     * shared-memory area; the nonblocking shm algorithms use it only then. */
    if (argc > 2 && !strcmp(argv[2], "attach")) CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* Repetitions of each operation: a persistent request is started 3 times. */
static inline int nt_reps(void) { return nt_persistent ? 3 : 2; }

/* ICALL and INITCALL both write nt_req; INITCALL runs on the first rep only. */
#define NT_ISSUE(rep, ICALL, INITCALL)                                                  \
    do {                                                                                \
        if (!nt_persistent) {                                                           \
            CHECK_MPI(ICALL);                                                           \
        } else {                                                                        \
            if ((rep) == 0) CHECK_MPI(INITCALL);                                        \
            CHECK(nt_req != MPI_REQUEST_NULL, "persistent init gave MPI_REQUEST_NULL"); \
            CHECK_MPI(MPI_Start(&nt_req));                                              \
        }                                                                               \
    } while (0)

static inline double nt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline void nt_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Completes nt_req: Wait on even reps, a Test loop on odd ones.  A
 * nonblocking request is freed by completion, a persistent one stays. */
static inline void nt_complete(int rep)
{
    MPI_Status st;
    if (rep % 2 == 0) {
        CHECK_MPI(MPI_Wait(&nt_req, &st));
    } else {
        int flag = 0;
        double t0 = nt_now();
        while (!flag) {
            CHECK_MPI(MPI_Test(&nt_req, &flag, &st));
            CHECK(flag || nt_now() - t0 < 60, "collective not complete after 60 s of MPI_Test");
            if (!flag) sched_yield(); /* ranks may outnumber cores */
        }
    }
    if (nt_persistent)
        CHECK(nt_req != MPI_REQUEST_NULL, "completion freed a persistent request");
    else
        CHECK(nt_req == MPI_REQUEST_NULL, "completion left the request handle set");
}

/* After the last rep: a persistent request is freed by the user. */
static inline void nt_done(void)
{
    if (nt_persistent) CHECK_MPI(MPI_Request_free(&nt_req));
    CHECK(nt_req == MPI_REQUEST_NULL, "request not freed");
}

#endif
