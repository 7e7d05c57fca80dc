/* Views: disp, etype, filetype and data representation, and the mapping
 * from a position in the view's data stream to pieces of the file.  The
 * filetype's compiled layout (datatype/) gives the pieces: a view of the
 * filetype whose base is the tile's byte offset in the file turns a range
 * of the stream into (offset, length) pairs the way it turns a buffer's
 * range into iovecs.  The stream, the pieces and the positions are those
 * of the file's representation: the filetype and etype as laid out there
 * (io/file_convert.c), the user's own for "native". */
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
    const struct tern_datatype *ft = f->file_filetype;
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
    if (tern_file_view_pieces(f, (size_t)off * f->file_etype->size, 1, &p, 1, &got) == 0)
        return f->disp;
    return p.off;
}

int tern_file_end_position(const char *fn, struct tern_file *f, MPI_Offset *pos)
{
    MPI_Offset size;
    int rc = tern_file_get_size(fn, f, &size);
    if (rc) return rc;
    const struct tern_datatype *ft = f->file_filetype;
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
    *pos = data / (MPI_Offset)f->file_etype->size;
    return MPI_SUCCESS;
}

const char *tern_file_datarep_name(const struct tern_file *f)
{
    return f->datarep_name[0] ? f->datarep_name : "native";
}

int tern_file_type_extent(const char *fn, struct tern_file *f, struct tern_datatype *dt,
                          MPI_Aint *extent)
{
    struct tern_datatype *t;
    int rc = tern_file_rep_type(fn, f->path, f->datarep, f->urep, dt, &t);
    if (rc) return tern_io_raise(f, rc);
    *extent = t->extent;
    tern_dt_release(t);
    return MPI_SUCCESS;
}

/* The rule of MPI-4.1 14.3 for etypes and filetypes: displacements in
 * typemap order are not negative and never decrease, and in a file open
 * for writing no two bytes overlap.  Returns what breaks it, or NULL.  The
 * walk follows the type's layout (datatype.h): the blocks of one unit, then
 * each level of repetition around them, innermost first. */
static const char *typemap_breaks(const struct tern_datatype *dt, int writable)
{
    struct tern_dt_view v;
    tern_dt_view_local(&v, dt, NULL, 1);
    const char *why = NULL;
    if (v.nblocks == 0) return NULL;
    MPI_Aint first = v.blocks[0].disp, last = first, end = first + (MPI_Aint)v.blocks[0].len;
    for (size_t i = 1; i < v.nblocks && !why; i++) {
        const struct tern_dt_block *b = &v.blocks[i];
        if (b->disp < last)
            why = "displacements that decrease";
        else if (writable && b->disp < end)
            why = "bytes that overlap";
        last = b->disp;
        if (b->disp + (MPI_Aint)b->len > end) end = b->disp + (MPI_Aint)b->len;
    }
    for (int l = 0; l < v.nlevels && !why; l++) {
        if (v.level[l].count < 2) continue;
        MPI_Aint s = v.level[l].stride, n = (MPI_Aint)v.level[l].count - 1;
        if (first + s < last)
            why = "displacements that decrease";
        else if (writable && first + s < end)
            why = "bytes that overlap";
        last += n * s;
        end += n * s;
    }
    if (!why && first < 0) why = "a negative displacement";
    return why;
}

/* etype and filetype in the file (et, ft) as a view needs them. */
static int check_view_types(const char *fn, struct tern_file *f, const char *datarep,
                            const struct tern_datatype *et, const struct tern_datatype *ft)
{
    int writable = !(f->amode & MPI_MODE_RDONLY);
    const struct tern_datatype *types[2] = {et, ft};
    static const char *const names[2] = {"etype", "filetype"};
    for (int i = 0; i < 2; i++) {
        const char *why = typemap_breaks(types[i], writable);
        /* MPI_ERR_IO, the class ROMIO gives, so that programs checking it
         * as they do with MPICH see the same. */
        if (why)
            return tern_io_err(f, MPI_ERR_IO,
                               "%s: %s has %s (its displacements in typemap order must not be "
                               "negative or decrease%s: MPI-4.1 14.3)",
                               fn, names[i], why,
                               writable ? ", nor its bytes overlap in a writable file" : "");
    }
    if (et->size == 0)
        return tern_io_err(f, MPI_ERR_ARG, "%s: etype holds no data (size 0 in datarep '%s')", fn,
                           datarep);
    if (ft->size % et->size != 0)
        return tern_io_err(f, MPI_ERR_ARG,
                           "%s: filetype (size %zu) is not made of etypes (size %zu) in datarep "
                           "'%s'",
                           fn, ft->size, et->size, datarep);
    if (ft->size > 0 && ft->extent <= 0)
        return tern_io_err(f, MPI_ERR_ARG,
                           "%s: filetype has extent %ld in datarep '%s', so it cannot tile the "
                           "file",
                           fn, (long)ft->extent, datarep);
    return MPI_SUCCESS;
}

int tern_file_set_view(const char *fn, struct tern_file *f, MPI_Offset disp,
                       struct tern_datatype *etype, struct tern_datatype *filetype,
                       const char *datarep, struct tern_info *info)
{
    enum tern_io_datarep rep = TERN_DATAREP_NATIVE;
    const struct tern_datarep *urep = NULL;
    if (strcmp(datarep, "internal") == 0)
        rep = TERN_DATAREP_INTERNAL;
    else if (strcmp(datarep, "external32") == 0)
        rep = TERN_DATAREP_EXTERNAL32;
    else if ((urep = tern_datarep_find(datarep)))
        rep = TERN_DATAREP_USER;
    else if (strcmp(datarep, "native") != 0)
        return tern_io_err(f, MPI_ERR_UNSUPPORTED_DATAREP,
                           "%s: datarep='%s' is not \"native\", \"internal\", \"external32\" or "
                           "a representation registered with MPI_Register_datarep (file '%s')",
                           fn, datarep, f->path);
    struct tern_datatype *fet = NULL, *fft = NULL;
    int rc = tern_file_rep_type(fn, f->path, rep, urep, etype, &fet);
    if (!rc && (rc = tern_file_rep_type(fn, f->path, rep, urep, filetype, &fft))) {
        tern_dt_release(fet);
        fet = NULL;
    }
    if (rc) return tern_io_raise(f, rc);
    rc = check_view_types(fn, f, datarep, fet, fft);
    if (!rc && disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(f->amode & MPI_MODE_SEQUENTIAL))
            rc = tern_io_err(f, MPI_ERR_ARG,
                             "%s: MPI_DISPLACEMENT_CURRENT needs a file opened with "
                             "MPI_MODE_SEQUENTIAL",
                             fn);
        else {
            MPI_Offset cur = 0;
            rc = tern_file_shared_get(fn, f, &cur);
            disp = tern_file_byte_offset(f, cur);
        }
    } else if (!rc && disp < 0) {
        rc = tern_io_err(f, MPI_ERR_ARG, "%s: disp=%lld is negative", fn, (long long)disp);
    }
    if (!rc && tern_file_hints_set(f, info))
        rc = tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot keep the hints", fn);
    /* Nobody may still be using the old view's shared pointer. */
    if (!rc && (rc = tern_coll_barrier(f->comm))) rc = tern_io_raise(f, rc);
    if (rc) {
        tern_dt_release(fet);
        tern_dt_release(fft);
        return rc;
    }
    tern_dt_retain(etype);
    tern_dt_retain(filetype);
    tern_dt_release(f->etype);
    tern_dt_release(f->filetype);
    tern_dt_release(f->file_etype);
    tern_dt_release(f->file_filetype);
    f->etype = etype;
    f->filetype = filetype;
    f->file_etype = fet;
    f->file_filetype = fft;
    f->disp = disp;
    f->datarep = rep;
    f->urep = urep;
    snprintf(f->datarep_name, sizeof f->datarep_name, "%s", datarep);
    f->pos = 0;
    int src = tern_file_shared_reset(fn, f, 0);
    rc = tern_coll_barrier(f->comm);
    return src ? src : rc ? tern_io_raise(f, rc) : MPI_SUCCESS;
}
