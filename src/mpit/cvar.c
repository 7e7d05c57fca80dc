/* Control variables: one per parameter of src/core/params.def, named as
 * tern-info names it (TERN_<NAME>), in the same order.
 *
 *   BOOL, INT           MPI_INT
 *   SIZE                MPI_UNSIGNED_LONG_LONG
 *   STRING with choices MPI_INT, the position of the word in its enumeration
 *   other STRING        MPI_CHAR, TERN_T_STRING_MAX characters with the null
 *
 * The SET column of params.def decides writing: RUNTIME parameters are
 * read where they are used and may change at any time; the others are read
 * once by MPI_Init (or the first session), so they can be set before it and
 * never after (MPI_T_ERR_CVAR_SET_NEVER: MPI cannot be initialised again).
 * Their scope says so: MPI_T_SCOPE_LOCAL or MPI_T_SCOPE_ALL_EQ while a
 * write can still take effect, MPI_T_SCOPE_READONLY from then on, so a tool
 * that writes what the scope calls writable and reads it back is never
 * refused.  READONLY rather than CONSTANT: the variable did change earlier
 * in the process. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/api.h"
#include "core/params.h"
#include "core/state.h"
#include "mpit/mpit.h"

#define TERN_T_STRING_MAX 256

struct MPIR_T_cvar_handle_s {
    struct MPIR_T_cvar_handle_s *next;
    int index;
};
static struct MPIR_T_cvar_handle_s *handles;
/* Values of plain STRING parameters written through MPI_T. */
static char *written_strings[TERN_T_NPARAM];

static int valid_index(int i) { return i >= 0 && i < tern_param_count; }

/* Whether a write to p can still take effect. */
static int writable_now(const struct tern_param_desc *p)
{
    return p->set == TERN_PARAM_SET_RUNTIME || tern_g.init_state == TERN_STATE_NONE;
}

static int scope_of(const struct tern_param_desc *p)
{
    if (!writable_now(p)) return MPI_T_SCOPE_READONLY;
    return p->set == TERN_PARAM_SET_INIT_ALL_EQ ? MPI_T_SCOPE_ALL_EQ : MPI_T_SCOPE_LOCAL;
}

static MPI_Datatype datatype_of(const struct tern_param_desc *p)
{
    switch (p->type) {
    case TERN_PARAM_SIZE: return MPI_UNSIGNED_LONG_LONG;
    case TERN_PARAM_STRING: return p->choices ? MPI_INT : MPI_CHAR;
    default: return MPI_INT;
    }
}

static int cvar_get_num(int *num)
{
    if (!num) return MPI_T_ERR_INVALID;
    *num = tern_param_count;
    return MPI_SUCCESS;
}

static int cvar_get_info(int i, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    if (!valid_index(i)) return MPI_T_ERR_INVALID_INDEX;
    const struct tern_param_desc *p = &tern_param_table[i];
    char full[96];
    snprintf(full, sizeof full, "TERN_%s", p->name);
    tern_t_string(full, name, name_len);
    TERN_T_OUT(verbosity, tern_t_param_verbosity(i));
    TERN_T_OUT(datatype, datatype_of(p));
    TERN_T_OUT(enumtype, tern_t_enum_of_param(i));
    tern_t_string(p->description, desc, desc_len);
    TERN_T_OUT(bind, MPI_T_BIND_NO_OBJECT);
    TERN_T_OUT(scope, scope_of(p));
    return MPI_SUCCESS;
}

static int cvar_get_index(const char *name, int *index)
{
    if (!name || !index) return MPI_T_ERR_INVALID;
    if (strncmp(name, "TERN_", 5)) return MPI_T_ERR_INVALID_NAME;
    for (int i = 0; i < tern_param_count; i++)
        if (!strcmp(name + 5, tern_param_table[i].name)) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

static int handle_alloc(int i, MPI_T_cvar_handle *handle, int *count)
{
    if (!valid_index(i)) return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count) return MPI_T_ERR_INVALID;
    /* Bound to no object: obj_handle is ignored, as the standard says. */
    struct MPIR_T_cvar_handle_s *h = malloc(sizeof *h);
    if (!h) return MPI_T_ERR_MEMORY;
    h->index = i;
    h->next = handles;
    handles = h;
    *handle = h;
    *count = datatype_of(&tern_param_table[i]) == MPI_CHAR ? TERN_T_STRING_MAX : 1;
    return MPI_SUCCESS;
}

/* The parameter of a live handle, or NULL. */
static struct tern_param_desc *lookup(MPI_T_cvar_handle h)
{
    for (struct MPIR_T_cvar_handle_s *x = handles; x; x = x->next)
        if (x == h) return &tern_param_table[x->index];
    return NULL;
}

static int handle_free(MPI_T_cvar_handle *handle)
{
    if (!handle) return MPI_T_ERR_INVALID;
    for (struct MPIR_T_cvar_handle_s **pp = &handles; *pp; pp = &(*pp)->next)
        if (*pp == *handle) {
            *pp = (*handle)->next;
            free(*handle);
            *handle = MPI_T_CVAR_HANDLE_NULL;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_HANDLE;
}

static int cvar_read(MPI_T_cvar_handle h, void *buf)
{
    const struct tern_param_desc *p = lookup(h);
    if (!p) return MPI_T_ERR_INVALID_HANDLE;
    if (!buf) return MPI_T_ERR_INVALID;
    if (p->type == TERN_PARAM_STRING) {
        const char *s = *(const char *const *)p->value;
        if (p->choices) {
            *(int *)buf = tern_param_choice_index(p, s);
        } else {
            int len = TERN_T_STRING_MAX;
            tern_t_string(s, buf, &len);
        }
    } else if (p->type == TERN_PARAM_SIZE) {
        *(unsigned long long *)buf = (unsigned long long)*(const long *)p->value;
    } else {
        long v = *(const long *)p->value;
        *(int *)buf = v > INT_MAX ? INT_MAX : (int)v;
    }
    return MPI_SUCCESS;
}

static int write_string(struct tern_param_desc *p, int i, const void *buf)
{
    if (p->choices) {
        int k = *(const int *)buf;
        if (k < 0 || k >= tern_param_choice_count(p)) return MPI_T_ERR_INVALID;
        tern_param_assign(p, 0, p->choices[k]);
        return MPI_SUCCESS;
    }
    const char *s = buf;
    size_t len = strnlen(s, TERN_T_STRING_MAX);
    if (len == TERN_T_STRING_MAX) return MPI_T_ERR_INVALID; /* no null within count characters */
    char *copy = strdup(s);
    if (!copy) return MPI_T_ERR_MEMORY;
    tern_param_assign(p, 0, copy);
    free(written_strings[i]);
    written_strings[i] = copy;
    return MPI_SUCCESS;
}

static int cvar_write(MPI_T_cvar_handle h, const void *buf)
{
    struct tern_param_desc *p = lookup(h);
    if (!p) return MPI_T_ERR_INVALID_HANDLE;
    if (!buf) return MPI_T_ERR_INVALID;
    if (!writable_now(p)) return MPI_T_ERR_CVAR_SET_NEVER;
    int i = (int)(p - tern_param_table), rc = MPI_SUCCESS;
    if (p->type == TERN_PARAM_STRING) {
        rc = write_string(p, i, buf);
    } else if (p->type == TERN_PARAM_SIZE) {
        unsigned long long v = *(const unsigned long long *)buf;
        rc = v > LONG_MAX || tern_param_assign(p, (long)v, NULL) ? MPI_T_ERR_INVALID : MPI_SUCCESS;
    } else {
        rc = tern_param_assign(p, *(const int *)buf, NULL) ? MPI_T_ERR_INVALID : MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS) p->source = TERN_SRC_RUNTIME;
    return rc;
}

void tern_t_cvars_finalize(void)
{
    while (handles) {
        struct MPIR_T_cvar_handle_s *h = handles;
        handles = h->next;
        free(h);
    }
    /* Written strings stay: the parameters still point at them. */
}

TERN_WEAK_ALIAS(MPI_T_cvar_get_num)
int PMPI_T_cvar_get_num(int *num_cvar) { TERN_T_CALL(cvar_get_num(num_cvar)); }

TERN_WEAK_ALIAS(MPI_T_cvar_get_info)
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope)
{
    TERN_T_CALL(cvar_get_info(cvar_index, name, name_len, verbosity, datatype, enumtype, desc,
                              desc_len, bind, scope));
}

TERN_WEAK_ALIAS(MPI_T_cvar_get_index)
int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    TERN_T_CALL(cvar_get_index(name, cvar_index));
}

TERN_WEAK_ALIAS(MPI_T_cvar_handle_alloc)
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    (void)obj_handle;
    TERN_T_CALL(handle_alloc(cvar_index, handle, count));
}

TERN_WEAK_ALIAS(MPI_T_cvar_handle_free)
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle) { TERN_T_CALL(handle_free(handle)); }

TERN_WEAK_ALIAS(MPI_T_cvar_read)
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf) { TERN_T_CALL(cvar_read(handle, buf)); }

TERN_WEAK_ALIAS(MPI_T_cvar_write)
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    TERN_T_CALL(cvar_write(handle, buf));
}
