/* MPI_Comm_idup from four threads at once, each on a communicator of its
 * own.  On even ranks threads 0 and 2 start theirs only once threads 1 and
 * 3 have finished, while odd ranks start all four together: the idups of
 * threads 1 and 3 must complete although those of 0 and 2, which the id
 * agreement ranks above them, have not begun everywhere (the pattern of
 * MPICH's threads/comm/idup_deadlock).  Repeated, since it hangs only in
 * some interleavings. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "tern_test.h"

#define NTHREADS 4

static MPI_Comm parent[NTHREADS];
static atomic_int pending;
static int rank, size;

static void *idup_one(void *arg)
{
    int t = (int)(long)arg;
    if (t % 2 == 0 && rank % 2 == 0)
        while (atomic_load(&pending) > NTHREADS / 2) sched_yield();
    MPI_Comm nc;
    MPI_Request q;
    CHECK_MPI(MPI_Comm_idup(parent[t], &nc, &q));
    CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    atomic_fetch_sub(&pending, 1);
    int n, res;
    CHECK_MPI(MPI_Comm_size(nc, &n));
    CHECK_MPI(MPI_Comm_compare(parent[t], nc, &res));
    CHECK(n == size && res == MPI_CONGRUENT, "thread %d: idup gave size %d, compare %d", t, n, res);
    CHECK_MPI(MPI_Comm_free(&nc));
    return NULL;
}

int main(int argc, char **argv)
{
    tt_init_multiple(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int rep = 0; rep < 30; rep++) {
        for (int t = 0; t < NTHREADS; t++) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent[t]));
        atomic_store(&pending, NTHREADS);
        pthread_t th[NTHREADS];
        for (long t = 0; t < NTHREADS; t++)
            CHECK(pthread_create(&th[t], NULL, idup_one, (void *)t) == 0, "pthread_create");
        for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
        for (int t = 0; t < NTHREADS; t++) CHECK_MPI(MPI_Comm_free(&parent[t]));
    }
    MPI_Finalize();
    if (rank == 0) printf("OK comm_idup_threads\n");
    return 0;
}
