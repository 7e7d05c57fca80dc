/* MPI_BOTTOM with absolute addresses, one process: types whose
 * displacements are MPI_Get_address results of separate variables (stack,
 * heap, static), used from MPI_BOTTOM by MPI_Pack / MPI_Unpack,
 * MPI_Pack_external / MPI_Unpack_external and a send to self received
 * into another set of variables through another absolute layout; and
 * displacements made relative with MPI_Aint_diff and back with
 * MPI_Aint_add give the same data from a base address. */
#include <stdlib.h>
#include <string.h>

#include "dt_expect.h"

static double s_d = 6.5; /* static storage */

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    int stack_i[3] = {11, 12, 13};
    short *heap_s = malloc(2 * sizeof *heap_s);
    CHECK(heap_s, "malloc");
    heap_s[0] = -3;
    heap_s[1] = 77;

    /* {ints 1..2 of stack_i, s_d, heap_s[0..1]} from MPI_BOTTOM */
    MPI_Aint a[3];
    CHECK_MPI(MPI_Get_address(&stack_i[1], &a[0]));
    CHECK_MPI(MPI_Get_address(&s_d, &a[1]));
    CHECK_MPI(MPI_Get_address(heap_s, &a[2]));
    int bl[3] = {2, 1, 2};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, a, ty, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    int size;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK(size == 20, "size %d", size);

    char packed[32];
    int pos = 0;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    CHECK(pos == 20, "pack from MPI_BOTTOM: %d bytes", pos);
    int iv[2];
    double dv;
    short sv[2];
    memcpy(iv, packed, 8);
    memcpy(&dv, packed + 8, 8);
    memcpy(sv, packed + 16, 4);
    CHECK(iv[0] == 12 && iv[1] == 13 && dv == 6.5 && sv[0] == -3 && sv[1] == 77,
          "packed from MPI_BOTTOM: %d %d %g %d %d", iv[0], iv[1], dv, sv[0], sv[1]);

    /* unpack into the same variables, changed meanwhile */
    stack_i[1] = stack_i[2] = 0;
    s_d = 0;
    heap_s[0] = heap_s[1] = 0;
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, 20, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    CHECK(stack_i[0] == 11 && stack_i[1] == 12 && stack_i[2] == 13 && s_d == 6.5 &&
              heap_s[0] == -3 && heap_s[1] == 77,
          "unpack to MPI_BOTTOM");

    /* external32 from and to MPI_BOTTOM: big-endian, the same values back */
    unsigned char ext[32];
    MPI_Aint epos = 0;
    CHECK_MPI(MPI_Pack_external("external32", MPI_BOTTOM, 1, t, ext, sizeof ext, &epos));
    CHECK(epos == 20 && ext[3] == 12 && ext[7] == 13 && ext[18] == 0 && ext[19] == 77,
          "external32 from MPI_BOTTOM");
    s_d = 0;
    heap_s[1] = 0;
    epos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", ext, 20, &epos, MPI_BOTTOM, 1, t));
    CHECK(s_d == 6.5 && heap_s[1] == 77, "external32 to MPI_BOTTOM");

    /* to self, received into other variables through another layout (an
     * hindexed of addresses for the ints, then the rest) */
    struct {
        short s[2];
        char pad[5];
        double d;
    } *r = calloc(1, sizeof *r);
    int ri[4] = {0, 0, 0, 0};
    CHECK(r, "calloc");
    MPI_Aint ra[3];
    int rbl[2] = {1, 1};
    MPI_Aint hd[2];
    CHECK_MPI(MPI_Get_address(&ri[3], &hd[0]));
    CHECK_MPI(MPI_Get_address(&ri[0], &hd[1]));
    MPI_Datatype hi, rt;
    CHECK_MPI(MPI_Type_create_hindexed(2, rbl, hd, MPI_INT, &hi));
    ra[0] = 0; /* hi holds absolute addresses already */
    CHECK_MPI(MPI_Get_address(&r->d, &ra[1]));
    CHECK_MPI(MPI_Get_address(r->s, &ra[2]));
    MPI_Datatype rty[3] = {hi, MPI_DOUBLE, MPI_SHORT};
    int rbl3[3] = {1, 1, 2};
    CHECK_MPI(MPI_Type_create_struct(3, rbl3, ra, rty, &rt));
    CHECK_MPI(MPI_Type_commit(&rt));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(MPI_BOTTOM, 1, t, 0, 5, MPI_BOTTOM, 1, rt, 0, 5, MPI_COMM_SELF, &st));
    CHECK(ri[3] == 12 && ri[0] == 13 && ri[1] == 0 && ri[2] == 0 && r->d == 6.5 && r->s[0] == -3 &&
              r->s[1] == 77,
          "MPI_BOTTOM to MPI_BOTTOM: %d %d %d %d %g %d %d", ri[0], ri[1], ri[2], ri[3], r->d,
          r->s[0], r->s[1]);
    int count;
    CHECK_MPI(MPI_Get_count(&st, rt, &count));
    CHECK(count == 1, "count %d", count);

    /* relative to a base address and back: the same data */
    MPI_Aint base, rel[3];
    CHECK_MPI(MPI_Get_address(stack_i, &base));
    for (int i = 0; i < 3; i++) rel[i] = MPI_Aint_diff(a[i], base);
    CHECK(rel[0] == (MPI_Aint)sizeof(int), "Aint_diff of stack_i[1] and stack_i: %ld",
          (long)rel[0]);
    CHECK(MPI_Aint_add(base, rel[1]) == a[1], "Aint_add undoes Aint_diff");
    MPI_Datatype relt;
    CHECK_MPI(MPI_Type_create_struct(3, bl, rel, ty, &relt));
    CHECK_MPI(MPI_Type_commit(&relt));
    char packed2[32];
    pos = 0;
    CHECK_MPI(MPI_Pack(stack_i, 1, relt, packed2, sizeof packed2, &pos, MPI_COMM_WORLD));
    CHECK(pos == 20 && memcmp(packed, packed2, 20) == 0, "relative to stack_i packs the same");

    CHECK_MPI(MPI_Type_free(&relt));
    CHECK_MPI(MPI_Type_free(&rt));
    CHECK_MPI(MPI_Type_free(&hi));
    CHECK_MPI(MPI_Type_free(&t));
    free(r);
    free(heap_s);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
