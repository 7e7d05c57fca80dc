/* Private to the op module: the loops of the predefined reduction ops. */
#ifndef TERN_COLL_OP_KERNELS_H
#define TERN_COLL_OP_KERNELS_H

#include <mpi.h>
#include <stddef.h>

/* inout[i] = in[i] op inout[i], i < n, over n basic elements of one type. */
typedef void (*tern_op_kernel)(const void *in, void *inout, size_t n);

/* The loop of predefined op 'op' (MPI_MAX..MPI_MAXLOC) on predefined type
 * 'basic', or NULL where the standard does not define the op on that type.
 * 'packed' asks for the loop over packed elements, which differs from the
 * loop over the type's memory layout only for the pair types with padding
 * (MPI_DOUBLE_INT: 12 packed bytes, 16 in memory). */
tern_op_kernel tern_op_kernel_get(MPI_Op op, MPI_Datatype basic, int packed);

#endif
