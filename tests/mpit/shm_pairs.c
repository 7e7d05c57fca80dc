/* Shared-memory rings exist only between ranks that talk.
 *
 * tern_shm_pairs_out counts the rings this rank opened (one per peer it
 * sent to), tern_shm_pairs_in those it polls (one per peer that sent to
 * it).  After MPI_Init no rank has talked; after a ring exchange each has
 * one each way; more messages to the same peer open nothing; rank 0
 * sending to everyone opens n - 1 from it and one into each other rank.
 * MPI_COMM_WORLD's small collectives open none.
 * At 64 ranks on this host, a ring of 64 pairs instead of 64 * 63.
 * A rank counts its rings in when it takes in its doorbell, which may be
 * before it receives: a neighbour a phase ahead may have sent already.  So
 * the rings in are checked between what was received so far and what the
 * whole test sends it, and exactly at the end. */
#include "mpit_util.h"

static MPI_T_pvar_session s;
static MPI_T_pvar_handle h_out, h_in;
static int rank, size;

static unsigned long long in_final;

static void expect(unsigned long long out, unsigned long long in, const char *when)
{
    unsigned long long o = pvar_read(s, h_out), i = pvar_read(s, h_in);
    CHECK(o == out && i >= in && i <= in_final,
          "rank %d of %d, %s: %llu rings out and %llu in, expected %llu and %llu to %llu", rank,
          size, when, o, i, out, in, in_final);
}

/* Receives until this rank has polled every ring it is owed. */
static void ring_exchange(int to, int from, int tag)
{
    int v = rank, got = -1;
    MPI_Sendrecv(&v, 1, MPI_INT, to, tag, &got, 1, MPI_INT, from, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(got == from, "rank %d: %d from rank %d", rank, got, from);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    h_out = pvar_handle(s, "tern_shm_pairs_out", MPI_T_PVAR_CLASS_LEVEL);
    h_in = pvar_handle(s, "tern_shm_pairs_in", MPI_T_PVAR_CLASS_LEVEL);
    if (size == 1) {
        expect(0, 0, "alone");
        goto done;
    }
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    /* Two neighbours, or one when they are the same rank; and rank 0. */
    unsigned long long both = size == 2 ? 1 : 2;
    in_final = rank == 0 ? (unsigned long long)size - 1 : both + (rank != 1 && rank != size - 1);
    expect(0, 0, "after MPI_Init");
    /* MPI_COMM_WORLD's collectives run in its own shared area, taken with
     * no message: no ring either. */
    int sum = 0, one = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size, "rank %d: allreduce gave %d", rank, sum);
    expect(0, 0, "after a barrier and an allreduce on MPI_COMM_WORLD");
    ring_exchange(next, prev, 1);
    expect(1, 1, "after a ring exchange");
    for (int k = 0; k < 100; k++) ring_exchange(next, prev, 2);
    expect(1, 1, "after 100 more");
    /* The other way round: the rings to prev and from next, unless the
     * two neighbours are one rank. */
    ring_exchange(prev, next, 3);
    expect(both, both, "after the reverse ring");

    /* Rank 0 to everyone, each answers: rank 0 talks to all. */
    int v = 0;
    if (rank == 0) {
        for (int r = 1; r < size; r++) MPI_Send(&v, 1, MPI_INT, r, 4, MPI_COMM_WORLD);
        for (int r = 1; r < size; r++)
            MPI_Recv(&v, 1, MPI_INT, r, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        expect((unsigned long long)size - 1, in_final, "rank 0 after a fan");
    } else {
        MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
        expect(in_final, in_final, "after the fan"); /* as many out as in */
    }
done:
    CHECK_T(MPI_T_pvar_handle_free(s, &h_out), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_handle_free(s, &h_in), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
