/* Tables of created objects (see handle.h).
 *
 * A table is a growable array of slots indexed by the handle's index bits.
 * Freed indices go to the back of a FIFO ring and are taken from its front,
 * so an index comes back only after every other freed index has been reused:
 * a stale handle keeps failing lookups for as long as possible.  Until the
 * ring holds TERN_OBJTAB_REUSE_MIN free indices new ones are appended
 * instead, so a program that creates and frees one object in a loop does not
 * get the same handle back every time.
 *
 * The tables are statically initialised with their kind (and first_index);
 * every array is allocated on first use.  Callers hold the big lock. */
#include <stdlib.h>
#include <string.h>

#include "core/handle.h"

#define TERN_OBJTAB_REUSE_MIN 64u

static int grow_slots(struct tern_objtab *t, unsigned need)
{
    if (need <= t->cap) return 0;
    unsigned cap = t->cap ? t->cap : 64u;
    while (cap < need) cap *= 2u;
    void **s = realloc(t->slots, (size_t)cap * sizeof *s);
    if (!s) return -1;
    memset(s + t->cap, 0, (size_t)(cap - t->cap) * sizeof *s);
    t->slots = s;
    t->cap = cap;
    return 0;
}

static int fifo_push(struct tern_objtab *t, unsigned idx)
{
    if (t->free_count == t->free_cap) {
        unsigned cap = t->free_cap ? t->free_cap * 2u : 64u;
        unsigned *r = malloc((size_t)cap * sizeof *r);
        if (!r) return -1;
        /* unroll the ring into the new array, oldest first */
        for (unsigned i = 0; i < t->free_count; i++)
            r[i] = t->free_fifo[(t->free_head + i) % t->free_cap];
        free(t->free_fifo);
        t->free_fifo = r;
        t->free_cap = cap;
        t->free_head = 0;
    }
    t->free_fifo[(t->free_head + t->free_count) % t->free_cap] = idx;
    t->free_count++;
    return 0;
}

int tern_objtab_insert(struct tern_objtab *t, void *obj)
{
    unsigned idx;
    if (t->free_count >= TERN_OBJTAB_REUSE_MIN ||
        (t->free_count > 0 && t->nslots > TERN_HANDLE_INDEX_MASK)) {
        idx = t->free_fifo[t->free_head];
        t->free_head = (t->free_head + 1u) % t->free_cap;
        t->free_count--;
    } else {
        if (t->nslots < t->first_index) t->nslots = t->first_index;
        if (t->nslots > TERN_HANDLE_INDEX_MASK) return 0;
        if (grow_slots(t, t->nslots + 1u)) return 0;
        idx = t->nslots++;
    }
    t->slots[idx] = obj;
    return tern_handle_make(TERN_TIER_CREATED, t->kind, idx);
}

void tern_objtab_remove(struct tern_objtab *t, int h)
{
    if (tern_handle_tier(h) != TERN_TIER_CREATED || tern_handle_kind(h) != t->kind) return;
    unsigned i = tern_handle_index(h);
    if (i >= t->nslots || !t->slots[i]) return;
    t->slots[i] = NULL;
    /* Out of memory for the ring: the index is simply never reused. */
    (void)fifo_push(t, i);
}

void tern_objtab_foreach(struct tern_objtab *t, void (*fn)(void *obj, void *arg), void *arg)
{
    /* fn may remove objects (from this table too): re-read every slot. */
    for (unsigned i = 0; i < t->nslots; i++)
        if (t->slots && t->slots[i]) fn(t->slots[i], arg);
}

void tern_objtab_destroy(struct tern_objtab *t)
{
    free(t->slots);
    free(t->free_fifo);
    t->slots = NULL;
    t->free_fifo = NULL;
    t->nslots = t->cap = 0;
    t->free_head = t->free_count = t->free_cap = 0;
}
