/* Every procedure Tern does not implement yet (the cases in unimpl_gen.c,
 * one per "missing" line of tools/gen/api_list.txt) fails with
 * MPI_ERR_UNSUPPORTED_OPERATION, naming itself, on the error handler the
 * standard names for it:
 *
 *   1. Recording handlers on MPI_COMM_WORLD, MPI_COMM_SELF, a communicator
 *      given as the argument, and MPI_FILE_NULL: exactly the expected one
 *      runs, with the expected object and the code the call returns.  Each
 *      case runs twice: with a valid communicator, MPI_WIN_NULL and
 *      MPI_FILE_NULL, then with MPI_COMM_NULL and window and file handles
 *      that name nothing (no object: MPI_COMM_SELF, except for files, whose
 *      errors without a valid file go to MPI_FILE_NULL).
 *   2. The predefined handlers, MPI_COMM_WORLD's fatal throughout: with the
 *      defaults, every file procedure returns its error (MPI_FILE_NULL's
 *      default is MPI_ERRORS_RETURN); with MPI_ERRORS_RETURN on the
 *      communicator argument, or on MPI_COMM_SELF, the procedures whose
 *      errors go there return theirs.  An error raised anywhere else ends
 *      the job, naming the procedure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tern_test.h"
#include "unimpl.h"

enum where { AT_NOTHING, AT_WORLD, AT_SELF, AT_ARG, AT_FILE_NULL };
static const char *const where_name[] = {"no handler", "MPI_COMM_WORLD", "MPI_COMM_SELF",
                                         "the communicator argument", "MPI_FILE_NULL"};

/* What the handlers saw during one call. */
static struct {
    int runs;
    enum where where;
    int code;
    MPI_Comm comm;
    MPI_File file;
} seen;

static MPI_Comm arg_comm; /* the valid communicator argument: a dup of MPI_COMM_WORLD */
static int failures;

#define BOGUS_WIN ((MPI_Win)0x12345678)
#define BOGUS_FILE ((MPI_File)(uintptr_t)0x1000)

static void saw(enum where w, int code)
{
    seen.runs++;
    seen.where = w;
    seen.code = code;
}

static void on_world(MPI_Comm *c, int *code, ...) { saw(AT_WORLD, *code), seen.comm = *c; }
static void on_self(MPI_Comm *c, int *code, ...) { saw(AT_SELF, *code), seen.comm = *c; }
static void on_arg(MPI_Comm *c, int *code, ...) { saw(AT_ARG, *code), seen.comm = *c; }
static void on_file(MPI_File *f, int *code, ...) { saw(AT_FILE_NULL, *code), seen.file = *f; }

#define FAIL(...)                              \
    do {                                       \
        fprintf(stderr, "FAIL: " __VA_ARGS__); \
        fputc('\n', stderr);                   \
        failures++;                            \
    } while (0)

/* The code is MPI_ERR_UNSUPPORTED_OPERATION's and its message names fn. */
static void check_code(const char *fn, const char *how, int code)
{
    int cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_class(code, &cls);
    MPI_Error_string(code, msg, &len);
    if (cls != MPI_ERR_UNSUPPORTED_OPERATION)
        FAIL("%s (%s): error class %d, expected MPI_ERR_UNSUPPORTED_OPERATION (%s)", fn, how, cls,
             msg);
    else if (!strstr(msg, fn))
        FAIL("%s (%s): message does not name the call: %s", fn, how, msg);
}

/* A procedure that returns no code gave back its zero value. */
static void check_no_code(const char *fn, const char *how, int rc)
{
    if (rc != UN_NO_CODE) FAIL("%s (%s): did not return its zero value", fn, how);
}

static enum where expected(enum un_route r, int invalid)
{
    switch (r) {
    case UN_FILE: return AT_FILE_NULL;
    case UN_COMM: return invalid ? AT_SELF : AT_ARG;
    case UN_WIN: return AT_SELF; /* no window exists: every handle names none */
    default: return AT_SELF;
    }
}

static void run_recorded(const struct un_case *k, int invalid)
{
    const char *how =
        invalid ? "handles naming nothing" : "valid communicator, null window and file";
    enum where want = expected(k->route, invalid);
    memset(&seen, 0, sizeof seen);
    int rc = k->call(invalid ? MPI_COMM_NULL : arg_comm, invalid ? BOGUS_WIN : MPI_WIN_NULL,
                     invalid ? BOGUS_FILE : MPI_FILE_NULL);
    if (seen.runs != 1) {
        FAIL("%s (%s): %d error handlers ran, expected one (%s's)", k->fn, how, seen.runs,
             where_name[want]);
        return;
    }
    if (seen.where != want) {
        FAIL("%s (%s): the error went to %s, expected %s", k->fn, how, where_name[seen.where],
             where_name[want]);
        return;
    }
    check_code(k->fn, how, seen.code);
    if (k->returns_code && rc != seen.code)
        FAIL("%s (%s): returned %d, the handler was given %d", k->fn, how, rc, seen.code);
    if (!k->returns_code) check_no_code(k->fn, how, rc);
    if (want == AT_ARG && seen.comm != arg_comm)
        FAIL("%s (%s): the handler was not given the communicator argument", k->fn, how);
    if (want == AT_SELF && seen.comm != MPI_COMM_SELF)
        FAIL("%s (%s): MPI_COMM_SELF's handler was given another communicator", k->fn, how);
    if (want == AT_FILE_NULL && seen.file != MPI_FILE_NULL)
        FAIL("%s (%s): MPI_FILE_NULL's handler was given a file other than MPI_FILE_NULL", k->fn,
             how);
}

/* Phase 2: runs the cases of those routes, in one configuration, and
 * checks what they return. */
static int run_returning(int routes, int invalid, const char *how)
{
    int n = 0;
    for (int i = 0; i < un_ncases; i++) {
        const struct un_case *k = &un_cases[i];
        if (!(routes & (1 << k->route))) continue;
        int rc = k->call(invalid ? MPI_COMM_NULL : arg_comm, invalid ? BOGUS_WIN : MPI_WIN_NULL,
                         invalid ? BOGUS_FILE : MPI_FILE_NULL);
        if (k->returns_code)
            check_code(k->fn, how, rc);
        else
            check_no_code(k->fn, how, rc);
        n++;
    }
    return n;
}

int main(int argc, char **argv)
{
    MPI_Errhandler world_eh, self_eh, arg_eh, file_eh;
    MPI_Init(&argc, &argv);
    CHECK(un_ncases > 0, "no missing procedures: the test has nothing to check (remove it)");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &arg_comm));

    /* 1. Which handler runs. */
    CHECK_MPI(MPI_Comm_create_errhandler(on_world, &world_eh));
    CHECK_MPI(MPI_Comm_create_errhandler(on_self, &self_eh));
    CHECK_MPI(MPI_Comm_create_errhandler(on_arg, &arg_eh));
    CHECK_MPI(MPI_File_create_errhandler(on_file, &file_eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, self_eh));
    CHECK_MPI(MPI_Comm_set_errhandler(arg_comm, arg_eh));
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, file_eh));
    int per_route[4] = {0};
    for (int i = 0; i < un_ncases; i++) {
        run_recorded(&un_cases[i], 0);
        run_recorded(&un_cases[i], 1);
        per_route[un_cases[i].route]++;
    }
    printf("unimpl: %d missing procedures: %d file, %d communicator, %d window, %d no object\n",
           un_ncases, per_route[UN_FILE], per_route[UN_COMM], per_route[UN_WIN],
           per_route[UN_NONE]);

    /* 2. The predefined handlers; an error on a fatal one ends the job. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_set_errhandler(arg_comm, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    int n = run_returning(1 << UN_FILE, 0, "default handlers") +
            run_returning(1 << UN_FILE, 1, "default handlers, handles naming nothing");
    CHECK_MPI(MPI_Comm_set_errhandler(arg_comm, MPI_ERRORS_RETURN));
    n += run_returning(1 << UN_COMM, 0, "MPI_ERRORS_RETURN on the communicator argument only");
    CHECK_MPI(MPI_Comm_set_errhandler(arg_comm, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    n += run_returning(1 << UN_WIN | 1 << UN_NONE, 0, "MPI_ERRORS_RETURN on MPI_COMM_SELF only") +
         run_returning(1 << UN_WIN | 1 << UN_NONE | 1 << UN_COMM, 1,
                       "MPI_ERRORS_RETURN on MPI_COMM_SELF only, handles naming nothing");
    CHECK(n == 2 * un_ncases, "phase 2 ran %d calls, expected %d", n, 2 * un_ncases);

    CHECK_MPI(MPI_Errhandler_free(&world_eh));
    CHECK_MPI(MPI_Errhandler_free(&self_eh));
    CHECK_MPI(MPI_Errhandler_free(&arg_eh));
    CHECK_MPI(MPI_Errhandler_free(&file_eh));
    CHECK_MPI(MPI_Comm_free(&arg_comm));
    if (failures) {
        fprintf(stderr, "unimpl: %d failures\n", failures);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("unimpl: all %d procedures report MPI_ERR_UNSUPPORTED_OPERATION on the right handler\n",
           un_ncases);
    MPI_Finalize();
    return 0;
}
