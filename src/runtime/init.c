/* MPI_Init and MPI_Finalize, and the runtime the world model shares with
 * sessions (runtime/runtime.h): the order in which the layers come up and
 * go down, and the hooks through which core releases what the layers above
 * it hang on its objects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootstrap/boot.h"
#include "bootstrap/host.h"
#include "coll/coll_util.h"
#include "coll/op.h"
#include "coll/select.h"
#include "coll/coll_hier.h"
#include "coll/shm_coll.h"
#include "coll/tuning.h"
#include "comm/dyn.h"
#include "core/api.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/info_print.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/session.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/bsend.h"
#include "msg/match.h"
#include "p2p/p2p.h"
#include "msg/request.h"
#include "rma/alloc_mem.h"
#include "rma/win.h"
#include "runtime/runtime.h"
#include "topo/bind.h"
#include "topo/topo.h"

/* Raises the thread support of the runtime to 'level'.  Before
 * MPI_THREAD_MULTIPLE only one thread at a time is in MPI, so the big lock
 * can start being used between two calls. */
static void thread_support(int level)
{
    if (level == MPI_THREAD_MULTIPLE) tern_big_lock_start(0);
}

/* Parts of communicators and sessions that belong to layers above core. */
static void comm_drop_topo(struct tern_comm *c)
{
    tern_topo_free(c->topo);
    c->topo = NULL;
}

/* The buffer is the user's memory: it must be free when MPI_Comm_free
 * returns, so the messages in it leave first.  At destruction (a
 * communicator never freed) nothing is buffered by now. */
static void comm_drop_bsend(struct tern_comm *c) { tern_bbuf_drop(&c->bsend); }

static void session_drop_bsend(struct tern_session *s) { tern_bbuf_drop(&s->bsend); }

static void register_part_hooks(void)
{
    tern_comm_on_free(comm_drop_bsend);
    tern_comm_on_destroy(comm_drop_topo);
    tern_comm_on_destroy(comm_drop_bsend);
    tern_comm_on_destroy(tern_coll_sel_free);
    tern_comm_on_destroy(tern_shmc_release);
    tern_comm_on_destroy(tern_coll_hier_release);
    tern_session_on_destroy(session_drop_bsend);
}

/* The runtime serves the world model and every session: the first of
 * MPI_Init and MPI_Session_init brings it up, the last of MPI_Finalize and
 * MPI_Session_finalize takes it down (tern_runtime_release_if_unused). */
int tern_runtime_acquire(int level, const char *fn)
{
    if (tern_g.init_state == TERN_STATE_ACTIVE) {
        thread_support(level);
        return MPI_SUCCESS;
    }
    if (tern_g.init_state == TERN_STATE_FINALIZED)
        return tern_err_make(
            MPI_ERR_OTHER,
            "%s: the MPI runtime of this process was shut down when MPI_Finalize and every "
            "MPI_Session_finalize had been called; Tern's bootstrap cannot start it again",
            fn);

    struct tern_boot_info info;
    if (tern_boot_init(&info) != 0) tern_fatal("%s: cannot reach the launcher (see above)", fn);
    tern_g.world_rank = info.rank;
    tern_g.world_size = info.size;
    tern_g.appnum = info.appnum;
    tern_g.singleton = info.singleton;
    snprintf(tern_g.job_id, sizeof tern_g.job_id, "%s", info.job_id);
    if (gethostname(tern_g.processor_name, sizeof tern_g.processor_name - 1) != 0)
        snprintf(tern_g.processor_name, sizeof tern_g.processor_name, "localhost");

    tern_params_load(info.rank == 0);
    /* The tuning table's digest rides on the host exchange's fence. */
    char err[4200];
    if (tern_coll_tuning_load(err, sizeof err) != 0 ||
        (info.size > 1 && info.rank == 0 && tern_coll_tuning_publish(err, sizeof err) != 0))
        tern_fatal("%s: TERN_COLL_TUNING_FILE: %s", fn, err);
    struct tern_hosts hosts;
    if (tern_hosts_exchange(info.rank, info.size, info.node, tern_param.host_id,
                            (int)tern_param.ranks_per_host, &hosts) != 0)
        tern_fatal("%s: cannot learn which host each rank runs on (see above)", fn);
    if (info.size > 1 && info.rank != 0 && tern_coll_tuning_check(err, sizeof err) != 0)
        tern_fatal("%s: TERN_COLL_TUNING_FILE: %s", fn, err);
    tern_g.nhosts = hosts.nhosts;
    tern_g.host_of = hosts.host_of;
    tern_g.file_of = hosts.file_of;
    tern_g.local_rank = hosts.local_rank;
    tern_g.local_size = hosts.local_size;
    tern_g.kernel_rank = hosts.kernel_rank;
    tern_g.kernel_size = hosts.kernel_size;
    tern_g.oversubscribed = tern_g.kernel_size > tern_topo_usable_cores();
    tern_topo_bind();

    /* Objects first (error reporting needs MPI_COMM_WORLD), transports last. */
    register_part_hooks();
    tern_g.init_state = TERN_STATE_ACTIVE;
    if (tern_datatypes_init() != MPI_SUCCESS) tern_fatal("%s: datatype initialisation failed", fn);
    if (tern_comms_init() != MPI_SUCCESS) tern_fatal("%s: communicator initialisation failed", fn);
    tern_progress_init();
    if (tern_p2p_init() != MPI_SUCCESS) tern_fatal("%s: the transports could not be set up", fn);
    tern_rma_init();
    if (info.rank == 0 && tern_param.show_env_info) tern_info_print_stderr();
    thread_support(level);
    return MPI_SUCCESS;
}

void tern_runtime_release_if_unused(void)
{
    if (tern_g.init_state != TERN_STATE_ACTIVE || tern_g.world_state == TERN_STATE_ACTIVE ||
        tern_g.sessions > 0)
        return;
    tern_bsend_drain_all();
    /* Replies we still owe (acknowledgements, clear-to-send) must leave
     * before we stop polling, or a peer would wait for them forever. */
    tern_p2p_quiesce();
    tern_boot_finalize();
    if (tern_g.world_size > 1 && tern_boot_fence() != 0)
        tern_fatal("MPI finalization: the launcher went away during the final synchronisation");
    tern_p2p_finalize();
    tern_comms_finalize();
    tern_sessions_finalize();
    tern_datatypes_finalize();
    tern_ops_finalize();
    tern_coll_tmp_release();
    tern_attr_finalize();
    tern_match_finalize();
    tern_requests_finalize();
    free(tern_g.host_of);
    tern_g.host_of = NULL;
    free(tern_g.file_of);
    tern_g.file_of = NULL;
    tern_g.init_state = TERN_STATE_FINALIZED;
    tern_big_lock_end();
}

static int do_init(int required, int *provided, const char *fn)
{
    if (tern_g.world_state == TERN_STATE_ACTIVE)
        return tern_err_comm(NULL, MPI_ERR_OTHER, "%s: MPI is already initialized", fn);
    if (tern_g.world_state == TERN_STATE_FINALIZED)
        tern_fatal("%s called after MPI_Finalize: MPI cannot be initialized again", fn);
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        tern_fatal("%s: required=%d is not a thread level (MPI_THREAD_SINGLE..MPI_THREAD_MULTIPLE)",
                   fn, required);
    int rc = tern_runtime_acquire(required, fn);
    if (rc != MPI_SUCCESS) tern_fatal("%s", tern_err_text(rc));
    tern_g.world_state = TERN_STATE_ACTIVE;
    tern_g.thread_level = required;
    tern_g.main_thread = pthread_self();
    if (provided) *provided = required;
    /* A spawned job meets its parents before its MPI_Init returns. */
    tern_lock();
    rc = tern_spawn_connect_parent();
    tern_unlock();
    if (rc != MPI_SUCCESS)
        tern_fatal("%s: cannot connect to the parents that spawned this process: %s", fn,
                   tern_err_text(rc));
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Init)
int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return do_init(MPI_THREAD_SINGLE, NULL, "MPI_Init");
}

TERN_WEAK_ALIAS(MPI_Init_thread)
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    if (!provided) tern_fatal("MPI_Init_thread: provided is NULL");
    return do_init(required, provided, "MPI_Init_thread");
}

TERN_WEAK_ALIAS(MPI_Finalize)
int PMPI_Finalize(void)
{
    if (tern_g.world_state == TERN_STATE_NONE)
        tern_fatal("MPI_Finalize called before MPI_Init (sessions end with MPI_Session_finalize)");
    if (tern_g.world_state == TERN_STATE_FINALIZED) tern_fatal("MPI_Finalize called twice");
    tern_lock();
    /* MPI_COMM_SELF's attributes are deleted before anything else
     * (MPI-4.1 11.2.4), then those of the other predefined objects. */
    tern_attr_finalize_callbacks();
    tern_attr_type_finalize_callbacks();
    tern_bbuf_drop(&tern_bbuf_process);
    tern_spawn_finalize();
    tern_g.world_state = TERN_STATE_FINALIZED;
    tern_runtime_release_if_unused();
    tern_unlock(); /* a no-op once the runtime is down */
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Initialized)
int PMPI_Initialized(int *flag)
{
    if (!flag) return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Initialized: flag is NULL");
    *flag = tern_g.world_state != TERN_STATE_NONE;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Finalized)
int PMPI_Finalized(int *flag)
{
    if (!flag) return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Finalized: flag is NULL");
    *flag = tern_g.world_state == TERN_STATE_FINALIZED;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Abort)
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    char msg[160];
    snprintf(msg, sizeof msg, "MPI_Abort(comm=0x%x, errorcode=%d) called by rank %d",
             (unsigned)comm, errorcode, tern_g.world_rank);
    tern_boot_abort(errorcode, msg);
}

TERN_WEAK_ALIAS(MPI_Query_thread)
int PMPI_Query_thread(int *provided)
{
    TERN_REQUIRE_INIT("MPI_Query_thread");
    if (!provided) return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Query_thread: provided is NULL");
    *provided = tern_g.thread_level;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Is_thread_main)
int PMPI_Is_thread_main(int *flag)
{
    TERN_REQUIRE_INIT("MPI_Is_thread_main");
    if (!flag) return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Is_thread_main: flag is NULL");
    *flag = pthread_equal(pthread_self(), tern_g.main_thread) != 0;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Get_processor_name)
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    if (!name || !resultlen)
        return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Get_processor_name: %s is NULL",
                             !name ? "name" : "resultlen");
    if (!tern_g.processor_name[0] &&
        gethostname(tern_g.processor_name, sizeof tern_g.processor_name - 1) != 0)
        snprintf(tern_g.processor_name, sizeof tern_g.processor_name, "localhost");
    size_t n = strnlen(tern_g.processor_name, MPI_MAX_PROCESSOR_NAME - 1);
    memcpy(name, tern_g.processor_name, n);
    name[n] = 0;
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Get_version)
int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Get_version: %s is NULL",
                             !version ? "version" : "subversion");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Get_library_version)
int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Get_library_version: %s is NULL",
                             !version ? "version" : "resultlen");
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "Tern %s (MPI %d.%d, MPICH ABI) built %s with %s", TERN_VERSION_STRING,
                     MPI_VERSION, MPI_SUBVERSION, TERN_BUILD_TYPE, TERN_BUILD_CC);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Alloc_mem)
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    TERN_REQUIRE_INIT("MPI_Alloc_mem");
    /* MPI_ERR_ARG for a negative size, as MPICH (MPI_ERR_SIZE is about windows). */
    if (size < 0)
        return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Alloc_mem: size=%ld must be >= 0", (long)size);
    struct tern_info *ti;
    int rc = tern_info_check(info, 1, "MPI_Alloc_mem", "info", NULL, &ti);
    if (rc) return rc;
    if (!baseptr) return tern_err_comm(NULL, MPI_ERR_ARG, "MPI_Alloc_mem: baseptr is NULL");
    void *p = tern_alloc_mem((size_t)size);
    if (!p)
        return tern_err_comm(NULL, MPI_ERR_NO_MEM, "MPI_Alloc_mem: cannot allocate %ld bytes",
                             (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Free_mem)
int PMPI_Free_mem(void *base)
{
    TERN_REQUIRE_INIT("MPI_Free_mem");
    tern_free_mem(base);
    return MPI_SUCCESS;
}
