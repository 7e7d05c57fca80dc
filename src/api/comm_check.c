#include "api/comm_check.h"

#include <stdlib.h>

#include "api/check.h"
#include "core/errors.h"

int tern_chk_intra(struct tern_comm *c, const char *fn)
{
    if (__builtin_expect(c->is_inter, 0)) {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_COMM,
                             "%s: %s is an intercommunicator; an intracommunicator is required", fn,
                             tern_comm_label(c, lb, sizeof lb));
    }
    return MPI_SUCCESS;
}

int tern_chk_group(struct tern_comm *c, const char *fn, const char *arg, MPI_Group h,
                   struct tern_group **out)
{
    if (h == MPI_GROUP_NULL)
        return tern_err_comm(c, MPI_ERR_GROUP, "%s: %s is MPI_GROUP_NULL", fn, arg);
    *out = tern_group_get(h);
    if (!*out)
        return tern_err_comm(c, MPI_ERR_GROUP, "%s: %s=0x%x is not a valid group", fn, arg,
                             (unsigned)h);
    return MPI_SUCCESS;
}

int tern_chk_subgroup(struct tern_comm *c, const char *fn, struct tern_group *g)
{
    int *ranks = malloc((size_t)(g->size > 0 ? g->size : 1) * sizeof(int));
    if (!ranks) return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    int rc = tern_group_ranks_in(g, c->group, ranks);
    if (rc == MPI_ERR_GROUP) {
        char lb[64];
        int i = 0;
        while (ranks[i] != MPI_UNDEFINED) i++;
        rc = tern_err_comm(c, MPI_ERR_GROUP, "%s: group member %d (world rank %d) is not in %s", fn,
                           i, g->world[i], tern_comm_label(c, lb, sizeof lb));
    } else if (rc) {
        rc = tern_err_comm(c, rc, "%s: out of memory", fn);
    }
    free(ranks);
    return rc;
}

int tern_chk_newcomm(struct tern_comm *c, const char *fn, MPI_Comm *newcomm)
{
    return tern_check_ptr(c, newcomm, fn, "newcomm");
}

int tern_finish_newcomm(struct tern_comm *c, int rc, struct tern_comm *nc, MPI_Comm *newcomm)
{
    if (rc) {
        if (nc) tern_comm_free_handle(nc);
        if (newcomm) *newcomm = MPI_COMM_NULL;
        return tern_err_raise(c, rc);
    }
    *newcomm = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int tern_chk_inter(struct tern_comm *c, const char *fn)
{
    char lb[64];
    if (c->is_inter) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_COMM, "%s: comm=%s is not an intercommunicator", fn,
                         tern_comm_label(c, lb, sizeof lb));
}
