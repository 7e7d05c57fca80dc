/* Atomicity under contention, for every window kind: every rank adds to
 * the same locations of rank 0 at once (an integer and a double sum, a
 * long double sum that takes the accumulate lock, fetch_and_op on a
 * counter, vectors of shorts and bytes, 32 ints summed as one block, by
 * get_accumulate too, while fetch_and_op adds to one of them alone), and
 * read-modify-writes a plain integer with get and put under an exclusive
 * lock.  Every result must be exact; the values fetch_and_op returned must
 * be every value of the counter once.  In shared memory the small updates
 * run as atomic instructions and the blocks under the target's lock
 * (TERN_RMA_ACC_LOCKED_MIN), both at once on the same elements. */
#include <stdio.h>

#include "rma_util.h"

/* updates per rank and kind: argv[1], else 300 (across hosts each lock is
 * a round trip, and the tests there ask for fewer).  argv[2] "same_op":
 * the windows say accumulate_ops=same_op (across hosts the integer sums
 * then take UCP's atomics, the floating-point ones the target's messages). */
static int N = 300;

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) N = atoi(argv[1]);
    CHECK(N > 0, "updates per rank: %d", N);
    if (argc > 2 && strcmp(argv[2], "same_op") == 0) rwin_same_op();
    long long *fetched = malloc((size_t)N * sizeof *fetched),
              *all = malloc((size_t)size * (size_t)N * sizeof *all);
    int spans = rma_spans_hosts(MPI_COMM_WORLD);
    for (int k = 0; k < NKINDS; k++) {
        if (k == K_SHARED && spans) continue;
        struct rwin w;
        rwin_make(&w, (enum kind)k, 512, MPI_COMM_WORLD);
        MPI_Aint d = rwin_disp(&w, 0, 0);
        int one = 1;
        double done_ = 1.0;
        long double lone = 1.0L;
        long long lli = 1;
        int two[2] = {1, 1};
        short ones16[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        unsigned char ones8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        int ones32[32], old32[32], old1;
        for (int i = 0; i < 32; i++) ones32[i] = 1;
        MPI_Datatype vec; /* two ints, one apart: bytes 96 and 104 */
        CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
        CHECK_MPI(MPI_Type_commit(&vec));
        /* shared lock: accumulates and fetch_and_op from everyone at once */
        for (int i = 0; i < N; i++) {
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win));
            CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, d + 0, 1, MPI_INT, MPI_SUM, w.win));
            CHECK_MPI(
                MPI_Accumulate(&done_, 1, MPI_DOUBLE, 0, d + 8, 1, MPI_DOUBLE, MPI_SUM, w.win));
            CHECK_MPI(MPI_Accumulate(&lone, 1, MPI_LONG_DOUBLE, 0, d + 32, 1, MPI_LONG_DOUBLE,
                                     MPI_SUM, w.win));
            CHECK_MPI(
                MPI_Fetch_and_op(&lli, &fetched[i], MPI_LONG_LONG, 0, d + 16, MPI_SUM, w.win));
            /* one location reached by a derived and a contiguous layout */
            CHECK_MPI(MPI_Accumulate(two, 2, MPI_INT, 0, d + 96, 1, vec, MPI_SUM, w.win));
            CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, d + 96, 1, MPI_INT, MPI_SUM, w.win));
            /* small elements, changed a 64-bit word at a time in shared
             * memory: 9 shorts from byte 130 (3 before the word at 136, 2
             * after it), one of them also alone; 8 bytes at 160 */
            CHECK_MPI(
                MPI_Accumulate(ones16, 9, MPI_SHORT, 0, d + 130, 9, MPI_SHORT, MPI_SUM, w.win));
            CHECK_MPI(
                MPI_Accumulate(ones16, 1, MPI_SHORT, 0, d + 138, 1, MPI_SHORT, MPI_SUM, w.win));
            CHECK_MPI(MPI_Accumulate(ones8, 8, MPI_UNSIGNED_CHAR, 0, d + 160, 8, MPI_UNSIGNED_CHAR,
                                     MPI_SUM, w.win));
            /* 32 ints from byte 256, as blocks and one of them alone */
            CHECK_MPI(MPI_Accumulate(ones32, 32, MPI_INT, 0, d + 256, 32, MPI_INT, MPI_SUM, w.win));
            CHECK_MPI(MPI_Get_accumulate(ones32, 32, MPI_INT, old32, 32, MPI_INT, 0, d + 256, 32,
                                         MPI_INT, MPI_SUM, w.win));
            CHECK_MPI(MPI_Fetch_and_op(&one, &old1, MPI_INT, 0, d + 256 + 4 * 5, MPI_SUM, w.win));
            CHECK_MPI(MPI_Win_unlock(0, w.win));
        }
        /* exclusive lock: get, add, put must not interleave */
        for (int i = 0; i < N; i++) {
            int v;
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w.win));
            CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, d + 64, 1, MPI_INT, w.win));
            CHECK_MPI(MPI_Win_flush(0, w.win));
            v++;
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, d + 64, 1, MPI_INT, w.win));
            CHECK_MPI(MPI_Win_unlock(0, w.win));
        }
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Gather(fetched, N, MPI_LONG_LONG, all, N, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
        if (rank == 0) {
            const char *kn = kind_name[k];
            long long total = (long long)N * size;
            CHECK(*(int *)w.mem == total, "%s: integer sum %d, want %lld", kn, *(int *)w.mem,
                  total);
            CHECK(*(double *)(w.mem + 8) == (double)total, "%s: double sum %g, want %lld", kn,
                  *(double *)(w.mem + 8), total);
            CHECK(*(long double *)(w.mem + 32) == (long double)total,
                  "%s: long double sum %Lg, want %lld", kn, *(long double *)(w.mem + 32), total);
            CHECK(*(long long *)(w.mem + 16) == total, "%s: fetch_and_op counter %lld", kn,
                  *(long long *)(w.mem + 16));
            CHECK(*(int *)(w.mem + 64) == total, "%s: exclusive get+put counter %d, want %lld", kn,
                  *(int *)(w.mem + 64), total);
            CHECK(*(int *)(w.mem + 96) == 2 * total && *(int *)(w.mem + 104) == total,
                  "%s: derived+contiguous sums %d and %d, want %lld and %lld", kn,
                  *(int *)(w.mem + 96), *(int *)(w.mem + 104), 2 * total, total);
            for (int i = 0; i < 9; i++) {
                short got;
                memcpy(&got, w.mem + 130 + 2 * i, sizeof got);
                long long want = i == 4 ? 2 * total : total;
                CHECK(got == want, "%s: short sum %d from byte %d, want %lld", kn, got, 130 + 2 * i,
                      want);
            }
            for (int i = 0; i < 8; i++)
                CHECK(((unsigned char *)w.mem)[160 + i] == (unsigned char)total,
                      "%s: byte sum %d at byte %d, want %lld mod 256", kn,
                      ((unsigned char *)w.mem)[160 + i], 160 + i, total);
            for (int i = 0; i < 32; i++) {
                int got;
                memcpy(&got, w.mem + 256 + 4 * i, sizeof got);
                long long want = i == 5 ? 3 * total : 2 * total;
                CHECK(got == want, "%s: block sum %d at int %d from byte 256, want %lld", kn, got,
                      i, want);
            }
            qsort(all, (size_t)total, sizeof *all, cmp_ll);
            for (long long i = 0; i < total; i++)
                CHECK(all[i] == i, "%s: fetch_and_op fetched %lld twice or never", kn, i);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Type_free(&vec);
        rwin_free(&w);
    }
    if (rank == 0)
        printf("rma_atomic: %d ranks x %d updates exact on every window kind%s\n", size, N,
               spans ? " but shared (several hosts)" : "");
    free(fetched);
    free(all);
    MPI_Finalize();
    return 0;
}
