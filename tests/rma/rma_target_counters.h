/* The origin's MPI_T counters of operations handed to their target
 * (src/rma/win_mbox.c): tern_rma_target_done, done by the target, and
 * tern_rma_target_taken_back, taken back from a target that did not come.
 * target_counters_init starts MPI and MPI_T with them, and
 * target_counters_finalize ends both. */
#ifndef TERN_TESTS_RMA_TARGET_COUNTERS_H
#define TERN_TESTS_RMA_TARGET_COUNTERS_H

#include "../mpit/mpit_util.h"

static MPI_T_pvar_session tc_session;
static MPI_T_pvar_handle tc_done, tc_back;

static inline void target_counters_init(int *argc, char ***argv)
{
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(argc, argv);
    CHECK_T(MPI_T_pvar_session_create(&tc_session), MPI_SUCCESS);
    tc_done = pvar_handle(tc_session, "tern_rma_target_done", MPI_T_PVAR_CLASS_COUNTER);
    tc_back = pvar_handle(tc_session, "tern_rma_target_taken_back", MPI_T_PVAR_CLASS_COUNTER);
    CHECK_T(MPI_T_pvar_start(tc_session, tc_done), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_start(tc_session, tc_back), MPI_SUCCESS);
}

static inline unsigned long long target_done(void) { return pvar_read(tc_session, tc_done); }
static inline unsigned long long target_taken_back(void) { return pvar_read(tc_session, tc_back); }

static inline void target_counters_finalize(void)
{
    MPI_T_pvar_session_free(&tc_session);
    MPI_Finalize();
    MPI_T_finalize();
}

#endif
