/* A session that asks for MPI_THREAD_MULTIPLE ("thread_level" in its info)
 * gets it: four threads exchange values on four communicators of the session
 * at the same time, values checked.  ARGS "world-single": MPI_Init (MPI_THREAD_SINGLE)
 * comes first, so the session raises the thread support of a runtime that
 * is already up. */
#include <pthread.h>
#include <string.h>

#include "tern_test.h"

#define ROUNDS 500

#define NTHREADS 4
static MPI_Comm comms[NTHREADS];

static void *worker(void *arg)
{
    int t = (int)(long)arg, rank, size;
    MPI_Comm c = comms[t];
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < ROUNDS; i++) {
        int out[2] = {rank, i * NTHREADS + t}, in[2] = {-1, -1};
        CHECK_MPI(
            MPI_Sendrecv(out, 2, MPI_INT, right, t, in, 2, MPI_INT, left, t, c, MPI_STATUS_IGNORE));
        CHECK(in[0] == left && in[1] == i * NTHREADS + t, "thread %d round %d got %d/%d", t, i,
              in[0], in[1]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int world = argc > 1 && strcmp(argv[1], "world-single") == 0;
    if (world) CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Info info;
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE"));
    CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Session_get_info(s, &info));
    char val[64];
    int flag = 0;
    CHECK_MPI(MPI_Info_get(info, "thread_level", sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, "MPI_THREAD_MULTIPLE") == 0, "thread_level '%s'", val);
    CHECK_MPI(MPI_Info_free(&info));
    /* A later session that asks for nothing gets the level the process
     * already provides. */
    MPI_Session plain;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &plain));
    CHECK_MPI(MPI_Session_get_info(plain, &info));
    CHECK_MPI(MPI_Info_get(info, "thread_level", sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, "MPI_THREAD_MULTIPLE") == 0, "a later session's thread_level '%s'",
          val);
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Session_finalize(&plain));

    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(
        MPI_Comm_create_from_group(g, "tern.test.threads", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) CHECK_MPI(MPI_Comm_dup(c, &comms[i]));
    for (long i = 1; i < NTHREADS; i++)
        CHECK(pthread_create(&th[i], NULL, worker, (void *)i) == 0, "pthread_create");
    worker((void *)0L);
    for (int i = 1; i < NTHREADS; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < NTHREADS; i++) CHECK_MPI(MPI_Comm_free(&comms[i]));
    int rank;
    MPI_Comm_rank(c, &rank);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Session_finalize(&s));
    if (world) CHECK_MPI(MPI_Finalize());
    if (rank == 0) printf("session_threads passed\n");
    return 0;
}
