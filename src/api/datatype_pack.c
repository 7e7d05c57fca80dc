/* MPI_Pack, MPI_Unpack, MPI_Pack_size (MPI 4.1 section 5.2) and the
 * element counts of a status (section 3.2.5, 5.1.11).  The entry points
 * are generated (src/api/gen/bindings_datatype_pack.c). */
#include <limits.h>
#include <stdint.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "core/objects.h"
#include "datatype/dt_api.h"
#include "msg/status.h"

const struct tern_packed_args tern_pack_args = {"incount", "outbuf", "outsize"};
const struct tern_packed_args tern_unpack_args = {"outcount", "inbuf", "insize"};

int tern_check_packed(struct tern_comm *c, const char *fn, const struct tern_packed_args *a,
                      MPI_Count count, const struct tern_datatype *dt, size_t elem_bytes,
                      const void *buf, MPI_Count size, MPI_Count position, size_t *bytes)
{
    if (position < 0 || position > size)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: *position=%ld is outside %s (%s=%ld)", fn,
                             (long)position, a->buf, a->size, (long)size);
    if (__builtin_mul_overflow((size_t)count, elem_bytes, bytes) ||
        *bytes > (size_t)(size - position)) {
        char lbl[MPI_MAX_OBJECT_NAME + 24];
        return tern_err_comm(c, MPI_ERR_TRUNCATE,
                             "%s: %s=%ld x %s needs %zu bytes, %s has %ld left (%s=%ld, "
                             "*position=%ld)",
                             fn, a->count, (long)count, tern_dt_label(dt, lbl, sizeof lbl), *bytes,
                             a->buf, (long)(size - position), a->size, (long)size, (long)position);
    }
    if (*bytes && !buf) return tern_err_comm(c, MPI_ERR_BUFFER, "%s: %s is NULL", fn, a->buf);
    return MPI_SUCCESS;
}

/* One body for MPI_Pack and MPI_Pack_c: the int form's int *position is
 * read and written by pack_i around it. */
static int pack(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = tern_comm_check(comm, fn, "comm", &c)) ||
        (rc = tern_arg_nonneg(incount, MPI_ERR_COUNT, fn, "incount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_check_buffer(c, inbuf, (long)incount, dt, fn, "inbuf")) ||
        (rc = tern_arg_nonneg(outsize, MPI_ERR_ARG, fn, "outsize")) ||
        (rc = tern_arg_ptr(position, fn, "position")))
        return rc;
    size_t bytes;
    if ((rc = tern_check_packed(c, fn, &tern_pack_args, incount, dt, dt->size, outbuf, outsize,
                                *position, &bytes)))
        return rc;
    tern_dt_pack(dt, inbuf, (size_t)incount, 0, (char *)outbuf + *position, bytes);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

static int pack_i(const char *fn, const void *inbuf, int incount, MPI_Datatype datatype,
                  void *outbuf, int outsize, int *position, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack(fn, inbuf, incount, datatype, outbuf, outsize, position ? &pos : NULL, comm);
    if (rc == MPI_SUCCESS) *position = (int)pos;
    return rc;
}

int tern_api_pack(const char *fn, const void *inbuf, int incount, MPI_Datatype datatype,
                  void *outbuf, int outsize, int *position, MPI_Comm comm)
{
    return pack_i(fn, inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int tern_api_pack_c(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                    void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    return pack(fn, inbuf, incount, datatype, outbuf, outsize, position, comm);
}

static int unpack(const char *fn, const void *inbuf, MPI_Count insize, MPI_Count *position,
                  void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = tern_comm_check(comm, fn, "comm", &c)) ||
        (rc = tern_arg_nonneg(insize, MPI_ERR_ARG, fn, "insize")) ||
        (rc = tern_arg_ptr(position, fn, "position")) ||
        (rc = tern_arg_nonneg(outcount, MPI_ERR_COUNT, fn, "outcount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_check_buffer(c, outbuf, (long)outcount, dt, fn, "outbuf")))
        return rc;
    size_t bytes;
    if ((rc = tern_check_packed(c, fn, &tern_unpack_args, outcount, dt, dt->size, inbuf, insize,
                                *position, &bytes)))
        return rc;
    tern_dt_unpack(dt, outbuf, (size_t)outcount, 0, (const char *)inbuf + *position, bytes);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

static int unpack_i(const char *fn, const void *inbuf, int insize, int *position, void *outbuf,
                    int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = unpack(fn, inbuf, insize, position ? &pos : NULL, outbuf, outcount, datatype, comm);
    if (rc == MPI_SUCCESS) *position = (int)pos;
    return rc;
}

int tern_api_unpack(const char *fn, const void *inbuf, int insize, int *position, void *outbuf,
                    int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    return unpack_i(fn, inbuf, insize, position, outbuf, outcount, datatype, comm);
}

int tern_api_unpack_c(const char *fn, const void *inbuf, MPI_Count insize, MPI_Count *position,
                      void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    return unpack(fn, inbuf, insize, position, outbuf, outcount, datatype, comm);
}

/* MPI_Pack_size and MPI_Pack_size_c: the packed form has no header, so
 * the bound is exact.  isize: the int form's result. */
static int pack_size(const char *fn, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                     MPI_Count *size, int *isize)
{
    struct tern_datatype *dt;
    struct tern_comm *c;
    int rc;
    if ((rc = tern_comm_check(comm, fn, "comm", &c)) ||
        (rc = tern_arg_nonneg(incount, MPI_ERR_COUNT, fn, "incount")) ||
        (rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(size ? (const void *)size : (const void *)isize, fn, "size")))
        return rc;
    size_t bytes;
    if (__builtin_mul_overflow((size_t)incount, dt->size, &bytes) ||
        bytes > (size_t)(isize ? INT_MAX : LONG_MAX))
        return tern_err_comm(c, MPI_ERR_ARG,
                             "%s: incount=%ld elements take more bytes than the size "
                             "argument holds%s",
                             fn, (long)incount, isize ? " (use MPI_Pack_size_c)" : "");
    if (isize)
        *isize = (int)bytes;
    else
        *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int tern_api_pack_size(const char *fn, int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    return pack_size(fn, incount, datatype, comm, NULL, size);
}

int tern_api_pack_size_c(const char *fn, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                         MPI_Count *size)
{
    return pack_size(fn, incount, datatype, comm, size, NULL);
}

/* ---- counts from a status ---- */

static int status_arg(const MPI_Status *status, const char *fn)
{
    if (status == MPI_STATUS_IGNORE)
        return tern_err_comm(NULL, MPI_ERR_ARG, "%s: status is MPI_STATUS_IGNORE", fn);
    return tern_arg_ptr(status, fn, "status");
}

/* xcount: the large-count form's result, count the int form's. */
static int get_count(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                     MPI_Count *xcount, int *count)
{
    struct tern_datatype *dt;
    int rc;
    if ((rc = status_arg(status, fn)) || (rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(xcount ? (const void *)xcount : (const void *)count, fn, "count")))
        return rc;
    size_t bytes = tern_status_get_bytes(status), limit = xcount ? LONG_MAX : INT_MAX;
    MPI_Count n;
    if (dt->size == 0)
        n = 0;
    else if (bytes % dt->size || bytes / dt->size > limit)
        n = MPI_UNDEFINED;
    else
        n = (MPI_Count)(bytes / dt->size);
    if (xcount)
        *xcount = n;
    else
        *count = (int)n;
    return MPI_SUCCESS;
}

int tern_api_get_count(const char *fn, const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    return get_count(fn, status, datatype, NULL, count);
}

int tern_api_get_count_c(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                         MPI_Count *count)
{
    return get_count(fn, status, datatype, count, NULL);
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

int tern_api_get_elements(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                          int *count)
{
    return get_elements(fn, status, datatype, NULL, count);
}

int tern_api_get_elements_x(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                            MPI_Count *count)
{
    return get_elements(fn, status, datatype, count, NULL);
}

int tern_api_get_elements_c(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                            MPI_Count *count)
{
    return get_elements(fn, status, datatype, count, NULL);
}
