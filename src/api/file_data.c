/* MPI-IO data access entry points (MPI-4.1 14.4): reads and writes at
 * explicit offsets, through the individual and the shared file pointer, in
 * rank order, each blocking, nonblocking and (the collective ones) split.
 * Every one is a row for file_access(), which checks the arguments and
 * moves the data with io/.  An independent nonblocking access goes to the
 * I/O thread; a collective one is done when it starts, its request complete
 * already (docs/architecture.md, "The path of a file access"). */
#include "api/file_check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "msg/request.h"
#include "msg/status.h"

enum pointer { AT, INDIV, SHARED, ORDERED };
enum form { BLOCKING, NONBLOCKING, BEGIN };

struct access {
    const char *fn;
    enum tern_io_dir dir;
    enum pointer ptr;
    int coll;
    enum form form;
};

/* Which split collective a _begin started, so that only its _end ends it. */
static int split_id(enum tern_io_dir dir, enum pointer ptr) { return 1 + (int)dir * 4 + (int)ptr; }

static int null_arg(struct tern_file *f, const char *fn, const char *arg)
{
    return tern_io_err(f, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

static int check_args(const struct access *a, struct tern_file *f, MPI_Offset offset,
                      const void *buf, MPI_Count count, MPI_Datatype datatype,
                      const MPI_Status *status, const MPI_Request *request,
                      struct tern_datatype **dt)
{
    const char *fn = a->fn;
    int rc;
    if (a->form == BLOCKING && !status) return null_arg(f, fn, "status");
    if (a->form == NONBLOCKING && !request) return null_arg(f, fn, "request");
    if (count < 0)
        return tern_io_err(f, MPI_ERR_COUNT, "%s: count=%lld is negative", fn, (long long)count);
    if ((rc = tern_dt_check(datatype, fn, "datatype", dt))) return tern_io_raise(f, rc);
    if (!buf && count > 0 && (*dt)->size > 0 && (*dt)->predefined)
        return tern_io_err(f, MPI_ERR_BUFFER, "%s: buf is NULL with count=%lld", fn,
                           (long long)count);
    if ((a->ptr == AT || a->ptr == INDIV) && (f->amode & MPI_MODE_SEQUENTIAL))
        return tern_io_err(f, MPI_ERR_UNSUPPORTED_OPERATION,
                           "%s: '%s' was opened MPI_MODE_SEQUENTIAL: only the shared file "
                           "pointer may be used",
                           fn, f->path);
    if (a->ptr == AT && offset < 0)
        return tern_io_err(f, MPI_ERR_ARG, "%s: offset=%lld is negative", fn, (long long)offset);
    if ((size_t)count * (*dt)->size % f->etype->size != 0)
        return tern_io_err(f, MPI_ERR_TYPE,
                           "%s: %lld elements of the datatype (%zu bytes each) are not a whole "
                           "number of etypes (%zu bytes)",
                           fn, (long long)count, (*dt)->size, f->etype->size);
    if (a->form == BEGIN && f->split_active)
        return tern_io_err(f, MPI_ERR_REQUEST,
                           "%s: a split collective is already in progress on this file", fn);
    return MPI_SUCCESS;
}

static int move(const struct access *a, struct tern_file *f, MPI_Offset offset, void *buf,
                size_t count, struct tern_datatype *dt, size_t *bytes)
{
    size_t esize = f->etype->size;
    int (*xfer)(const char *, struct tern_file *, enum tern_io_dir, MPI_Offset, void *, size_t,
                struct tern_datatype *, size_t *) = a->coll ? tern_file_xfer_all : tern_file_xfer;
    int rc;
    switch (a->ptr) {
    case AT: return xfer(a->fn, f, a->dir, offset, buf, count, dt, bytes);
    case INDIV:
        rc = xfer(a->fn, f, a->dir, f->pos, buf, count, dt, bytes);
        f->pos += (MPI_Offset)(*bytes / esize);
        return rc;
    case SHARED: {
        MPI_Offset at;
        if ((rc =
                 tern_file_shared_fetch_add(a->fn, f, (MPI_Offset)(count * dt->size / esize), &at)))
            return rc;
        return xfer(a->fn, f, a->dir, at, buf, count, dt, bytes);
    }
    default: return tern_file_xfer_ordered(a->fn, f, a->dir, buf, count, dt, bytes);
    }
}

/* An independent nonblocking access goes to the I/O thread; its file
 * pointer moves now, past all the data it asked for (MPI-4.1 14.4.3). */
static int start_independent(const struct access *a, struct tern_file *f, MPI_Offset offset,
                             void *buf, size_t count, struct tern_datatype *dt,
                             MPI_Request *request)
{
    MPI_Offset n = (MPI_Offset)(count * dt->size / f->etype->size), at = offset;
    if (a->ptr == INDIV) at = f->pos;
    struct tern_request *r;
    int rc;
    if (a->ptr == SHARED && (rc = tern_file_shared_fetch_add(a->fn, f, n, &at))) return rc;
    rc = tern_file_async_start(a->fn, f, a->dir, at, buf, count, dt, &r);
    if (rc) return rc;
    if (a->ptr == INDIV) f->pos += n;
    *request = r->handle;
    return MPI_SUCCESS;
}

static int file_access(const struct access *a, MPI_File fh, MPI_Offset offset, const void *cbuf,
                       MPI_Count count, MPI_Datatype datatype, MPI_Status *status,
                       MPI_Request *request)
{
    TERN_REQUIRE_INIT(a->fn);
    tern_lock();
    struct tern_file *f;
    struct tern_datatype *dt;
    void *buf = (void *)cbuf; /* a write's buffer is only read */
    size_t bytes = 0;
    int rc = tern_file_check(fh, a->fn, &f);
    if (!rc) rc = check_args(a, f, offset, buf, count, datatype, status, request, &dt);
    if (!rc && a->form == NONBLOCKING && !a->coll) {
        rc = start_independent(a, f, offset, buf, (size_t)count, dt, request);
        goto out;
    }
    if (!rc) rc = move(a, f, offset, buf, (size_t)count, dt, &bytes);
    if (rc) goto out;
    MPI_Status st;
    tern_status_empty_out(&st, MPI_ANY_SOURCE);
    tern_status_set_bytes(&st, bytes);
    if (a->form == NONBLOCKING) {
        struct tern_request *r = tern_req_alloc(TERN_REQ_IO);
        if (!r) {
            rc = tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot allocate a request", a->fn);
            goto out;
        }
        r->status = st;
        r->status.MPI_ERROR = MPI_SUCCESS;
        tern_req_complete(r);
        *request = r->handle;
    } else if (a->form == BEGIN) {
        f->split_active = split_id(a->dir, a->ptr);
        f->split_status = st;
    } else if (status != MPI_STATUS_IGNORE) {
        st.MPI_ERROR = status->MPI_ERROR; /* a single completion leaves it alone */
        *status = st;
    }
out:
    tern_unlock();
    return rc;
}

static int split_end(const char *fn, MPI_File fh, enum tern_io_dir dir, enum pointer ptr,
                     MPI_Status *status)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_file *f;
    int rc = tern_file_check(fh, fn, &f);
    if (rc) goto out;
    if (!status) {
        rc = null_arg(f, fn, "status");
    } else if (f->split_active != split_id(dir, ptr)) {
        rc = tern_io_err(f, MPI_ERR_REQUEST, "%s: no matching _begin call is in progress", fn);
    } else {
        f->split_active = 0;
        if (status != MPI_STATUS_IGNORE) {
            f->split_status.MPI_ERROR = status->MPI_ERROR;
            *status = f->split_status;
        }
    }
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_read_at)
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                      MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_at", TERN_IO_READ, AT, 0, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_at_c)
int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_at_c", TERN_IO_READ, AT, 0, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iread_at)
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                       MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_at", TERN_IO_READ, AT, 0, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iread_at_c)
int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_at_c", TERN_IO_READ, AT, 0, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_read_at_all)
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_at_all", TERN_IO_READ, AT, 1, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_at_all_c)
int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_at_all_c", TERN_IO_READ, AT, 1, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iread_at_all)
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                           MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_at_all", TERN_IO_READ, AT, 1, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iread_at_all_c)
int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_at_all_c", TERN_IO_READ, AT, 1, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_read_at_all_begin)
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_read_at_all_begin", TERN_IO_READ, AT, 1, BEGIN};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_at_all_begin_c)
int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                  MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_read_at_all_begin_c", TERN_IO_READ, AT, 1, BEGIN};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_at_all_end)
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end("MPI_File_read_at_all_end", fh, TERN_IO_READ, AT, status);
}

TERN_WEAK_ALIAS(MPI_File_read)
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_read", TERN_IO_READ, INDIV, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_c)
int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_c", TERN_IO_READ, INDIV, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iread)
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread", TERN_IO_READ, INDIV, 0, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iread_c)
int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_c", TERN_IO_READ, INDIV, 0, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_read_all)
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_all", TERN_IO_READ, INDIV, 1, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_all_c)
int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_all_c", TERN_IO_READ, INDIV, 1, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iread_all)
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_all", TERN_IO_READ, INDIV, 1, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iread_all_c)
int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_all_c", TERN_IO_READ, INDIV, 1, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_read_all_begin)
int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_read_all_begin", TERN_IO_READ, INDIV, 1, BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_all_begin_c)
int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_read_all_begin_c", TERN_IO_READ, INDIV, 1, BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_all_end)
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end("MPI_File_read_all_end", fh, TERN_IO_READ, INDIV, status);
}

TERN_WEAK_ALIAS(MPI_File_read_shared)
int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_shared", TERN_IO_READ, SHARED, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_shared_c)
int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_shared_c", TERN_IO_READ, SHARED, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iread_shared)
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_shared", TERN_IO_READ, SHARED, 0, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iread_shared_c)
int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request)
{
    static const struct access a = {"MPI_File_iread_shared_c", TERN_IO_READ, SHARED, 0,
                                    NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_read_ordered)
int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_ordered", TERN_IO_READ, ORDERED, 1, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_ordered_c)
int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    static const struct access a = {"MPI_File_read_ordered_c", TERN_IO_READ, ORDERED, 1, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_ordered_begin)
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_read_ordered_begin", TERN_IO_READ, ORDERED, 1, BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_ordered_begin_c)
int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_read_ordered_begin_c", TERN_IO_READ, ORDERED, 1,
                                    BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_read_ordered_end)
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end("MPI_File_read_ordered_end", fh, TERN_IO_READ, ORDERED, status);
}

TERN_WEAK_ALIAS(MPI_File_write_at)
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                       MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_at", TERN_IO_WRITE, AT, 0, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_at_c)
int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_at_c", TERN_IO_WRITE, AT, 0, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_at)
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                        MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_at", TERN_IO_WRITE, AT, 0, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_at_c)
int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_at_c", TERN_IO_WRITE, AT, 0, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_write_at_all)
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_at_all", TERN_IO_WRITE, AT, 1, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_at_all_c)
int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_at_all_c", TERN_IO_WRITE, AT, 1, BLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_at_all)
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_at_all", TERN_IO_WRITE, AT, 1, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_at_all_c)
int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_at_all_c", TERN_IO_WRITE, AT, 1, NONBLOCKING};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_write_at_all_begin)
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                 MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_write_at_all_begin", TERN_IO_WRITE, AT, 1, BEGIN};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_at_all_begin_c)
int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                                   MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_write_at_all_begin_c", TERN_IO_WRITE, AT, 1, BEGIN};
    return file_access(&a, fh, offset, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_at_all_end)
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end("MPI_File_write_at_all_end", fh, TERN_IO_WRITE, AT, status);
}

TERN_WEAK_ALIAS(MPI_File_write)
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                    MPI_Status *status)
{
    static const struct access a = {"MPI_File_write", TERN_IO_WRITE, INDIV, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_c)
int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_c", TERN_IO_WRITE, INDIV, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iwrite)
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                     MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite", TERN_IO_WRITE, INDIV, 0, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_c)
int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_c", TERN_IO_WRITE, INDIV, 0, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_write_all)
int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                        MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_all", TERN_IO_WRITE, INDIV, 1, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_all_c)
int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_all_c", TERN_IO_WRITE, INDIV, 1, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_all)
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_all", TERN_IO_WRITE, INDIV, 1, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_all_c)
int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_all_c", TERN_IO_WRITE, INDIV, 1, NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_write_all_begin)
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_write_all_begin", TERN_IO_WRITE, INDIV, 1, BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_all_begin_c)
int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_write_all_begin_c", TERN_IO_WRITE, INDIV, 1, BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_all_end)
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end("MPI_File_write_all_end", fh, TERN_IO_WRITE, INDIV, status);
}

TERN_WEAK_ALIAS(MPI_File_write_shared)
int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_shared", TERN_IO_WRITE, SHARED, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_shared_c)
int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_shared_c", TERN_IO_WRITE, SHARED, 0, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_shared)
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_shared", TERN_IO_WRITE, SHARED, 0,
                                    NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_iwrite_shared_c)
int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    static const struct access a = {"MPI_File_iwrite_shared_c", TERN_IO_WRITE, SHARED, 0,
                                    NONBLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, request);
}

TERN_WEAK_ALIAS(MPI_File_write_ordered)
int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_ordered", TERN_IO_WRITE, ORDERED, 1, BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_ordered_c)
int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Status *status)
{
    static const struct access a = {"MPI_File_write_ordered_c", TERN_IO_WRITE, ORDERED, 1,
                                    BLOCKING};
    return file_access(&a, fh, 0, buf, count, datatype, status, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_ordered_begin)
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_write_ordered_begin", TERN_IO_WRITE, ORDERED, 1,
                                    BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_ordered_begin_c)
int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                    MPI_Datatype datatype)
{
    static const struct access a = {"MPI_File_write_ordered_begin_c", TERN_IO_WRITE, ORDERED, 1,
                                    BEGIN};
    return file_access(&a, fh, 0, buf, count, datatype, NULL, NULL);
}

TERN_WEAK_ALIAS(MPI_File_write_ordered_end)
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end("MPI_File_write_ordered_end", fh, TERN_IO_WRITE, ORDERED, status);
}
