/* How many point-to-point messages this rank has sent (eager, rendezvous
 * and to itself), read through MPI_T: the shared-memory collective tests
 * check that their algorithms send none.  pv_setup() after
 * MPI_Init, MPI_T_pvar_session_free(&pv_session) before MPI_Finalize. */
#ifndef TERN_TEST_COLL_MSGCOUNT_H
#define TERN_TEST_COLL_MSGCOUNT_H

#include "../mpit/mpit_util.h"

static MPI_T_pvar_session pv_session;
static MPI_T_pvar_handle pv[3];

static inline unsigned long long sends(void)
{
    unsigned long long total = 0;
    for (int i = 0; i < 3; i++) total += pvar_read(pv_session, pv[i]);
    return total;
}

static inline void pv_setup(void)
{
    static const char *names[3] = {"tern_eager_sends", "tern_rendezvous_sends",
                                   "tern_self_messages"};
    CHECK_T(MPI_T_pvar_session_create(&pv_session), MPI_SUCCESS);
    for (int i = 0; i < 3; i++) {
        pv[i] = pvar_handle(pv_session, names[i], MPI_T_PVAR_CLASS_COUNTER);
        CHECK_T(MPI_T_pvar_start(pv_session, pv[i]), MPI_SUCCESS);
    }
}

#endif
