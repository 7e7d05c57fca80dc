/* MPI_Comm_dup: isolation (the same tag on the dup does not match the
 * parent's message), MPI_Comm_compare, names, predefined attributes, the
 * inherited error handler, and a communicator freed with an operation
 * pending. */
#include <string.h>

#include "tern_test.h"

static int rank, size;

static void isolation(MPI_Comm dup)
{
    if (size < 2) return;
    /* Rank 0 sends on the dup first, then on world, same tag; rank 1
     * receives on world first: it must get the world message. */
    if (rank == 0) {
        int a = 111, b = 222;
        MPI_Request r[2];
        CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, 1, 7, dup, &r[0]));
        CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r[1]));
        MPI_Status st[2];
        CHECK_MPI(MPI_Waitall(2, r, st));
    } else if (rank == 1) {
        int x = 0, y = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        CHECK(x == 222, "world receive got %d (the dup's message leaked)", x);
        CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 7, dup, &st));
        CHECK(y == 111, "dup receive got %d", y);
    }
    /* A collective on one does not disturb the other. */
    int v = rank, s1 = 0, s2 = 0;
    CHECK_MPI(MPI_Allreduce(&v, &s1, 1, MPI_INT, MPI_SUM, dup));
    CHECK_MPI(MPI_Allreduce(&v, &s2, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK(s1 == size * (size - 1) / 2 && s2 == size - 1, "allreduce %d %d", s1, s2);
}

static void compare(MPI_Comm dup)
{
    int res;
    MPI_Comm rev, half;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_IDENT, "world/world: %d", res);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
    CHECK(res == MPI_CONGRUENT, "world/dup: %d", res);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &rev));
    CHECK_MPI(MPI_Comm_compare(rev, MPI_COMM_WORLD, &res));
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "reversed/world: %d", res);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    CHECK_MPI(MPI_Comm_compare(half, MPI_COMM_WORLD, &res));
    CHECK(res == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT), "half/world: %d", res);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &res));
    CHECK(res == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT), "self/world: %d", res);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
}

static void names_and_attrs(MPI_Comm dup)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len, flag, *val;
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world name '%s' %d", name, len);
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    CHECK(strcmp(name, "MPI_COMM_SELF") == 0, "self name '%s'", name);
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(len == 0 && name[0] == 0, "dup has a name '%s'", name);
    CHECK_MPI(MPI_Comm_set_name(dup, "my dup"));
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "my dup") == 0 && len == 6, "dup name '%s'", name);
    char longname[MPI_MAX_OBJECT_NAME + 50];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    CHECK_MPI(MPI_Comm_set_name(dup, longname));
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len, "long name kept %d chars",
          len);

    MPI_Comm comms[2] = {MPI_COMM_WORLD, dup};
    for (int i = 0; i < 2; i++) {
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_TAG_UB, &val, &flag));
        CHECK(flag && *val >= 32767, "MPI_TAG_UB flag %d value %d", flag, flag ? *val : 0);
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_HOST, &val, &flag));
        CHECK(flag && *val == MPI_PROC_NULL, "MPI_HOST");
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_IO, &val, &flag));
        CHECK(flag && (*val == MPI_ANY_SOURCE || (*val >= 0 && *val < size)), "MPI_IO");
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_WTIME_IS_GLOBAL, &val, &flag));
        CHECK(flag && (*val == 0 || *val == 1), "MPI_WTIME_IS_GLOBAL");
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_APPNUM, &val, &flag));
        CHECK(flag && *val == 0, "MPI_APPNUM flag %d", flag);
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_UNIVERSE_SIZE, &val, &flag));
        CHECK(flag && *val >= size, "MPI_UNIVERSE_SIZE");
    }
    int inter = -1;
    CHECK_MPI(MPI_Comm_test_inter(dup, &inter));
    CHECK(inter == 0, "test_inter %d", inter);
}

static void errhandler_inherited(void)
{
    MPI_Errhandler e;
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_get_errhandler(d, &e));
    CHECK(e == MPI_ERRORS_RETURN, "dup's handler 0x%x", (unsigned)e);
    CHECK_MPI(MPI_Errhandler_free(&e));
    CHECK(e == MPI_ERRHANDLER_NULL, "freed handler not NULL");
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* MPI_Comm_free with a receive pending: the receive still completes. */
static void free_pending(void)
{
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    if (size < 2) {
        MPI_Comm_free(&d);
        return;
    }
    int x = 0;
    if (rank == 1) {
        MPI_Request r;
        CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, 0, 3, d, &r));
        CHECK_MPI(MPI_Comm_free(&d));
        CHECK(d == MPI_COMM_NULL, "handle not reset");
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(x == 99, "pending receive got %d", x);
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            x = 99;
            CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 1, 3, d));
        }
        CHECK_MPI(MPI_Comm_free(&d));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup, dup2;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(dup != MPI_COMM_WORLD && dup != MPI_COMM_NULL, "dup handle");
    int dsize, drank;
    MPI_Comm_size(dup, &dsize);
    MPI_Comm_rank(dup, &drank);
    CHECK(dsize == size && drank == rank, "dup size/rank %d/%d", dsize, drank);
    isolation(dup);
    CHECK_MPI(MPI_Comm_dup(dup, &dup2)); /* dup of a dup */
    isolation(dup2);
    compare(dup);
    names_and_attrs(dup);
    errhandler_inherited();
    free_pending();
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
