/* MPI_THREAD_MULTIPLE: 4 threads per rank, on 2 ranks; thread t of rank 0
 * ping-pongs with thread t of rank 1 on tag t, 1000 iterations, sizes
 * alternating 8 B and 64 KiB (eager and rendezvous), every value checked.
 * Half the threads use blocking calls, half Isend/Irecv + Wait.
 * Then, within each rank, one thread blocks in MPI_Recv (or MPI_Probe)
 * from its own rank while another thread sends it the message. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

#define NTHREADS 4
#define ITERS 1000

static int rank, peer;
static const int sizes[] = {8, 64 << 10};

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    char *b = malloc(64 << 10);
    for (int it = 0; it < ITERS; it++) {
        int n = sizes[it % 2];
        unsigned s = (unsigned)(t * 100000 + it);
        for (int dir = 0; dir < 2; dir++) {
            int sending = (dir == 0) == (rank == 0);
            if (sending) {
                pu_fill_bytes(b, (size_t)n, s + (unsigned)dir);
                if (t % 2) {
                    MPI_Request rq;
                    CHECK_MPI(MPI_Isend(b, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &rq));
                    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                } else {
                    CHECK_MPI(MPI_Send(b, n, MPI_BYTE, peer, t, MPI_COMM_WORLD));
                }
            } else {
                memset(b, 0, (size_t)n);
                MPI_Status st;
                if (t % 2) {
                    MPI_Request rq;
                    CHECK_MPI(MPI_Irecv(b, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &rq));
                    CHECK_MPI(MPI_Wait(&rq, &st));
                } else {
                    CHECK_MPI(MPI_Recv(b, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st));
                }
                int c = -1;
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &c));
                CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == t && c == n,
                      "thread %d iteration %d: status (%d, %d, %d), expected (%d, %d, %d)", t, it,
                      st.MPI_SOURCE, st.MPI_TAG, c, peer, t, n);
                size_t bad = pu_check_bytes(b, (size_t)n, s + (unsigned)dir);
                CHECK(bad == (size_t)-1,
                      "thread %d iteration %d: %d-byte message wrong at byte %zu", t, it, n, bad);
            }
        }
    }
    free(b);
    return NULL;
}

#define SELF_ITERS 100
static void *self_sender(void *arg)
{
    (void)arg;
    char *b = malloc(64 << 10);
    for (int it = 0; it < SELF_ITERS; it++) {
        int n = sizes[it % 2];
        pu_fill_bytes(b, (size_t)n, 7000u + (unsigned)it);
        if (it % 3 == 0) pu_sleep_ms(1); /* let the receiver block first */
        CHECK_MPI(MPI_Send(b, n, MPI_BYTE, rank, 500, MPI_COMM_WORLD));
    }
    free(b);
    return NULL;
}

static void self_receive(void)
{
    pthread_t th;
    CHECK(pthread_create(&th, NULL, self_sender, NULL) == 0, "pthread_create");
    char *b = malloc(64 << 10);
    for (int it = 0; it < SELF_ITERS; it++) {
        int n = sizes[it % 2];
        MPI_Status st;
        if (it % 2) {
            CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 500, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE == rank, "probe of a message to self: source %d", st.MPI_SOURCE);
        }
        memset(b, 0, (size_t)n);
        CHECK_MPI(MPI_Recv(b, 64 << 10, MPI_BYTE, rank, 500, MPI_COMM_WORLD, &st));
        int c = -1;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &c));
        CHECK(c == n && pu_check_bytes(b, (size_t)n, 7000u + (unsigned)it) == (size_t)-1,
              "self message %d from another thread: %d bytes or wrong data", it, c);
    }
    pthread_join(th, NULL);
    free(b);
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "runs on 2 ranks, got %d", size);
    CHECK(provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread provided %d, asked MPI_THREAD_MULTIPLE (%d)", provided,
          MPI_THREAD_MULTIPLE);
    int q = -1;
    CHECK_MPI(MPI_Query_thread(&q));
    CHECK(q == MPI_THREAD_MULTIPLE, "MPI_Query_thread says %d", q);
    peer = 1 - rank;
    double t0 = MPI_Wtime();
    pthread_t th[NTHREADS];
    for (long t = 0; t < NTHREADS; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
    double dt = MPI_Wtime() - t0;
    self_receive();
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, 99, NULL, 0, MPI_BYTE, peer, 99, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    MPI_Finalize();
    if (rank == 0)
        printf("threads: %d threads x %d iterations in %.2f s: ok\n", NTHREADS, ITERS, dt);
    return 0;
}
