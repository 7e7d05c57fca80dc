/* The Fortran 77 procedures whose mapping needs judgement: callbacks that
 * Fortran declares with its own conventions (attribute copy and delete,
 * generalized requests), attribute values that C keeps as pointers,
 * arguments the Fortran form drops, and the procedures removed in MPI-3.0
 * whose Fortran integers are narrower than C's MPI_Aint. */
#include "fortran/f77_runtime.h"

#include <pthread.h>
#include <string.h>

void pmpi_init_(MPI_Fint *ierror) { tern_f_ierror(ierror, PMPI_Init(NULL, NULL)); }
TERN_F77_NAMES(mpi_init, MPI_INIT)
TERN_F08_NAMES(mpi_init, init_f08_)

void pmpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    tern_f_ierror(ierror, PMPI_Init_thread(NULL, NULL, *required, provided));
}
TERN_F77_NAMES(mpi_init_thread, MPI_INIT_THREAD)
TERN_F08_NAMES(mpi_init_thread, init_thread_f08_)

/* The standard's MPI_PCONTROL(LEVEL) has no IERROR, and programs call it
 * with and without one: nothing is written through a second argument that
 * may not be there (MPI_Pcontrol cannot fail). */
void pmpi_pcontrol_(const MPI_Fint *level) { (void)PMPI_Pcontrol(*level); }
TERN_F77_NAMES(mpi_pcontrol, MPI_PCONTROL)

/* mpi_f08's MPI_Pcontrol has no ierror. */
void mpi_pcontrol_f08_(const MPI_Fint *level) { (void)PMPI_Pcontrol(*level); }
TERN_F08_PMPIR(pcontrol_f08_)

/* MPI_F_SYNC_REG only has to be a call the compiler cannot see through. */
void pmpi_f_sync_reg_(void *buf) { __asm__ volatile("" : : "r"(buf) : "memory"); }
TERN_F77_NAMES(mpi_f_sync_reg, MPI_F_SYNC_REG)

/* ---- Attribute values ----
 * A value set from Fortran is stored in C's void * as the integer itself.
 * The predefined attributes are C pointers to the value (MPI-4.1 7.7.1 and
 * 12.2.6): Fortran reads the value, except MPI_WIN_BASE, an address. */
static int is_predefined(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
    case MPI_WIN_BASE:
    case MPI_WIN_SIZE:
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL: return 1;
    default: return 0;
    }
}

/* mpif.h's predefined keyvals are C's + 1 (MPICH's values). */
static int c_keyval(int keyval) { return is_predefined(keyval - 1) ? keyval - 1 : keyval; }

static MPI_Aint attr_value(int keyval, void *v)
{
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL: return *(int *)v;
    case MPI_WIN_SIZE: return *(MPI_Aint *)v;
    default: return (MPI_Aint)v;
    }
}

#define TERN_F77_GET_ATTR(l, x, U, C, H)                                                \
    void p##l##_(const H *obj, const MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag, \
                 MPI_Fint *ierror)                                                      \
    {                                                                                   \
        void *v = NULL;                                                                 \
        int found = 0;                                                                  \
        int k = c_keyval(*keyval);                                                      \
        int rc = C(*obj, k, &v, &found);                                                \
        *flag = tern_c_l2f(found);                                                      \
        if (rc == MPI_SUCCESS && found) *value = attr_value(k, v);                      \
        tern_f_ierror(ierror, rc);                                                      \
    }                                                                                   \
    TERN_F77_NAMES(l, U)                                                                \
    TERN_F08_NAMES(l, x)

TERN_F77_GET_ATTR(mpi_comm_get_attr, comm_get_attr_f08_, MPI_COMM_GET_ATTR, PMPI_Comm_get_attr,
                  MPI_Comm)
TERN_F77_GET_ATTR(mpi_type_get_attr, type_get_attr_f08_, MPI_TYPE_GET_ATTR, PMPI_Type_get_attr,
                  MPI_Datatype)
TERN_F77_GET_ATTR(mpi_win_get_attr, win_get_attr_f08_, MPI_WIN_GET_ATTR, PMPI_Win_get_attr, MPI_Win)

/* MPI_ATTR_GET (removed in MPI-3.0) reads a default INTEGER. */
void pmpi_attr_get_(const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *flag,
                    MPI_Fint *ierror)
{
    void *v = NULL;
    int found = 0;
    int k = c_keyval(*keyval);
    *ierror = PMPI_Comm_get_attr(*comm, k, &v, &found);
    *flag = tern_c_l2f(found);
    if (*ierror == MPI_SUCCESS && found) *value = (MPI_Fint)attr_value(k, v);
}
TERN_F77_NAMES(mpi_attr_get, MPI_ATTR_GET)

/* ---- Keyvals with Fortran callbacks ----
 * C calls a trampoline with the keyval's record as extra_state; the
 * trampoline calls the Fortran subroutine with everything by reference.  The
 * record lives as long as the program: C may call the callbacks after the
 * keyval is freed, while attributes remain. */
typedef void(f_copy_fn)(const MPI_Fint *, const MPI_Fint *, const void *, const void *, void *,
                        MPI_Fint *, MPI_Fint *);
typedef void(f_delete_fn)(const MPI_Fint *, const MPI_Fint *, const void *, const void *,
                          MPI_Fint *);
struct f_keyval {
    f_copy_fn *copy;
    f_delete_fn *del;
    MPI_Aint extra; /* the Fortran extra_state, read as MPI_Fint for the MPI-1 forms */
    int narrow;     /* MPI_KEYVAL_CREATE: values and extra_state are default INTEGERs */
    struct f_keyval *next;
};
/* Every record made, so that a keyval made again with the same callbacks
 * and extra_state shares one, and the records stay reachable. */
static pthread_mutex_t keyvals_lock = PTHREAD_MUTEX_INITIALIZER;
static struct f_keyval *keyvals;

static int f_copy(MPI_Fint old, int keyval, void *extra, void *in, void *out, int *flag)
{
    struct f_keyval *k = extra;
    MPI_Fint fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
    if (k->narrow) {
        MPI_Fint vin = (MPI_Fint)(MPI_Aint)in, vout = 0, ex = (MPI_Fint)k->extra;
        k->copy(&old, &fkey, &ex, &vin, &vout, &fflag, &ierr);
        *(void **)out = (void *)(MPI_Aint)vout;
    } else {
        MPI_Aint vin = (MPI_Aint)in, vout = 0;
        k->copy(&old, &fkey, &k->extra, &vin, &vout, &fflag, &ierr);
        *(void **)out = (void *)vout;
    }
    *flag = tern_f_l2c(fflag);
    return ierr;
}

static int f_delete(MPI_Fint obj, int keyval, void *value, void *extra)
{
    struct f_keyval *k = extra;
    MPI_Fint fkey = keyval, ierr = MPI_SUCCESS;
    if (k->narrow) {
        MPI_Fint v = (MPI_Fint)(MPI_Aint)value, ex = (MPI_Fint)k->extra;
        k->del(&obj, &fkey, &v, &ex, &ierr);
    } else {
        MPI_Aint v = (MPI_Aint)value;
        k->del(&obj, &fkey, &v, &k->extra, &ierr);
    }
    return ierr;
}

/* The C callback types differ only in the handle type, an int in each. */
static int comm_copy(MPI_Comm o, int k, void *e, void *i, void *out, int *f)
{
    return f_copy(o, k, e, i, out, f);
}
static int comm_delete(MPI_Comm o, int k, void *v, void *e) { return f_delete(o, k, v, e); }
static int type_copy(MPI_Datatype o, int k, void *e, void *i, void *out, int *f)
{
    return f_copy(o, k, e, i, out, f);
}
static int type_delete(MPI_Datatype o, int k, void *v, void *e) { return f_delete(o, k, v, e); }
static int win_copy(MPI_Win o, int k, void *e, void *i, void *out, int *f)
{
    return f_copy(o, k, e, i, out, f);
}
static int win_delete(MPI_Win o, int k, void *v, void *e) { return f_delete(o, k, v, e); }

static struct f_keyval *new_keyval(f_copy_fn *copy, f_delete_fn *del, MPI_Aint extra, int narrow)
{
    pthread_mutex_lock(&keyvals_lock);
    struct f_keyval *k = keyvals;
    while (k && !(k->copy == copy && k->del == del && k->extra == extra && k->narrow == narrow))
        k = k->next;
    if (k == NULL && (k = malloc(sizeof *k)) != NULL) {
        *k = (struct f_keyval){copy, del, extra, narrow, keyvals};
        keyvals = k;
    }
    pthread_mutex_unlock(&keyvals_lock);
    return k;
}

#define TERN_F77_CREATE_KEYVAL(l, x, U, C, copy_tramp, delete_tramp)                         \
    void p##l##_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval, const MPI_Aint *extra, \
                 MPI_Fint *ierror)                                                           \
    {                                                                                        \
        struct f_keyval *k = new_keyval(copy, del, *extra, 0);                               \
        tern_f_ierror(ierror, k ? C(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM);  \
    }                                                                                        \
    TERN_F77_NAMES(l, U)                                                                     \
    TERN_F08_NAMES(l, x)

TERN_F77_CREATE_KEYVAL(mpi_comm_create_keyval, comm_create_keyval_f08_, MPI_COMM_CREATE_KEYVAL,
                       PMPI_Comm_create_keyval, comm_copy, comm_delete)
TERN_F77_CREATE_KEYVAL(mpi_type_create_keyval, type_create_keyval_f08_, MPI_TYPE_CREATE_KEYVAL,
                       PMPI_Type_create_keyval, type_copy, type_delete)
TERN_F77_CREATE_KEYVAL(mpi_win_create_keyval, win_create_keyval_f08_, MPI_WIN_CREATE_KEYVAL,
                       PMPI_Win_create_keyval, win_copy, win_delete)

void pmpi_keyval_create_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval, const MPI_Fint *extra,
                         MPI_Fint *ierror)
{
    struct f_keyval *k = new_keyval(copy, del, *extra, 1);
    *ierror = k ? PMPI_Comm_create_keyval(comm_copy, comm_delete, keyval, k) : MPI_ERR_NO_MEM;
}
TERN_F77_NAMES(mpi_keyval_create, MPI_KEYVAL_CREATE)

/* The predefined callbacks, as Fortran subroutines: a Fortran program passes
 * their addresses to the keyval constructors above.  The MPI-1 forms
 * (MPI_NULL_COPY_FN, MPI_DUP_FN) copy default INTEGERs. */
static void f_null_copy(const MPI_Fint *o, const MPI_Fint *k, const void *e, const void *in,
                        void *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
static void f_dup(const MPI_Fint *o, const MPI_Fint *k, const void *e, const void *in, void *out,
                  MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e;
    *(MPI_Aint *)out = *(const MPI_Aint *)in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
static void f_dup_narrow(const MPI_Fint *o, const MPI_Fint *k, const void *e, const void *in,
                         void *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e;
    *(MPI_Fint *)out = *(const MPI_Fint *)in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
static void f_null_delete(const MPI_Fint *o, const MPI_Fint *k, const void *v, const void *e,
                          MPI_Fint *ierr)
{
    (void)o, (void)k, (void)v, (void)e;
    *ierr = MPI_SUCCESS;
}
/* Their capitalised names are mpi.h's C values of the same callbacks. */
#undef MPI_NULL_COPY_FN
#undef MPI_COMM_NULL_COPY_FN
#undef MPI_TYPE_NULL_COPY_FN
#undef MPI_WIN_NULL_COPY_FN
#undef MPI_DUP_FN
#undef MPI_COMM_DUP_FN
#undef MPI_TYPE_DUP_FN
#undef MPI_WIN_DUP_FN
#undef MPI_NULL_DELETE_FN
#undef MPI_COMM_NULL_DELETE_FN
#undef MPI_TYPE_NULL_DELETE_FN
#undef MPI_WIN_NULL_DELETE_FN
#undef MPI_CONVERSION_FN_NULL
TERN_F77_CALLBACK(mpi_null_copy_fn, MPI_NULL_COPY_FN, f_null_copy)
TERN_F77_CALLBACK(mpi_comm_null_copy_fn, MPI_COMM_NULL_COPY_FN, f_null_copy)
TERN_F77_CALLBACK(mpi_type_null_copy_fn, MPI_TYPE_NULL_COPY_FN, f_null_copy)
TERN_F77_CALLBACK(mpi_win_null_copy_fn, MPI_WIN_NULL_COPY_FN, f_null_copy)
TERN_F77_CALLBACK(mpi_dup_fn, MPI_DUP_FN, f_dup_narrow)
TERN_F77_CALLBACK(mpi_comm_dup_fn, MPI_COMM_DUP_FN, f_dup)
TERN_F77_CALLBACK(mpi_type_dup_fn, MPI_TYPE_DUP_FN, f_dup)
TERN_F77_CALLBACK(mpi_win_dup_fn, MPI_WIN_DUP_FN, f_dup)
TERN_F77_CALLBACK(mpi_null_delete_fn, MPI_NULL_DELETE_FN, f_null_delete)
TERN_F77_CALLBACK(mpi_comm_null_delete_fn, MPI_COMM_NULL_DELETE_FN, f_null_delete)
TERN_F77_CALLBACK(mpi_type_null_delete_fn, MPI_TYPE_NULL_DELETE_FN, f_null_delete)
TERN_F77_CALLBACK(mpi_win_null_delete_fn, MPI_WIN_NULL_DELETE_FN, f_null_delete)

/* MPI_CONVERSION_FN_NULL: only its address matters (MPI_REGISTER_DATAREP). */
static void f_conversion_null(void) {}
TERN_F77_CALLBACK(mpi_conversion_fn_null, MPI_CONVERSION_FN_NULL, f_conversion_null)

/* ---- Generalized requests ---- */
struct f_greq {
    void (*query)(const MPI_Aint *, MPI_Fint *, MPI_Fint *);
    void (*free)(const MPI_Aint *, MPI_Fint *);
    void (*cancel)(const MPI_Aint *, const MPI_Fint *, MPI_Fint *);
    MPI_Aint extra;
};

static int greq_query(void *extra, MPI_Status *status)
{
    struct f_greq *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(&g->extra, (MPI_Fint *)status, &ierr);
    return ierr;
}
static int greq_free(void *extra)
{
    struct f_greq *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(&g->extra, &ierr);
    free(g);
    return ierr;
}
static int greq_cancel(void *extra, int complete)
{
    struct f_greq *g = extra;
    MPI_Fint ierr = MPI_SUCCESS, fcomplete = tern_c_l2f(complete);
    g->cancel(&g->extra, &fcomplete, &ierr);
    return ierr;
}

void pmpi_grequest_start_(void *query, void *freefn, void *cancel, const MPI_Aint *extra,
                          MPI_Request *request, MPI_Fint *ierror)
{
    struct f_greq *g = malloc(sizeof *g);
    if (g == NULL) {
        tern_f_ierror(ierror, MPI_ERR_NO_MEM);
        return;
    }
    g->query = (void (*)(const MPI_Aint *, MPI_Fint *, MPI_Fint *))query;
    g->free = (void (*)(const MPI_Aint *, MPI_Fint *))freefn;
    g->cancel = (void (*)(const MPI_Aint *, const MPI_Fint *, MPI_Fint *))cancel;
    g->extra = *extra;
    int rc = PMPI_Grequest_start(greq_query, greq_free, greq_cancel, g, request);
    if (rc != MPI_SUCCESS) free(g);
    tern_f_ierror(ierror, rc);
}
TERN_F77_NAMES(mpi_grequest_start, MPI_GREQUEST_START)
TERN_F08_NAMES(mpi_grequest_start, grequest_start_f08_)

/* ---- Strings that are not simple in and out arguments ---- */

/* Fortran's BUFLEN counts the characters of VALUE; C's counts the NUL too. */
void pmpi_info_get_string_(const MPI_Info *info, const char *key, MPI_Fint *buflen, char *value,
                           MPI_Fint *flag, MPI_Fint *ierror, size_t key_len, size_t value_len)
{
    char *c_key = tern_f_str_in(key, key_len);
    char *c_value = tern_f_str_out_buf(value_len);
    int c_buflen = *buflen > 0 ? (int)value_len + 1 : 0, found = 0;
    int rc = PMPI_Info_get_string(*info, c_key, &c_buflen, c_value, &found);
    free(c_key);
    *flag = tern_c_l2f(found);
    if (rc == MPI_SUCCESS && found) *buflen = c_buflen - 1;
    if (*buflen > 0 || value_len == 0)
        tern_f_str_out(value, value_len, c_value);
    else
        free(c_value);
    tern_f_ierror(ierror, rc);
}
TERN_F77_NAMES(mpi_info_get_string, MPI_INFO_GET_STRING)
TERN_F08_NAMES(mpi_info_get_string, info_get_string_f08_)

/* ARGV: CHARACTER*(*) ARGV(*), ended by a blank element, or MPI_ARGV_NULL. */
static char **argv_in(const char *argv, size_t len)
{
    if (argv == &mpiprivc_.argv_null || argv == tern_f08_argv_null) return MPI_ARGV_NULL;
    size_t n = 0;
    for (;; n++) {
        char *s = tern_f_str_in(argv + n * len, len);
        int blank = s == NULL || s[0] == '\0';
        free(s);
        if (blank) break;
    }
    char **v = calloc(n + 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++) v[i] = tern_f_str_in(argv + i * len, len);
    return v;
}

static void argv_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}

void pmpi_comm_spawn_(const char *command, const char *argv, const MPI_Fint *maxprocs,
                      const MPI_Info *info, const MPI_Fint *root, const MPI_Comm *comm,
                      MPI_Comm *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror, size_t command_len,
                      size_t argv_len)
{
    char *c_command = tern_f_str_in(command, command_len);
    char **c_argv = argv_in(argv, argv_len);
    tern_f_ierror(ierror, PMPI_Comm_spawn(c_command, c_argv, *maxprocs, *info, *root, *comm,
                                          intercomm, tern_f_errcodes(errcodes)));
    argv_free(c_argv);
    free(c_command);
}
TERN_F77_NAMES(mpi_comm_spawn, MPI_COMM_SPAWN)
TERN_F08_NAMES(mpi_comm_spawn, comm_spawn_f08_)

/* ARRAY_OF_COMMANDS(COUNT) and ARRAY_OF_ARGV(COUNT, *), column-major. */
void pmpi_comm_spawn_multiple_(const MPI_Fint *count, const char *commands, const char *argvs,
                               const MPI_Fint *maxprocs, const MPI_Info *infos,
                               const MPI_Fint *root, const MPI_Comm *comm, MPI_Comm *intercomm,
                               MPI_Fint *errcodes, MPI_Fint *ierror, size_t commands_len,
                               size_t argvs_len)
{
    int n = *count > 0 ? *count : 0;
    char **c_commands = calloc((size_t)n + 1, sizeof *c_commands);
    char ***c_argvs = NULL;
    if (argvs != &mpiprivc_.argvs_null && argvs != tern_f08_argvs_null)
        c_argvs = calloc((size_t)n + 1, sizeof *c_argvs);
    for (int i = 0; c_commands && i < n; i++)
        c_commands[i] = tern_f_str_in(commands + (size_t)i * commands_len, commands_len);
    /* Element (i, j) of ARRAY_OF_ARGV is at i + j * COUNT. */
    for (int i = 0; c_argvs && i < n; i++) {
        size_t m = 0;
        for (;; m++) {
            char *s = tern_f_str_in(argvs + ((size_t)i + m * (size_t)n) * argvs_len, argvs_len);
            int blank = s == NULL || s[0] == '\0';
            free(s);
            if (blank) break;
        }
        c_argvs[i] = calloc(m + 1, sizeof **c_argvs);
        for (size_t j = 0; c_argvs[i] && j < m; j++)
            c_argvs[i][j] =
                tern_f_str_in(argvs + ((size_t)i + j * (size_t)n) * argvs_len, argvs_len);
    }
    tern_f_ierror(ierror,
                  PMPI_Comm_spawn_multiple(*count, c_commands, c_argvs, maxprocs, infos, *root,
                                           *comm, intercomm, tern_f_errcodes(errcodes)));
    for (int i = 0; c_argvs && i < n; i++) argv_free(c_argvs[i]);
    free(c_argvs);
    argv_free(c_commands);
}
TERN_F77_NAMES(mpi_comm_spawn_multiple, MPI_COMM_SPAWN_MULTIPLE)
TERN_F08_NAMES(mpi_comm_spawn_multiple, comm_spawn_multiple_f08_)

/* The conversion functions take Fortran arguments; MPI_CONVERSION_FN_NULL
 * is C's NULL. */
/* The Fortran functions of a data representation.  mpif.h's conversion
 * functions take their buffers as arrays and mpi_f08's as TYPE(C_PTR),
 * VALUE: either way the address itself is passed, and every other argument
 * by reference, so one set of C functions calls both.  The registration
 * lasts as long as the process (MPI-4.1 14.5.3), and so does this. */
typedef void(f_conversion_fn)(void *, const MPI_Fint *, const MPI_Fint *, void *,
                              const MPI_Offset *, MPI_Aint *, MPI_Fint *);
typedef void(f_extent_fn)(const MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
struct f_datarep {
    f_conversion_fn *read, *write;
    f_extent_fn *extent;
    MPI_Aint extra;
};

static f_conversion_fn *f_conversion_of(void *fn)
{
    return fn == (void *)f_conversion_null || fn == (void *)tern_f08_conversion_null
               ? NULL
               : (f_conversion_fn *)fn;
}

static int f_convert(f_conversion_fn *fn, void *userbuf, MPI_Datatype type, int count,
                     void *filebuf, MPI_Offset position, struct f_datarep *d)
{
    MPI_Fint ftype = PMPI_Type_c2f(type), fcount = count, ierr = MPI_SUCCESS;
    fn(userbuf, &ftype, &fcount, filebuf, &position, &d->extra, &ierr);
    return ierr;
}

static int f_datarep_read(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                          MPI_Offset position, void *extra)
{
    struct f_datarep *d = extra;
    return f_convert(d->read, userbuf, type, count, filebuf, position, d);
}

static int f_datarep_write(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                           MPI_Offset position, void *extra)
{
    struct f_datarep *d = extra;
    return f_convert(d->write, userbuf, type, count, filebuf, position, d);
}

static int f_datarep_extent(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    struct f_datarep *d = extra;
    MPI_Fint ftype = PMPI_Type_c2f(type), ierr = MPI_SUCCESS;
    d->extent(&ftype, extent, &d->extra, &ierr);
    return ierr;
}

void pmpi_register_datarep_(const char *datarep, void *read_fn, void *write_fn, void *extent_fn,
                            const MPI_Aint *extra, MPI_Fint *ierror, size_t datarep_len)
{
    struct f_datarep *d = malloc(sizeof *d);
    if (!d) {
        tern_f_ierror(ierror, PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM));
        return;
    }
    d->read = f_conversion_of(read_fn);
    d->write = f_conversion_of(write_fn);
    d->extent = (f_extent_fn *)extent_fn;
    d->extra = *extra;
    char *c_datarep = tern_f_str_in(datarep, datarep_len);
    MPI_Datarep_conversion_function *rd = d->read ? f_datarep_read : NULL;
    MPI_Datarep_conversion_function *wr = d->write ? f_datarep_write : NULL;
    int rc = PMPI_Register_datarep(c_datarep, rd, wr, d->extent ? f_datarep_extent : NULL, d);
    free(c_datarep);
    if (rc != MPI_SUCCESS) free(d);
    tern_f_ierror(ierror, rc);
}
TERN_F77_NAMES(mpi_register_datarep, MPI_REGISTER_DATAREP)
TERN_F08_NAMES(mpi_register_datarep, register_datarep_f08_)

/* ---- Statuses between mpi_f08 and mpif.h ---- */
void pmpi_status_f082f_(const MPI_F08_status *f08, MPI_Fint *f, MPI_Fint *ierror)
{
    *ierror = PMPI_Status_f082f(f08, f);
}
TERN_F77_NAMES(mpi_status_f082f, MPI_STATUS_F082F)

void pmpi_status_f2f08_(const MPI_Fint *f, MPI_F08_status *f08, MPI_Fint *ierror)
{
    *ierror = PMPI_Status_f2f08(f, f08);
}
TERN_F77_NAMES(mpi_status_f2f08, MPI_STATUS_F2F08)

/* ---- Removed in MPI-3.0: addresses and displacements are default INTEGERs ---- */
void pmpi_address_(void *location, MPI_Fint *address, MPI_Fint *ierror)
{
    MPI_Aint a = 0;
    *ierror = PMPI_Get_address(tern_f_buf(location), &a);
    *address = (MPI_Fint)a;
}
TERN_F77_NAMES(mpi_address, MPI_ADDRESS)

#define TERN_F77_NARROW_AINT(l, U, C)                                       \
    void p##l##_(const MPI_Datatype *type, MPI_Fint *out, MPI_Fint *ierror) \
    {                                                                       \
        MPI_Aint v = 0;                                                     \
        *ierror = C(*type, &v);                                             \
        *out = (MPI_Fint)v;                                                 \
    }                                                                       \
    TERN_F77_NAMES(l, U)
TERN_F77_NARROW_AINT(mpi_type_extent, MPI_TYPE_EXTENT, PMPI_Type_extent)
TERN_F77_NARROW_AINT(mpi_type_lb, MPI_TYPE_LB, PMPI_Type_lb)
TERN_F77_NARROW_AINT(mpi_type_ub, MPI_TYPE_UB, PMPI_Type_ub)

void pmpi_type_hvector_(const MPI_Fint *count, const MPI_Fint *blocklength, const MPI_Fint *stride,
                        const MPI_Datatype *oldtype, MPI_Datatype *newtype, MPI_Fint *ierror)
{
    *ierror = PMPI_Type_create_hvector(*count, *blocklength, *stride, *oldtype, newtype);
}
TERN_F77_NAMES(mpi_type_hvector, MPI_TYPE_HVECTOR)

static MPI_Aint *widen(const MPI_Fint *v, MPI_Fint count)
{
    MPI_Aint *w = malloc((count > 0 ? (size_t)count : 1) * sizeof *w);
    for (MPI_Fint i = 0; w && i < count; i++) w[i] = v[i];
    return w;
}

void pmpi_type_hindexed_(const MPI_Fint *count, const MPI_Fint *blocklengths,
                         const MPI_Fint *displs, const MPI_Datatype *oldtype, MPI_Datatype *newtype,
                         MPI_Fint *ierror)
{
    MPI_Aint *d = widen(displs, *count);
    *ierror =
        d ? PMPI_Type_create_hindexed(*count, blocklengths, d, *oldtype, newtype) : MPI_ERR_NO_MEM;
    free(d);
}
TERN_F77_NAMES(mpi_type_hindexed, MPI_TYPE_HINDEXED)

void pmpi_type_struct_(const MPI_Fint *count, const MPI_Fint *blocklengths, const MPI_Fint *displs,
                       const MPI_Datatype *types, MPI_Datatype *newtype, MPI_Fint *ierror)
{
    MPI_Aint *d = widen(displs, *count);
    *ierror = d ? PMPI_Type_create_struct(*count, blocklengths, d, types, newtype) : MPI_ERR_NO_MEM;
    free(d);
}
TERN_F77_NAMES(mpi_type_struct, MPI_TYPE_STRUCT)

void pmpi_errhandler_create_(MPI_Comm_errhandler_function *fn, MPI_Errhandler *eh, MPI_Fint *ierror)
{
    *ierror = PMPI_Comm_create_errhandler(fn, eh);
}
TERN_F77_NAMES(mpi_errhandler_create, MPI_ERRHANDLER_CREATE)

void pmpi_errhandler_get_(const MPI_Comm *comm, MPI_Errhandler *eh, MPI_Fint *ierror)
{
    *ierror = PMPI_Comm_get_errhandler(*comm, eh);
}
TERN_F77_NAMES(mpi_errhandler_get, MPI_ERRHANDLER_GET)

void pmpi_errhandler_set_(const MPI_Comm *comm, const MPI_Errhandler *eh, MPI_Fint *ierror)
{
    *ierror = PMPI_Comm_set_errhandler(*comm, *eh);
}
TERN_F77_NAMES(mpi_errhandler_set, MPI_ERRHANDLER_SET)
