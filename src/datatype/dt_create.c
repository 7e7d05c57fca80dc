/* Type constructors: size, bounds, basic type and the constructor record.
 *
 * Nothing is flattened here: a new type records its constructor's arguments
 * (as MPI_Type_get_contents returns them) and references its old types; its
 * layout is compiled on commit (dt_layout.c).  Bounds follow the typemap
 * rules of the standard, computed in closed form over the copies of each
 * old type, so a vector of a billion elements costs nothing here:
 *
 *   lb = the least explicit lower-bound marker if the typemap has one (MPI_LB,
 *        or a resized type inside), otherwise the least lb of the copies;
 *   ub = likewise with upper bounds;
 *   a bound with neither markers nor data is 0;
 *   a struct without markers is padded so its extent is a multiple of the
 *   largest alignment of its basic types (the C compiler's struct rule);
 *   true bounds cover the data bytes only. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/dt_internal.h"

struct acc {
    int have_lbm, have_ubm, have_lb, have_ub, have_true;
    MPI_Aint lbm, ubm, lb, ub, tlb, tub;
    size_t size, nelems, align;
    int basic_state; /* 0: none yet, 1: one basic type, 2: mixed */
    MPI_Datatype basic;
    size_t basic_count;
    int have_zero;
    MPI_Datatype zero_basic; /* of an old type used zero times */
    int overflow;
};

static MPI_Aint amin(MPI_Aint a, MPI_Aint b) { return a < b ? a : b; }
static MPI_Aint amax(MPI_Aint a, MPI_Aint b) { return a > b ? a : b; }

/* x*y (mul) or x+y; an overflow marks the accumulation instead of wrapping. */
static size_t arith_sz(struct acc *a, size_t x, size_t y, int mul)
{
    size_t r;
    if (mul ? __builtin_mul_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r)) {
        a->overflow = 1;
        return 0;
    }
    return r;
}

static size_t mul_sz(struct acc *a, size_t x, size_t y) { return arith_sz(a, x, y, 1); }
static size_t add_sz(struct acc *a, size_t x, size_t y) { return arith_sz(a, x, y, 0); }

/* The same for displacements (signed). */
static MPI_Aint arith_a(struct acc *a, MPI_Aint x, MPI_Aint y, int mul)
{
    MPI_Aint r;
    if (mul ? __builtin_mul_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r)) {
        a->overflow = 1;
        return 0;
    }
    return r;
}

static MPI_Aint mul_a(struct acc *a, MPI_Aint x, MPI_Aint y) { return arith_a(a, x, y, 1); }
static MPI_Aint add_a(struct acc *a, MPI_Aint x, MPI_Aint y) { return arith_a(a, x, y, 0); }

/* n copies of c whose displacements lie in [dmin, dmax] (both reached). */
static void acc_copies(struct acc *a, const struct tern_dt_obj *c, size_t n, MPI_Aint dmin,
                       MPI_Aint dmax)
{
    const struct tern_datatype *p = &c->pub;
    /* basic type: types without data and without a basic type (markers,
     * empty structs) do not count; nor do types used zero times, unless
     * nothing else decides (MPI_Type_contiguous(0, MPI_INT) is of MPI_INT) */
    if (n == 0 || p->size == 0) {
        if (!a->have_zero || a->zero_basic == MPI_DATATYPE_NULL) a->zero_basic = p->basic;
        a->have_zero = 1;
    } else {
        if (p->basic == MPI_DATATYPE_NULL) {
            a->basic_state = 2;
        } else if (a->basic_state == 0) {
            a->basic_state = 1;
            a->basic = p->basic;
            a->basic_count = mul_sz(a, n, p->basic_count);
        } else if (a->basic_state == 1 && a->basic == p->basic) {
            a->basic_count = add_sz(a, a->basic_count, mul_sz(a, n, p->basic_count));
        } else {
            a->basic_state = 2;
        }
    }
    if (n == 0) return;
    if (c->align > a->align) a->align = c->align;
    a->size = add_sz(a, a->size, mul_sz(a, n, p->size));
    a->nelems = add_sz(a, a->nelems, mul_sz(a, n, c->nelems));
    MPI_Aint lo = add_a(a, dmin, p->lb), hi = add_a(a, dmax, p->ub);
    if (c->sticky_lb) {
        a->lbm = a->have_lbm ? amin(a->lbm, lo) : lo;
        a->have_lbm = 1;
    } else if (p->size > 0) {
        a->lb = a->have_lb ? amin(a->lb, lo) : lo;
        a->have_lb = 1;
    }
    if (c->sticky_ub) {
        a->ubm = a->have_ubm ? amax(a->ubm, hi) : hi;
        a->have_ubm = 1;
    } else if (p->size > 0) {
        a->ub = a->have_ub ? amax(a->ub, hi) : hi;
        a->have_ub = 1;
    }
    if (p->size > 0) {
        MPI_Aint tlo = add_a(a, dmin, p->true_lb), thi = add_a(a, dmax, p->true_ub);
        a->tlb = a->have_true ? amin(a->tlb, tlo) : tlo;
        a->tub = a->have_true ? amax(a->tub, thi) : thi;
        a->have_true = 1;
    }
}

/* bl consecutive copies of c starting at disp */
static void acc_block(struct acc *a, const struct tern_dt_obj *c, size_t bl, MPI_Aint disp)
{
    MPI_Aint span = bl ? mul_a(a, (MPI_Aint)(bl - 1), c->pub.extent) : 0;
    acc_copies(a, c, bl, add_a(a, disp, amin(0, span)), add_a(a, disp, amax(0, span)));
}

static void acc_finish(struct acc *a, struct tern_dt_obj *t, int pad)
{
    struct tern_datatype *p = &t->pub;
    MPI_Aint lb, ub;
    int has_lb = a->have_lbm || a->have_lb, has_ub = a->have_ubm || a->have_ub;
    lb = a->have_lbm ? a->lbm : a->lb;
    ub = a->have_ubm ? a->ubm : a->ub;
    /* a side with neither a marker nor data is 0 (the empty maximum or
     * minimum, as MPICH has it): {(lb, 10)} alone has extent -10 */
    if (!has_lb) lb = 0;
    if (!has_ub) ub = 0;
    if (pad && !a->have_lbm && !a->have_ubm && a->align > 1 && ub > lb) {
        MPI_Aint al = (MPI_Aint)a->align, ext = ub - lb;
        MPI_Aint rem = ext % al;
        if (rem) ub += al - rem;
    }
    p->lb = lb;
    p->ub = ub;
    p->extent = ub - lb;
    p->true_lb = a->have_true ? a->tlb : 0;
    p->true_ub = a->have_true ? a->tub : 0;
    p->size = a->size;
    p->basic = a->basic_state == 1                   ? a->basic
               : a->basic_state == 0 && a->have_zero ? a->zero_basic
                                                     : MPI_DATATYPE_NULL;
    p->basic_count = a->basic_state == 1 ? a->basic_count : 0;
    t->sticky_lb = a->have_lbm;
    t->sticky_ub = a->have_ubm;
    t->align = a->align ? a->align : 1;
    t->nelems = a->nelems;
}

/* The record's array lengths must fit the ints of MPI_Type_get_envelope;
 * a constructor whose record would not (indexed with a billion blocks) is
 * refused as out of memory. */
static struct tern_dt_obj *dt_alloc(int combiner, size_t nints, size_t naddrs, size_t ntypes)
{
    if (nints > INT_MAX || naddrs > INT_MAX || ntypes > INT_MAX) return NULL;
    struct tern_dt_obj *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->combiner = combiner;
    t->nints = (int)nints;
    t->naddrs = (int)naddrs;
    t->ntypes = (int)ntypes;
    if ((nints && !(t->ints = malloc(nints * sizeof(MPI_Count)))) ||
        (naddrs && !(t->addrs = malloc(naddrs * sizeof(MPI_Aint)))) ||
        (ntypes && !(t->types = calloc(ntypes, sizeof(struct tern_dt_obj *))))) {
        free(t->ints);
        free(t->addrs);
        free(t->types);
        free(t);
        return NULL;
    }
    return t;
}

static void dt_discard(struct tern_dt_obj *t)
{
    for (int i = 0; i < t->ntypes; i++)
        if (t->types[i]) tern_dt_release(&t->types[i]->pub);
    if (t->impl) tern_dt_release(&t->impl->pub);
    free(t->ints);
    free(t->addrs);
    free(t->types);
    free(t);
}

static void set_type(struct tern_dt_obj *t, int i, struct tern_datatype *old)
{
    tern_dt_retain(old);
    t->types[i] = tern_dt_obj_of(old);
}

/* Gives t its handle and one user reference. */
static int dt_publish(struct tern_dt_obj *t, struct acc *a, int pad, struct tern_datatype **out)
{
    if (a->overflow) {
        dt_discard(t);
        return MPI_ERR_ARG;
    }
    acc_finish(a, t, pad);
    t->pub.refcount = 1;
    t->urefs = 1;
    int h = tern_objtab_insert(&tern_dt_table, t);
    if (!h) {
        dt_discard(t);
        return MPI_ERR_NO_MEM;
    }
    t->pub.handle = h;
    *out = &t->pub;
    return MPI_SUCCESS;
}

void tern_dt_mark_large(struct tern_datatype *dt) { tern_dt_obj_of(dt)->large = 1; }

/* count blocks of bl elements, 'stride' bytes apart */
static void acc_hvector(struct acc *a, const struct tern_dt_obj *c, size_t count, size_t bl,
                        MPI_Aint stride)
{
    MPI_Aint span = count ? mul_a(a, (MPI_Aint)(count - 1), stride) : 0;
    MPI_Aint espan = bl ? mul_a(a, (MPI_Aint)(bl - 1), c->pub.extent) : 0;
    size_t n = mul_sz(a, count, bl);
    acc_copies(a, c, n, add_a(a, amin(0, span), amin(0, espan)),
               add_a(a, amax(0, span), amax(0, espan)));
}

int tern_dt_contiguous(MPI_Count count, struct tern_datatype *old, struct tern_datatype **out)
{
    struct tern_dt_obj *t = dt_alloc(MPI_COMBINER_CONTIGUOUS, 1, 0, 1);
    if (!t) return MPI_ERR_NO_MEM;
    t->ints[0] = count;
    set_type(t, 0, old);
    struct acc a = {0};
    acc_hvector(&a, tern_dt_obj_of(old), (size_t)count, 1, old->extent);
    return dt_publish(t, &a, 0, out);
}

static int make_vector(int combiner, MPI_Count count, MPI_Count bl, MPI_Count stride,
                       struct tern_datatype *old, struct tern_datatype **out)
{
    int hv = combiner == MPI_COMBINER_HVECTOR;
    struct tern_dt_obj *t = dt_alloc(combiner, hv ? 2 : 3, hv ? 1 : 0, 1);
    if (!t) return MPI_ERR_NO_MEM;
    t->ints[0] = count;
    t->ints[1] = bl;
    if (hv)
        t->addrs[0] = stride;
    else
        t->ints[2] = stride;
    set_type(t, 0, old);
    struct acc a = {0};
    MPI_Aint stride_bytes = hv ? stride : mul_a(&a, stride, old->extent);
    acc_hvector(&a, tern_dt_obj_of(old), (size_t)count, (size_t)bl, stride_bytes);
    return dt_publish(t, &a, 0, out);
}

int tern_dt_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                   struct tern_datatype *old, struct tern_datatype **out)
{
    return make_vector(MPI_COMBINER_VECTOR, count, blocklength, stride, old, out);
}

int tern_dt_hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                    struct tern_datatype *old, struct tern_datatype **out)
{
    return make_vector(MPI_COMBINER_HVECTOR, count, blocklength, stride, old, out);
}

/* The indexed family, one body: the record is (count, blocklength(s),
 * integer displacements) in ints and byte displacements in addrs, as the
 * int forms of MPI_Type_get_contents list them. */
static int make_indexed(int combiner, MPI_Count count, struct tern_dt_arr bls, MPI_Count bl,
                        struct tern_dt_arr idispls, const MPI_Aint adispls[],
                        struct tern_datatype *old, struct tern_datatype **out)
{
    size_t n = (size_t)count;
    int one_bl = combiner == MPI_COMBINER_INDEXED_BLOCK || combiner == MPI_COMBINER_HINDEXED_BLOCK;
    size_t nbl = one_bl ? 1 : n, nid = adispls ? 0 : n;
    struct tern_dt_obj *t = dt_alloc(combiner, 1 + nbl + nid, adispls ? n : 0, 1);
    if (!t) return MPI_ERR_NO_MEM;
    t->ints[0] = count;
    if (one_bl) t->ints[1] = bl;
    struct acc a = {0};
    struct tern_dt_obj *c = tern_dt_obj_of(old);
    for (size_t i = 0; i < n; i++) {
        MPI_Count b = one_bl ? bl : tern_dt_arr_at(bls, i);
        MPI_Aint d;
        if (!one_bl) t->ints[1 + i] = b;
        if (adispls) {
            d = t->addrs[i] = adispls[i];
        } else {
            MPI_Count id = t->ints[1 + nbl + i] = tern_dt_arr_at(idispls, i);
            d = mul_a(&a, id, old->extent);
        }
        acc_block(&a, c, (size_t)b, d);
    }
    if (n == 0) acc_copies(&a, c, 0, 0, 0);
    set_type(t, 0, old);
    return dt_publish(t, &a, 0, out);
}

static const struct tern_dt_arr NO_ARR = {NULL, NULL};

int tern_dt_indexed(MPI_Count count, struct tern_dt_arr blocklengths, struct tern_dt_arr displs,
                    struct tern_datatype *old, struct tern_datatype **out)
{
    return make_indexed(MPI_COMBINER_INDEXED, count, blocklengths, 0, displs, NULL, old, out);
}

int tern_dt_hindexed(MPI_Count count, struct tern_dt_arr blocklengths, const MPI_Aint displs[],
                     struct tern_datatype *old, struct tern_datatype **out)
{
    return make_indexed(MPI_COMBINER_HINDEXED, count, blocklengths, 0, NO_ARR, displs, old, out);
}

int tern_dt_indexed_block(MPI_Count count, MPI_Count blocklength, struct tern_dt_arr displs,
                          struct tern_datatype *old, struct tern_datatype **out)
{
    return make_indexed(MPI_COMBINER_INDEXED_BLOCK, count, NO_ARR, blocklength, displs, NULL, old,
                        out);
}

int tern_dt_hindexed_block(MPI_Count count, MPI_Count blocklength, const MPI_Aint displs[],
                           struct tern_datatype *old, struct tern_datatype **out)
{
    return make_indexed(MPI_COMBINER_HINDEXED_BLOCK, count, NO_ARR, blocklength, NO_ARR, displs,
                        old, out);
}

int tern_dt_struct(MPI_Count count, struct tern_dt_arr blocklengths, const MPI_Aint displs[],
                   struct tern_datatype *const types[], struct tern_datatype **out)
{
    size_t n = (size_t)count;
    struct tern_dt_obj *t = dt_alloc(MPI_COMBINER_STRUCT, 1 + n, n, n);
    if (!t) return MPI_ERR_NO_MEM;
    t->ints[0] = count;
    struct acc a = {0};
    for (size_t i = 0; i < n; i++) {
        t->ints[1 + i] = tern_dt_arr_at(blocklengths, i);
        t->addrs[i] = displs[i];
        set_type(t, (int)i, types[i]);
        acc_block(&a, t->types[i], (size_t)t->ints[1 + i], displs[i]);
    }
    return dt_publish(t, &a, 1, out);
}

int tern_dt_resized(struct tern_datatype *old, MPI_Aint lb, MPI_Aint extent,
                    struct tern_datatype **out)
{
    struct tern_dt_obj *t = dt_alloc(MPI_COMBINER_RESIZED, 0, 2, 1);
    if (!t) return MPI_ERR_NO_MEM;
    t->addrs[0] = lb;
    t->addrs[1] = extent;
    set_type(t, 0, old);
    struct acc a = {0};
    acc_copies(&a, tern_dt_obj_of(old), 1, 0, 0);
    /* explicit bounds, as markers would give */
    a.have_lbm = a.have_ubm = 1;
    a.lbm = lb;
    a.ubm = add_a(&a, lb, extent);
    return dt_publish(t, &a, 0, out);
}

/* One copy of c with c's bounds (markers stay markers). */
static void acc_same(struct acc *a, const struct tern_dt_obj *c)
{
    acc_copies(a, c, 1, 0, 0);
    a->have_lbm = c->sticky_lb;
    a->have_ubm = c->sticky_ub;
    a->lbm = a->lb = c->pub.lb;
    a->ubm = a->ub = c->pub.ub;
    a->have_lb = a->have_ub = 1;
}

int tern_dt_dup(struct tern_datatype *old, struct tern_datatype **out)
{
    struct tern_dt_obj *t = dt_alloc(MPI_COMBINER_DUP, 0, 0, 1);
    if (!t) return MPI_ERR_NO_MEM;
    set_type(t, 0, old);
    struct acc a = {0};
    acc_same(&a, tern_dt_obj_of(old));
    int rc = dt_publish(t, &a, 0, out);
    if (rc == MPI_SUCCESS && old->committed) {
        rc = tern_dt_commit(*out);
        if (rc) {
            tern_dt_free_handle(*out);
            *out = NULL;
        }
    }
    return rc;
}

int tern_dt_wrap(int combiner, const MPI_Count ints[], size_t nints, struct tern_datatype *old,
                 struct tern_datatype *impl, struct tern_datatype **out)
{
    struct tern_dt_obj *t = dt_alloc(combiner, nints, 0, 1);
    if (!t) return MPI_ERR_NO_MEM;
    memcpy(t->ints, ints, nints * sizeof *ints);
    set_type(t, 0, old);
    tern_dt_retain(impl);
    t->impl = tern_dt_obj_of(impl);
    struct acc a = {0};
    acc_same(&a, t->impl);
    return dt_publish(t, &a, 0, out);
}
