/* Datatype attributes: callbacks on MPI_Type_dup (copy), overwrite,
 * delete and MPI_Type_free (delete) with the right handles and values;
 * failing callbacks make the call fail with their code; attributes on a
 * predefined type. */
#include <stdint.h>

#include "tern_expect.h"

static int ncopy, ndelete, fail_code;
static MPI_Datatype last_type;
static intptr_t last_val;

static int copy_fn(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    CHECK(extra == &ncopy, "copy extra_state %p", extra);
    ncopy++;
    last_type = oldtype;
    last_val = (intptr_t)in;
    if (fail_code) {
        int rc = fail_code;
        fail_code = 0;
        return rc;
    }
    *(void **)out = (void *)((intptr_t)in * 2);
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype type, int keyval, void *val, void *extra)
{
    (void)keyval;
    (void)extra;
    ndelete++;
    last_type = type;
    last_val = (intptr_t)val;
    if (fail_code) {
        int rc = fail_code;
        fail_code = 0;
        return rc;
    }
    return MPI_SUCCESS;
}

static intptr_t get(MPI_Datatype t, int k, int *flag)
{
    void *v;
    CHECK_MPI(MPI_Type_get_attr(t, k, &v, flag));
    return *flag ? (intptr_t)v : -1;
}

int main(int argc, char **argv)
{
    int k, flag, rank;
    MPI_Datatype vec, dup, dup2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Type_create_keyval(copy_fn, delete_fn, &k, &ncopy));
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));

    get(vec, k, &flag);
    CHECK(!flag, "unset attribute found");
    CHECK_MPI(MPI_Type_set_attr(vec, k, (void *)21));
    CHECK(get(vec, k, &flag) == 21 && flag, "value");
    CHECK_MPI(MPI_Type_set_attr(vec, k, (void *)5));
    CHECK(ndelete == 1 && last_type == vec && last_val == 21, "overwrite: %d deletes", ndelete);

    /* dup: copy callback on the old type; the copy keeps its own value */
    CHECK_MPI(MPI_Type_dup(vec, &dup));
    CHECK(ncopy == 1 && last_type == vec && last_val == 5, "dup: %d copies", ncopy);
    CHECK(get(dup, k, &flag) == 10 && flag, "copied value");
    CHECK(get(vec, k, &flag) == 5, "original changed");

    /* a failing copy: that code, and no new type */
    fail_code = MPI_ERR_TYPE;
    dup2 = MPI_INT; /* a failed dup must overwrite it */
    int rc = MPI_Type_dup(dup, &dup2);
    CHECK(rc == MPI_ERR_TYPE, "failing copy: Type_dup returned %d", rc);
    CHECK(dup2 == MPI_DATATYPE_NULL, "failed dup gave a type");

    /* delete, then free: delete callbacks with the right handle */
    ndelete = 0;
    CHECK_MPI(MPI_Type_delete_attr(dup, k));
    CHECK(ndelete == 1 && last_type == dup && last_val == 10, "delete: %d", ndelete);
    get(dup, k, &flag);
    CHECK(!flag, "deleted attribute found");
    CHECK_MPI(MPI_Type_set_attr(dup, k, (void *)3));
    ndelete = 0;
    MPI_Datatype dh = dup;
    CHECK_MPI(MPI_Type_free(&dup));
    CHECK(ndelete == 1 && last_type == dh && last_val == 3, "free: %d deletes", ndelete);

    /* a failing delete callback keeps the type */
    fail_code = MPI_ERR_OTHER;
    MPI_Datatype vh = vec;
    rc = MPI_Type_free(&vec);
    CHECK(rc == MPI_ERR_OTHER, "failing delete: Type_free returned %d", rc);
    CHECK(vec == vh, "failed free reset the handle");
    int size;
    CHECK_MPI(MPI_Type_size(vec, &size));
    CHECK(size == 3 * (int)sizeof(int), "type after failed free: size %d", size);
    CHECK_MPI(MPI_Type_free(&vec));

    /* a predefined type carries attributes too, and Type_dup copies them */
    CHECK_MPI(MPI_Type_set_attr(MPI_DOUBLE, k, (void *)8));
    CHECK(get(MPI_DOUBLE, k, &flag) == 8 && flag, "predefined type attribute");
    ncopy = 0;
    CHECK_MPI(MPI_Type_dup(MPI_DOUBLE, &dup));
    CHECK(ncopy == 1 && last_type == MPI_DOUBLE && get(dup, k, &flag) == 16, "dup of MPI_DOUBLE");
    CHECK_MPI(MPI_Type_free(&dup));
    ndelete = 0;
    CHECK_MPI(MPI_Type_delete_attr(MPI_DOUBLE, k));
    CHECK(ndelete == 1 && last_type == MPI_DOUBLE && last_val == 8, "delete on MPI_DOUBLE");
    CHECK_MPI(MPI_Type_free_keyval(&k));

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("attr_type: all passed\n");
    MPI_Finalize();
    return 0;
}
