/* Categories: TERN holds all the others; each group of params.def
 * (TERN_PARAM_GROUP) is a category of control variables, each group of
 * pvar.c one of performance variables.  Members of a category are
 * consecutive indices, so a category is a range of each kind.  The set never
 * changes: MPI_T_category_changed always reports 0. */
#include <string.h>

#include "core/api.h"
#include "mpit/mpit.h"

/* The groups and parameters of params.def, in order. */
static const struct {
    const char *name, *desc; /* name NULL: a parameter */
    int verbosity;
} items[] = {
#define TERN_PARAM_GROUP(GROUP, VERBOSITY, desc) \
    {"TERN_" #GROUP, desc, MPI_T_VERBOSITY_##VERBOSITY},
#define TERN_PARAM(...) {NULL, NULL, 0},
#include "core/params.def"
#undef TERN_PARAM
#undef TERN_PARAM_GROUP
};
#define NITEMS (int)(sizeof items / sizeof items[0])
#define NGROUPS (NITEMS - TERN_T_NPARAM)

/* What a category holds, each a range of consecutive indices. */
enum member { CVARS, PVARS, SUBCATEGORIES, EVENTS, NMEMBERS };
struct range {
    int first, n;
};
struct category {
    const char *name, *desc;
    struct range of[NMEMBERS];
};

/* TERN, the parameter groups, the pvar groups. */
static struct category cats[1 + NGROUPS + TERN_T_NPVAR_GROUPS];
static int ncats;
static int param_verbosity[TERN_T_NPARAM];

static struct category *add(const char *name, const char *desc)
{
    struct category *c = &cats[ncats++];
    *c = (struct category){.name = name, .desc = desc};
    return c;
}

/* A group of performance variables named as a group of parameters (TERN_IO)
 * shares its category: a name names one category. */
static struct category *find(const char *name)
{
    for (int i = 0; i < ncats; i++)
        if (strcmp(cats[i].name, name) == 0) return &cats[i];
    return NULL;
}

static void build(void)
{
    if (ncats) return;
    struct category *root = add("TERN", "Everything Tern shows through MPI_T");
    int param = 0, verbosity = MPI_T_VERBOSITY_USER_BASIC;
    struct category *c = root;
    for (int i = 0; i < NITEMS; i++) {
        if (items[i].name) {
            c = add(items[i].name, items[i].desc);
            c->of[CVARS].first = param;
            verbosity = items[i].verbosity;
        } else {
            c->of[CVARS].n++;
            param_verbosity[param++] = verbosity;
        }
    }
    for (int g = 0; g < TERN_T_NPVAR_GROUPS; g++) {
        c = find(tern_t_pvar_groups[g].name);
        if (!c) c = add(tern_t_pvar_groups[g].name, tern_t_pvar_groups[g].desc);
        for (int i = 0; i < tern_t_npvars; i++)
            if (tern_t_pvars[i].group == g && !c->of[PVARS].n++) c->of[PVARS].first = i;
    }
    root->of[SUBCATEGORIES] = (struct range){1, ncats - 1};
}

int tern_t_param_verbosity(int i)
{
    build();
    return param_verbosity[i];
}

static const struct category *lookup(int i)
{
    build();
    return i >= 0 && i < ncats ? &cats[i] : NULL;
}

static int get_num(int *num)
{
    if (!num) return MPI_T_ERR_INVALID;
    build();
    *num = ncats;
    return MPI_SUCCESS;
}

static int get_info(int i, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                    int *num_pvars, int *num_categories)
{
    const struct category *c = lookup(i);
    if (!c) return MPI_T_ERR_INVALID_INDEX;
    tern_t_string(c->name, name, name_len);
    tern_t_string(c->desc, desc, desc_len);
    TERN_T_OUT(num_cvars, c->of[CVARS].n);
    TERN_T_OUT(num_pvars, c->of[PVARS].n);
    TERN_T_OUT(num_categories, c->of[SUBCATEGORIES].n);
    return MPI_SUCCESS;
}

static int get_index(const char *name, int *index)
{
    if (!name || !index) return MPI_T_ERR_INVALID;
    build();
    for (int i = 0; i < ncats; i++)
        if (!strcmp(name, cats[i].name)) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

/* The members of one kind: the first len of them into indices. */
static int members(int i, int len, int indices[], enum member which)
{
    const struct category *c = lookup(i);
    if (!c) return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices)) return MPI_T_ERR_INVALID;
    const struct range *r = &c->of[which];
    for (int k = 0; k < len && k < r->n; k++) indices[k] = r->first + k;
    return MPI_SUCCESS;
}

static int get_num_events(int i, int *num)
{
    const struct category *c = lookup(i);
    if (!c) return MPI_T_ERR_INVALID_INDEX;
    if (!num) return MPI_T_ERR_INVALID;
    *num = c->of[EVENTS].n; /* Tern raises no events: always 0 */
    return MPI_SUCCESS;
}

static int changed(int *update_number)
{
    if (!update_number) return MPI_T_ERR_INVALID;
    *update_number = 0;
    return MPI_SUCCESS;
}

TERN_WEAK_ALIAS(MPI_T_category_get_num)
int PMPI_T_category_get_num(int *num_cat) { TERN_T_CALL(get_num(num_cat)); }

TERN_WEAK_ALIAS(MPI_T_category_get_info)
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                             int *num_cvars, int *num_pvars, int *num_categories)
{
    TERN_T_CALL(
        get_info(cat_index, name, name_len, desc, desc_len, num_cvars, num_pvars, num_categories));
}

TERN_WEAK_ALIAS(MPI_T_category_get_index)
int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    TERN_T_CALL(get_index(name, cat_index));
}

TERN_WEAK_ALIAS(MPI_T_category_get_cvars)
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    TERN_T_CALL(members(cat_index, len, indices, CVARS));
}

TERN_WEAK_ALIAS(MPI_T_category_get_pvars)
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    TERN_T_CALL(members(cat_index, len, indices, PVARS));
}

TERN_WEAK_ALIAS(MPI_T_category_get_categories)
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    TERN_T_CALL(members(cat_index, len, indices, SUBCATEGORIES));
}

TERN_WEAK_ALIAS(MPI_T_category_get_events)
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    TERN_T_CALL(members(cat_index, len, indices, EVENTS));
}

TERN_WEAK_ALIAS(MPI_T_category_get_num_events)
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    TERN_T_CALL(get_num_events(cat_index, num_events));
}

TERN_WEAK_ALIAS(MPI_T_category_changed)
int PMPI_T_category_changed(int *update_number) { TERN_T_CALL(changed(update_number)); }
