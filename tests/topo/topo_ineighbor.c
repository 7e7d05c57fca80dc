/* The nonblocking (MPI_Ineighbor_x) and persistent (MPI_Neighbor_x_init)
 * neighbourhood collectives on every topology of nbr_util.h: all five
 * outstanding at once next to a blocking one and completed in reverse
 * order; persistent requests started three times with new data, completed
 * by MPI_Waitall, MPI_Wait in reverse and MPI_Test.  Progress: a rank that
 * starts late while the others only call MPI_Test.  Errors: the classes and
 * messages of misuse, the info check of every persistent collective, and a
 * failed call taking no tag (the next call still matches). */
#include <unistd.h>

#include "nbr_util.h"

static const char *form_prefix(enum nbr_form f)
{
    return f == NBR_NONBLOCKING ? "MPI_Ineighbor_" : "MPI_Neighbor_";
}

/* The MPI name of one form of a collective. */
static void fname(char *buf, size_t n, enum nbr_kind k, enum nbr_form f)
{
    snprintf(buf, n, "%s%s%s", form_prefix(f), nbr_kind_name[k],
             f == NBR_PERSISTENT ? "_init" : "");
}

/* Five requests outstanding, a blocking call in between, completion in
 * reverse order of starting. */
static void nonblocking(const struct topo *t)
{
    struct nbr_op ops[NBR_KINDS], blocking;
    for (int k = 0; k < NBR_KINDS; k++) {
        nbr_fill(&ops[k], t, (enum nbr_kind)k, 1 + k);
        CHECK_MPI(nbr_call(&ops[k], NBR_NONBLOCKING, MPI_INFO_NULL));
        CHECK(ops[k].req != MPI_REQUEST_NULL, "no request");
    }
    nbr_fill(&blocking, t, NBR_ALLTOALLW, 7);
    CHECK_MPI(nbr_call(&blocking, NBR_BLOCKING, MPI_INFO_NULL));
    nbr_check(&blocking, "blocking among nonblocking");
    for (int k = NBR_KINDS - 1; k >= 0; k--) {
        CHECK_MPI(MPI_Wait(&ops[k].req, MPI_STATUS_IGNORE));
        CHECK(ops[k].req == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
        nbr_check(&ops[k], "nonblocking");
    }
}

/* Every persistent form, started three times with changing data. */
static void persistent(const struct topo *t, MPI_Info info)
{
    struct nbr_op ops[NBR_KINDS];
    MPI_Request reqs[NBR_KINDS];
    for (int k = 0; k < NBR_KINDS; k++) {
        nbr_fill(&ops[k], t, (enum nbr_kind)k, 0);
        /* Half with a real info object: keys are accepted and ignored. */
        CHECK_MPI(nbr_call(&ops[k], NBR_PERSISTENT, k % 2 ? info : MPI_INFO_NULL));
        /* Initialisation moves nothing. */
        CHECK(ops[k].rbuf[0] == UNTOUCHED && ops[k].rbuf[ops[k].len - 1] == UNTOUCHED,
              "%s: %s_init wrote the receive buffer", t->name, nbr_kind_name[k]);
    }
    for (int it = 0; it < 3; it++) {
        for (int k = 0; k < NBR_KINDS; k++) {
            nbr_fill(&ops[k], t, (enum nbr_kind)k, 10 * (it + 1) + k);
            reqs[k] = ops[k].req;
        }
        if (it == 0) {
            CHECK_MPI(MPI_Startall(NBR_KINDS, reqs));
            /* a successful Waitall leaves MPI_ERROR alone */
            MPI_Status st[NBR_KINDS];
            for (int k = 0; k < NBR_KINDS; k++) st[k].MPI_ERROR = -1;
            CHECK_MPI(MPI_Waitall(NBR_KINDS, reqs, st));
            for (int k = 0; k < NBR_KINDS; k++)
                CHECK(st[k].MPI_ERROR == -1, "status %d: error %d", k, st[k].MPI_ERROR);
        } else if (it == 1) {
            for (int k = 0; k < NBR_KINDS; k++) CHECK_MPI(MPI_Start(&reqs[k]));
            for (int k = NBR_KINDS - 1; k >= 0; k--)
                CHECK_MPI(MPI_Wait(&reqs[k], MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Startall(NBR_KINDS, reqs));
            for (int k = NBR_KINDS - 1; k >= 0; k--)
                for (int flag = 0; !flag;) CHECK_MPI(MPI_Test(&reqs[k], &flag, MPI_STATUS_IGNORE));
        }
        for (int k = 0; k < NBR_KINDS; k++) {
            CHECK(reqs[k] == ops[k].req, "completing a persistent request changed its handle");
            nbr_check(&ops[k], "persistent");
        }
    }
    for (int k = 0; k < NBR_KINDS; k++) {
        CHECK_MPI(MPI_Request_free(&ops[k].req));
        CHECK(ops[k].req == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    }
}

static MPI_Info user_info;

static void run(MPI_Comm comm, const char *name)
{
    struct topo t = {.comm = comm, .name = name};
    learn(&t);
    nonblocking(&t);
    persistent(&t, user_info);
    nonblocking(&t); /* after persistent requests were freed: nothing left over */
    free(t.all_out);
}

/* ---- progress: one rank starts late, the others only test ---- */

#define BIG (1 << 15) /* ints per block: past any eager limit */

static void test_until_done(MPI_Request *req, const char *what)
{
    double t0 = MPI_Wtime();
    int flag = 0;
    while (!flag) {
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        CHECK(MPI_Wtime() - t0 < 60, "%s did not complete by MPI_Test alone", what);
    }
}

static void overlap(void)
{
    MPI_Comm ring = nbr_cart(1, NULL, (int[]){1}, size);
    int left, right;
    CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &left, &right));
    int *sbuf = malloc(sizeof(int) * 2 * BIG), *rbuf = malloc(sizeof(int) * 2 * BIG);
    int late = size - 1;
    MPI_Request req;
    for (int pass = 0; pass < 2; pass++) { /* nonblocking, then persistent */
        for (int i = 0; i < 2 * BIG; i++) {
            sbuf[i] = val(pass, rank, i / BIG, i % BIG % 97);
            rbuf[i] = UNTOUCHED;
        }
        if (pass == 1)
            CHECK_MPI(MPI_Neighbor_alltoall_init(sbuf, BIG, MPI_INT, rbuf, BIG, MPI_INT, ring,
                                                 MPI_INFO_NULL, &req));
        if (rank == late) usleep(200 * 1000);
        if (pass == 0)
            CHECK_MPI(MPI_Ineighbor_alltoall(sbuf, BIG, MPI_INT, rbuf, BIG, MPI_INT, ring, &req));
        else
            CHECK_MPI(MPI_Start(&req));
        test_until_done(&req, pass ? "MPI_Neighbor_alltoall_init" : "MPI_Ineighbor_alltoall");
        /* Slot 0 is from the left neighbour, which sent its block 1 (+1
         * direction); slot 1 from the right, its block 0. */
        for (int i = 0; i < 2 * BIG; i++) {
            int from = i < BIG ? left : right, block = i < BIG ? 1 : 0;
            int want = val(pass, from, block, i % BIG % 97);
            CHECK(rbuf[i] == want, "overlap pass %d: rbuf[%d]=%d want %d", pass, i, rbuf[i], want);
        }
        if (pass == 1) CHECK_MPI(MPI_Request_free(&req));
    }
    free(sbuf);
    free(rbuf);
    MPI_Comm_free(&ring);
}

/* ---- errors ---- */

static void errors(void)
{
    char fn[64];
    MPI_Info freed, bogus = (MPI_Info)0x12345678;
    CHECK_MPI(MPI_Info_create(&freed));
    MPI_Info dead = freed;
    CHECK_MPI(MPI_Info_free(&freed));

    /* A communicator without topology, MPI_COMM_NULL. */
    struct topo none = {.comm = MPI_COMM_WORLD, .name = "no topology"};
    struct topo null = {.comm = MPI_COMM_NULL, .name = "null"};
    struct nbr_op op;
    for (int k = 0; k < NBR_KINDS; k++)
        for (int f = NBR_NONBLOCKING; f <= NBR_PERSISTENT; f++) {
            fname(fn, sizeof fn, (enum nbr_kind)k, (enum nbr_form)f);
            nbr_fill(&op, &none, (enum nbr_kind)k, 0);
            op.req = MPI_REQUEST_NULL;
            EXPECT_ERR(nbr_call(&op, (enum nbr_form)f, MPI_INFO_NULL), MPI_ERR_TOPOLOGY, fn);
            CHECK(op.req == MPI_REQUEST_NULL, "%s made a request on failure", fn);
            nbr_fill(&op, &null, (enum nbr_kind)k, 0);
            EXPECT_ERR(nbr_call(&op, (enum nbr_form)f, MPI_INFO_NULL), MPI_ERR_COMM, fn);
        }

    /* A ring of one: every form, request NULL; the persistent forms, a bad
     * info. */
    MPI_Comm ring;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_SELF, 1, (int[]){1}, (int[]){1}, 0, &ring));
    CHECK_MPI(MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN));
    struct topo one = {.comm = ring, .cart = 1, .indeg = 2, .outdeg = 2, .name = "ring of one"};
    for (int k = 0; k < NBR_KINDS; k++) {
        nbr_fill(&op, &one, (enum nbr_kind)k, 0);
        op.null_request = 1;
        for (int f = NBR_NONBLOCKING; f <= NBR_PERSISTENT; f++) {
            fname(fn, sizeof fn, (enum nbr_kind)k, (enum nbr_form)f);
            int e = nbr_call(&op, (enum nbr_form)f, MPI_INFO_NULL);
            EXPECT_ERR(e, MPI_ERR_ARG, "request");
            EXPECT_ERR(e, MPI_ERR_ARG, fn);
        }
        op.null_request = 0;
        op.req = MPI_REQUEST_NULL;
        EXPECT_ERR(nbr_call(&op, NBR_PERSISTENT, bogus), MPI_ERR_INFO, "info");
        EXPECT_ERR(nbr_call(&op, NBR_PERSISTENT, dead), MPI_ERR_INFO, fn);
        CHECK(op.req == MPI_REQUEST_NULL, "%s made a request on failure", fn);
    }
    /* The argument checks of the blocking forms, in the other forms. */
    int x[8] = {0};
    MPI_Request r = MPI_REQUEST_NULL;
    EXPECT_ERR(MPI_Ineighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, x, 1, MPI_INT, ring, &r),
               MPI_ERR_BUFFER, "MPI_IN_PLACE");
    EXPECT_ERR(MPI_Neighbor_allgather_init(x, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, ring,
                                           MPI_INFO_NULL, &r),
               MPI_ERR_BUFFER, "recvbuf");
    EXPECT_ERR(MPI_Ineighbor_alltoall(x, -1, MPI_INT, x + 4, 1, MPI_INT, ring, &r), MPI_ERR_COUNT,
               "sendcount");
    EXPECT_ERR(MPI_Neighbor_alltoall_init(x, 1, MPI_INT, x + 4, 1, MPI_DATATYPE_NULL, ring,
                                          MPI_INFO_NULL, &r),
               MPI_ERR_TYPE, "recvtype");
    int neg[2] = {1, -1}, ones[2] = {1, 1}, disp[2] = {0, 1};
    EXPECT_ERR(MPI_Ineighbor_alltoallv(x, ones, disp, MPI_INT, x + 4, neg, disp, MPI_INT, ring, &r),
               MPI_ERR_COUNT, "recvcounts[1]");
    EXPECT_ERR(MPI_Neighbor_allgatherv_init(x, 1, MPI_INT, x + 4, NULL, disp, MPI_INT, ring,
                                            MPI_INFO_NULL, &r),
               MPI_ERR_ARG, "recvcounts");
    MPI_Aint ad[2] = {0, 4};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT}, nt[2] = {MPI_INT, MPI_DATATYPE_NULL};
    EXPECT_ERR(MPI_Ineighbor_alltoallw(x, ones, ad, nt, x + 4, ones, ad, ty, ring, &r),
               MPI_ERR_TYPE, "sendtypes[1]");
    EXPECT_ERR(
        MPI_Neighbor_alltoallw_init(x, ones, ad, ty, x + 4, ones, ad, nt, ring, MPI_INFO_NULL, &r),
        MPI_ERR_TYPE, "recvtypes[1]");
    CHECK(r == MPI_REQUEST_NULL, "a failed call made a request");
    /* A ring of one: both neighbours are me, by direction. */
    int s2[2] = {10, 20}, r2[2] = {0, 0};
    CHECK_MPI(MPI_Ineighbor_alltoall(s2, 1, MPI_INT, r2, 1, MPI_INT, ring, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(r2[0] == 20 && r2[1] == 10, "ring of one: got %d %d want 20 10", r2[0], r2[1]);
    MPI_Comm_free(&ring);

    /* Every persistent collective checks its info. */
    int b = 0;
    EXPECT_ERR(MPI_Barrier_init(MPI_COMM_WORLD, bogus, &r), MPI_ERR_INFO, "MPI_Barrier_init");
    EXPECT_ERR(MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, dead, &r), MPI_ERR_INFO, "info");
    EXPECT_ERR(MPI_Allreduce_init(x, x + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, bogus, &r),
               MPI_ERR_INFO, "MPI_Allreduce_init");
    EXPECT_ERR(
        MPI_Alltoallw_init(x, ones, disp, ty, x + 4, ones, disp, ty, MPI_COMM_WORLD, dead, &r),
        MPI_ERR_INFO, "MPI_Alltoallw_init");
    EXPECT_ERR(MPI_Exscan_init(x, x + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, bogus, &r),
               MPI_ERR_COMM, "MPI_Exscan_init"); /* the communicator first */
    CHECK(r == MPI_REQUEST_NULL, "a failed call made a request");
    b = rank == 0 ? 42 : 0;
    CHECK_MPI(MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, user_info, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(b == 42, "MPI_Bcast_init with an info: got %d", b);
    CHECK_MPI(MPI_Request_free(&r));
}

/* Calls that fail at one rank only take no collective tag there: the next
 * calls still match the other ranks'. */
static void failed_calls_take_no_tag(void)
{
    MPI_Comm ring = nbr_cart(1, NULL, (int[]){1}, size);
    CHECK_MPI(MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN));
    struct topo t = {.comm = ring, .name = "ring after failures"};
    learn(&t);
    struct nbr_op op;
    MPI_Request r;
    if (rank == 0) {
        int x[4] = {0};
        EXPECT_ERR(MPI_Ineighbor_alltoall(x, -1, MPI_INT, x, 1, MPI_INT, ring, &r), MPI_ERR_COUNT,
                   "sendcount");
        EXPECT_ERR(
            MPI_Neighbor_allgather_init(x, 1, MPI_INT, x, 1, MPI_INT, ring, MPI_INFO_NULL, NULL),
            MPI_ERR_ARG, "request");
        EXPECT_ERR(MPI_Neighbor_alltoall(x, 1, MPI_INT, x, -1, MPI_INT, ring), MPI_ERR_COUNT,
                   "recvcount");
    }
    for (int f = NBR_BLOCKING; f <= NBR_PERSISTENT; f++) {
        nbr_fill(&op, &t, NBR_ALLTOALLV, 50 + f);
        CHECK_MPI(nbr_call(&op, (enum nbr_form)f, MPI_INFO_NULL));
        if (f == NBR_PERSISTENT) CHECK_MPI(MPI_Start(&op.req));
        if (f != NBR_BLOCKING) CHECK_MPI(MPI_Wait(&op.req, MPI_STATUS_IGNORE));
        if (f == NBR_PERSISTENT) CHECK_MPI(MPI_Request_free(&op.req));
        nbr_check(&op, "after failed calls");
    }
    free(t.all_out);
    MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    nbr_init();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Info_create(&user_info));
    CHECK_MPI(MPI_Info_set(user_info, "mpi_assert_no_any_tag", "true"));

    nbr_for_each_topology(run);
    overlap();
    errors();
    failed_calls_take_no_tag();

    CHECK_MPI(MPI_Info_free(&user_info));
    MPI_Type_free(&nbr_pair);
    MPI_Finalize();
    return 0;
}
