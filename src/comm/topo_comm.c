/* Communicators that carry a process topology: built over part of the
 * parent with an agreed context id, then given the topology. */
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/errors.h"
#include "core/objects.h"
#include "topo/topo.h"

/* The group of parent's first 'members' ranks. */
static int first_ranks(struct tern_comm *parent, int members, struct tern_group **out)
{
    if (members == parent->size) {
        tern_group_retain(parent->group);
        *out = parent->group;
        return MPI_SUCCESS;
    }
    struct tern_group *g = tern_group_new(members);
    if (!g) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate a group of %d", members);
    memcpy(g->world, parent->group->world, (size_t)members * sizeof(int));
    tern_group_set_rank(g);
    *out = g;
    return MPI_SUCCESS;
}

int tern_topo_comm_build(struct tern_comm *parent, struct tern_group *g, struct tern_topo *t,
                         int (*finish)(struct tern_topo *t, int rank), struct tern_comm **out)
{
    int rc = tern_comm_create_from(parent, g, out);
    if (!rc && *out && !t)
        rc = tern_err_make(MPI_ERR_NO_MEM, "out of memory for a process topology");
    if (!rc && *out && finish) rc = finish(t, (*out)->rank);
    if (!rc && *out) {
        (*out)->topo = t;
        t = NULL;
    }
    tern_topo_free(t);
    if (rc && *out) {
        tern_comm_free_handle(*out);
        *out = NULL;
    }
    return rc;
}

int tern_topo_comm_create(struct tern_comm *parent, int members, struct tern_topo *t,
                          int (*finish)(struct tern_topo *t, int rank), struct tern_comm **out)
{
    struct tern_group *g = NULL;
    int rc = MPI_SUCCESS;
    *out = NULL;
    if (parent->rank < members) rc = first_ranks(parent, members, &g);
    /* Every rank takes part in the context agreement, even after a local
     * failure, so the others do not hang. */
    int rc2 = tern_topo_comm_build(parent, g, rc ? NULL : t, finish, out);
    if (g) tern_group_release(g);
    if (rc) tern_topo_free(t);
    return rc ? rc : rc2;
}
