/* MPI_Pack, MPI_Unpack, MPI_Pack_size (MPI 4.1 section 5.2) and the
 * element counts of a status (section 3.2.5, 5.1.11). */
#include <limits.h>
#include <stdint.h>

#include "api/check.h"
#include "api/locked.h"
#include "core/objects.h"
#include "datatype/dt_api.h"
#include "p2p/status.h"

/* The argument names of pack and unpack for the packed side, for the
 * messages. */
struct packed_args {
    const char *count, *buf, *size;
};
static const struct packed_args PACK_ARGS = {"incount", "outbuf", "outsize"};
static const struct packed_args UNPACK_ARGS = {"outcount", "inbuf", "insize"};

/* The packed buffer of pack and unpack: *position inside its size, room
 * there for count elements of dt, and the buffer present if anything
 * moves; *bytes is how much moves. */
static int check_packed(struct tern_comm *c, const char *fn, const struct packed_args *a,
                        int count, const struct tern_datatype *dt, const void *buf, int size,
                        int position, size_t *bytes)
{
    *bytes = (size_t)count * dt->size;
    if (position < 0 || position > size)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: *position=%d is outside %s (%s=%d)", fn,
                             position, a->buf, a->size, size);
    if (*bytes > (size_t)(size - position)) {
        char lbl[MPI_MAX_OBJECT_NAME + 24];
        return tern_err_comm(c, MPI_ERR_TRUNCATE,
                             "%s: %s=%d x %s needs %zu bytes, %s has %d left (%s=%d, "
                             "*position=%d)",
                             fn, a->count, count, tern_dt_label(dt, lbl, sizeof lbl), *bytes,
                             a->buf, size - position, a->size, size, position);
    }
    if (*bytes && !buf) return tern_err_comm(c, MPI_ERR_BUFFER, "%s: %s is NULL", fn, a->buf);
    return MPI_SUCCESS;
}

static int pack(const char *fn, const void *inbuf, int incount, MPI_Datatype datatype,
                void *outbuf, int outsize, int *position, MPI_Comm comm)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = tern_comm_check(comm, fn, "comm", &c)) ||
        (rc = tern_arg_nonneg(incount, MPI_ERR_COUNT, fn, "incount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_check_buffer(c, inbuf, incount, dt, fn, "inbuf")) ||
        (rc = tern_arg_nonneg(outsize, MPI_ERR_ARG, fn, "outsize")) ||
        (rc = tern_arg_ptr(position, fn, "position")))
        return rc;
    size_t bytes;
    if ((rc = check_packed(c, fn, &PACK_ARGS, incount, dt, outbuf, outsize, *position, &bytes)))
        return rc;
    tern_dt_pack(dt, inbuf, (size_t)incount, 0, (char *)outbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    TERN_LOCKED_CALL("MPI_Pack", pack, inbuf, incount, datatype, outbuf, outsize, position, comm);
}

static int unpack(const char *fn, const void *inbuf, int insize, int *position, void *outbuf,
                  int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = tern_comm_check(comm, fn, "comm", &c)) ||
        (rc = tern_arg_nonneg(insize, MPI_ERR_ARG, fn, "insize")) ||
        (rc = tern_arg_ptr(position, fn, "position")) ||
        (rc = tern_arg_nonneg(outcount, MPI_ERR_COUNT, fn, "outcount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_check_buffer(c, outbuf, outcount, dt, fn, "outbuf")))
        return rc;
    size_t bytes;
    if ((rc = check_packed(c, fn, &UNPACK_ARGS, outcount, dt, inbuf, insize, *position, &bytes)))
        return rc;
    tern_dt_unpack(dt, outbuf, (size_t)outcount, 0, (const char *)inbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    TERN_LOCKED_CALL("MPI_Unpack", unpack, inbuf, insize, position, outbuf, outcount, datatype,
                     comm);
}

static int pack_size(const char *fn, int incount, MPI_Datatype datatype, MPI_Comm comm,
                     int *size)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = tern_comm_check(comm, fn, "comm", &c)) ||
        (rc = tern_arg_nonneg(incount, MPI_ERR_COUNT, fn, "incount")) ||
        (rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(size, fn, "size")))
        return rc;
    size_t bytes = (size_t)incount * dt->size;
    if (bytes > (size_t)INT_MAX)
        return tern_err_comm(c, MPI_ERR_ARG,
                             "%s: incount=%d elements take %zu bytes, more than an int holds "
                             "(use MPI_Pack_size_c)",
                             fn, incount, bytes);
    *size = (int)bytes;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    TERN_LOCKED_CALL("MPI_Pack_size", pack_size, incount, datatype, comm, size);
}

/* ---- counts from a status ---- */

static int status_arg(const MPI_Status *status, const char *fn)
{
    if (status == MPI_STATUS_IGNORE)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: status is MPI_STATUS_IGNORE", fn);
    return tern_arg_ptr(status, fn, "status");
}

static int get_count(const char *fn, const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = status_arg(status, fn)) || (rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(count, fn, "count")))
        return rc;
    size_t bytes = tern_status_get_bytes(status);
    if (dt->size == 0)
        *count = 0;
    else if (bytes % dt->size || bytes / dt->size > (size_t)INT_MAX)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(bytes / dt->size);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Get_count)
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    TERN_LOCKED_CALL("MPI_Get_count", get_count, status, datatype, count);
}

static int get_elements(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                        MPI_Count *xcount, int *count)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = status_arg(status, fn)) || (rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(xcount ? (const void *)xcount : (const void *)count, fn, "count")))
        return rc;
    size_t n;
    int partial = tern_dt_count_elements(dt, tern_status_get_bytes(status), &n);
    if (xcount)
        *xcount = partial ? MPI_UNDEFINED : (MPI_Count)n;
    else
        *count = partial || n > (size_t)INT_MAX ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Get_elements)
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    TERN_LOCKED_CALL("MPI_Get_elements", get_elements, status, datatype, NULL, count);
}

TERN_WEAK_ALIAS(MPI_Get_elements_x)
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    TERN_LOCKED_CALL("MPI_Get_elements_x", get_elements, status, datatype, count, NULL);
}
