/* MPI_Alloc_mem's blocks in unnamed shared files (alloc_mem.h). */
#include "rma/alloc_mem.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bootstrap/anon_file.h"
#include "core/params.h"

struct block {
    char *base;
    size_t bytes; /* mapped, a multiple of the page */
    int fd;
};

/* At most RMA_ALLOC_MEM_SHM of them, so a short search is enough.  Threads
 * may allocate at once under MPI_THREAD_MULTIPLE. */
static struct block *blocks;
static int nblocks, cap;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;

/* A block of shared memory, or NULL when none can be had. */
static void *shared_block(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (bytes + page - 1) / page * page;
    int fd = tern_anon_file_create("tern-alloc-mem", NULL);
    if (fd < 0) return NULL;
    /* Every page reserved now: a full /dev/shm sends the block to the heap
     * rather than raising SIGBUS at a store much later. */
    void *p = MAP_FAILED;
    if (ftruncate(fd, (off_t)len) == 0 && posix_fallocate(fd, 0, (off_t)len) == 0)
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    blocks[nblocks++] = (struct block){p, len, fd};
    return p;
}

void *tern_alloc_mem(size_t bytes)
{
    void *p = NULL;
    int limit = tern_param.rma_alloc_mem_shm;
    if (bytes && limit > 0) {
        pthread_mutex_lock(&blocks_lock);
        if (nblocks == cap && cap < limit) {
            int ncap = cap ? (cap * 2 < limit ? cap * 2 : limit) : (limit < 16 ? limit : 16);
            struct block *nb = realloc(blocks, (size_t)ncap * sizeof *nb);
            if (nb) {
                blocks = nb;
                cap = ncap;
            }
        }
        if (nblocks < cap) p = shared_block(bytes);
        pthread_mutex_unlock(&blocks_lock);
    }
    if (!p && posix_memalign(&p, 64, bytes ? bytes : 1) != 0) p = NULL;
    return p;
}

/* The block that holds [p, p + bytes), bytes >= 1; blocks may lie end
 * to end, so the byte after one is the next one's first. */
static int find(const char *p, size_t bytes)
{
    for (int i = 0; i < nblocks; i++)
        if (p >= blocks[i].base && bytes <= blocks[i].bytes &&
            (size_t)(p - blocks[i].base) <= blocks[i].bytes - bytes)
            return i;
    return -1;
}

void tern_free_mem(void *p)
{
    if (!p) return;
    pthread_mutex_lock(&blocks_lock);
    int i = find(p, 1);
    if (i >= 0 && (char *)p == blocks[i].base) {
        munmap(blocks[i].base, blocks[i].bytes);
        close(blocks[i].fd);
        blocks[i] = blocks[--nblocks];
        pthread_mutex_unlock(&blocks_lock);
        return;
    }
    pthread_mutex_unlock(&blocks_lock);
    free(p);
}

int tern_alloc_mem_file(const void *p, size_t bytes, struct tern_mem_file *out)
{
    pthread_mutex_lock(&blocks_lock);
    int i = p ? find(p, bytes) : -1;
    if (i >= 0)
        *out = (struct tern_mem_file){blocks[i].fd, blocks[i].bytes,
                                      (size_t)((const char *)p - blocks[i].base)};
    pthread_mutex_unlock(&blocks_lock);
    return i >= 0;
}
