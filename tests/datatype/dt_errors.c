/* Bad arguments to the datatype and op calls, one process, with
 * MPI_ERRORS_RETURN: each gets its error class and a message that names
 * the call, the argument and the value; nothing crashes. */
#include <string.h>

#include "tern_test.h"

static void expect(int rc, int cls, const char *text, const char *what)
{
    int c = -1, len;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &c);
    MPI_Error_string(rc, msg, &len);
    CHECK(c == cls, "%s: class %d, expected %d (message \"%s\")", what, c, cls, msg);
    CHECK(strstr(msg, text) != NULL, "%s: message \"%s\" lacks \"%s\"", what, msg, text);
}

void tt_noop_fn(void *in, void *inout, int *len, MPI_Datatype *dt);
void tt_noop_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)dt;
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t = MPI_DATATYPE_NULL, u;
    int ibuf[16] = {0}, pos, n;
    char out[64];

    /* negative counts and block lengths */
    expect(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT,
           "MPI_Type_contiguous: count=-1 must be >= 0", "contiguous count");
    expect(MPI_Type_vector(-1, 1, 1, MPI_INT, &t), MPI_ERR_COUNT,
           "MPI_Type_vector: count=-1 must be >= 0", "vector count");
    expect(MPI_Type_vector(2, -3, 1, MPI_INT, &t), MPI_ERR_COUNT,
           "MPI_Type_vector: blocklength=-3 must be >= 0", "vector blocklength");
    {
        int bl[3] = {1, -2, 1}, d[3] = {0, 1, 2};
        expect(MPI_Type_indexed(3, bl, d, MPI_INT, &t), MPI_ERR_COUNT,
               "MPI_Type_indexed: array_of_blocklengths[1]=-2 must be >= 0", "indexed blocklength");
        int okbl[3] = {1, 2, 1};
        expect(MPI_Type_indexed(3, okbl, NULL, MPI_INT, &t), MPI_ERR_ARG,
               "array_of_displacements is NULL", "indexed displacements");
        expect(MPI_Type_create_indexed_block(2, -1, d, MPI_INT, &t), MPI_ERR_COUNT,
               "blocklength=-1", "indexed_block blocklength");
    }

    /* null, foreign and never-created types */
    expect(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
           "MPI_Type_contiguous: oldtype is MPI_DATATYPE_NULL", "null oldtype");
    expect(MPI_Type_contiguous(2, (MPI_Datatype)0x8c0004d2, &t), MPI_ERR_TYPE,
           "oldtype=0x8c0004d2 is not a valid datatype", "unknown oldtype");
    expect(MPI_Type_contiguous(2, (MPI_Datatype)MPI_COMM_WORLD, &t), MPI_ERR_TYPE,
           "is not a datatype handle", "communicator as oldtype");
    expect(MPI_Type_contiguous(2, MPI_INT, NULL), MPI_ERR_ARG, "newtype is NULL", "null newtype");
    {
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DATATYPE_NULL};
        expect(MPI_Type_create_struct(2, bl, d, ty, &t), MPI_ERR_TYPE,
               "MPI_Type_create_struct: array_of_types[1] is MPI_DATATYPE_NULL",
               "struct null type");
    }

    /* an uncommitted type cannot be communicated (packed), but can be
     * queried and used to build others */
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_size(t, &n));
    CHECK(n == 8, "size of uncommitted type %d", n);
    pos = 0;
    {
        char want[128];
        snprintf(want, sizeof want,
                 "MPI_Pack: datatype 0x%x has not been committed (call MPI_Type_commit first)",
                 (unsigned)t);
        expect(MPI_Pack(ibuf, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE, want,
               "uncommitted pack");
    }
    expect(MPI_Reduce_local(ibuf, ibuf + 8, 1, t, MPI_SUM), MPI_ERR_TYPE, "has not been committed",
           "uncommitted reduce");
    CHECK_MPI(MPI_Type_contiguous(2, t, &u));
    CHECK_MPI(MPI_Type_commit(&u));
    CHECK_MPI(MPI_Type_free(&u));

    /* a freed handle is dead */
    MPI_Datatype stale = t;
    CHECK_MPI(MPI_Type_free(&t));
    {
        char want[128];
        snprintf(want, sizeof want, "datatype=0x%x is not a valid datatype", (unsigned)stale);
        expect(MPI_Type_size(stale, &n), MPI_ERR_TYPE, want, "freed handle");
        expect(MPI_Type_free(&stale), MPI_ERR_TYPE, "is not a valid datatype", "double free");
    }

    /* predefined types cannot be freed */
    u = MPI_INT;
    expect(MPI_Type_free(&u), MPI_ERR_TYPE,
           "MPI_Type_free: datatype MPI_INT is predefined and cannot be freed", "free MPI_INT");
    CHECK(u == MPI_INT, "a failed MPI_Type_free changed the handle");
    u = MPI_FLOAT_INT;
    expect(MPI_Type_free(&u), MPI_ERR_TYPE, "MPI_FLOAT_INT is predefined", "free MPI_FLOAT_INT");
    expect(MPI_Type_get_contents(MPI_INT, 0, 0, 0, NULL, NULL, NULL), MPI_ERR_TYPE,
           "has no contents", "contents of a predefined type");

    /* pack and unpack bounds */
    pos = 0;
    CHECK_MPI(MPI_Pack(ibuf, 16, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK(pos == 64, "exact fit: position %d", pos);
    pos = 1;
    expect(MPI_Pack(ibuf, 16, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
           "outbuf has 63 left", "pack overflow");
    pos = -1;
    expect(MPI_Pack(ibuf, 1, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_ARG,
           "*position=-1", "pack position");
    pos = 0;
    expect(MPI_Pack(ibuf, -2, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Pack: incount=-2 must be >= 0", "pack count");
    expect(MPI_Pack(ibuf, 1, MPI_INT, out, sizeof out, &pos, MPI_COMM_NULL), MPI_ERR_COMM,
           "MPI_Pack: comm is MPI_COMM_NULL", "pack comm");
    pos = 60;
    expect(MPI_Unpack(out, sizeof out, &pos, ibuf, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
           "MPI_Unpack: outcount=2 x MPI_INT needs 8 bytes, inbuf has 4 left", "unpack short");
    expect(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &n), MPI_ERR_COUNT, "incount=-1",
           "pack_size count");

    /* statuses */
    expect(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG,
           "MPI_Get_count: status is MPI_STATUS_IGNORE", "get_count ignore");
    {
        MPI_Status s;
        memset(&s, 0, sizeof s);
        expect(MPI_Get_elements(&s, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE,
               "MPI_Get_elements: datatype is MPI_DATATYPE_NULL", "get_elements null type");
    }

    /* ops */
    int a = 1, b = 2;
    expect(MPI_Reduce_local(&a, &b, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP,
           "MPI_Reduce_local: op is MPI_OP_NULL", "null op");
    expect(MPI_Reduce_local(&a, &b, 1, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP,
           "MPI_Reduce_local: op MPI_BAND is not defined for datatype MPI_DOUBLE", "BAND double");
    expect(MPI_Reduce_local(&a, &b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT,
           "MPI_Reduce_local: count=-1 must be >= 0", "reduce count");
    expect(MPI_Reduce_local(MPI_IN_PLACE, &b, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, "MPI_IN_PLACE",
           "reduce in place");
    MPI_Op op = MPI_SUM;
    expect(MPI_Op_free(&op), MPI_ERR_OP, "MPI_Op_free: op MPI_SUM is predefined", "free MPI_SUM");
    expect(MPI_Op_create(NULL, 1, &op), MPI_ERR_ARG, "MPI_Op_create: user_fn is NULL",
           "null user fn");
    CHECK(b == 2, "a failed reduction changed its output");
    {
        MPI_Op mine, stale_op;
        CHECK_MPI(MPI_Op_create(tt_noop_fn, 0, &mine));
        stale_op = mine;
        CHECK_MPI(MPI_Op_free(&mine));
        char want[80];
        snprintf(want, sizeof want, "op=0x%x is not a valid op", (unsigned)stale_op);
        expect(MPI_Reduce_local(&a, &b, 1, MPI_INT, stale_op), MPI_ERR_OP, want, "freed op");
    }

    CHECK_MPI(MPI_Finalize());
    return 0;
}
