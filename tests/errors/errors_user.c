/* Error classes, codes and strings: every predefined class has its own
 * text; user classes/codes/strings round trip and are removed in order;
 * MPI_LASTUSEDCODE follows them; error handlers get user codes
 * (MPI_Comm_call_errhandler), window handlers can be made but no window
 * exists, and MPI_FILE_NULL's handler can be read, set and called. */
#include <string.h>

#include "tern_expect.h"

static int comm_calls, comm_code;
static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    comm_calls++;
    comm_code = *code;
}

static int file_calls, file_code;
static MPI_File file_seen = (MPI_File)1;
static void file_handler(MPI_File *file, int *code, ...)
{
    file_calls++;
    file_code = *code;
    file_seen = *file;
}

static void win_handler(MPI_Win *win, int *code, ...)
{
    (void)win;
    (void)code;
}

static int lastused(void)
{
    int *v, flag;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag, "MPI_LASTUSEDCODE not set");
    return *v;
}

static void predefined_classes(void)
{
    /* every class of MPI-4.1 (and MPI_T's), each with a distinct text */
    static const int classes[] = {
        MPI_ERR_BUFFER,
        MPI_ERR_COUNT,
        MPI_ERR_TYPE,
        MPI_ERR_TAG,
        MPI_ERR_COMM,
        MPI_ERR_RANK,
        MPI_ERR_ROOT,
        MPI_ERR_GROUP,
        MPI_ERR_OP,
        MPI_ERR_TOPOLOGY,
        MPI_ERR_DIMS,
        MPI_ERR_ARG,
        MPI_ERR_UNKNOWN,
        MPI_ERR_TRUNCATE,
        MPI_ERR_OTHER,
        MPI_ERR_INTERN,
        MPI_ERR_IN_STATUS,
        MPI_ERR_PENDING,
        MPI_ERR_REQUEST,
        MPI_ERR_ACCESS,
        MPI_ERR_AMODE,
        MPI_ERR_BAD_FILE,
        MPI_ERR_CONVERSION,
        MPI_ERR_DUP_DATAREP,
        MPI_ERR_FILE_EXISTS,
        MPI_ERR_FILE_IN_USE,
        MPI_ERR_FILE,
        MPI_ERR_INFO,
        MPI_ERR_INFO_KEY,
        MPI_ERR_INFO_VALUE,
        MPI_ERR_INFO_NOKEY,
        MPI_ERR_IO,
        MPI_ERR_NAME,
        MPI_ERR_NO_MEM,
        MPI_ERR_NOT_SAME,
        MPI_ERR_NO_SPACE,
        MPI_ERR_NO_SUCH_FILE,
        MPI_ERR_PORT,
        MPI_ERR_QUOTA,
        MPI_ERR_READ_ONLY,
        MPI_ERR_SERVICE,
        MPI_ERR_SPAWN,
        MPI_ERR_UNSUPPORTED_DATAREP,
        MPI_ERR_UNSUPPORTED_OPERATION,
        MPI_ERR_WIN,
        MPI_ERR_BASE,
        MPI_ERR_LOCKTYPE,
        MPI_ERR_KEYVAL,
        MPI_ERR_RMA_CONFLICT,
        MPI_ERR_RMA_SYNC,
        MPI_ERR_SIZE,
        MPI_ERR_DISP,
        MPI_ERR_ASSERT,
        MPI_ERR_RMA_RANGE,
        MPI_ERR_RMA_ATTACH,
        MPI_ERR_RMA_SHARED,
        MPI_ERR_RMA_FLAVOR,
        MPI_ERR_SESSION,
        MPI_ERR_PROC_ABORTED,
        MPI_ERR_VALUE_TOO_LARGE,
        MPI_ERR_ERRHANDLER,
        MPI_T_ERR_MEMORY,
        MPI_T_ERR_NOT_INITIALIZED,
        MPI_T_ERR_CANNOT_INIT,
        MPI_T_ERR_INVALID_INDEX,
        MPI_T_ERR_INVALID_ITEM,
        MPI_T_ERR_INVALID_HANDLE,
        MPI_T_ERR_OUT_OF_HANDLES,
        MPI_T_ERR_OUT_OF_SESSIONS,
        MPI_T_ERR_INVALID_SESSION,
        MPI_T_ERR_CVAR_SET_NOT_NOW,
        MPI_T_ERR_CVAR_SET_NEVER,
        MPI_T_ERR_PVAR_NO_STARTSTOP,
        MPI_T_ERR_PVAR_NO_WRITE,
        MPI_T_ERR_PVAR_NO_ATOMIC,
        MPI_T_ERR_INVALID_NAME,
        MPI_T_ERR_INVALID,
        MPI_T_ERR_NOT_SUPPORTED,
        MPI_T_ERR_NOT_ACCESSIBLE,
    };
    enum { N = sizeof classes / sizeof classes[0] };
    static char text[N][MPI_MAX_ERROR_STRING];
    for (int i = 0; i < N; i++) {
        int cls, len;
        CHECK(classes[i] > MPI_SUCCESS && classes[i] <= MPI_ERR_LASTCODE, "class %d", classes[i]);
        CHECK_MPI(MPI_Error_class(classes[i], &cls));
        CHECK(cls == classes[i], "class of class %d is %d", classes[i], cls);
        CHECK_MPI(MPI_Error_string(classes[i], text[i], &len));
        CHECK(len > 3 && len == (int)strlen(text[i]), "class %d text '%s'", classes[i], text[i]);
        CHECK(!strstr(text[i], "unknown error class") && !strstr(text[i], "invalid error code"),
              "class %d has no text of its own: '%s'", classes[i], text[i]);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(text[i], text[j]) != 0, "classes %d and %d share '%s'", classes[i],
                  classes[j], text[i]);
    }
    /* an error the library makes carries its class and a precise message */
    int rc = MPI_Comm_size(MPI_COMM_NULL, NULL), cls;
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_COMM, "class %d", cls);
    expect(MPI_Error_class(-3, &cls), MPI_ERR_ARG, "MPI_Error_class", "-3");
    expect(MPI_Error_class(MPI_ERR_LASTCODE + 77, &cls), MPI_ERR_ARG, "MPI_Error_class", NULL);
}

static void user_classes(void)
{
    int c1, c2, code1, code2, code3, cls, len;
    char s[MPI_MAX_ERROR_STRING];
    CHECK(lastused() == MPI_ERR_LASTCODE, "initial MPI_LASTUSEDCODE %d", lastused());
    CHECK_MPI(MPI_Add_error_class(&c1));
    CHECK(c1 > MPI_ERR_LASTCODE, "user class %d not above MPI_ERR_LASTCODE", c1);
    CHECK(lastused() == c1, "MPI_LASTUSEDCODE %d after a class %d", lastused(), c1);
    CHECK_MPI(MPI_Add_error_class(&c2));
    CHECK(c2 != c1 && lastused() >= c2, "second class");
    CHECK_MPI(MPI_Add_error_code(c1, &code1));
    CHECK_MPI(MPI_Add_error_code(c1, &code2));
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &code3)); /* a code of a predefined class */
    CHECK(code1 != code2 && code1 != c1 && code1 != c2, "codes %d %d", code1, code2);
    CHECK(lastused() >= code3 && lastused() >= code1, "MPI_LASTUSEDCODE below a code");
    CHECK_MPI(MPI_Error_class(code1, &cls));
    CHECK(cls == c1, "class of code1 %d", cls);
    CHECK_MPI(MPI_Error_class(code3, &cls));
    CHECK(cls == MPI_ERR_ARG, "class of code3 %d", cls);
    CHECK_MPI(MPI_Error_class(c2, &cls));
    CHECK(cls == c2, "class of a user class %d", cls);

    /* strings: none yet gives "", then the string, replaced, removed */
    CHECK_MPI(MPI_Error_string(code1, s, &len));
    CHECK(len == 0 && s[0] == 0, "string before Add_error_string: '%s'", s);
    CHECK_MPI(MPI_Add_error_string(code1, "first"));
    CHECK_MPI(MPI_Add_error_string(code1, "disk on fire"));
    CHECK_MPI(MPI_Add_error_string(c1, "my class"));
    CHECK_MPI(MPI_Error_string(code1, s, &len));
    CHECK(strcmp(s, "disk on fire") == 0 && len == 12, "string '%s'", s);
    CHECK_MPI(MPI_Error_string(c1, s, &len));
    CHECK(strcmp(s, "my class") == 0, "class string '%s'", s);
    char longs[MPI_MAX_ERROR_STRING + 1];
    memset(longs, 'x', sizeof longs - 1);
    longs[MPI_MAX_ERROR_STRING] = 0;
    expect(MPI_Add_error_string(code2, longs), MPI_ERR_ARG, "MPI_Add_error_string",
           "MPI_MAX_ERROR_STRING");
    expect(MPI_Add_error_string(MPI_ERR_ARG, "x"), MPI_ERR_ARG, "MPI_Add_error_string", NULL);
    expect(MPI_Add_error_string(code2, NULL), MPI_ERR_ARG, "MPI_Add_error_string", "string");
    expect(MPI_Add_error_code(12345, &code2), MPI_ERR_ARG, "MPI_Add_error_code", "12345");
    expect(MPI_Add_error_code(code1, &cls), MPI_ERR_ARG, "MPI_Add_error_code", NULL);
    expect(MPI_Add_error_class(NULL), MPI_ERR_ARG, "MPI_Add_error_class", "errorclass");

    /* a user code through a communicator's handler */
    MPI_Errhandler eh;
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(d, eh));
    CHECK_MPI(MPI_Comm_call_errhandler(d, code1));
    CHECK(comm_calls == 1 && comm_code == code1, "handler: %d calls code %d", comm_calls,
          comm_code);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_free(&d));

    /* removal: string before code, codes and string before class */
    expect(MPI_Remove_error_code(code1), MPI_ERR_ARG, "MPI_Remove_error_code", "string");
    expect(MPI_Remove_error_class(c1), MPI_ERR_ARG, "MPI_Remove_error_class", "code");
    expect(MPI_Remove_error_class(MPI_ERR_ARG), MPI_ERR_ARG, "MPI_Remove_error_class", NULL);
    expect(MPI_Remove_error_class(code2), MPI_ERR_ARG, "MPI_Remove_error_class", NULL);
    expect(MPI_Remove_error_code(c2), MPI_ERR_ARG, "MPI_Remove_error_code", NULL);
    expect(MPI_Remove_error_string(code2), MPI_ERR_ARG, "MPI_Remove_error_string", NULL);
    CHECK_MPI(MPI_Remove_error_string(code1));
    CHECK_MPI(MPI_Error_string(code1, s, &len));
    CHECK(len == 0, "removed string still there: '%s'", s);
    CHECK_MPI(MPI_Remove_error_code(code1));
    CHECK_MPI(MPI_Remove_error_code(code2));
    expect(MPI_Error_class(code1, &cls), MPI_ERR_ARG, "MPI_Error_class", NULL);
    /* a class, like a code, keeps its string until that is removed */
    expect(MPI_Remove_error_class(c1), MPI_ERR_ARG, "MPI_Remove_error_class", "string");
    CHECK_MPI(MPI_Remove_error_string(c1));
    CHECK_MPI(MPI_Remove_error_class(c1));
    expect(MPI_Add_error_code(c1, &code1), MPI_ERR_ARG, "MPI_Add_error_code", NULL);
    CHECK_MPI(MPI_Remove_error_code(code3));
    int last = lastused();
    CHECK(last == c2, "MPI_LASTUSEDCODE %d after removals, want %d", last, c2);
    CHECK_MPI(MPI_Remove_error_class(c2));
    CHECK(lastused() == MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d with nothing left", lastused());
    /* values are not reused */
    int c3;
    CHECK_MPI(MPI_Add_error_class(&c3));
    CHECK(c3 != c1 && c3 != c2 && c3 != code1 && c3 != code2 && c3 != code3, "value reused");
    CHECK_MPI(MPI_Remove_error_class(c3));
}

static void win_and_file_handlers(void)
{
    MPI_Errhandler weh, feh, eh;
    CHECK_MPI(MPI_Win_create_errhandler(win_handler, &weh));
    CHECK_MPI(MPI_File_create_errhandler(file_handler, &feh));
    expect(MPI_Win_set_errhandler(MPI_WIN_NULL, weh), MPI_ERR_WIN, "MPI_Win_set_errhandler",
           "MPI_WIN_NULL");
    expect(MPI_Win_get_errhandler((MPI_Win)0x12345, &eh), MPI_ERR_WIN, "MPI_Win_get_errhandler",
           "is not a window");
    expect(MPI_Win_call_errhandler((MPI_Win)0x12345, MPI_ERR_OTHER), MPI_ERR_WIN,
           "MPI_Win_call_errhandler", NULL);
    /* handlers of other kinds cannot go on a communicator */
    expect(MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh), MPI_ERR_ARG, "MPI_Comm_set_errhandler",
           "window");
    expect(MPI_Comm_set_errhandler(MPI_COMM_WORLD, feh), MPI_ERR_ARG, "MPI_Comm_set_errhandler",
           "file");
    expect(MPI_Win_create_errhandler(NULL, &eh), MPI_ERR_ARG, "MPI_Win_create_errhandler",
           "win_errhandler_fn");

    /* MPI_FILE_NULL: MPI_ERRORS_RETURN by default */
    CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_FILE_NULL's default handler 0x%x", (unsigned)eh);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO)); /* returns: nothing happens */
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, feh));
    CHECK_MPI(MPI_Errhandler_free(&feh)); /* MPI_FILE_NULL keeps it */
    CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
    CHECK(eh != MPI_ERRORS_RETURN && eh != MPI_ERRHANDLER_NULL, "handler not set");
    CHECK_MPI(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO));
    CHECK(file_calls == 1 && file_code == MPI_ERR_IO && file_seen == MPI_FILE_NULL,
          "file handler: %d calls, code %d", file_calls, file_code);
    /* errors about non-files go to MPI_FILE_NULL's handler */
    int rc = MPI_File_call_errhandler((MPI_File)0x1234, MPI_ERR_IO);
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_FILE && file_calls == 2 && file_code == rc, "bad file: class %d, %d calls",
          cls, file_calls);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    int err = MPI_File_set_errhandler(MPI_FILE_NULL, weh);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_ARG && file_calls == 3, "window handler on MPI_FILE_NULL: class %d", cls);
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "reset to MPI_ERRORS_RETURN");
    CHECK_MPI(MPI_Errhandler_free(&weh));
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    predefined_classes();
    user_classes();
    win_and_file_handlers();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("errors_user: all passed\n");
    MPI_Finalize();
    return 0;
}
