/* A tuning table's choice seen from outside (TERN_COLL_TUNING_FILE,
 * src/coll/tuning.h): on ranks that share this host, the shared-memory
 * barrier and broadcast send no point-to-point message, the dissemination
 * barrier sends from every rank, the binomial broadcast from its root.
 * argv[1..3] say what the barrier, a 64-byte and a 128-byte broadcast
 * must do: "shm" (no message on any rank) or "p2p" (messages as above).
 * Every rank's count reaches rank 0, so a rank that chose another
 * algorithm than the others is named. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "coll_msgcount.h"

/* The messages each rank sent during one call of 'what', checked on rank 0. */
static void expect(const char *what, const char *want, unsigned long long before, int root)
{
    unsigned long long mine = sends() - before;
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    unsigned long long all[64];
    CHECK(n <= 64, "at most 64 ranks");
    CHECK_MPI(MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, 0,
                         MPI_COMM_WORLD));
    if (r != 0) return;
    for (int i = 0; i < n; i++) {
        if (!strcmp(want, "shm"))
            CHECK(all[i] == 0,
                  "%s: rank %d sent %llu messages; the shared-memory algorithm sends none", what, i,
                  all[i]);
        else if (root < 0 || i == root)
            CHECK(all[i] > 0, "%s: rank %d sent no message; the point-to-point algorithm does",
                  what, i);
    }
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(argc == 4, "usage: coll_tuning barrier bcast64 bcast128 (each shm or p2p)");
    if (n < 2) {
        if (r == 0) printf("skipped: one rank has nothing to share\n");
        MPI_Finalize();
        MPI_T_finalize();
        return 77;
    }
    pv_setup();
    /* First calls choose; the counted ones run the cached choice. */
    for (int pass = 0; pass < 2; pass++) {
        unsigned long long before = sends();
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (pass) expect("MPI_Barrier", argv[1], before, -1);
        for (int k = 0; k < 2; k++) {
            int bytes = k ? 128 : 64, root = n - 1;
            unsigned char buf[128];
            for (int i = 0; i < bytes; i++) buf[i] = r == root ? (unsigned char)(i * 7 + 1) : 0;
            before = sends();
            CHECK_MPI(MPI_Bcast(buf, bytes, MPI_BYTE, root, MPI_COMM_WORLD));
            for (int i = 0; i < bytes; i++)
                CHECK(buf[i] == (unsigned char)(i * 7 + 1), "bcast %d B: [%d] = %d", bytes, i,
                      buf[i]);
            if (pass) {
                char what[32];
                snprintf(what, sizeof what, "MPI_Bcast of %d bytes", bytes);
                expect(what, argv[2 + k], before, root);
            }
        }
    }
    CHECK_T(MPI_T_pvar_session_free(&pv_session), MPI_SUCCESS);
    MPI_Finalize();
    MPI_T_finalize();
    return 0;
}
