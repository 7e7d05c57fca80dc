/* MPI_Pack, MPI_Unpack, MPI_Pack_size (MPI 4.1 section 5.2) and the
 * element counts of a status (section 3.2.5, 5.1.11). */
#include <limits.h>
#include <stdint.h>

#include "core/objects.h"
#include "datatype/dt_api.h"
#include "p2p/status.h"

static int check_comm(MPI_Comm comm, const char *fn, struct tern_comm **out)
{
    struct tern_comm *c = comm == MPI_COMM_NULL ? NULL : tern_comm_get(comm);
    if (!c) {
        if (comm == MPI_COMM_NULL)
            return tern_err_comm(NULL, MPI_ERR_COMM, "%s: comm is MPI_COMM_NULL", fn);
        return tern_err_comm(NULL, MPI_ERR_COMM, "%s: comm=0x%x is not a valid communicator", fn,
                             (unsigned)comm);
    }
    *out = c;
    return MPI_SUCCESS;
}

static int pack(const char *fn, const void *inbuf, int incount, MPI_Datatype datatype,
                void *outbuf, int outsize, int *position, MPI_Comm comm)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = check_comm(comm, fn, &c)) ||
        (rc = tern_arg_nonneg(incount, MPI_ERR_COUNT, fn, "incount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_nonneg(outsize, MPI_ERR_ARG, fn, "outsize")) ||
        (rc = tern_arg_ptr(position, fn, "position")))
        return rc;
    size_t bytes = (size_t)incount * dt->size;
    if (*position < 0 || *position > outsize)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: *position=%d is outside outbuf (outsize=%d)", fn,
                             *position, outsize);
    if (bytes > (size_t)(outsize - *position)) {
        char lbl[MPI_MAX_OBJECT_NAME + 24];
        return tern_err_comm(c, MPI_ERR_TRUNCATE,
                             "%s: incount=%d x %s needs %zu bytes, outbuf has %d left (outsize=%d, "
                             "*position=%d)",
                             fn, incount, tern_dt_label(dt, lbl, sizeof lbl), bytes,
                             outsize - *position, outsize, *position);
    }
    if (bytes && !outbuf) return tern_err_comm(c, MPI_ERR_BUFFER, "%s: outbuf is NULL", fn);
    tern_dt_pack(dt, inbuf, (size_t)incount, 0, (char *)outbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    TERN_REQUIRE_INIT("MPI_Pack");
    tern_lock();
    int rc = pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, position, comm);
    tern_unlock();
    return rc;
}

static int unpack(const char *fn, const void *inbuf, int insize, int *position, void *outbuf,
                  int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = check_comm(comm, fn, &c)) ||
        (rc = tern_arg_nonneg(insize, MPI_ERR_ARG, fn, "insize")) ||
        (rc = tern_arg_ptr(position, fn, "position")) ||
        (rc = tern_arg_nonneg(outcount, MPI_ERR_COUNT, fn, "outcount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)))
        return rc;
    size_t bytes = (size_t)outcount * dt->size;
    if (*position < 0 || *position > insize)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: *position=%d is outside inbuf (insize=%d)", fn,
                             *position, insize);
    if (bytes > (size_t)(insize - *position)) {
        char lbl[MPI_MAX_OBJECT_NAME + 24];
        return tern_err_comm(c, MPI_ERR_TRUNCATE,
                             "%s: outcount=%d x %s needs %zu bytes, inbuf has %d left (insize=%d, "
                             "*position=%d)",
                             fn, outcount, tern_dt_label(dt, lbl, sizeof lbl), bytes,
                             insize - *position, insize, *position);
    }
    if (bytes && !inbuf) return tern_err_comm(c, MPI_ERR_BUFFER, "%s: inbuf is NULL", fn);
    tern_dt_unpack(dt, outbuf, (size_t)outcount, 0, (const char *)inbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    TERN_REQUIRE_INIT("MPI_Unpack");
    tern_lock();
    int rc = unpack("MPI_Unpack", inbuf, insize, position, outbuf, outcount, datatype, comm);
    tern_unlock();
    return rc;
}

static int pack_size(const char *fn, int incount, MPI_Datatype datatype, MPI_Comm comm,
                     int *size)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = check_comm(comm, fn, &c)) ||
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
    TERN_REQUIRE_INIT("MPI_Pack_size");
    tern_lock();
    int rc = pack_size("MPI_Pack_size", incount, datatype, comm, size);
    tern_unlock();
    return rc;
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
    TERN_REQUIRE_INIT("MPI_Get_count");
    tern_lock();
    int rc = get_count("MPI_Get_count", status, datatype, count);
    tern_unlock();
    return rc;
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
    TERN_REQUIRE_INIT("MPI_Get_elements");
    tern_lock();
    int rc = get_elements("MPI_Get_elements", status, datatype, NULL, count);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Get_elements_x)
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    TERN_REQUIRE_INIT("MPI_Get_elements_x");
    tern_lock();
    int rc = get_elements("MPI_Get_elements_x", status, datatype, count, NULL);
    tern_unlock();
    return rc;
}
