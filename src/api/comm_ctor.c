/* The bodies of the MPI communicator constructors: dup (blocking and not,
 * with or without hints), split, split_type, create and create_group.
 * Their entry points are generated (src/api/gen/bindings_comm_ctor.c),
 * with the init test, the lock and the checks of the handles and of the
 * result pointers; the checks only a body can make (a colour, a tag, a
 * subgroup, the hints of a split by type) are here.  The constructors from
 * groups and of intercommunicators are src/api/comm_inter.c. */
#include "api/check.h"
#include "api/comm_check.h"
#include "api/gen/bindings.h"
#include "comm/comm.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "msg/request.h"
#include "topo/topo.h"

/* What every dup copies besides the groups: the topology, the attributes
 * (copy callbacks, which may fail the dup) and the hints: the parent's, or
 * those of the info argument. */
static int dup_copy(struct tern_comm *c, struct tern_comm *nc, const struct tern_info *info,
                    int with_info)
{
    int rc = tern_topo_copy(c, nc);
    if (rc == MPI_SUCCESS) rc = tern_attr_comm_copy(c, nc);
    if (rc == MPI_SUCCESS) {
        if (with_info) {
            tern_comm_hints_apply(nc, info);
        } else {
            nc->hints = c->hints;
            nc->hw_type = c->hw_type;
        }
    }
    return rc;
}

/* MPI_Comm_idup(_with_info): the new communicator's handle is written at
 * once and its context ids agreed in the background (comm/comm_idup.c);
 * what it copies is copied now, since MPI defines the call as a dup made
 * at the time of the call (attributes set later are not copied). */
static int comm_idup(const char *fn, struct tern_comm *c, const struct tern_info *info,
                     int with_info, MPI_Comm *newcomm, MPI_Request *request)
{
    struct tern_comm *nc;
    struct tern_request *r;
    int rc = tern_comm_idup_start(c, fn, &nc, &r);
    if (rc) return rc;
    if ((rc = dup_copy(c, nc, info, with_info))) {
        /* The other ranks' agreement still needs this one's part: the
         * request runs on unseen and is released when it completes. */
        tern_req_orphan(r);
        return tern_finish_newcomm(c, rc, nc, newcomm);
    }
    *newcomm = nc->handle;
    *request = r->handle;
    return MPI_SUCCESS;
}

/* MPI_Comm_dup and MPI_Comm_dup_with_info (with_info: info's hints, none
 * for MPI_INFO_NULL, instead of the parent's). */
static int comm_dup(struct tern_comm *c, const struct tern_info *info, int with_info,
                    MPI_Comm *newcomm)
{
    struct tern_comm *nc = NULL;
    int rc = c->is_inter ? tern_intercomm_dup(c, &nc) : tern_comm_create_from(c, c->group, &nc);
    if (rc == MPI_SUCCESS) rc = dup_copy(c, nc, info, with_info);
    return tern_finish_newcomm(c, rc, nc, newcomm);
}

int tern_api_comm_dup(const char *fn, struct tern_comm *comm_o, MPI_Comm *newcomm)
{
    (void)fn;
    return comm_dup(comm_o, NULL, 0, newcomm);
}

int tern_api_comm_dup_with_info(const char *fn, struct tern_comm *comm_o, struct tern_info *info_o,
                                MPI_Comm *newcomm)
{
    (void)fn;
    return comm_dup(comm_o, info_o, 1, newcomm);
}

int tern_api_comm_idup(const char *fn, struct tern_comm *comm_o, MPI_Comm *newcomm,
                       MPI_Request *request)
{
    return comm_idup(fn, comm_o, NULL, 0, newcomm, request);
}

int tern_api_comm_idup_with_info(const char *fn, struct tern_comm *comm_o, struct tern_info *info_o,
                                 MPI_Comm *newcomm, MPI_Request *request)
{
    return comm_idup(fn, comm_o, info_o, 1, newcomm, request);
}

int tern_api_comm_split(const char *fn, struct tern_comm *comm_o, int color, int key,
                        MPI_Comm *newcomm)
{
    struct tern_comm *nc = NULL;
    if (color < 0 && color != MPI_UNDEFINED)
        return tern_err_comm(comm_o, MPI_ERR_ARG,
                             "%s: color=%d is negative (only MPI_UNDEFINED may be)", fn, color);
    int rc = tern_comm_split(comm_o, color, key, &nc);
    return tern_finish_newcomm(comm_o, rc, nc, newcomm);
}

/* The info key of MPI_COMM_TYPE_HW_GUIDED naming the resource. */
#define HW_RESOURCE_KEY "mpi_hw_resource_type"

/* This process's colour for split_type (collective for HW_UNGUIDED), and
 * for the hardware splits the resource type to report on the new
 * communicator's info (MPI-4.1 7.4.2). */
static int split_type_color(struct tern_comm *c, const char *fn, int split_type, MPI_Info info,
                            int *color, const char **hw_type)
{
    int rc;
    *hw_type = NULL;
    switch (split_type) {
    case MPI_UNDEFINED: *color = MPI_UNDEFINED; return MPI_SUCCESS;
    case MPI_COMM_TYPE_SHARED: *color = tern_host_color(); return MPI_SUCCESS;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED: /* MPI-4.1's name for the same split */
        /* No key, or a resource this machine does not have: MPI_COMM_NULL. */
        *hw_type = tern_hw_type_name(tern_info_lookup(info, HW_RESOURCE_KEY));
        rc = tern_hw_color(*hw_type, color);
        return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
    case MPI_COMM_TYPE_HW_UNGUIDED:
        rc = tern_hw_unguided_color(c, color, hw_type);
        return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
#ifdef MPIX_COMM_TYPE_NEIGHBORHOOD
    case MPIX_COMM_TYPE_NEIGHBORHOOD:
#endif
        *color = MPI_UNDEFINED; /* no such resources are known: MPI_COMM_NULL */
        return MPI_SUCCESS;
    default:
        return tern_err_comm(c, MPI_ERR_ARG, "%s: split_type=%d is not a known split type", fn,
                             split_type);
    }
}

int tern_api_comm_split_type(const char *fn, struct tern_comm *comm_o, int split_type, int key,
                             MPI_Info info, MPI_Comm *newcomm)
{
    struct tern_comm *c = comm_o, *nc = NULL;
    struct tern_info *hints;
    const char *hw_type;
    int rc, color;
    TRY(tern_info_check(info, 1, fn, "info", c, &hints));
    TRY(split_type_color(c, fn, split_type, info, &color, &hw_type));
    rc = tern_comm_split(c, color, key, &nc);
    if (nc) nc->hw_type = hw_type;
    /* The level HW_UNGUIDED chose is also told in the caller's info
     * (MPI-4.1 7.4.2), as well as on the new communicator's. */
    if (!rc && nc && split_type == MPI_COMM_TYPE_HW_UNGUIDED && hints && hw_type &&
        tern_info_set(hints, HW_RESOURCE_KEY, hw_type))
        rc = MPI_ERR_NO_MEM;
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    return rc;
}

int tern_api_comm_create(const char *fn, struct tern_comm *comm_o, struct tern_group *group_o,
                         MPI_Comm *newcomm)
{
    struct tern_comm *c = comm_o, *nc = NULL;
    int rc;
    TRY(tern_chk_subgroup(c, fn, group_o));
    if (c->is_inter)
        rc = tern_intercomm_subset(c, group_o, &nc);
    else
        rc = tern_comm_create_from(c, group_o->rank == MPI_UNDEFINED ? NULL : group_o, &nc);
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    return rc;
}

int tern_api_comm_create_group(const char *fn, struct tern_comm *comm_o, struct tern_group *group_o,
                               int tag, MPI_Comm *newcomm)
{
    struct tern_comm *c = comm_o, *nc = NULL;
    int rc;
    TRY(tern_chk_intra(c, fn));
    if (tag < 0) {
        rc = tern_err_comm(c, MPI_ERR_TAG, "%s: tag=%d is outside 0..MPI_TAG_UB (%d)", fn, tag,
                           TERN_TAG_UB);
        goto out;
    }
    TRY(tern_chk_subgroup(c, fn, group_o));
    rc = tern_comm_create_group(c, group_o, tag, &nc);
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    return rc;
}
