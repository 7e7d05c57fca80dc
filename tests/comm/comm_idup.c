/* MPI_Comm_idup and MPI_Comm_idup_with_info are nonblocking: a rank that
 * has started one goes on using the parent before the others have called
 * it (the context ids are agreed in the background).  Also: several idups
 * outstanding at once completed in reverse order, interleaved with a
 * blocking dup and a nonblocking collective on the parent, idups of an
 * intercommunicator and of a communicator from MPI_Comm_create_group, the
 * hints of idup_with_info, and attributes copied as at the call. */
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

static int rank, size;

/* nc is a working copy of parent: congruent, isolated from it and from
 * 'other' (MPI_COMM_NULL: none), and a collective runs on it. */
static void works(MPI_Comm parent, MPI_Comm nc, MPI_Comm other, const char *what)
{
    int res, r, n, inter;
    CHECK(nc != MPI_COMM_NULL, "%s: MPI_COMM_NULL", what);
    CHECK_MPI(MPI_Comm_compare(parent, nc, &res));
    CHECK(res == MPI_CONGRUENT, "%s: compare with the parent gives %d", what, res);
    CHECK_MPI(MPI_Comm_test_inter(nc, &inter));
    CHECK_MPI(MPI_Comm_rank(nc, &r));
    CHECK_MPI(inter ? MPI_Comm_remote_size(nc, &n) : MPI_Comm_size(nc, &n));
    /* Every rank sends to a partner on the parent, on 'other' and on nc,
     * same tag; receiving in the opposite order must still give each its
     * own.  Partners: the right neighbour, or on an intercommunicator the
     * remote rank of the same number, when there is one. */
    int to = (r + 1) % n, from = (r - 1 + n) % n;
    if (inter) to = from = r < n ? r : MPI_PROC_NULL;
    int a = 1000 + r, b = 2000 + r, cc = 3000 + r, x = -1, y = -1, z = -1;
    MPI_Request q[3];
    int nq = 0;
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, to, 5, parent, &q[nq++]));
    if (other != MPI_COMM_NULL) CHECK_MPI(MPI_Isend(&cc, 1, MPI_INT, to, 5, other, &q[nq++]));
    CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, to, 5, nc, &q[nq++]));
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, from, 5, nc, MPI_STATUS_IGNORE));
    if (other != MPI_COMM_NULL)
        CHECK_MPI(MPI_Recv(&z, 1, MPI_INT, from, 5, other, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, from, 5, parent, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Waitall(nq, q, (MPI_Status[5]){0}));
    if (from != MPI_PROC_NULL) {
        CHECK(y == 2000 + from, "%s: received %d on the new communicator, want %d", what, y,
              2000 + from);
        CHECK(x == 1000 + from, "%s: received %d on the parent, want %d", what, x, 1000 + from);
        if (other != MPI_COMM_NULL)
            CHECK(z == 3000 + from, "%s: received %d on the other copy, want %d", what, z,
                  3000 + from);
    }
    int one = 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, nc));
    CHECK(sum == n, "%s: allreduce gives %d, want %d", what, sum, n);
}

/* The case: rank 0 starts the idup then sends on the parent to
 * rank 1, which receives that message before it calls idup. */
static void send_after_idup(void)
{
    MPI_Comm nc = MPI_COMM_NULL;
    MPI_Request req;
    int v = -1;
    if (rank == 0) {
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &nc, &req));
        v = 42;
        if (size > 1) CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
    } else {
        if (rank == 1) {
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == 42, "received %d before idup", v);
        }
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &nc, &req));
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL, "the request is not freed by its completion");
    works(MPI_COMM_WORLD, nc, MPI_COMM_NULL, "idup with a send before the peers call it");
    CHECK_MPI(MPI_Comm_free(&nc));
}

/* Four idups of world outstanding with a blocking dup of world and an
 * ibarrier between them, completed in reverse order. */
static void many_outstanding(void)
{
    MPI_Comm nc[4], d;
    MPI_Request q[5];
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &nc[0], &q[4]));
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &nc[1], &q[3]));
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &q[2]));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &nc[2], &q[1]));
    CHECK_MPI(MPI_Comm_idup(d, &nc[3], &q[0]));
    CHECK_MPI(MPI_Waitall(5, q, (MPI_Status[5]){0}));
    for (int i = 0; i < 4; i++) {
        char what[64];
        snprintf(what, sizeof what, "outstanding idup %d", i);
        works(i == 3 ? d : MPI_COMM_WORLD, nc[i], i == 3 ? MPI_COMM_WORLD : nc[(i + 1) % 3], what);
    }
    works(MPI_COMM_WORLD, d, nc[0], "dup among idups");
    for (int i = 0; i < 4; i++) CHECK_MPI(MPI_Comm_free(&nc[i]));
    CHECK_MPI(MPI_Comm_free(&d));
}

/* Idups of two communicators that share ranks, started in opposite orders
 * on odd and even ranks (legal: they are different communicators). */
static void crossed_parents(void)
{
    MPI_Comm a, b, na, nb;
    MPI_Request q[2];
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &b));
    if (rank % 2) {
        CHECK_MPI(MPI_Comm_idup(a, &na, &q[0]));
        CHECK_MPI(MPI_Comm_idup(b, &nb, &q[1]));
    } else {
        CHECK_MPI(MPI_Comm_idup(b, &nb, &q[1]));
        CHECK_MPI(MPI_Comm_idup(a, &na, &q[0]));
    }
    CHECK_MPI(MPI_Waitall(2, q, (MPI_Status[5]){0}));
    works(a, na, nb, "idup of a, crossed");
    works(b, nb, na, "idup of b, crossed");
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    MPI_Comm_free(&na);
    MPI_Comm_free(&nb);
}

static void of_intercomm(void)
{
    if (size < 2) return;
    int side = rank >= size / 2;
    MPI_Comm local, ic, nc;
    MPI_Request req;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : size / 2, 4, &ic));
    /* Side 0 starts the idup and sends to side 1, which receives first. */
    int v = -1, lr;
    MPI_Comm_rank(ic, &lr);
    if (side == 0) {
        CHECK_MPI(MPI_Comm_idup(ic, &nc, &req));
        if (lr == 0) CHECK_MPI(MPI_Send(&lr, 1, MPI_INT, 0, 6, ic));
    } else {
        if (lr == 0) CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 6, ic, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_idup(ic, &nc, &req));
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    int inter = 0;
    CHECK_MPI(MPI_Comm_test_inter(nc, &inter));
    CHECK(inter, "idup of an intercommunicator is not one");
    works(ic, nc, MPI_COMM_NULL, "idup of an intercommunicator");
    MPI_Comm_free(&nc);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
}

/* A communicator from MPI_Comm_create_group over the even ranks: only they
 * take part, while the odd ranks go on with messages among themselves. */
static void of_create_group(void)
{
    MPI_Group wg, eg;
    MPI_Comm g = MPI_COMM_NULL, nc;
    MPI_Request req;
    int n = (size + 1) / 2, *ranks = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) ranks[i] = 2 * i;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n, ranks, &eg);
    free(ranks);
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, eg, 8, &g));
        CHECK_MPI(MPI_Comm_idup(g, &nc, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        works(g, nc, MPI_COMM_NULL, "idup of a create_group communicator");
        MPI_Comm_free(&nc);
        MPI_Comm_free(&g);
    }
    MPI_Group_free(&eg);
    MPI_Group_free(&wg);
}

static int copies;
static int copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)key;
    (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* The hints of the info argument, and attributes as they were at the call. */
static void with_info(void)
{
    MPI_Info info;
    MPI_Comm nc;
    MPI_Request req;
    int key, flag = 0, len;
    static int before = 1, after = 2;
    void *val;
    char buf[64];
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &before));
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    copies = 0;
    CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &nc, &req));
    CHECK(copies == 1, "the copy callback ran %d times at the call, want 1", copies);
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &after));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(copies == 1, "the copy callback ran %d times, want 1", copies);
    CHECK_MPI(MPI_Comm_get_attr(nc, key, &val, &flag));
    CHECK(flag && val == &before,
          "the attribute of the idup is %p (flag %d), want the value at the call", val, flag);
    CHECK_MPI(MPI_Comm_get_info(nc, &info));
    CHECK_MPI(MPI_Info_get_string(info, "mpi_assert_no_any_tag", &(int){sizeof buf}, buf, &flag));
    CHECK(flag && !strcmp(buf, "true"), "mpi_assert_no_any_tag is %s on the new communicator",
          flag ? buf : "(unset)");
    MPI_Info_free(&info);
    (void)len;
    works(MPI_COMM_WORLD, nc, MPI_COMM_NULL, "idup_with_info");
    MPI_Comm_free(&nc);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    MPI_Comm_free_keyval(&key);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    send_after_idup();
    many_outstanding();
    crossed_parents();
    of_intercomm();
    of_create_group();
    with_info();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0) printf("OK comm_idup\n");
    return 0;
}
