/* A keyval freed while attributes use it (MPI-4.1 7.7.2): the attributes
 * stay readable, deletable (callbacks run) and copyable through a saved
 * copy of the handle until the last is gone; the freed keyval takes no new
 * values; freeing it again meanwhile is accepted (MPICH's keyval_double_free
 * frees it from its own delete callback); once the last attribute is gone
 * the handle is invalid: MPI_ERR_KEYVAL, not a crash.  Communicator and
 * datatype keyvals, with the MPI-1 names too.  Local to each rank. */
#include <stdint.h>

#include "tern_expect.h"

static int copies, deletes;

static int comm_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra;
    copies++;
    *(void **)out = (void *)((intptr_t)in + 100);
    *flag = 1;
    return MPI_SUCCESS;
}
static int comm_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c, (void)k, (void)val, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}
static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    return comm_copy((MPI_Comm)t, k, extra, in, out, flag);
}
static int type_delete(MPI_Datatype t, int k, void *val, void *extra)
{
    return comm_delete((MPI_Comm)t, k, val, extra);
}

/* Frees the keyval it is called for, every time (MPICH's test does). */
static int delete_frees(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c, (void)val, (void)extra;
    deletes++;
    return MPI_Keyval_free(&k);
}

static void expect_value(MPI_Comm c, int k, intptr_t want, const char *what)
{
    void *v = NULL;
    int flag = -1;
    CHECK_MPI(MPI_Comm_get_attr(c, k, &v, &flag));
    CHECK(want ? flag && (intptr_t)v == want : !flag, "%s: flag %d value %ld, want %ld", what, flag,
          (long)(intptr_t)v, (long)want);
}

static void comm_keyval(void)
{
    MPI_Comm a, b, d;
    int k, saved;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &a));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &b));
    CHECK_MPI(MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(b, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_create_keyval(comm_copy, comm_delete, &k, NULL));
    saved = k;
    CHECK_MPI(MPI_Comm_set_attr(a, k, (void *)1));
    CHECK_MPI(MPI_Comm_set_attr(b, k, (void *)2));
    copies = deletes = 0;
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval left the handle %d", k);
    CHECK(deletes == 0, "freeing the keyval ran %d delete callbacks", deletes);

    expect_value(a, saved, 1, "get through a freed keyval");
    expect(MPI_Comm_set_attr(a, saved, (void *)3), MPI_ERR_KEYVAL, "MPI_Comm_set_attr", "freed");
    expect_value(a, saved, 1, "refused set changed the value");
    CHECK(deletes == 0, "refused set ran a delete callback");

    CHECK_MPI(MPI_Comm_delete_attr(a, saved));
    CHECK(deletes == 1, "MPI_Comm_delete_attr through a freed keyval: %d callbacks", deletes);
    expect_value(a, saved, 0, "after MPI_Comm_delete_attr");
    CHECK_MPI(MPI_Comm_delete_attr(a, saved)); /* absent now: no error, no callback */
    CHECK(deletes == 1, "deleting an absent attribute ran a callback");

    CHECK_MPI(MPI_Comm_dup(b, &d));
    CHECK(copies == 1, "dup with a freed keyval: %d copy callbacks", copies);
    expect_value(d, saved, 102, "the dup's copy");
    CHECK_MPI(MPI_Attr_delete(d, saved));
    CHECK(deletes == 2, "MPI_Attr_delete through a freed keyval: %d callbacks", deletes);
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Comm_free(&b)); /* the last attribute: the keyval goes with it */
    CHECK(deletes == 3, "MPI_Comm_free: %d callbacks", deletes);

    void *v;
    int flag;
    expect(MPI_Comm_get_attr(a, saved, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr", NULL);
    expect(MPI_Comm_delete_attr(a, saved), MPI_ERR_KEYVAL, "MPI_Comm_delete_attr", NULL);
    k = saved;
    expect(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval", NULL);
    k = saved;
    expect(MPI_Keyval_free(&k), MPI_ERR_KEYVAL, "MPI_Keyval_free", NULL);
    CHECK_MPI(MPI_Comm_free(&a));
}

/* MPICH's keyval_double_free: each delete callback frees the keyval once
 * more, and the program frees it twice while MPI_COMM_SELF still holds an
 * attribute (deleted, with a fifth free, at MPI_Finalize). */
static void double_free(void)
{
    MPI_Comm d;
    int k, saved;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &d));
    CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, delete_frees, &k, NULL));
    saved = k;
    CHECK_MPI(MPI_Attr_put(MPI_COMM_SELF, k, NULL));
    CHECK_MPI(MPI_Attr_put(d, k, NULL));
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&d)); /* first free, from the callback */
    CHECK(deletes == 1, "MPI_Comm_free ran %d delete callbacks", deletes);
    CHECK_MPI(MPI_Keyval_free(&k));
    k = saved;
    CHECK_MPI(MPI_Keyval_free(&k));
    int flag = 0;
    void *v;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_SELF, saved, &v, &flag));
    CHECK(flag, "MPI_COMM_SELF lost the attribute");
}

static void type_keyval(void)
{
    MPI_Datatype t, u;
    int k, saved, flag = -1;
    void *v = NULL;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_keyval(type_copy, type_delete, &k, NULL));
    saved = k;
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)5));
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, k, (void *)6));
    copies = deletes = 0;
    CHECK_MPI(MPI_Type_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval left the handle %d", k);
    CHECK_MPI(MPI_Type_get_attr(t, saved, &v, &flag));
    CHECK(flag && (intptr_t)v == 5, "Type_get_attr through a freed keyval: flag %d", flag);
    expect(MPI_Type_set_attr(t, saved, (void *)7), MPI_ERR_KEYVAL, "MPI_Type_set_attr", "freed");
    CHECK_MPI(MPI_Type_dup(t, &u));
    CHECK(copies == 1, "Type_dup with a freed keyval: %d copy callbacks", copies);
    CHECK_MPI(MPI_Type_get_attr(u, saved, &v, &flag));
    CHECK(flag && (intptr_t)v == 105, "the dup's copy: flag %d", flag);
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, saved));
    CHECK(deletes == 1, "MPI_Type_delete_attr: %d callbacks", deletes);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&u));
    CHECK(deletes == 3, "MPI_Type_free: %d callbacks", deletes);
    k = saved;
    expect(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL, "MPI_Type_free_keyval", NULL);
    expect(MPI_Type_get_attr(MPI_INT, saved, &v, &flag), MPI_ERR_KEYVAL, "MPI_Type_get_attr", NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    comm_keyval();
    type_keyval();
    double_free();
    MPI_Finalize();
    return 0;
}
