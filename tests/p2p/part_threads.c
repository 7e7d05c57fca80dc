/* MPI_THREAD_MULTIPLE: the partitions of one send are filled and marked
 * ready by several threads, each its share in shuffled order, while other
 * threads poll MPI_Parrived on their share of the receive partitions and
 * check the data as each arrives.  Send and receive cut the buffer
 * differently; ring pattern (rank r sends to r+1), 10 rounds. */
#include <pthread.h>
#include <stdlib.h>

#include "part_util.h"

#define NTHREADS 4
#define ROUNDS 10
#define SPARTS 24
#define SCOUNT 500
#define RPARTS 16
#define RCOUNT (SPARTS * SCOUNT / RPARTS)

static int rank, size, dest, src, round_no;
static int *sbuf, *rbuf;
static MPI_Request sreq, rreq;
static const int d_int[] = {0};
static const struct pu_side rside = {RPARTS, RCOUNT, MPI_INT, 1, 1, d_int};

static void *sender(void *arg)
{
    int t = (int)(long)arg, ord[SPARTS];
    pu_shuffle(ord, SPARTS, (unsigned)(round_no * 977 + rank * 31 + t));
    for (int i = 0; i < SPARTS; i++) {
        int p = ord[i];
        if (p % NTHREADS != t) continue;
        for (int k = 0; k < SCOUNT; k++)
            sbuf[p * SCOUNT + k] = pu_value(round_no, rank, (size_t)(p * SCOUNT + k));
        CHECK_MPI(MPI_Pready(p, sreq));
    }
    return NULL;
}

static void *receiver(void *arg)
{
    int t = (int)(long)arg, left = 0, seen[RPARTS] = {0};
    for (int p = t; p < RPARTS; p += NTHREADS) left++;
    while (left)
        for (int p = t; p < RPARTS; p += NTHREADS) {
            int flag = 0;
            if (seen[p]) continue;
            CHECK_MPI(MPI_Parrived(rreq, p, &flag));
            if (!flag) continue;
            pu_check_parts(&rside, rbuf, p, p + 1, round_no, src, "threads");
            seen[p] = 1;
            left--;
        }
    return NULL;
}

int main(int argc, char **argv)
{
    tt_init_multiple(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dest = (rank + 1) % size;
    src = (rank + size - 1) % size;
    sbuf = malloc(sizeof(int) * SPARTS * SCOUNT);
    rbuf = malloc(sizeof(int) * SPARTS * SCOUNT);
    CHECK_MPI(MPI_Psend_init(sbuf, SPARTS, SCOUNT, MPI_INT, dest, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &sreq));
    CHECK_MPI(MPI_Precv_init(rbuf, RPARTS, RCOUNT, MPI_INT, src, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &rreq));
    for (round_no = 0; round_no < ROUNDS; round_no++) {
        pu_fill(&rside, rbuf, round_no, -1, PU_HOLE_RECV);
        CHECK_MPI(MPI_Start(&sreq));
        CHECK_MPI(MPI_Start(&rreq));
        pthread_t th[2 * NTHREADS];
        for (long t = 0; t < NTHREADS; t++) {
            pthread_create(&th[t], NULL, sender, (void *)t);
            pthread_create(&th[NTHREADS + t], NULL, receiver, (void *)t);
        }
        for (int t = 0; t < 2 * NTHREADS; t++) pthread_join(th[t], NULL);
        MPI_Status st;
        CHECK_MPI(MPI_Wait(&rreq, &st));
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        int n = -1;
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(n == SPARTS * SCOUNT && st.MPI_SOURCE == src && st.MPI_TAG == 5,
              "status count %d source %d tag %d", n, st.MPI_SOURCE, st.MPI_TAG);
        pu_check_parts(&rside, rbuf, 0, RPARTS, round_no, src, "threads");
    }
    CHECK_MPI(MPI_Request_free(&sreq));
    CHECK_MPI(MPI_Request_free(&rreq));
    free(sbuf);
    free(rbuf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("part_threads: %d threads, %d rounds on %d ranks: OK\n", 2 * NTHREADS, ROUNDS, size);
    MPI_Finalize();
    return 0;
}
