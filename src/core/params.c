/* The parameter registry: defaults, environment, reporting. */
#include "core/params.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"

struct tern_param_values tern_param;

struct tern_param_desc tern_param_table[] = {
#define TERN_PARAM(NAME, field, TYPE, def, alias, choices, set, desc) \
    {#NAME,                                                           \
     alias,                                                           \
     TERN_PARAM_##TYPE,                                               \
     def,                                                             \
     desc,                                                            \
     choices,                                                         \
     TERN_PARAM_SET_##set,                                            \
     &tern_param.field,                                               \
     TERN_SRC_DEFAULT},
#include "core/params.def"
#undef TERN_PARAM
};
const int tern_param_count = (int)(sizeof tern_param_table / sizeof tern_param_table[0]);

/* Variables with our prefix that are not parameters: set by mpiexec for the
 * bootstrap, read by the compiler wrappers, or mpiexec's own parameters
 * (tools/mpiexec/params.c), which reach the ranks with the environment. */
static const char *const internal_vars[] = {
    "TERN_BOOT_FD",
    "TERN_RANK",
    "TERN_SIZE",
    "TERN_LOCAL_RANK",
    "TERN_LOCAL_SIZE",
    "TERN_APPNUM",
    "TERN_JOB_ID",
    "TERN_LAUNCHER_PID",
    "TERN_SHM_FD",
    "TERN_SPAWN_PORT", /* comm/comm_spawn.c: the port a spawned job connects to */
    "TERN_CC",
    "TERN_CXX",
    "TERN_LAUNCHER",
    "TERN_LAUNCHER_EXEC",
    "TERN_LAUNCH_FANOUT",
    "TERN_LAUNCH_TIMEOUT",
    NULL,
};

static int parse_bool(const char *s, long *out)
{
    static const char *const yes[] = {"1", "yes", "true", "on", "y", "enable", NULL};
    static const char *const no[] = {"0", "no", "false", "off", "n", "disable", NULL};
    for (int i = 0; yes[i]; i++)
        if (!strcasecmp(s, yes[i])) {
            *out = 1;
            return 0;
        }
    for (int i = 0; no[i]; i++)
        if (!strcasecmp(s, no[i])) {
            *out = 0;
            return 0;
        }
    return -1;
}

static int parse_int(const char *s, long *out, int allow_suffix)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (end == s || errno) return -1;
    if (allow_suffix && *end) {
        long mul = 1;
        switch (toupper((unsigned char)*end)) {
        case 'K': mul = 1L << 10; break;
        case 'M': mul = 1L << 20; break;
        case 'G': mul = 1L << 30; break;
        default: return -1;
        }
        end++;
        if (toupper((unsigned char)*end) == 'B') end++;
        if (v > __LONG_MAX__ / mul) return -1;
        v *= mul;
    }
    if (*end) return -1;
    *out = v;
    return 0;
}

int tern_param_choice_index(const struct tern_param_desc *p, const char *word)
{
    for (int i = 0; p->choices && p->choices[i]; i++)
        if (!strcmp(p->choices[i], word)) return i;
    return -1;
}

int tern_param_choice_count(const struct tern_param_desc *p)
{
    int n = 0;
    while (p->choices && p->choices[n]) n++;
    return n;
}

int tern_param_assign(struct tern_param_desc *p, long num, const char *text)
{
    switch (p->type) {
    case TERN_PARAM_BOOL:
        if (num != 0 && num != 1) return -1;
        break;
    case TERN_PARAM_INT:
    case TERN_PARAM_SIZE:
        if (num < 0) return -1;
        break;
    case TERN_PARAM_STRING:
        if (p->choices) {
            int i = tern_param_choice_index(p, text);
            if (i < 0) return -1;
            text = p->choices[i];
        }
        *(const char **)p->value = text;
        return 0;
    }
    *(long *)p->value = num;
    return 0;
}

static int parse_value(struct tern_param_desc *p, const char *text)
{
    long v = 0;
    switch (p->type) {
    case TERN_PARAM_BOOL:
        if (parse_bool(text, &v)) return -1;
        break;
    case TERN_PARAM_INT:
        if (parse_int(text, &v, 0)) return -1;
        break;
    case TERN_PARAM_SIZE:
        if (parse_int(text, &v, 1)) return -1;
        break;
    case TERN_PARAM_STRING: break;
    }
    return tern_param_assign(p, v, text);
}

/* What a valid value looks like, for the warning about a bad one. */
static const char *value_hint(const struct tern_param_desc *p, char *buf, size_t len)
{
    switch (p->type) {
    case TERN_PARAM_BOOL: return "0 or 1";
    case TERN_PARAM_INT: return "a non-negative integer";
    case TERN_PARAM_SIZE: return "a byte count such as 8192, 16K or 1M";
    case TERN_PARAM_STRING: break;
    }
    if (!p->choices) return "a string";
    size_t n = (size_t)snprintf(buf, len, "one of");
    for (int i = 0; p->choices[i] && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s %s", i ? "," : "", p->choices[i]);
    return buf;
}

/* Edit distance, for "did you mean" suggestions. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    int row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best =
                diag + (toupper((unsigned char)a[i - 1]) != toupper((unsigned char)b[j - 1]));
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static int is_known(const char *var)
{
    for (int i = 0; internal_vars[i]; i++)
        if (!strcmp(var, internal_vars[i])) return 1;
    for (int i = 0; i < tern_param_count; i++) {
        const struct tern_param_desc *p = &tern_param_table[i];
        if (!strncmp(var, "TERN_", 5) && !strcmp(var + 5, p->name)) return 1;
        if (p->alias && !strcmp(var, p->alias)) return 1;
    }
    return 0;
}

static void warn_unknown(const char *var)
{
    char best[128] = "";
    int bestd = 1 << 30;
    for (int i = 0; i < tern_param_count; i++) {
        const struct tern_param_desc *p = &tern_param_table[i];
        char full[96];
        snprintf(full, sizeof full, "TERN_%s", p->name);
        int d = distance(var, full);
        if (d < bestd) {
            bestd = d;
            snprintf(best, sizeof best, "%s", full);
        }
        if (p->alias) {
            d = distance(var, p->alias);
            if (d < bestd) {
                bestd = d;
                snprintf(best, sizeof best, "%s", p->alias);
            }
        }
    }
    tern_warn("%s is not a Tern parameter and is ignored; the nearest known name is %s "
              "(tern-info lists them all)",
              var, best);
}

extern char **environ;

void tern_params_load(int report)
{
    for (int i = 0; i < tern_param_count; i++) {
        struct tern_param_desc *p = &tern_param_table[i];
        if (p->source == TERN_SRC_RUNTIME) continue;
        p->source = TERN_SRC_DEFAULT;
        if (parse_value(p, p->default_text))
            tern_fatal("parameter %s has a bad default '%s'", p->name, p->default_text);

        char var[96];
        snprintf(var, sizeof var, "TERN_%s", p->name);
        const char *text = getenv(var);
        enum tern_param_source src = TERN_SRC_ENV;
        if (!text && p->alias) {
            text = getenv(p->alias);
            snprintf(var, sizeof var, "%s", p->alias);
            src = TERN_SRC_ALIAS;
        }
        if (!text) continue;
        if (parse_value(p, text)) {
            char hint[128];
            if (report)
                tern_warn("%s='%s' is not valid: expected %s; using the default %s", var, text,
                          value_hint(p, hint, sizeof hint), p->default_text);
            parse_value(p, p->default_text);
            continue;
        }
        p->source = src;
    }
    if (!report) return;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "TERN_", 5) && strncmp(*e, "MV2_", 4)) continue;
        const char *eq = strchr(*e, '=');
        if (!eq || eq - *e >= 96) continue;
        char var[96];
        memcpy(var, *e, (size_t)(eq - *e));
        var[eq - *e] = 0;
        if (!is_known(var)) warn_unknown(var);
    }
}

static const char *source_text(const struct tern_param_desc *p)
{
    switch (p->source) {
    case TERN_SRC_ENV: return "environment (TERN_)";
    case TERN_SRC_ALIAS: return "environment (MV2_ alias)";
    case TERN_SRC_RUNTIME: return "set through MPI_T";
    default: return "default";
    }
}

const char *tern_param_set_text(enum tern_param_set set)
{
    switch (set) {
    case TERN_PARAM_SET_RUNTIME: return "any time";
    case TERN_PARAM_SET_INIT: return "before MPI_Init (read-only after)";
    default: return "before MPI_Init, same value on every rank (read-only after)";
    }
}

void tern_params_print(FILE *out)
{
    fprintf(out, "%-28s %-12s %-26s %s\n", "PARAMETER", "VALUE", "SOURCE", "ALIAS / MEANING");
    for (int i = 0; i < tern_param_count; i++) {
        const struct tern_param_desc *p = &tern_param_table[i];
        char val[64], name[64];
        if (p->type == TERN_PARAM_STRING)
            snprintf(val, sizeof val, "%s", *(const char **)p->value);
        else
            snprintf(val, sizeof val, "%ld", *(long *)p->value);
        snprintf(name, sizeof name, "TERN_%s", p->name);
        fprintf(out, "%-28s %-12s %-26s %s\n", name, val, source_text(p),
                p->alias ? p->alias : "-");
        fprintf(out, "%-28s %s (default %s; MPI_T may set it %s)\n", "", p->description,
                p->default_text, tern_param_set_text(p->set));
    }
}

int tern_param_user_set(const char *name)
{
    for (int i = 0; i < tern_param_count; i++)
        if (!strcmp(tern_param_table[i].name, name))
            return tern_param_table[i].source != TERN_SRC_DEFAULT;
    return 0;
}
