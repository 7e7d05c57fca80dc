/* The world model and a session in one program, in every order:
 *   ARGS <first> <last>   first: "world" (MPI_Init before MPI_Session_init)
 *                          or "session"; last: which of MPI_Finalize and
 *                          MPI_Session_finalize comes last.
 * Both models' communicators work side by side; the one left after the
 * other's finalization still works; MPI_Initialized and MPI_Finalized
 * follow the world model alone; nothing is left in /dev/shm. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "tern_test.h"

static int flag_of(int (*fn)(int *))
{
    int f = -1;
    CHECK_MPI(fn(&f));
    return f;
}

static void check_sum(MPI_Comm c, const char *what)
{
    int rank, size;
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK_MPI(MPI_Comm_size(c, &size));
    int v = rank * 3 + 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == 3 * size * (size - 1) / 2 + size, "%s: allreduce %d", what, sum);
    /* point-to-point with the neighbours, values checked */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    CHECK_MPI(
        MPI_Sendrecv(&v, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, c, MPI_STATUS_IGNORE));
    CHECK(got == left * 3 + 1, "%s: from %d got %d", what, left, got);
}

static MPI_Comm session_comm(MPI_Session s)
{
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(
        MPI_Comm_create_from_group(g, "tern.test.mixed", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    return c;
}

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: session_mixed world|session world|session");
    int world_first = strcmp(argv[1], "world") == 0, world_last = strcmp(argv[2], "world") == 0;
    MPI_Session s;
    MPI_Comm sc;

    if (world_first) {
        CHECK_MPI(MPI_Init(&argc, &argv));
        CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    } else {
        CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
        CHECK(!flag_of(MPI_Initialized), "a session initialised the world model");
        CHECK_MPI(MPI_Init(&argc, &argv));
    }
    CHECK(flag_of(MPI_Initialized) && !flag_of(MPI_Finalized), "after both inits");
    sc = session_comm(s);
    check_sum(MPI_COMM_WORLD, "world");
    check_sum(sc, "session");
    int wr, sr;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_rank(sc, &sr);
    CHECK(wr == sr, "world rank %d, session rank %d", wr, sr);

    if (world_last) {
        CHECK_MPI(MPI_Comm_free(&sc));
        CHECK_MPI(MPI_Session_finalize(&s));
        check_sum(MPI_COMM_WORLD, "world after the session ended");
        CHECK(!flag_of(MPI_Finalized), "finalized by a session's end");
        CHECK_MPI(MPI_Finalize());
    } else {
        CHECK_MPI(MPI_Finalize());
        CHECK(flag_of(MPI_Initialized) && flag_of(MPI_Finalized), "after MPI_Finalize");
        check_sum(sc, "session after MPI_Finalize");
        CHECK_MPI(MPI_Comm_free(&sc));
        /* New communicators can still be made from the session. */
        sc = session_comm(s);
        check_sum(sc, "new session communicator after MPI_Finalize");
        CHECK_MPI(MPI_Comm_free(&sc));
        CHECK_MPI(MPI_Session_finalize(&s));
    }
    CHECK(flag_of(MPI_Initialized) && flag_of(MPI_Finalized), "at the end");

    const char *job = getenv("TERN_JOB_ID");
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "/dev/shm/tern-%s", job ? job : "?");
    CHECK(job && stat(path, &st) != 0 && errno == ENOENT, "%s is still there", path);
    if (wr == 0) printf("session_mixed %s-first %s-last passed\n", argv[1], argv[2]);
    return 0;
}
