/* The nonblocking (or persistent: see nbc_test.h) data movers: Ibcast,
 * Igather(v), Iscatter(v), Iallgather(v), Ialltoall(v, w) for every root,
 * counts from 0 to beyond the eager size, MPI_IN_PLACE, a vector datatype
 * against plain ints, zero-sized blocks for some ranks. */
#include "nbc_test.h"

#define W MPI_COMM_WORLD

static int rank, size;
static const int counts[] = {0, 1, 1000, 30000};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static void bcast(int count)
{
    int *buf = tt_alloc((size_t)count * sizeof(int));
    for (int root = 0; root < size; root++) {
        for (int rep = 0; rep < nt_reps(); rep++) {
            for (int i = 0; i < count; i++) buf[i] = rank == root ? tt_val(root, i, rep) : -1;
            NT_ISSUE(rep, MPI_Ibcast(buf, count, MPI_INT, root, W, &nt_req),
                     MPI_Bcast_init(buf, count, MPI_INT, root, W, MPI_INFO_NULL, &nt_req));
            nt_complete(rep);
            for (int i = 0; i < count; i++)
                CHECK(buf[i] == tt_val(root, i, rep), "bcast count %d root %d rep %d: [%d]=%d",
                      count, root, rep, i, buf[i]);
        }
        nt_done();
    }
    free(buf);
}

/* Everyone uses the vector type: the holes must stay as they were. */
static void bcast_vector(int count)
{
    MPI_Datatype vec = tt_vector_type();
    size_t n = (size_t)count * TT_VEC_EXTENT;
    int *buf = tt_alloc(n * sizeof(int));
    int root = size - 1;
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (size_t j = 0; j < n; j++) buf[j] = rank == root ? tt_val(root, (long)j, rep) : -7;
        NT_ISSUE(rep, MPI_Ibcast(buf, count, vec, root, W, &nt_req),
                 MPI_Bcast_init(buf, count, vec, root, W, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (size_t j = 0; j < n; j++) {
            int want = tt_vec_hole((int)(j % TT_VEC_EXTENT)) && rank != root
                           ? -7
                           : tt_val(root, (long)j, rep);
            CHECK(buf[j] == want, "bcast vector rep %d [%zu]=%d want %d", rep, j, buf[j], want);
        }
    }
    nt_done();
    MPI_Type_free(&vec); /* the persistent request held its own reference until freed */
    free(buf);
}

static void gather(int count, int in_place)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc((size_t)count * sizeof(int)), *rbuf = tt_alloc(total * sizeof(int));
    for (int root = 0; root < size; root++) {
        const void *sb = in_place && rank == root ? MPI_IN_PLACE : sbuf;
        for (int rep = 0; rep < nt_reps(); rep++) {
            for (int i = 0; i < count; i++) sbuf[i] = tt_val(rank, i, root + 10 * rep);
            for (size_t j = 0; j < total; j++) rbuf[j] = -1;
            if (sb == MPI_IN_PLACE)
                memcpy(rbuf + (size_t)root * count, sbuf, (size_t)count * sizeof(int));
            NT_ISSUE(rep, MPI_Igather(sb, count, MPI_INT, rbuf, count, MPI_INT, root, W, &nt_req),
                     MPI_Gather_init(sb, count, MPI_INT, rbuf, count, MPI_INT, root, W,
                                     MPI_INFO_NULL, &nt_req));
            nt_complete(rep);
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < count; i++)
                        CHECK(rbuf[(size_t)r * count + i] == tt_val(r, i, root + 10 * rep),
                              "gather count %d root %d in_place %d rep %d: block %d [%d]=%d", count,
                              root, in_place, rep, r, i, rbuf[(size_t)r * count + i]);
        }
        nt_done();
    }
    free(sbuf);
    free(rbuf);
}

/* Rank r's block: (r % 3) * base ints, laid out in reverse rank order with
 * a gap of 2 ints between blocks. */
static void v_layout(int base, int *cnts, int *displs, size_t *total)
{
    size_t off = 0;
    for (int r = size - 1; r >= 0; r--) {
        cnts[r] = (r % 3) * base;
        displs[r] = (int)off;
        off += (size_t)cnts[r] + 2;
    }
    *total = off;
}

static void gatherv(int base, int in_place)
{
    int *cnts = tt_alloc((size_t)size * sizeof(int)),
        *displs = tt_alloc((size_t)size * sizeof(int));
    size_t total;
    v_layout(base, cnts, displs, &total);
    int mine = cnts[rank];
    int *sbuf = tt_alloc((size_t)mine * sizeof(int)), *rbuf = tt_alloc(total * sizeof(int));
    for (int root = 0; root < size; root++) {
        const void *sb = in_place && rank == root ? MPI_IN_PLACE : sbuf;
        for (int rep = 0; rep < nt_reps(); rep++) {
            for (int i = 0; i < mine; i++) sbuf[i] = tt_val(rank, i, root + 10 * rep);
            for (size_t j = 0; j < total; j++) rbuf[j] = -1;
            if (sb == MPI_IN_PLACE) memcpy(rbuf + displs[root], sbuf, (size_t)mine * sizeof(int));
            NT_ISSUE(rep,
                     MPI_Igatherv(sb, mine, MPI_INT, rbuf, cnts, displs, MPI_INT, root, W, &nt_req),
                     MPI_Gatherv_init(sb, mine, MPI_INT, rbuf, cnts, displs, MPI_INT, root, W,
                                      MPI_INFO_NULL, &nt_req));
            nt_complete(rep);
            if (rank != root) continue;
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < cnts[r]; i++)
                    CHECK(rbuf[displs[r] + i] == tt_val(r, i, root + 10 * rep),
                          "gatherv base %d root %d rep %d: block %d [%d]=%d", base, root, rep, r, i,
                          rbuf[displs[r] + i]);
                CHECK(rbuf[displs[r] + cnts[r]] == -1, "gatherv wrote into the gap after block %d",
                      r);
            }
        }
        nt_done();
    }
    free(cnts);
    free(displs);
    free(sbuf);
    free(rbuf);
}

static void scatter(int count, int in_place)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc(total * sizeof(int)), *rbuf = tt_alloc((size_t)count * sizeof(int));
    for (int root = 0; root < size; root++) {
        void *rb = in_place && rank == root ? MPI_IN_PLACE : rbuf;
        for (int rep = 0; rep < nt_reps(); rep++) {
            for (size_t j = 0; j < total; j++)
                sbuf[j] = rank == root ? tt_val(root, (long)j, rep) : -3;
            for (int i = 0; i < count; i++) rbuf[i] = -1;
            NT_ISSUE(rep, MPI_Iscatter(sbuf, count, MPI_INT, rb, count, MPI_INT, root, W, &nt_req),
                     MPI_Scatter_init(sbuf, count, MPI_INT, rb, count, MPI_INT, root, W,
                                      MPI_INFO_NULL, &nt_req));
            nt_complete(rep);
            const int *got = rb == MPI_IN_PLACE ? sbuf + (size_t)root * count : rbuf;
            for (int i = 0; i < count; i++)
                CHECK(got[i] == tt_val(root, (long)rank * count + i, rep),
                      "scatter count %d root %d in_place %d rep %d: [%d]=%d", count, root, in_place,
                      rep, i, got[i]);
        }
        nt_done();
    }
    free(sbuf);
    free(rbuf);
}

static void scatterv(int base, int in_place)
{
    int *cnts = tt_alloc((size_t)size * sizeof(int)),
        *displs = tt_alloc((size_t)size * sizeof(int));
    size_t total;
    v_layout(base, cnts, displs, &total);
    int mine = cnts[rank];
    int *sbuf = tt_alloc(total * sizeof(int)), *rbuf = tt_alloc((size_t)mine * sizeof(int));
    for (int root = 0; root < size; root++) {
        void *rb = in_place && rank == root ? MPI_IN_PLACE : rbuf;
        for (int rep = 0; rep < nt_reps(); rep++) {
            for (size_t j = 0; j < total; j++)
                sbuf[j] = rank == root ? tt_val(root, (long)j, rep) : -3;
            for (int i = 0; i < mine; i++) rbuf[i] = -1;
            NT_ISSUE(
                rep,
                MPI_Iscatterv(sbuf, cnts, displs, MPI_INT, rb, mine, MPI_INT, root, W, &nt_req),
                MPI_Scatterv_init(sbuf, cnts, displs, MPI_INT, rb, mine, MPI_INT, root, W,
                                  MPI_INFO_NULL, &nt_req));
            nt_complete(rep);
            const int *got = rb == MPI_IN_PLACE ? sbuf + displs[root] : rbuf;
            for (int i = 0; i < mine; i++)
                CHECK(got[i] == tt_val(root, displs[rank] + i, rep),
                      "scatterv base %d root %d rep %d: [%d]=%d", base, root, rep, i, got[i]);
        }
        nt_done();
    }
    free(cnts);
    free(displs);
    free(sbuf);
    free(rbuf);
}

static void allgather(int count, int in_place)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc((size_t)count * sizeof(int)), *rbuf = tt_alloc(total * sizeof(int));
    const void *sb = in_place ? MPI_IN_PLACE : sbuf;
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int i = 0; i < count; i++) sbuf[i] = tt_val(rank, i, rep);
        for (size_t j = 0; j < total; j++) rbuf[j] = -1;
        if (in_place) memcpy(rbuf + (size_t)rank * count, sbuf, (size_t)count * sizeof(int));
        NT_ISSUE(rep, MPI_Iallgather(sb, count, MPI_INT, rbuf, count, MPI_INT, W, &nt_req),
                 MPI_Allgather_init(sb, count, MPI_INT, rbuf, count, MPI_INT, W, MPI_INFO_NULL,
                                    &nt_req));
        nt_complete(rep);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < count; i++)
                CHECK(rbuf[(size_t)r * count + i] == tt_val(r, i, rep),
                      "allgather count %d in_place %d rep %d: block %d [%d]=%d", count, in_place,
                      rep, r, i, rbuf[(size_t)r * count + i]);
    }
    nt_done();
    free(sbuf);
    free(rbuf);
}

/* 6 ints sent, one vector element received per rank. */
static void allgather_vector(int count)
{
    MPI_Datatype vec = tt_vector_type();
    size_t per = (size_t)count * TT_VEC_EXTENT;
    int *sbuf = tt_alloc((size_t)count * TT_VEC_INTS * sizeof(int));
    int *rbuf = tt_alloc(per * (size_t)size * sizeof(int));
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int i = 0; i < count * TT_VEC_INTS; i++) sbuf[i] = tt_val(rank, i, rep);
        for (size_t j = 0; j < per * (size_t)size; j++) rbuf[j] = -7;
        NT_ISSUE(rep,
                 MPI_Iallgather(sbuf, count * TT_VEC_INTS, MPI_INT, rbuf, count, vec, W, &nt_req),
                 MPI_Allgather_init(sbuf, count * TT_VEC_INTS, MPI_INT, rbuf, count, vec, W,
                                    MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int r = 0; r < size; r++)
            for (int e = 0; e < count; e++)
                for (int j = 0; j < TT_VEC_EXTENT; j++) {
                    int got = rbuf[(size_t)r * per + (size_t)e * TT_VEC_EXTENT + j];
                    int want =
                        tt_vec_hole(j) ? -7 : tt_val(r, e * TT_VEC_INTS + (j / 4) * 2 + j % 4, rep);
                    CHECK(got == want,
                          "allgather vector rep %d block %d elem %d pos %d: %d want %d", rep, r, e,
                          j, got, want);
                }
    }
    nt_done();
    MPI_Type_free(&vec);
    free(sbuf);
    free(rbuf);
}

static void allgatherv(int base, int in_place)
{
    int *cnts = tt_alloc((size_t)size * sizeof(int)),
        *displs = tt_alloc((size_t)size * sizeof(int));
    size_t total;
    v_layout(base, cnts, displs, &total);
    int mine = cnts[rank];
    int *sbuf = tt_alloc((size_t)mine * sizeof(int)), *rbuf = tt_alloc(total * sizeof(int));
    const void *sb = in_place ? MPI_IN_PLACE : sbuf;
    for (int rep = 0; rep < nt_reps(); rep++) {
        for (int i = 0; i < mine; i++) sbuf[i] = tt_val(rank, i, rep);
        for (size_t j = 0; j < total; j++) rbuf[j] = -1;
        if (in_place) memcpy(rbuf + displs[rank], sbuf, (size_t)mine * sizeof(int));
        NT_ISSUE(rep, MPI_Iallgatherv(sb, mine, MPI_INT, rbuf, cnts, displs, MPI_INT, W, &nt_req),
                 MPI_Allgatherv_init(sb, mine, MPI_INT, rbuf, cnts, displs, MPI_INT, W,
                                     MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < cnts[r]; i++)
                CHECK(rbuf[displs[r] + i] == tt_val(r, i, rep),
                      "allgatherv base %d in_place %d rep %d: block %d [%d]=%d", base, in_place,
                      rep, r, i, rbuf[displs[r] + i]);
            CHECK(rbuf[displs[r] + cnts[r]] == -1, "allgatherv wrote into the gap after block %d",
                  r);
        }
    }
    nt_done();
    free(cnts);
    free(displs);
    free(sbuf);
    free(rbuf);
}

/* Block i of rank r's send buffer: values tt_val(r, i * 1000000 + j). */
static int a2a_val(int from, int to, int j, int rep)
{
    return tt_val(from, (long)to * 1000000 + j, rep);
}

static void alltoall(int count, int in_place)
{
    size_t total = (size_t)count * (size_t)size;
    int *sbuf = tt_alloc(total * sizeof(int)), *rbuf = tt_alloc(total * sizeof(int));
    const void *sb = in_place ? MPI_IN_PLACE : sbuf;
    for (int rep = 0; rep < nt_reps(); rep++) {
        int *src = in_place ? rbuf : sbuf;
        for (int to = 0; to < size; to++)
            for (int j = 0; j < count; j++) src[(size_t)to * count + j] = a2a_val(rank, to, j, rep);
        if (!in_place)
            for (size_t j = 0; j < total; j++) rbuf[j] = -1;
        NT_ISSUE(
            rep, MPI_Ialltoall(sb, count, MPI_INT, rbuf, count, MPI_INT, W, &nt_req),
            MPI_Alltoall_init(sb, count, MPI_INT, rbuf, count, MPI_INT, W, MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int from = 0; from < size; from++)
            for (int j = 0; j < count; j++)
                CHECK(rbuf[(size_t)from * count + j] == a2a_val(from, rank, j, rep),
                      "alltoall count %d in_place %d rep %d: from %d [%d]=%d", count, in_place, rep,
                      from, j, rbuf[(size_t)from * count + j]);
    }
    nt_done();
    free(sbuf);
    free(rbuf);
}

/* Ranks r and p exchange (r + p) % 3 * base ints each way (symmetric, as
 * MPI_IN_PLACE needs), blocks in reverse order with a gap of one int. */
static void a2av_layout(int me, int base, int *cnts, int *displs, size_t *total)
{
    size_t off = 0;
    for (int p = size - 1; p >= 0; p--) {
        cnts[p] = ((me + p) % 3) * base;
        displs[p] = (int)off;
        off += (size_t)cnts[p] + 1;
    }
    *total = off;
}

static void alltoallv(int base, int in_place, int use_w)
{
    int *sc = tt_alloc((size_t)size * sizeof(int)), *sd = tt_alloc((size_t)size * sizeof(int));
    int *rc = tt_alloc((size_t)size * sizeof(int)), *rd = tt_alloc((size_t)size * sizeof(int));
    MPI_Datatype *types = tt_alloc((size_t)size * sizeof(MPI_Datatype));
    size_t stotal, rtotal;
    a2av_layout(rank, base, sc, sd, &stotal);
    a2av_layout(rank, base, rc, rd, &rtotal);
    int *sbuf = tt_alloc(stotal * sizeof(int)), *rbuf = tt_alloc(rtotal * sizeof(int));
    int *sdb = tt_alloc((size_t)size * sizeof(int)), *rdb = tt_alloc((size_t)size * sizeof(int));
    for (int p = 0; p < size; p++) {
        types[p] = MPI_INT;
        sdb[p] = sd[p] * (int)sizeof(int); /* alltoallw: bytes */
        rdb[p] = rd[p] * (int)sizeof(int);
    }
    const void *sb = in_place ? MPI_IN_PLACE : sbuf;
    for (int rep = 0; rep < nt_reps(); rep++) {
        /* In place, the send layout is the receive layout: (r + p) % 3 both ways. */
        int *src = in_place ? rbuf : sbuf;
        const int *scnt = in_place ? rc : sc, *sdsp = in_place ? rd : sd;
        if (!in_place)
            for (size_t j = 0; j < rtotal; j++) rbuf[j] = -1;
        for (int to = 0; to < size; to++)
            for (int j = 0; j < scnt[to]; j++) src[sdsp[to] + j] = a2a_val(rank, to, j, rep);
        if (use_w)
            NT_ISSUE(rep, MPI_Ialltoallw(sb, sc, sdb, types, rbuf, rc, rdb, types, W, &nt_req),
                     MPI_Alltoallw_init(sb, sc, sdb, types, rbuf, rc, rdb, types, W, MPI_INFO_NULL,
                                        &nt_req));
        else
            NT_ISSUE(rep, MPI_Ialltoallv(sb, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, W, &nt_req),
                     MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, W,
                                        MPI_INFO_NULL, &nt_req));
        nt_complete(rep);
        for (int from = 0; from < size; from++)
            for (int j = 0; j < rc[from]; j++)
                CHECK(rbuf[rd[from] + j] == a2a_val(from, rank, j, rep),
                      "alltoall%c base %d in_place %d rep %d: from %d [%d]=%d", use_w ? 'w' : 'v',
                      base, in_place, rep, from, j, rbuf[rd[from] + j]);
    }
    nt_done();
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sdb);
    free(rdb);
    free(types);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    nt_mode(argc, argv);
    MPI_Comm_rank(W, &rank);
    MPI_Comm_size(W, &size);
    for (int k = 0; k < NCOUNTS; k++) {
        int n = counts[k];
        bcast(n);
        for (int in_place = 0; in_place < 2; in_place++) {
            gather(n, in_place);
            scatter(n, in_place);
            allgather(n, in_place);
            alltoall(n, in_place);
        }
    }
    bcast_vector(100);
    allgather_vector(100);
    allgather_vector(3000); /* beyond the small-message algorithm */
    /* Blocks of no int, a few (through the shared slots), and thousands. */
    static const int bases[] = {0, 1, 1000, 2000};
    for (int b = 0; b < (int)(sizeof bases / sizeof bases[0]); b++) {
        int base = bases[b];
        for (int in_place = 0; in_place < 2; in_place++) {
            gatherv(base, in_place);
            scatterv(base, in_place);
            allgatherv(base, in_place);
            alltoallv(base, in_place, 0);
            alltoallv(base, in_place, 1);
        }
    }
    MPI_Finalize();
    return 0;
}
