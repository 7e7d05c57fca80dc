/* The regions attached to a dynamic window, and which bytes of a rank they
 * make reachable.
 *
 * Each rank keeps its regions in its own memory, as many as it attaches,
 * with their union: disjoint intervals sorted by address, so that an access
 * spanning two regions attached side by side is one interval.  The union is
 * what other ranks check an access against.  On one host they read it with
 * CMA, as they reach the memory itself, and keep the copy until the owner's
 * generation counter in the control area moves; the owner changes its
 * tables under the dyn word of its control entry, which readers take
 * too, so that a copy is never read half changed or from freed memory.
 * Across hosts the target checks its own union (win_am.c).
 *
 * A region that lies in a block of MPI_Alloc_mem (a shared file,
 * alloc_mem.h) is also listed with its file, beside the union and read
 * with it; an origin maps that file on first use (through /proc/<pid>/fd,
 * its inode checked) and then puts and gets there by load and store.
 * Accumulates still take the target's lock, as every origin's do on a
 * dynamic window, mapped or not. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/errors.h"
#include "rma/alloc_mem.h"
#include "rma/win_seg.h"
#include "transport/shm/shm.h"

struct ivals {
    struct tern_win_region *v;
    size_t n, cap;
};

/* A region attached from a block of MPI_Alloc_mem, and its file. */
struct file_region {
    uint64_t base, size;
    uint64_t ino, file_bytes, offset; /* the file, and where the region starts in it */
    int32_t pid, fd;                  /* the owner's descriptor of it */
};
struct file_list {
    struct file_region *v;
    size_t n, cap;
};

/* A file of another rank mapped here. */
struct mapped {
    uint64_t ino;
    char *map;
    size_t bytes;
};
/* Files mapped per rank at most; past it, all are let go and mapped again
 * as they are used (each mapping keeps its file alive). */
#define MAX_MAPPED 64

/* What this rank knows of another's union and files: as of generation
 * 'gen' (0, nothing attached, is where every rank starts). */
struct view {
    struct ivals u;
    struct file_list files;
    uint32_t gen;
    struct mapped *maps; /* MAX_MAPPED of them, allocated at the first */
    int nmaps;
};

struct tern_win_dyn {
    struct ivals attached;  /* sorted by base; sizes of 0 kept, for detach */
    struct ivals cover;     /* the union of 'attached' */
    struct file_list files; /* the attached regions that lie in blocks of MPI_Alloc_mem */
    struct view *views;     /* per rank */
};

/* Room for n entries of 'elem' bytes in *v, which has room for *cap. */
static void *grow(void *v, size_t *cap, size_t n, size_t elem)
{
    if (n <= *cap) return v;
    size_t c = *cap ? *cap : 16;
    while (c < n) c *= 2;
    void *nv = realloc(v, c * elem);
    if (!nv) tern_fatal("out of memory for %zu regions of a dynamic window", n);
    *cap = c;
    return nv;
}
static void reserve_files(struct file_list *s, size_t n)
{
    s->v = grow(s->v, &s->cap, n, sizeof *s->v);
}
static void reserve(struct ivals *s, size_t n) { s->v = grow(s->v, &s->cap, n, sizeof *s->v); }

static void unmap_all(struct view *v)
{
    for (int i = 0; i < v->nmaps; i++) munmap(v->maps[i].map, v->maps[i].bytes);
    v->nmaps = 0;
}

void tern_win_dyn_open(struct tern_win *w)
{
    w->dyn = calloc(1, sizeof *w->dyn);
    if (w->dyn) w->dyn->views = calloc((size_t)w->size, sizeof *w->dyn->views);
    if (!w->dyn || !w->dyn->views)
        tern_fatal("out of memory for a dynamic window of %d ranks", w->size);
}

void tern_win_dyn_close(struct tern_win *w)
{
    struct tern_win_dyn *d = w->dyn;
    if (!d) return;
    for (int r = 0; r < w->size; r++) {
        free(d->views[r].u.v);
        free(d->views[r].files.v);
        unmap_all(&d->views[r]);
        free(d->views[r].maps);
    }
    free(d->views);
    free(d->attached.v);
    free(d->cover.v);
    free(d->files.v);
    free(d);
    w->dyn = NULL;
}

/* Other ranks read the tables with CMA while they hold the word; the
 * owner may be descheduled holding it on an oversubscribed host. */
static void dyn_lock(struct tern_win *w, int r)
{
    _Atomic uint32_t *l = &tern_win_rank_ctl(w, r)->dyn;
    uint32_t z = 0;
    for (unsigned i = 1; !atomic_compare_exchange_weak(l, &z, 1); i++) {
        z = 0;
        if (i % 64 == 0) sched_yield();
    }
}
static void dyn_unlock(struct tern_win *w, int r)
{
    atomic_store_explicit(&tern_win_rank_ctl(w, r)->dyn, 0, memory_order_release);
}

/* The union of the sorted 'attached', and where other ranks find it. */
static void publish(struct tern_win *w)
{
    struct tern_win_dyn *d = w->dyn;
    d->cover.n = 0;
    reserve(&d->cover, d->attached.n);
    for (size_t i = 0; i < d->attached.n; i++) {
        struct tern_win_region a = d->attached.v[i];
        if (!a.size) continue;
        struct tern_win_region *last = d->cover.n ? &d->cover.v[d->cover.n - 1] : NULL;
        if (last && a.base <= last->base + last->size) {
            if (a.base + a.size > last->base + last->size)
                last->size = a.base + a.size - last->base;
        } else {
            d->cover.v[d->cover.n++] = a;
        }
    }
    struct tern_win_rank_ctl *c = tern_win_rank_ctl(w, w->rank);
    c->cover_at = (uint64_t)(uintptr_t)d->cover.v;
    c->ncover = (uint32_t)d->cover.n;
    c->files_at = (uint64_t)(uintptr_t)d->files.v;
    c->nfiles = (uint32_t)d->files.n;
    atomic_fetch_add_explicit(&c->dyn_gen, 1, memory_order_release);
}

int tern_win_attach(const char *fn, struct tern_win *w, void *base, MPI_Aint size)
{
    char wl[64];
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return tern_win_err(w, MPI_ERR_RMA_FLAVOR, "%s: %s was not made by MPI_Win_create_dynamic",
                            fn, tern_win_label(w, wl, sizeof wl));
    uint64_t b = (uint64_t)(uintptr_t)base;
    if ((uint64_t)size > UINT64_MAX - b)
        return tern_win_err(w, MPI_ERR_SIZE, "%s: base=%p and size=%lld pass the end of memory", fn,
                            base, (long long)size);
    struct ivals *a = &w->dyn->attached;
    dyn_lock(w, w->rank);
    reserve(a, a->n + 1);
    size_t i = a->n;
    while (i > 0 && a->v[i - 1].base > b) i--;
    memmove(&a->v[i + 1], &a->v[i], (a->n - i) * sizeof *a->v);
    a->v[i] = (struct tern_win_region){b, (uint64_t)size};
    a->n++;
    struct tern_mem_file mf;
    if (size > 0 && tern_alloc_mem_file(base, (size_t)size, &mf)) {
        /* sorted by base, as 'attached', for the origins' search */
        struct file_list *f = &w->dyn->files;
        reserve_files(f, f->n + 1);
        size_t j = f->n;
        while (j > 0 && f->v[j - 1].base > b) j--;
        memmove(&f->v[j + 1], &f->v[j], (f->n - j) * sizeof *f->v);
        f->v[j] = (struct file_region){b,         (uint64_t)size,    mf.ino, mf.file_bytes,
                                       mf.offset, (int32_t)getpid(), mf.fd};
        f->n++;
    }
    publish(w);
    dyn_unlock(w, w->rank);
    return MPI_SUCCESS;
}

int tern_win_detach(const char *fn, struct tern_win *w, const void *base)
{
    char wl[64];
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return tern_win_err(w, MPI_ERR_RMA_FLAVOR, "%s: %s was not made by MPI_Win_create_dynamic",
                            fn, tern_win_label(w, wl, sizeof wl));
    struct ivals *a = &w->dyn->attached;
    uint64_t b = (uint64_t)(uintptr_t)base;
    int found = 0;
    dyn_lock(w, w->rank);
    /* The last of those at b: attached last, detached first. */
    for (size_t i = a->n; i-- > 0 && !found;)
        if (a->v[i].base == b) {
            memmove(&a->v[i], &a->v[i + 1], (a->n - i - 1) * sizeof *a->v);
            a->n--;
            found = 1;
        }
    struct file_list *f = &w->dyn->files;
    for (size_t i = f->n; found && i-- > 0;)
        if (f->v[i].base == b) {
            memmove(&f->v[i], &f->v[i + 1], (f->n - i - 1) * sizeof *f->v);
            f->n--;
            break;
        }
    if (found) publish(w);
    dyn_unlock(w, w->rank);
    if (!found)
        return tern_win_err(w, MPI_ERR_RMA_RANGE,
                            "%s: no region attached to %s starts at base=%p on rank %d", fn,
                            tern_win_label(w, wl, sizeof wl), base, w->rank);
    return MPI_SUCCESS;
}

/* Reads 'bytes' at rank r's address 'at' into 'into': 0 or -errno. */
static int read_table(struct tern_win *w, int r, void *into, uint64_t at, size_t bytes)
{
    if (!bytes) return 0;
    struct tern_dt_view lv, rv;
    struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
    tern_dt_view_local(&lv, byte, into, bytes);
    tern_dt_view_local(&rv, byte, (const void *)(uintptr_t)at, bytes);
    return tern_shm_cma_rw(w->peer[r].world, 0, &lv, &rv, bytes);
}

/* Rank r's union and files as of now, read again only when r has changed
 * them. */
static struct view *view_of(struct tern_win *w, int r)
{
    struct view *v = &w->dyn->views[r];
    struct tern_win_rank_ctl *c = tern_win_rank_ctl(w, r);
    if (atomic_load_explicit(&c->dyn_gen, memory_order_acquire) == v->gen) return v;
    dyn_lock(w, r);
    size_t n = c->ncover, nf = c->nfiles;
    reserve(&v->u, n);
    reserve_files(&v->files, nf);
    int e = read_table(w, r, v->u.v, c->cover_at, n * sizeof *v->u.v);
    if (!e) e = read_table(w, r, v->files.v, c->files_at, nf * sizeof *v->files.v);
    /* Unreadable (the owner is gone): nothing is reachable, and the next
     * access reads again. */
    if (!e) v->gen = atomic_load_explicit(&c->dyn_gen, memory_order_relaxed);
    dyn_unlock(w, r);
    v->u.n = e ? 0 : n;
    v->files.n = e ? 0 : nf;
    return v;
}

static const struct ivals *union_of(struct tern_win *w, int r)
{
    return r == w->rank ? &w->dyn->cover : &view_of(w, r)->u;
}

/* The file of region f of rank r mapped here, or NULL. */
static char *map_of(struct view *v, const struct file_region *f)
{
    for (int i = 0; i < v->nmaps; i++)
        if (v->maps[i].ino == f->ino && v->maps[i].bytes == f->file_bytes) return v->maps[i].map;
    if (!v->maps && !(v->maps = malloc(MAX_MAPPED * sizeof *v->maps))) return NULL;
    char *m = tern_alloc_mem_map_peer(f->pid, f->fd, f->ino, f->file_bytes);
    if (!m) return NULL;
    if (v->nmaps == MAX_MAPPED) unmap_all(v);
    v->maps[v->nmaps++] = (struct mapped){f->ino, m, f->file_bytes};
    return m;
}

/* Regions that start at or before an access and are tried for it, the
 * nearest first: one unless regions overlap; past them, CMA serves. */
#define TRIED_REGIONS 4

char *tern_win_dyn_local(struct tern_win *w, int r, uint64_t addr, uint64_t len)
{
    if (r == w->rank) return NULL;
    struct view *v = view_of(w, r);
    /* After the last region that starts at or before addr. */
    size_t lo = 0, hi = v->files.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->files.v[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i > 0 && lo - i < TRIED_REGIONS; i--) {
        const struct file_region *f = &v->files.v[i - 1];
        if (addr - f->base > f->size || len > f->size - (addr - f->base)) continue;
        char *m = map_of(v, f);
        return m ? m + f->offset + (addr - f->base) : NULL;
    }
    return NULL;
}

int tern_win_dyn_find(struct tern_win *w, int r, uint64_t addr, uint64_t len)
{
    const struct ivals *u = union_of(w, r);
    /* The last interval that starts at or before addr. */
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->v[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) return 0;
    const struct tern_win_region *iv = &u->v[lo - 1];
    return addr - iv->base <= iv->size && len <= iv->size - (addr - iv->base);
}
