/* MPI_T_init_thread and MPI_T_finalize: reference counted, usable with or
 * without MPI itself being initialised. */
#include "mpit/mpit.h"

#include <pthread.h>
#include <string.h>

#include "core/api.h"
#include "core/params.h"
#include "core/state.h"

static pthread_mutex_t t_lock = PTHREAD_MUTEX_INITIALIZER;
static int t_refcount;

int tern_t_enter(void)
{
    /* Remember whether the big lock was taken: MPI_Init may switch
     * MPI_THREAD_MULTIPLE on while this call runs. */
    int big = tern_g.thread_multiple;
    if (big) pthread_mutex_lock(&tern_big_lock);
    pthread_mutex_lock(&t_lock);
    return big;
}

void tern_t_leave(int token)
{
    pthread_mutex_unlock(&t_lock);
    if (token) pthread_mutex_unlock(&tern_big_lock);
}

int tern_t_initialized(void) { return t_refcount > 0; }

void tern_t_string(const char *s, char *buf, int *len)
{
    if (!len) return;
    int n = (int)strlen(s) + 1;
    if (!buf || *len <= 0) {
        *len = n;
        return;
    }
    if (n > *len) n = *len;
    memcpy(buf, s, (size_t)n - 1);
    buf[n - 1] = 0;
    *len = n;
}

TERN_WEAK_ALIAS(MPI_T_init_thread)
int PMPI_T_init_thread(int required, int *provided)
{
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE || !provided)
        return MPI_T_ERR_INVALID;
    int token = tern_t_enter();
    /* Before MPI_Init the parameters have not been read yet: the control
     * variables show what MPI_Init would take from the environment. */
    if (tern_g.init_state == TERN_STATE_NONE) tern_params_load(0);
    t_refcount++;
    tern_t_leave(token);
    *provided = required; /* the MPI_T lock serves every level */
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_T_finalize)
int PMPI_T_finalize(void)
{
    int token = tern_t_enter();
    int rc = MPI_SUCCESS;
    if (t_refcount == 0) {
        rc = MPI_T_ERR_NOT_INITIALIZED;
    } else if (--t_refcount == 0) {
        /* The last finalize ends every session and handle; later calls
         * holding them get MPI_T_ERR_NOT_INITIALIZED or, after a new
         * MPI_T_init_thread, MPI_T_ERR_INVALID_HANDLE. */
        tern_t_sessions_finalize();
        tern_t_cvars_finalize();
    }
    tern_t_leave(token);
    return rc;
}
