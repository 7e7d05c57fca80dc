/* Runtime parameters: the list is src/core/params.def. */
#ifndef TERN_CORE_PARAMS_H
#define TERN_CORE_PARAMS_H

#include <stdio.h>
#include <string.h>

enum tern_param_type { TERN_PARAM_BOOL, TERN_PARAM_INT, TERN_PARAM_SIZE, TERN_PARAM_STRING };
enum tern_param_source { TERN_SRC_DEFAULT, TERN_SRC_ENV, TERN_SRC_ALIAS, TERN_SRC_RUNTIME };
/* When MPI_T may write the parameter: the SET column of params.def. */
enum tern_param_set { TERN_PARAM_SET_RUNTIME, TERN_PARAM_SET_INIT, TERN_PARAM_SET_INIT_ALL_EQ };

struct tern_param_desc {
    const char *name;  /* without the TERN_ prefix */
    const char *alias; /* MVAPICH2 name, or NULL */
    enum tern_param_type type;
    const char *default_text;
    const char *description;
    const char *const *choices; /* STRING only: the accepted words, NULL-terminated; or NULL */
    enum tern_param_set set;
    void *value; /* long for BOOL/INT/SIZE, const char * for STRING */
    enum tern_param_source source;
};

struct tern_param_values {
#define TERN_PARAM_FIELD_BOOL long
#define TERN_PARAM_FIELD_INT long
#define TERN_PARAM_FIELD_SIZE long
#define TERN_PARAM_FIELD_STRING const char *
#define TERN_PARAM(NAME, field, TYPE, def, alias, choices, set, desc) TERN_PARAM_FIELD_##TYPE field;
#include "core/params.def"
#undef TERN_PARAM
};

extern struct tern_param_values tern_param;
extern struct tern_param_desc tern_param_table[];
extern const int tern_param_count;

/* Reads defaults and the environment.  Bad values are reported and the
 * default kept.  Warnings are printed only when 'report' is set (rank 0).
 * Parameters set at run time (through MPI_T) keep their value. */
void tern_params_load(int report);
/* Sets a parameter's value: 'num' for BOOL, INT and SIZE, 'text' for
 * STRING (a parameter with choices keeps its own copy of the word;
 * otherwise 'text' must outlive the setting).  Returns -1, changing
 * nothing, when the value is outside the parameter's range.  The caller
 * records the source (MPI_T: TERN_SRC_RUNTIME). */
int tern_param_assign(struct tern_param_desc *p, long num, const char *text);
/* When MPI_T may set a parameter, in words. */
const char *tern_param_set_text(enum tern_param_set set);
/* How many words p->choices holds (0 without choices). */
int tern_param_choice_count(const struct tern_param_desc *p);
/* Index of a choice word in p->choices, or -1. */
int tern_param_choice_index(const struct tern_param_desc *p, const char *word);
void tern_params_print(FILE *out);
/* 1 when the user set the parameter (by its TERN_ name or its alias). */
int tern_param_user_set(const char *name);
/* 1 when a string parameter names something: neither empty nor "auto"
 * (the library chooses then). */
static inline int tern_param_is_set(const char *value)
{
    return value && value[0] && strcmp(value, "auto") != 0;
}

#endif
