/* Communicator attributes: callbacks called with the right arguments and
 * counts on set/overwrite/delete/dup/free, a failing copy callback making
 * MPI_Comm_dup fail with its code (copies already made deleted again), a
 * failing delete callback keeping the value or the communicator, a keyval
 * freed while attributes use it, the MPI-1 names, the predefined
 * attributes, and bad arguments. */
#include <stdint.h>
#include <string.h>

#include "tern_expect.h"

#define MAXLOG 64
struct call {
    char what; /* 'c' copy, 'd' delete */
    MPI_Comm comm;
    int keyval;
    intptr_t val;
    void *extra;
};
static struct call calls[MAXLOG];
static int ncalls;
static int fail_copy_code, fail_delete_code; /* nonzero: the next call returns it */

static void log_call(char what, MPI_Comm comm, int keyval, void *val, void *extra)
{
    CHECK(ncalls < MAXLOG, "too many callback calls");
    calls[ncalls++] = (struct call){what, comm, keyval, (intptr_t)val, extra};
}

static int copy_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    log_call('c', oldcomm, keyval, in, extra);
    if (fail_copy_code) {
        int rc = fail_copy_code;
        fail_copy_code = 0;
        return rc;
    }
    *(void **)out = (void *)((intptr_t)in + 1000); /* the copy gets a value of its own */
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    log_call('d', comm, keyval, val, extra);
    if (fail_delete_code) {
        int rc = fail_delete_code;
        fail_delete_code = 0;
        return rc;
    }
    return MPI_SUCCESS;
}

/* A copy callback that declines to copy. */
static int nocopy_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)out;
    log_call('c', oldcomm, keyval, in, extra);
    *flag = 0;
    return MPI_SUCCESS;
}

static void expect_call(int i, char what, MPI_Comm comm, int keyval, intptr_t val, void *extra)
{
    CHECK(i < ncalls, "call %d missing (%d calls)", i, ncalls);
    struct call *c = &calls[i];
    CHECK(c->what == what && c->comm == comm && c->keyval == keyval && c->val == val &&
              c->extra == extra,
          "call %d: got %c comm 0x%x key 0x%x val %ld extra %p; want %c 0x%x 0x%x %ld %p", i,
          c->what, (unsigned)c->comm, (unsigned)c->keyval, (long)c->val, c->extra, what,
          (unsigned)comm, (unsigned)keyval, (long)val, extra);
}

static intptr_t get(MPI_Comm comm, int keyval, int *flag)
{
    void *v = (void *)-1;
    CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &v, flag));
    return *flag ? (intptr_t)v : -1;
}

static void callbacks(void)
{
    int k1, k2, k3, flag;
    static int extra1, extra2;
    MPI_Comm a, d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k1, &extra1));
    CHECK_MPI(MPI_Comm_create_keyval(nocopy_fn, delete_fn, &k2, &extra2));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL));
    CHECK(k1 != k2 && k2 != k3 && k1 != MPI_KEYVAL_INVALID, "keyvals %x %x %x", k1, k2, k3);
    int pre[] = {MPI_TAG_UB,        MPI_HOST,         MPI_IO,    MPI_WTIME_IS_GLOBAL,
                 MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE, MPI_APPNUM};
    for (int i = 0; i < 7; i++)
        CHECK(k1 != pre[i] && k2 != pre[i] && k3 != pre[i], "keyval collides with predefined");

    /* not set yet */
    CHECK(get(a, k1, &flag) == -1 && !flag, "unset attribute found");

    ncalls = 0;
    CHECK_MPI(MPI_Comm_set_attr(a, k1, (void *)11));
    CHECK_MPI(MPI_Comm_set_attr(a, k2, (void *)22));
    CHECK_MPI(MPI_Comm_set_attr(a, k3, (void *)33));
    CHECK(ncalls == 0, "setting new attributes called %d callbacks", ncalls);
    CHECK(get(a, k1, &flag) == 11 && flag, "k1");
    CHECK(get(a, k2, &flag) == 22 && flag, "k2");
    CHECK(get(a, k3, &flag) == 33 && flag, "k3");

    /* overwrite: the old value's delete callback, once */
    CHECK_MPI(MPI_Comm_set_attr(a, k1, (void *)12));
    CHECK(ncalls == 1, "overwrite: %d calls", ncalls);
    expect_call(0, 'd', a, k1, 11, &extra1);
    CHECK(get(a, k1, &flag) == 12, "overwritten value");

    /* dup: copy callbacks in the order MPICH keeps (newest first) */
    ncalls = 0;
    CHECK_MPI(MPI_Comm_dup(a, &d));
    CHECK(ncalls == 2, "dup: %d calls", ncalls);
    expect_call(0, 'c', a, k2, 22, &extra2);
    expect_call(1, 'c', a, k1, 12, &extra1);
    CHECK(get(d, k1, &flag) == 1012 && flag, "copied value");
    get(d, k2, &flag);
    CHECK(!flag, "attribute whose copy callback declined was copied");
    CHECK(get(d, k3, &flag) == 33 && flag, "MPI_COMM_DUP_FN copy");
    CHECK(get(a, k1, &flag) == 12, "original changed by dup");

    /* delete */
    ncalls = 0;
    CHECK_MPI(MPI_Comm_delete_attr(d, k1));
    CHECK(ncalls == 1, "delete: %d calls", ncalls);
    expect_call(0, 'd', d, k1, 1012, &extra1);
    get(d, k1, &flag);
    CHECK(!flag, "deleted attribute still there");
    CHECK_MPI(MPI_Comm_delete_attr(d, k1)); /* absent: no error, as MPICH */
    CHECK(ncalls == 1, "deleting an absent attribute called back");

    /* free: every remaining attribute's delete callback (k3 has none) */
    ncalls = 0;
    MPI_Comm a_handle = a;
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK(ncalls == 2, "free: %d calls", ncalls);
    expect_call(0, 'd', a_handle, k2, 22, &extra2);
    expect_call(1, 'd', a_handle, k1, 12, &extra1);
    ncalls = 0;
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(ncalls == 0, "free of d: %d calls", ncalls);

    CHECK_MPI(MPI_Comm_free_keyval(&k1));
    CHECK(k1 == MPI_KEYVAL_INVALID, "freed keyval not reset");
    CHECK_MPI(MPI_Comm_free_keyval(&k2));
    CHECK_MPI(MPI_Comm_free_keyval(&k3));
}

static void copy_failure(void)
{
    int k1, k2, k3, flag, cls, code;
    MPI_Comm a, d = MPI_COMM_NULL;
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k1, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k2, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k3, NULL));
    CHECK_MPI(MPI_Comm_set_attr(a, k1, (void *)1));
    CHECK_MPI(MPI_Comm_set_attr(a, k2, (void *)2));
    CHECK_MPI(MPI_Comm_set_attr(a, k3, (void *)3));

    /* The list is k3, k2, k1.  A failing copy callback makes the dup fail
     * with exactly its code, and the callbacks after it are not called. */
    int rc;
    ncalls = 0;
    CHECK_MPI(MPI_Comm_dup(a, &d));
    CHECK(ncalls == 3, "dup: %d calls", ncalls);
    CHECK_MPI(MPI_Comm_free(&d));

    ncalls = 0;
    fail_copy_code = code;
    d = MPI_COMM_SELF; /* a failed dup must overwrite it */
    rc = MPI_Comm_dup(a, &d);
    CHECK(rc == code, "failing copy: dup returned %d, want the callback's %d", rc, code);
    CHECK(ncalls == 1, "failing first copy: %d calls", ncalls);
    expect_call(0, 'c', a, k3, 3, NULL);
    CHECK(d == MPI_COMM_NULL, "a failed dup gave a communicator");

    /* second copy fails: the first copy is deleted again */
    MPI_Comm_delete_attr(a, k3);
    int k4;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_fn, &k4, NULL));
    CHECK_MPI(MPI_Comm_set_attr(a, k4, (void *)4)); /* list: k4, k2, k1 */
    ncalls = 0;
    fail_copy_code = MPI_ERR_OTHER;
    d = MPI_COMM_SELF;
    rc = MPI_Comm_dup(a, &d);
    CHECK(rc == MPI_ERR_OTHER, "failing copy: dup returned %d", rc);
    CHECK(ncalls == 2, "failing second copy: %d calls", ncalls);
    expect_call(0, 'c', a, k2, 2, NULL);
    CHECK(calls[1].what == 'd' && calls[1].keyval == k4 && calls[1].val == 4,
          "the copy made before the failure was not deleted");
    CHECK(d == MPI_COMM_NULL, "a failed dup gave a communicator");
    /* the original is untouched */
    CHECK(get(a, k1, &flag) == 1 && get(a, k2, &flag) == 2 && get(a, k4, &flag) == 4,
          "original attributes changed by a failed dup");

    /* dup_with_info copies attributes the same way */
    ncalls = 0;
    CHECK_MPI(MPI_Comm_dup_with_info(a, MPI_INFO_NULL, &d));
    CHECK(ncalls == 2 && get(d, k1, &flag) == 1001 && get(d, k4, &flag) == 4,
          "dup_with_info: %d calls", ncalls);
    CHECK_MPI(MPI_Comm_free(&d));

    /* failing delete callbacks */
    ncalls = 0;
    fail_delete_code = code;
    rc = MPI_Comm_set_attr(a, k1, (void *)100);
    CHECK(rc == code, "overwrite with failing delete returned %d", rc);
    CHECK(get(a, k1, &flag) == 1, "failed overwrite changed the value");
    fail_delete_code = code;
    rc = MPI_Comm_delete_attr(a, k1);
    CHECK(rc == code, "delete with failing callback returned %d", rc);
    CHECK(get(a, k1, &flag) == 1 && flag, "failed delete removed the attribute");
    fail_delete_code = code;
    MPI_Comm keep = a;
    rc = MPI_Comm_free(&a);
    CHECK(rc == code, "free with failing delete callback returned %d", rc);
    CHECK(a == keep, "failed free reset the handle");
    int size;
    CHECK_MPI(MPI_Comm_size(a, &size)); /* still a communicator */
    CHECK_MPI(MPI_Barrier(a));
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK_MPI(MPI_Comm_free_keyval(&k1));
    CHECK_MPI(MPI_Comm_free_keyval(&k2));
    CHECK_MPI(MPI_Comm_free_keyval(&k3));
    CHECK_MPI(MPI_Comm_free_keyval(&k4));
    CHECK_MPI(MPI_Remove_error_code(code));
    CHECK_MPI(MPI_Remove_error_class(cls));
}

static void keyval_freed_in_use(void)
{
    int k, kcopy;
    static int extra;
    MPI_Comm a, d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &k, &extra));
    kcopy = k;
    CHECK_MPI(MPI_Comm_set_attr(a, k, (void *)7));
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "freed keyval not reset");
    /* the handle is dead for new uses ... */
    expect(MPI_Comm_set_attr(a, kcopy, (void *)8), MPI_ERR_KEYVAL, "MPI_Comm_set_attr", NULL);
    /* ... but the attribute lives on: copied by dup, deleted by free */
    ncalls = 0;
    CHECK_MPI(MPI_Comm_dup(a, &d));
    CHECK(ncalls == 1, "dup with a freed keyval: %d calls", ncalls);
    expect_call(0, 'c', a, kcopy, 7, &extra);
    ncalls = 0;
    MPI_Comm ah = a, dh = d;
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(ncalls == 2, "free with a freed keyval: %d calls", ncalls);
    expect_call(0, 'd', ah, kcopy, 7, &extra);
    expect_call(1, 'd', dh, kcopy, 1007, &extra);
}

static void mpi1_names(void)
{
    int k, flag;
    void *v;
    MPI_Comm d;
    CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k, NULL));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k, (void *)99));
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag));
    CHECK(flag && (intptr_t)v == 99, "Attr_get %d %ld", flag, (long)(intptr_t)v);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Attr_get(d, k, &v, &flag));
    CHECK(flag && (intptr_t)v == 99, "MPI_DUP_FN did not copy");
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k));
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag));
    CHECK(!flag, "Attr_delete left the attribute");
    int k2;
    CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k2, NULL));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k2, (void *)5));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Attr_get(d, k2, &v, &flag));
    CHECK(!flag, "MPI_NULL_COPY_FN copied");
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k2));
    CHECK_MPI(MPI_Keyval_free(&k));
    CHECK_MPI(MPI_Keyval_free(&k2));
    CHECK(k == MPI_KEYVAL_INVALID && k2 == MPI_KEYVAL_INVALID, "Keyval_free did not reset");
}

static void predefined(int size)
{
    int *v, flag;
    MPI_Comm comms[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int i = 0; i < 2; i++) {
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_TAG_UB, &v, &flag));
        CHECK(flag && *v == 2147483647, "MPI_TAG_UB %d %d", flag, flag ? *v : 0);
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_HOST, &v, &flag));
        CHECK(flag && *v == MPI_PROC_NULL, "MPI_HOST");
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_IO, &v, &flag));
        CHECK(flag && *v == MPI_ANY_SOURCE, "MPI_IO");
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_WTIME_IS_GLOBAL, &v, &flag));
        CHECK(flag && *v == 0, "MPI_WTIME_IS_GLOBAL");
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_UNIVERSE_SIZE, &v, &flag));
        CHECK(flag && *v >= size, "MPI_UNIVERSE_SIZE %d", flag ? *v : -1);
        CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_APPNUM, &v, &flag));
        CHECK(flag && *v == 0, "MPI_APPNUM %d", flag ? *v : -1);
        CHECK_MPI(MPI_Attr_get(comms[i], MPI_LASTUSEDCODE, &v, &flag));
        CHECK(flag && *v >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d", flag ? *v : -1);
    }
    /* the tag bound is real: a message with it goes through */
    int rank, x = 5, y = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, rank, 2147483647, &y, 1, MPI_INT, rank, 2147483647,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(y == 5, "message with tag MPI_TAG_UB");
}

static void bad_arguments(void)
{
    int k, tk, wk, flag;
    void *v;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wk, NULL));
    expect(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL, "MPI_Comm_set_attr",
           "predefined");
    expect(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_APPNUM), MPI_ERR_KEYVAL, "MPI_Comm_delete_attr",
           "predefined");
    int pk = MPI_HOST;
    expect(MPI_Comm_free_keyval(&pk), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval", "predefined");
    expect(MPI_Comm_set_attr(MPI_COMM_WORLD, tk, NULL), MPI_ERR_KEYVAL, "MPI_Comm_set_attr",
           "datatype");
    expect(MPI_Comm_get_attr(MPI_COMM_WORLD, wk, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr",
           "window");
    expect(MPI_Type_set_attr(MPI_INT, k, NULL), MPI_ERR_KEYVAL, "MPI_Type_set_attr",
           "communicator");
    expect(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL, "MPI_Type_get_attr",
           "predefined");
    expect(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL,
           "MPI_Comm_get_attr", "MPI_KEYVAL_INVALID");
    expect(MPI_Comm_get_attr(MPI_COMM_WORLD, 0x12345, &v, &flag), MPI_ERR_KEYVAL,
           "MPI_Comm_get_attr", "0x12345");
    expect(MPI_Comm_get_attr(MPI_COMM_NULL, k, &v, &flag), MPI_ERR_COMM, "MPI_Comm_get_attr",
           "MPI_COMM_NULL");
    expect(MPI_Comm_get_attr(MPI_COMM_WORLD, k, NULL, &flag), MPI_ERR_ARG, "MPI_Comm_get_attr",
           "attribute_val");
    expect(MPI_Comm_get_attr(MPI_COMM_WORLD, k, &v, NULL), MPI_ERR_ARG, "MPI_Comm_get_attr",
           "flag");
    expect(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
           MPI_ERR_ARG, "MPI_Comm_create_keyval", "keyval");
    expect(MPI_Type_set_attr(MPI_DATATYPE_NULL, tk, NULL), MPI_ERR_TYPE, "MPI_Type_set_attr", NULL);
    int kk = k;
    CHECK_MPI(MPI_Comm_free_keyval(&kk));
    expect(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval", "freed");
    /* windows: keyvals work, handles that name no window do not */
    expect(MPI_Win_set_attr(MPI_WIN_NULL, wk, NULL), MPI_ERR_WIN, "MPI_Win_set_attr",
           "MPI_WIN_NULL");
    expect(MPI_Win_get_attr((MPI_Win)0x12345, wk, &v, &flag), MPI_ERR_WIN, "MPI_Win_get_attr",
           "is not a window");
    expect(MPI_Win_delete_attr((MPI_Win)0x12345, wk), MPI_ERR_WIN, "MPI_Win_delete_attr", NULL);
    expect(MPI_Type_free_keyval(&wk), MPI_ERR_KEYVAL, "MPI_Type_free_keyval", "window");
    CHECK_MPI(MPI_Win_free_keyval(&wk));
    CHECK(wk == MPI_KEYVAL_INVALID, "Win_free_keyval");
    CHECK_MPI(MPI_Type_free_keyval(&tk));
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    callbacks();
    copy_failure();
    keyval_freed_in_use();
    mpi1_names();
    predefined(size);
    bad_arguments();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("attr_comm: all passed\n");
    MPI_Finalize();
    return 0;
}
