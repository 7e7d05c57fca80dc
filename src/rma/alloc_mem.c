/* MPI_Alloc_mem's blocks in unnamed shared files (alloc_mem.h).
 *
 * Making a file costs about 10 us and its first touches a page fault each
 * (1 MiB: 480 us made, touched and freed, against 21 us from the heap), so
 * a freed block is kept, mapped, for the next request it fits, up to
 * CACHE_BYTES of them; a program that allocates and frees in a loop then
 * pays the heap's price. */
#include "rma/alloc_mem.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootstrap/anon_file.h"
#include "core/params.h"
#include "core/pvars.h"

#define CACHE_BYTES ((size_t)16 << 20)

struct block {
    char *base;
    size_t bytes; /* mapped, a multiple of the page */
    int fd;
    int in_use; /* 0: freed, kept for reuse */
    uint64_t ino;
};

/* At most RMA_ALLOC_MEM_SHM of them, in use or kept, so a short search is
 * enough.  Threads may allocate at once under MPI_THREAD_MULTIPLE. */
static struct block *blocks;
static int nblocks, cap;
static size_t kept_bytes;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;

static void release(int i)
{
    munmap(blocks[i].base, blocks[i].bytes);
    close(blocks[i].fd);
    if (!blocks[i].in_use) kept_bytes -= blocks[i].bytes;
    blocks[i] = blocks[--nblocks];
}

/* A kept block for 'len' bytes: the smallest that holds them without
 * wasting more than half of it; -1 when none. */
static int reuse(size_t len)
{
    int best = -1;
    for (int i = 0; i < nblocks; i++)
        if (!blocks[i].in_use && blocks[i].bytes >= len && blocks[i].bytes / 2 <= len &&
            (best < 0 || blocks[i].bytes < blocks[best].bytes))
            best = i;
    return best;
}

/* A new block of shared memory, or NULL when none can be had. */
static void *new_block(size_t len)
{
    int fd = tern_anon_file_create("tern-alloc-mem", NULL);
    if (fd < 0) return NULL;
    /* Every page reserved now: a full /dev/shm sends the block to the heap
     * rather than raising SIGBUS at a store much later.  Mapped with its
     * pages, which costs less at once than a fault per page. */
    void *p = MAP_FAILED;
    struct stat st;
    if (ftruncate(fd, (off_t)len) == 0 && posix_fallocate(fd, 0, (off_t)len) == 0 &&
        fstat(fd, &st) == 0)
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    blocks[nblocks++] = (struct block){p, len, fd, 1, (uint64_t)st.st_ino};
    return p;
}

/* Room for one more block within the limit: a larger table, or a kept
 * block let go. */
static int make_room(int limit)
{
    if (nblocks == cap && cap < limit) {
        int ncap = cap ? (cap * 2 < limit ? cap * 2 : limit) : (limit < 16 ? limit : 16);
        struct block *nb = realloc(blocks, (size_t)ncap * sizeof *nb);
        if (nb) {
            blocks = nb;
            cap = ncap;
        }
    }
    for (int i = 0; nblocks == cap && i < nblocks; i++)
        if (!blocks[i].in_use) release(i);
    return nblocks < cap;
}

static void *shared(size_t bytes, int limit)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (bytes + page - 1) / page * page;
    int i = reuse(len);
    if (i >= 0) {
        blocks[i].in_use = 1;
        kept_bytes -= blocks[i].bytes;
        return blocks[i].base;
    }
    return make_room(limit) ? new_block(len) : NULL;
}

void *tern_alloc_mem(size_t bytes)
{
    void *p = NULL;
    int limit = tern_param.rma_alloc_mem_shm;
    if (bytes && limit > 0) {
        pthread_mutex_lock(&blocks_lock);
        p = shared(bytes, limit);
        pthread_mutex_unlock(&blocks_lock);
    }
    if (!p && posix_memalign(&p, 64, bytes ? bytes : 1) != 0) p = NULL;
    return p;
}

/* The block in use that holds [p, p + bytes), bytes >= 1; blocks may lie
 * end to end, so the byte after one is the next one's first. */
static int find(const char *p, size_t bytes)
{
    for (int i = 0; i < nblocks; i++)
        if (blocks[i].in_use && p >= blocks[i].base && bytes <= blocks[i].bytes &&
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
        if (kept_bytes + blocks[i].bytes <= CACHE_BYTES) {
            blocks[i].in_use = 0;
            kept_bytes += blocks[i].bytes;
        } else {
            release(i);
        }
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
        *out = (struct tern_mem_file){blocks[i].fd, blocks[i].ino, blocks[i].bytes,
                                      (size_t)((const char *)p - blocks[i].base)};
    pthread_mutex_unlock(&blocks_lock);
    return i >= 0;
}

char *tern_alloc_mem_map_peer(long pid, int fd, uint64_t ino, size_t file_bytes)
{
    int mine = tern_anon_file_open_peer(pid, fd, NULL, 0);
    if (mine < 0) return NULL;
    struct stat st;
    void *m = MAP_FAILED;
    if (fstat(mine, &st) == 0 && (uint64_t)st.st_ino == ino && (size_t)st.st_size == file_bytes)
        m = mmap(NULL, file_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, mine, 0);
    close(mine);
    if (m == MAP_FAILED) return NULL;
    tern_pv.rma_files_mapped++;
    return m;
}
