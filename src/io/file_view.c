/* Views: disp, etype, filetype and data representation, and the mapping
 * from a position in the view's data stream to pieces of the file.  The
 * filetype's compiled layout (datatype/) gives the pieces: a view of the
 * filetype whose base is the tile's byte offset in the file turns a range
 * of the stream into (offset, length) pairs the way it turns a buffer's
 * range into iovecs. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

#include "coll/coll.h"
#include "core/objects.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "io/io_coll.h"

#define PIECES_MAX 64

size_t tern_file_view_pieces(const struct tern_file *f, size_t from, size_t len,
                             struct tern_io_piece *out, size_t max, size_t *got)
{
    const struct tern_datatype *ft = f->filetype;
    *got = 0;
    if (len == 0 || ft->size == 0) return 0;
    if (max > PIECES_MAX) max = PIECES_MAX;
    size_t tile = from / ft->size, in = from % ft->size;
    size_t ntiles = (in + len + ft->size - 1) / ft->size;
    struct tern_dt_view v;
    MPI_Offset base = f->disp + (MPI_Offset)tile * ft->extent;
    tern_dt_view_local(&v, ft, (const void *)(uintptr_t)base, ntiles);
    struct iovec iov[PIECES_MAX];
    size_t n = tern_dt_view_iov(&v, in, len, iov, max, got);
    for (size_t i = 0; i < n; i++)
        out[i] = (struct tern_io_piece){(MPI_Offset)(uintptr_t)iov[i].iov_base, iov[i].iov_len};
    tern_dt_view_free(&v);
    return n;
}

MPI_Offset tern_file_byte_offset(const struct tern_file *f, MPI_Offset off)
{
    struct tern_io_piece p;
    size_t got;
    if (tern_file_view_pieces(f, (size_t)off * f->etype->size, 1, &p, 1, &got) == 0) return f->disp;
    return p.off;
}

int tern_file_end_position(const char *fn, struct tern_file *f, MPI_Offset *pos)
{
    MPI_Offset size;
    int rc = tern_file_get_size(fn, f, &size);
    if (rc) return rc;
    const struct tern_datatype *ft = f->filetype;
    *pos = 0;
    if (size <= f->disp || ft->size == 0 || ft->extent <= 0) return MPI_SUCCESS;
    /* Whole tiles before the end, then the data of the last tile that lies
     * before it. */
    MPI_Offset tiles = (size - f->disp) / ft->extent;
    MPI_Offset data = tiles * (MPI_Offset)ft->size;
    MPI_Offset end = size;
    size_t from = (size_t)data, left = ft->size;
    while (left > 0) {
        struct tern_io_piece p[PIECES_MAX];
        size_t got, n = tern_file_view_pieces(f, from, left, p, PIECES_MAX, &got);
        if (n == 0) break;
        for (size_t i = 0; i < n; i++)
            if (p[i].off < end)
                data +=
                    p[i].off + (MPI_Offset)p[i].len <= end ? (MPI_Offset)p[i].len : end - p[i].off;
        from += got;
        left -= got;
    }
    *pos = data / (MPI_Offset)f->etype->size;
    return MPI_SUCCESS;
}

const char *tern_file_datarep_name(const struct tern_file *f)
{
    return f->datarep_name[0] ? f->datarep_name : "native";
}

MPI_Aint tern_file_type_extent(const struct tern_file *f, const struct tern_datatype *dt)
{
    (void)f; /* native and internal store the memory layout */
    return dt->extent;
}

int tern_file_set_view(const char *fn, struct tern_file *f, MPI_Offset disp,
                       struct tern_datatype *etype, struct tern_datatype *filetype,
                       const char *datarep, struct tern_info *info)
{
    enum tern_io_datarep rep = TERN_DATAREP_NATIVE;
    int user = tern_datarep_lookup(datarep);
    if (strcmp(datarep, "internal") == 0)
        rep = TERN_DATAREP_INTERNAL;
    else if (user > 0)
        return tern_io_err(f, MPI_ERR_UNSUPPORTED_DATAREP,
                           "%s: datarep='%s' has conversion functions, which Tern does not call "
                           "yet",
                           fn, datarep);
    else if (strcmp(datarep, "native") != 0 && user < 0)
        return tern_io_err(f, MPI_ERR_UNSUPPORTED_DATAREP,
                           "%s: datarep='%s' is not supported (Tern knows \"native\", "
                           "\"internal\" and those registered without conversion functions; "
                           "\"external32\" is not implemented yet)",
                           fn, datarep);
    if (etype->size == 0)
        return tern_io_err(f, MPI_ERR_ARG, "%s: etype holds no data (size 0)", fn);
    if (filetype->size % etype->size != 0)
        return tern_io_err(f, MPI_ERR_ARG,
                           "%s: filetype (size %zu) is not made of etypes (size %zu)", fn,
                           filetype->size, etype->size);
    if (filetype->size > 0 && filetype->extent <= 0)
        return tern_io_err(f, MPI_ERR_ARG,
                           "%s: filetype has extent %ld, so it cannot tile the file", fn,
                           (long)filetype->extent);
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(f->amode & MPI_MODE_SEQUENTIAL))
            return tern_io_err(f, MPI_ERR_ARG,
                               "%s: MPI_DISPLACEMENT_CURRENT needs a file opened with "
                               "MPI_MODE_SEQUENTIAL",
                               fn);
        disp = tern_file_byte_offset(f, tern_file_shared_get(f));
    } else if (disp < 0) {
        return tern_io_err(f, MPI_ERR_ARG, "%s: disp=%lld is negative", fn, (long long)disp);
    }
    if (tern_file_hints_set(f, info))
        return tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot keep the hints", fn);
    /* Nobody may still be using the old view's shared pointer. */
    int rc = tern_coll_barrier(f->comm);
    if (rc) return tern_io_raise(f, rc);
    tern_dt_retain(etype);
    tern_dt_retain(filetype);
    tern_dt_release(f->etype);
    tern_dt_release(f->filetype);
    f->etype = etype;
    f->filetype = filetype;
    f->disp = disp;
    f->datarep = rep;
    snprintf(f->datarep_name, sizeof f->datarep_name, "%s", datarep);
    f->pos = 0;
    if (f->comm->rank == 0) tern_file_shared_set(f, 0);
    rc = tern_coll_barrier(f->comm);
    return rc ? tern_io_raise(f, rc) : MPI_SUCCESS;
}
