/* The choice buffers of `use mpi_f08`: gfortran passes each as the standard's
 * C descriptor (ISO_Fortran_binding.h), which may describe an array section
 * whose elements are not adjacent, such as a(1:n:2).
 *
 * A contiguous buffer is passed on as its address.  A non-contiguous one is
 * copied into a contiguous temporary for the call (and back when the
 * procedure writes it) where the procedure is done with the buffer when it
 * returns.  Where the library keeps the buffer past the call (nonblocking,
 * persistent and one-sided procedures, split collectives, attached buffers)
 * a copy cannot stand in for it: when the buffer has a count and a datatype
 * of its own whose elements are the array's (size and extent elem_len), the
 * call gets one element of a datatype laid over the section's strides
 * instead; otherwise it fails with an error of class MPI_ERR_BUFFER whose
 * string says so, raised on the call's communicator, window or file
 * (MPI_COMM_WORLD when it has none).  Not every section passes, so
 * MPI_SUBARRAYS_SUPPORTED is .FALSE. */
#ifndef TERN_FORTRAN_F08_CDESC_H
#define TERN_FORTRAN_F08_CDESC_H

#include <ISO_Fortran_binding.h>
#include <mpi.h>

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
