/* Partitioned communication around a ring (rank r sends to r+1), on
 * MPI_COMM_WORLD and on a duplicate: each case restarts its pair of
 * requests 10 times with new data, marks partitions ready in reverse or
 * shuffled order, and polls MPI_Parrived, checking each receive partition's
 * data as soon as it says the partition is there.  The two sides cut the
 * buffer differently (counts, datatypes, derived types with gaps, send
 * partitions that split receive elements), and empty messages and zero
 * partitions are covered.  Then: early-bird delivery (a receive partition
 * arrives while the sender still holds the others back), matching in
 * initialisation order whatever the start order, MPI_PROC_NULL, and a
 * wildcard user receive that must see none of the partitioned traffic. */
#include <stdlib.h>

#include "part_util.h"

#define ROUNDS 10

enum order { IN_ORDER, REVERSE, SHUFFLED, BY_LIST, BY_RANGE };

struct tcase {
    const char *name;
    struct pu_side s, r;
    enum order order;
};

static int rank, size, dest, src;
static MPI_Comm ackcomm; /* user messages of the tests, away from the wildcard receive */

static void ready_all(MPI_Request sreq, int parts, enum order order, unsigned seed)
{
    int *ord = malloc(sizeof(int) * (size_t)(parts ? parts : 1));
    pu_shuffle(ord, parts, seed);
    if (order == BY_LIST) {
        CHECK_MPI(MPI_Pready_list(parts / 2, ord, sreq));
        CHECK_MPI(MPI_Pready_list(parts - parts / 2, ord + parts / 2, sreq));
    } else if (order == BY_RANGE) {
        if (parts > 1) CHECK_MPI(MPI_Pready_range(parts / 2, parts - 1, sreq));
        if (parts > 0) CHECK_MPI(MPI_Pready_range(0, parts > 1 ? parts / 2 - 1 : 0, sreq));
    } else {
        for (int i = 0; i < parts; i++)
            CHECK_MPI(MPI_Pready(order == IN_ORDER  ? i
                                 : order == REVERSE ? parts - 1 - i
                                                    : ord[i],
                                 sreq));
    }
    free(ord);
}

static void run_case(const struct tcase *tc, MPI_Comm comm, int tag)
{
    int *sbuf = malloc(sizeof(int) * (pu_ints(&tc->s) + 1));
    int *rbuf = malloc(sizeof(int) * (pu_ints(&tc->r) + 1));
    int *seen = calloc((size_t)tc->r.parts + 1, sizeof(int));
    MPI_Request sreq, rreq;
    CHECK_MPI(MPI_Precv_init(rbuf, tc->r.parts, tc->r.count, tc->r.type, src, tag, comm,
                             MPI_INFO_NULL, &rreq));
    CHECK_MPI(MPI_Psend_init(sbuf, tc->s.parts, tc->s.count, tc->s.type, dest, tag, comm,
                             MPI_INFO_NULL, &sreq));
    size_t bytes = (size_t)tc->r.parts * (size_t)tc->r.count * (size_t)tc->r.nint * sizeof(int);
    for (int round = 0; round < ROUNDS; round++) {
        pu_fill(&tc->s, sbuf, round, rank, PU_HOLE_SEND);
        pu_fill(&tc->r, rbuf, round, -1, PU_HOLE_RECV);
        MPI_Request both[2] = {rreq, sreq};
        CHECK_MPI(MPI_Startall(2, both));
        ready_all(sreq, tc->s.parts, tc->order, (unsigned)(round * 31 + rank));
        /* Poll until every receive partition is there, checking each the
         * moment MPI_Parrived says so. */
        int left = tc->r.parts;
        for (int p = 0; p < tc->r.parts; p++) seen[p] = 0;
        while (left) {
            for (int p = 0; p < tc->r.parts; p++) {
                if (seen[p]) continue;
                int flag = 0;
                CHECK_MPI(MPI_Parrived(rreq, p, &flag));
                if (!flag) continue;
                pu_check_parts(&tc->r, rbuf, p, p + 1, round, src, tc->name);
                seen[p] = 1;
                left--;
            }
        }
        MPI_Status st[2];
        CHECK_MPI(MPI_Waitall(2, both, st));
        CHECK(both[0] == rreq && both[1] == sreq, "%s: persistent handles changed", tc->name);
        int n = -1;
        CHECK_MPI(MPI_Get_count(&st[0], MPI_BYTE, &n));
        CHECK(st[0].MPI_SOURCE == src && st[0].MPI_TAG == tag && (size_t)n == bytes,
              "%s: receive status source %d tag %d count %d, want %d %d %zu", tc->name,
              st[0].MPI_SOURCE, st[0].MPI_TAG, n, src, tag, bytes);
        pu_check_parts(&tc->r, rbuf, 0, tc->r.parts, round, src, tc->name);
        pu_check_holes(&tc->r, rbuf, tc->name);
        /* Inactive again: MPI-4.1 says Parrived answers true. */
        for (int p = 0; p < tc->r.parts; p++) {
            int flag = 0;
            CHECK_MPI(MPI_Parrived(rreq, p, &flag));
            CHECK(flag, "%s: Parrived(%d) on the inactive request is false", tc->name, p);
        }
    }
    CHECK_MPI(MPI_Request_free(&sreq));
    CHECK_MPI(MPI_Request_free(&rreq));
    CHECK(sreq == MPI_REQUEST_NULL && rreq == MPI_REQUEST_NULL, "%s: free left a handle", tc->name);
    free(sbuf);
    free(rbuf);
    free(seen);
}

/* The receiver sees partition 0 while the sender still holds the others:
 * the sender readies them only after the receiver said so. */
static void early_bird(MPI_Comm comm)
{
    enum { P = 4, N = 1000 };
    int *sbuf = calloc(P * N, sizeof(int)), *rbuf = calloc(P * N, sizeof(int));
    struct pu_side side = {P, N, MPI_INT, 1, 1, (const int[]){0}};
    MPI_Request sreq, rreq;
    CHECK_MPI(MPI_Psend_init(sbuf, P, N, MPI_INT, dest, 50, comm, MPI_INFO_NULL, &sreq));
    CHECK_MPI(MPI_Precv_init(rbuf, P, N, MPI_INT, src, 50, comm, MPI_INFO_NULL, &rreq));
    for (int round = 0; round < 3; round++) {
        pu_fill(&side, sbuf, round, rank, PU_HOLE_SEND);
        pu_fill(&side, rbuf, round, -1, PU_HOLE_RECV);
        CHECK_MPI(MPI_Start(&rreq));
        CHECK_MPI(MPI_Start(&sreq));
        CHECK_MPI(MPI_Pready(0, sreq));
        int flag = 0;
        while (!flag) CHECK_MPI(MPI_Parrived(rreq, 0, &flag));
        pu_check_parts(&side, rbuf, 0, 1, round, src, "early-bird");
        for (int p = 1; p < P; p++) {
            CHECK_MPI(MPI_Parrived(rreq, p, &flag));
            CHECK(!flag, "early-bird: partition %d arrived before its sender readied it", p);
            CHECK(rbuf[p * N] == PU_HOLE_RECV, "early-bird: partition %d written early", p);
        }
        int ack = round, got = -1;
        CHECK_MPI(MPI_Sendrecv(&ack, 1, MPI_INT, src, 51, &got, 1, MPI_INT, dest, 51, ackcomm,
                               MPI_STATUS_IGNORE));
        CHECK(got == round, "early-bird: ack %d", got);
        CHECK_MPI(MPI_Pready_range(1, P - 1, sreq));
        CHECK_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        pu_check_parts(&side, rbuf, 0, P, round, src, "early-bird");
    }
    CHECK_MPI(MPI_Request_free(&sreq));
    CHECK_MPI(MPI_Request_free(&rreq));
    free(sbuf);
    free(rbuf);
}

/* Two pairs with one envelope pair by initialisation order (MPI-4.1),
 * though each side starts them the other way round.  Their partitionings
 * differ, so a wrong pairing would show. */
static void init_order(MPI_Comm comm)
{
    int a[6] = {0}, b[6] = {0}, x[6] = {0}, y[6] = {0};
    MPI_Request sa, sb, rx, ry;
    CHECK_MPI(MPI_Psend_init(a, 2, 3, MPI_INT, dest, 60, comm, MPI_INFO_NULL, &sa));
    CHECK_MPI(MPI_Precv_init(x, 1, 6, MPI_INT, src, 60, comm, MPI_INFO_NULL, &rx));
    CHECK_MPI(MPI_Psend_init(b, 3, 2, MPI_INT, dest, 60, comm, MPI_INFO_NULL, &sb));
    CHECK_MPI(MPI_Precv_init(y, 6, 1, MPI_INT, src, 60, comm, MPI_INFO_NULL, &ry));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 6; i++) {
            a[i] = 1000 * rank + 10 * round + i;
            b[i] = -(1000 * rank + 10 * round + i) - 1;
            x[i] = y[i] = 0;
        }
        CHECK_MPI(MPI_Start(&sb));
        CHECK_MPI(MPI_Start(&ry));
        CHECK_MPI(MPI_Pready_range(0, 2, sb));
        CHECK_MPI(MPI_Start(&rx));
        CHECK_MPI(MPI_Start(&sa));
        CHECK_MPI(MPI_Pready_list(2, (const int[]){1, 0}, sa));
        MPI_Request all[4] = {sa, sb, rx, ry};
        CHECK_MPI(MPI_Waitall(4, all, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 6; i++) {
            CHECK(x[i] == 1000 * src + 10 * round + i,
                  "init order: x[%d]=%d: paired with the wrong send", i, x[i]);
            CHECK(y[i] == -(1000 * src + 10 * round + i) - 1, "init order: y[%d]=%d", i, y[i]);
        }
    }
    MPI_Request all[4] = {sa, sb, rx, ry};
    for (int i = 0; i < 4; i++) CHECK_MPI(MPI_Request_free(&all[i]));
}

static void proc_null(void)
{
    int buf[4] = {1, 2, 3, 4};
    MPI_Request s, r;
    MPI_Status st;
    CHECK_MPI(
        MPI_Psend_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(
        MPI_Precv_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < 2; round++) {
        CHECK_MPI(MPI_Start(&s));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Pready_range(0, 1, s));
        int flag = 0;
        CHECK_MPI(MPI_Parrived(r, 1, &flag));
        CHECK(flag, "PROC_NULL: Parrived false");
        CHECK_MPI(MPI_Wait(&r, &st));
        int n = -1;
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0,
              "PROC_NULL status %d %d %d", st.MPI_SOURCE, st.MPI_TAG, n);
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    }
    CHECK(buf[0] == 1 && buf[3] == 4, "PROC_NULL receive wrote its buffer");
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dest = (rank + 1) % size;
    src = (rank + size - 1) % size;

    /* A wildcard receive posted first: partitioned messages must never
     * satisfy it. */
    int wild = -1;
    MPI_Request wreq;
    CHECK_MPI(MPI_Irecv(&wild, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &wreq));

    MPI_Datatype vec3, rv, c4, t;
    MPI_Type_vector(3, 1, 2, MPI_INT, &t); /* 3 ints, stride 2: extent 5, resized to 6 */
    MPI_Type_create_resized(t, 0, 6 * (MPI_Aint)sizeof(int), &vec3);
    MPI_Type_free(&t);
    MPI_Type_vector(2, 1, 2, MPI_INT, &t); /* 2 ints at 0 and 2, extent 4 */
    MPI_Type_create_resized(t, 0, 4 * (MPI_Aint)sizeof(int), &rv);
    MPI_Type_free(&t);
    MPI_Type_contiguous(4, MPI_INT, &c4);
    MPI_Type_commit(&vec3);
    MPI_Type_commit(&rv);
    MPI_Type_commit(&c4);
    static const int d_int[] = {0}, d_vec3[] = {0, 2, 4}, d_rv[] = {0, 2}, d_c4[] = {0, 1, 2, 3};
#define INT_(p, c)                 \
    {                              \
        p, c, MPI_INT, 1, 1, d_int \
    }
#define VEC3(p, c)               \
    {                            \
        p, c, vec3, 3, 6, d_vec3 \
    }
#define RV(p, c)             \
    {                        \
        p, c, rv, 2, 4, d_rv \
    }
#define C4(p, c)             \
    {                        \
        p, c, c4, 4, 4, d_c4 \
    }
    const struct tcase cases[] = {
        {"same", INT_(8, 5), INT_(8, 5), REVERSE},
        {"diffcount", INT_(6, 8), INT_(4, 12), SHUFFLED},
        {"fewer-sends", INT_(2, 12), INT_(8, 3), IN_ORDER},
        {"staging", INT_(4, 3), C4(3, 1), SHUFFLED},
        {"derived", VEC3(4, 2), RV(3, 4), REVERSE},
        {"derived-staging", INT_(8, 3), RV(4, 3), SHUFFLED},
        {"list", INT_(7, 2), INT_(2, 7), BY_LIST},
        {"range", RV(6, 1), INT_(3, 4), BY_RANGE},
        {"large", INT_(4, 32768), INT_(2, 65536), SHUFFLED},
        {"large-derived", VEC3(3, 8000), INT_(5, 14400), REVERSE},
        {"zero-count", INT_(3, 0), INT_(2, 0), SHUFFLED},
        {"zero-partitions", INT_(0, 4), INT_(0, 9), IN_ORDER},
        {"one", INT_(1, 1), INT_(1, 1), IN_ORDER},
    };
    int ncases = (int)(sizeof cases / sizeof cases[0]);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    ackcomm = dup;
    for (int k = 0; k < ncases; k++) {
        run_case(&cases[k], MPI_COMM_WORLD, k);
        run_case(&cases[k], dup, 7); /* one tag for all: init order pairs them */
    }
    early_bird(MPI_COMM_WORLD);
    early_bird(dup);
    init_order(MPI_COMM_WORLD);
    proc_null();

    /* Now the wildcard receive gets the one user message. */
    int flag = 1;
    MPI_Test(&wreq, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "a wildcard user receive matched partitioned traffic (got %d)", wild);
    int v = 4242 + rank;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 3, MPI_COMM_WORLD));
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&wreq, &st));
    CHECK(wild == v && st.MPI_TAG == 3 && st.MPI_SOURCE == rank, "wildcard got %d tag %d", wild,
          st.MPI_TAG);

    MPI_Comm_free(&dup);
    MPI_Type_free(&vec3);
    MPI_Type_free(&rv);
    MPI_Type_free(&c4);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("part_basic: %d cases x 2 communicators x %d rounds on %d ranks: OK\n", ncases,
               ROUNDS, size);
    MPI_Finalize();
    return 0;
}
