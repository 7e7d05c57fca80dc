/* MPI_Comm_disconnect on communicators of this job: it waits for what is
 * still in flight on the communicator (sends and receives the user freed
 * with MPI_Request_free, large enough to need the receiver), then frees it
 * as MPI_Comm_free does (attribute delete callbacks, MPI_COMM_NULL); an
 * inactive persistent request does not hold it up; the predefined and null
 * communicators are refused with MPI_ERR_COMM.  Also the other answers a
 * job without dynamic processes gives: MPI_Comm_get_parent is
 * MPI_COMM_NULL, and MPI_WIN_NULL has a name while other window handles
 * are refused with MPI_ERR_WIN. */
#include <stdlib.h>
#include <string.h>

#include "tern_test.h"

#define BIG (1 << 20) /* beyond the eager limit: the send completes only when received */

static int deleted;

static int delete_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    deleted += *(int *)val;
    return MPI_SUCCESS;
}

static int err_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Freed requests in both directions of a ring, then disconnect: the data
 * must be in place when it returns. */
static void test_drain(MPI_Comm parent, int tagbase)
{
    MPI_Comm c;
    int rank, size;
    CHECK_MPI(MPI_Comm_dup(parent, &c));
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *out = malloc(BIG), *in = malloc(BIG), small_out = rank * 7, small_in = -1;
    for (int i = 0; i < BIG / 4; i++) {
        out[i] = rank * 1000003 + i;
        in[i] = -1;
    }
    MPI_Request r[4];
    CHECK_MPI(MPI_Irecv(in, BIG / 4, MPI_INT, left, tagbase, c, &r[0]));
    CHECK_MPI(MPI_Irecv(&small_in, 1, MPI_INT, left, tagbase + 1, c, &r[1]));
    CHECK_MPI(MPI_Isend(out, BIG / 4, MPI_INT, right, tagbase, c, &r[2]));
    CHECK_MPI(MPI_Isend(&small_out, 1, MPI_INT, right, tagbase + 1, c, &r[3]));
    for (int i = 0; i < 4; i++) CHECK_MPI(MPI_Request_free(&r[i]));

    /* an inactive persistent request holds nothing up */
    MPI_Request p;
    CHECK_MPI(MPI_Send_init(out, 1, MPI_INT, right, tagbase + 2, c, &p));

    int keyval, one = 1;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &keyval, NULL));
    CHECK_MPI(MPI_Comm_set_attr(c, keyval, &one));
    deleted = 0;
    MPI_Comm keep = c;
    CHECK_MPI(MPI_Comm_disconnect(&c));
    CHECK(c == MPI_COMM_NULL && deleted == 1, "after disconnect: handle 0x%x, delete callbacks %d",
          (unsigned)c, deleted);
    CHECK(small_in == left * 7, "small message %d, expected %d", small_in, left * 7);
    for (int i = 0; i < BIG / 4; i++)
        CHECK(in[i] == left * 1000003 + i, "element %d: %d, expected %d", i, in[i],
              left * 1000003 + i);
    int n;
    int rc = MPI_Comm_size(keep, &n);
    CHECK(err_class(rc) == MPI_ERR_COMM, "the disconnected handle still works: class %d",
          err_class(rc));
    CHECK_MPI(MPI_Request_free(&p));
    CHECK_MPI(MPI_Comm_free_keyval(&keyval));
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    test_drain(MPI_COMM_WORLD, 10);
    /* a part of the world: odd and even ranks */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    test_drain(half, 20);
    /* a communicator with nothing in flight */
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(half, &c));
    CHECK_MPI(MPI_Comm_disconnect(&c));
    CHECK(c == MPI_COMM_NULL, "handle 0x%x", (unsigned)c);
    CHECK_MPI(MPI_Comm_free(&half));

    MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF, nul = MPI_COMM_NULL;
    int rc = MPI_Comm_disconnect(&w);
    CHECK(err_class(rc) == MPI_ERR_COMM && w == MPI_COMM_WORLD, "MPI_COMM_WORLD: class %d",
          err_class(rc));
    rc = MPI_Comm_disconnect(&s);
    CHECK(err_class(rc) == MPI_ERR_COMM && s == MPI_COMM_SELF, "MPI_COMM_SELF: class %d",
          err_class(rc));
    rc = MPI_Comm_disconnect(&nul);
    CHECK(err_class(rc) == MPI_ERR_COMM, "MPI_COMM_NULL: class %d", err_class(rc));
    rc = MPI_Comm_disconnect(NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "NULL: class %d", err_class(rc));

    MPI_Comm parent = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL, "MPI_Comm_get_parent gave 0x%x, not MPI_COMM_NULL",
          (unsigned)parent);
    rc = MPI_Comm_get_parent(NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "MPI_Comm_get_parent(NULL): class %d", err_class(rc));

    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Win_get_name(MPI_WIN_NULL, name, &len));
    CHECK(len == 12 && !strcmp(name, "MPI_WIN_NULL"), "MPI_WIN_NULL's name: '%s' (%d)", name, len);
    rc = MPI_Win_get_name((MPI_Win)0xa0000001, name, &len);
    CHECK(err_class(rc) == MPI_ERR_WIN, "a bogus window's name: class %d", err_class(rc));
    rc = MPI_Win_set_name(MPI_WIN_NULL, "w");
    CHECK(err_class(rc) == MPI_ERR_WIN, "naming MPI_WIN_NULL: class %d", err_class(rc));

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("comm_disconnect: OK\n");
    MPI_Finalize();
    return 0;
}
