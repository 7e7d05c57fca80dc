/* Predefined types found by description and named, one process:
 * MPI_Type_match_size for every class and size the MPICH ABI has (the
 * type returned has that size) and MPI_ERR_ARG for the rest;
 * MPI_Type_get_value_index for the standard's pairs and MPI_DATATYPE_NULL
 * for any other; the names of aliased handles (as MPICH answers), of a dup
 * (none: names are not inherited), a long name cut to
 * MPI_MAX_OBJECT_NAME - 1 characters, and a freed handle refused. */
#include <string.h>

#include "dt_expect.h"

static void match_size(void)
{
    static const struct {
        int cls, size;
        MPI_Datatype t;
    } match[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},   {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},   {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},         {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, 16, MPI_REAL16},       {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16}, {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    static const int classes[3] = {MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_REAL,
                                   MPI_TYPECLASS_COMPLEX};
    for (int c = 0; c < 3; c++)
        for (int size = 0; size <= 40; size++) {
            MPI_Datatype t = MPI_DATATYPE_NULL, want = MPI_DATATYPE_NULL;
            for (size_t k = 0; k < sizeof match / sizeof match[0]; k++)
                if (match[k].cls == classes[c] && match[k].size == size) want = match[k].t;
            int rc = MPI_Type_match_size(classes[c], size, &t);
            if (want == MPI_DATATYPE_NULL) {
                CHECK(err_class_of(rc) == MPI_ERR_ARG, "match_size(%d, %d): class %d", classes[c],
                      size, err_class_of(rc));
                continue;
            }
            int got;
            CHECK(rc == MPI_SUCCESS && t == want, "match_size(%d, %d) = 0x%x, expected 0x%x",
                  classes[c], size, (unsigned)t, (unsigned)want);
            CHECK_MPI(MPI_Type_size(t, &got));
            CHECK(got == size, "match_size(%d, %d) has size %d", classes[c], size, got);
        }
    /* the C types' sizes are found (what portable code asks) */
    MPI_Datatype t;
    int s;
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, sizeof(int), &t));
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK(s == sizeof(int), "an integer of sizeof(int)");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &t));
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK(s == sizeof(double), "a real of sizeof(double)");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 2 * sizeof(float), &t));
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK(s == 2 * sizeof(float), "a complex of two floats");
    int rc = MPI_Type_match_size(99, 4, &t);
    CHECK(err_class_of(rc) == MPI_ERR_ARG, "match_size of class 99: class %d", err_class_of(rc));
}

static void value_index(void)
{
    static const struct {
        MPI_Datatype v, i, pair;
    } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        /* no predefined pair: MPI_DATATYPE_NULL, not an error */
        {MPI_INT, MPI_DOUBLE, MPI_DATATYPE_NULL},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL},
        {MPI_DOUBLE, MPI_LONG, MPI_DATATYPE_NULL},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        MPI_Datatype t = (MPI_Datatype)0x1234;
        CHECK_MPI(MPI_Type_get_value_index(pairs[k].v, pairs[k].i, &t));
        CHECK(t == pairs[k].pair, "value_index(0x%x, 0x%x) = 0x%x, expected 0x%x",
              (unsigned)pairs[k].v, (unsigned)pairs[k].i, (unsigned)t, (unsigned)pairs[k].pair);
    }
}

static void expect_name(MPI_Datatype t, const char *want, const char *what)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, want) == 0 && len == (int)strlen(want),
          "%s: name \"%s\" (%d), expected \"%s\"", what, name, len, want);
}

static void names(void)
{
    /* one handle, two spellings in mpi.h: the name MPICH gives */
    expect_name(MPI_LONG_LONG, "MPI_LONG_LONG_INT", "MPI_LONG_LONG");
    expect_name(MPI_C_COMPLEX, "MPI_C_COMPLEX", "MPI_C_COMPLEX");
    expect_name(MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX", "MPI_C_FLOAT_COMPLEX");
    expect_name(MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL", "the null handle");
    expect_name(MPI_LB, "MPI_LB", "MPI_LB");

    MPI_Datatype t, d;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    expect_name(t, "", "a new type");
    CHECK_MPI(MPI_Type_set_name(t, "pair of ints"));
    expect_name(t, "pair of ints", "a named type");
    CHECK_MPI(MPI_Type_dup(t, &d));
    expect_name(d, "", "a dup of a named type");
    CHECK_MPI(MPI_Type_free(&d));
    CHECK_MPI(MPI_Type_dup(MPI_INT, &d));
    expect_name(d, "", "a dup of MPI_INT");
    CHECK_MPI(MPI_Type_free(&d));

    char big[3 * MPI_MAX_OBJECT_NAME], want[MPI_MAX_OBJECT_NAME];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memset(want, 'x', MPI_MAX_OBJECT_NAME - 1);
    want[MPI_MAX_OBJECT_NAME - 1] = '\0';
    CHECK_MPI(MPI_Type_set_name(t, big));
    expect_name(t, want, "a name too long");

    MPI_Datatype freed = t;
    CHECK_MPI(MPI_Type_free(&t));
    int rc = MPI_Type_set_name(freed, "gone");
    CHECK(err_class_of(rc) == MPI_ERR_TYPE, "set_name on a freed handle: class %d",
          err_class_of(rc));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    match_size();
    value_index();
    names();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
