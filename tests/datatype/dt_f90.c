/* MPI_Type_create_f90_integer/real/complex: the kind chosen for a table of
 * (p, r) (the sizes agree with MPICH 4.0.2 on this platform), one handle per
 * (p, r), the F90 envelope and contents, the type cannot be freed, errors
 * for impossible requests, and the types at work: a ring exchange, a sum,
 * a derived type built on one, external32. */
#include <stdint.h>
#include <string.h>

#include "tern_test.h"

static int err_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

enum { INT_T, REAL_T, COMPLEX_T };

static int create(int kind, int p, int r, MPI_Datatype *t)
{
    *t = MPI_DATATYPE_NULL;
    switch (kind) {
    case INT_T: return MPI_Type_create_f90_integer(r, t);
    case REAL_T: return MPI_Type_create_f90_real(p, r, t);
    default: return MPI_Type_create_f90_complex(p, r, t);
    }
}

static const int combiners[] = {MPI_COMBINER_F90_INTEGER, MPI_COMBINER_F90_REAL,
                                MPI_COMBINER_F90_COMPLEX};

/* size 0: MPI_ERR_ARG expected */
static const struct {
    int kind, p, r, size;
} cases[] = {
    {INT_T, 0, MPI_UNDEFINED, 1},
    {INT_T, 0, -1, 1},
    {INT_T, 0, 0, 1},
    {INT_T, 0, 2, 1},
    {INT_T, 0, 3, 2},
    {INT_T, 0, 4, 2},
    {INT_T, 0, 5, 4},
    {INT_T, 0, 9, 4},
    {INT_T, 0, 10, 8},
    {INT_T, 0, 18, 8},
    {INT_T, 0, 19, 0},
    {INT_T, 0, 38, 0},
    {REAL_T, 1, MPI_UNDEFINED, 4},
    {REAL_T, 6, MPI_UNDEFINED, 4},
    {REAL_T, 7, MPI_UNDEFINED, 8},
    {REAL_T, 15, MPI_UNDEFINED, 8},
    {REAL_T, 16, MPI_UNDEFINED, 0},
    {REAL_T, 33, MPI_UNDEFINED, 0},
    {REAL_T, MPI_UNDEFINED, 37, 4},
    {REAL_T, MPI_UNDEFINED, 38, 8},
    {REAL_T, MPI_UNDEFINED, 307, 8},
    {REAL_T, MPI_UNDEFINED, 308, 0},
    {REAL_T, MPI_UNDEFINED, 4931, 0},
    {REAL_T, 6, 37, 4},
    {REAL_T, 6, 38, 8},
    {REAL_T, 7, 37, 8},
    {REAL_T, 15, 307, 8},
    {REAL_T, 6, 30, 4},
    {REAL_T, 15, 300, 8},
    {REAL_T, 3, 300, 8},
    {REAL_T, 0, 0, 4},
    {REAL_T, -5, -5, 4},
    {REAL_T, 16, 10, 0},
    {REAL_T, 10, 400, 0},
    {COMPLEX_T, 6, MPI_UNDEFINED, 8},
    {COMPLEX_T, 7, MPI_UNDEFINED, 16},
    {COMPLEX_T, MPI_UNDEFINED, 38, 16},
    {COMPLEX_T, 6, 30, 8},
    {COMPLEX_T, 15, 300, 16},
    {COMPLEX_T, 16, MPI_UNDEFINED, 0},
    {COMPLEX_T, MPI_UNDEFINED, 308, 0},
};

static void test_table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int kind = cases[i].kind, p = cases[i].p, r = cases[i].r;
        MPI_Datatype t, again;
        int rc = create(kind, p, r, &t);
        if (cases[i].size == 0) {
            CHECK(err_class(rc) == MPI_ERR_ARG && t == MPI_DATATYPE_NULL,
                  "case %zu (%d, %d): class %d", i, p, r, err_class(rc));
            continue;
        }
        CHECK(rc == MPI_SUCCESS, "case %zu (kind %d, %d, %d): rc %d", i, kind, p, r, rc);
        int size = -1;
        MPI_Aint lb = -1, extent = -1;
        CHECK_MPI(MPI_Type_size(t, &size));
        CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
        CHECK(size == cases[i].size && lb == 0 && extent == size,
              "case %zu (%d, %d): size %d lb %ld extent %ld", i, p, r, size, (long)lb,
              (long)extent);
        CHECK_MPI(create(kind, p, r, &again));
        CHECK(again == t, "case %zu: a second call gave 0x%x, the first 0x%x", i, (unsigned)again,
              (unsigned)t);

        int ni = -1, na = -1, nd = -1, comb = -1;
        CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
        int want_ni = kind == INT_T ? 1 : 2;
        CHECK(comb == combiners[kind] && ni == want_ni && na == 0 && nd == 0,
              "case %zu: envelope (%d, %d, %d, combiner %d)", i, ni, na, nd, comb);
        int ints[2] = {-7, -7};
        MPI_Aint addr;
        MPI_Datatype types[1];
        CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, &addr, types));
        if (kind == INT_T)
            CHECK(ints[0] == r && ints[1] == -7, "case %zu: contents %d %d", i, ints[0], ints[1]);
        else
            CHECK(ints[0] == p && ints[1] == r, "case %zu: contents %d %d, expected %d %d", i,
                  ints[0], ints[1], p, r);
        MPI_Count nic, nac, ncc, ndc;
        CHECK_MPI(MPI_Type_get_envelope_c(t, &nic, &nac, &ncc, &ndc, &comb));
        CHECK(nic == want_ni && ncc == 0 && comb == combiners[kind],
              "case %zu: large envelope %ld %ld", i, (long)nic, (long)ncc);
        CHECK_MPI(MPI_Type_commit(&t)); /* a predefined type commits as is */
        MPI_Datatype f = t;
        rc = MPI_Type_free(&f);
        CHECK(err_class(rc) == MPI_ERR_TYPE && f == t, "case %zu: Type_free class %d", i,
              err_class(rc));
    }
    /* distinct (p, r) of the same kind: distinct handles */
    MPI_Datatype a, b;
    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &a));
    CHECK_MPI(MPI_Type_create_f90_real(5, MPI_UNDEFINED, &b));
    CHECK(a != b, "(6, -) and (5, -) share handle 0x%x", (unsigned)a);
    CHECK_MPI(MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &b));
    CHECK(a != b, "real and complex (6, -) share handle 0x%x", (unsigned)a);

    int rc = MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &a);
    CHECK(err_class(rc) == MPI_ERR_ARG, "real(-, -): class %d", err_class(rc));
    rc = MPI_Type_create_f90_complex(MPI_UNDEFINED, MPI_UNDEFINED, &a);
    CHECK(err_class(rc) == MPI_ERR_ARG, "complex(-, -): class %d", err_class(rc));
    rc = MPI_Type_create_f90_integer(4, NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "NULL newtype: class %d", err_class(rc));
}

/* Built on an f90 type, a derived type names it in its contents; dup keeps
 * its layout. */
static void test_derived(void)
{
    MPI_Datatype r8, vec, dup, types[1];
    CHECK_MPI(MPI_Type_create_f90_real(15, 300, &r8));
    CHECK_MPI(MPI_Type_vector(3, 1, 2, r8, &vec));
    int ints[3];
    MPI_Aint addr;
    CHECK_MPI(MPI_Type_get_contents(vec, 3, 0, 1, ints, &addr, types));
    CHECK(types[0] == r8 && ints[0] == 3 && ints[2] == 2, "vector contents type 0x%x",
          (unsigned)types[0]);
    int size;
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_size(vec, &size));
    CHECK_MPI(MPI_Type_get_extent(vec, &lb, &extent));
    CHECK(size == 24 && extent == 40, "vector of real(15, 300): size %d extent %ld", size,
          (long)extent);
    CHECK_MPI(MPI_Type_dup(r8, &dup));
    int ni, na, nd, comb;
    CHECK_MPI(MPI_Type_get_envelope(dup, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_DUP && nd == 1, "dup envelope combiner %d", comb);
    CHECK_MPI(MPI_Type_get_contents(dup, 0, 0, 1, ints, &addr, types));
    CHECK(types[0] == r8, "dup contents 0x%x", (unsigned)types[0]);
    MPI_Aint ext32 = -1;
    CHECK_MPI(MPI_Pack_external_size("external32", 5, vec, &ext32));
    CHECK(ext32 == 5 * 24, "external32 size of 5 vectors %ld", (long)ext32);
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&dup));
}

/* The types carry data: a ring exchange of complex(6, 30) and a sum of
 * integer(9). */
static void test_comm(int rank, int size)
{
    MPI_Datatype c8, i4, vec;
    CHECK_MPI(MPI_Type_create_f90_complex(6, 30, &c8));
    CHECK_MPI(MPI_Type_create_f90_integer(9, &i4));
    float out[8], in[8];
    for (int i = 0; i < 8; i++) {
        out[i] = (float)(rank * 100 + i);
        in[i] = -1;
    }
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, 4, c8, right, 3, in, 4, c8, left, 3, MPI_COMM_WORLD, &st));
    int n = -1;
    CHECK_MPI(MPI_Get_count(&st, c8, &n));
    CHECK(n == 4, "received %d complex(6, 30)", n);
    for (int i = 0; i < 8; i++)
        CHECK(in[i] == (float)(left * 100 + i), "element %d: %g, expected %d", i, (double)in[i],
              left * 100 + i);

    /* every other complex, through a derived type of the f90 type */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, c8, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    memset(in, 0, sizeof in);
    CHECK_MPI(
        MPI_Sendrecv(out, 1, vec, right, 4, in, 2, c8, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < 4; i++) {
        int src = (i / 2) * 4 + i % 2; /* complexes 0 and 2: floats 0,1 and 4,5 */
        CHECK(in[i] == (float)(left * 100 + src), "strided element %d: %g", i, (double)in[i]);
    }
    CHECK_MPI(MPI_Type_free(&vec));

    int32_t mine[2] = {rank + 1, -rank}, sum[2] = {0, 0};
    CHECK_MPI(MPI_Allreduce(mine, sum, 2, i4, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum[0] == size * (size + 1) / 2 && sum[1] == -size * (size - 1) / 2, "sum %d %d", sum[0],
          sum[1]);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_table();
    test_derived();
    test_comm(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("dt_f90: OK\n");
    MPI_Finalize();
    return 0;
}
