/* Values after every operation, for every window kind and every
 * synchronisation mode: each rank works on the next rank's window
 * (target = rank + 1) and checks its own memory, written by the previous
 * rank, and its results.  Put, get, accumulate (an integer sum, a double
 * maximum that takes the compare-and-swap loop), get_accumulate,
 * fetch_and_op, compare_and_swap, the request-based forms, and derived
 * datatypes on both sides of put, get and accumulate, and a long put at
 * odd addresses on both sides (copied with streaming stores when
 * TERN_RMA_PUT_NT_MIN allows). */
#include <stdint.h>
#include <stdio.h>

#include "rma_util.h"

#define WBYTES 4096
/* int slots of the window */
#define PUT_AT 0
#define GET_AT 16
#define ACC_AT 32
#define GACC_AT 48
#define DPUT_AT 64 /* vector target: 4 ints, stride 3 */
#define DGET_AT 96
#define DACC_AT 128
#define RPUT_AT 160
#define CAS_AT 200
#define FOP_BYTE 1024  /* a long long */
#define DBL_BYTE 1040  /* doubles */
#define LONG_BYTE 1101 /* LONG_LEN bytes, the bytes around them untouched */
#define LONG_LEN 2003

static int rank, size;

static void prepare(char *mem)
{
    int *m = (int *)mem;
    memset(mem, 0, WBYTES);
    for (int i = 0; i < 8; i++) m[GET_AT + i] = rank * 1000 + i;
    for (int i = 0; i < 12; i++) m[DGET_AT + i] = rank * 1000 + i;
    for (int i = 0; i < 4; i++) m[GACC_AT + i] = rank * 10 + i;
    m[CAS_AT] = 3;
    *(long long *)(mem + FOP_BYTE) = 5;
    for (int i = 0; i < 4; i++) ((double *)(mem + DBL_BYTE))[i] = 1.5;
}

static void one(enum kind k, enum sync s, MPI_Datatype vec3, MPI_Datatype vec2)
{
    struct rwin w;
    rwin_make(&w, k, WBYTES, MPI_COMM_WORLD);
    prepare(w.mem);
    MPI_Barrier(MPI_COMM_WORLD);
    int t = (rank + 1) % size, o = (rank + size - 1) % size;
    int src[8], got[8], gacc[4], dsrc[8] = {0}, dgot[8] = {0}, dacc[8] = {0}, cas_res = -1, rput[4];
    int one_ = 1;
    long long fop_in = 100 + rank, fop_res = -1;
    double dmax[4];
    static unsigned char lsrc[LONG_LEN + 1];
    for (int i = 0; i < LONG_LEN; i++) lsrc[1 + i] = (unsigned char)(rank * 7 + i * 13 + 1);
    for (int i = 0; i < 8; i++) src[i] = rank * 100 + i, got[i] = -1;
    for (int i = 0; i < 4; i++) {
        gacc[i] = -1;
        dsrc[2 * i] = rank * 10 + i; /* vector of stride 2 on the origin */
        dacc[2 * i] = i + 1;
        dmax[i] = 2.5 + rank;
        rput[i] = 77 + i;
    }
    (void)one_;

    epoch_open(w.win, s, t, o);
    CHECK_MPI(MPI_Put(src, 8, MPI_INT, t, rwin_disp(&w, t, PUT_AT * 4), 8, MPI_INT, w.win));
    CHECK_MPI(MPI_Get(got, 8, MPI_INT, t, rwin_disp(&w, t, GET_AT * 4), 8, MPI_INT, w.win));
    CHECK_MPI(MPI_Accumulate(src, 8, MPI_INT, t, rwin_disp(&w, t, ACC_AT * 4), 8, MPI_INT, MPI_SUM,
                             w.win));
    CHECK_MPI(MPI_Get_accumulate(src, 4, MPI_INT, gacc, 4, MPI_INT, t,
                                 rwin_disp(&w, t, GACC_AT * 4), 4, MPI_INT, MPI_SUM, w.win));
    /* derived on both sides: origin stride 2, target stride 3 */
    CHECK_MPI(MPI_Put(dsrc, 1, vec2, t, rwin_disp(&w, t, DPUT_AT * 4), 1, vec3, w.win));
    CHECK_MPI(MPI_Get(dgot, 1, vec2, t, rwin_disp(&w, t, DGET_AT * 4), 1, vec3, w.win));
    CHECK_MPI(
        MPI_Accumulate(dacc, 1, vec2, t, rwin_disp(&w, t, DACC_AT * 4), 1, vec3, MPI_SUM, w.win));
    CHECK_MPI(MPI_Fetch_and_op(&fop_in, &fop_res, MPI_LONG_LONG, t, rwin_disp(&w, t, FOP_BYTE),
                               MPI_SUM, w.win));
    int cas_new = 10 + rank, cas_cmp = 3;
    CHECK_MPI(MPI_Compare_and_swap(&cas_new, &cas_cmp, &cas_res, MPI_INT, t,
                                   rwin_disp(&w, t, CAS_AT * 4), w.win));
    CHECK_MPI(MPI_Accumulate(dmax, 4, MPI_DOUBLE, t, rwin_disp(&w, t, DBL_BYTE), 4, MPI_DOUBLE,
                             MPI_MAX, w.win));
    CHECK_MPI(MPI_Put(lsrc + 1, LONG_LEN, MPI_BYTE, t, rwin_disp(&w, t, LONG_BYTE), LONG_LEN,
                      MPI_BYTE, w.win));
    MPI_Request req[2];
    int rgot[4] = {-1, -1, -1, -1};
    CHECK_MPI(
        MPI_Rput(rput, 4, MPI_INT, t, rwin_disp(&w, t, RPUT_AT * 4), 4, MPI_INT, w.win, &req[0]));
    CHECK_MPI(
        MPI_Rget(rgot, 4, MPI_INT, t, rwin_disp(&w, t, GET_AT * 4), 4, MPI_INT, w.win, &req[1]));
    CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
    epoch_close(w.win, s, t);

    const char *kn = kind_name[k], *sn = sync_name[s];
    int *m = (int *)w.mem;
    for (int i = 0; i < 8; i++) {
        CHECK(m[PUT_AT + i] == o * 100 + i, "%s/%s put: [%d]=%d, want %d", kn, sn, i, m[PUT_AT + i],
              o * 100 + i);
        CHECK(got[i] == t * 1000 + i, "%s/%s get: [%d]=%d, want %d", kn, sn, i, got[i],
              t * 1000 + i);
        CHECK(m[ACC_AT + i] == o * 100 + i, "%s/%s accumulate: [%d]=%d", kn, sn, i, m[ACC_AT + i]);
    }
    for (int i = 0; i < 4; i++) {
        CHECK(gacc[i] == t * 10 + i, "%s/%s get_accumulate result [%d]=%d", kn, sn, i, gacc[i]);
        CHECK(m[GACC_AT + i] == rank * 10 + i + o * 100 + i, "%s/%s get_accumulate target [%d]=%d",
              kn, sn, i, m[GACC_AT + i]);
        CHECK(m[DPUT_AT + 3 * i] == o * 10 + i && m[DPUT_AT + 3 * i + 1] == 0,
              "%s/%s derived put: [%d]=%d", kn, sn, 3 * i, m[DPUT_AT + 3 * i]);
        CHECK(dgot[2 * i] == t * 1000 + 3 * i && dgot[2 * i + 1] == 0, "%s/%s derived get [%d]=%d",
              kn, sn, 2 * i, dgot[2 * i]);
        CHECK(m[DACC_AT + 3 * i] == i + 1 && m[DACC_AT + 3 * i + 2] == 0,
              "%s/%s derived accumulate [%d]=%d", kn, sn, 3 * i, m[DACC_AT + 3 * i]);
        CHECK(((double *)(w.mem + DBL_BYTE))[i] == 2.5 + o, "%s/%s MPI_MAX on doubles: %g", kn, sn,
              ((double *)(w.mem + DBL_BYTE))[i]);
        CHECK(m[RPUT_AT + i] == 77 + i, "%s/%s rput [%d]=%d", kn, sn, i, m[RPUT_AT + i]);
        CHECK(rgot[i] == t * 1000 + i, "%s/%s rget [%d]=%d", kn, sn, i, rgot[i]);
    }
    unsigned char *lm = (unsigned char *)w.mem + LONG_BYTE;
    for (int i = 0; i < LONG_LEN; i++)
        CHECK(lm[i] == (unsigned char)(o * 7 + i * 13 + 1), "%s/%s long put: byte %d is %d", kn, sn,
              i, lm[i]);
    CHECK(lm[-1] == 0 && lm[LONG_LEN] == 0, "%s/%s long put wrote outside its bytes", kn, sn);
    CHECK(fop_res == 5, "%s/%s fetch_and_op fetched %lld, want 5", kn, sn, fop_res);
    CHECK(*(long long *)(w.mem + FOP_BYTE) == 5 + 100 + o, "%s/%s fetch_and_op left %lld", kn, sn,
          *(long long *)(w.mem + FOP_BYTE));
    CHECK(cas_res == 3, "%s/%s compare_and_swap fetched %d", kn, sn, cas_res);
    CHECK(m[CAS_AT] == 10 + o, "%s/%s compare_and_swap left %d, want %d", kn, sn, m[CAS_AT],
          10 + o);
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_free(&w);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype vec3, vec2;
    MPI_Type_vector(4, 1, 3, MPI_INT, &vec3);
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec2);
    MPI_Type_commit(&vec3);
    MPI_Type_commit(&vec2);
    int spans = rma_spans_hosts(MPI_COMM_WORLD);
    for (int k = 0; k < NKINDS; k++)
        for (int s = 0; s < NSYNCS; s++)
            if (k != K_SHARED || !spans) one((enum kind)k, (enum sync)s, vec3, vec2);
    MPI_Type_free(&vec3);
    MPI_Type_free(&vec2);
    if (rank == 0)
        printf("rma_values: %d window kinds x %d synchronisations at %d ranks%s: ok\n",
               NKINDS - spans, NSYNCS, size, spans ? " on several hosts" : "");
    MPI_Finalize();
    return 0;
}
