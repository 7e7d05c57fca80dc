/* A program that never calls MPI_Init: everything through sessions.
 * Process sets and their info, a communicator made from mpi://WORLD with
 * collectives and point-to-point on it, a second session at the same time,
 * session error handlers, and what is left after the last session ends
 * (no shared memory; the runtime cannot start again, and says why).
 *
 * ARGS: "all" (default) or "fatal": an error on a session with the default
 * handler must end the job with the message (checked by the CMake test). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tern_test.h"

static int handler_calls, handler_code;
static MPI_Session handler_session;

static void on_error(MPI_Session *s, int *code, ...)
{
    handler_calls++;
    handler_session = *s;
    handler_code = *code;
}

static int err_class(int code)
{
    int c = -1;
    MPI_Error_class(code, &c);
    return c;
}

static void check_psets(MPI_Session s, int size)
{
    int n = -1;
    CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n == 2, "num_psets %d", n);
    int seen_world = 0, seen_self = 0;
    for (int i = 0; i < n; i++) {
        int len = 0;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        char name[MPI_MAX_PSET_NAME_LEN];
        CHECK(len > 1 && len <= (int)sizeof name, "length %d", len);
        int len2 = len;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len2, name));
        CHECK((int)strlen(name) == len - 1, "name '%s' length %d", name, len);
        seen_world += strcmp(name, "mpi://WORLD") == 0;
        seen_self += strcmp(name, "mpi://SELF") == 0;
        MPI_Info info;
        char val[32];
        int flag = 0;
        CHECK_MPI(MPI_Session_get_pset_info(s, name, &info));
        CHECK_MPI(MPI_Info_get(info, "mpi_size", sizeof val - 1, val, &flag));
        CHECK(flag && atoi(val) == (strcmp(name, "mpi://SELF") == 0 ? 1 : size), "%s mpi_size %s",
              name, val);
        CHECK_MPI(MPI_Info_free(&info));
    }
    CHECK(seen_world == 1 && seen_self == 1, "psets world %d self %d", seen_world, seen_self);

    /* A short buffer gets a truncated, terminated name. */
    char small[5];
    int len = (int)sizeof small;
    CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, small));
    CHECK(strlen(small) == 4 && strncmp(small, "mpi:", 4) == 0, "truncated '%s'", small);

    int len0 = 0;
    int rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &len0, NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "n=2 gave class %d", err_class(rc));
    MPI_Group g;
    rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    CHECK(err_class(rc) == MPI_ERR_ARG, "unknown pset gave class %d", err_class(rc));

    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
    int gs = -1, gr = -1;
    MPI_Group_size(g, &gs);
    MPI_Group_rank(g, &gr);
    CHECK(gs == 1 && gr == 0, "SELF group size %d rank %d", gs, gr);
    CHECK_MPI(MPI_Group_free(&g));
}

/* A communicator over mpi://WORLD: a sum, a ring, a split. */
static void check_comm(MPI_Session s, const char *tag, int *rank_out, int *size_out)
{
    MPI_Group g;
    MPI_Comm c;
    int rank, size;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK_MPI(MPI_Comm_size(c, &size));

    long v = rank + 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, c));
    CHECK(sum == (long)size * (size + 1) / 2, "allreduce %ld", sum);

    int out[64], in[64];
    for (int i = 0; i < 64; i++) out[i] = rank * 1000 + i;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request rq;
    CHECK_MPI(MPI_Irecv(in, 64, MPI_INT, left, 7, c, &rq));
    CHECK_MPI(MPI_Send(out, 64, MPI_INT, right, 7, c));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < 64; i++) CHECK(in[i] == left * 1000 + i, "ring in[%d]=%d", i, in[i]);

    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(c, rank % 2, -rank, &half));
    int hr, hs, root_val = rank;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    CHECK_MPI(MPI_Bcast(&root_val, 1, MPI_INT, 0, half));
    /* key -rank: rank 0 of each half is its highest old rank */
    int top = (size - 1) - ((size - 1 - rank % 2) % 2);
    CHECK(root_val == top, "split bcast %d, expected %d", root_val, top);
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&c));
    *rank_out = rank;
    *size_out = size;
}

static void check_errhandlers(MPI_Session s)
{
    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Session_create_errhandler(on_error, &eh));
    CHECK_MPI(MPI_Session_set_errhandler(s, eh));
    CHECK_MPI(MPI_Session_get_errhandler(s, &got));
    CHECK(got == eh, "get_errhandler 0x%x, set 0x%x", (unsigned)got, (unsigned)eh);
    CHECK_MPI(MPI_Errhandler_free(&got));

    MPI_Group g;
    int rc = MPI_Group_from_session_pset(s, "mpi://nope", &g);
    CHECK(handler_calls == 1 && handler_session == s && handler_code == rc, "handler calls %d",
          handler_calls);
    CHECK(err_class(rc) == MPI_ERR_ARG, "class %d", err_class(rc));
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Group_from_session_pset") && strstr(msg, "mpi://nope"), "message '%s'",
          msg);

    CHECK_MPI(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_OTHER, "call_errhandler: calls %d code %d",
          handler_calls, handler_code);

    /* A communicator's handler is not a session's. */
    MPI_Errhandler ceh;
    CHECK_MPI(MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)on_error, &ceh));
    rc = MPI_Session_set_errhandler(s, ceh);
    CHECK(err_class(rc) == MPI_ERR_ARG && handler_calls == 3,
          "comm handler on a session: class %d calls %d", err_class(rc), handler_calls);
    CHECK_MPI(MPI_Errhandler_free(&ceh));

    /* ... nor a session's a communicator's. */
    MPI_Group g1;
    MPI_Comm c1;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &g1));
    CHECK_MPI(
        MPI_Comm_create_from_group(g1, "tern.test.self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c1));
    CHECK_MPI(MPI_Group_free(&g1));
    rc = MPI_Comm_set_errhandler(c1, eh);
    CHECK(err_class(rc) == MPI_ERR_ARG, "session handler on a communicator: class %d",
          err_class(rc));
    CHECK_MPI(MPI_Comm_free(&c1));

    CHECK_MPI(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));
}

static void check_no_segment(void)
{
    const char *job = getenv("TERN_JOB_ID");
    CHECK(job != NULL, "TERN_JOB_ID is not set: run under Tern's mpiexec");
    char path[256];
    snprintf(path, sizeof path, "/dev/shm/tern-%s", job);
    struct stat st;
    CHECK(stat(path, &st) != 0 && errno == ENOENT, "%s is still there", path);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    MPI_Session s, s2;
    int flag = -1;

    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 0, "initialized before anything");

    if (strcmp(mode, "fatal") == 0) {
        CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s));
        MPI_Group g;
        MPI_Group_from_session_pset(s, "mpi://MISSING", &g);
        fprintf(stderr, "FAIL: an error under MPI_ERRORS_ARE_FATAL returned\n");
        return 1;
    }

    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_SERIALIZED"));
    CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK(s != MPI_SESSION_NULL, "session is null");
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 0, "a session initialised the world model");

    CHECK_MPI(MPI_Session_get_info(s, &info));
    char val[64];
    CHECK_MPI(MPI_Info_get(info, "thread_level", sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, "MPI_THREAD_SERIALIZED") == 0, "thread_level '%s'", val);
    CHECK_MPI(MPI_Info_free(&info));

    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    CHECK(s2 != s, "two sessions share a handle");

    int rank, size;
    check_comm(s, "tern.test.a", &rank, &size);
    check_psets(s, size);
    check_errhandlers(s2);
    /* The first session ends; the second still works. */
    CHECK_MPI(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL, "finalize did not null the handle");
    int r2, s2size;
    check_comm(s2, "tern.test.b", &r2, &s2size);
    CHECK(r2 == rank && s2size == size, "second session rank %d size %d", r2, s2size);
    CHECK_MPI(MPI_Session_finalize(&s2));

    check_no_segment();
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 0, "finalized: the world model was never initialised");

    /* The runtime went down with the last session; Tern cannot bring it back. */
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    CHECK(err_class(rc) == MPI_ERR_OTHER, "re-initialisation gave class %d", err_class(rc));
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Session_init") && strstr(msg, "cannot start it again"), "message '%s'",
          msg);
    if (rank == 0) printf("session_world passed on %d processes\n", size);
    return 0;
}
