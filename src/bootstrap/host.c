#include "bootstrap/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootstrap/boot.h"
#include "bootstrap/boot_backend.h"

/* Two containers or VMs may share a hostname; they never share a boot id,
 * and shared memory needs one kernel.  The launcher's name for the host
 * comes first: Slurm's nodes are what the job was given, even where two of
 * them are one machine, as in tests (tools/hosts/slurm.sh). */
static void read_boot_id(char *boot, size_t len)
{
    boot[0] = 0;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(boot, (int)len, f)) boot[0] = 0;
        fclose(f);
    }
    boot[strcspn(boot, "\n")] = 0;
}

static void default_id(char *id, size_t len, const char *node, const char *boot)
{
    char host[128] = "localhost";
    if (node && node[0])
        snprintf(host, sizeof host, "%s", node);
    else if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "localhost");
    snprintf(id, len, "%s/%s", host, boot[0] ? boot : "-");
}

static int index_of(char (*ids)[TERN_HOST_ID_MAX], int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(ids[i], id) == 0) return i;
    return -1;
}

int tern_hosts_exchange(int rank, int size, const char *node, const char *override,
                        int ranks_per_host, struct tern_hosts *out)
{
    memset(out, 0, sizeof *out);
    char boot[64];
    read_boot_id(boot, sizeof boot);
    if (override && override[0] && strcmp(override, "auto") != 0)
        snprintf(out->id, sizeof out->id, "%s", override);
    else
        default_id(out->id, sizeof out->id, node, boot);
    if (ranks_per_host > 0) {
        size_t n = strlen(out->id);
        snprintf(out->id + n, sizeof out->id - n, "#sim%d", rank / ranks_per_host);
    }
    /* The bootstrap carries words: no blanks or control characters. */
    tern_boot_to_word(out->id);

    out->host_of = calloc((size_t)size, sizeof *out->host_of);
    out->file_of = calloc((size_t)size, sizeof *out->file_of);
    char(*ids)[TERN_HOST_ID_MAX] = calloc((size_t)size, sizeof *ids);
    char(*files)[80] = calloc((size_t)size, sizeof *files);
    if (!out->host_of || !out->file_of || !ids || !files) {
        fprintf(stderr, "tern: out of memory for the host ids of %d ranks\n", size);
        free(ids);
        free(files);
        tern_hosts_free(out);
        return -1;
    }
    /* Each rank publishes "<kernel>|<file>|<host id>": the kernel is its
     * boot id (the host id where there is none), so that ranks of simulated
     * hosts on one machine still share its cores out between them; the file
     * is its shared-memory file, which such hosts may share too. */
    char kernel[TERN_HOST_ID_MAX], file[64], mine[2 * TERN_HOST_ID_MAX + 80];
    snprintf(kernel, sizeof kernel, "%s", boot[0] ? boot : out->id);
    tern_boot_to_word(kernel);
    tern_boot_shm_file_id(file, sizeof file);
    snprintf(mine, sizeof mine, "%s|%s|%s", kernel, file, out->id);
    char *kernels = calloc((size_t)size, 1); /* same kernel as this rank */
    if (!kernels) goto oom;
    char key[64];
    if (size > 1) {
        snprintf(key, sizeof key, "host.%d", rank);
        if (tern_boot_put(key, mine) != 0 || tern_boot_fence() != 0) goto lost;
    }
    for (int r = 0; r < size; r++) {
        char word[sizeof mine];
        if (r == rank) {
            snprintf(word, sizeof word, "%s", mine);
        } else {
            snprintf(key, sizeof key, "host.%d", r);
            if (tern_boot_get(r, key, word, sizeof word) != 0) goto lost;
        }
        char *bar = strchr(word, '|'), *bar2 = bar ? strchr(bar + 1, '|') : NULL;
        if (!bar2) goto lost;
        *bar = *bar2 = 0;
        kernels[r] = strcmp(word, kernel) == 0;
        snprintf(ids[r], sizeof ids[r], "%s", bar2 + 1);
        int h = index_of(ids, r, ids[r]);
        out->host_of[r] = h >= 0 ? out->host_of[h] : out->nhosts++;
        /* No file yet (PMI): each host makes its own. */
        if (strcmp(bar + 1, "-") == 0)
            snprintf(files[r], sizeof files[r], "host %d", out->host_of[r]);
        else
            snprintf(files[r], sizeof files[r], "%.36s %.40s", word, bar + 1);
        int f = 0;
        while (strcmp(files[f], files[r]) != 0) f++;
        out->file_of[r] = f;
    }
    for (int r = 0; r < size; r++) {
        if (kernels[r]) {
            if (r < rank) out->kernel_rank++;
            out->kernel_size++;
        }
        if (out->host_of[r] != out->host_of[rank]) continue;
        if (r < rank) out->local_rank++;
        out->local_size++;
    }
    free(kernels);
    free(ids);
    free(files);
    return 0;
oom:
    fprintf(stderr, "tern: out of memory for the host ids of %d ranks\n", size);
    free(ids);
    free(files);
    tern_hosts_free(out);
    return -1;
lost:
    fprintf(stderr, "tern: rank %d could not exchange host ids through the launcher\n", rank);
    free(kernels);
    free(ids);
    free(files);
    tern_hosts_free(out);
    return -1;
}

void tern_hosts_free(struct tern_hosts *h)
{
    free(h->host_of);
    h->host_of = NULL;
    free(h->file_of);
    h->file_of = NULL;
}
