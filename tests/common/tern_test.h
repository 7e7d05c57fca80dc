/* Helpers for test programs: a failed CHECK names the rank, the file and
 * line and the condition, then ends the job with a non-zero code. */
#ifndef TERN_TEST_H
#define TERN_TEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static inline int tt_rank(void)
{
    int init = 0, fin = 0, r = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "FAIL rank %d %s:%d: %s: ", tt_rank(), __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, "\n");                                                             \
            fflush(stderr);                                                                    \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                      \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* An MPI call that must succeed. */
#define CHECK_MPI(call)                                                      \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != MPI_SUCCESS) {                                            \
            char s_[MPI_MAX_ERROR_STRING];                                   \
            int l_ = 0;                                                      \
            MPI_Error_string(rc_, s_, &l_);                                  \
            CHECK(rc_ == MPI_SUCCESS, "%s returned %d: %s", #call, rc_, s_); \
        }                                                                    \
    } while (0)

/* MPI_Init_thread asking for MPI_THREAD_MULTIPLE, which the threaded tests
 * need and Tern always provides. */
static inline void tt_init_multiple(int *argc, char ***argv)
{
    int provided = MPI_THREAD_SINGLE;
    CHECK_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
}

#endif
