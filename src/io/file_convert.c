/* Data representations other than "native" (MPI-4.1 14.5.2, 14.5.3): the
 * layout of a view's types in the file, and the conversion of an access's
 * data between memory and the file.
 *
 * A converted access goes through one buffer that holds its data as the
 * file holds it, contiguous: a write converts into it and moves it, a read
 * moves into it and converts out, so the view's pieces, aggregation,
 * sieving and locks see plain bytes.  "external32" converts with the
 * datatype engine's MPI_Pack_external conversion; a registered
 * representation with its own functions, called in chunks of whole
 * elements of the user's type (the "position" argument counting data items
 * converted so far), on the calling thread, never the I/O thread. */
#include <limits.h>
#include <stdlib.h>

#include "core/errors.h"
#include "datatype/datatype.h"
#include "io/io.h"

/* File bytes a user conversion function converts in one call, at most
 * (whole elements of the user's type, so one element may exceed it). */
#define CONV_CHUNK ((size_t)64 << 10)

static const char *rep_name(enum tern_io_datarep rep, const struct tern_datarep *urep)
{
    return rep == TERN_DATAREP_USER ? urep->name : "external32";
}

/* ---- The size of a basic type in the file ---- */

struct basic_ctx {
    const char *fn, *path;
    const struct tern_datarep *urep;
    int err; /* the code made when the extent function failed */
};

static int ext32_basic(const struct tern_datatype *b, size_t *bytes, void *arg)
{
    (void)arg;
    return tern_dt_ext32_size(b, 1, bytes);
}

/* The representation's dtype_file_extent_fn, for one predefined type. */
static int user_basic(const struct tern_datatype *b, size_t *bytes, void *arg)
{
    struct basic_ctx *x = arg;
    MPI_Aint ext = -1;
    char label[64];
    int rc = x->urep->extent(b->handle, &ext, x->urep->extra_state);
    if (rc == MPI_SUCCESS && ext >= 0) {
        *bytes = (size_t)ext;
        return MPI_SUCCESS;
    }
    tern_dt_label(b, label, sizeof label);
    if (rc != MPI_SUCCESS)
        x->err = tern_err_make(MPI_ERR_CONVERSION,
                               "%s: the extent function of datarep '%s' returned error %d for %s "
                               "(file '%s')",
                               x->fn, x->urep->name, rc, label, x->path);
    else
        x->err = tern_err_make(MPI_ERR_CONVERSION,
                               "%s: the extent function of datarep '%s' gave %s the negative "
                               "extent %ld (file '%s')",
                               x->fn, x->urep->name, label, (long)ext, x->path);
    return x->err;
}

static struct tern_dt_rep rep_of(enum tern_io_datarep rep, struct basic_ctx *x)
{
    return (struct tern_dt_rep){rep == TERN_DATAREP_USER ? user_basic : ext32_basic, x};
}

/* A failure of the datatype layer's walk as a code with a message: the
 * extent function's own, or what the walk returned. */
static int walk_error(int rc, const struct basic_ctx *x, enum tern_io_datarep rep,
                      const struct tern_datatype *dt)
{
    char label[64];
    if (x->err) return x->err;
    return tern_err_make(rc == MPI_ERR_NO_MEM ? MPI_ERR_NO_MEM : MPI_ERR_TYPE,
                         "%s: datatype %s cannot be laid out in datarep '%s' (file '%s'): %s",
                         x->fn, tern_dt_label(dt, label, sizeof label), rep_name(rep, x->urep),
                         x->path,
                         rc == MPI_ERR_NO_MEM ? "out of memory"
                         : rc == MPI_ERR_ARG  ? "its size or bounds overflow"
                                              : "it is made by a constructor Tern cannot lay out");
}

int tern_file_rep_type(const char *fn, const char *path, enum tern_io_datarep rep,
                       const struct tern_datarep *urep, struct tern_datatype *dt,
                       struct tern_datatype **out)
{
    if (rep == TERN_DATAREP_NATIVE || rep == TERN_DATAREP_INTERNAL) {
        tern_dt_retain(dt);
        *out = dt;
        return MPI_SUCCESS;
    }
    struct basic_ctx x = {fn, path, urep, 0};
    struct tern_dt_rep r = rep_of(rep, &x);
    int rc = tern_dt_rep_type(dt, &r, out);
    return rc ? walk_error(rc, &x, rep, dt) : MPI_SUCCESS;
}

/* ---- Converting ---- */

/* A user conversion function over elements [0, count) of (buf, dt) and
 * the file's bytes in fbuf, felem bytes an element. */
static int user_convert(const char *fn, const struct tern_file *f, enum tern_io_dir dir, void *buf,
                        size_t count, struct tern_datatype *dt, char *fbuf, size_t felem)
{
    const struct tern_datarep *u = f->urep;
    int rd = dir == TERN_IO_READ;
    MPI_Datarep_conversion_function *cf = rd ? u->read : u->write;
    MPI_Datarep_conversion_function_c *cf_c = rd ? u->read_c : u->write_c;
    char label[64];
    size_t items = 0; /* data items (typemap entries) in one element */
    tern_dt_count_elements(dt, dt->size, &items);
    size_t per = felem ? CONV_CHUNK / felem : count;
    if (per == 0) per = 1;
    if (!cf_c && items > 0 && per > (size_t)INT_MAX / items) per = (size_t)INT_MAX / items;
    if (per == 0)
        return tern_err_make(MPI_ERR_CONVERSION,
                             "%s: one element of %s holds %zu data items, more than the int count "
                             "of datarep '%s''s conversion function takes (register it with "
                             "MPI_Register_datarep_c)",
                             fn, tern_dt_label(dt, label, sizeof label), items, u->name);
    for (size_t e = 0; e < count;) {
        size_t k = count - e < per ? count - e : per;
        char *fb = fbuf + e * felem;
        MPI_Offset pos = (MPI_Offset)(e * items);
        int rc = cf_c ? cf_c(buf, dt->handle, (MPI_Count)(k * items), fb, pos, u->extra_state)
                      : cf(buf, dt->handle, (int)(k * items), fb, pos, u->extra_state);
        if (rc != MPI_SUCCESS)
            return tern_err_make(MPI_ERR_CONVERSION,
                                 "%s: the %s conversion function of datarep '%s' returned error %d "
                                 "on %s, data items %lld to %lld (file '%s')",
                                 fn, rd ? "read" : "write", u->name, rc,
                                 tern_dt_label(dt, label, sizeof label), (long long)pos,
                                 (long long)(pos + (MPI_Offset)(k * items)), f->path);
        e += k;
    }
    return MPI_SUCCESS;
}

static int has_fn(const struct tern_datarep *u, enum tern_io_dir dir)
{
    return dir == TERN_IO_READ ? u->read || u->read_c : u->write || u->write_c;
}

int tern_file_conv_begin(const char *fn, const struct tern_file *f, enum tern_io_dir dir, void *buf,
                         size_t count, struct tern_datatype *dt, struct tern_io_conv *c)
{
    *c = (struct tern_io_conv){buf, count, dt, NULL, dt->size};
    if (f->datarep == TERN_DATAREP_NATIVE || f->datarep == TERN_DATAREP_INTERNAL || count == 0 ||
        dt->size == 0)
        return MPI_SUCCESS;
    char label[64];
    const char *rn = rep_name(f->datarep, f->urep);
    struct basic_ctx x = {fn, f->path, f->urep, 0};
    struct tern_dt_rep r = rep_of(f->datarep, &x);
    size_t total;
    int rc = tern_dt_rep_size(dt, 1, &r, &c->felem);
    if (rc) return walk_error(rc, &x, f->datarep, dt);
    if (__builtin_mul_overflow(c->felem, count, &total))
        return tern_err_make(MPI_ERR_COUNT,
                             "%s: %zu elements of %s take more bytes than memory holds in datarep "
                             "'%s' (file '%s')",
                             fn, count, tern_dt_label(dt, label, sizeof label), rn, f->path);
    if (total % f->file_etype->size != 0)
        return tern_err_make(MPI_ERR_TYPE,
                             "%s: %zu elements of %s take %zu bytes in datarep '%s', not a whole "
                             "number of etypes (%zu bytes there; file '%s')",
                             fn, count, tern_dt_label(dt, label, sizeof label), total, rn,
                             f->file_etype->size, f->path);
    if (total == 0) {
        c->count = 0; /* every basic type takes no bytes there: nothing moves */
        return MPI_SUCCESS;
    }
    if (f->datarep == TERN_DATAREP_USER && !has_fn(f->urep, dir)) {
        /* MPI_CONVERSION_FN_NULL: the memory's bytes, which must then
         * have the file's sizes. */
        if (c->felem == dt->size) return MPI_SUCCESS;
        return tern_err_make(MPI_ERR_CONVERSION,
                             "%s: datarep '%s' has no %s conversion function, and an element of "
                             "%s takes %zu bytes in the file but %zu in memory (file '%s')",
                             fn, rn, dir == TERN_IO_READ ? "read" : "write",
                             tern_dt_label(dt, label, sizeof label), c->felem, dt->size, f->path);
    }
    if (!(c->tmp = malloc(total)))
        return tern_err_make(MPI_ERR_NO_MEM,
                             "%s: no memory for %zu bytes of data in datarep '%s' (file '%s')", fn,
                             total, rn, f->path);
    if (dir == TERN_IO_WRITE) {
        if (f->datarep == TERN_DATAREP_EXTERNAL32)
            tern_dt_ext32_pack(dt, buf, count, c->tmp);
        else if ((rc = user_convert(fn, f, dir, buf, count, dt, c->tmp, c->felem))) {
            tern_file_conv_free(c);
            return rc;
        }
    }
    c->buf = c->tmp;
    c->count = total;
    c->dt = tern_dt_get(MPI_BYTE);
    return MPI_SUCCESS;
}

int tern_file_conv_end(const char *fn, const struct tern_file *f, enum tern_io_dir dir,
                       struct tern_io_conv *c, void *buf, size_t count, struct tern_datatype *dt,
                       size_t moved, size_t *bytes)
{
    if (!c->tmp) {
        *bytes = moved;
        return MPI_SUCCESS;
    }
    /* Whole elements only: an element cut by the end of the file is not
     * converted (its data items could be, one by one; Tern does not). */
    size_t whole = c->felem ? moved / c->felem : count;
    if (whole > count) whole = count;
    int rc = MPI_SUCCESS;
    if (dir == TERN_IO_READ && whole > 0) {
        if (f->datarep == TERN_DATAREP_EXTERNAL32)
            tern_dt_ext32_unpack(dt, buf, whole, c->tmp);
        else
            rc = user_convert(fn, f, dir, buf, whole, dt, c->tmp, c->felem);
    }
    *bytes = rc ? 0 : whole * dt->size;
    tern_file_conv_free(c);
    return rc;
}

void tern_file_conv_free(struct tern_io_conv *c)
{
    free(c->tmp);
    c->tmp = NULL;
}
