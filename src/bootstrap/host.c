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
static void default_id(char *id, size_t len, const char *node)
{
    char host[128] = "localhost", boot[64] = "";
    if (node && node[0])
        snprintf(host, sizeof host, "%s", node);
    else if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "localhost");
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(boot, sizeof boot, f)) boot[0] = 0;
        fclose(f);
    }
    boot[strcspn(boot, "\n")] = 0;
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
    if (override && override[0] && strcmp(override, "auto") != 0)
        snprintf(out->id, sizeof out->id, "%s", override);
    else
        default_id(out->id, sizeof out->id, node);
    if (ranks_per_host > 0) {
        size_t n = strlen(out->id);
        snprintf(out->id + n, sizeof out->id - n, "#sim%d", rank / ranks_per_host);
    }
    /* The bootstrap carries words: no blanks or control characters. */
    tern_boot_to_word(out->id);

    out->host_of = calloc((size_t)size, sizeof *out->host_of);
    char(*ids)[TERN_HOST_ID_MAX] = calloc((size_t)size, sizeof *ids);
    if (!out->host_of || !ids) {
        fprintf(stderr, "tern: out of memory for the host ids of %d ranks\n", size);
        free(ids);
        tern_hosts_free(out);
        return -1;
    }
    char key[64];
    if (size > 1) {
        snprintf(key, sizeof key, "host.%d", rank);
        if (tern_boot_put(key, out->id) != 0 || tern_boot_fence() != 0) goto lost;
    }
    for (int r = 0; r < size; r++) {
        if (r == rank) {
            snprintf(ids[r], sizeof ids[r], "%s", out->id);
        } else {
            snprintf(key, sizeof key, "host.%d", r);
            if (tern_boot_get(r, key, ids[r], sizeof ids[r]) != 0) goto lost;
        }
        int h = index_of(ids, r, ids[r]);
        out->host_of[r] = h >= 0 ? out->host_of[h] : out->nhosts++;
    }
    for (int r = 0; r < size; r++) {
        if (out->host_of[r] != out->host_of[rank]) continue;
        if (r < rank) out->local_rank++;
        out->local_size++;
    }
    free(ids);
    return 0;
lost:
    fprintf(stderr, "tern: rank %d could not exchange host ids through the launcher\n", rank);
    free(ids);
    tern_hosts_free(out);
    return -1;
}

void tern_hosts_free(struct tern_hosts *h)
{
    free(h->host_of);
    h->host_of = NULL;
}
