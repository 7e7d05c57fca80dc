/* MPI_T from a tool thread while the main thread communicates, under
 * MPI_THREAD_MULTIPLE: sessions, handles and control variables come and go
 * in the tool thread, and the main thread's session still counts exactly
 * the messages it sent. */
#include <pthread.h>
#include <stdio.h>

#include "mpit_util.h"

#define ROUNDS 200

static volatile int done;

static void *tool(void *arg)
{
    (void)arg;
    int eager = pvar_index("tern_eager_sends", MPI_T_PVAR_CLASS_COUNTER), n = 0;
    while (!done || n < 10) {
        MPI_T_pvar_session s;
        MPI_T_pvar_handle h;
        int count, v;
        unsigned long long x;
        CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
        CHECK_T(MPI_T_pvar_handle_alloc(s, eager, NULL, &h, &count), MPI_SUCCESS);
        CHECK_T(MPI_T_pvar_start(s, h), MPI_SUCCESS);
        CHECK_T(MPI_T_pvar_read(s, h, &x), MPI_SUCCESS);
        CHECK(x <= ROUNDS, "a fresh handle read %llu", x);
        CHECK_T(MPI_T_pvar_stop(s, h), MPI_SUCCESS);
        CHECK_T(MPI_T_pvar_handle_free(s, &h), MPI_SUCCESS);
        CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
        v = cvar_read_int("TERN_LIVENESS_INTERVAL_MS");
        CHECK(v == 200, "TERN_LIVENESS_INTERVAL_MS reads %d", v);
        n++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    CHECK_T(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
    tt_init_multiple(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size > 1, "needs two ranks or more");

    MPI_T_pvar_session s;
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    MPI_T_pvar_handle h = pvar_handle(s, "tern_eager_sends", MPI_T_PVAR_CLASS_COUNTER);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_T(MPI_T_pvar_start(s, h), MPI_SUCCESS);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, tool, NULL) == 0, "pthread_create");
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, x = rank, y;
    for (int i = 0; i < ROUNDS; i++)
        CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, next, i, &y, 1, MPI_INT, prev, i, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
    CHECK_T(MPI_T_pvar_stop(s, h), MPI_SUCCESS);
    done = 1;
    pthread_join(t, NULL);
    CHECK(pvar_read(s, h) == ROUNDS, "counted %llu of %d sends", pvar_read(s, h), ROUNDS);
    CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    MPI_Finalize();
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    if (rank == 0) printf("mpit threads: ok\n");
    return 0;
}
