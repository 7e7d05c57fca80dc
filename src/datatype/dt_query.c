/* Questions about a type's construction: basic elements in a byte count
 * (MPI_Get_elements) and the reverse, envelope and contents.
 *
 * Counting walks the constructor record, not the flattened layout (merged
 * blocks forget where one basic element ends and the next begins): whole
 * copies of an old type are skipped by division and only the one copy a
 * byte count ends inside is entered, so the cost is the nesting depth times
 * the number of blocks of a level, never the number of elements. */
#include <stdlib.h>

#include "datatype/dt_internal.h"

/* How a derived type is made of its old types, as both walks below see it. */
enum dt_form {
    FORM_COPIES, /* copies of one type: contiguous, vector, resized, dup,
                    subarray and darray (of impl) */
    FORM_BLOCKS, /* a list of blocks: the indexed family, struct */
    FORM_OTHER
};

static enum dt_form form_of(int combiner)
{
    switch (combiner) {
    case MPI_COMBINER_CONTIGUOUS:
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_RESIZED:
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_SUBARRAY: /* one copy of impl */
    case MPI_COMBINER_DARRAY: return FORM_COPIES;
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
    case MPI_COMBINER_STRUCT: return FORM_BLOCKS;
    default: return FORM_OTHER;
    }
}

/* Block i of a FORM_BLOCKS type: its old type; *bl its blocklength. */
static const struct tern_dt_obj *block_of(const struct tern_dt_obj *t, int i, size_t *bl)
{
    int block =
        t->combiner == MPI_COMBINER_INDEXED_BLOCK || t->combiner == MPI_COMBINER_HINDEXED_BLOCK;
    *bl = (size_t)(block ? t->ints[1] : t->ints[1 + i]);
    return t->combiner == MPI_COMBINER_STRUCT ? t->types[i] : t->types[0];
}

/* The packed size of the first basic element of a predefined type: the
 * value of a value-index pair, one half of MPI_2INT and its kin (nelems 2),
 * or the whole type. */
static size_t first_elem_size(const struct tern_dt_obj *b)
{
    if (b->nelems < 2) return b->pub.size;
    switch (b->pub.handle) {
    case MPI_FLOAT_INT:
    case MPI_DOUBLE_INT:
    case MPI_LONG_INT:
    case MPI_SHORT_INT:
    case MPI_LONG_DOUBLE_INT: return b->pub.size - sizeof(int);
    default: return b->pub.size / 2;
    }
}

/* Basic elements in the first 'rem' (< one element) bytes of t's packed
 * element; *left gets the bytes of a basic element cut short. */
static size_t partial_elems(const struct tern_dt_obj *t, size_t rem, size_t *left)
{
    *left = 0;
    if (rem == 0) return 0;
    if (t->pub.basic != MPI_DATATYPE_NULL) {
        /* homogeneous (predefined types included): copies of one predefined
         * type, whose first basic element may be shorter than the rest */
        const struct tern_dt_obj *b = tern_dt_builtin_get(t->pub.basic);
        size_t bs = b->pub.size, r = rem % bs, n = rem / bs * b->nelems;
        if (b->nelems == 2 && r >= first_elem_size(b)) {
            r -= first_elem_size(b);
            n++;
        }
        *left = r;
        return n;
    }
    size_t n = 0;
    switch (form_of(t->combiner)) {
    case FORM_COPIES: {
        const struct tern_dt_obj *c = tern_dt_copied(t);
        size_t k = rem / c->pub.size;
        return k * c->nelems + partial_elems(c, rem - k * c->pub.size, left);
    }
    case FORM_BLOCKS:
        for (int i = 0; i < t->ints[0]; i++) {
            size_t bl;
            const struct tern_dt_obj *c = block_of(t, i, &bl);
            size_t bytes = bl * c->pub.size;
            if (rem >= bytes) {
                n += bl * c->nelems;
                rem -= bytes;
                if (rem == 0) return n;
                continue;
            }
            size_t k = rem / c->pub.size;
            return n + k * c->nelems + partial_elems(c, rem - k * c->pub.size, left);
        }
        *left = rem;
        return n;
    default: *left = rem; return n;
    }
}

int tern_dt_count_elements(const struct tern_datatype *dt, size_t bytes, size_t *elements)
{
    const struct tern_dt_obj *t = tern_dt_obj_of(dt);
    if (dt->size == 0) {
        *elements = 0;
        return bytes ? -1 : 0;
    }
    size_t full = bytes / dt->size, left;
    size_t n = full * t->nelems + partial_elems(t, bytes % dt->size, &left);
    *elements = n;
    return left ? -1 : 0;
}

/* Bytes of the first k (< one element's) basic elements of t. */
static size_t partial_bytes(const struct tern_dt_obj *t, size_t k)
{
    if (k == 0) return 0;
    if (t->pub.basic != MPI_DATATYPE_NULL) {
        const struct tern_dt_obj *b = tern_dt_builtin_get(t->pub.basic);
        return k / b->nelems * b->pub.size + (k % b->nelems ? first_elem_size(b) : 0);
    }
    size_t bytes = 0;
    switch (form_of(t->combiner)) {
    case FORM_COPIES: {
        const struct tern_dt_obj *c = tern_dt_copied(t);
        size_t q = k / c->nelems;
        return q * c->pub.size + partial_bytes(c, k % c->nelems);
    }
    case FORM_BLOCKS:
        for (int i = 0; i < t->ints[0] && k; i++) {
            size_t bl;
            const struct tern_dt_obj *c = block_of(t, i, &bl);
            size_t ne = bl * c->nelems;
            if (k >= ne) {
                bytes += bl * c->pub.size;
                k -= ne;
                continue;
            }
            size_t q = k / c->nelems;
            return bytes + q * c->pub.size + partial_bytes(c, k % c->nelems);
        }
        return bytes;
    default: return bytes;
    }
}

size_t tern_dt_elements_to_bytes(const struct tern_datatype *dt, size_t elements)
{
    const struct tern_dt_obj *t = tern_dt_obj_of(dt);
    if (t->nelems == 0) return 0;
    return elements / t->nelems * dt->size + partial_bytes(t, elements % t->nelems);
}

size_t tern_dt_nblocks(const struct tern_dt_obj *t)
{
    switch (t->combiner) {
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
    case MPI_COMBINER_STRUCT: return (size_t)t->ints[0];
    case MPI_COMBINER_NAMED: return 0;
    default: return 1;
    }
}

void tern_dt_block(const struct tern_dt_obj *t, size_t i, const struct tern_dt_obj **c, size_t *bl,
                   MPI_Aint *disp)
{
    const MPI_Count *in = t->ints;
    size_t n = t->nints ? (size_t)in[0] : 0;
    *c = t->combiner == MPI_COMBINER_STRUCT ? t->types[i] : tern_dt_copied(t);
    MPI_Aint ext = (*c)->pub.extent;
    *bl = 1;
    *disp = 0;
    switch (t->combiner) {
    case MPI_COMBINER_CONTIGUOUS: *bl = (size_t)in[0]; break;
    case MPI_COMBINER_VECTOR:
        *bl = (size_t)in[1];
        *disp = (MPI_Aint)i * in[2] * ext;
        break;
    case MPI_COMBINER_HVECTOR:
        *bl = (size_t)in[1];
        *disp = (MPI_Aint)i * t->addrs[0];
        break;
    case MPI_COMBINER_INDEXED:
        *bl = (size_t)in[1 + i];
        *disp = in[1 + n + i] * ext;
        break;
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_STRUCT:
        *bl = (size_t)in[1 + i];
        *disp = t->addrs[i];
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        *bl = (size_t)in[1];
        *disp = in[2 + i] * ext;
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        *bl = (size_t)in[1];
        *disp = t->addrs[i];
        break;
    default: /* one copy: resized, dup, subarray, darray */ break;
    }
}

/* ---- envelope and contents ---- */

int tern_dt_needs_large(const struct tern_datatype *dt) { return tern_dt_obj_of(dt)->large; }

/* In the large-count form of a type from a large-count constructor, which
 * of the int form's integers are large counts: the array extents of
 * subarray and darray; every one for the other constructors, whose
 * addresses become large counts too. */
static int int_is_count(const struct tern_dt_obj *t, int i)
{
    int ndims;
    switch (t->combiner) {
    case MPI_COMBINER_SUBARRAY: /* ndims, sizes, subsizes, starts, order */
        ndims = (int)t->ints[0];
        return i >= 1 && i < 1 + 3 * ndims;
    case MPI_COMBINER_DARRAY: /* size, rank, ndims, gsizes, distribs, dargs, psizes, order */
        ndims = (int)t->ints[2];
        return i >= 3 && i < 3 + ndims;
    default: return 1;
    }
}

static int addrs_are_counts(const struct tern_dt_obj *t)
{
    return t->combiner != MPI_COMBINER_SUBARRAY && t->combiner != MPI_COMBINER_DARRAY;
}

void tern_dt_envelope(const struct tern_datatype *dt, int large_form, struct tern_dt_env *env)
{
    const struct tern_dt_obj *t = tern_dt_obj_of(dt);
    env->combiner = t->combiner;
    env->ntypes = t->ntypes;
    env->nints = t->nints;
    env->naddrs = t->naddrs;
    env->ncounts = 0;
    if (!large_form || !t->large) return;
    for (int i = 0; i < t->nints; i++)
        if (int_is_count(t, i)) {
            env->nints--;
            env->ncounts++;
        }
    if (addrs_are_counts(t)) {
        env->ncounts += env->naddrs;
        env->naddrs = 0;
    }
}

/* Derived old types come back as new user references: a type whose handle
 * the user already freed gets a fresh handle.  Nothing changes on failure. */
static int hand_out_types(struct tern_dt_obj *t, MPI_Datatype types[])
{
    for (int i = 0; i < t->ntypes; i++) {
        struct tern_dt_obj *c = t->types[i];
        if (c->pub.predefined || tern_objtab_lookup(&tern_dt_table, c->pub.handle) == c) continue;
        int h = tern_objtab_insert(&tern_dt_table, c);
        if (!h) {
            for (int j = 0; j < i; j++) {
                struct tern_dt_obj *d = t->types[j];
                if (!d->pub.predefined && d->urefs == 0 &&
                    tern_objtab_lookup(&tern_dt_table, d->pub.handle) == d)
                    tern_objtab_remove(&tern_dt_table, d->pub.handle);
            }
            return MPI_ERR_NO_MEM;
        }
        c->pub.handle = h;
    }
    for (int i = 0; i < t->ntypes; i++) {
        struct tern_dt_obj *c = t->types[i];
        types[i] = c->pub.handle;
        if (!c->pub.predefined) {
            c->urefs++;
            c->pub.refcount++;
        }
    }
    return MPI_SUCCESS;
}

int tern_dt_contents(struct tern_datatype *dt, int large_form, const struct tern_dt_env *max,
                     int ints[], MPI_Aint addrs[], MPI_Count counts[], MPI_Datatype types[])
{
    struct tern_dt_obj *t = tern_dt_obj_of(dt);
    struct tern_dt_env env;
    tern_dt_envelope(dt, large_form, &env);
    if (t->combiner == MPI_COMBINER_NAMED || max->nints < env.nints || max->naddrs < env.naddrs ||
        max->ncounts < env.ncounts || max->ntypes < env.ntypes)
        return MPI_ERR_ARG;
    int rc = hand_out_types(t, types);
    if (rc) return rc;
    int as_counts = large_form && t->large;
    size_t ni = 0, nc = 0;
    for (int i = 0; i < t->nints; i++) {
        if (as_counts && int_is_count(t, i))
            counts[nc++] = t->ints[i];
        else
            ints[ni++] = (int)t->ints[i];
    }
    for (int i = 0; i < t->naddrs; i++) {
        if (as_counts && addrs_are_counts(t))
            counts[nc++] = t->addrs[i];
        else
            addrs[i] = t->addrs[i];
    }
    return MPI_SUCCESS;
}
