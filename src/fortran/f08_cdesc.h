/* The choice buffers of `use mpi_f08`.
 *
 * A program compiled against Tern's module or MPICH's passes a TYPE(*),
 * DIMENSION(..) buffer as gfortran's own array descriptor (struct
 * tern_gfc_desc).  The entry points take a plain one, a scalar or an array
 * whose elements are adjacent, as its address; any other, such as the section
 * a(1:n:2), they turn into the standard's C descriptor (ISO_Fortran_binding.h)
 * for the functions below.
 *
 * A non-contiguous section is copied into a contiguous temporary for the call
 * (and back when the procedure writes it) where the procedure is done with
 * the buffer when it returns.  Where the library keeps the buffer past the
 * call (nonblocking, persistent and one-sided procedures, split collectives,
 * attached buffers) a copy cannot stand in for it: when the buffer has a
 * count and a datatype of its own whose elements are the array's (size and
 * extent elem_len), the call gets one element of a datatype laid over the
 * section's strides instead; otherwise it fails with an error of class
 * MPI_ERR_BUFFER whose string says so, raised on the call's communicator,
 * window or file (MPI_COMM_WORLD when it has none).  Not every section
 * passes, so MPI_SUBARRAYS_SUPPORTED is .FALSE. */
#ifndef TERN_FORTRAN_F08_CDESC_H
#define TERN_FORTRAN_F08_CDESC_H

#include <ISO_Fortran_binding.h>
#include <mpi.h>
#include <stddef.h>

/* gfortran's array descriptor, as libgfortran lays it out since gfortran 8:
 * the element at the lower bounds is at base_addr, and a step of one along a
 * dimension moves stride * span bytes. */
struct tern_gfc_dim {
    ptrdiff_t stride, lower_bound, upper_bound;
};
struct tern_gfc_desc {
    void *base_addr;
    size_t offset;
    struct {
        size_t elem_len;
        int version;
        signed char rank, type;
        short attribute;
    } dtype;
    ptrdiff_t span;
    struct tern_gfc_dim dim[];
};

/* A scalar, or one dimension of adjacent elements: the call takes its
 * address as it is. */
static inline int tern_gfc_plain(const struct tern_gfc_desc *d)
{
    return d->dtype.rank == 0 ||
           (d->dtype.rank == 1 && d->dim[0].stride * d->span == (ptrdiff_t)d->dtype.elem_len);
}

/* The body of an entry point for buffers that are not all plain: a function
 * of its own, so that the plain path stays a few instructions. */
#define TERN_F08_SHAPED __attribute__((noinline, cold))

/* The C descriptor of the same array in c, which has room for CFI_MAX_RANK
 * dimensions; returns c. */
CFI_cdesc_t *tern_gfc_to_cfi(const struct tern_gfc_desc *g, CFI_cdesc_t *c);

enum tern_f08_buf_mode {
    TERN_F08_BUF_COPY,    /* a temporary may stand in for a section */
    TERN_F08_BUF_KEEP,    /* the library keeps the buffer: sections fail */
    TERN_F08_BUF_ADDRESS, /* only the address counts (MPI_Get_address) */
};

struct tern_f08_buf {
    void *addr; /* what the C procedure gets */
    void *tmp;  /* the temporary standing in for a section, or NULL */
    const CFI_cdesc_t *d;
    MPI_Datatype section; /* the datatype over a kept section */
    int has_section;
};

/* Fills b for descriptor d; MPI_SUCCESS or the error code to raise. */
int tern_f08_buf_in(struct tern_f08_buf *b, const CFI_cdesc_t *d, enum tern_f08_buf_mode mode);
/* The same for a buffer with its own count and datatype, which a section
 * the library keeps replaces by 1 and the section's datatype. */
int tern_f08_buf_in_typed(struct tern_f08_buf *b, const CFI_cdesc_t *d, enum tern_f08_buf_mode mode,
                          MPI_Count *count, MPI_Datatype *type);
/* Copies the temporary back into the section when copy_back, and frees it
 * (the section's datatype too: an operation in progress keeps its own
 * reference). */
void tern_f08_buf_out(struct tern_f08_buf *b, int copy_back);

/* Raise code on the object's error handler; return code. */
int tern_f08_comm_error(MPI_Comm comm, int code);
int tern_f08_win_error(MPI_Win win, int code);
int tern_f08_file_error(MPI_File file, int code);
int tern_f08_world_error(int code);

#endif
