/* MPI-4.1 partitioned point-to-point: MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready(_range, _list) and MPI_Parrived.  The checks live here, the
 * protocol in src/p2p/part.c; MPI_Start, the completion calls, cancel and
 * free are the request calls' (request.c). */
#include "api/check.h"
#include "api/locked.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/state.h"
#include "p2p/part.h"

/* Everything an init call checks, in MPICH's order; the receive side also
 * refuses the wildcards, since a partitioned receive names its sender. */
static int init_check(const char *fn, int is_send, const void *buf, int partitions, MPI_Count count,
                      MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request, struct tern_comm **c, struct tern_datatype **dt)
{
    int rc = tern_check_comm(comm, fn, c);
    if (rc != MPI_SUCCESS) return rc;
    if (partitions < 0)
        return tern_err_comm(*c, MPI_ERR_ARG, "%s: partitions=%d must not be negative", fn,
                             partitions);
    rc = is_send ? tern_check_send_args(fn, buf, count, datatype, peer, tag, comm, c, dt)
                 : tern_check_recv_args(fn, buf, count, datatype, peer, tag, comm, c, dt);
    if (rc != MPI_SUCCESS) return rc;
    if (!is_send && peer == MPI_ANY_SOURCE)
        return tern_err_comm(*c, MPI_ERR_RANK,
                             "%s: source=MPI_ANY_SOURCE is not allowed: a partitioned "
                             "receive names its sender",
                             fn);
    if (!is_send && tag == MPI_ANY_TAG)
        return tern_err_comm(*c, MPI_ERR_TAG,
                             "%s: tag=MPI_ANY_TAG is not allowed: a partitioned receive "
                             "names its tag",
                             fn);
    struct tern_info *ti;
    if ((rc = tern_info_check(info, 1, fn, "info", *c, &ti))) return rc;
    if ((rc = tern_check_ptr(*c, request, fn, "request"))) return rc;
    /* The whole buffer must be addressable: partitions * count elements. */
    size_t total, bytes;
    MPI_Aint span;
    if (__builtin_mul_overflow((size_t)partitions, (size_t)count, &total) ||
        __builtin_mul_overflow(total, (*dt)->size, &bytes) ||
        __builtin_mul_overflow((MPI_Aint)total, (*dt)->extent, &span))
        return tern_err_comm(*c, MPI_ERR_COUNT,
                             "%s: partitions=%d times count=%lld elements is too large", fn,
                             partitions, (long long)count);
    return MPI_SUCCESS;
}

static int init_common(const char *fn, int is_send, const void *buf, int partitions,
                       MPI_Count count, MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    TERN_REQUIRE_INIT(fn);
    struct tern_comm *c;
    struct tern_datatype *dt;
    struct tern_request *r;
    tern_lock();
    int rc = init_check(fn, is_send, buf, partitions, count, datatype, peer, tag, comm, info,
                        request, &c, &dt);
    if (rc == MPI_SUCCESS) {
        rc = is_send ? tern_part_send_init(buf, partitions, (size_t)count, dt, peer, tag, c, &r)
                     : tern_part_recv_init((void *)buf, partitions, (size_t)count, dt, peer, tag, c,
                                           &r);
        if (rc == MPI_SUCCESS)
            *request = r->handle;
        else
            rc = tern_err_raise(c, rc);
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Psend_init)
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return init_common("MPI_Psend_init", 1, buf, partitions, count, datatype, dest, tag, comm, info,
                       request);
}

TERN_WEAK_ALIAS(MPI_Precv_init)
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return init_common("MPI_Precv_init", 0, buf, partitions, count, datatype, source, tag, comm,
                       info, request);
}

/* The partitioned request behind h, of the side fn works on (as MPICH,
 * MPI_ERR_REQUEST for anything else); errors go to its communicator. */
static int part_lookup(const char *fn, MPI_Request h, int want_send, struct tern_request **out)
{
    *out = NULL; /* on every path, so the callers' reads never look uninitialised */
    struct tern_request *r = h == MPI_REQUEST_NULL ? NULL : tern_req_get(h);
    if (h == MPI_REQUEST_NULL)
        return tern_err_comm(NULL, MPI_ERR_REQUEST, "%s: request is MPI_REQUEST_NULL", fn);
    if (!r || r->kind != TERN_REQ_PART)
        return tern_err_comm(r ? r->comm : NULL, MPI_ERR_REQUEST,
                             "%s: request=0x%x is not a partitioned request%s", fn, (unsigned)h,
                             r ? "" : " (freed, or never created)");
    if (tern_part_is_send(r) != want_send)
        return tern_err_comm(r->comm, MPI_ERR_REQUEST,
                             "%s: request=0x%x is a partitioned %s; %s needs a "
                             "partitioned %s",
                             fn, (unsigned)h, want_send ? "receive" : "send", fn,
                             want_send ? "send (MPI_Psend_init)" : "receive (MPI_Precv_init)");
    *out = r;
    return MPI_SUCCESS;
}

/* The Pready family works on an active send request. */
static int ready_target(const char *fn, MPI_Request request, struct tern_request **r)
{
    int rc = part_lookup(fn, request, 1, r);
    if (rc == MPI_SUCCESS && !(*r)->active)
        rc = tern_err_comm((*r)->comm, MPI_ERR_REQUEST,
                           "%s: request=0x%x is not active (MPI_Start it first; "
                           "after its completion it must be started again)",
                           fn, (unsigned)request);
    return rc;
}

/* Marks the partitions list[0..n), or first..first+n-1, ready. */
static int ready_common(const char *fn, struct tern_request *r, const int *list, int first, int n)
{
    int rc = tern_part_ready(fn, r, list, first, n);
    return rc == MPI_SUCCESS ? rc : tern_err_raise(r->comm, rc);
}

static int pready_one(const char *fn, int partition, MPI_Request request)
{
    struct tern_request *r;
    int rc = ready_target(fn, request, &r);
    return rc != MPI_SUCCESS ? rc : ready_common(fn, r, NULL, partition, 1);
}

static int pready_range(const char *fn, int low, int high, MPI_Request request)
{
    struct tern_request *r;
    int rc = ready_target(fn, request, &r);
    if (rc != MPI_SUCCESS) return rc;
    /* Checked here, where the range is known, so the count below fits an int. */
    int parts = tern_part_count(r);
    if (low > high || low < 0 || high >= parts)
        return tern_err_comm(r->comm, MPI_ERR_ARG,
                             "%s: partition_low=%d, partition_high=%d is not a range of "
                             "the request's %d partitions (0 <= low <= high < %d)",
                             fn, low, high, parts, parts);
    return ready_common(fn, r, NULL, low, high - low + 1);
}

static int pready_list(const char *fn, int length, const int *partitions, MPI_Request request)
{
    struct tern_request *r;
    int rc = ready_target(fn, request, &r);
    if (rc != MPI_SUCCESS) return rc;
    if (length < 0)
        return tern_err_comm(r->comm, MPI_ERR_ARG, "%s: length=%d must not be negative", fn,
                             length);
    if (length > 0 && !partitions)
        return tern_err_comm(r->comm, MPI_ERR_ARG, "%s: array_of_partitions is NULL", fn);
    return ready_common(fn, r, partitions, 0, length);
}

TERN_WEAK_ALIAS(MPI_Pready)
int PMPI_Pready(int partition, MPI_Request request)
{
    TERN_LOCKED_CALL("MPI_Pready", pready_one, partition, request);
}

TERN_WEAK_ALIAS(MPI_Pready_range)
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    TERN_LOCKED_CALL("MPI_Pready_range", pready_range, partition_low, partition_high, request);
}

TERN_WEAK_ALIAS(MPI_Pready_list)
int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    TERN_LOCKED_CALL("MPI_Pready_list", pready_list, length, array_of_partitions, request);
}

/* MPI-4.1: a null or inactive request gives flag = true. */
static int parrived(const char *fn, MPI_Request request, int partition, int *flag)
{
    if (!flag) return tern_err_comm(NULL, MPI_ERR_ARG, "%s: flag is NULL", fn);
    if (request == MPI_REQUEST_NULL) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct tern_request *r;
    int rc = part_lookup(fn, request, 0, &r);
    if (rc != MPI_SUCCESS) return rc;
    int parts = tern_part_count(r);
    if (partition < 0 || partition >= parts)
        return tern_err_comm(r->comm, MPI_ERR_ARG,
                             "%s: partition=%d is out of range (the request has %d "
                             "partition%s)",
                             fn, partition, parts, parts == 1 ? "" : "s");
    *flag = !r->active || tern_part_arrived(r, partition);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Parrived)
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    TERN_LOCKED_CALL("MPI_Parrived", parrived, request, partition, flag);
}
