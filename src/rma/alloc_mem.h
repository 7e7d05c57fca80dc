/* The memory of MPI_Alloc_mem: each block an unnamed shared file
 * (bootstrap/anon_file.h) mapped here and kept open, so that the members of
 * a window created on it (MPI_Win_create) map it too and reach it by load,
 * store and atomic instruction instead of CMA, as they reach the memory of
 * MPI_Win_allocate.  The standard names MPI_Alloc_mem as the way to get
 * memory on which one-sided operations are fast (MPI-4.1 9.2).  Freed
 * blocks are kept for reuse, within a budget.  Past the limit
 * RMA_ALLOC_MEM_SHM on blocks held at once (each holds a descriptor), or
 * when a file cannot be made, a block comes from the heap. */
#ifndef TERN_RMA_ALLOC_MEM_H
#define TERN_RMA_ALLOC_MEM_H

#include <stddef.h>
#include <stdint.h>

/* 'bytes' bytes aligned to at least 64; NULL when there is no memory. */
void *tern_alloc_mem(size_t bytes);
/* Frees what tern_alloc_mem returned (NULL: nothing). */
void tern_free_mem(void *p);

/* The shared file that holds [p, p + bytes): its descriptor here, its
 * length, and where p lies in it. */
struct tern_mem_file {
    int fd;
    uint64_t ino; /* the file's inode: tells it from a later file on the same descriptor */
    size_t file_bytes;
    size_t offset;
};
/* 1 and *out when [p, p + bytes) lies in one block of shared memory, else 0. */
int tern_alloc_mem_file(const void *p, size_t bytes, struct tern_mem_file *out);

/* Maps here, shared and read-write, the block of another process: the
 * file of 'file_bytes' bytes that process pid holds as descriptor fd, when
 * that descriptor still names the file of inode ino (it may have been
 * closed and its number reused); NULL otherwise.  Counted in MPI_T's
 * tern_rma_files_mapped. */
char *tern_alloc_mem_map_peer(long pid, int fd, uint64_t ino, size_t file_bytes);

#endif
