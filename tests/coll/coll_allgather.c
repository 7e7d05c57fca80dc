/* MPI_Allgather and MPI_Alltoall (blocking and nonblocking), MPI_Allgatherv, MPI_Alltoallv,
 * MPI_Alltoallw: counts 0..100000, MPI_IN_PLACE, a vector receive type. */
#include "coll_util.h"

static int rank, size;
static MPI_Comm comm; /* tt_comm_from_args */

/* MPI_Allgather, or MPI_Alltoall (to_all), of count ints; nb: the
 * nonblocking form and a wait. */
static void all_block(int to_all, int nb, const void *from, int count, int *rbuf)
{
    MPI_Request req;
    if (nb && to_all)
        CHECK_MPI(MPI_Ialltoall(from, count, MPI_INT, rbuf, count, MPI_INT, comm, &req));
    else if (nb)
        CHECK_MPI(MPI_Iallgather(from, count, MPI_INT, rbuf, count, MPI_INT, comm, &req));
    else if (to_all)
        CHECK_MPI(MPI_Alltoall(from, count, MPI_INT, rbuf, count, MPI_INT, comm));
    else
        CHECK_MPI(MPI_Allgather(from, count, MPI_INT, rbuf, count, MPI_INT, comm));
    if (nb) CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

static void allgather(int count, int in_place, int nb)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc((size_t)count * sizeof(int));
    int *rbuf = tt_alloc(total * sizeof(int));
    for (int i = 0; i < count; i++) sbuf[i] = tt_val(rank, i, 3);
    for (size_t j = 0; j < total; j++) rbuf[j] = -1;
    if (in_place) memcpy(rbuf + (size_t)rank * count, sbuf, (size_t)count * sizeof(int));
    all_block(0, nb, in_place ? MPI_IN_PLACE : sbuf, count, rbuf);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < count; i++)
            CHECK(rbuf[(size_t)r * count + i] == tt_val(r, i, 3),
                  "%sallgather count %d in_place %d: block %d [%d]=%d", nb ? "i" : "", count,
                  in_place, r, i, rbuf[(size_t)r * count + i]);
    free(sbuf);
    free(rbuf);
}

static void allgather_vector(int count)
{
    MPI_Datatype vec = tt_vector_type();
    size_t per = (size_t)count * TT_VEC_EXTENT;
    int *sbuf = tt_alloc((size_t)count * TT_VEC_INTS * sizeof(int));
    int *rbuf = tt_alloc(per * (size_t)size * sizeof(int));
    for (int i = 0; i < count * TT_VEC_INTS; i++) sbuf[i] = tt_val(rank, i, 4);
    for (size_t j = 0; j < per * (size_t)size; j++) rbuf[j] = -7;
    CHECK_MPI(MPI_Allgather(sbuf, count * TT_VEC_INTS, MPI_INT, rbuf, count, vec, comm));
    for (int r = 0; r < size; r++)
        for (int e = 0; e < count; e++)
            for (int j = 0; j < TT_VEC_EXTENT; j++) {
                int got = rbuf[(size_t)r * per + (size_t)e * TT_VEC_EXTENT + j];
                int want =
                    tt_vec_hole(j) ? -7 : tt_val(r, e * TT_VEC_INTS + (j / 4) * 2 + j % 4, 4);
                CHECK(got == want, "allgather vector block %d elem %d pos %d: %d want %d", r, e, j,
                      got, want);
            }
    free(sbuf);
    free(rbuf);
    MPI_Type_free(&vec);
}

static void allgatherv(int base, int in_place)
{
    int *counts = tt_alloc((size_t)size * sizeof(int)),
        *displs = tt_alloc((size_t)size * sizeof(int));
    int off = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = ((r + 1) % 3) * base;
        displs[r] = off;
        off += counts[r] + 1;
    }
    int *sbuf = tt_alloc((size_t)counts[rank] * sizeof(int) + 1);
    int *rbuf = tt_alloc((size_t)off * sizeof(int));
    for (int i = 0; i < counts[rank]; i++) sbuf[i] = tt_val(rank, i, 6);
    for (int j = 0; j < off; j++) rbuf[j] = -3;
    if (in_place) memcpy(rbuf + displs[rank], sbuf, (size_t)counts[rank] * sizeof(int));
    CHECK_MPI(MPI_Allgatherv(in_place ? MPI_IN_PLACE : sbuf, counts[rank], MPI_INT, rbuf, counts,
                             displs, MPI_INT, comm));
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < counts[r]; i++)
            CHECK(rbuf[displs[r] + i] == tt_val(r, i, 6), "allgatherv base %d block %d [%d]=%d",
                  base, r, i, rbuf[displs[r] + i]);
        CHECK(rbuf[displs[r] + counts[r]] == -3, "allgatherv: gap after block %d written", r);
    }
    free(counts);
    free(displs);
    free(sbuf);
    free(rbuf);
}

/* Block for (from, to), element i. */
static int a2a_val(int from, int to, long i) { return tt_val(from * 64 + to, i, 8); }

static void alltoall(int count, int in_place, int nb)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc(total * sizeof(int));
    int *rbuf = tt_alloc(total * sizeof(int));
    for (int to = 0; to < size; to++)
        for (int i = 0; i < count; i++) sbuf[(size_t)to * count + i] = a2a_val(rank, to, i);
    if (in_place)
        memcpy(rbuf, sbuf, total * sizeof(int));
    else
        for (size_t j = 0; j < total; j++) rbuf[j] = -1;
    all_block(1, nb, in_place ? MPI_IN_PLACE : sbuf, count, rbuf);
    for (int from = 0; from < size; from++)
        for (int i = 0; i < count; i++)
            CHECK(rbuf[(size_t)from * count + i] == a2a_val(from, rank, i),
                  "%salltoall count %d in_place %d: from %d [%d]=%d", nb ? "i" : "", count,
                  in_place, from, i, rbuf[(size_t)from * count + i]);
    free(sbuf);
    free(rbuf);
}

/* Rank r sends (r + to) % 3 * base ints to 'to'. */
static int v_count(int from, int to, int base) { return ((from + to) % 3) * base; }

static void alltoallv(int base, int in_place)
{
    int *sc = tt_alloc((size_t)size * sizeof(int)), *sd = tt_alloc((size_t)size * sizeof(int));
    int *rc = tt_alloc((size_t)size * sizeof(int)), *rd = tt_alloc((size_t)size * sizeof(int));
    int soff = 0, roff = 0;
    for (int p = 0; p < size; p++) {
        sc[p] = v_count(rank, p, base);
        sd[p] = soff;
        soff += sc[p] + 1;
    }
    for (int p = size - 1; p >= 0; p--) { /* reverse layout on the receive side */
        rc[p] = v_count(p, rank, base);
        rd[p] = roff;
        roff += rc[p] + 1;
    }
    int *sbuf = tt_alloc((size_t)soff * sizeof(int)), *rbuf = tt_alloc((size_t)roff * sizeof(int));
    for (int p = 0; p < size; p++)
        for (int i = 0; i < sc[p]; i++) sbuf[sd[p] + i] = a2a_val(rank, p, i);
    for (int j = 0; j < roff; j++) rbuf[j] = -3;
    if (in_place) {
        /* The pattern is symmetric (receive counts = send counts), so the
         * data to send can sit where the answers will land. */
        for (int p = 0; p < size; p++)
            for (int i = 0; i < rc[p]; i++) rbuf[rd[p] + i] = a2a_val(rank, p, i);
        CHECK_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rbuf, rc, rd, MPI_INT,
                                comm));
    } else {
        CHECK_MPI(MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm));
    }
    for (int p = 0; p < size; p++) {
        for (int i = 0; i < rc[p]; i++)
            CHECK(rbuf[rd[p] + i] == a2a_val(p, rank, i),
                  "alltoallv base %d in_place %d from %d [%d]=%d", base, in_place, p, i,
                  rbuf[rd[p] + i]);
        CHECK(rbuf[rd[p] + rc[p]] == -3, "alltoallv: gap after block %d written", p);
    }
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sbuf);
    free(rbuf);
}

/* Alltoallw: even ranks receive ints, as vector elements (elems of them);
 * odd ranks receive doubles.  Senders send plain ints (6 per vector
 * element) or doubles accordingly; displacements are in bytes. */
static void alltoallw(int elems)
{
    MPI_Datatype vec = tt_vector_type();
    int *sc = tt_alloc((size_t)size * sizeof(int)), *sd = tt_alloc((size_t)size * sizeof(int));
    int *rc = tt_alloc((size_t)size * sizeof(int)), *rd = tt_alloc((size_t)size * sizeof(int));
    MPI_Datatype *st = tt_alloc((size_t)size * sizeof(MPI_Datatype));
    MPI_Datatype *rt = tt_alloc((size_t)size * sizeof(MPI_Datatype));
    size_t per = (size_t)elems * TT_VEC_EXTENT * sizeof(int); /* bytes per block, enough for both */
    char *sbuf = tt_alloc(per * (size_t)size), *rbuf = tt_alloc(per * (size_t)size);
    for (int p = 0; p < size; p++) {
        sd[p] = (int)(per * (size_t)(size - 1 - p)); /* reversed on the send side */
        rd[p] = (int)(per * (size_t)p);
        if (p % 2 == 0) {
            sc[p] = elems * TT_VEC_INTS;
            st[p] = MPI_INT;
            int *b = (int *)(sbuf + sd[p]);
            for (int i = 0; i < elems * TT_VEC_INTS; i++) b[i] = a2a_val(rank, p, i);
        } else {
            sc[p] = elems;
            st[p] = MPI_DOUBLE;
            double *b = (double *)(sbuf + sd[p]);
            for (int i = 0; i < elems; i++) b[i] = a2a_val(rank, p, i) + 0.5;
        }
        rc[p] = elems;
        rt[p] = rank % 2 == 0 ? vec : MPI_DOUBLE;
    }
    memset(rbuf, 0xff, per * (size_t)size);
    CHECK_MPI(MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm));
    for (int p = 0; p < size; p++) {
        if (rank % 2 == 0) {
            const int *b = (const int *)(rbuf + rd[p]);
            for (int e = 0; e < elems; e++)
                for (int j = 0; j < TT_VEC_EXTENT; j++) {
                    int want = tt_vec_hole(j)
                                   ? -1
                                   : a2a_val(p, rank, e * TT_VEC_INTS + (j / 4) * 2 + j % 4);
                    CHECK(b[e * TT_VEC_EXTENT + j] == want,
                          "alltoallw from %d elem %d pos %d: %d want %d", p, e, j,
                          b[e * TT_VEC_EXTENT + j], want);
                }
        } else {
            const double *b = (const double *)(rbuf + rd[p]);
            for (int i = 0; i < elems; i++)
                CHECK(b[i] == a2a_val(p, rank, i) + 0.5, "alltoallw from %d [%d]=%g", p, i, b[i]);
        }
    }
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
    free(sbuf);
    free(rbuf);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    comm = tt_comm_from_args(argc, argv);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int k = 0; k < TT_NCOUNTS; k++) {
        for (int nb = 0; nb < 2; nb++) {
            allgather(tt_counts[k], 0, nb);
            allgather(tt_counts[k], 1, nb);
            alltoall(tt_counts[k], 0, nb);
            alltoall(tt_counts[k], 1, nb);
        }
    }
    allgather_vector(1);
    allgather_vector(3000);
    for (int base = 0; base <= 20000; base = base ? base * 100 : 2) {
        allgatherv(base, 0);
        allgatherv(base, 1);
        alltoallv(base, 0);
        alltoallv(base, 1);
    }
    alltoallw(1);
    alltoallw(2000);
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
