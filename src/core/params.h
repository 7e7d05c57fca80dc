/* Runtime parameters: the list is src/core/params.def. */
#ifndef TERN_CORE_PARAMS_H
#define TERN_CORE_PARAMS_H

#include <stdio.h>

enum tern_param_type { TERN_PARAM_BOOL, TERN_PARAM_INT, TERN_PARAM_SIZE, TERN_PARAM_STRING };
enum tern_param_source { TERN_SRC_DEFAULT, TERN_SRC_ENV, TERN_SRC_ALIAS, TERN_SRC_RUNTIME };

struct tern_param_desc {
    const char *name;        /* without the TERN_ prefix */
    const char *alias;       /* MVAPICH2 name, or NULL */
    enum tern_param_type type;
    const char *default_text;
    const char *description;
    void *value;             /* long for BOOL/INT/SIZE, const char * for STRING */
    enum tern_param_source source;
};

struct tern_param_values {
#define TERN_PARAM_FIELD_BOOL long
#define TERN_PARAM_FIELD_INT long
#define TERN_PARAM_FIELD_SIZE long
#define TERN_PARAM_FIELD_STRING const char *
#define TERN_PARAM(NAME, field, TYPE, def, alias, desc) TERN_PARAM_FIELD_##TYPE field;
#include "core/params.def"
#undef TERN_PARAM
};

extern struct tern_param_values tern_param;
extern struct tern_param_desc tern_param_table[];
extern const int tern_param_count;

/* Reads defaults and the environment.  Bad values are reported and the
 * default kept.  Warnings are printed only when 'report' is set (rank 0). */
void tern_params_load(int report);
void tern_params_print(FILE *out);
/* 1 when the user set the parameter (by its TERN_ name or its alias). */
int tern_param_user_set(const char *name);

#endif
