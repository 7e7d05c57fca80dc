/* Error classes, codes and strings the user adds and removes (MPI-4.1 9.5):
 * MPI_Add_error_class/code/string and MPI_Remove_error_class/code/string.
 *
 * Every added class or code is one entry of a table; its value is
 * TERN_ERR_DYN_BASE + 1 + its index, so values only grow and
 * MPI_LASTUSEDCODE is the largest value still in use. */
#include <stdlib.h>
#include <string.h>

#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"

struct user_err {
    int in_use;
    int is_class;
    int errclass; /* the class (its own value for a class) */
    int ncodes;   /* a class: codes added to it and not removed */
    char *text;   /* MPI_Add_error_string, or NULL */
};

static struct user_err *ue;
static int n_ue, cap_ue;

static struct user_err *entry(int code)
{
    if (code <= TERN_ERR_DYN_BASE) return NULL;
    long i = (long)code - TERN_ERR_DYN_BASE - 1;
    return i < n_ue && ue[i].in_use ? &ue[i] : NULL;
}

int tern_err_user_class(int code)
{
    struct user_err *e = entry(code);
    return e ? e->errclass : -1;
}

const char *tern_err_user_string(int code)
{
    struct user_err *e = entry(code);
    return e ? e->text : NULL;
}

int tern_err_lastusedcode(void)
{
    for (int i = n_ue - 1; i >= 0; i--)
        if (ue[i].in_use) return TERN_ERR_DYN_BASE + 1 + i;
    return MPI_ERR_LASTCODE;
}

/* A new entry; its value, or -1 when out of memory. */
static int add_entry(int is_class, int errclass)
{
    if (n_ue == cap_ue) {
        int cap = cap_ue ? 2 * cap_ue : 16;
        struct user_err *p = realloc(ue, (size_t)cap * sizeof *p);
        if (!p) return -1;
        ue = p;
        cap_ue = cap;
    }
    int value = TERN_ERR_DYN_BASE + 1 + n_ue;
    ue[n_ue++] = (struct user_err){
        .in_use = 1, .is_class = is_class, .errclass = is_class ? value : errclass};
    return value;
}

/* The entry points: initialised, under the lock, errors to MPI_COMM_WORLD's
 * handler (MPI_COMM_SELF's in MPI-4.1 terms; Tern uses world's throughout). */
#define BEGIN(fn)          \
    TERN_REQUIRE_INIT(fn); \
    tern_lock();           \
    int rc = MPI_SUCCESS

#define FAIL(cls, ...)                              \
    do {                                            \
        rc = tern_err_comm(NULL, cls, __VA_ARGS__); \
        goto out;                                   \
    } while (0)

TERN_WEAK_ALIAS(MPI_Add_error_class)
int PMPI_Add_error_class(int *errorclass)
{
    static const char fn[] = "MPI_Add_error_class";
    BEGIN(fn);
    if (!errorclass) FAIL(MPI_ERR_ARG, "%s: errorclass is NULL", fn);
    int v = add_entry(1, 0);
    if (v < 0) FAIL(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *errorclass = v;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Add_error_code)
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    static const char fn[] = "MPI_Add_error_code";
    BEGIN(fn);
    struct user_err *c = entry(errorclass);
    if (!errorcode) FAIL(MPI_ERR_ARG, "%s: errorcode is NULL", fn);
    if (c ? !c->is_class
          : errorclass <= MPI_SUCCESS || errorclass >= TERN_ERR_CLASS_SPAN ||
                !tern_err_class_text(errorclass))
        FAIL(MPI_ERR_ARG,
             "%s: errorclass=%d is not an error class (predefined, or added by "
             "MPI_Add_error_class and not removed)",
             fn, errorclass);
    int v = add_entry(0, errorclass);
    if (v < 0) FAIL(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    /* add_entry may have moved the table: find the class again. */
    if ((c = entry(errorclass)) != NULL) c->ncodes++;
    *errorcode = v;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Add_error_string)
int PMPI_Add_error_string(int errorcode, const char *string)
{
    static const char fn[] = "MPI_Add_error_string";
    BEGIN(fn);
    struct user_err *e = entry(errorcode);
    if (!e)
        FAIL(MPI_ERR_ARG,
             "%s: errorcode=%d is not a class or code added by MPI_Add_error_class/"
             "MPI_Add_error_code (predefined ones keep their strings)",
             fn, errorcode);
    if (!string) FAIL(MPI_ERR_ARG, "%s: string is NULL", fn);
    size_t len = strlen(string);
    if (len > MPI_MAX_ERROR_STRING - 1)
        FAIL(MPI_ERR_ARG, "%s: string has %zu characters, more than MPI_MAX_ERROR_STRING - 1 (%d)",
             fn, len, MPI_MAX_ERROR_STRING - 1);
    char *t = malloc(len + 1);
    if (!t) FAIL(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    memcpy(t, string, len + 1);
    free(e->text);
    e->text = t;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Remove_error_string)
int PMPI_Remove_error_string(int errorcode)
{
    static const char fn[] = "MPI_Remove_error_string";
    BEGIN(fn);
    struct user_err *e = entry(errorcode);
    if (!e || !e->text)
        FAIL(MPI_ERR_ARG, "%s: errorcode=%d has no string added by MPI_Add_error_string", fn,
             errorcode);
    free(e->text);
    e->text = NULL;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Remove_error_code)
int PMPI_Remove_error_code(int errorcode)
{
    static const char fn[] = "MPI_Remove_error_code";
    BEGIN(fn);
    struct user_err *e = entry(errorcode);
    if (!e || e->is_class)
        FAIL(MPI_ERR_ARG, "%s: errorcode=%d is not a code added by MPI_Add_error_code", fn,
             errorcode);
    if (e->text)
        FAIL(MPI_ERR_ARG,
             "%s: errorcode=%d still has a string: remove it first with "
             "MPI_Remove_error_string",
             fn, errorcode);
    struct user_err *c = entry(e->errclass);
    if (c) c->ncodes--;
    e->in_use = 0;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Remove_error_class)
int PMPI_Remove_error_class(int errorclass)
{
    static const char fn[] = "MPI_Remove_error_class";
    BEGIN(fn);
    struct user_err *e = entry(errorclass);
    if (!e || !e->is_class)
        FAIL(MPI_ERR_ARG, "%s: errorclass=%d is not a class added by MPI_Add_error_class", fn,
             errorclass);
    if (e->ncodes > 0)
        FAIL(MPI_ERR_ARG,
             "%s: errorclass=%d still has %d error code(s): remove them first with "
             "MPI_Remove_error_code",
             fn, errorclass, e->ncodes);
    /* MPI-4.1 9.5: like a code, a class goes only once its string has gone. */
    if (e->text)
        FAIL(MPI_ERR_ARG,
             "%s: errorclass=%d still has a string: remove it first with "
             "MPI_Remove_error_string",
             fn, errorclass);
    e->in_use = 0;
out:
    tern_unlock();
    return rc;
}
