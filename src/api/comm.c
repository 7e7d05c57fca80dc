/* The bodies of the MPI communicator calls: size/rank, freeing,
 * comparison, groups, names.  Their entry points are generated
 * (src/api/gen/bindings_comm.c; see tools/gen/gen_bindings.py), with the
 * init test, the lock and the checks of the handles and result pointers.
 * The constructors are src/api/comm_ctor.c, attributes src/api/attr.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "api/check.h"
#include "api/comm_check.h"
#include "api/gen/bindings.h"
#include "comm/comm_spawn.h"
#include "comm/dyn.h"
#include "comm/comm.h"
#include "core/api.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "msg/request.h"
#include "msg/status.h"
#include "p2p/transport.h"
#include "topo/topo.h"

int tern_api_comm_size(const char *fn, struct tern_comm *comm_o, int *size)
{
    (void)fn;
    *size = comm_o->size;
    return MPI_SUCCESS;
}

int tern_api_comm_rank(const char *fn, struct tern_comm *comm_o, int *rank)
{
    (void)fn;
    *rank = comm_o->rank;
    return MPI_SUCCESS;
}

/* MPI_Comm_free, and MPI_Comm_disconnect ('drain'), which first waits for
 * every operation under way on the communicator to complete. */
static int comm_free(const char *fn, MPI_Comm *comm, struct tern_comm *c, int drain)
{
    int rc;
    if (c == &tern_comm_world || c == &tern_comm_self)
        return tern_err_comm(c, MPI_ERR_COMM, "%s: %s cannot be freed", fn,
                             c == &tern_comm_world ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
    if (drain) {
        struct tern_waiter w = TERN_WAITER_INIT;
        while (tern_req_pending_on(c, c->local_comm)) tern_progress_wait(&w);
    }
    /* [attr] Delete callbacks first; when one fails the communicator stays. */
    if ((rc = tern_attr_comm_free(c)) != MPI_SUCCESS) return tern_err_raise(c, rc);
    tern_comm_free_handle(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int tern_api_comm_free(const char *fn, MPI_Comm *comm, struct tern_comm *comm_o)
{
    MPI_Comm h = *comm;
    int rc = comm_free(fn, comm, comm_o, 0);
    if (rc == MPI_SUCCESS) tern_spawn_forget_parent(h);
    return rc;
}

/* MPI_Comm_disconnect: freeing once nothing is left in flight on the
 * communicator (nothing of its own waits on the other side: the
 * endpoints to another job's processes stay for other communicators that
 * reach them). */
int tern_api_comm_disconnect(const char *fn, MPI_Comm *comm, struct tern_comm *comm_o)
{
    MPI_Comm h = *comm;
    int n = comm_o->peer_size, *foreign = malloc((size_t)(n > 0 ? n : 1) * sizeof(int)), nf = 0;
    for (int i = 0; foreign && i < n; i++)
        if (comm_o->peer_world[i] >= tern_g.world_size) foreign[nf++] = comm_o->peer_world[i];
    /* Both sides past a barrier: each has matched what the other sent
     * before it (UCX delivers in send order, p2p/transport.h), so the
     * connections to the other job may close.  A process of another job
     * may end as soon as its disconnect returns. */
    int rc = nf > 0 ? PMPI_Barrier(h) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) rc = comm_free(fn, comm, comm_o, 1);
    if (rc == MPI_SUCCESS) {
        tern_spawn_forget_parent(h);
        for (int i = 0; i < nf; i++) tern_p2p_foreign_disconnect(foreign[i]);
    }
    free(foreign);
    return rc;
}

/* The intercommunicator to the parents of a process that MPI_Comm_spawn
 * started (made at MPI_Init), or MPI_COMM_NULL (MPI-4.1 11.8.2). */
int tern_api_comm_get_parent(const char *fn, MPI_Comm *parent)
{
    (void)fn;
    *parent = tern_spawn_parent();
    return MPI_SUCCESS;
}

int tern_api_comm_compare(const char *fn, struct tern_comm *comm1_o, struct tern_comm *comm2_o,
                          int *result)
{
    (void)fn;
    struct tern_comm *c1 = comm1_o, *c2 = comm2_o;
    if (c1 == c2) {
        *result = MPI_IDENT;
    } else if (c1->is_inter != c2->is_inter) {
        *result = MPI_UNEQUAL;
    } else {
        /* Intercommunicators: the weaker of the two sides' answers. */
        int g = tern_group_compare(c1->group, c2->group);
        if (c1->is_inter) {
            int r = tern_group_compare(c1->remote_group, c2->remote_group);
            if (r > g) g = r;
        }
        *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    }
    return MPI_SUCCESS;
}

/* A new handle for a group of c's. */
static int publish_group(const char *fn, struct tern_comm *c, struct tern_group *g, MPI_Group *out)
{
    tern_group_retain(g);
    int rc = tern_group_publish(g, out);
    if (rc) rc = tern_err_comm(c, rc, "%s: out of memory for a group handle", fn);
    return rc;
}

int tern_api_comm_group(const char *fn, struct tern_comm *comm_o, MPI_Group *group)
{
    return publish_group(fn, comm_o, comm_o->group, group);
}

int tern_api_comm_set_name(const char *fn, struct tern_comm *comm_o, const char *comm_name)
{
    (void)fn;
    /* Longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters. */
    snprintf(comm_o->name, sizeof comm_o->name, "%s", comm_name);
    return MPI_SUCCESS;
}

int tern_api_comm_get_name(const char *fn, MPI_Comm comm, char *comm_name, int *resultlen)
{
    struct tern_comm *c = NULL;
    int rc;
    /* MPI-4.1 names the null handle too. */
    const char *name = "MPI_COMM_NULL";
    if (comm != MPI_COMM_NULL) {
        if ((rc = tern_comm_check(comm, fn, "comm", &c))) return rc;
        name = c->name;
    }
    if ((rc = tern_check_ptr(c, comm_name, fn, "comm_name")) ||
        (rc = tern_check_ptr(c, resultlen, fn, "resultlen")))
        return rc;
    size_t len = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm_name, name, len);
    comm_name[len] = 0;
    *resultlen = (int)len;
    return MPI_SUCCESS;
}

int tern_api_comm_test_inter(const char *fn, struct tern_comm *comm_o, int *flag)
{
    (void)fn;
    *flag = comm_o->is_inter != 0;
    return MPI_SUCCESS;
}

int tern_api_comm_remote_size(const char *fn, struct tern_comm *comm_o, int *size)
{
    int rc = tern_chk_inter(comm_o, fn);
    if (!rc) *size = comm_o->remote_group->size;
    return rc;
}

int tern_api_comm_remote_group(const char *fn, struct tern_comm *comm_o, MPI_Group *group)
{
    int rc = tern_chk_inter(comm_o, fn);
    return rc ? rc : publish_group(fn, comm_o, comm_o->remote_group, group);
}
