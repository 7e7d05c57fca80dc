/* Performance variables: read-outs of the counters in src/core/pvars.h.
 *
 * All are MPI_UNSIGNED_LONG_LONG, bound to no object, per process:
 *   traffic counters (COUNTER): messages and bytes each way of sending
 *     moved, counted when the message leaves (eager packet written,
 *     request-to-send posted).  Startable: a handle counts only while
 *     started, so a tool can measure a phase.
 *   matching queues: the unexpected queue's length (LEVEL, read-only) and
 *     peak (HIGHWATERMARK), and for both queues the searches, entries
 *     examined (COUNTER) and the longest search (HIGHWATERMARK).
 *     Continuous: active from handle allocation.
 *   collective I/O: the two-phase accesses (COUNTER), and the domains of
 *     the last one (LEVEL, read-only), which show the hints that shape
 *     them (cb_nodes, striping_factor, striping_unit).  Continuous.
 *   shared-memory pairs: the rings opened from and to this process
 *     (LEVEL), which grow with the peers it talks to.
 *   threads: whether every call takes the library's lock (LEVEL).
 * Resettable variables reset per handle: other handles and sessions see no
 * change (session.c). */
#include <string.h>

#include "core/api.h"
#include "core/pvars.h"
#include "core/state.h"
#include "mpit/mpit.h"

const struct tern_t_pvar_group tern_t_pvar_groups[TERN_T_NPVAR_GROUPS] = {
    [TERN_T_PVAR_GROUP_TRANSPORT] = {"TERN_TRANSPORT",
                                     "Messages and bytes sent, by transport and by protocol"},
    [TERN_T_PVAR_GROUP_MATCHING] = {"TERN_MATCHING",
                                    "The posted-receive and unexpected-message queues"},
    [TERN_T_PVAR_GROUP_IO] = {"TERN_IO", "Collective MPI-IO: two-phase aggregation"},
    [TERN_T_PVAR_GROUP_THREADS] = {"TERN_THREADS", "Threads and the library's lock"},
    [TERN_T_PVAR_GROUP_COLL] = {"TERN_COLLECTIVES", "How the collectives ran"},
    [TERN_T_PVAR_GROUP_RMA] = {"TERN_RMA", "How one-sided communication reached its targets"},
};
enum {
    TRANSPORT = TERN_T_PVAR_GROUP_TRANSPORT,
    MATCHING = TERN_T_PVAR_GROUP_MATCHING,
    IO = TERN_T_PVAR_GROUP_IO,
    THREADS = TERN_T_PVAR_GROUP_THREADS,
    COLL = TERN_T_PVAR_GROUP_COLL,
    RMA = TERN_T_PVAR_GROUP_RMA
};

#define NOW(fn, expr) \
    static uint64_t fn(void) { return expr; }
#define SENT(x) tern_pv.sent[TERN_XPORT_##x]
NOW(self_msgs, SENT(SELF).messages)
NOW(self_bytes, SENT(SELF).bytes)
NOW(eager_msgs, SENT(SHM_EAGER).messages)
NOW(eager_bytes, SENT(SHM_EAGER).bytes)
NOW(cma_msgs, SENT(SHM_CMA).messages)
NOW(cma_bytes, SENT(SHM_CMA).bytes)
NOW(pipe_msgs, SENT(SHM_PIPE).messages)
NOW(pipe_bytes, SENT(SHM_PIPE).bytes)
NOW(ucx_eager_msgs, SENT(UCX_EAGER).messages)
NOW(ucx_eager_bytes, SENT(UCX_EAGER).bytes)
NOW(ucx_rndv_msgs, SENT(UCX_RNDV).messages)
NOW(ucx_rndv_bytes, SENT(UCX_RNDV).bytes)
NOW(ucx_rma_ops, tern_pv.ucx_rma.ops)
NOW(ucx_rma_bytes, tern_pv.ucx_rma.bytes)
NOW(ucx_rma_lock_amos, tern_pv.ucx_rma.lock_amos)
NOW(eager_sends, SENT(SHM_EAGER).messages + SENT(UCX_EAGER).messages)
NOW(rndv_msgs, SENT(SHM_CMA).messages + SENT(SHM_PIPE).messages + SENT(UCX_RNDV).messages)
NOW(shm_pairs_out, tern_pv.shm_pairs.out)
NOW(shmcoll_level_calls, tern_pv.shmcoll_level_calls)
NOW(rma_files_mapped, tern_pv.rma_files_mapped)
NOW(rma_target_done, tern_pv.rma_target.done)
NOW(rma_target_taken_back, tern_pv.rma_target.taken_back)
NOW(shm_pairs_in, tern_pv.shm_pairs.in)
NOW(unexp_length, tern_pv.unexp_length)
NOW(unexp_max, tern_pv.unexp_max)
NOW(posted_searches, tern_pv.posted.searches)
NOW(posted_entries, tern_pv.posted.entries)
NOW(posted_max, tern_pv.posted.max)
NOW(unexp_searches, tern_pv.unexp.searches)
NOW(unexp_entries, tern_pv.unexp.entries)
NOW(unexp_search_max, tern_pv.unexp.max)
NOW(io_cb_calls, tern_pv.io_cb.calls)
NOW(io_cb_domains, tern_pv.io_cb.domains)
NOW(io_cb_gcd, tern_pv.io_cb.boundary_gcd)
NOW(library_lock, (uint64_t)tern_g.thread_multiple)

#define TRAFFIC(name, fn, desc)                                     \
    {                                                               \
        name, desc, TERN_T_PV_COUNTER, 0, TRANSPORT, fn, NULL, NULL \
    }
#define QUEUE_COUNTER(name, fn, desc)                              \
    {                                                              \
        name, desc, TERN_T_PV_COUNTER, 1, MATCHING, fn, NULL, NULL \
    }
#define QUEUE_PEAK(name, fn, peak, level, desc)                 \
    {                                                           \
        name, desc, TERN_T_PV_HWM, 1, MATCHING, fn, peak, level \
    }

/* Each group in one run: category.c takes a group as a range of indices. */
const struct tern_t_pvar tern_t_pvars[] = {
    TRAFFIC("tern_self_messages", self_msgs, "Messages a process sent to itself (no transport)"),
    TRAFFIC("tern_self_bytes", self_bytes, "Bytes of the messages a process sent to itself"),
    TRAFFIC("tern_shm_eager_messages", eager_msgs,
            "Messages sent eagerly through the shared-memory rings"),
    TRAFFIC("tern_shm_eager_bytes", eager_bytes,
            "Bytes of the messages sent eagerly through the shared-memory rings"),
    TRAFFIC("tern_shm_cma_messages", cma_msgs,
            "Rendezvous messages sent by single-copy Cross Memory Attach"),
    TRAFFIC("tern_shm_cma_bytes", cma_bytes,
            "Bytes of the rendezvous messages sent by Cross Memory Attach"),
    TRAFFIC("tern_shm_pipeline_messages", pipe_msgs,
            "Rendezvous messages sent through the two-copy pipeline"),
    TRAFFIC("tern_shm_pipeline_bytes", pipe_bytes,
            "Bytes of the rendezvous messages sent through the pipeline"),
    TRAFFIC("tern_ucx_eager_messages", ucx_eager_msgs,
            "Messages sent eagerly through UCX (up to TERN_UCX_EAGERSIZE bytes)"),
    TRAFFIC("tern_ucx_eager_bytes", ucx_eager_bytes,
            "Bytes of the messages sent eagerly through UCX"),
    TRAFFIC("tern_ucx_rndv_messages", ucx_rndv_msgs, "Messages sent through UCX rendezvous"),
    TRAFFIC("tern_ucx_rndv_bytes", ucx_rndv_bytes,
            "Bytes of the messages sent through UCX rendezvous"),
    TRAFFIC("tern_ucx_rma_ops", ucx_rma_ops,
            "Puts, gets and atomics of windows that span hosts done through UCP straight to the "
            "target's memory (TERN_RMA_UCP)"),
    TRAFFIC("tern_ucx_rma_bytes", ucx_rma_bytes,
            "Bytes of the puts, gets and atomics done through UCP"),
    TRAFFIC("tern_ucx_rma_lock_atomics", ucx_rma_lock_amos,
            "UCP atomics on the lock words of windows that span hosts (passive-target locks)"),
    TRAFFIC(
        "tern_eager_sends", eager_sends,
        "Messages to other processes sent with the eager protocol (shared-memory rings or UCX)"),
    TRAFFIC("tern_rendezvous_sends", rndv_msgs,
            "Messages to other processes sent with the rendezvous protocol (CMA, pipeline or UCX)"),
    {"tern_shm_pairs_out",
     "Ranks of this host this process has opened a shared-memory ring to (at its first message "
     "to each): the pair areas it made",
     TERN_T_PV_LEVEL, 1, TRANSPORT, shm_pairs_out, NULL, NULL},
    {"tern_shm_pairs_in",
     "Ranks of this host whose shared-memory rings to this process it polls (those that have sent "
     "it something)",
     TERN_T_PV_LEVEL, 1, TRANSPORT, shm_pairs_in, NULL, NULL},
    {"tern_unexpected_queue_length",
     "Messages waiting in the unexpected queue for a matching receive", TERN_T_PV_LEVEL, 1,
     MATCHING, unexp_length, NULL, NULL},
    QUEUE_PEAK("tern_unexpected_queue_max_length", unexp_max, &tern_pv.unexp_max,
               &tern_pv.unexp_length, "The most messages the unexpected queue held at once"),
    QUEUE_COUNTER("tern_posted_queue_searches", posted_searches,
                  "Searches of the posted-receive queue (one per arriving message)"),
    QUEUE_COUNTER("tern_posted_queue_search_entries", posted_entries,
                  "Posted receives examined by all searches, the matching one included"),
    QUEUE_PEAK("tern_posted_queue_search_max", posted_max, &tern_pv.posted.max, NULL,
               "The most posted receives one search examined"),
    QUEUE_COUNTER("tern_unexpected_queue_searches", unexp_searches,
                  "Searches of the unexpected queue (receives, probes)"),
    QUEUE_COUNTER("tern_unexpected_queue_search_entries", unexp_entries,
                  "Queued messages examined by all searches, the matching one included"),
    QUEUE_PEAK("tern_unexpected_queue_search_max", unexp_search_max, &tern_pv.unexp.max, NULL,
               "The most queued messages one search examined"),
    {"tern_io_cb_calls", "Collective file accesses done by two-phase aggregation",
     TERN_T_PV_COUNTER, 1, IO, io_cb_calls, NULL, NULL},
    {"tern_io_cb_domains", "File domains (aggregators) of the last two-phase file access",
     TERN_T_PV_LEVEL, 1, IO, io_cb_domains, NULL, NULL},
    {"tern_io_cb_boundary_gcd",
     "Greatest common divisor of the file offsets where the last two-phase access's aggregator "
     "domains meet (a multiple of striping_unit when that hint is given; 0: one domain)",
     TERN_T_PV_LEVEL, 1, IO, io_cb_gcd, NULL, NULL},
    {"tern_shmcoll_level_calls",
     "Blocking shared-memory collectives (barrier, bcast, reduce, allreduce) that went through the "
     "leaders of groups of ranks along a level of the machine (TERN_SHMCOLL_LEVEL)",
     TERN_T_PV_COUNTER, 0, COLL, shmcoll_level_calls, NULL, NULL},
    {"tern_rma_files_mapped",
     "Blocks of MPI_Alloc_mem of other processes that windows mapped here, to reach them by load "
     "and store rather than CMA (created windows at creation, dynamic ones at first access)",
     TERN_T_PV_COUNTER, 0, RMA, rma_files_mapped, NULL, NULL},
    {"tern_rma_target_done",
     "One-sided operations on memory this process reaches by CMA (windows on the heap, dynamic "
     "windows) that it handed to their target, which did them while progressing in MPI "
     "(TERN_RMA_TARGET_MAX)",
     TERN_T_PV_COUNTER, 0, RMA, rma_target_done, NULL, NULL},
    {"tern_rma_target_taken_back",
     "Operations handed to a target that did not take them within TERN_RMA_TARGET_WAIT, done "
     "by CMA instead",
     TERN_T_PV_COUNTER, 0, RMA, rma_target_taken_back, NULL, NULL},
    {"tern_library_lock",
     "1 while every MPI call takes the library's lock: under MPI_THREAD_MULTIPLE, and while a "
     "window that spans hosts keeps the UCX progress thread running (TERN_RMA_ASYNC); else 0",
     TERN_T_PV_LEVEL, 1, THREADS, library_lock, NULL, NULL},
};
const int tern_t_npvars = (int)(sizeof tern_t_pvars / sizeof tern_t_pvars[0]);

int tern_t_pvar_class(const struct tern_t_pvar *v)
{
    switch (v->kind) {
    case TERN_T_PV_LEVEL: return MPI_T_PVAR_CLASS_LEVEL;
    case TERN_T_PV_HWM: return MPI_T_PVAR_CLASS_HIGHWATERMARK;
    default: return MPI_T_PVAR_CLASS_COUNTER;
    }
}

/* A level follows the library; counters and peaks can be reset per handle. */
int tern_t_pvar_readonly(const struct tern_t_pvar *v) { return v->kind == TERN_T_PV_LEVEL; }

static int pvar_get_num(int *num)
{
    if (!num) return MPI_T_ERR_INVALID;
    *num = tern_t_npvars;
    return MPI_SUCCESS;
}

static int pvar_get_info(int i, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *readonly, int *continuous, int *atomic)
{
    if (i < 0 || i >= tern_t_npvars) return MPI_T_ERR_INVALID_INDEX;
    const struct tern_t_pvar *v = &tern_t_pvars[i];
    tern_t_string(v->name, name, name_len);
    TERN_T_OUT(verbosity,
               v->group == TRANSPORT ? MPI_T_VERBOSITY_USER_BASIC : MPI_T_VERBOSITY_TUNER_DETAIL);
    TERN_T_OUT(var_class, tern_t_pvar_class(v));
    TERN_T_OUT(datatype, MPI_UNSIGNED_LONG_LONG);
    TERN_T_OUT(enumtype, MPI_T_ENUM_NULL);
    tern_t_string(v->desc, desc, desc_len);
    TERN_T_OUT(bind, MPI_T_BIND_NO_OBJECT);
    TERN_T_OUT(readonly, tern_t_pvar_readonly(v));
    TERN_T_OUT(continuous, v->continuous);
    /* Every call runs under the MPI_T lock and the library's: a read and
     * reset together see no update in between. */
    TERN_T_OUT(atomic, !tern_t_pvar_readonly(v));
    return MPI_SUCCESS;
}

static int pvar_get_index(const char *name, int var_class, int *index)
{
    if (!name || !index) return MPI_T_ERR_INVALID;
    for (int i = 0; i < tern_t_npvars; i++)
        if (!strcmp(name, tern_t_pvars[i].name) &&
            var_class == tern_t_pvar_class(&tern_t_pvars[i])) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

TERN_WEAK_ALIAS(MPI_T_pvar_get_num)
int PMPI_T_pvar_get_num(int *num_pvar) { TERN_T_CALL(pvar_get_num(num_pvar)); }

TERN_WEAK_ALIAS(MPI_T_pvar_get_info)
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *readonly, int *continuous, int *atomic)
{
    TERN_T_CALL(pvar_get_info(pvar_index, name, name_len, verbosity, var_class, datatype, enumtype,
                              desc, desc_len, bind, readonly, continuous, atomic));
}

TERN_WEAK_ALIAS(MPI_T_pvar_get_index)
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    TERN_T_CALL(pvar_get_index(name, var_class, pvar_index));
}
