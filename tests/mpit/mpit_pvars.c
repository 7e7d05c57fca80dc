/* Performance variables count exactly what was sent and queued.
 *
 * Every rank sends to the next (itself when alone) a known mix: eager
 * messages by MPI_Send, MPI_Isend and MPI_Ssend, then rendezvous messages,
 * and checks its counters; then it makes K messages wait in the next
 * rank's unexpected queue and checks the queue's length, peak and search
 * depths.  Two sessions watch overlapping intervals and must not disturb
 * each other.
 *   mpit_pvars cma|pipe|any   which rendezvous transport must carry the large
 *                        messages (any: CMA or pipeline, as measured) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_util.h"

#define SMALL 100
#define LARGE 100000 /* above the default eager size, 16 KiB */
#define N_EAGER 6
#define M_RNDV 3
#define K 10

static int rank, size, next, prev;
static char sbuf[N_EAGER + M_RNDV][LARGE], rbuf[N_EAGER + M_RNDV][LARGE];

/* Handles of one session on the traffic counters. */
struct traffic {
    MPI_T_pvar_session s;
    MPI_T_pvar_handle eager, rndv, self, self_bytes, eager_bytes, cma, cma_bytes, pipe, pipe_bytes;
};

static void traffic_alloc(struct traffic *t)
{
    const int C = MPI_T_PVAR_CLASS_COUNTER;
    CHECK_T(MPI_T_pvar_session_create(&t->s), MPI_SUCCESS);
    t->eager = pvar_handle(t->s, "tern_eager_sends", C);
    t->rndv = pvar_handle(t->s, "tern_rendezvous_sends", C);
    t->self = pvar_handle(t->s, "tern_self_messages", C);
    t->self_bytes = pvar_handle(t->s, "tern_self_bytes", C);
    t->eager_bytes = pvar_handle(t->s, "tern_shm_eager_bytes", C);
    t->cma = pvar_handle(t->s, "tern_shm_cma_messages", C);
    t->cma_bytes = pvar_handle(t->s, "tern_shm_cma_bytes", C);
    t->pipe = pvar_handle(t->s, "tern_shm_pipeline_messages", C);
    t->pipe_bytes = pvar_handle(t->s, "tern_shm_pipeline_bytes", C);
}

#define EXPECT(s, h, want)                                                                  \
    do {                                                                                    \
        unsigned long long got_ = pvar_read(s, h);                                          \
        CHECK(got_ == (unsigned long long)(want), "%s reads %llu, expected %llu", #h, got_, \
              (unsigned long long)(want));                                                  \
    } while (0)

static void traffic_phase(const char *rndv_kind)
{
    struct traffic a, b;
    traffic_alloc(&a);
    traffic_alloc(&b);
    /* Startable counters count nothing until started, whatever MPI_Init sent. */
    EXPECT(a.s, a.eager, 0);
    EXPECT(a.s, a.self, 0);

    MPI_Request rq[2 * (N_EAGER + M_RNDV)];
    int nr = 0;
    for (int i = 0; i < N_EAGER + M_RNDV; i++) {
        memset(sbuf[i], 'a' + i, LARGE);
        CHECK_MPI(MPI_Irecv(rbuf[i], LARGE, MPI_CHAR, prev, i, MPI_COMM_WORLD, &rq[nr++]));
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: large sends to self complete */
    CHECK_T(MPI_T_pvar_start(a.s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Send(sbuf[i], SMALL, MPI_CHAR, next, i, MPI_COMM_WORLD));
    for (int i = 3; i < 5; i++)
        CHECK_MPI(MPI_Isend(sbuf[i], SMALL, MPI_CHAR, next, i, MPI_COMM_WORLD, &rq[nr++]));
    CHECK_MPI(MPI_Ssend(sbuf[5], SMALL, MPI_CHAR, next, 5, MPI_COMM_WORLD));
    /* Session b watches the rendezvous messages only. */
    CHECK_T(MPI_T_pvar_start(b.s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    for (int i = N_EAGER; i < N_EAGER + M_RNDV; i++)
        CHECK_MPI(MPI_Send(sbuf[i], LARGE, MPI_CHAR, next, i, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE));
    CHECK_T(MPI_T_pvar_stop(a.s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_stop(b.s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    for (int i = 0; i < N_EAGER + M_RNDV; i++) {
        int n = i < N_EAGER ? SMALL : LARGE;
        CHECK(rbuf[i][0] == 'a' + i && rbuf[i][n - 1] == 'a' + i, "message %d arrived wrong", i);
    }

    const unsigned long long eager_bytes = N_EAGER * SMALL,
                             rndv_bytes = (unsigned long long)M_RNDV * LARGE;
    if (size == 1) {
        EXPECT(a.s, a.self, N_EAGER + M_RNDV);
        EXPECT(a.s, a.self_bytes, eager_bytes + rndv_bytes);
        EXPECT(a.s, a.eager, 0);
        EXPECT(a.s, a.rndv, 0);
        EXPECT(b.s, b.self, M_RNDV);
        EXPECT(b.s, b.self_bytes, rndv_bytes);
    } else {
        EXPECT(a.s, a.self, 0);
        EXPECT(a.s, a.eager, N_EAGER);
        EXPECT(a.s, a.eager_bytes, eager_bytes);
        EXPECT(a.s, a.rndv, M_RNDV);
        unsigned long long cma = pvar_read(a.s, a.cma), pipe = pvar_read(a.s, a.pipe);
        CHECK(cma + pipe == M_RNDV, "cma %llu + pipeline %llu messages", cma, pipe);
        CHECK(pvar_read(a.s, a.cma_bytes) + pvar_read(a.s, a.pipe_bytes) == rndv_bytes,
              "rendezvous bytes");
        CHECK(pvar_read(a.s, a.cma_bytes) == cma * LARGE, "cma bytes %llu",
              pvar_read(a.s, a.cma_bytes));
        if (!strcmp(rndv_kind, "cma")) CHECK(cma == M_RNDV, "%llu of %d by CMA", cma, M_RNDV);
        if (!strcmp(rndv_kind, "pipe"))
            CHECK(pipe == M_RNDV, "%llu of %d by the pipeline", pipe, M_RNDV);
        EXPECT(b.s, b.eager, 0);
        EXPECT(b.s, b.eager_bytes, 0);
        EXPECT(b.s, b.rndv, M_RNDV);
    }

    /* Per-handle resets and writes leave the other session alone. */
    MPI_T_pvar_handle xa = size == 1 ? a.self : a.rndv, xb = size == 1 ? b.self : b.rndv;
    unsigned long long in_a = size == 1 ? N_EAGER + M_RNDV : M_RNDV, v = 0;
    EXPECT(a.s, xa, in_a);
    CHECK_T(MPI_T_pvar_reset(a.s, xa), MPI_SUCCESS);
    EXPECT(a.s, xa, 0);
    EXPECT(b.s, xb, M_RNDV);
    CHECK_T(MPI_T_pvar_readreset(b.s, xb, &v), MPI_SUCCESS);
    CHECK(v == M_RNDV, "readreset gave %llu", v);
    EXPECT(b.s, xb, 0);
    v = 1000;
    CHECK_T(MPI_T_pvar_write(a.s, xa, &v), MPI_SUCCESS);
    EXPECT(a.s, xa, 1000);
    /* A stopped handle does not move; started again it adds on. */
    CHECK_MPI(MPI_Sendrecv(sbuf[0], 1, MPI_CHAR, rank, 0, rbuf[0], 1, MPI_CHAR, rank, 0,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT(a.s, a.self, size == 1 ? 1000 : 0);
    CHECK_T(MPI_T_pvar_start(a.s, a.self), MPI_SUCCESS);
    CHECK_MPI(MPI_Sendrecv(sbuf[0], 1, MPI_CHAR, rank, 0, rbuf[0], 1, MPI_CHAR, rank, 0,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT(a.s, a.self, size == 1 ? 1001 : 1);

    /* Handles belong to their session. */
    CHECK_T(MPI_T_pvar_read(b.s, a.eager, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_read(a.s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_read(a.s, a.eager, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, a.eager, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_pvar_handle_free(b.s, &a.eager), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_handle_free(a.s, &a.eager), MPI_SUCCESS);
    CHECK(a.eager == MPI_T_PVAR_HANDLE_NULL, "freed handle not set to MPI_T_PVAR_HANDLE_NULL");
    MPI_T_pvar_session gone = b.s;
    CHECK_T(MPI_T_pvar_session_free(&b.s), MPI_SUCCESS);
    CHECK(b.s == MPI_T_PVAR_SESSION_NULL, "freed session not set to MPI_T_PVAR_SESSION_NULL");
    CHECK_T(MPI_T_pvar_session_free(&gone), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_pvar_read(gone, xb, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_pvar_session_free(&a.s), MPI_SUCCESS);
}

/* Rank 0 makes K messages and then "go" wait at the receiver, rank 1 (or
 * itself when alone); only the receiver measures.  It tells the sender when
 * its handles are ready and the others when it is done, so nothing else
 * reaches its queues meanwhile. */
static void receive_queued(int sender)
{
    const int H = MPI_T_PVAR_CLASS_HIGHWATERMARK, C = MPI_T_PVAR_CLASS_COUNTER;
    MPI_T_pvar_session s, t;
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_session_create(&t), MPI_SUCCESS);
    MPI_T_pvar_handle level =
        pvar_handle(s, "tern_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_pvar_handle peak = pvar_handle(s, "tern_unexpected_queue_max_length", H);
    MPI_T_pvar_handle peak_t = pvar_handle(t, "tern_unexpected_queue_max_length", H);
    MPI_T_pvar_handle psearch = pvar_handle(s, "tern_posted_queue_searches", C);
    MPI_T_pvar_handle pentries = pvar_handle(s, "tern_posted_queue_search_entries", C);
    MPI_T_pvar_handle pmax = pvar_handle(s, "tern_posted_queue_search_max", H);
    EXPECT(s, level, 0);
    EXPECT(s, peak, 0);

    /* Continuous and read-only variables refuse what does not apply. */
    unsigned long long v = 5;
    CHECK_T(MPI_T_pvar_start(s, peak), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_T(MPI_T_pvar_stop(s, level), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_T(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_write(s, level, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_reset(s, level), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_readreset(s, level, &v), MPI_T_ERR_PVAR_NO_WRITE);

    char c = 'k';
    if (sender != rank) {
        CHECK_MPI(MPI_Send(&c, 1, MPI_CHAR, sender, 300, MPI_COMM_WORLD));
    } else {
        for (int i = 0; i < K; i++)
            CHECK_MPI(MPI_Send(&c, 1, MPI_CHAR, rank, 100 + i, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&c, 1, MPI_CHAR, rank, 200, MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Recv(&c, 1, MPI_CHAR, sender, 200, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    /* Alone, "go" itself waited in the queue too; otherwise its receive
     * was posted first and each arrival examined that one receive. */
    int go_queued = size == 1;
    EXPECT(s, level, K);
    EXPECT(s, peak, K + go_queued);
    EXPECT(t, peak_t, K + go_queued);
    EXPECT(s, psearch, K + 1);
    EXPECT(s, pentries, go_queued ? 0 : K + 1);
    EXPECT(s, pmax, go_queued ? 0 : 1);

    /* Receives in reverse order search ever shorter queues from the front. */
    MPI_T_pvar_handle usearch = pvar_handle(s, "tern_unexpected_queue_searches", C);
    MPI_T_pvar_handle uentries = pvar_handle(s, "tern_unexpected_queue_search_entries", C);
    MPI_T_pvar_handle umax = pvar_handle(s, "tern_unexpected_queue_search_max", H);
    MPI_Request rq[K];
    char r[K];
    for (int i = K - 1; i >= 0; i--)
        CHECK_MPI(MPI_Irecv(&r[i], 1, MPI_CHAR, sender, 100 + i, MPI_COMM_WORLD, &rq[i]));
    CHECK_MPI(MPI_Waitall(K, rq, MPI_STATUSES_IGNORE));
    EXPECT(s, usearch, K);
    EXPECT(s, uentries, K * (K + 1) / 2);
    EXPECT(s, umax, K);
    EXPECT(s, level, 0);
    EXPECT(s, peak, K + go_queued);

    /* A peak restarts from the current level, for that handle only. */
    CHECK_T(MPI_T_pvar_readreset(s, peak, &v), MPI_SUCCESS);
    CHECK(v == (unsigned long long)(K + go_queued), "readreset of the peak gave %llu", v);
    EXPECT(s, peak, 0);
    EXPECT(t, peak_t, K + go_queued);
    CHECK_T(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES),
            MPI_SUCCESS); /* skips the read-only level */
    EXPECT(s, umax, 0);
    EXPECT(s, uentries, 0);
    EXPECT(t, peak_t, K + go_queued);
    CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_session_free(&t), MPI_SUCCESS);
}

static void queue_phase(void)
{
    const int receiver = 1 % size, sender = 0;
    char c = 'k';
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == sender && rank != receiver) {
        CHECK_MPI(MPI_Recv(&c, 1, MPI_CHAR, receiver, 300, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < K; i++)
            CHECK_MPI(MPI_Send(&c, 1, MPI_CHAR, receiver, 100 + i, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&c, 1, MPI_CHAR, receiver, 200, MPI_COMM_WORLD));
    }
    if (rank == receiver) {
        receive_queued(sender);
        for (int r = 0; r < size; r++)
            if (r != rank) CHECK_MPI(MPI_Send(&c, 1, MPI_CHAR, r, 400, MPI_COMM_WORLD));
    } else {
        /* Not a barrier: its messages would reach the receiver's queues. */
        CHECK_MPI(MPI_Recv(&c, 1, MPI_CHAR, receiver, 400, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
}

int main(int argc, char **argv)
{
    const char *rndv_kind = argc > 1 ? argv[1] : "any";
    int provided;
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    traffic_phase(rndv_kind);
    queue_phase();
    MPI_Finalize();
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    if (rank == 0) printf("mpit pvars: ok at %d ranks\n", size);
    return 0;
}
