/* Command-line options of tern-bench. */
#include "tb.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tb_usage(const char *prog)
{
    printf("Usage: %s --list [FAMILY]\n"
           "       mpiexec -n N %s NAME|FAMILY|all ... [options]\n"
           "Runs MPI benchmarks: NAME from --list, a family (pt2pt, coll, nbc, dtype, rma, io)\n"
           "or all.\n"
           "  -m MIN:MAX     message sizes in bytes, powers of two from MIN (K, M, G suffixes);\n"
           "                 -m :MAX or -m MIN: keeps the benchmark's default at the other end\n"
           "  -m A,B,C       exactly these sizes, each once\n"
           "  -i N           timed iterations per size (default: by size, as OSU)\n"
           "  -x N           warm-up iterations per size, not timed (default: by size)\n"
           "  -w N           messages in flight per bandwidth iteration (default 64)\n"
           "  -T TYPE        element type of the reductions: char (default, as OMB), int, float\n"
           "  --fresh        a fresh (cache-cold) buffer for every message instead of reusing one\n"
           "  --cold-bytes S memory --fresh cycles through per buffer (default 64M)\n"
           "  -c, --validate check the data every benchmark moves (in one untimed run per size)\n"
           "  -f text|json   output format (default text; json: one object per benchmark)\n"
           "  --win KIND     one-sided window: create (on the heap), allocate (default, as OMB),\n"
           "                 dynamic, alloc_mem (create on memory of MPI_Alloc_mem)\n"
           "  --sync MODE    one-sided synchronisation: lock, lock_all, flush, flush_local,\n"
           "                 fence, pscw (default: each benchmark's OMB default)\n"
           "  --dir DIR      directory of the I/O family's files (default: the current one)\n"
           "  --io-sync      MPI_File_sync inside the timed region of every write\n"
           "  --io-block S   block of the strided I/O patterns (default 1K)\n"
           "  --list         name every benchmark (of FAMILY if given)\n"
           "Exit status: 0 all ran, 1 a benchmark failed, 2 usage, 3 some benchmark is not\n"
           "supported by this MPI (its MPI calls returned MPI_ERR_UNSUPPORTED_OPERATION).\n",
           prog, prog);
}

size_t tb_parse_size(const char *s, int *ok)
{
    char *end;
    double v = strtod(s, &end);
    double mul = 1;
    switch (*end) {
    case 'k':
    case 'K':
        mul = 1024;
        end++;
        break;
    case 'm':
    case 'M':
        mul = 1024.0 * 1024;
        end++;
        break;
    case 'g':
    case 'G':
        mul = 1024.0 * 1024 * 1024;
        end++;
        break;
    default: break;
    }
    if (end == s || *end || v < 0 || v * mul > 1e15) {
        *ok = 0;
        return 0;
    }
    return (size_t)(v * mul);
}

MPI_Datatype tb_reduction_type(const struct tb_opts *o)
{
    return o->rtype == TB_RFLOAT ? MPI_FLOAT : o->rtype == TB_RINT ? MPI_INT : MPI_CHAR;
}

/* Case-insensitive equality of ASCII words. */
static int same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

/* char, int or float; OMB's spelling mpi_char... too, any case. */
static int parse_rtype(const char *s, int *out)
{
    static const char *const names[] = {"char", "int", "float"};
    for (int i = 0; i < 3; i++) {
        char omb[16];
        snprintf(omb, sizeof omb, "mpi_%s", names[i]);
        if (same_word(s, names[i]) || same_word(s, omb)) {
            *out = i;
            return 0;
        }
    }
    return -1;
}

const char *const tb_win_names[TB_NWIN] = {"create", "allocate", "dynamic", "alloc_mem"};
const char *const tb_sync_names[TB_NSYNC] = {"lock",        "lock_all", "flush",
                                             "flush_local", "fence",    "pscw"};

static int parse_name(const char *s, const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++) {
        if (same_word(s, names[i])) {
            *out = i;
            return 0;
        }
    }
    return -1;
}

static int parse_int(const char *s, int min, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < min || v > 1000000000L) return -1;
    *out = (int)v;
    return 0;
}

static int parse_sizes(const char *arg, struct tb_opts *o)
{
    int ok = 1;
    if (strchr(arg, ',') || !strchr(arg, ':')) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", arg);
        for (char *save, *tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (o->nsizes == TB_MAX_SIZES) return -1;
            size_t v = tb_parse_size(tok, &ok);
            /* The sizes are walked by value (tb_next_size): a repeat would never end. */
            for (int k = 0; k < o->nsizes; k++)
                if (o->sizes[k] == v) return -1;
            o->sizes[o->nsizes++] = v;
        }
        return ok && o->nsizes ? 0 : -1;
    }
    const char *colon = strchr(arg, ':');
    char lo[64];
    snprintf(lo, sizeof lo, "%.*s", (int)(colon - arg), arg);
    o->have_min = lo[0] != 0;
    o->have_max = colon[1] != 0;
    if (o->have_min) o->min_size = tb_parse_size(lo, &ok);
    if (o->have_max) o->max_size = tb_parse_size(colon + 1, &ok);
    return ok && (!o->have_min || !o->have_max || o->min_size <= o->max_size) ? 0 : -1;
}

int tb_parse(int argc, char **argv, struct tb_opts *o, const char **names, int *nnames,
             int maxnames, int rank)
{
    memset(o, 0, sizeof *o);
    o->warmup = -1;
    o->window = 64;
    o->cold_bytes = (size_t)64 << 20;
    o->win_kind = -1;
    o->sync = -1;
    o->dir = ".";
    o->io_block = 1024;
    *nnames = 0;
    const char *bad = NULL;
    for (int i = 1; i < argc && !bad; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            if (rank == 0) tb_usage(argv[0]);
            return 1;
        } else if (!strcmp(a, "-c") || !strcmp(a, "--validate")) {
            o->validate = 1;
        } else if (!strcmp(a, "--corrupt-for-test")) {
            o->corrupt = o->validate = 1;
        } else if (!strcmp(a, "--fresh")) {
            o->fresh = 1;
        } else if (!strcmp(a, "--reuse")) {
            o->fresh = 0;
        } else if (!strcmp(a, "--io-sync")) {
            o->io_sync = 1;
        } else if (a[0] == '-' && !val) {
            bad = a;
        } else if (!strcmp(a, "-m")) {
            if (parse_sizes(val, o)) bad = a;
            i++;
        } else if (!strcmp(a, "-i")) {
            if (parse_int(val, 1, &o->iters)) bad = a;
            i++;
        } else if (!strcmp(a, "-x")) {
            if (parse_int(val, 0, &o->warmup)) bad = a;
            i++;
        } else if (!strcmp(a, "-w")) {
            if (parse_int(val, 1, &o->window) || o->window > 4096) bad = a;
            i++;
        } else if (!strcmp(a, "-T")) {
            if (parse_rtype(val, &o->rtype)) bad = a;
            i++;
        } else if (!strcmp(a, "--cold-bytes")) {
            o->cold_bytes = tb_parse_size(val, &ok);
            if (!ok || !o->cold_bytes) bad = a;
            i++;
        } else if (!strcmp(a, "--win")) {
            if (parse_name(val, tb_win_names, TB_NWIN, &o->win_kind)) bad = a;
            i++;
        } else if (!strcmp(a, "--sync")) {
            if (parse_name(val, tb_sync_names, TB_NSYNC, &o->sync)) bad = a;
            i++;
        } else if (!strcmp(a, "--dir")) {
            if (!val[0]) bad = a;
            o->dir = val;
            i++;
        } else if (!strcmp(a, "--io-block")) {
            o->io_block = tb_parse_size(val, &ok);
            if (!ok || !o->io_block || o->io_block > ((size_t)1 << 30)) bad = a;
            i++;
        } else if (!strcmp(a, "-f")) {
            if (!strcmp(val, "json"))
                o->json = 1;
            else if (strcmp(val, "text"))
                bad = a;
            i++;
        } else if (a[0] == '-') {
            bad = a;
        } else if (*nnames < maxnames) {
            names[(*nnames)++] = a;
        } else {
            bad = a;
        }
    }
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "%s: bad option or value near '%s' (try --help)\n", argv[0], bad);
        return 2;
    }
    return 0;
}
