#include "core/info_print.h"

#include <mpi.h>

#include "core/params.h"
#include "core/state.h"

void tern_info_print(FILE *out)
{
    if (tern_g.init_state == TERN_STATE_NONE) tern_params_load(0);
    fprintf(out, "Tern %s (MPI %d.%d, MPICH ABI: libmpi.so.12)\n", TERN_VERSION_STRING, MPI_VERSION,
            MPI_SUBVERSION);
    fprintf(out, "build: %s, compiler %s%s\n", TERN_BUILD_TYPE, TERN_BUILD_CC,
#ifdef TERN_SANITIZE
            ", AddressSanitizer+UBSan"
#else
            ""
#endif
    );
    fprintf(out, "transports: self, shm (eager rings, CMA rendezvous with cooperative copy, "
                 "two-copy pipeline)\n\n");
    tern_params_print(out);
}

void tern_info_print_stderr(void)
{
    tern_info_print(stderr);
    fflush(stderr);
}
