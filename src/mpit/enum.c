/* Enumerations: a parameter whose value is one of a few words (params.def
 * TERN_CHOICES) is an MPI_INT control variable whose values are the
 * positions of the words; the enumeration names them. */
#include <stdint.h>
#include <stdio.h>

#include "core/api.h"
#include "core/params.h"
#include "mpit/mpit.h"

/* One slot per parameter, used only by those with choices: a handle's
 * address says which parameter it describes.  The enumeration has the
 * parameter's name. */
struct MPIR_T_enum_s {
    char unused;
};
static struct MPIR_T_enum_s enums[TERN_T_NPARAM];

MPI_T_enum tern_t_enum_of_param(int i)
{
    return tern_param_table[i].choices ? &enums[i] : MPI_T_ENUM_NULL;
}

/* The parameter behind an enumeration handle, or NULL when the handle is
 * not one of ours. */
static const struct tern_param_desc *lookup(MPI_T_enum e)
{
    uintptr_t a = (uintptr_t)e, first = (uintptr_t)&enums[0];
    if (a < first || a >= (uintptr_t)&enums[TERN_T_NPARAM] || (a - first) % sizeof enums[0])
        return NULL;
    int i = (int)((a - first) / sizeof enums[0]);
    return tern_param_table[i].choices ? &tern_param_table[i] : NULL;
}

static int enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    const struct tern_param_desc *p = lookup(enumtype);
    if (!p) return MPI_T_ERR_INVALID_HANDLE;
    char full[96];
    snprintf(full, sizeof full, "TERN_%s", p->name);
    TERN_T_OUT(num, tern_param_choice_count(p));
    tern_t_string(full, name, name_len);
    return MPI_SUCCESS;
}

static int enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    const struct tern_param_desc *p = lookup(enumtype);
    if (!p) return MPI_T_ERR_INVALID_HANDLE;
    if (index < 0 || index >= tern_param_choice_count(p)) return MPI_T_ERR_INVALID_ITEM;
    /* The value is what the call is for; only the name is optional. */
    if (!value) return MPI_T_ERR_INVALID;
    *value = index;
    tern_t_string(p->choices[index], name, name_len);
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_T_enum_get_info)
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    TERN_T_CALL(enum_get_info(enumtype, num, name, name_len));
}

TERN_WEAK_ALIAS(MPI_T_enum_get_item)
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    TERN_T_CALL(enum_get_item(enumtype, index, value, name, name_len));
}
