/* MPI communicator calls: size/rank, construction (dup, split, create),
 * comparison, names.  The entry points of the queries, of freeing and of
 * the names are generated (src/api/gen/bindings_comm.c; see
 * tools/gen/gen_bindings.py), with the init test, the lock and the checks
 * of the handles and result pointers; the constructors write theirs here.
 * Attributes are src/api/attr.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "api/check.h"
#include "api/comm_check.h"
#include "api/gen/bindings.h"
#include "comm/comm.h"
#include "core/api.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/request.h"
#include "p2p/status.h"
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

/* MPI_Comm_dup, MPI_Comm_dup_with_info (info_arg non-NULL), MPI_Comm_idup
 * and MPI_Comm_idup_with_info (nonblocking: the request goes to *request). */
static int comm_dup(const char *fn, MPI_Comm comm, const MPI_Info *info_arg, MPI_Comm *newcomm,
                    int nonblocking, MPI_Request *request)
{
    struct tern_comm *c, *nc = NULL;
    struct tern_info *info = NULL;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    if (info_arg) TRY(tern_info_check(*info_arg, 1, fn, "info", c, &info));
    TRY(tern_chk_newcomm(c, fn, newcomm));
    if (nonblocking) {
        TRY(tern_check_ptr(c, request, fn, "request"));
        rc = comm_idup(fn, c, info, info_arg != NULL, newcomm, request);
        goto out;
    }
    rc = c->is_inter ? tern_intercomm_dup(c, &nc) : tern_comm_create_from(c, c->group, &nc);
    if (rc == MPI_SUCCESS) rc = dup_copy(c, nc, info, info_arg != NULL);
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return comm_dup("MPI_Comm_dup", comm, NULL, newcomm, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return comm_dup("MPI_Comm_dup_with_info", comm, &info, newcomm, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Comm_idup)
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return comm_dup("MPI_Comm_idup", comm, NULL, newcomm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Comm_idup_with_info)
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    return comm_dup("MPI_Comm_idup_with_info", comm, &info, newcomm, 1, request);
}

TERN_WEAK_ALIAS(MPI_Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split";
    struct tern_comm *c, *nc = NULL;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_chk_newcomm(c, fn, newcomm));
    if (color < 0 && color != MPI_UNDEFINED) {
        rc = tern_err_comm(c, MPI_ERR_ARG, "%s: color=%d is negative (only MPI_UNDEFINED may be)",
                           fn, color);
        goto out;
    }
    rc = tern_comm_split(c, color, key, &nc);
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
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

TERN_WEAK_ALIAS(MPI_Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split_type";
    struct tern_comm *c, *nc = NULL;
    struct tern_info *hints;
    const char *hw_type;
    int rc, color;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_chk_newcomm(c, fn, newcomm));
    TRY(tern_info_check(info, 1, fn, "info", c, &hints));
    TRY(split_type_color(c, fn, split_type, info, &color, &hw_type));
    rc = tern_comm_split(c, color, key, &nc);
    if (nc) nc->hw_type = hw_type;
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create";
    struct tern_comm *c, *nc = NULL;
    struct tern_group *g;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_chk_group(c, fn, "group", group, &g));
    TRY(tern_chk_newcomm(c, fn, newcomm));
    TRY(tern_chk_subgroup(c, fn, g));
    if (c->is_inter)
        rc = tern_intercomm_subset(c, g, &nc);
    else
        rc = tern_comm_create_from(c, g->rank == MPI_UNDEFINED ? NULL : g, &nc);
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_group";
    struct tern_comm *c, *nc = NULL;
    struct tern_group *g;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_chk_group(c, fn, "group", group, &g));
    TRY(tern_chk_newcomm(c, fn, newcomm));
    TRY(tern_chk_intra(c, fn));
    if (tag < 0) {
        rc = tern_err_comm(c, MPI_ERR_TAG, "%s: tag=%d is outside 0..MPI_TAG_UB (%d)", fn, tag,
                           TERN_TAG_UB);
        goto out;
    }
    TRY(tern_chk_subgroup(c, fn, g));
    rc = tern_comm_create_group(c, g, tag, &nc);
    rc = tern_finish_newcomm(c, rc, nc, newcomm);
out:
    tern_unlock();
    return rc;
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
    return comm_free(fn, comm, comm_o, 0);
}

/* Communicators never come from dynamic processes in Tern (MPI_Comm_spawn
 * and the port calls are not implemented), so disconnecting is freeing
 * once nothing is left in flight. */
int tern_api_comm_disconnect(const char *fn, MPI_Comm *comm, struct tern_comm *comm_o)
{
    return comm_free(fn, comm, comm_o, 1);
}

/* Every Tern process is started by mpiexec or as a singleton, never by
 * MPI_Comm_spawn, so no process has a parent (MPI-4.1 11.8.2: then the
 * answer is MPI_COMM_NULL). */
int tern_api_comm_get_parent(const char *fn, MPI_Comm *parent)
{
    (void)fn;
    *parent = MPI_COMM_NULL;
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
