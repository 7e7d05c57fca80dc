/* A type's data in another representation of the basic types: "external32"
 * (dt_external.c) or a file view's representation (MPI-4.1 14.5).  Each
 * basic element takes the bytes the representation gives it, byte-aligned.
 *
 * The type in the representation keeps the construction: counts in units
 * of the old type (contiguous, vector, indexed, indexed_block, subarray,
 * darray) scale with the old type's new extent, and displacements given in
 * bytes (hvector, hindexed, struct, resized) stay as they are, as 14.5.1
 * says ("MPI will interpret these byte displacements as is"; portable
 * types scale).  The walks follow the constructor records, which keep the
 * basic types the compiled layout forgets. */
#include <stdlib.h>

#include "datatype/dt_internal.h"

static int basic_of(const struct tern_dt_obj *t, const struct tern_dt_rep *rep, size_t *bytes)
{
    *bytes = 0;
    if (t->pub.size == 0) return MPI_SUCCESS; /* MPI_LB, MPI_UB */
    return rep->basic_size(&t->pub, bytes, rep->arg);
}

static int rep_size(const struct tern_dt_obj *t, const struct tern_dt_rep *rep, size_t *out)
{
    if (t->combiner == MPI_COMBINER_NAMED) return basic_of(t, rep, out);
    size_t total = 0, n = tern_dt_nblocks(t);
    for (size_t i = 0; i < n; i++) {
        const struct tern_dt_obj *c;
        size_t bl, cs, k;
        MPI_Aint disp;
        tern_dt_block(t, i, &c, &bl, &disp);
        int rc = rep_size(c, rep, &cs);
        if (rc) return rc;
        if (__builtin_mul_overflow(cs, bl, &k) || __builtin_add_overflow(total, k, &total))
            return MPI_ERR_ARG;
        /* the blocks of a vector are alike: one tells all */
        if (t->combiner == MPI_COMBINER_VECTOR || t->combiner == MPI_COMBINER_HVECTOR) {
            if (__builtin_mul_overflow(total, n, &total)) return MPI_ERR_ARG;
            break;
        }
    }
    *out = total;
    return MPI_SUCCESS;
}

int tern_dt_rep_size(const struct tern_datatype *dt, size_t count, const struct tern_dt_rep *rep,
                     size_t *bytes)
{
    size_t one;
    int rc = rep_size(tern_dt_obj_of(dt), rep, &one);
    if (rc) return rc;
    return __builtin_mul_overflow(one, count, bytes) ? MPI_ERR_ARG : MPI_SUCCESS;
}

static int rep_type(const struct tern_dt_obj *t, const struct tern_dt_rep *rep,
                    struct tern_datatype **out);

/* t's constructor again, on the old types k (in the representation). */
static int construct(const struct tern_dt_obj *t, struct tern_datatype *const *k,
                     struct tern_datatype **out)
{
    const MPI_Count *in = t->ints;
    size_t n = t->nints ? (size_t)in[0] : 0;
    switch (t->combiner) {
    case MPI_COMBINER_CONTIGUOUS: return tern_dt_contiguous(in[0], k[0], out);
    case MPI_COMBINER_VECTOR: return tern_dt_vector(in[0], in[1], in[2], k[0], out);
    case MPI_COMBINER_HVECTOR: return tern_dt_hvector(in[0], in[1], t->addrs[0], k[0], out);
    case MPI_COMBINER_INDEXED:
        return tern_dt_indexed(in[0], (struct tern_dt_arr){NULL, in + 1},
                               (struct tern_dt_arr){NULL, in + 1 + n}, k[0], out);
    case MPI_COMBINER_HINDEXED:
        return tern_dt_hindexed(in[0], (struct tern_dt_arr){NULL, in + 1}, t->addrs, k[0], out);
    case MPI_COMBINER_INDEXED_BLOCK:
        return tern_dt_indexed_block(in[0], in[1], (struct tern_dt_arr){NULL, in + 2}, k[0], out);
    case MPI_COMBINER_HINDEXED_BLOCK:
        return tern_dt_hindexed_block(in[0], in[1], t->addrs, k[0], out);
    case MPI_COMBINER_STRUCT:
        return tern_dt_struct(in[0], (struct tern_dt_arr){NULL, in + 1}, t->addrs, k, out);
    case MPI_COMBINER_RESIZED: return tern_dt_resized(k[0], t->addrs[0], t->addrs[1], out);
    case MPI_COMBINER_SUBARRAY:
        return tern_dt_subarray(
            (int)n, (struct tern_dt_arr){NULL, in + 1}, (struct tern_dt_arr){NULL, in + 1 + n},
            (struct tern_dt_arr){NULL, in + 1 + 2 * n}, (int)in[1 + 3 * n], k[0], out);
    case MPI_COMBINER_DARRAY: {
        /* size, rank, ndims, gsizes, then distribs, dargs, psizes (ints) */
        size_t nd = (size_t)in[2];
        int *a = malloc((3 * nd + 1) * sizeof *a);
        if (!a) return MPI_ERR_NO_MEM;
        for (size_t i = 0; i < 3 * nd; i++) a[i] = (int)in[3 + nd + i];
        int rc = tern_dt_darray((int)in[0], (int)in[1], (int)nd, (struct tern_dt_arr){NULL, in + 3},
                                a, a + nd, a + 2 * nd, (int)in[3 + 4 * nd], k[0], out);
        free(a);
        return rc;
    }
    default: return MPI_ERR_TYPE; /* no other combiner has old types to rebuild */
    }
}

/* The old types in the representation, then the constructor on them; the
 * new old types lose their handles (the new type holds them). */
static int rebuild(const struct tern_dt_obj *t, const struct tern_dt_rep *rep,
                   struct tern_datatype **out)
{
    size_t nk = t->combiner == MPI_COMBINER_STRUCT ? (size_t)t->ints[0] : 1;
    if ((size_t)t->ntypes < nk) return MPI_ERR_TYPE; /* no old types: not a constructor */
    struct tern_datatype **k = calloc(nk ? nk : 1, sizeof *k);
    if (!k) return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < nk && !rc; i++) rc = rep_type(t->types[i], rep, &k[i]);
    if (!rc) rc = construct(t, k, out);
    for (size_t i = 0; i < nk; i++)
        if (k[i]) tern_dt_free_handle(k[i]);
    free(k);
    return rc;
}

/* *out: a new type with a handle (or a predefined marker). */
static int rep_type(const struct tern_dt_obj *t, const struct tern_dt_rep *rep,
                    struct tern_datatype **out)
{
    switch (t->combiner) {
    case MPI_COMBINER_NAMED: {
        if (t->pub.size == 0) {
            /* the bound markers stay markers */
            *out = (struct tern_datatype *)(uintptr_t)&t->pub;
            return MPI_SUCCESS;
        }
        size_t bytes;
        int rc = basic_of(t, rep, &bytes);
        if (rc) return rc;
        /* opaque bytes: alignment 1, as the representation has no padding */
        return tern_dt_contiguous((MPI_Count)bytes, tern_dt_get(MPI_BYTE), out);
    }
    case MPI_COMBINER_F90_INTEGER:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX: return rep_type(t->impl, rep, out);
    case MPI_COMBINER_DUP: return rep_type(t->types[0], rep, out);
    default: return rebuild(t, rep, out);
    }
}

int tern_dt_rep_type(struct tern_datatype *dt, const struct tern_dt_rep *rep,
                     struct tern_datatype **out)
{
    struct tern_datatype *t = NULL;
    int rc = rep_type(tern_dt_obj_of(dt), rep, &t);
    if (!rc && (rc = tern_dt_commit(t))) tern_dt_free_handle(t);
    if (rc) return rc;
    /* the caller's reference, with no handle the user could see */
    tern_dt_retain(t);
    tern_dt_free_handle(t);
    *out = t;
    return MPI_SUCCESS;
}
