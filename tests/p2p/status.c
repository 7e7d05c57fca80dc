/* MPI_Status accessors: set_elements round-trips through Get_count and
 * Get_elements, the 4.1 field accessors, set_cancelled, and the C <->
 * Fortran <-> Fortran 2008 conversions. */
#include "tern_test.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Status s, back;
    MPI_F08_status f08;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    int n = -1, v = -1, flag = -1;
    CHECK_MPI(MPI_Status_set_elements(&s, MPI_INT, 7));
    CHECK_MPI(MPI_Get_count(&s, MPI_INT, &n));
    CHECK(n == 7, "Get_count after set_elements(7 MPI_INT) gave %d", n);
    CHECK_MPI(MPI_Get_count(&s, MPI_DOUBLE, &n));
    CHECK(n == MPI_UNDEFINED, "28 bytes as MPI_DOUBLE should be MPI_UNDEFINED, got %d", n);
    CHECK_MPI(MPI_Get_elements(&s, MPI_SHORT, &n));
    CHECK(n == 14, "28 bytes are 14 MPI_SHORT, got %d", n);
    CHECK_MPI(MPI_Status_set_source(&s, 3));
    CHECK_MPI(MPI_Status_get_source(&s, &v));
    CHECK(v == 3 && s.MPI_SOURCE == 3, "source %d", v);
    CHECK_MPI(MPI_Status_set_tag(&s, 99));
    CHECK_MPI(MPI_Status_get_tag(&s, &v));
    CHECK(v == 99, "tag %d", v);
    CHECK_MPI(MPI_Status_set_error(&s, MPI_ERR_TAG));
    CHECK_MPI(MPI_Status_get_error(&s, &v));
    CHECK(v == MPI_ERR_TAG, "error %d", v);
    CHECK_MPI(MPI_Status_set_cancelled(&s, 1));
    CHECK_MPI(MPI_Test_cancelled(&s, &flag));
    CHECK(flag == 1, "cancelled flag %d", flag);
    CHECK_MPI(MPI_Get_count(&s, MPI_INT, &n));
    CHECK(n == 7, "set_cancelled changed the count to %d", n);
    CHECK_MPI(MPI_Status_c2f(&s, f));
    CHECK(f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 99 && f[MPI_F_ERROR] == MPI_ERR_TAG,
          "Fortran status fields");
    CHECK_MPI(MPI_Status_f2f08(f, &f08));
    CHECK_MPI(MPI_Status_f082c(&f08, &back));
    CHECK(back.MPI_SOURCE == 3 && back.MPI_TAG == 99, "round trip lost fields");
    CHECK_MPI(MPI_Get_count(&back, MPI_INT, &n));
    CHECK(n == 7, "round trip lost the count: %d", n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Status_set_elements(&s, MPI_DATATYPE_NULL, 1), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE, "set_elements with MPI_DATATYPE_NULL: class %d", cls);
    printf("status: ok\n");
    MPI_Finalize();
    return 0;
}
