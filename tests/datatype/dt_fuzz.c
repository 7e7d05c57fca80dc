/* libFuzzer target (built where the compiler is clang with libFuzzer; the
 * ctest test dt_fuzz runs it for a minute with a fixed seed): each input is
 * the byte string a datatype is drawn from (dt_model.h); the properties
 * are those of dt_props.h, transfers to self.  A broken property aborts
 * the run through MPI_Abort with the failing check's message.
 *
 *   build-clang/tests/bin/dt_fuzz -max_total_time=600 corpus/ */
#include "dt_props.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    CHECK_MPI(MPI_Init(argc, argv));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    p_case(data, size, P_SELF, "fuzz input");
    return 0;
}
