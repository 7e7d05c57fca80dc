/* MPI_Get_elements(_x/_c) and MPI_Get_count after partial receives, two
 * ranks: the receive type holds more than arrives, so the status counts
 * whole basic elements (MPI_UNDEFINED for the count of the type).  A
 * value-index pair is two basic elements and MPI_2INT two ints (the
 * standard defines them as a struct and a contiguous of two), also inside
 * a struct with markers; a probe's status counts the same; a zero-size type
 * counts 0; MPI_Status_set_elements sets basic elements, which
 * MPI_Get_elements gives back (MPI 4.1 sec. 13.3; MPICH 4.0.2 takes the
 * number as elements of the whole type instead). */
#include <stddef.h>
#include <string.h>

#include "dt_expect.h"

static int rank;

static void expect_status(const MPI_Status *st, MPI_Datatype t, long elements, int count,
                          const char *what)
{
    int e, c;
    MPI_Count ex, ec;
    CHECK_MPI(MPI_Get_elements(st, t, &e));
    CHECK_MPI(MPI_Get_elements_x(st, t, &ex));
    CHECK_MPI(MPI_Get_elements_c(st, t, &ec));
    CHECK_MPI(MPI_Get_count(st, t, &c));
    CHECK(e == elements && ex == elements && ec == elements,
          "%s: %d (x %ld, c %ld) basic elements, expected %ld", what, e, (long)ex, (long)ec,
          elements);
    CHECK(c == count, "%s: count %d, expected %d", what, c, count);
}

/* {double, int, double} received as two MPI_DOUBLE_INT: 3 elements */
static void pairs(void)
{
    struct tri {
        double a;
        int b;
        double c;
    } foo = {1.5, 7, -2.25};
    struct quad {
        double a;
        int b;
        double c;
        int d;
    } bar = {0, -1, 0, -1};
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {offsetof(struct tri, a), offsetof(struct tri, b), offsetof(struct tri, c)};
    MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_INT, MPI_DOUBLE}, t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    int ints[3] = {4, 5, 6}, got[4] = {-1, -1, -1, -1};
    float f = 2.5f;
    short s = 9;
    struct {
        float v;
        int i;
    } fi[2];
    struct {
        short v;
        int i;
    } si[2];
    if (rank == 0) {
        CHECK_MPI(MPI_Send(&foo, 1, t, 1, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(ints, 3, MPI_INT, 1, 2, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&f, 1, MPI_FLOAT, 1, 3, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&s, 1, MPI_SHORT, 1, 4, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&bar, 2, MPI_DOUBLE_INT, 0, 1, MPI_COMM_WORLD, &st));
        expect_status(&st, MPI_DOUBLE_INT, 3, MPI_UNDEFINED, "{double,int,double} as double_int");
        CHECK(bar.a == 1.5 && bar.b == 7 && bar.c == -2.25 && bar.d == -1,
              "{double,int,double} as two double_int: %g %d %g %d", bar.a, bar.b, bar.c, bar.d);
        CHECK_MPI(MPI_Recv(got, 2, MPI_2INT, 0, 2, MPI_COMM_WORLD, &st));
        expect_status(&st, MPI_2INT, 3, MPI_UNDEFINED, "three ints as 2int");
        CHECK(got[0] == 4 && got[1] == 5 && got[2] == 6 && got[3] == -1, "three ints as 2int");
        CHECK_MPI(MPI_Recv(fi, 2, MPI_FLOAT_INT, 0, 3, MPI_COMM_WORLD, &st));
        expect_status(&st, MPI_FLOAT_INT, 1, MPI_UNDEFINED, "a float as float_int");
        CHECK(fi[0].v == 2.5f, "a float as float_int: %g", fi[0].v);
        CHECK_MPI(MPI_Recv(si, 2, MPI_SHORT_INT, 0, 4, MPI_COMM_WORLD, &st));
        expect_status(&st, MPI_SHORT_INT, 1, MPI_UNDEFINED, "a short as short_int");
        CHECK(si[0].v == 9, "a short as short_int: %d", si[0].v);
    }
    CHECK_MPI(MPI_Type_free(&t));
}

/* five ints into three contiguous(2, int): a probe says the same */
static void short_message(void)
{
    MPI_Datatype two;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    int v[6] = {1, 2, 3, 4, 5, 6};
    if (rank == 0) {
        CHECK_MPI(MPI_Send(v, 5, MPI_INT, 1, 5, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(v, 4, MPI_INT, 1, 6, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Status st;
        int r[6] = {0, 0, 0, 0, 0, -9};
        CHECK_MPI(MPI_Probe(0, 5, MPI_COMM_WORLD, &st));
        expect_status(&st, two, 5, MPI_UNDEFINED, "probe of 5 ints as contiguous(2)");
        CHECK_MPI(MPI_Recv(r, 3, two, 0, 5, MPI_COMM_WORLD, &st));
        expect_status(&st, two, 5, MPI_UNDEFINED, "5 ints into contiguous(2) x 3");
        expect_status(&st, MPI_INT, 5, 5, "5 ints, counted as ints");
        CHECK(r[4] == 5 && r[5] == -9, "5 ints into contiguous(2) x 3: %d %d", r[4], r[5]);
        CHECK_MPI(MPI_Recv(r, 3, two, 0, 6, MPI_COMM_WORLD, &st));
        expect_status(&st, two, 4, 2, "4 ints into contiguous(2) x 3");
    }
    CHECK_MPI(MPI_Type_free(&two));
}

/* A struct with markers and a pair inside, cut after its third element. */
static void marked_struct(void)
{
    int bl[4] = {1, 1, 2, 1};
    MPI_Aint d[4] = {-8, 0, 16, 40};
    MPI_Datatype ty[4] = {MPI_LB, MPI_DOUBLE_INT, MPI_SHORT, MPI_UB}, t;
    CHECK_MPI(MPI_Type_create_struct(4, bl, d, ty, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    char in[128], out[64]; /* two elements of extent 48 fit in 'in' */
    for (int i = 0; i < 128; i++) in[i] = (char)i;
    int pos = 0;
    CHECK_MPI(MPI_Pack(in + 8, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK(pos == 16, "double_int + 2 shorts pack to %d bytes", pos);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, 14, MPI_PACKED, 0, 7, in, 2, t, 0, 7, MPI_COMM_SELF, &st));
    expect_status(&st, t, 3, MPI_UNDEFINED, "14 bytes of {LB, double_int, 2 short, UB}");
    CHECK_MPI(MPI_Sendrecv(out, 13, MPI_PACKED, 0, 7, in, 2, t, 0, 7, MPI_COMM_SELF, &st));
    expect_status(&st, t, MPI_UNDEFINED, MPI_UNDEFINED, "13 bytes: inside the short");
    CHECK_MPI(MPI_Sendrecv(out, 16, MPI_PACKED, 0, 7, in, 2, t, 0, 7, MPI_COMM_SELF, &st));
    expect_status(&st, t, 4, 1, "one whole element");
    CHECK_MPI(MPI_Type_free(&t));
}

/* a struct {char; short; int} through contiguous(1, ...): 3 elements */
static void small_struct(void)
{
    struct s3 {
        char a;
        short b;
        int c;
    } x = {20, 30, 40}, y = {-1, -1, -1};
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {offsetof(struct s3, a), offsetof(struct s3, b), offsetof(struct s3, c)};
    MPI_Datatype ty[3] = {MPI_CHAR, MPI_SHORT, MPI_INT}, s, c;
    CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &s));
    CHECK_MPI(MPI_Type_contiguous(1, s, &c));
    CHECK_MPI(MPI_Type_commit(&c));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&x, 1, c, 0, 8, &y, 1, c, 0, 8, MPI_COMM_SELF, &st));
    CHECK(y.a == 20 && y.b == 30 && y.c == 40, "struct {char, short, int} to self");
    expect_status(&st, c, 3, 1, "contiguous(1, {char, short, int})");
    CHECK_MPI(MPI_Type_free(&s));
    CHECK_MPI(MPI_Type_free(&c));
}

/* A zero-size type counts 0 (MPI 4.1 sec. 3.2.5); set_elements sets basic
 * elements. */
static void zero_and_set(void)
{
    MPI_Datatype z, four;
    MPI_Status st;
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &z));
    CHECK_MPI(MPI_Type_commit(&z));
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, 0, 9, NULL, 4, z, 0, 9, MPI_COMM_SELF, &st));
    expect_status(&st, z, 0, 0, "an empty message as a zero-size type");
    CHECK_MPI(MPI_Type_free(&z));

    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &four));
    CHECK_MPI(MPI_Type_commit(&four));
    CHECK_MPI(MPI_Status_set_elements(&st, four, 1));
    expect_status(&st, four, 1, MPI_UNDEFINED, "set_elements(contiguous(4, int), 1)");
    expect_status(&st, MPI_INT, 1, 1, "set_elements(contiguous(4, int), 1) as ints");
    CHECK_MPI(MPI_Status_set_elements_x(&st, four, 8));
    expect_status(&st, four, 8, 2, "set_elements_x(contiguous(4, int), 8)");
    CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_DOUBLE_INT, 3));
    expect_status(&st, MPI_DOUBLE_INT, 3, MPI_UNDEFINED, "set_elements_c(double_int, 3)");
    int bytes;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &bytes));
    CHECK(bytes == 20, "3 basic elements of double_int are %d bytes, expected 20", bytes);
    CHECK_MPI(MPI_Type_free(&four));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    pairs();
    short_message();
    marked_struct();
    small_struct();
    zero_and_set();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
