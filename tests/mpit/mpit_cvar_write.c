/* A parameter written through MPI_T before MPI_Init is what MPI_Init uses:
 * with TERN_SMP_EAGERSIZE set to 1 KiB that way, a 2000-byte message goes
 * by rendezvous and a 500-byte one eagerly, as the pvars show.  After
 * MPI_Init the same write is refused for good. */
#include <stdio.h>

#include "mpit_util.h"

int main(int argc, char **argv)
{
    int provided, rank, size;
    char buf[2000] = {0};
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    MPI_T_cvar_handle eager = cvar_handle("TERN_SMP_EAGERSIZE");
    unsigned long long limit = 1024, v = 0;
    CHECK_T(MPI_T_cvar_write(eager, &limit), MPI_SUCCESS);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size > 1, "needs two ranks or more");
    CHECK_T(MPI_T_cvar_read(eager, &v), MPI_SUCCESS);
    CHECK(v == limit, "TERN_SMP_EAGERSIZE reads %llu after MPI_Init", v);
    CHECK_T(MPI_T_cvar_write(eager, &v), MPI_T_ERR_CVAR_SET_NEVER);

    MPI_T_pvar_session s;
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    MPI_T_pvar_handle e = pvar_handle(s, "tern_eager_sends", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle r = pvar_handle(s, "tern_rendezvous_sends", MPI_T_PVAR_CLASS_COUNTER);
    CHECK_T(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(buf, 2000, MPI_CHAR, next, 1, buf, 2000, MPI_CHAR, prev, 1,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(pvar_read(s, e) == 0 && pvar_read(s, r) == 1, "2000 bytes: %llu eager, %llu rendezvous",
          pvar_read(s, e), pvar_read(s, r));
    CHECK_MPI(MPI_Sendrecv(buf, 500, MPI_CHAR, next, 2, buf, 500, MPI_CHAR, prev, 2, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(pvar_read(s, e) == 1 && pvar_read(s, r) == 1, "500 bytes: %llu eager, %llu rendezvous",
          pvar_read(s, e), pvar_read(s, r));
    CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_handle_free(&eager), MPI_SUCCESS);
    MPI_Finalize();
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    if (rank == 0) printf("mpit cvar_write: ok\n");
    return 0;
}
