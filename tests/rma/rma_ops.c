/* Every predefined op on every predefined type it applies to, through
 * MPI_Accumulate and MPI_Get_accumulate, into an allocated window (atomic
 * instructions, compare-and-swap loops) and a created one (the accumulate
 * lock, CMA): the target must hold what MPI_Reduce_local computes from the
 * same values, and get_accumulate must return the values before.  A pair
 * that MPI_Reduce_local refuses must be refused with MPI_ERR_OP too. */
#include <stdint.h>
#include <stdio.h>

#include "rma_util.h"

#define N 7

static const MPI_Op ops[] = {MPI_SUM,    MPI_PROD,   MPI_MAX,     MPI_MIN,  MPI_BAND,
                             MPI_BOR,    MPI_BXOR,   MPI_LAND,    MPI_LOR,  MPI_LXOR,
                             MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
static const char *const op_name[] = {"SUM",    "PROD",   "MAX",     "MIN",  "BAND",
                                      "BOR",    "BXOR",   "LAND",    "LOR",  "LXOR",
                                      "MINLOC", "MAXLOC", "REPLACE", "NO_OP"};

struct type {
    MPI_Datatype dt;
    const char *name;
    size_t size;
};

static void fill_bytes(void *p, size_t size, int seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < N * size; i++) b[i] = (unsigned char)((i * 7 + (size_t)seed) % 3);
}

static void fill_2int(int *p, int seed)
{
    for (int i = 0; i < N; i++) p[2 * i] = (i + seed) % 4, p[2 * i + 1] = i * 10 + seed;
}

#define TY(dt, T)          \
    {                      \
        dt, #dt, sizeof(T) \
    }
static const struct type types[] = {
    TY(MPI_CHAR, char),
    TY(MPI_SIGNED_CHAR, signed char),
    TY(MPI_UNSIGNED_CHAR, unsigned char),
    TY(MPI_SHORT, short),
    TY(MPI_UNSIGNED_SHORT, unsigned short),
    TY(MPI_INT, int),
    TY(MPI_UNSIGNED, unsigned),
    TY(MPI_LONG, long),
    TY(MPI_UNSIGNED_LONG, unsigned long),
    TY(MPI_LONG_LONG, long long),
    TY(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    TY(MPI_INT8_T, int8_t),
    TY(MPI_INT16_T, int16_t),
    TY(MPI_INT32_T, int32_t),
    TY(MPI_INT64_T, int64_t),
    TY(MPI_UINT8_T, uint8_t),
    TY(MPI_UINT16_T, uint16_t),
    TY(MPI_UINT32_T, uint32_t),
    TY(MPI_UINT64_T, uint64_t),
    TY(MPI_FLOAT, float),
    TY(MPI_DOUBLE, double),
    TY(MPI_LONG_DOUBLE, long double),
    TY(MPI_C_BOOL, _Bool),
    TY(MPI_AINT, MPI_Aint),
    TY(MPI_BYTE, unsigned char),
    {MPI_2INT, "MPI_2INT", 2 * sizeof(int)},
};

/* long double has padding bytes that arithmetic leaves as they were */
static int same(const struct type *ty, const void *a, const void *b)
{
    if (ty->dt != MPI_LONG_DOUBLE) return memcmp(a, b, N * ty->size) == 0;
    for (int i = 0; i < N; i++)
        if (((const long double *)a)[i] != ((const long double *)b)[i]) return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int ntypes = (int)(sizeof types / sizeof types[0]);
    int t = (rank + 1) % size, o = (rank + size - 1) % size, checked = 0, refused = 0;
    enum kind kinds[] = {K_ALLOCATE, K_CREATE};
    for (int ki = 0; ki < 2; ki++) {
        struct rwin w;
        rwin_make(&w, kinds[ki], 64 * N, MPI_COMM_WORLD);
        CHECK_MPI(MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN));
        for (int ti = 0; ti < ntypes; ti++)
            for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
                const struct type *ty = &types[ti];
                long double obuf[2 * N], before[2 * N], want[2 * N], fetched[2 * N];
                int pair = ty->dt == MPI_2INT;
                /* what the previous rank sends me, and what I hold first */
                if (pair) {
                    fill_2int((int *)obuf, rank + 1);
                    fill_2int((int *)before, rank + 2);
                } else {
                    fill_bytes(obuf, ty->size, rank + 1);
                    fill_bytes(before, ty->size, rank + 2);
                }
                /* the values are small: any byte pattern of 0..2 is a valid value of the
                 * integer types; for floating types fill by value */
                if (ty->dt == MPI_FLOAT || ty->dt == MPI_DOUBLE || ty->dt == MPI_LONG_DOUBLE ||
                    ty->dt == MPI_C_BOOL)
                    for (int i = 0; i < N; i++) {
                        if (ty->dt == MPI_FLOAT)
                            ((float *)obuf)[i] = (float)(i % 3 + 1),
                                    ((float *)before)[i] = (float)(i % 4);
                        else if (ty->dt == MPI_DOUBLE)
                            ((double *)obuf)[i] = i % 3 + 1.5, ((double *)before)[i] = i % 4;
                        else if (ty->dt == MPI_LONG_DOUBLE)
                            obuf[i] = i % 3 + 1.5L, before[i] = i % 4;
                        else
                            ((_Bool *)obuf)[i] = i % 2, ((_Bool *)before)[i] = i % 3 == 0;
                    }
                /* the previous rank's origin values: mine with its seed */
                long double oprev[2 * N];
                memcpy(want, before, sizeof want);
                MPI_Sendrecv(obuf, sizeof obuf, MPI_BYTE, t, 0, oprev, sizeof oprev, MPI_BYTE, o, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                int lrc = MPI_SUCCESS;
                if (ops[oi] == MPI_REPLACE)
                    memcpy(want, oprev, N * ty->size);
                else if (ops[oi] != MPI_NO_OP)
                    lrc = MPI_Reduce_local(oprev, want, N, ty->dt, ops[oi]);
                memcpy(w.mem, before, N * ty->size);
                CHECK_MPI(MPI_Win_fence(0, w.win));
                int get = oi % 2;
                int rc = get ? MPI_Get_accumulate(obuf, N, ty->dt, fetched, N, ty->dt, t,
                                                  rwin_disp(&w, t, 0), N, ty->dt, ops[oi], w.win)
                             : MPI_Accumulate(obuf, N, ty->dt, t, rwin_disp(&w, t, 0), N, ty->dt,
                                              ops[oi], w.win);
                CHECK_MPI(MPI_Win_fence(0, w.win));
                int cls;
                MPI_Error_class(rc, &cls);
                if (lrc != MPI_SUCCESS) {
                    CHECK(cls == MPI_ERR_OP,
                          "%s on %s: MPI_Reduce_local refuses it, the "
                          "accumulate gave class %d",
                          op_name[oi], ty->name, cls);
                    refused++;
                    continue;
                }
                CHECK(rc == MPI_SUCCESS, "%s %s on %s: class %d", kind_name[kinds[ki]], op_name[oi],
                      ty->name, cls);
                CHECK(same(ty, w.mem, want), "%s: %s on %s: wrong result", kind_name[kinds[ki]],
                      op_name[oi], ty->name);
                if (get) {
                    /* what the next rank held before: its own 'before' */
                    long double tb[2 * N];
                    MPI_Sendrecv(before, sizeof before, MPI_BYTE, o, 1, tb, sizeof tb, MPI_BYTE, t,
                                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    CHECK(same(ty, fetched, tb), "%s: get_accumulate %s on %s fetched wrong values",
                          kind_name[kinds[ki]], op_name[oi], ty->name);
                }
                checked++;
            }
        rwin_free(&w);
    }
    if (rank == 0)
        printf("rma_ops: %d (op, type, window) cases exact, %d refused like MPI_Reduce_local\n",
               checked, refused);
    MPI_Finalize();
    return 0;
}
