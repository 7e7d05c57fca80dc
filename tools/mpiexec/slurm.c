/* Inside a Slurm allocation: the hosts come from SLURM_JOB_NODELIST and
 * their slots from SLURM_TASKS_PER_NODE, as a Hydra user expects, so that
 * `salloc -N 2 -n 8 mpiexec prog` needs no -hosts.  The forms read here
 * are Slurm's: a host list is comma-separated entries, each a name with
 * zero or more bracket groups of numbers and ranges ("n[01-10]" keeps the
 * width of its lower bound, "rack[1-2]-n[1-2]" is every combination), and a
 * task count is "N" or "N(xR)" for R nodes in a row. */
#include "mpiexec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLURM_MAX_HOSTS 65536
#define SLURM_MAX_NAME 256

struct names {
    char **v;
    int n;
};

static int fail(char *err, size_t len, const char *what, const char *list)
{
    snprintf(err, len, "cannot read Slurm host list '%s': %s", list, what);
    return -1;
}

/* A number of digits at *p, with its length; -1 when none or too big. */
static long read_num(const char **p, int *width)
{
    const char *s = *p;
    long v = 0;
    while (isdigit((unsigned char)**p) && *p - s < 9) v = v * 10 + (*(*p)++ - '0');
    *width = (int)(*p - s);
    if (*width == 0 || isdigit((unsigned char)**p)) return -1;
    return v;
}

/* Appends to 'out' every name 'prefix' + the expansion of 'rest'. */
static int expand(const char *prefix, const char *rest, const char *list, struct names *out,
                  char *err, size_t len)
{
    const char *open = strchr(rest, '[');
    if (!open) {
        if (strchr(rest, ']')) return fail(err, len, "']' without '['", list);
        if (strlen(prefix) + strlen(rest) >= SLURM_MAX_NAME)
            return fail(err, len, "host name too long", list);
        if (out->n >= SLURM_MAX_HOSTS) return fail(err, len, "too many hosts", list);
        out->v = xrealloc(out->v, (size_t)(out->n + 2) * sizeof *out->v);
        char *name = xmalloc(strlen(prefix) + strlen(rest) + 1);
        strcpy(name, prefix);
        strcat(name, rest);
        out->v[out->n++] = name;
        out->v[out->n] = NULL;
        return 0;
    }
    const char *close = strchr(open, ']');
    if (!close) return fail(err, len, "'[' without ']'", list);
    size_t lit = (size_t)(open - rest);
    if (memchr(rest, ']', lit)) return fail(err, len, "']' without '['", list);
    if (strlen(prefix) + lit >= SLURM_MAX_NAME) return fail(err, len, "host name too long", list);
    const char *p = open + 1;
    if (p == close) return fail(err, len, "empty brackets", list);
    while (p < close) {
        int wlo, whi;
        long lo = read_num(&p, &wlo), hi = lo;
        if (lo < 0) return fail(err, len, "brackets hold numbers and ranges only", list);
        if (*p == '-') {
            p++;
            hi = read_num(&p, &whi);
            if (hi < 0) return fail(err, len, "a range needs an upper bound", list);
            if (hi < lo) return fail(err, len, "a range goes down", list);
        }
        if (*p != ',' && p != close)
            return fail(err, len, "brackets hold numbers and ranges only", list);
        if (*p == ',' && p + 1 == close) return fail(err, len, "empty range", list);
        if (*p == ',') p++;
        if (hi - lo >= SLURM_MAX_HOSTS) return fail(err, len, "too many hosts", list);
        for (long k = lo; k <= hi; k++) {
            char pre[SLURM_MAX_NAME + 16];
            snprintf(pre, sizeof pre, "%s%.*s%0*ld", prefix, (int)lit, rest, wlo, k);
            if (strlen(pre) >= SLURM_MAX_NAME) return fail(err, len, "host name too long", list);
            if (expand(pre, close + 1, list, out, err, len) < 0) return -1;
        }
    }
    return 0;
}

static void names_free(struct names *nm)
{
    for (int i = 0; i < nm->n; i++) free(nm->v[i]);
    free(nm->v);
    nm->v = NULL;
    nm->n = 0;
}

char **slurm_hostlist_expand(const char *list, int *n, char *err, size_t errlen)
{
    struct names out = {0};
    const char *p = list;
    if (!*p) {
        fail(err, errlen, "no host", list);
        return NULL;
    }
    while (*p) {
        /* An entry ends at a comma outside brackets. */
        const char *e = p;
        int depth = 0;
        while (*e && (depth || *e != ',')) {
            if (*e == '[') depth++;
            if (*e == ']') depth--;
            if (depth < 0 || depth > 1) break;
            e++;
        }
        if (depth != 0 || e == p || (*e && *e != ',')) {
            fail(err, errlen,
                 e == p       ? "empty entry"
                 : depth > 1  ? "nested brackets"
                 : depth == 1 ? "'[' without ']'"
                              : "']' without '['",
                 list);
            names_free(&out);
            return NULL;
        }
        char *entry = xstrdup(p);
        entry[e - p] = '\0';
        int rc = expand("", entry, list, &out, err, errlen);
        free(entry);
        if (rc < 0) {
            names_free(&out);
            return NULL;
        }
        p = *e ? e + 1 : e;
        if (*e && !*p) {
            fail(err, errlen, "empty entry", list);
            names_free(&out);
            return NULL;
        }
    }
    *n = out.n;
    return out.v;
}

int slurm_tasks_per_node(const char *spec, int nhosts, int *counts, char *err, size_t errlen)
{
    const char *p = spec;
    int h = 0, bad = !*spec;
    while (*p && !bad) {
        int w;
        long c = read_num(&p, &w), rep = 1;
        if (c < 1 || c > MPIEXEC_MAX_RANKS) {
            bad = 1;
            break;
        }
        if (*p == '(') {
            if (p[1] != 'x') {
                bad = 1;
                break;
            }
            p += 2;
            rep = read_num(&p, &w);
            if (rep < 1 || *p != ')') {
                bad = 1;
                break;
            }
            p++;
        }
        if (rep > nhosts - h) {
            snprintf(err, errlen,
                     "SLURM_TASKS_PER_NODE '%s' names more than the %d hosts of the allocation",
                     spec, nhosts);
            return -1;
        }
        for (long i = 0; i < rep; i++) counts[h++] = (int)c;
        if (*p == ',' && p[1])
            p++;
        else if (*p)
            bad = 1;
    }
    if (bad) {
        snprintf(err, errlen,
                 "cannot read SLURM_TASKS_PER_NODE '%s' (expected counts such as '2(x3),1')", spec);
        return -1;
    }
    if (h != nhosts) {
        snprintf(err, errlen,
                 "SLURM_TASKS_PER_NODE '%s' gives %d of the %d hosts of the allocation", spec, h,
                 nhosts);
        return -1;
    }
    return 0;
}

static int env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

int slurm_hosts_take(struct options *o)
{
    const char *list = getenv("SLURM_JOB_NODELIST");
    if (!list || !*list) list = getenv("SLURM_NODELIST");
    if (!list || !*list) return 0;
    char err[512];
    int n = 0;
    char **names = slurm_hostlist_expand(list, &n, err, sizeof err);
    if (!names) {
        fprintf(stderr, "mpiexec: %s (from SLURM_JOB_NODELIST)\n", err);
        return -1;
    }
    int *counts = xcalloc((size_t)n, sizeof *counts);
    const char *tpn = getenv("SLURM_TASKS_PER_NODE");
    int rc = 0;
    if (o->ppn > 0 || !tpn || !*tpn) {
        for (int i = 0; i < n; i++) counts[i] = o->ppn > 0 ? o->ppn : 1;
    } else if (slurm_tasks_per_node(tpn, n, counts, err, sizeof err) < 0) {
        fprintf(stderr, "mpiexec: %s\n", err);
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < n; i++) rc = hosts_add(o, names[i], counts[i], "Slurm");
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
    free(counts);
    /* Slurm's own agent reaches every node of the allocation without ssh
     * keys; -launcher or TERN_LAUNCHER(_EXEC) still choose another. */
    if (rc == 0 && !o->launcher && !o->launcher_exec && !env_set("TERN_LAUNCHER") &&
        !env_set("TERN_LAUNCHER_EXEC"))
        o->launcher = xstrdup("srun");
    return rc;
}
