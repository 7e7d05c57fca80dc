/* Handles are ints laid out as in MPICH, so binaries built against MPICH's
 * mpi.h pass us values we understand:
 *
 *   bits 30-31  tier: 1 = predefined object, 2 = object created at run time
 *   bits 26-29  object kind (TERN_KIND_*)
 *   bits  0-25  index (predefined: the value MPICH assigns; created: a slot)
 *
 * Created objects live in one table per kind; a freed slot is reused only
 * after the rest of the free list, so a stale handle is caught for as long
 * as possible. */
#ifndef TERN_CORE_HANDLE_H
#define TERN_CORE_HANDLE_H

#include <stdint.h>

enum tern_kind {
    TERN_KIND_COMM = 0x1,
    TERN_KIND_GROUP = 0x2,
    TERN_KIND_DATATYPE = 0x3,
    TERN_KIND_FILE = 0x4,
    TERN_KIND_ERRHANDLER = 0x5,
    TERN_KIND_OP = 0x6,
    TERN_KIND_INFO = 0x7,
    TERN_KIND_WIN = 0x8,
    TERN_KIND_KEYVAL = 0x9,
    TERN_KIND_REQUEST = 0xb, /* MPI_Message shares it, as in MPICH */
    TERN_KIND_SESSION = 0xe,
};

#define TERN_TIER_BUILTIN 1u
#define TERN_TIER_CREATED 2u
#define TERN_HANDLE_INDEX_MASK 0x03ffffffu

static inline unsigned tern_handle_tier(int h) { return (unsigned)h >> 30; }
static inline unsigned tern_handle_kind(int h) { return ((unsigned)h >> 26) & 0xfu; }
static inline unsigned tern_handle_index(int h) { return (unsigned)h & TERN_HANDLE_INDEX_MASK; }
static inline int tern_handle_make(unsigned tier, enum tern_kind kind, unsigned index)
{
    return (int)((tier << 30) | ((unsigned)kind << 26) | index);
}

/* A growable table of created objects of one kind.  Slots hold pointers;
 * the objects themselves belong to their module. */
struct tern_objtab {
    enum tern_kind kind;
    unsigned first_index; /* indices below this are reserved (MPICH uses some) */
    void **slots;
    unsigned nslots, cap;
    unsigned *free_fifo; /* ring of free indices */
    unsigned free_head, free_count, free_cap;
};

/* Stores obj, returns its new handle (or 0 when out of memory). */
int tern_objtab_insert(struct tern_objtab *t, void *obj);
/* The object for a created handle of this table's kind, or NULL. */
static inline void *tern_objtab_lookup(const struct tern_objtab *t, int h)
{
    if (tern_handle_tier(h) != TERN_TIER_CREATED || tern_handle_kind(h) != t->kind) return 0;
    unsigned i = tern_handle_index(h);
    return i < t->nslots ? t->slots[i] : 0;
}
void tern_objtab_remove(struct tern_objtab *t, int h);
/* Calls fn on every live object (used at finalize to report leaks). */
void tern_objtab_foreach(struct tern_objtab *t, void (*fn)(void *obj, void *arg), void *arg);
void tern_objtab_destroy(struct tern_objtab *t);

#endif
