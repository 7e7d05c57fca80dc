/* Intercommunicator "all" collectives where data flows one way only: one
 * group sends a count and receives nothing, the other sends nothing and
 * receives (legal: each side's sends match the other's receives).  Groups
 * of unequal size: side 0 is world ranks [0, k), side 1 the rest.  Every
 * form (nonblocking, persistent, blocking) of alltoall, alltoallv,
 * alltoallw, allgather and allgatherv, with each side as the sender; the
 * receivers' values are checked, the senders' receive buffers must stay
 * untouched. */
#include <stdlib.h>

#include "tern_test.h"

#define N 5
#define SENT (-7)

static int wrank, wsize, side, lr, ls, rs;
static MPI_Comm ic;

static int val(int from_side, int from_rank, int to_rank, int j)
{
    return 100000 * (from_side + 1) + 1000 * from_rank + 10 * to_rank + j;
}

enum form { NB, PERSIST, BLOCKING };
static const char *form_name[] = {"nonblocking", "persistent", "blocking"};
enum coll { ALLTOALL, ALLTOALLV, ALLTOALLW, ALLGATHER, ALLGATHERV, NCOLL };
static const char *coll_name[] = {"alltoall", "alltoallv", "alltoallw", "allgather", "allgatherv"};

static void run(enum coll k, enum form f, int sender_side)
{
    int sending = side == sender_side;
    int scount = sending ? N : 0, rcount = sending ? 0 : N;
    int *sbuf = malloc((size_t)(rs * N + 1) * sizeof(int));
    int *rbuf = malloc((size_t)(rs * N + 1) * sizeof(int));
    int *sc = malloc((size_t)rs * sizeof(int)), *sd = malloc((size_t)rs * sizeof(int));
    int *rc = malloc((size_t)rs * sizeof(int)), *rd = malloc((size_t)rs * sizeof(int));
    int *sdb = malloc((size_t)rs * sizeof(int)), *rdb = malloc((size_t)rs * sizeof(int));
    MPI_Datatype *types = malloc((size_t)rs * sizeof(MPI_Datatype));
    CHECK(sbuf && rbuf && sc && sd && rc && rd && sdb && rdb && types, "out of memory");
    for (int i = 0; i < rs; i++) {
        sc[i] = scount;
        rc[i] = rcount;
        sd[i] = rd[i] = i * N;
        sdb[i] = rdb[i] = i * N * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    int gather = k == ALLGATHER || k == ALLGATHERV;
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < N; j++) sbuf[i * N + j] = val(side, lr, gather ? 0 : i, j);
    for (int i = 0; i < rs * N + 1; i++) rbuf[i] = SENT;
    MPI_Request req = MPI_REQUEST_NULL;
    int nb = f == NB, pi = f == PERSIST;
    switch (k) {
    case ALLTOALL:
        if (nb) CHECK_MPI(MPI_Ialltoall(sbuf, scount, MPI_INT, rbuf, rcount, MPI_INT, ic, &req));
        if (pi)
            CHECK_MPI(MPI_Alltoall_init(sbuf, scount, MPI_INT, rbuf, rcount, MPI_INT, ic,
                                        MPI_INFO_NULL, &req));
        if (f == BLOCKING)
            CHECK_MPI(MPI_Alltoall(sbuf, scount, MPI_INT, rbuf, rcount, MPI_INT, ic));
        break;
    case ALLTOALLV:
        if (nb) CHECK_MPI(MPI_Ialltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, ic, &req));
        if (pi)
            CHECK_MPI(MPI_Alltoallv_init(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, ic,
                                         MPI_INFO_NULL, &req));
        if (f == BLOCKING)
            CHECK_MPI(MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, ic));
        break;
    case ALLTOALLW:
        if (nb) CHECK_MPI(MPI_Ialltoallw(sbuf, sc, sdb, types, rbuf, rc, rdb, types, ic, &req));
        if (pi)
            CHECK_MPI(MPI_Alltoallw_init(sbuf, sc, sdb, types, rbuf, rc, rdb, types, ic,
                                         MPI_INFO_NULL, &req));
        if (f == BLOCKING) CHECK_MPI(MPI_Alltoallw(sbuf, sc, sdb, types, rbuf, rc, rdb, types, ic));
        break;
    case ALLGATHER:
        if (nb) CHECK_MPI(MPI_Iallgather(sbuf, scount, MPI_INT, rbuf, rcount, MPI_INT, ic, &req));
        if (pi)
            CHECK_MPI(MPI_Allgather_init(sbuf, scount, MPI_INT, rbuf, rcount, MPI_INT, ic,
                                         MPI_INFO_NULL, &req));
        if (f == BLOCKING)
            CHECK_MPI(MPI_Allgather(sbuf, scount, MPI_INT, rbuf, rcount, MPI_INT, ic));
        break;
    case ALLGATHERV:
        if (nb) CHECK_MPI(MPI_Iallgatherv(sbuf, scount, MPI_INT, rbuf, rc, rd, MPI_INT, ic, &req));
        if (pi)
            CHECK_MPI(MPI_Allgatherv_init(sbuf, scount, MPI_INT, rbuf, rc, rd, MPI_INT, ic,
                                          MPI_INFO_NULL, &req));
        if (f == BLOCKING)
            CHECK_MPI(MPI_Allgatherv(sbuf, scount, MPI_INT, rbuf, rc, rd, MPI_INT, ic));
        break;
    default: break;
    }
    if (pi) CHECK_MPI(MPI_Start(&req));
    if (f != BLOCKING) CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    if (pi) CHECK_MPI(MPI_Request_free(&req));
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < N; j++) {
            int want = sending ? SENT : val(!side, i, gather ? 0 : lr, j);
            CHECK(rbuf[i * N + j] == want,
                  "%s %s, side %d sends: side %d rank %d got [%d][%d] = %d, want %d", form_name[f],
                  coll_name[k], sender_side, side, lr, i, j, rbuf[i * N + j], want);
        }
    CHECK(rbuf[rs * N] == SENT, "%s %s wrote past the receive buffer", form_name[f], coll_name[k]);
    free(sbuf);
    free(rbuf);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sdb);
    free(rdb);
    free(types);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize >= 2, "an intercommunicator needs 2 ranks or more, not %d", wsize);
    /* Unequal groups wherever the size allows: 1|3 at 4, 2|3 at 5, 3|4 at 7, 3|5 at 8. */
    int k = wsize / 2 - (wsize % 2 == 0 && wsize > 2);
    side = wrank >= k;
    MPI_Comm local;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : k, 9, &ic));
    MPI_Comm_rank(ic, &lr);
    MPI_Comm_size(ic, &ls);
    MPI_Comm_remote_size(ic, &rs);
    for (int c = 0; c < NCOLL; c++)
        for (int f = NB; f <= BLOCKING; f++)
            for (int s = 0; s < 2; s++) run((enum coll)c, (enum form)f, s);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    MPI_Finalize();
    if (wrank == 0) printf("OK nbc_inter_oneway (%d|%d)\n", k, wsize - k);
    return 0;
}
