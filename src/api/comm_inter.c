/* The bodies of the MPI calls that make intercommunicators or merge them,
 * and of the MPI-4 constructors from groups (no parent communicator).
 * Their entry points are generated (src/api/gen/bindings_comm_inter.c),
 * with the init test, the lock and the checks of the first handles; the
 * other arguments are checked here, in the order each call has. */
#include <string.h>

#include "api/check.h"
#include "api/comm_check.h"
#include "api/gen/bindings.h"
#include "comm/comm.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/state.h"

/* A rank argument naming a member of a group of n. */
static int chk_leader(struct tern_comm *c, const char *fn, const char *arg, int r, int n,
                      const char *of)
{
    if (r >= 0 && r < n) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_RANK, "%s: %s=%d is not a rank of %s (size %d)", fn, arg, r, of,
                         n);
}

int tern_api_intercomm_create(const char *fn, struct tern_comm *local_comm_o, int local_leader,
                              MPI_Comm peer_comm, int remote_leader, int tag,
                              MPI_Comm *newintercomm)
{
    struct tern_comm *lc = local_comm_o, *pc = NULL, *nc = NULL;
    int rc;
    TRY(tern_chk_intra(lc, fn));
    TRY(chk_leader(lc, fn, "local_leader", local_leader, lc->size, "local_comm"));
    TRY(tern_check_ptr(lc, newintercomm, fn, "newintercomm"));
    if (tag < 0) {
        rc = tern_err_comm(lc, MPI_ERR_TAG, "%s: tag=%d is outside 0..MPI_TAG_UB (%d)", fn, tag,
                           TERN_TAG_UB);
        goto out;
    }
    /* peer_comm and remote_leader matter at the local leader only. */
    if (lc->rank == local_leader) {
        TRY(tern_comm_check(peer_comm, fn, "peer_comm", &pc));
        TRY(chk_leader(lc, fn, "remote_leader", remote_leader, pc->peer_size, "peer_comm"));
        if (tern_comm_world_rank(pc, remote_leader) == tern_g.world_rank) {
            rc = tern_err_comm(lc, MPI_ERR_RANK,
                               "%s: remote_leader=%d is the local leader itself (the groups "
                               "must be disjoint)",
                               fn, remote_leader);
            goto out;
        }
    }
    rc = tern_intercomm_create(lc, local_leader, pc, remote_leader, tag, &nc);
    rc = tern_finish_newcomm(lc, rc, nc, newintercomm);
out:
    return rc;
}

int tern_api_intercomm_merge(const char *fn, struct tern_comm *intercomm_o, int high,
                             MPI_Comm *newintracomm)
{
    struct tern_comm *nc = NULL;
    (void)fn;
    int rc = tern_intercomm_merge(intercomm_o, high, &nc);
    return tern_finish_newcomm(intercomm_o, rc, nc, newintracomm);
}

/* The arguments the two constructors from groups share. */
static int chk_from_group(const char *fn, const char *stringtag, MPI_Errhandler errhandler,
                          void *newcomm, struct tern_errhandler **errh)
{
    int rc;
    if ((rc = tern_check_ptr(NULL, stringtag, fn, "stringtag"))) return rc;
    if (strnlen(stringtag, MPI_MAX_STRINGTAG_LEN) >= MPI_MAX_STRINGTAG_LEN)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: stringtag is longer than MPI_MAX_STRINGTAG_LEN - 1 (%d)", fn,
                             MPI_MAX_STRINGTAG_LEN - 1);
    *errh = errhandler == MPI_ERRHANDLER_NULL ? NULL : tern_errh_get(errhandler);
    if (!*errh)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: errhandler=0x%x is not an error handler%s", fn,
                             (unsigned)errhandler,
                             errhandler == MPI_ERRHANDLER_NULL ? " (MPI_ERRHANDLER_NULL)" : "");
    return tern_check_ptr(NULL, newcomm, fn, "newcomm");
}

/* info: no hints are understood; a live info or MPI_INFO_NULL is accepted
 * unread. */
int tern_api_comm_create_from_group(const char *fn, struct tern_group *group_o,
                                    const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                    MPI_Comm *newcomm)
{
    struct tern_group *g = group_o;
    struct tern_errhandler *e = NULL;
    struct tern_comm *nc = NULL;
    int rc;
    struct tern_info *hints;
    TRY(chk_from_group(fn, stringtag, errhandler, newcomm, &e));
    TRY(tern_info_check(info, 1, fn, "info", NULL, &hints));
    /* A process outside group gets MPI_COMM_NULL, as with MPICH. */
    rc = tern_comm_from_group(g, stringtag, e, &nc);
    rc = tern_finish_newcomm(NULL, rc, nc, newcomm);
out:
    return rc;
}

int tern_api_intercomm_create_from_groups(const char *fn, struct tern_group *local_group_o,
                                          int local_leader, struct tern_group *remote_group_o,
                                          int remote_leader, const char *stringtag, MPI_Info info,
                                          MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    struct tern_group *lg = local_group_o, *rg = remote_group_o;
    struct tern_errhandler *e = NULL;
    struct tern_comm *nc = NULL;
    int rc, w;
    struct tern_info *hints;
    TRY(chk_leader(NULL, fn, "local_leader", local_leader, lg->size, "local_group"));
    TRY(chk_leader(NULL, fn, "remote_leader", remote_leader, rg->size, "remote_group"));
    TRY(chk_from_group(fn, stringtag, errhandler, newintercomm, &e));
    TRY(tern_info_check(info, 1, fn, "info", NULL, &hints));
    if (lg->rank == MPI_UNDEFINED) {
        rc =
            tern_err_comm(NULL, MPI_ERR_GROUP, "%s: the calling process is not in local_group", fn);
        goto out;
    }
    if (tern_groups_overlap(lg, rg, &w)) {
        rc = tern_err_comm(NULL, MPI_ERR_GROUP,
                           "%s: local_group and remote_group overlap (world rank %d is in both)",
                           fn, w);
        goto out;
    }
    /* The leaders need not exchange anything: both groups are known to
     * every member, so the agreement runs over their union directly. */
    rc = tern_intercomm_from_groups(lg, rg, stringtag, e, &nc);
    rc = tern_finish_newcomm(NULL, rc, nc, newintercomm);
out:
    return rc;
}
