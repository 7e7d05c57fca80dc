/* Datatype objects: lookup, argument checks, references, commit, free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/errors.h"
#include "datatype/dt_internal.h"

/* Created datatypes; indices 0..15 are MPICH's (the pair types use 0..4). */
struct tern_objtab tern_dt_table = {.kind = TERN_KIND_DATATYPE, .first_index = 16};

struct tern_datatype *tern_dt_get(MPI_Datatype h)
{
    if (tern_handle_tier(h) == TERN_TIER_CREATED && tern_handle_index(h) >= 16u)
        return (struct tern_datatype *)tern_objtab_lookup(&tern_dt_table, h);
    struct tern_dt_obj *t = tern_dt_builtin_get(h);
    return t ? &t->pub : NULL;
}

const char *tern_dt_label(const struct tern_datatype *dt, char *buf, size_t len)
{
    if (dt->predefined && dt->name[0]) return dt->name; /* the f90 types have none */
    if (dt->name[0])
        snprintf(buf, len, "%s (0x%x)", dt->name, (unsigned)dt->handle);
    else
        snprintf(buf, len, "0x%x", (unsigned)dt->handle);
    return buf;
}

int tern_dt_check_valid(MPI_Datatype h, const char *fn, const char *argname,
                        struct tern_datatype **out)
{
    if (h == MPI_DATATYPE_NULL)
        return tern_err_make(MPI_ERR_TYPE, "%s: %s is MPI_DATATYPE_NULL", fn, argname);
    struct tern_datatype *dt = tern_dt_get(h);
    if (!dt) {
        if (tern_handle_kind(h) != TERN_KIND_DATATYPE)
            return tern_err_make(MPI_ERR_TYPE, "%s: %s=0x%x is not a datatype handle", fn, argname,
                                 (unsigned)h);
        return tern_err_make(MPI_ERR_TYPE,
                             "%s: %s=0x%x is not a valid datatype (never created, or freed)", fn,
                             argname, (unsigned)h);
    }
    *out = dt;
    return MPI_SUCCESS;
}

int tern_dt_check(MPI_Datatype h, const char *fn, const char *argname, struct tern_datatype **out)
{
    struct tern_datatype *dt;
    if (__builtin_expect(tern_handle_tier(h) == TERN_TIER_BUILTIN, 1)) {
        struct tern_dt_obj *t = tern_dt_builtin_get(h);
        if (__builtin_expect(t != NULL, 1)) {
            *out = &t->pub;
            return MPI_SUCCESS;
        }
    }
    int rc = tern_dt_check_valid(h, fn, argname, &dt);
    if (rc) return rc;
    if (!dt->committed) {
        char lbl[MPI_MAX_OBJECT_NAME + 24];
        return tern_err_make(MPI_ERR_TYPE,
                             "%s: %s %s has not been committed (call MPI_Type_commit first)", fn,
                             argname, tern_dt_label(dt, lbl, sizeof lbl));
    }
    *out = dt;
    return MPI_SUCCESS;
}

void tern_dt_retain(struct tern_datatype *dt)
{
    if (dt && !dt->predefined) dt->refcount++;
}

void tern_dt_release(struct tern_datatype *dt)
{
    if (!dt || dt->predefined) return;
    if (--dt->refcount > 0) return;
    tern_dt_destroy(tern_dt_obj_of(dt));
}

void tern_dt_destroy(struct tern_dt_obj *t)
{
    /* The handle normally died at MPI_Type_free; not when finalize drops a
     * type the user never freed. */
    if (t->urefs > 0 && tern_objtab_lookup(&tern_dt_table, t->pub.handle) == t)
        tern_objtab_remove(&tern_dt_table, t->pub.handle);
    for (int i = 0; i < t->ntypes; i++) tern_dt_release(&t->types[i]->pub);
    if (t->impl) tern_dt_release(&t->impl->pub);
    tern_attr_drop(&t->pub.attrs); /* [attr] only a type never freed has any left */
    tern_dt_layout_free(t->pub.layout);
    free(t->ints);
    free(t->addrs);
    free(t->types);
    free(t);
}

void tern_dt_free_handle(struct tern_datatype *dt)
{
    struct tern_dt_obj *t = tern_dt_obj_of(dt);
    if (dt->predefined) return;
    if (--t->urefs == 0 && t->pins == 0 && tern_objtab_lookup(&tern_dt_table, dt->handle) == t)
        tern_objtab_remove(&tern_dt_table, dt->handle);
    tern_dt_release(dt);
}

void tern_dt_pin_handle(struct tern_datatype *dt)
{
    if (!dt || dt->predefined) return;
    tern_dt_obj_of(dt)->pins++;
    tern_dt_retain(dt);
}

void tern_dt_unpin_handle(struct tern_datatype *dt)
{
    if (!dt || dt->predefined) return;
    struct tern_dt_obj *t = tern_dt_obj_of(dt);
    if (--t->pins == 0 && t->urefs == 0 && tern_objtab_lookup(&tern_dt_table, dt->handle) == t)
        tern_objtab_remove(&tern_dt_table, dt->handle);
    tern_dt_release(dt);
}

int tern_dt_user_held(const struct tern_datatype *dt)
{
    return dt->predefined || tern_dt_obj_of(dt)->urefs > 0;
}

/* contig: count elements are one run of count * size bytes at true_lb. */
static int is_contig(const struct tern_datatype *dt)
{
    const struct tern_dt_layout *l = dt->layout;
    if ((MPI_Aint)dt->size != dt->extent) return 0;
    if (dt->size == 0) return 1;
    return l->nblocks == 1 && l->nlevels == 0 && l->blocks[0].len == dt->size &&
           l->blocks[0].disp == dt->true_lb;
}

int tern_dt_commit(struct tern_datatype *dt)
{
    if (dt->committed) return MPI_SUCCESS;
    int rc = tern_dt_layout_build(tern_dt_obj_of(dt));
    if (rc) return rc;
    dt->contig = is_contig(dt);
    dt->committed = 1;
    return MPI_SUCCESS;
}

int tern_datatypes_init(void) { return MPI_SUCCESS; }

static void drop_type(void *obj, void *arg)
{
    (void)arg;
    struct tern_dt_obj *t = obj;
    /* Drop the user's handles; the object goes when nothing else holds it
     * (types are freed parents first, whatever their order in the table). */
    tern_objtab_remove(&tern_dt_table, t->pub.handle);
    t->pub.refcount -= t->urefs - 1;
    t->urefs = 0;
    tern_dt_release(&t->pub);
}

void tern_datatypes_finalize(void)
{
    tern_dt_f90_finalize(); /* predefined to drop_type: never released */
    tern_objtab_foreach(&tern_dt_table, drop_type, NULL);
    tern_objtab_destroy(&tern_dt_table);
    tern_dt_builtin_reset_names();
}
