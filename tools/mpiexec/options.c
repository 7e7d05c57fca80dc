/* The command line.
 *
 *   mpiexec [global options] [-n N] [local options] [NAME=VALUE...] prog args
 *           [: [-n M] [local options] prog2 args ...]
 *
 * Options may be written with one or two dashes, and an option that takes one
 * value also as -opt=value.  The first word that is neither an option nor a
 * NAME=VALUE word is the program; everything after it up to a lone ':' is its
 * arguments.  Global options (-genv, -l, --timeout, -hosts...) are accepted in
 * any block and apply to the whole job. */
#include "mpiexec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum opt_id {
    O_N,
    O_GENV,
    O_ENV,
    O_NOOP,
    O_LABEL,
    O_TIMEOUT,
    O_HOSTS,
    O_HOSTFILE,
    O_BIND,
    O_PPN,
    O_WDIR,
    O_NARGS,
    O_HELP,
    O_VERSION,
    O_VERBOSE,
    O_GENVALL,
    O_GENVNONE,
    O_GENVLIST,
    O_LAUNCHER,
    O_LAUNCHER_EXEC
};

struct opt_def {
    const char *name; /* without dashes */
    enum opt_id id;
    int nvalues;
};

static const struct opt_def opt_table[] = {
    {"n", O_N, 1},
    {"np", O_N, 1},
    {"genv", O_GENV, 2},
    {"env", O_ENV, 2},
    {"genvall", O_GENVALL, 0},
    {"genvnone", O_GENVNONE, 0},
    {"genvlist", O_GENVLIST, 1},
    {"envall", O_NOOP, 0}, /* the default anyway */
    {"launcher", O_LAUNCHER, 1},
    {"bootstrap", O_LAUNCHER, 1},
    {"launcher-exec", O_LAUNCHER_EXEC, 1},
    {"bootstrap-exec", O_LAUNCHER_EXEC, 1},
    {"l", O_LABEL, 0},
    {"prepend-rank", O_LABEL, 0},
    {"timeout", O_TIMEOUT, 1},
    {"hosts", O_HOSTS, 1},
    {"host", O_HOSTS, 1},
    {"f", O_HOSTFILE, 1},
    {"hostfile", O_HOSTFILE, 1},
    {"machinefile", O_HOSTFILE, 1},
    {"bind-to", O_BIND, 1},
    {"ppn", O_PPN, 1},
    {"wdir", O_WDIR, 1},
    {"nargs", O_NARGS, 1},
    {"h", O_HELP, 0},
    {"help", O_HELP, 0},
    {"version", O_VERSION, 0},
    {"v", O_VERBOSE, 0},
    {"verbose", O_VERBOSE, 0},
};
#define NOPTS (sizeof opt_table / sizeof opt_table[0])

void envlist_set(struct envlist *l, const char *name, const char *value)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0) {
            free(l->v[i].value);
            l->v[i].value = xstrdup(value);
            return;
        }
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n].name = xstrdup(name);
    l->v[l->n].value = xstrdup(value);
    l->n++;
}

void envlist_free(struct envlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].name);
        free(l->v[i].value);
    }
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

/* NAME=VALUE with a shell-style variable name. */
static int is_assignment(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    const char *p = s + 1;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    return *p == '=';
}

static int valid_env_name(const char *s) { return s[0] != '\0' && strchr(s, '=') == NULL; }

static int parse_count(const char *opt, const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < 1 || v > MPIEXEC_MAX_RANKS) {
        fprintf(stderr, "mpiexec: %s expects a number of processes from 1 to %d, not '%s'\n", opt,
                MPIEXEC_MAX_RANKS, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_timeout(const char *what, const char *s, struct options *o)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v) || v < 0 || v > 1e9) {
        fprintf(stderr, "mpiexec: %s expects a number of seconds, not '%s'\n", what, s);
        return -1;
    }
    o->timeout = v;
    free(o->timeout_text);
    o->timeout_text = xstrdup(s);
    return 0;
}

static struct block *new_block(struct options *o)
{
    o->blocks = xrealloc(o->blocks, (size_t)(o->nblocks + 1) * sizeof *o->blocks);
    struct block *b = &o->blocks[o->nblocks++];
    memset(b, 0, sizeof *b);
    b->nprocs = -1;
    b->nargs = -1;
    return b;
}

static const struct opt_def *find_opt(const char *name)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (strcmp(opt_table[i].name, name) == 0) return &opt_table[i];
    return NULL;
}

static void unknown_option(const char *arg, const char *name)
{
    const char *names[NOPTS];
    for (size_t i = 0; i < NOPTS; i++) names[i] = opt_table[i].name;
    const char *near = suggest_nearest(name, names, NOPTS);
    /* These are usually written with two dashes. */
    int dd =
        strcmp(near, "help") == 0 || strcmp(near, "version") == 0 || strcmp(near, "timeout") == 0;
    fprintf(stderr, "mpiexec: unknown option '%s'; did you mean '%s%s'? (see mpiexec --help)\n",
            arg, dd ? "--" : "-", near);
}

/* Handles one option at argv[*i]; advances *i past its values. */
static int take_option(int argc, char **argv, int *i, struct options *o, struct block *b, int *done)
{
    const char *arg = argv[*i];
    const char *name = arg + 1;
    if (*name == '-') name++;
    char namebuf[64];
    const char *inline_value = NULL;
    const char *eq = strchr(name, '=');
    if (eq && (size_t)(eq - name) < sizeof namebuf) {
        memcpy(namebuf, name, (size_t)(eq - name));
        namebuf[eq - name] = '\0';
        inline_value = eq + 1;
        name = namebuf;
    }
    const struct opt_def *d = find_opt(name);
    if (!d || (inline_value && d->nvalues != 1)) {
        unknown_option(arg, name);
        return -1;
    }
    const char *val[2] = {NULL, NULL};
    if (inline_value) {
        val[0] = inline_value;
    } else if (d->nvalues > 0) {
        /* -genv NAME=VALUE is accepted as one word too. */
        int need = d->nvalues;
        if (need == 2 && *i + 1 < argc && strchr(argv[*i + 1], '=')) need = 1;
        if (*i + need >= argc) {
            fprintf(stderr, "mpiexec: option '%s' needs %s\n", arg,
                    d->nvalues == 2 ? "a name and a value" : "a value");
            return -1;
        }
        val[0] = argv[*i + 1];
        if (need == 2) val[1] = argv[*i + 2];
        *i += need;
    }

    switch (d->id) {
    case O_N: return parse_count(arg, val[0], &b->nprocs);
    case O_GENV:
    case O_ENV: {
        struct envlist *l = d->id == O_GENV ? &o->genv : &b->env;
        if (val[1] == NULL) { /* NAME=VALUE form */
            char *copy = xstrdup(val[0]);
            char *e = strchr(copy, '=');
            *e = '\0';
            int ok = valid_env_name(copy);
            if (ok) envlist_set(l, copy, e + 1);
            free(copy);
            if (!ok) {
                fprintf(stderr, "mpiexec: %s: '%s' is not NAME=VALUE\n", arg, val[0]);
                return -1;
            }
            return 0;
        }
        if (!valid_env_name(val[0])) {
            fprintf(stderr, "mpiexec: %s: '%s' is not a variable name\n", arg, val[0]);
            return -1;
        }
        envlist_set(l, val[0], val[1]);
        return 0;
    }
    case O_NOOP: return 0;
    case O_LABEL: o->label = 1; return 0;
    case O_TIMEOUT: return parse_timeout(arg, val[0], o);
    case O_HOSTS: return hosts_parse_list(val[0], o);
    case O_HOSTFILE: return hosts_parse_file(val[0], o);
    case O_GENVALL: o->genv_mode = GENV_ALL; return 0;
    case O_GENVNONE: o->genv_mode = GENV_NONE; return 0;
    case O_GENVLIST: {
        size_t n = 0;
        while (o->genvlist && o->genvlist[n]) n++;
        char *copy = xstrdup(val[0]), *save = NULL;
        for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
            o->genvlist = xrealloc(o->genvlist, (n + 2) * sizeof(char *));
            o->genvlist[n++] = xstrdup(w);
            o->genvlist[n] = NULL;
        }
        free(copy);
        o->genv_mode = GENV_LIST;
        return 0;
    }
    case O_LAUNCHER:
        free(o->launcher);
        o->launcher = xstrdup(val[0]);
        return 0;
    case O_LAUNCHER_EXEC:
        free(o->launcher_exec);
        o->launcher_exec = xstrdup(val[0]);
        return 0;
    case O_BIND:
        if (strcmp(val[0], "none") == 0)
            o->bind = 0;
        else if (strcmp(val[0], "core") == 0 || strcmp(val[0], "hwthread") == 0)
            o->bind = 1;
        else {
            fprintf(stderr, "mpiexec: -bind-to '%s' is not supported; use none, core or hwthread\n",
                    val[0]);
            return -1;
        }
        return 0;
    case O_PPN: return parse_count(arg, val[0], &o->ppn);
    case O_NARGS: {
        char *end;
        errno = 0;
        long v = strtol(val[0], &end, 10);
        if (errno || end == val[0] || *end != '\0' || v < 0 || v > INT_MAX - 2) {
            fprintf(stderr, "mpiexec: %s expects a number of arguments, not '%s'\n", arg, val[0]);
            return -1;
        }
        b->nargs = (int)v;
        return 0;
    }
    case O_WDIR:
        free(b->wdir);
        b->wdir = xstrdup(val[0]);
        return 0;
    case O_HELP:
        help_print();
        *done = 1;
        return 0;
    case O_VERSION:
        version_print();
        *done = 1;
        return 0;
    case O_VERBOSE: o->verbose = 1; return 0;
    }
    return 0;
}

static void fill_counts(struct options *o)
{
    int total = 0;
    for (int k = 0; k < o->nblocks; k++) {
        struct block *b = &o->blocks[k];
        if (b->nprocs < 0) {
            if (k == 0 && o->nblocks == 1 && o->host_slots > 0)
                b->nprocs = o->host_slots;
            else if (k == 0 && o->nblocks == 1 && o->ppn > 0)
                b->nprocs = o->ppn * (o->remote ? o->nhosts : 1);
            else
                b->nprocs = 1;
        }
        total += b->nprocs;
    }
    if (!o->remote && o->ppn > 0 && o->ppn != total)
        fprintf(stderr, "mpiexec: note: -ppn %d is ignored: all %d ranks run on this host\n",
                o->ppn, total);
}

int options_parse(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->bind = -1;
    o->ppn = -1;
    if (argc < 2) {
        fprintf(stderr, "mpiexec: no program to run; usage: mpiexec -n N program [args]"
                        " (see mpiexec --help)\n");
        return 2;
    }
    struct block *b = new_block(o);
    int done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, ":") == 0) {
            fprintf(stderr, "mpiexec: ':' must follow a program (block %d has none)\n",
                    o->nblocks - 1);
            return 2;
        }
        if (strcmp(a, "--") == 0) { /* the program follows, even if it starts with '-' */
            if (i + 1 >= argc || strcmp(argv[i + 1], ":") == 0) {
                fprintf(stderr, "mpiexec: no program after '--'\n");
                return 2;
            }
            a = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            if (take_option(argc, argv, &i, o, b, &done) < 0) return 2;
            if (done) return 1;
            continue;
        } else if (is_assignment(a)) {
            char *copy = xstrdup(a);
            char *e = strchr(copy, '=');
            *e = '\0';
            envlist_set(&b->env, copy, e + 1);
            free(copy);
            continue;
        }
        /* The program and its arguments, up to ':' or the end; with
         * -nargs exactly that many, any of which may be ':'. */
        int j = i;
        if (b->nargs >= 0) {
            if (b->nargs >= argc - i) {
                fprintf(stderr, "mpiexec: -nargs %d: only %d arguments follow '%s'\n", b->nargs,
                        argc - i - 1, argv[i]);
                return 2;
            }
            j = i + 1 + b->nargs;
            if (j < argc && strcmp(argv[j], ":") != 0) {
                fprintf(stderr,
                        "mpiexec: -nargs %d: '%s' follows the arguments of '%s' where ':' "
                        "or the end was expected\n",
                        b->nargs, argv[j], argv[i]);
                return 2;
            }
        } else {
            while (j < argc && strcmp(argv[j], ":") != 0) j++;
        }
        b->argv = xcalloc((size_t)(j - i + 1), sizeof(char *));
        for (int k = i; k < j; k++) b->argv[k - i] = argv[k];
        i = j;
        if (j < argc) { /* a ':' follows */
            if (j + 1 >= argc) {
                fprintf(stderr, "mpiexec: nothing follows the last ':'\n");
                return 2;
            }
            b = new_block(o);
        }
    }
    if (b->argv == NULL) {
        fprintf(stderr, "mpiexec: no program to run%s (see mpiexec --help)\n",
                o->nblocks > 1 ? " after the last ':'" : "");
        return 2;
    }
    if (o->timeout_text == NULL) {
        const char *t = getenv("MPIEXEC_TIMEOUT");
        if (t && *t && parse_timeout("MPIEXEC_TIMEOUT", t, o) < 0) return 2;
    }
    if (o->nhosts == 0 && slurm_hosts_take(o) < 0) return 2;
    if (o->host_slots > 0 && !o->remote) { /* only this machine: as without a list */
        for (int i = 0; i < o->nhosts; i++) free(o->hosts[i].name);
        free(o->hosts);
        o->hosts = NULL;
        o->nhosts = 0;
    }
    fill_counts(o);
    long total = 0;
    for (int k = 0; k < o->nblocks; k++) total += o->blocks[k].nprocs;
    if (total > MPIEXEC_MAX_RANKS) {
        fprintf(stderr, "mpiexec: %ld ranks requested; at most %d are supported\n", total,
                MPIEXEC_MAX_RANKS);
        return 2;
    }
    return 0;
}

void options_free(struct options *o)
{
    for (int k = 0; k < o->nblocks; k++) {
        envlist_free(&o->blocks[k].env);
        free(o->blocks[k].argv);
        free(o->blocks[k].path);
        free(o->blocks[k].wdir);
    }
    free(o->blocks);
    envlist_free(&o->genv);
    free(o->timeout_text);
    for (int i = 0; i < o->nhosts; i++) free(o->hosts[i].name);
    free(o->hosts);
    for (size_t i = 0; o->genvlist && o->genvlist[i]; i++) free(o->genvlist[i]);
    free(o->genvlist);
    free(o->launcher);
    free(o->launcher_exec);
    memset(o, 0, sizeof *o);
}
