/* File hints (MPI-4.1 14.2.8): the keys Tern reads, with the values in
 * effect reported back by MPI_File_get_info.  Keys it does not know, and
 * values a key cannot take, are dropped (the previous value stays), as the
 * standard allows for hints.
 *
 * There is no striped file system under a POSIX file: what the striping
 * hints mean here is chosen to serve the same purpose,
 *   striping_unit    the collective-buffering file domains of the
 *                    aggregators start at multiples of it (io/file_coll.c),
 *                    so no two aggregators write into one stripe or block;
 *   striping_factor  the number of aggregators when cb_nodes is not given
 *                    (one per stripe, at most one per rank; cb_nodes
 *                    reports how many);
 *   access_style     advice to the kernel's page cache on the file
 *                    (posix_fadvise): sequential -> SEQUENTIAL, random ->
 *                    RANDOM, read_once / write_once -> NOREUSE and, after
 *                    each read with read_once, DONTNEED over what was read;
 *                    the other words of the standard -> NORMAL.  It is
 *                    reported only when the kernel took the advice. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/info.h"
#include "io/io.h"

enum kind {
    NUMBER, /* a positive integer */
    SWITCH, /* enable, disable, automatic */
    BOOLEAN,
    STYLE /* access_style: a list of the standard's words */
};

/* Key, kind, default (NULL: reported only when given). */
static const struct {
    const char *key;
    enum kind kind;
    const char *dflt;
} known[] = {
    {"cb_buffer_size", NUMBER, "16777216"},
    {"cb_nodes", NUMBER, NULL}, /* reported as the aggregators in use (at most one a rank) */
    {"romio_cb_read", SWITCH, "automatic"},
    {"romio_cb_write", SWITCH, "automatic"},
    {"romio_ds_read", SWITCH, "automatic"},
    {"romio_ds_write", SWITCH, "automatic"},
    {"ind_rd_buffer_size", NUMBER, "4194304"},
    {"ind_wr_buffer_size", NUMBER, "524288"},
    {"striping_factor", NUMBER, NULL},
    {"striping_unit", NUMBER, NULL},
    {"access_style", STYLE, NULL},
    {"collective_buffering", BOOLEAN, NULL},
};
#define NKNOWN (sizeof known / sizeof known[0])

static const char *const styles[] = {"read_once",    "write_once", "read_mostly",
                                     "write_mostly", "sequential", "reverse_sequential",
                                     "random"};
#define NSTYLES (sizeof styles / sizeof styles[0])

static int positive(const char *v, unsigned long long *out)
{
    char *end;
    if (*v < '0' || *v > '9') return 0; /* strtoull takes "-1" */
    unsigned long long n = strtoull(v, &end, 10);
    if (end == v || *end != '\0' || n == 0 || n > (unsigned long long)INT64_MAX) return 0;
    if (out) *out = n;
    return 1;
}

/* The words of an access_style value Tern knows, comma-separated, in
 * order, once each; the bits of their indices in *words.  0: none. */
static int style_words(const char *v, char *out, size_t cap, unsigned *words)
{
    *words = 0;
    out[0] = '\0';
    while (*v) {
        size_t n = strcspn(v, ",");
        const char *w = v;
        size_t wl = n;
        while (wl && *w == ' ') w++, wl--;
        while (wl && w[wl - 1] == ' ') wl--;
        for (unsigned i = 0; i < NSTYLES; i++)
            if (strlen(styles[i]) == wl && strncmp(styles[i], w, wl) == 0 && !(*words >> i & 1)) {
                *words |= 1u << i;
                size_t at = strlen(out);
                snprintf(out + at, cap - at, "%s%s", at ? "," : "", styles[i]);
            }
        v += n + (v[n] == ',');
    }
    return *words != 0;
}

static int style_has(unsigned words, const char *w)
{
    for (unsigned i = 0; i < NSTYLES; i++)
        if ((words >> i & 1) && strcmp(styles[i], w) == 0) return 1;
    return 0;
}

/* The kernel's advice for the words: 0 when it took it, else errno. */
static int advise(const struct tern_file *f, unsigned words)
{
    int adv = POSIX_FADV_NORMAL;
    if (style_has(words, "random"))
        adv = POSIX_FADV_RANDOM;
    else if (style_has(words, "sequential"))
        adv = POSIX_FADV_SEQUENTIAL;
    else if (style_has(words, "read_once") || style_has(words, "write_once"))
        adv = POSIX_FADV_NOREUSE;
    return posix_fadvise(f->fd, 0, 0, adv);
}

/* v as the library uses it (into buf), or NULL when it cannot take it. */
static const char *valid(const struct tern_file *f, enum kind k, const char *v, char *buf,
                         size_t cap)
{
    unsigned long long n;
    unsigned words;
    switch (k) {
    case NUMBER:
        if (!positive(v, &n)) return NULL;
        snprintf(buf, cap, "%llu", n);
        return buf;
    case SWITCH:
        return strcmp(v, "enable") == 0 || strcmp(v, "disable") == 0 || strcmp(v, "automatic") == 0
                   ? v
                   : NULL;
    case BOOLEAN: return strcmp(v, "true") == 0 || strcmp(v, "false") == 0 ? v : NULL;
    case STYLE:
        if (!style_words(v, buf, cap, &words) || advise(f, words) != 0) return NULL;
        return buf;
    }
    return NULL;
}

int tern_file_hints_set(struct tern_file *f, const struct tern_info *info)
{
    if (!f->hints && !(f->hints = tern_info_new())) return MPI_ERR_NO_MEM;
    if (!info) return MPI_SUCCESS;
    for (size_t i = 0; i < NKNOWN; i++) {
        const char *v = tern_info_find(info, known[i].key);
        char buf[MPI_MAX_INFO_VAL + 1];
        if (v && (v = valid(f, known[i].kind, v, buf, sizeof buf)) &&
            tern_info_set(f->hints, known[i].key, v))
            return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

struct tern_info *tern_file_hints_get(const struct tern_file *f)
{
    struct tern_info *out = tern_info_new();
    if (!out) return NULL;
    for (size_t i = 0; i < NKNOWN; i++) {
        const char *v = f->hints ? tern_info_find(f->hints, known[i].key) : NULL;
        char n[32];
        if (strcmp(known[i].key, "cb_nodes") == 0) {
            snprintf(n, sizeof n, "%d", tern_file_cb_nodes(f));
            v = n;
        }
        if (!v) v = known[i].dflt;
        if (v && tern_info_set(out, known[i].key, v)) {
            tern_info_destroy(out);
            return NULL;
        }
    }
    return out;
}

size_t tern_file_hint_size(const struct tern_file *f, const char *key, size_t dflt)
{
    const char *v = f->hints ? tern_info_find(f->hints, key) : NULL;
    unsigned long long n;
    return v && positive(v, &n) ? (size_t)n : dflt;
}

int tern_file_hint_switch(const struct tern_file *f, const char *key)
{
    const char *v = f->hints ? tern_info_find(f->hints, key) : NULL;
    if (!v) return -1;
    if (strcmp(v, "enable") == 0) return 1;
    if (strcmp(v, "disable") == 0) return 0;
    return -1;
}

void tern_file_read_done(const struct tern_file *f, MPI_Offset lo, MPI_Offset hi)
{
    const char *v = f->hints ? tern_info_find(f->hints, "access_style") : NULL;
    char buf[MPI_MAX_INFO_VAL + 1];
    unsigned words;
    if (v && hi > lo && style_words(v, buf, sizeof buf, &words) && style_has(words, "read_once"))
        posix_fadvise(f->fd, lo, hi - lo, POSIX_FADV_DONTNEED);
}
