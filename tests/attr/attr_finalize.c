/* MPI_Finalize deletes MPI_COMM_SELF's attributes first (MPI-4.1 11.2.4),
 * in the reverse order of their first setting (as MPICH), while MPI is
 * still fully usable: the callbacks call MPI; then those of MPI_COMM_WORLD
 * and of predefined datatypes.  The order is checked after MPI_Finalize
 * returns. */
#include <stdint.h>
#include <string.h>

#include "tern_test.h"

static char order[64];
static int nord, errors, keys[3], size;

static void fail(const char *what)
{
    fprintf(stderr, "FAIL attr_finalize: %s\n", what);
    errors++;
}

static int self_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)extra;
    int fin = 1, sum = 0, one = 1, flag = 0;
    void *v;
    order[nord++] = (char)('0' + (int)(intptr_t)val);
    if (comm != MPI_COMM_SELF) fail("callback got another communicator");
    if (MPI_Finalized(&fin) != MPI_SUCCESS || fin) fail("MPI_Finalized is true in the callback");
    /* collective communication still works */
    if (MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
        sum != size)
        fail("MPI_Allreduce in the callback");
    /* the attributes not deleted yet are still there */
    for (int i = 0; i < 3; i++) {
        if (keys[i] == keyval) break;
        /* keys set before this one are deleted after it */
        if (MPI_Comm_get_attr(MPI_COMM_SELF, keys[i], &v, &flag) != MPI_SUCCESS || !flag)
            fail("an attribute set earlier is gone already");
    }
    return MPI_SUCCESS;
}

static int world_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval;
    (void)val;
    (void)extra;
    order[nord++] = 'W';
    if (comm != MPI_COMM_WORLD) fail("world callback got another communicator");
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)keyval;
    (void)val;
    (void)extra;
    order[nord++] = 'T';
    if (t != MPI_INT) fail("type callback got another type");
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int wk, tk;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &keys[i], NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, world_delete, &wk, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, &tk, NULL));
    /* set in the order 1, 2, 3; setting 1 again keeps its place */
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, tk, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, wk, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[0], (void *)9));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[1], (void *)2));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[2], (void *)3));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[0], (void *)1)); /* deletes value 9 */
    CHECK(nord == 1 && order[0] == '9', "overwrite: %d callbacks", nord);
    nord = 0;
    /* freeing the keyvals does not stop the attributes being deleted */
    int kf = keys[2]; /* a copy: the callbacks compare with keys[] */
    CHECK_MPI(MPI_Comm_free_keyval(&kf));
    CHECK_MPI(MPI_Comm_free_keyval(&wk));
    MPI_Finalize();
    order[nord] = 0;
    if (strcmp(order, "321WT") != 0) {
        fprintf(stderr, "FAIL attr_finalize: deletion order '%s', want '321WT'\n", order);
        errors++;
    }
    if (errors) return 1;
    printf("attr_finalize: all passed\n");
    return 0;
}
