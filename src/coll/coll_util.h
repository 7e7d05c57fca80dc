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
 * in *mem (for tern_coll_tmpfree).  NULL when out of memory.
 *
 * A thread keeps the two largest scratch buffers it gave back (up to 64 MiB
 * each) for the next collectives: glibc hands freed megabytes back to the
 * kernel, and a collective called in a loop then paid for mapping and
 * zeroing its scratch on every call (3x the time of a 1 MiB
 * reduce_scatter at 2 ranks). */
void *tern_coll_tmpbuf(const struct tern_datatype *dt, size_t count, void **mem);
void tern_coll_tmpfree(void *mem);
/* Frees the calling thread's kept scratch (MPI_Finalize). */
void tern_coll_tmp_release(void);

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

/* Rank i's block of a reduce_scatter: rcounts[i], or rcount for every
 * rank when rcounts is NULL (reduce_scatter_block). */
static inline size_t tern_coll_block_count(const int *rcounts, size_t rcount, int i)
{
    return rcounts ? (size_t)rcounts[i] : rcount;
}

/* The largest of n counts (the v-variants' biggest block). */
static inline size_t tern_coll_max_count(const int *counts, int n)
{
    size_t m = 0;
    for (int i = 0; i < n; i++)
        if ((size_t)counts[i] > m) m = (size_t)counts[i];
    return m;
}

/* One side of an alltoall, alltoallv or alltoallw: peer i's block is
 * count[i] elements of dt[i] at byte off[i] of the buffer. */
struct tern_coll_blocks {
    size_t *count;
    MPI_Aint *off;
    struct tern_datatype **dt;
};

/* Bytes of the arrays of one side of n peers. */
size_t tern_coll_blocks_bytes(int n);

/* Lays out b's arrays in mem (tern_coll_blocks_bytes(n) of it) and fills
 * them from a call's arguments: counts[] (or 'count' for every peer when
 * counts is NULL), displacements in elements of dt (or in bytes, with one
 * datatype per peer in dts), contiguous blocks of 'count' when displs is
 * NULL. */
void tern_coll_blocks_describe(struct tern_coll_blocks *b, void *mem, int n, size_t count,
                               const int *counts, const int *displs, struct tern_datatype *dt,
                               struct tern_datatype *const *dts);

static inline size_t tern_coll_blocks_size(const struct tern_coll_blocks *b, int i)
{
    return b->count[i] * b->dt[i]->size;
}

#endif
