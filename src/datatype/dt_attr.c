/* The attributes of datatypes: the datatype side of core/attr.c's object
 * hooks, and the predefined datatypes whose attributes MPI_Finalize
 * deletes (they are never freed otherwise). */
#include <stdlib.h>

#include "core/attr.h"
#include "datatype/datatype.h"

/* Predefined datatypes that carry attributes (deleted at MPI_Finalize). */
static struct tern_datatype **pre_types;
static int n_pre_types, cap_pre_types;

int tern_attr_type_copy(struct tern_datatype *old, struct tern_datatype *nt)
{
    return tern_attr_copy(&old->attrs, old->handle, &nt->attrs, nt->handle);
}

int tern_attr_type_free(struct tern_datatype *dt)
{
    return tern_attr_delete_all(&dt->attrs, dt->handle);
}

int tern_attr_note_predefined_type(struct tern_datatype *dt)
{
    for (int i = 0; i < n_pre_types; i++)
        if (pre_types[i] == dt) return MPI_SUCCESS;
    if (n_pre_types == cap_pre_types) {
        int cap = cap_pre_types ? 2 * cap_pre_types : 8;
        struct tern_datatype **p = realloc(pre_types, (size_t)cap * sizeof *p);
        if (!p) return MPI_ERR_NO_MEM;
        pre_types = p;
        cap_pre_types = cap;
    }
    pre_types[n_pre_types++] = dt;
    return MPI_SUCCESS;
}

void tern_attr_type_finalize_callbacks(void)
{
    for (int i = 0; i < n_pre_types; i++)
        tern_attr_delete_all(&pre_types[i]->attrs, pre_types[i]->handle);
    free(pre_types);
    pre_types = NULL;
    n_pre_types = cap_pre_types = 0;
}
