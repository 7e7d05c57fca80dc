/* File hints (MPI-4.1 14.2.8): the keys Tern reads, with the values in
 * effect reported back by MPI_File_get_info.  Keys it does not know are
 * dropped, as the standard allows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/info.h"
#include "io/io.h"

/* Key, default (NULL: reported only when given). */
static const struct {
    const char *key, *dflt;
} known[] = {
    {"cb_buffer_size", "16777216"},
    {"cb_nodes", NULL},
    {"romio_cb_read", "automatic"},
    {"romio_cb_write", "automatic"},
    {"romio_ds_read", "automatic"},
    {"romio_ds_write", "automatic"},
    {"ind_rd_buffer_size", "4194304"},
    {"ind_wr_buffer_size", "524288"},
    {"striping_factor", NULL},
    {"striping_unit", NULL},
    {"access_style", NULL},
    {"collective_buffering", NULL},
};
#define NKNOWN (sizeof known / sizeof known[0])

int tern_file_hints_set(struct tern_file *f, const struct tern_info *info)
{
    if (!f->hints && !(f->hints = tern_info_new())) return MPI_ERR_NO_MEM;
    if (!info) return MPI_SUCCESS;
    for (size_t i = 0; i < NKNOWN; i++) {
        const char *v = tern_info_find(info, known[i].key);
        if (v && tern_info_set(f->hints, known[i].key, v)) return MPI_ERR_NO_MEM;
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
        if (!v && strcmp(known[i].key, "cb_nodes") == 0) {
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
    if (!v) return dflt;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return end != v && *end == '\0' && n > 0 ? (size_t)n : dflt;
}

int tern_file_hint_switch(const struct tern_file *f, const char *key)
{
    const char *v = f->hints ? tern_info_find(f->hints, key) : NULL;
    if (!v) return -1;
    if (strcmp(v, "enable") == 0) return 1;
    if (strcmp(v, "disable") == 0) return 0;
    return -1;
}
