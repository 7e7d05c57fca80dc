/* The collective tuning table (see tuning.h): the loader, the built-in
 * table, the row lookup and the agreement of the ranks at MPI_Init. */
#include "coll/tuning.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap/boot.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/state.h"

/* The table in effect when TERN_COLL_TUNING_FILE is "auto" or empty: none
 * of its own, so the algorithm tables' conditions decide (why the measured
 * table of share/tern/tuning is not this one: README, "Collective tuning"). */
static const char builtin_text[] = "";

static struct tern_coll_tuning_row *rows;
static int nrows;
static char source[4096] = "(built-in)";
static unsigned long long digest;
/* Per collective: whether some row names it, so that a collective without
 * rows never counts hosts. */
static unsigned char has_rows[TERN_COLL_COUNT];

static const char *const coll_names[TERN_COLL_COUNT] = {
#define TERN_COLL_NAME(ID, field, mpi) [TERN_COLL_##ID] = #field,
    TERN_COLL_LIST(TERN_COLL_NAME)
#undef TERN_COLL_NAME
};
static const char *const param_names[TERN_COLL_COUNT] = {
#define TERN_COLL_PARAM(ID, field, mpi) [TERN_COLL_##ID] = #ID "_ALGORITHM",
    TERN_COLL_LIST(TERN_COLL_PARAM)
#undef TERN_COLL_PARAM
};

const char *tern_coll_tuning_source(void) { return source; }
int tern_coll_tuning_count(void) { return nrows; }
int tern_coll_tuning_has(enum tern_coll_id id) { return has_rows[id]; }

static unsigned bucket_of_bound(unsigned long long b)
{
    return b ? (unsigned)__builtin_ctzll(b) + 1 : 0;
}

/* ---- Parsing ---- */

struct parse {
    const char *file;
    int line;
    char *err;
    size_t len;
};

__attribute__((format(printf, 2, 3))) static int fail(struct parse *p, const char *fmt, ...)
{
    int n = p->line ? snprintf(p->err, p->len, "%s:%d: ", p->file, p->line)
                    : snprintf(p->err, p->len, "%s: ", p->file);
    if (n < 0 || (size_t)n >= p->len) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A count with an optional K, M or G (binary) suffix. */
static int parse_number(const char *s, int sized, unsigned long long *out)
{
    if (!isdigit((unsigned char)*s)) return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno) return -1;
    int shift = 0;
    if (sized && *end) {
        switch (toupper((unsigned char)*end)) {
        case 'K': shift = 10; break;
        case 'M': shift = 20; break;
        case 'G': shift = 30; break;
        default: return -1;
        }
        end++;
    }
    if (*end || (shift && v > (ULLONG_MAX >> shift))) return -1;
    *out = v << shift;
    return 0;
}

/* "*", "N", "N-" or "N-M" into [lo, hi]; hi 'open' when unbounded. */
static int parse_range(struct parse *p, const char *what, const char *s, int sized,
                       unsigned long long min, unsigned long long max, unsigned long long open,
                       unsigned long long *lo, unsigned long long *hi)
{
    if (!strcmp(s, "*")) {
        *lo = min;
        *hi = open;
        return 0;
    }
    char a[64];
    const char *dash = strchr(s, '-');
    size_t n = dash ? (size_t)(dash - s) : strlen(s);
    if (n >= sizeof a) return fail(p, "%s '%s' is not a range", what, s);
    memcpy(a, s, n);
    a[n] = 0;
    if (parse_number(a, sized, lo) != 0)
        return fail(p, "%s '%s' is not a range (*, N, N- or N-M%s)", what, s,
                    sized ? "; K, M, G suffixes" : "");
    if (!dash) {
        *hi = *lo;
    } else if (!dash[1]) {
        *hi = open;
    } else if (parse_number(dash + 1, sized, hi) != 0) {
        return fail(p, "%s '%s' is not a range (*, N, N- or N-M%s)", what, s,
                    sized ? "; K, M, G suffixes" : "");
    }
    if (*lo < min || *lo > max || (*hi != open && *hi > max))
        return fail(p, "%s '%s' is out of range (%llu to %llu)", what, s, min, max);
    if (*hi < *lo) return fail(p, "%s '%s': the upper bound is below the lower one", what, s);
    return 0;
}

static int find_coll(const char *word)
{
    for (int i = 0; i < TERN_COLL_COUNT; i++)
        if (!strcasecmp(word, coll_names[i])) return i;
    /* Also MPI's spelling, MPI_Allreduce. */
    if (!strncasecmp(word, "MPI_", 4))
        for (int i = 0; i < TERN_COLL_COUNT; i++)
            if (!strcasecmp(word + 4, coll_names[i])) return i;
    return -1;
}

static const struct tern_param_desc *param_of(int coll)
{
    for (int i = 0; i < tern_param_count; i++)
        if (!strcmp(tern_param_table[i].name, param_names[coll])) return &tern_param_table[i];
    return NULL;
}

/* The words of collective coll's algorithms for intracommunicators, into buf. */
static void list_choices(int coll, const struct tern_param_desc *p, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 1; p->choices && p->choices[i]; i++) {
        if (!tern_coll_algo_serves_intra((enum tern_coll_id)coll, p->choices[i])) continue;
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s", n ? ", " : "", p->choices[i]);
    }
}

static int parse_row(struct parse *p, char *line, struct tern_coll_tuning_row *r)
{
    char *f[7];
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \t\r", &save); w;
         w = strtok_r(NULL, " \t\r", &save)) {
        if (n == 7) break;
        f[n++] = w;
    }
    if (n != 6)
        return fail(p, "%d fields where a row has 6: collective ranks hosts ppn bytes algorithm",
                    n == 7 ? 7 : n);
    int coll = find_coll(f[0]);
    if (coll < 0) return fail(p, "unknown collective '%s' (barrier, bcast, allreduce, ...)", f[0]);
    unsigned long long lo, hi;
    if (parse_range(p, "ranks", f[1], 0, 1, INT_MAX, INT_MAX, &lo, &hi)) return -1;
    r->ranks_lo = (int)lo, r->ranks_hi = (int)hi;
    if (parse_range(p, "hosts", f[2], 0, 1, INT_MAX, INT_MAX, &lo, &hi)) return -1;
    r->hosts_lo = (int)lo, r->hosts_hi = (int)hi;
    if (parse_range(p, "ppn", f[3], 0, 1, INT_MAX, INT_MAX, &lo, &hi)) return -1;
    r->ppn_lo = (int)lo, r->ppn_hi = (int)hi;
    /* Sizes up to 4G have buckets of their own; the last bucket is open. */
    const unsigned long long max = 1ULL << 32, open = ULLONG_MAX;
    if (parse_range(p, "bytes", f[4], 1, 0, max, open, &lo, &hi)) return -1;
    if ((lo & (lo - 1)) || (hi != open && (hi & (hi - 1))))
        return fail(p,
                    "bytes '%s': the bounds must be 0 or powers of two (sizes are rounded up "
                    "to one)",
                    f[4]);
    r->bucket_lo = (unsigned char)bucket_of_bound(lo);
    r->bucket_hi = (unsigned char)(hi == open ? TERN_COLL_BUCKETS - 1 : bucket_of_bound(hi));
    const struct tern_param_desc *prm = param_of(coll);
    int k = prm ? tern_param_choice_index(prm, f[5]) : -1;
    if (k <= 0 || !tern_coll_algo_serves_intra((enum tern_coll_id)coll, f[5])) {
        char words[512] = "";
        if (prm) list_choices(coll, prm, words, sizeof words);
        return fail(p, "%s has no algorithm '%s' for intracommunicators (TERN_%s's are: %s)",
                    coll_names[coll], f[5], param_names[coll], words);
    }
    r->coll = (unsigned char)coll;
    r->algo = prm->choices[k];
    r->line = p->line;
    return 0;
}

static unsigned long long fnv(unsigned long long h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* Parses text (modified) into rows; 0 or -1 with p->err set. */
static int parse_text(struct parse *p, char *text)
{
    int cap = 0;
    for (char *next = text; next; p->line++) {
        char *line = next;
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        next = nl ? nl + 1 : NULL;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        line += strspn(line, " \t\r");
        if (!*line) continue;
        if (nrows == cap) {
            cap = cap ? 2 * cap : 32;
            struct tern_coll_tuning_row *g = realloc(rows, (size_t)cap * sizeof *g);
            if (!g) return fail(p, "out of memory");
            rows = g;
        }
        if (parse_row(p, line, &rows[nrows]) != 0) return -1;
        nrows++;
    }
    return 0;
}

/* The whole file, NUL-terminated, or NULL with p->err set. */
static char *read_file(struct parse *p, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fail(p, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *g = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
            if (!g) {
                free(buf);
                buf = NULL;
                fail(p, "cannot read it: larger than 64 MiB or out of memory");
                break;
            }
            buf = g;
            cap *= 2;
        }
    }
    if (buf && ferror(f)) {
        fail(p, "cannot read it: %s", strerror(errno));
        free(buf);
        buf = NULL;
    } else if (!buf && !p->err[0]) {
        fail(p, "out of memory");
    }
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

int tern_coll_tuning_load(char *err, size_t len)
{
    free(rows);
    rows = NULL;
    nrows = 0;
    memset(has_rows, 0, sizeof has_rows);
    err[0] = 0;
    const char *path = tern_param.coll_tuning_file;
    int own = tern_param_is_set(path);
    snprintf(source, sizeof source, "%s", own ? path : "(built-in)");
    struct parse p = {.file = source, .err = err, .len = len};
    char *text = own ? read_file(&p, path) : strdup(builtin_text);
    p.line = text ? 1 : 0;
    int rc = text ? parse_text(&p, text) : -1;
    if (!text && !err[0]) fail(&p, "out of memory");
    free(text);
    if (rc != 0) {
        free(rows);
        rows = NULL;
        nrows = 0;
        return -1;
    }
    /* The digest speaks of the rows, not of the file's text: comments and
     * spacing may differ between copies. */
    unsigned long long h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < nrows; i++) {
        const struct tern_coll_tuning_row *r = &rows[i];
        int f[9] = {r->coll,   r->ranks_lo, r->ranks_hi,  r->hosts_lo, r->hosts_hi,
                    r->ppn_lo, r->ppn_hi,   r->bucket_lo, r->bucket_hi};
        h = fnv(h, f, sizeof f);
        h = fnv(h, r->algo, strlen(r->algo) + 1);
        has_rows[r->coll] = 1;
    }
    digest = h;
    return 0;
}

/* ---- Lookup ---- */

static int in(int v, int lo, int hi) { return v >= lo && v <= hi; }

const struct tern_coll_tuning_row *tern_coll_tuning_next(enum tern_coll_id id, int ranks, int hosts,
                                                         int ppn, unsigned bucket, int *at)
{
    for (; *at < nrows; (*at)++) {
        const struct tern_coll_tuning_row *r = &rows[*at];
        if (r->coll == id && in(ranks, r->ranks_lo, r->ranks_hi) &&
            in(hosts, r->hosts_lo, r->hosts_hi) && in(ppn, r->ppn_lo, r->ppn_hi) &&
            bucket >= r->bucket_lo && bucket <= r->bucket_hi) {
            (*at)++;
            return r;
        }
    }
    return NULL;
}

void tern_coll_tuning_shape(const struct tern_comm *c, int *hosts, int *ppn)
{
    *hosts = 1;
    *ppn = c->size;
    if (!tern_g.host_of || tern_g.nhosts <= 1) return;
    int *count = calloc((size_t)tern_g.nhosts, sizeof *count);
    if (!count) tern_fatal("out of memory counting the hosts of a communicator");
    int n = 0, most = 0;
    for (int i = 0; i < c->size; i++) {
        int h = tern_g.host_of[tern_comm_world_rank(c, i)];
        /* A process of another job: its host is not known alike by every
         * rank, so no row can match (0 hosts) and the conditions decide. */
        if (h < 0 || h >= tern_g.nhosts) {
            n = most = 0;
            break;
        }
        if (count[h]++ == 0) n++;
        if (count[h] > most) most = count[h];
    }
    free(count);
    *hosts = n;
    *ppn = most;
}

/* ---- Agreement at MPI_Init ---- */

#define DIGEST_KEY "coll.tuning"

int tern_coll_tuning_publish(char *err, size_t len)
{
    char word[32];
    snprintf(word, sizeof word, "%016llx", digest);
    if (tern_boot_put(DIGEST_KEY, word) == 0) return 0;
    snprintf(err, len, "cannot publish the collective tuning table's digest");
    return -1;
}

int tern_coll_tuning_check(char *err, size_t len)
{
    char mine[32], theirs[64];
    snprintf(mine, sizeof mine, "%016llx", digest);
    if (tern_boot_get(0, DIGEST_KEY, theirs, sizeof theirs) != 0) {
        snprintf(err, len, "cannot read rank 0's collective tuning table digest");
        return -1;
    }
    if (!strcmp(mine, theirs)) return 0;
    snprintf(err, len,
             "the collective tuning table of this rank (%.3000s: %d row%s, digest %s) differs from "
             "rank 0's (digest %s): every rank must load the same TERN_COLL_TUNING_FILE, or "
             "ranks of one collective could run different algorithms",
             source, nrows, nrows == 1 ? "" : "s", mine, theirs);
    return -1;
}
