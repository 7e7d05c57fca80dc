/* MPI_Type_create_f90_integer/real/complex: the type of Fortran's
 * SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r), as a named type of its
 * own (MPI-4.1 19.1.9).
 *
 * Each (combiner, p, r) asked for gets one object, made on first use and
 * kept until MPI_Finalize, so asking again returns the same handle.  It is
 * predefined to everything else (cannot be freed, needs no references,
 * commits as is) and has the data, bounds and reduction type of the
 * fixed-size type it stands for (impl); its envelope is the F90 combiner
 * with p and r (r alone for integers) as contents.  The kinds are those of
 * gfortran on this platform as MPICH offers them: integers of 1, 2, 4 and 8
 * bytes, reals and complexes of 4 and 8 bytes. */
#include <stdlib.h>

#include "core/attr.h"
#include "datatype/dt_internal.h"

/* The smallest kind whose limits cover the request wins. */
struct kind {
    int p, r; /* decimal precision and exponent range of the kind */
    MPI_Datatype real, complex;
};
static const struct kind real_kinds[] = {
    {6, 37, MPI_REAL4, MPI_COMPLEX8},
    {15, 307, MPI_REAL8, MPI_COMPLEX16},
};
static const struct {
    int r;
    MPI_Datatype type;
} int_kinds[] = {{2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static MPI_Datatype f90_base(int combiner, int p, int r)
{
    /* MPI_UNDEFINED (negative) asks for nothing, as an argument left out
     * of the Fortran inquiry would. */
    if (combiner == MPI_COMBINER_F90_INTEGER) {
        for (size_t i = 0; i < N_OF(int_kinds); i++)
            if (r <= int_kinds[i].r) return int_kinds[i].type;
        return MPI_DATATYPE_NULL;
    }
    for (size_t i = 0; i < N_OF(real_kinds); i++)
        if (p <= real_kinds[i].p && r <= real_kinds[i].r)
            return combiner == MPI_COMBINER_F90_REAL ? real_kinds[i].real : real_kinds[i].complex;
    return MPI_DATATYPE_NULL;
}

/* The types made so far, newest first. */
static struct f90_type {
    struct tern_dt_obj *t;
    struct f90_type *next;
} * made;

static struct tern_dt_obj *find(int combiner, int p, int r)
{
    for (struct f90_type *f = made; f; f = f->next) {
        const struct tern_dt_obj *t = f->t;
        if (t->combiner == combiner &&
            t->ints[0] == (combiner == MPI_COMBINER_F90_INTEGER ? r : p) &&
            (combiner == MPI_COMBINER_F90_INTEGER || t->ints[1] == r))
            return f->t;
    }
    return NULL;
}

static void discard(struct tern_dt_obj *t, struct f90_type *f)
{
    if (t) free(t->ints);
    free(t);
    free(f);
}

int tern_dt_f90(int combiner, int p, int r, struct tern_datatype **out)
{
    struct tern_dt_obj *t = find(combiner, p, r);
    if (t) {
        *out = &t->pub;
        return MPI_SUCCESS;
    }
    MPI_Datatype bh = f90_base(combiner, p, r);
    if (bh == MPI_DATATYPE_NULL) return MPI_ERR_ARG;
    struct tern_dt_obj *base = tern_dt_builtin_get(bh);
    int nints = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    struct f90_type *f = malloc(sizeof *f);
    t = malloc(sizeof *t);
    MPI_Count *ints = malloc((size_t)nints * sizeof *ints);
    if (!f || !t || !ints) {
        free(ints);
        discard(t, f);
        return MPI_ERR_NO_MEM;
    }
    *t = *base;            /* data, bounds, layout (static), reduction type, alignment */
    t->pub.name[0] = '\0'; /* no name, as with MPICH */
    t->pub.attrs = NULL;
    t->combiner = combiner;
    t->nints = nints;
    t->ints = ints;
    ints[0] = nints == 1 ? r : p;
    if (nints == 2) ints[1] = r;
    t->impl = base; /* one copy of it: what the walks of dt_query.c and dt_external.c see */
    int h = tern_objtab_insert(&tern_dt_table, t);
    if (!h) {
        discard(t, f);
        return MPI_ERR_NO_MEM;
    }
    t->pub.handle = h;
    f->t = t;
    f->next = made;
    made = f;
    *out = &t->pub;
    return MPI_SUCCESS;
}

void tern_dt_f90_finalize(void)
{
    while (made) {
        struct f90_type *f = made;
        made = f->next;
        tern_objtab_remove(&tern_dt_table, f->t->pub.handle);
        tern_attr_drop(&f->t->pub.attrs);
        discard(f->t, f);
    }
}
