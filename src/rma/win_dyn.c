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
 * Across hosts the target checks its own union (win_am.c). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "rma/win_seg.h"
#include "transport/shm/shm.h"

struct ivals {
    struct tern_win_region *v;
    size_t n, cap;
};

/* What this rank knows of another's union: as of generation 'gen' (0,
 * nothing attached, is where every rank starts). */
struct view {
    struct ivals u;
    uint32_t gen;
};

struct tern_win_dyn {
    struct ivals attached; /* sorted by base; sizes of 0 kept, for detach */
    struct ivals cover;    /* the union of 'attached' */
    struct view *views;    /* per rank */
};

static void reserve(struct ivals *s, size_t n)
{
    if (n <= s->cap) return;
    size_t cap = s->cap ? s->cap : 16;
    while (cap < n) cap *= 2;
    struct tern_win_region *v = realloc(s->v, cap * sizeof *v);
    if (!v) tern_fatal("out of memory for %zu regions of a dynamic window", n);
    s->v = v;
    s->cap = cap;
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
    for (int r = 0; r < w->size; r++) free(d->views[r].u.v);
    free(d->views);
    free(d->attached.v);
    free(d->cover.v);
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
    if (found) publish(w);
    dyn_unlock(w, w->rank);
    if (!found)
        return tern_win_err(w, MPI_ERR_RMA_RANGE,
                            "%s: no region attached to %s starts at base=%p on rank %d", fn,
                            tern_win_label(w, wl, sizeof wl), base, w->rank);
    return MPI_SUCCESS;
}

/* Rank r's union as of now, read again only when r has changed it. */
static const struct ivals *union_of(struct tern_win *w, int r)
{
    struct tern_win_dyn *d = w->dyn;
    if (r == w->rank) return &d->cover;
    struct view *v = &d->views[r];
    struct tern_win_rank_ctl *c = tern_win_rank_ctl(w, r);
    if (atomic_load_explicit(&c->dyn_gen, memory_order_acquire) == v->gen) return &v->u;
    dyn_lock(w, r);
    size_t n = c->ncover;
    reserve(&v->u, n);
    int e = 0;
    if (n) {
        struct tern_dt_view lv, rv;
        struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
        size_t bytes = n * sizeof *v->u.v;
        tern_dt_view_local(&lv, byte, v->u.v, bytes);
        tern_dt_view_local(&rv, byte, (const void *)(uintptr_t)c->cover_at, bytes);
        e = tern_shm_cma_rw(w->peer[r].world, 0, &lv, &rv, bytes);
    }
    /* Unreadable (the owner is gone): nothing is reachable, and the next
     * access reads again. */
    if (!e) v->gen = atomic_load_explicit(&c->dyn_gen, memory_order_relaxed);
    dyn_unlock(w, r);
    v->u.n = e ? 0 : n;
    return &v->u;
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
