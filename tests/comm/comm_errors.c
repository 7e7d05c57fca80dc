/* Bad arguments to the communicator, group and error handler calls under
 * MPI_ERRORS_RETURN: the right class, a message naming the call; and user
 * error handlers (called with the communicator and the code, inherited by
 * dup, kept alive by the communicators using them after
 * MPI_Errhandler_free). */
#include "tern_expect.h"

static int calls, last_class;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    MPI_Error_class(*code, &last_class);
}

int main(int argc, char **argv)
{
    int rank, size, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "world handler 0x%x", (unsigned)eh);
    MPI_Errhandler_free(&eh);

    MPI_Comm c = MPI_COMM_NULL, wc = MPI_COMM_WORLD;
    MPI_Group wg, g = MPI_GROUP_NULL;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));

    /* communicators */
    expect(MPI_Comm_size(MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Comm_size", "MPI_COMM_NULL");
    expect(MPI_Comm_rank((MPI_Comm)0x12345, &x), MPI_ERR_COMM, "MPI_Comm_rank", "0x12345");
    expect(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_size", "size");
    expect(MPI_Comm_free(&wc), MPI_ERR_COMM, "MPI_Comm_free", "MPI_COMM_WORLD");
    CHECK(wc == MPI_COMM_WORLD, "failed free changed the handle");
    expect(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG, "MPI_Comm_split", "color=-5");
    expect(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG,
           "MPI_Comm_split_type", "split_type=99");
    expect(MPI_Comm_remote_size(MPI_COMM_WORLD, &x), MPI_ERR_COMM, "MPI_Comm_remote_size", NULL);
    expect(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM, "MPI_Comm_remote_group", NULL);
    int *val, flag;
    expect(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &val, &flag), MPI_ERR_KEYVAL,
           "MPI_Comm_get_attr", "keyval");
    expect(MPI_Comm_create_group(MPI_COMM_WORLD, wg, -1, &c), MPI_ERR_TAG, "MPI_Comm_create_group",
           "tag=-1");
    expect(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP, "MPI_Comm_create",
           "group");
    expect(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_dup", "newcomm");
    expect(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Comm_compare",
           "comm2");
    expect(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_set_name", "comm_name");

    /* groups */
    int bad[2] = {size, 0}, twice[2] = {0, 0};
    expect(MPI_Group_incl(wg, 1, bad, &g), MPI_ERR_RANK, "MPI_Group_incl", "ranks[0]");
    if (size > 1) expect(MPI_Group_incl(wg, 2, twice, &g), MPI_ERR_RANK, "MPI_Group_incl", "twice");
    expect(MPI_Group_incl(wg, size + 1, twice, &g), MPI_ERR_ARG, "MPI_Group_incl", "n=");
    expect(MPI_Group_excl(wg, 1, bad, &g), MPI_ERR_RANK, "MPI_Group_excl", "ranks[0]");
    int zero_stride[1][3] = {{0, 0, 0}}, out_of_range[1][3] = {{0, size, 1}};
    expect(MPI_Group_range_incl(wg, 1, zero_stride, &g), MPI_ERR_ARG, "MPI_Group_range_incl",
           "stride");
    expect(MPI_Group_range_excl(wg, 1, out_of_range, &g), MPI_ERR_ARG, "MPI_Group_range_excl",
           "last=");
    expect(MPI_Group_translate_ranks(wg, 1, bad, wg, twice), MPI_ERR_RANK,
           "MPI_Group_translate_ranks", "ranks1[0]");
    expect(MPI_Group_size(MPI_GROUP_NULL, &x), MPI_ERR_GROUP, "MPI_Group_size", "MPI_GROUP_NULL");
    MPI_Group gnull = MPI_GROUP_NULL;
    expect(MPI_Group_free(&gnull), MPI_ERR_GROUP, "MPI_Group_free", NULL);
    expect(MPI_Group_union(wg, (MPI_Group)0x0badbeef, &g), MPI_ERR_GROUP, "MPI_Group_union",
           "group2");

    /* error handlers */
    MPI_Errhandler enull = MPI_ERRHANDLER_NULL;
    expect(MPI_Errhandler_free(&enull), MPI_ERR_ARG, "MPI_Errhandler_free", NULL);
    expect(MPI_Comm_set_errhandler(MPI_COMM_WORLD, (MPI_Errhandler)0x1234), MPI_ERR_ARG,
           "MPI_Comm_set_errhandler", "errhandler");
    expect(MPI_Comm_create_errhandler(NULL, &eh), MPI_ERR_ARG, "MPI_Comm_create_errhandler", NULL);

    /* A user handler on a dup: called with the dup and the class. */
    MPI_Comm dup, dup2;
    MPI_Errhandler user;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &user));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, user));
    int rc = MPI_Comm_split(dup, -3, 0, &c);
    CHECK(rc != MPI_SUCCESS && calls == 1 && last_class == MPI_ERR_ARG && last_comm == dup,
          "user handler: rc %d calls %d class %d", rc, calls, last_class);
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == user, "get_errhandler 0x%x want 0x%x", (unsigned)eh, (unsigned)user);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    /* Inherited by a dup of the dup; freeing the user's handle keeps it alive. */
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK_MPI(MPI_Errhandler_free(&user));
    CHECK(user == MPI_ERRHANDLER_NULL, "freed handler handle");
    CHECK_MPI(MPI_Comm_call_errhandler(dup2, MPI_ERR_OTHER));
    CHECK(calls == 2 && last_class == MPI_ERR_OTHER && last_comm == dup2,
          "call_errhandler: calls %d", calls);
    MPI_Comm_free(&dup);
    rc = MPI_Barrier(MPI_COMM_NULL); /* world's handler (return) */
    CHECK(rc != MPI_SUCCESS && calls == 2, "world used the user handler");
    CHECK_MPI(MPI_Errhandler_set(dup2, MPI_ERRORS_RETURN)); /* deprecated names */
    CHECK_MPI(MPI_Errhandler_get(dup2, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "Errhandler_get 0x%x", (unsigned)eh);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&dup2);

    MPI_Group_free(&wg);
    MPI_Finalize();
    return 0;
}
