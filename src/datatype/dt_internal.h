/* Private to src/datatype: the objects behind struct tern_datatype and the
 * compiled layout.
 *
 * Every datatype, predefined or created, is a struct tern_dt_obj whose first
 * member is the public struct tern_datatype, so the two pointers convert.
 *
 * Layout: one element of the type is a loop nest.  The innermost unit is a
 * list of (displacement, length) blocks in typemap order, adjacent blocks
 * merged; up to TERN_DT_LEVELS levels of repetition (count, stride) wrap it,
 * innermost first.  A vector is one block and one level however long it
 * is, a vector of vectors one block and two levels; only the members of a
 * struct or an indexed type of unlike blocks are spelled out block by
 * block. */
#ifndef TERN_DATATYPE_DT_INTERNAL_H
#define TERN_DATATYPE_DT_INTERNAL_H

#include <stdint.h>

#include "core/handle.h"
#include "datatype/datatype.h"

struct tern_dt_layout {
    size_t nblocks; /* blocks in one unit (0: no data) */
    size_t unit;    /* data bytes in one unit */
    struct tern_dt_block *blocks;
    size_t *prefix; /* prefix[i]: bytes of blocks[0..i-1]; nblocks + 1 */
    int nlevels;    /* repetitions of the unit, innermost first */
    struct tern_dt_level level[TERN_DT_LEVELS];
    int is_static; /* predefined: not allocated */
};

struct tern_dt_obj {
    struct tern_datatype pub; /* first member */
    int urefs;                /* user handles (MPI_Type_free drops one) */
    int pins;                 /* pending operations that still hand out the handle */
    int combiner;             /* MPI_COMBINER_* */
    /* The constructor's arguments in the order of its int form's
     * MPI_Type_get_contents, integers widened (one record serves the int
     * and the large-count constructors). */
    int large; /* made by a large-count (_c) constructor */
    int nints, naddrs, ntypes;
    MPI_Count *ints;
    MPI_Aint *addrs;
    struct tern_dt_obj **types; /* each holds a reference */
    /* subarray, darray: the equivalent type built from the others; it gives
     * the bounds, the layout and the element walks (holds a reference) */
    struct tern_dt_obj *impl;
    /* bounds bookkeeping: the typemap holds explicit lb/ub markers (MPI_LB,
     * MPI_UB, or a resized type inside) */
    int sticky_lb, sticky_ub;
    size_t align;  /* largest alignment of a basic type inside */
    size_t nelems; /* basic elements in one element */
};

static inline struct tern_dt_obj *tern_dt_obj_of(const struct tern_datatype *d)
{
    return (struct tern_dt_obj *)(uintptr_t)d;
}

extern struct tern_objtab tern_dt_table;

/* predefined types (dt_builtin.c) */
struct tern_dt_obj *tern_dt_builtin_get(MPI_Datatype h);
void tern_dt_builtin_reset_names(void);

/* layout compiler (dt_layout.c): builds dt->pub.layout when missing (any
 * type, committed or not); MPI_SUCCESS or MPI_ERR_NO_MEM */
int tern_dt_layout_build(struct tern_dt_obj *t);
void tern_dt_layout_free(struct tern_dt_layout *l);

/* A type recorded as combiner(ints..., old) whose data and bounds are those
 * of impl (subarray, darray: dt_array.c builds impl from the other
 * constructors).  The new type references both. */
int tern_dt_wrap(int combiner, const MPI_Count ints[], size_t nints, struct tern_datatype *old,
                 struct tern_datatype *impl, struct tern_datatype **out);

/* The type a FORM_COPIES type is copies of: impl when there is one. */
static inline const struct tern_dt_obj *tern_dt_copied(const struct tern_dt_obj *t)
{
    return t->impl ? t->impl : t->types[0];
}

/* A derived type as a list of blocks, each 'bl' copies of a type 'c'
 * (extent apart) from byte displacement 'disp': a vector's blocks, an
 * indexed type's or a struct's; one block for contiguous, resized, dup,
 * subarray and darray (dt_query.c). */
size_t tern_dt_nblocks(const struct tern_dt_obj *t);
void tern_dt_block(const struct tern_dt_obj *t, size_t i, const struct tern_dt_obj **c, size_t *bl,
                   MPI_Aint *disp);

/* frees the MPI_Type_create_f90_* types (dt_f90.c), at finalize */
void tern_dt_f90_finalize(void);

/* destroys a created type whose last reference went (datatype.c) */
void tern_dt_destroy(struct tern_dt_obj *t);

/* An address computed from a base and a displacement without pointer
 * arithmetic on a possibly null base (MPI_BOTTOM with absolute addresses). */
static inline char *tern_dt_at(const void *buf, MPI_Aint disp)
{
    return (char *)((uintptr_t)buf + (uintptr_t)disp);
}

/* A place in the loop nest of a view: which unit, block b of it, boff
 * bytes into the block (dt_pack.c). */
struct tern_dt_pos {
    size_t idx[TERN_DT_LEVELS + 1]; /* the unit: its index at each level */
    size_t b, boff;
};
void tern_dt_pos_seek(const struct tern_dt_view *v, size_t offset, struct tern_dt_pos *at);
/* Where the current unit starts, from the view's base. */
static inline MPI_Aint tern_dt_pos_unit(const struct tern_dt_view *v, const struct tern_dt_pos *at)
{
    MPI_Aint off = 0;
    for (int k = 0; k < v->nlevels; k++) off += (MPI_Aint)at->idx[k] * v->level[k].stride;
    return off;
}
/* k units on (k never carries past the innermost level's end more than once). */
static inline void tern_dt_pos_advance(const struct tern_dt_view *v, struct tern_dt_pos *at,
                                       size_t k)
{
    at->idx[0] += k;
    for (int l = 0; l < v->nlevels && at->idx[l] == v->level[l].count; l++) {
        at->idx[l] = 0;
        if (l + 1 < v->nlevels) at->idx[l + 1]++;
    }
}

/* Iterates over the contiguous pieces of (count elements of) a type, as
 * offsets from the buffer, in packed order (dt_pack.c). */
struct tern_dt_segs {
    struct tern_dt_view v;
    struct tern_dt_pos at;
    size_t left;
};
void tern_dt_segs_init(struct tern_dt_segs *it, const struct tern_datatype *dt, size_t count);
/* Next piece; returns 0 at the end. */
int tern_dt_segs_next(struct tern_dt_segs *it, MPI_Aint *off, size_t *len);

#endif
