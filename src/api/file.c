/* MPI-IO entry points that manage files (MPI-4.1 14.2, 14.3, 14.6): open,
 * close, delete, size, hints, views, atomicity, sync, the file pointers'
 * positions and the Fortran handle conversions.  Errors go to the file's
 * handler, or MPI_FILE_NULL's for the calls that have no file yet. */
#include <string.h>

#include "api/check.h"
#include "api/file_check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/objects.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "io/io.h"

int tern_file_check(MPI_File fh, const char *fn, struct tern_file **f)
{
    *f = tern_file_get(fh);
    if (*f) return MPI_SUCCESS;
    if (fh == MPI_FILE_NULL) return tern_io_err(NULL, MPI_ERR_FILE, "%s: fh is MPI_FILE_NULL", fn);
    return tern_io_err(NULL, MPI_ERR_FILE, "%s: fh=%p is not an open file", fn, (void *)fh);
}

static int null_arg(struct tern_file *f, const char *fn, const char *arg)
{
    return tern_io_err(f, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

/* An info argument: MPI_INFO_NULL (*out = NULL) or a live info. */
static int file_info(struct tern_file *f, MPI_Info h, const char *fn, struct tern_info **out)
{
    *out = NULL;
    if (h == MPI_INFO_NULL) return MPI_SUCCESS;
    if ((*out = tern_info_get(h))) return MPI_SUCCESS;
    return tern_io_err(f, MPI_ERR_INFO, "%s: info=0x%x is not an info object", fn, (unsigned)h);
}

TERN_WEAK_ALIAS(MPI_File_open)
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    static const char fn[] = "MPI_File_open";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc;
    struct tern_info *in = NULL;
    struct tern_file *f = NULL;
    struct tern_comm *c = comm == MPI_COMM_NULL ? NULL : tern_comm_get(comm);
    if (!c)
        rc = tern_io_err(NULL, MPI_ERR_COMM, "%s: comm=0x%x is not a communicator", fn,
                         (unsigned)comm);
    else if (c->is_inter)
        rc = tern_io_err(NULL, MPI_ERR_COMM, "%s: comm is an intercommunicator", fn);
    else if (!filename)
        rc = null_arg(NULL, fn, "filename");
    else if (!*filename)
        rc = tern_io_err(NULL, MPI_ERR_BAD_FILE, "%s: filename is empty", fn);
    else if (!fh)
        rc = null_arg(NULL, fn, "fh");
    else if (!(rc = file_info(NULL, info, fn, &in)))
        rc = tern_file_open(fn, c, filename, amode, in, &f);
    if (!rc) *fh = tern_file_handle(f);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_close)
int PMPI_File_close(MPI_File *fh)
{
    static const char fn[] = "MPI_File_close";
    TERN_REQUIRE_INIT(fn);
    if (!fh) return tern_io_err(NULL, MPI_ERR_ARG, "%s: fh is NULL", fn);
    tern_lock();
    struct tern_file *f;
    int rc = tern_file_check(*fh, fn, &f);
    if (!rc && f->split_active)
        rc = tern_io_err(f, MPI_ERR_REQUEST, "%s: a split collective is still in progress", fn);
    if (!rc) {
        rc = tern_file_close(fn, f);
        *fh = MPI_FILE_NULL;
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_delete)
int PMPI_File_delete(const char *filename, MPI_Info info)
{
    static const char fn[] = "MPI_File_delete";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_info *in;
    int rc;
    if (!filename)
        rc = null_arg(NULL, fn, "filename");
    else if (!*filename)
        rc = tern_io_err(NULL, MPI_ERR_BAD_FILE, "%s: filename is empty", fn);
    else
        rc = file_info(NULL, info, fn, &in);
    if (!rc) rc = tern_file_delete(fn, filename);
    tern_unlock();
    return rc;
}

/* The entry of a call on an open file: init, lock, the file. */
#define FILE_ENTER(name)                  \
    static const char fn[] = name;        \
    TERN_REQUIRE_INIT(fn);                \
    tern_lock();                          \
    struct tern_file *f;                  \
    int rc = tern_file_check(fh, fn, &f); \
    if (rc) goto out

/* Its exit, where FILE_ENTER's errors go. */
#define FILE_LEAVE \
    out:           \
    tern_unlock(); \
    return rc

/* MPI_File_set_size and MPI_File_preallocate: a size that must not be
 * negative, then the io layer's call. */
static int sized(const char *fn, MPI_File fh, MPI_Offset size,
                 int (*op)(const char *, struct tern_file *, MPI_Offset))
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_file *f;
    int rc = tern_file_check(fh, fn, &f);
    if (!rc && size < 0)
        rc = tern_io_err(f, MPI_ERR_ARG, "%s: size=%lld is negative", fn, (long long)size);
    else if (!rc)
        rc = op(fn, f, size);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_set_size)
int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    return sized("MPI_File_set_size", fh, size, tern_file_set_size);
}

TERN_WEAK_ALIAS(MPI_File_preallocate)
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    return sized("MPI_File_preallocate", fh, size, tern_file_preallocate);
}

TERN_WEAK_ALIAS(MPI_File_get_size)
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    FILE_ENTER("MPI_File_get_size");
    rc = size ? tern_file_get_size(fn, f, size) : null_arg(f, fn, "size");
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_get_amode)
int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    FILE_ENTER("MPI_File_get_amode");
    if (!amode)
        rc = null_arg(f, fn, "amode");
    else
        *amode = f->amode;
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_get_group)
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    FILE_ENTER("MPI_File_get_group");
    if (!group) {
        rc = null_arg(f, fn, "group");
        goto out;
    }
    tern_group_retain(f->comm->group);
    if (tern_group_publish(f->comm->group, group))
        rc = tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot allocate a group handle", fn);
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_set_info)
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    FILE_ENTER("MPI_File_set_info");
    struct tern_info *in;
    if (!(rc = file_info(f, info, fn, &in)) && tern_file_hints_set(f, in))
        rc = tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot keep the hints", fn);
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_get_info)
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    FILE_ENTER("MPI_File_get_info");
    if (!info_used) {
        rc = null_arg(f, fn, "info_used");
        goto out;
    }
    struct tern_info *in = tern_file_hints_get(f);
    if (!in || tern_info_publish(in, info_used)) {
        if (in) tern_info_destroy(in);
        rc = tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot allocate an info", fn);
    }
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_set_view)
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    FILE_ENTER("MPI_File_set_view");
    struct tern_datatype *et, *ft;
    struct tern_info *in;
    if ((rc = tern_dt_check(etype, fn, "etype", &et)) ||
        (rc = tern_dt_check(filetype, fn, "filetype", &ft))) {
        rc = tern_io_raise(f, rc);
        goto out;
    }
    if (!datarep) {
        rc = null_arg(f, fn, "datarep");
        goto out;
    }
    if (!(rc = file_info(f, info, fn, &in)))
        rc = tern_file_set_view(fn, f, disp, et, ft, datarep, in);
    FILE_LEAVE;
}

/* The handle of a view's type: a predefined one as it is, a derived one as
 * a copy with a handle of its own, which the user frees (MPI-4.1 14.3). */
static int view_type(struct tern_datatype *dt, MPI_Datatype *out)
{
    struct tern_datatype *copy;
    if (dt->predefined) {
        *out = dt->handle;
        return MPI_SUCCESS;
    }
    int rc = tern_dt_dup(dt, &copy);
    if (rc == MPI_SUCCESS) *out = copy->handle;
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_get_view)
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                       char *datarep)
{
    FILE_ENTER("MPI_File_get_view");
    if (!disp || !etype || !filetype || !datarep) {
        rc = null_arg(f, fn,
                      !disp       ? "disp"
                      : !etype    ? "etype"
                      : !filetype ? "filetype"
                                  : "datarep");
        goto out;
    }
    MPI_Datatype et;
    if ((rc = view_type(f->etype, &et)) || (rc = view_type(f->filetype, filetype))) {
        if (!rc && !f->etype->predefined) tern_dt_free_handle(tern_dt_get(et));
        rc = tern_io_raise(f, rc);
        goto out;
    }
    *disp = f->disp;
    *etype = et;
    strcpy(datarep, tern_file_datarep_name(f));
    FILE_LEAVE;
}

static int type_extent(const char *fn, MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_file *f;
    struct tern_datatype *dt;
    int rc = tern_file_check(fh, fn, &f);
    if (!rc && (rc = tern_dt_check_valid(datatype, fn, "datatype", &dt))) rc = tern_io_raise(f, rc);
    if (!rc && !extent) rc = null_arg(f, fn, "extent");
    if (!rc) rc = tern_file_type_extent(fn, f, dt, extent);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_File_get_type_extent)
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    return type_extent("MPI_File_get_type_extent", fh, datatype, extent);
}

TERN_WEAK_ALIAS(MPI_File_get_type_extent_c)
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    return type_extent("MPI_File_get_type_extent_c", fh, datatype, (MPI_Aint *)extent);
}

TERN_WEAK_ALIAS(MPI_File_set_atomicity)
int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    FILE_ENTER("MPI_File_set_atomicity");
    rc = tern_file_set_atomicity(fn, f, flag);
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_get_atomicity)
int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    FILE_ENTER("MPI_File_get_atomicity");
    if (!flag)
        rc = null_arg(f, fn, "flag");
    else
        *flag = f->atomic;
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_sync)
int PMPI_File_sync(MPI_File fh)
{
    FILE_ENTER("MPI_File_sync");
    if (f->amode & MPI_MODE_RDONLY)
        rc = tern_io_err(f, MPI_ERR_ACCESS, "%s: '%s' was opened MPI_MODE_RDONLY", fn, f->path);
    else
        rc = tern_file_sync(fn, f);
    FILE_LEAVE;
}

/* ---- Positions (MPI-4.1 14.4.3, 14.4.4) ---- */

static int no_pointer_if_sequential(struct tern_file *f, const char *fn)
{
    if (!(f->amode & MPI_MODE_SEQUENTIAL)) return MPI_SUCCESS;
    return tern_io_err(f, MPI_ERR_UNSUPPORTED_OPERATION,
                       "%s: '%s' was opened MPI_MODE_SEQUENTIAL: it has no individual file "
                       "pointer or explicit offsets",
                       fn, f->path);
}

/* The new position for offset from whence, or an error. */
static int seek_target(const char *fn, struct tern_file *f, MPI_Offset cur, MPI_Offset offset,
                       int whence, MPI_Offset *to)
{
    MPI_Offset base;
    int rc = MPI_SUCCESS;
    switch (whence) {
    case MPI_SEEK_SET: base = 0; break;
    case MPI_SEEK_CUR: base = cur; break;
    case MPI_SEEK_END: rc = tern_file_end_position(fn, f, &base); break;
    default:
        return tern_io_err(f, MPI_ERR_ARG,
                           "%s: whence=%d is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END", fn,
                           whence);
    }
    if (rc) return rc;
    if (base + offset < 0)
        return tern_io_err(f, MPI_ERR_ARG, "%s: the position would be negative (%lld)", fn,
                           (long long)(base + offset));
    *to = base + offset;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_File_seek)
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    FILE_ENTER("MPI_File_seek");
    if (!(rc = no_pointer_if_sequential(f, fn)))
        rc = seek_target(fn, f, f->pos, offset, whence, &f->pos);
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_get_position)
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    FILE_ENTER("MPI_File_get_position");
    if (!(rc = no_pointer_if_sequential(f, fn))) {
        if (!offset)
            rc = null_arg(f, fn, "offset");
        else
            *offset = f->pos;
    }
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_get_byte_offset)
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    FILE_ENTER("MPI_File_get_byte_offset");
    if (offset < 0)
        rc = tern_io_err(f, MPI_ERR_ARG, "%s: offset=%lld is negative", fn, (long long)offset);
    else if (!disp)
        rc = null_arg(f, fn, "disp");
    else
        *disp = tern_file_byte_offset(f, offset);
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_seek_shared)
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    FILE_ENTER("MPI_File_seek_shared");
    /* Collective: every rank passes the same arguments; rank 0 moves the
     * pointer once every rank has entered (one still reading it since the
     * last call, with get_position_shared, sees that call's value), and
     * nobody uses it before it has moved. */
    MPI_Offset to = 0, cur = 0;
    if (!(rc = tern_file_shared_get(fn, f, &cur)) &&
        !(rc = seek_target(fn, f, cur, offset, whence, &to)) && !(rc = tern_file_barrier(f))) {
        if (f->comm->rank == 0) rc = tern_file_shared_set(fn, f, to);
        int brc = tern_file_barrier(f);
        if (!rc) rc = brc;
    }
    FILE_LEAVE;
}

TERN_WEAK_ALIAS(MPI_File_get_position_shared)
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    FILE_ENTER("MPI_File_get_position_shared");
    if (!offset)
        rc = null_arg(f, fn, "offset");
    else
        rc = tern_file_shared_get(fn, f, offset);
    FILE_LEAVE;
}

/* ---- Data representations (MPI-4.1 14.5.3) ---- */

static int register_datarep(const char *fn, const char *datarep, const struct tern_datarep *proto)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    int rc;
    if (!datarep)
        rc = null_arg(NULL, fn, "datarep");
    else if (!proto->extent)
        rc = null_arg(NULL, fn, "dtype_file_extent_fn");
    else
        rc = tern_datarep_register(fn, datarep, proto);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Register_datarep)
int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    struct tern_datarep d = {.read = read_conversion_fn,
                             .write = write_conversion_fn,
                             .extent = dtype_file_extent_fn,
                             .extra_state = extra_state};
    return register_datarep("MPI_Register_datarep", datarep, &d);
}

TERN_WEAK_ALIAS(MPI_Register_datarep_c)
int PMPI_Register_datarep_c(const char *datarep,
                            MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    struct tern_datarep d = {.read_c = read_conversion_fn,
                             .write_c = write_conversion_fn,
                             .extent = dtype_file_extent_fn,
                             .extra_state = extra_state};
    return register_datarep("MPI_Register_datarep_c", datarep, &d);
}

/* ---- Fortran handles ---- */

TERN_WEAK_ALIAS(MPI_File_c2f)
MPI_Fint PMPI_File_c2f(MPI_File file)
{
    tern_lock();
    MPI_Fint i = tern_file_c2f(file);
    tern_unlock();
    return i;
}

TERN_WEAK_ALIAS(MPI_File_f2c)
MPI_File PMPI_File_f2c(MPI_Fint file)
{
    tern_lock();
    MPI_File h = tern_file_f2c(file);
    tern_unlock();
    return h;
}
