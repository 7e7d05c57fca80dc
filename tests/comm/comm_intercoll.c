/* Every blocking collective on an intercommunicator between the two halves
 * of MPI_COMM_WORLD (side 0 = world ranks [0, n/2), side 1 = the rest),
 * each rooted one with every root on either side (MPI_ROOT at the root,
 * MPI_PROC_NULL at its side's other ranks), checking every value received
 * and that idle ranks' buffers stay untouched; then the argument errors. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tern_expect.h"

#define SENT (-1)

static int wrank, wsize, half, side, lr, ls, rs;
static MPI_Comm ic;

static int size_of(int s) { return s == 0 ? half : wsize - half; }
/* A value only (side s, local rank r, index j) produces. */
static int V(int s, int r, int j) { return 100000 * (s + 1) + 100 * r + j; }

static int root_arg(int rside, int r0)
{
    if (side != rside) return r0;
    return lr == r0 ? MPI_ROOT : MPI_PROC_NULL;
}

static int *ints(size_t n, int v)
{
    int *a = malloc(sizeof(int) * (n ? n : 1));
    for (size_t i = 0; i < n; i++) a[i] = v;
    return a;
}

static void check_untouched(const int *a, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) CHECK(a[i] == SENT, "%s: idle buffer[%zu] = %d", what, i, a[i]);
}

static void t_bcast(int rside, int r0)
{
    int root = root_arg(rside, r0), buf[3];
    for (int j = 0; j < 3; j++) buf[j] = root == MPI_ROOT ? V(side, lr, j) : SENT;
    CHECK_MPI(MPI_Bcast(buf, 3, MPI_INT, root, ic));
    for (int j = 0; j < 3; j++) {
        int want = root == MPI_PROC_NULL ? SENT : V(rside, r0, j);
        CHECK(buf[j] == want, "bcast root %d/%d: [%d] = %d want %d", rside, r0, j, buf[j], want);
    }
}

static void t_gather(int rside, int r0)
{
    int root = root_arg(rside, r0), send[2] = {V(side, lr, 0), V(side, lr, 1)};
    int *recv = ints((size_t)rs * 2, SENT);
    CHECK_MPI(MPI_Gather(send, 2, MPI_INT, recv, 2, MPI_INT, root, ic));
    if (root == MPI_ROOT) {
        for (int i = 0; i < rs; i++)
            for (int j = 0; j < 2; j++)
                CHECK(recv[2 * i + j] == V(!side, i, j), "gather: from %d [%d] = %d", i, j,
                      recv[2 * i + j]);
    } else {
        check_untouched(recv, (size_t)rs * 2, "gather");
    }
    free(recv);
}

/* Remote rank i contributes i % 3 + 1 elements, placed with a gap of one. */
static void v_layout(int n, int *counts, int *displs, int *total)
{
    int off = 0;
    for (int i = n - 1; i >= 0; i--) { /* reversed placement */
        counts[i] = i % 3 + 1;
        displs[i] = off;
        off += counts[i] + 1;
    }
    *total = off;
}

static void t_gatherv(int rside, int r0)
{
    int root = root_arg(rside, r0), counts[64], displs[64], total, send[3];
    v_layout(rs, counts, displs, &total);
    for (int j = 0; j < 3; j++) send[j] = V(side, lr, j);
    int *recv = ints((size_t)total, SENT);
    CHECK_MPI(MPI_Gatherv(send, lr % 3 + 1, MPI_INT, recv, counts, displs, MPI_INT, root, ic));
    if (root == MPI_ROOT) {
        for (int i = 0; i < rs; i++) {
            for (int j = 0; j < counts[i]; j++)
                CHECK(recv[displs[i] + j] == V(!side, i, j), "gatherv: from %d [%d] = %d", i, j,
                      recv[displs[i] + j]);
            CHECK(recv[displs[i] + counts[i]] == SENT, "gatherv: gap after %d written", i);
        }
    } else {
        check_untouched(recv, (size_t)total, "gatherv");
    }
    free(recv);
}

static void t_scatter(int rside, int r0)
{
    int root = root_arg(rside, r0), recv[2] = {SENT, SENT};
    int *send = ints((size_t)rs * 2, SENT);
    if (root == MPI_ROOT)
        for (int i = 0; i < rs; i++)
            for (int j = 0; j < 2; j++) send[2 * i + j] = V(side, r0, 10 * i + j);
    CHECK_MPI(MPI_Scatter(send, 2, MPI_INT, recv, 2, MPI_INT, root, ic));
    for (int j = 0; j < 2; j++) {
        int want = side == rside ? SENT : V(rside, r0, 10 * lr + j);
        CHECK(recv[j] == want, "scatter root %d/%d: [%d] = %d want %d", rside, r0, j, recv[j],
              want);
    }
    free(send);
}

static void t_scatterv(int rside, int r0)
{
    int root = root_arg(rside, r0), counts[64], displs[64], total,
        recv[4] = {SENT, SENT, SENT, SENT};
    v_layout(rs, counts, displs, &total);
    int *send = ints((size_t)total, SENT);
    if (root == MPI_ROOT)
        for (int i = 0; i < rs; i++)
            for (int j = 0; j < counts[i]; j++) send[displs[i] + j] = V(side, r0, 10 * i + j);
    CHECK_MPI(MPI_Scatterv(send, counts, displs, MPI_INT, recv, lr % 3 + 1, MPI_INT, root, ic));
    for (int j = 0; j < 4; j++) {
        int want = side == rside || j > lr % 3 ? SENT : V(rside, r0, 10 * lr + j);
        CHECK(recv[j] == want, "scatterv root %d/%d: [%d] = %d want %d", rside, r0, j, recv[j],
              want);
    }
    free(send);
}

/* A non-commutative operation: the lower-ranked operand wins. */
static void first_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    memcpy(inout, in, sizeof(int) * (size_t)*len);
}

static void t_reduce(int rside, int r0, MPI_Op first)
{
    int root = root_arg(rside, r0), send[3], recv[3] = {SENT, SENT, SENT},
        recv2[3] = {SENT, SENT, SENT};
    for (int j = 0; j < 3; j++) send[j] = V(side, lr, j);
    CHECK_MPI(MPI_Reduce(send, recv, 3, MPI_INT, MPI_SUM, root, ic));
    CHECK_MPI(MPI_Reduce(send, recv2, 3, MPI_INT, first, root, ic));
    for (int j = 0; j < 3; j++) {
        int sum = 0;
        for (int i = 0; i < rs; i++) sum += V(!side, i, j);
        if (root == MPI_ROOT) {
            CHECK(recv[j] == sum, "reduce sum [%d] = %d want %d", j, recv[j], sum);
            CHECK(recv2[j] == V(!side, 0, j), "reduce first [%d] = %d want %d", j, recv2[j],
                  V(!side, 0, j));
        } else {
            CHECK(recv[j] == SENT && recv2[j] == SENT, "reduce: non-root buffer written");
        }
    }
}

static void t_allgather(void)
{
    int send[2] = {V(side, lr, 0), V(side, lr, 1)}, *recv = ints((size_t)rs * 2, SENT);
    CHECK_MPI(MPI_Allgather(send, 2, MPI_INT, recv, 2, MPI_INT, ic));
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < 2; j++)
            CHECK(recv[2 * i + j] == V(!side, i, j), "allgather from %d [%d] = %d", i, j,
                  recv[2 * i + j]);
    free(recv);
    /* A strided send type against a contiguous receive: the leaders pack. */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int strided[3] = {V(side, lr, 0), SENT, V(side, lr, 1)};
    recv = ints((size_t)rs * 2, SENT);
    CHECK_MPI(MPI_Allgather(strided, 1, vec, recv, 2, MPI_INT, ic));
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < 2; j++)
            CHECK(recv[2 * i + j] == V(!side, i, j), "allgather vector from %d [%d] = %d", i, j,
                  recv[2 * i + j]);
    /* ... and a gather to side 0's rank 0 of the same. */
    for (int i = 0; i < rs * 2; i++) recv[i] = SENT;
    CHECK_MPI(MPI_Gather(strided, 1, vec, recv, 2, MPI_INT,
                         side ? 0 : (lr ? MPI_PROC_NULL : MPI_ROOT), ic));
    for (int i = 0; side == 0 && lr == 0 && i < rs; i++)
        for (int j = 0; j < 2; j++)
            CHECK(recv[2 * i + j] == V(1, i, j), "gather vector from %d [%d] = %d", i, j,
                  recv[2 * i + j]);
    MPI_Type_free(&vec);
    free(recv);
    int counts[64], displs[64], total, sendv[3];
    v_layout(rs, counts, displs, &total);
    for (int j = 0; j < 3; j++) sendv[j] = V(side, lr, j);
    recv = ints((size_t)total, SENT);
    CHECK_MPI(MPI_Allgatherv(sendv, lr % 3 + 1, MPI_INT, recv, counts, displs, MPI_INT, ic));
    for (int i = 0; i < rs; i++) {
        for (int j = 0; j < counts[i]; j++)
            CHECK(recv[displs[i] + j] == V(!side, i, j), "allgatherv from %d [%d] = %d", i, j,
                  recv[displs[i] + j]);
        CHECK(recv[displs[i] + counts[i]] == SENT, "allgatherv: gap after %d written", i);
    }
    free(recv);
}

static void t_alltoall(void)
{
    int *send = ints((size_t)rs * 2, 0), *recv = ints((size_t)rs * 2, SENT);
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < 2; j++) send[2 * i + j] = V(side, lr, 10 * i + j);
    CHECK_MPI(MPI_Alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, ic));
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < 2; j++)
            CHECK(recv[2 * i + j] == V(!side, i, 10 * lr + j), "alltoall from %d [%d] = %d", i, j,
                  recv[2 * i + j]);
    free(send);
    free(recv);

    /* v: (my local rank + remote rank) % 3 elements each way, gaps of one. */
    int sc[64], sd[64], rc[64], rd[64], soff = 0, roff = 0;
    for (int i = 0; i < rs; i++) {
        sc[i] = rc[i] = (lr + i) % 3;
        sd[i] = soff;
        rd[i] = roff;
        soff += sc[i] + 1;
        roff += rc[i] + 1;
    }
    send = ints((size_t)soff, SENT);
    recv = ints((size_t)roff, SENT);
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < sc[i]; j++) send[sd[i] + j] = V(side, lr, 10 * i + j);
    CHECK_MPI(MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, ic));
    for (int i = 0; i < rs; i++) {
        for (int j = 0; j < rc[i]; j++)
            CHECK(recv[rd[i] + j] == V(!side, i, 10 * lr + j), "alltoallv from %d [%d] = %d", i, j,
                  recv[rd[i] + j]);
        CHECK(recv[rd[i] + rc[i]] == SENT, "alltoallv: gap after %d written", i);
    }

    /* w: the same layout in bytes; pairs as one MPI_2INT where the count is even. */
    MPI_Datatype st[64], rt[64];
    int swc[64], rwc[64], sdb[64], rdb[64];
    for (int i = 0; i < rs; i++) {
        int pair = sc[i] == 2;
        st[i] = rt[i] = pair ? MPI_2INT : MPI_INT;
        swc[i] = rwc[i] = pair ? 1 : sc[i];
        sdb[i] = sd[i] * (int)sizeof(int);
        rdb[i] = rd[i] * (int)sizeof(int);
        if (sc[i] == 0) st[i] = rt[i] = MPI_DATATYPE_NULL; /* ignored for count 0 */
    }
    for (int i = 0; i < roff; i++) recv[i] = SENT;
    CHECK_MPI(MPI_Alltoallw(send, swc, sdb, st, recv, rwc, rdb, rt, ic));
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < rc[i]; j++)
            CHECK(recv[rd[i] + j] == V(!side, i, 10 * lr + j), "alltoallw from %d [%d] = %d", i, j,
                  recv[rd[i] + j]);
    free(send);
    free(recv);
}

static void t_allreduce(MPI_Op first)
{
    int send[3], recv[3], recv2[3];
    for (int j = 0; j < 3; j++) send[j] = V(side, lr, j);
    CHECK_MPI(MPI_Allreduce(send, recv, 3, MPI_INT, MPI_SUM, ic));
    CHECK_MPI(MPI_Allreduce(send, recv2, 3, MPI_INT, first, ic));
    for (int j = 0; j < 3; j++) {
        int sum = 0;
        for (int i = 0; i < rs; i++) sum += V(!side, i, j);
        CHECK(recv[j] == sum, "allreduce [%d] = %d want %d", j, recv[j], sum);
        CHECK(recv2[j] == V(!side, 0, j), "allreduce first [%d] = %d", j, recv2[j]);
    }
}

/* Both sides reduce vectors of ls*rs elements; each side scatters the
 * other's result: local rank 0 takes its block and the last rank's (which
 * gets none) when there are several. */
static void t_reduce_scatter(void)
{
    int total = ls * rs, counts[64], displs[64], off = 0;
    for (int i = 0; i < ls; i++) counts[i] = rs;
    if (ls > 1) {
        counts[0] += counts[ls - 1];
        counts[ls - 1] = 0;
    }
    for (int i = 0; i < ls; i++) {
        displs[i] = off;
        off += counts[i];
    }
    int *send = ints((size_t)total, 0), *recv = ints((size_t)total + 1, SENT);
    for (int k = 0; k < total; k++) send[k] = V(side, lr, k);
    CHECK_MPI(MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, ic));
    for (int j = 0; j < counts[lr]; j++) {
        int sum = 0;
        for (int i = 0; i < rs; i++) sum += V(!side, i, displs[lr] + j);
        CHECK(recv[j] == sum, "reduce_scatter [%d] = %d want %d", j, recv[j], sum);
    }
    CHECK(recv[counts[lr]] == SENT, "reduce_scatter wrote past its block");
    /* block: rs elements each on this side (ls * rs on both sides). */
    for (int k = 0; k <= total; k++) recv[k] = SENT;
    CHECK_MPI(MPI_Reduce_scatter_block(send, recv, rs, MPI_INT, MPI_SUM, ic));
    for (int j = 0; j < rs; j++) {
        int sum = 0;
        for (int i = 0; i < rs; i++) sum += V(!side, i, lr * rs + j);
        CHECK(recv[j] == sum, "reduce_scatter_block [%d] = %d want %d", j, recv[j], sum);
    }
    CHECK(recv[rs] == SENT, "reduce_scatter_block wrote past its block");
    free(send);
    free(recv);
}

/* Nobody leaves the barrier before everyone on the other side entered:
 * the last rank of side 1 enters late and tells side 0 when (one clock,
 * CLOCK_MONOTONIC, on one node). */
static void t_barrier(void)
{
    double entered = 0, left;
    int late = side == 1 && lr == ls - 1;
    if (late) {
        usleep(50000);
        entered = MPI_Wtime();
    }
    CHECK_MPI(MPI_Barrier(ic));
    left = MPI_Wtime();
    if (late)
        for (int i = 0; i < rs; i++) CHECK_MPI(MPI_Send(&entered, 1, MPI_DOUBLE, i, 55, ic));
    if (side == 0) {
        CHECK_MPI(MPI_Recv(&entered, 1, MPI_DOUBLE, rs - 1, 55, ic, MPI_STATUS_IGNORE));
        CHECK(left >= entered, "left the barrier at %.6f before the other side entered at %.6f",
              left, entered);
    }
    CHECK_MPI(MPI_Barrier(ic));
}

/* Every call here fails at every rank before any message moves. */
static void t_errors(void)
{
    int x[4] = {0, 0, 0, 0}, y[4], neg[64];
    for (int i = 0; i < 64; i++) neg[i] = i == ls - 1 ? -1 : 1;
    expect(MPI_Scan(x, y, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM, "MPI_Scan", "intercommunicator");
    expect(MPI_Exscan(x, y, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM, "MPI_Exscan",
           "intercommunicator");
    expect(MPI_Bcast(x, 1, MPI_INT, rs, ic), MPI_ERR_ROOT, "MPI_Bcast", "remote group");
    expect(MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, -7, ic), MPI_ERR_ROOT, "MPI_Reduce", "MPI_ROOT");
    expect(MPI_Allreduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_BUFFER, "MPI_Allreduce",
           "MPI_IN_PLACE");
    expect(MPI_Gather(x, 1, MPI_INT, NULL, 1, MPI_INT, MPI_ROOT, ic), MPI_ERR_BUFFER, "MPI_Gather",
           "recvbuf");
    expect(MPI_Gatherv(x, 1, MPI_INT, y, NULL, neg, MPI_INT, MPI_ROOT, ic), MPI_ERR_ARG,
           "MPI_Gatherv", "recvcounts");
    expect(MPI_Alltoall(x, -1, MPI_INT, y, 1, MPI_INT, ic), MPI_ERR_COUNT, "MPI_Alltoall",
           "sendcount");
    expect(MPI_Reduce_scatter(x, y, neg, MPI_INT, MPI_SUM, ic), MPI_ERR_COUNT, "MPI_Reduce_scatter",
           "recvcounts");
    expect(MPI_Allreduce(x, y, 1, MPI_INT, MPI_OP_NULL, ic), MPI_ERR_OP, "MPI_Allreduce",
           "MPI_OP_NULL");
    expect(MPI_Scatter(side ? x : MPI_IN_PLACE, 1, MPI_INT, side ? MPI_IN_PLACE : y, 1, MPI_INT,
                       side ? 0 : MPI_ROOT, ic),
           MPI_ERR_BUFFER, "MPI_Scatter", "MPI_IN_PLACE");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize >= 2 && wsize <= 64, "needs 2..64 ranks");
    half = wsize / 2;
    side = wrank >= half;
    lr = side ? wrank - half : wrank;
    ls = size_of(side);
    rs = size_of(!side);
    MPI_Comm local;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : half, 5, &ic));
    MPI_Op first;
    CHECK_MPI(MPI_Op_create(first_op, 0, &first));

    t_barrier();
    for (int rside = 0; rside < 2; rside++) {
        for (int r0 = 0; r0 < size_of(rside); r0++) {
            t_bcast(rside, r0);
            t_gather(rside, r0);
            t_gatherv(rside, r0);
            t_scatter(rside, r0);
            t_scatterv(rside, r0);
            t_reduce(rside, r0, first);
        }
    }
    t_allgather();
    t_alltoall();
    t_allreduce(first);
    t_reduce_scatter();

    CHECK_MPI(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));
    t_errors();

    MPI_Op_free(&first);
    CHECK_MPI(MPI_Comm_free(&ic));
    CHECK_MPI(MPI_Comm_free(&local));
    MPI_Finalize();
    return 0;
}
