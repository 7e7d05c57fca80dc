/* Helpers shared by the collective algorithms (private to src/coll). */
#ifndef TERN_COLL_COLL_UTIL_H
#define TERN_COLL_COLL_UTIL_H

#include <stddef.h>

#include "coll/algos.h"
#include "coll/coll.h"
#include "core/errors.h"
#include "core/objects.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

#define TERN_COLL_CTX TERN_CTX_COLL

/* MPI_BYTE, for moving packed data. */
struct tern_datatype *tern_coll_byte(void);

/* Scratch space for 'count' elements of dt laid out as in a user buffer:
 * returns the address to use as the buffer (it may differ from the
 * allocation when the type's true lower bound is not 0) and the allocation
 * in *mem (to free()).  NULL when out of memory. */
void *tern_coll_tmpbuf(const struct tern_datatype *dt, size_t count, void **mem);

/* Address of element i of (buf, dt). */
static inline char *tern_coll_elem(const void *buf, const struct tern_datatype *dt, MPI_Aint i)
{
    return (char *)buf + i * dt->extent;
}

/* The displacements of blocks of counts[0..n) laid end to end, in a new
 * array (to free()), and *total their sum; NULL when out of memory. */
int *tern_coll_displs_of(const int *counts, int n, size_t *total);

/* The error code for a failed scratch allocation. */
int tern_coll_nomem(const char *what, size_t bytes);

static inline int tern_coll_lowbit(int v) { return v & -v; }

#endif
