/* Every large-count (_c) collective, blocking, nonblocking and persistent,
 * and the neighbourhood ones on a ring, gives what its int form gives (and
 * what it should); a reduction with an op from MPI_Op_create_c; vector
 * counts beyond INT_MAX are refused with MPI_ERR_COUNT. */
#include <limits.h>
#include <string.h>

#include "tern_test.h"

#define K 2 /* elements per block */
#define MAXP 8

static int rank, size;

static int f(int r, int i) { return r * 100 + i; }

/* One call in its three forms (0 blocking, 1 nonblocking, 2 persistent),
 * int (IA) or large-count (CA) arguments. */
#define REQ(...) (__VA_ARGS__, &r_)
#define INIT(...) (__VA_ARGS__, MPI_INFO_NULL, &r_)
#define RUN(form, large, NAME, INAME, IA, CA)            \
    do {                                                 \
        MPI_Request r_;                                  \
        if ((form) == 0) {                               \
            if (large)                                   \
                CHECK_MPI(MPI_##NAME##_c CA);            \
            else                                         \
                CHECK_MPI(MPI_##NAME IA);                \
        } else if ((form) == 1) {                        \
            if (large)                                   \
                CHECK_MPI(MPI_##INAME##_c REQ CA);       \
            else                                         \
                CHECK_MPI(MPI_##INAME REQ IA);           \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE)); \
        } else {                                         \
            if (large)                                   \
                CHECK_MPI(MPI_##NAME##_init_c INIT CA);  \
            else                                         \
                CHECK_MPI(MPI_##NAME##_init INIT IA);    \
            CHECK_MPI(MPI_Start(&r_));                   \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE)); \
            CHECK_MPI(MPI_Request_free(&r_));            \
        }                                                \
    } while (0)

static const char *FORM[] = {"blocking", "nonblocking", "persistent"};

/* Buffers of one run: the send data, and the results of the int form (0)
 * and the _c form (1). */
static int S[K * MAXP * 2], R[2][K * MAXP * 2];
static int icounts[MAXP], idispls[MAXP], wdispls[MAXP];
static MPI_Count ccounts[MAXP];
static MPI_Aint cdispls[MAXP], cwdispls[MAXP];
static MPI_Datatype types[MAXP];

static void reset(void)
{
    for (int i = 0; i < K * MAXP * 2; i++) {
        S[i] = f(rank, i);
        R[0][i] = R[1][i] = -7;
    }
}

/* Both forms gave the same; want(i) is the expected element i of the first n. */
#define COMPARE(what, form, n, want)                                                               \
    do {                                                                                           \
        for (int i_ = 0; i_ < (n); i_++) {                                                         \
            CHECK(R[0][i_] == R[1][i_], "%s (%s): [%d] int form %d, _c form %d", what, FORM[form], \
                  i_, R[0][i_], R[1][i_]);                                                         \
            int i = i_;                                                                            \
            (void)i;                                                                               \
            CHECK(R[0][i_] == (want), "%s (%s): [%d]=%d, want %d", what, FORM[form], i_, R[0][i_], \
                  (int)(want));                                                                    \
        }                                                                                          \
    } while (0)

static MPI_Count last_len = -1;
static int user_calls;

/* An MPI_User_function_c: its length is an MPI_Count. */
static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    CHECK(*dt == MPI_INT, "user op got another type");
    const int *a = in;
    int *b = inout;
    for (MPI_Count i = 0; i < *len; i++) b[i] += a[i];
    last_len = *len;
    user_calls++;
}

static void rooted(int form, MPI_Comm comm)
{
    int root = size - 1;
    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        if (rank == root) memcpy(b, S, K * sizeof(int));
        RUN(form, large, Bcast, Ibcast, (b, K, MPI_INT, root, comm), (b, K, MPI_INT, root, comm));
    }
    COMPARE("bcast", form, K, f(root, i));

    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Gather, Igather, (S, K, MPI_INT, b, K, MPI_INT, root, comm),
            (S, K, MPI_INT, b, K, MPI_INT, root, comm));
    }
    if (rank == root) COMPARE("gather", form, K * size, f(i / K, i % K));

    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Gatherv, Igatherv,
            (S, K, MPI_INT, b, icounts, idispls, MPI_INT, root, comm),
            (S, K, MPI_INT, b, ccounts, cdispls, MPI_INT, root, comm));
    }
    if (rank == root) COMPARE("gatherv", form, K * size, f(i / K, i % K));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Scatter, Iscatter, (S, K, MPI_INT, b, K, MPI_INT, root, comm),
            (S, K, MPI_INT, b, K, MPI_INT, root, comm));
    }
    COMPARE("scatter", form, K, f(root, rank * K + i));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Scatterv, Iscatterv,
            (S, icounts, idispls, MPI_INT, b, K, MPI_INT, root, comm),
            (S, ccounts, cdispls, MPI_INT, b, K, MPI_INT, root, comm));
    }
    COMPARE("scatterv", form, K, f(root, rank * K + i));

    reset();
    MPI_Op op;
    CHECK_MPI(MPI_Op_create_c(sum_c, 1, &op));
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Reduce, Ireduce, (S, b, K, MPI_INT, MPI_SUM, root, comm),
            (S, b, K, MPI_INT, op, root, comm));
    }
    if (rank == root)
        COMPARE("reduce (user op _c)", form, K, size * (size - 1) / 2 * 100 + size * i);
    CHECK_MPI(MPI_Op_free(&op));
}

static void all(int form, MPI_Comm comm)
{
    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Allgather, Iallgather, (S, K, MPI_INT, b, K, MPI_INT, comm),
            (S, K, MPI_INT, b, K, MPI_INT, comm));
    }
    COMPARE("allgather", form, K * size, f(i / K, i % K));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Allgatherv, Iallgatherv,
            (S, K, MPI_INT, b, icounts, idispls, MPI_INT, comm),
            (S, K, MPI_INT, b, ccounts, cdispls, MPI_INT, comm));
    }
    COMPARE("allgatherv", form, K * size, f(i / K, i % K));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Alltoall, Ialltoall, (S, K, MPI_INT, b, K, MPI_INT, comm),
            (S, K, MPI_INT, b, K, MPI_INT, comm));
    }
    COMPARE("alltoall", form, K * size, f(i / K, rank * K + i % K));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Alltoallv, Ialltoallv,
            (S, icounts, idispls, MPI_INT, b, icounts, idispls, MPI_INT, comm),
            (S, ccounts, cdispls, MPI_INT, b, ccounts, cdispls, MPI_INT, comm));
    }
    COMPARE("alltoallv", form, K * size, f(i / K, rank * K + i % K));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Alltoallw, Ialltoallw,
            (S, icounts, wdispls, types, b, icounts, wdispls, types, comm),
            (S, ccounts, cwdispls, types, b, ccounts, cwdispls, types, comm));
    }
    COMPARE("alltoallw", form, K * size, f(i / K, rank * K + i % K));

    int total = size * (size - 1) / 2 * 100;
    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Allreduce, Iallreduce, (S, b, K, MPI_INT, MPI_SUM, comm),
            (S, b, K, MPI_INT, MPI_SUM, comm));
    }
    COMPARE("allreduce", form, K, total + size * i);

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Reduce_scatter, Ireduce_scatter, (S, b, icounts, MPI_INT, MPI_SUM, comm),
            (S, b, ccounts, MPI_INT, MPI_SUM, comm));
    }
    COMPARE("reduce_scatter", form, K, total + size * (rank * K + i));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Reduce_scatter_block, Ireduce_scatter_block,
            (S, b, K, MPI_INT, MPI_SUM, comm), (S, b, K, MPI_INT, MPI_SUM, comm));
    }
    COMPARE("reduce_scatter_block", form, K, total + size * (rank * K + i));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Scan, Iscan, (S, b, K, MPI_INT, MPI_SUM, comm),
            (S, b, K, MPI_INT, MPI_SUM, comm));
    }
    COMPARE("scan", form, K, rank * (rank + 1) / 2 * 100 + (rank + 1) * i);

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Exscan, Iexscan, (S, b, K, MPI_INT, MPI_SUM, comm),
            (S, b, K, MPI_INT, MPI_SUM, comm));
    }
    if (rank > 0) COMPARE("exscan", form, K, (rank - 1) * rank / 2 * 100 + rank * i);
}

/* On a periodic ring: two neighbours each way (the same rank twice when
 * size <= 2). */
static void neighbours(int form, MPI_Comm ring)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int nb[2] = {left, right};
    int c2[2] = {K, K}, d2[2] = {0, K}, w2[2] = {0, K * (int)sizeof(int)};
    MPI_Count cc2[2] = {K, K};
    MPI_Aint cd2[2] = {0, K}, aw2[2] = {0, K * (MPI_Aint)sizeof(int)};
    MPI_Datatype t2[2] = {MPI_INT, MPI_INT};

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Neighbor_allgather, Ineighbor_allgather,
            (S, K, MPI_INT, b, K, MPI_INT, ring), (S, K, MPI_INT, b, K, MPI_INT, ring));
    }
    COMPARE("neighbor_allgather", form, 2 * K, f(nb[i / K], i % K));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Neighbor_allgatherv, Ineighbor_allgatherv,
            (S, K, MPI_INT, b, c2, d2, MPI_INT, ring), (S, K, MPI_INT, b, cc2, cd2, MPI_INT, ring));
    }
    COMPARE("neighbor_allgatherv", form, 2 * K, f(nb[i / K], i % K));

    /* Block j goes to neighbour j: the left neighbour receives my block 0
     * as its "from the right" block 1 and the other way round. */
    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Neighbor_alltoall, Ineighbor_alltoall,
            (S, K, MPI_INT, b, K, MPI_INT, ring), (S, K, MPI_INT, b, K, MPI_INT, ring));
    }
    COMPARE("neighbor_alltoall", form, 2 * K, f(nb[i / K], (1 - i / K) * K + i % K));

    reset();
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Neighbor_alltoallv, Ineighbor_alltoallv,
            (S, c2, d2, MPI_INT, b, c2, d2, MPI_INT, ring),
            (S, cc2, cd2, MPI_INT, b, cc2, cd2, MPI_INT, ring));
    }
    COMPARE("neighbor_alltoallv", form, 2 * K, f(nb[i / K], (1 - i / K) * K + i % K));

    reset();
    (void)w2;
    for (int large = 0; large < 2; large++) {
        int *b = large ? R[1] : R[0];
        RUN(form, large, Neighbor_alltoallw, Ineighbor_alltoallw,
            (S, c2, aw2, t2, b, c2, aw2, t2, ring), (S, cc2, aw2, t2, b, cc2, aw2, t2, ring));
    }
    COMPARE("neighbor_alltoallw", form, 2 * K, f(nb[i / K], (1 - i / K) * K + i % K));
}

static void expect_count_error(int rc, const char *what)
{
    int cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_COUNT, "%s gave class %d, want MPI_ERR_COUNT (%s)", what, cls, msg);
    CHECK(strstr(msg, "INT_MAX") != NULL, "%s: message does not say why: %s", what, msg);
}

/* Vector collectives hold their counts in ints: beyond INT_MAX they refuse
 * (every rank, so nobody waits). */
static void too_large(MPI_Comm ring)
{
    MPI_Count big[MAXP];
    MPI_Aint bd[MAXP];
    MPI_Request r;
    for (int i = 0; i < size; i++) {
        big[i] = ccounts[i];
        bd[i] = cdispls[i];
    }
    big[size - 1] = (MPI_Count)INT_MAX + 1;
    expect_count_error(MPI_Allgatherv_c(S, K, MPI_INT, R[0], big, cdispls, MPI_INT, MPI_COMM_WORLD),
                       "MPI_Allgatherv_c");
    expect_count_error(MPI_Ialltoallv_c(S, ccounts, cdispls, MPI_INT, R[0], big, cdispls, MPI_INT,
                                        MPI_COMM_WORLD, &r),
                       "MPI_Ialltoallv_c");
    expect_count_error(MPI_Reduce_scatter_init_c(S, R[0], big, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                                 MPI_INFO_NULL, &r),
                       "MPI_Reduce_scatter_init_c");
    bd[0] = (MPI_Aint)INT_MAX + 4;
    expect_count_error(
        MPI_Alltoallw_c(S, ccounts, bd, types, R[0], ccounts, cwdispls, types, MPI_COMM_WORLD),
        "MPI_Alltoallw_c");
    MPI_Count nbig[2] = {K, (MPI_Count)INT_MAX * 2};
    MPI_Aint nd[2] = {0, K};
    expect_count_error(
        MPI_Neighbor_alltoallv_c(S, nbig, nd, MPI_INT, R[0], nbig, nd, MPI_INT, ring),
        "MPI_Neighbor_alltoallv_c");
    /* A negative large count is an ordinary count error. */
    int cls;
    MPI_Error_class(MPI_Bcast_c(S, (MPI_Count)-1, MPI_INT, 0, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_COUNT, "MPI_Bcast_c count -1 gave class %d", cls);
}

static void local_and_names(void)
{
    int in[K * 4], io[K * 4], io2[K * 4];
    MPI_Op op;
    CHECK_MPI(MPI_Op_create_c(sum_c, 0, &op));
    for (int i = 0; i < K * 4; i++) in[i] = io[i] = io2[i] = i;
    user_calls = 0;
    CHECK_MPI(MPI_Reduce_local_c(in, io, K * 4, MPI_INT, op));
    CHECK(user_calls == 1 && last_len == K * 4, "user op called %d times, last len %ld", user_calls,
          (long)last_len);
    CHECK_MPI(MPI_Reduce_local(in, io2, K * 4, MPI_INT, MPI_SUM));
    for (int i = 0; i < K * 4; i++)
        CHECK(io[i] == 2 * i && io2[i] == 2 * i, "reduce_local [%d]", i);
    int commute = -1;
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "commute %d", commute);
    CHECK_MPI(MPI_Op_free(&op));

    /* MPI-4.1: the null handles have names. */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_NULL, name, &len));
    CHECK(strcmp(name, "MPI_COMM_NULL") == 0 && len == 13, "comm null name '%s' %d", name, len);
    CHECK_MPI(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
    CHECK(strcmp(name, "MPI_DATATYPE_NULL") == 0 && len == 17, "type null name '%s' %d", name, len);
    int topo = -1;
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &topo));
    CHECK(topo == MPI_UNDEFINED, "Topo_test of MPI_COMM_WORLD gave %d", topo);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= MAXP, "at most %d ranks", MAXP);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int r = 0; r < size; r++) {
        icounts[r] = K;
        ccounts[r] = K;
        idispls[r] = r * K;
        cdispls[r] = r * K;
        wdispls[r] = r * K * (int)sizeof(int);
        cwdispls[r] = r * K * (MPI_Aint)sizeof(int);
        types[r] = MPI_INT;
    }
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    for (int form = 0; form < 3; form++) {
        rooted(form, MPI_COMM_WORLD);
        all(form, MPI_COMM_WORLD);
        neighbours(form, ring);
    }
    too_large(ring);
    local_and_names();
    CHECK_MPI(MPI_Comm_free(&ring));
    MPI_Finalize();
    if (rank == 0) printf("coll_largecount OK\n");
    return 0;
}
