/* Bootstrap through PMI2 (Slurm's libpmi2, under `srun --mpi=pmi2`).
 *
 * PMI2's key-value space is the job's: a key any rank puts is seen by every
 * rank after the next fence, as Tern's own launcher does it.  Local rank
 * and size come from the job attribute PMI_process_mapping; the node's name
 * from SLURMD_NODENAME, which slurmd gives each task. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap/boot_backend.h"
#include "slurm/pmi2.h"

static int pmi2_fail(const char *call, int rc)
{
    fprintf(stderr, "tern: PMI2: %s failed (PMI2 error %d)\n", call, rc);
    return -1;
}

static int pmi2_present(void) { return getenv("PMI_FD") != NULL && getenv("PMI_RANK") != NULL; }

static int pmi2_env_size(void)
{
    const char *s = getenv("PMI_SIZE");
    char *end;
    long v = s ? strtol(s, &end, 10) : -1;
    return s && *end == '\0' && v > 0 && v <= 0x7fffffff ? (int)v : -1;
}

/* Reads one "(first_node,nodes,ranks_per_node)" triple at *p. */
static int read_block(const char **p, long b[3])
{
    const char *s = *p;
    if (*s != '(') return -1;
    s++;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        b[i] = strtol(s, &end, 10);
        if (errno || end == s || b[i] < 0 || *end != (i < 2 ? ',' : ')')) return -1;
        s = end + 1;
    }
    *p = s;
    return 0;
}

/* PMI_process_mapping, "(vector,(0,2,4),(2,1,3))": blocks of nodes with so
 * many consecutive ranks each, repeated from the start until every rank
 * has a node (a cyclic placement is "(vector,(0,N,1))").  Sets this rank's
 * local rank and size; -1 when the string is not such a mapping. */
static int place_from_mapping(const char *map, struct tern_boot_info *in)
{
    const char *start = map;
    while (*start == ' ') start++;
    if (strncmp(start, "(vector,", 8) != 0) return -1;
    start += 8;
    int *node_of = malloc((size_t)in->size * sizeof *node_of);
    if (!node_of) return -1;
    int r = 0;
    while (r < in->size) {
        const char *p = start;
        int progress = 0;
        while (r < in->size && *p == '(') {
            long b[3];
            if (read_block(&p, b) < 0) {
                free(node_of);
                return -1;
            }
            for (long n = 0; n < b[1]; n++)
                for (long k = 0; k < b[2] && r < in->size; k++, progress = 1)
                    node_of[r++] = (int)(b[0] + n);
            if (*p == ',') p++;
        }
        if (*p != ')' || !progress) {
            free(node_of);
            return -1;
        }
    }
    in->local_rank = in->local_size = 0;
    for (r = 0; r < in->size; r++) {
        if (node_of[r] != node_of[in->rank]) continue;
        if (r < in->rank) in->local_rank++;
        in->local_size++;
    }
    free(node_of);
    return 0;
}

static int pmi2_init(struct tern_boot_info *in)
{
    int spawned = 0, rc = PMI2_Init(&spawned, &in->size, &in->rank, &in->appnum);
    if (rc != PMI2_SUCCESS) return pmi2_fail("PMI2_Init", rc);
    if (in->size < 1 || in->rank < 0 || in->rank >= in->size) {
        fprintf(stderr, "tern: PMI2 gave rank %d of %d\n", in->rank, in->size);
        return -1;
    }
    if (in->appnum < 0) in->appnum = 0;
    char id[PMI2_MAX_VALLEN];
    rc = PMI2_Job_GetId(id, sizeof id);
    if (rc != PMI2_SUCCESS) return pmi2_fail("PMI2_Job_GetId", rc);
    if (snprintf(in->job_id, sizeof in->job_id, "pmi2-%s", id) >= (int)sizeof in->job_id) {
        fprintf(stderr, "tern: PMI2's job id '%.80s' is too long\n", id);
        return -1;
    }
    tern_boot_to_word(in->job_id);

    char map[PMI2_MAX_ATTRVALUE];
    int found = 0;
    rc = PMI2_Info_GetJobAttr("PMI_process_mapping", map, sizeof map, &found);
    if (rc != PMI2_SUCCESS || !found || place_from_mapping(map, in) < 0) {
        /* Without a mapping the host ids (host.c) still place every rank;
         * these two only describe the launcher's view. */
        in->local_rank = 0;
        in->local_size = 1;
    }
    const char *node = getenv("SLURMD_NODENAME");
    snprintf(in->node, sizeof in->node, "%s", node ? node : "");
    return 0;
}

static int pmi2_put(const char *key, const char *value)
{
    if (strlen(value) >= PMI2_MAX_VALLEN) {
        fprintf(stderr, "tern: PMI2 holds values of at most %d bytes; '%s' has %zu\n",
                PMI2_MAX_VALLEN - 1, key, strlen(value));
        return -1;
    }
    int rc = PMI2_KVS_Put(key, value);
    return rc == PMI2_SUCCESS ? 0 : pmi2_fail("PMI2_KVS_Put", rc);
}

static int pmi2_get(int owner, const char *key, char *value, size_t max)
{
    char v[PMI2_MAX_VALLEN + 1];
    int len = 0;
    int rc = PMI2_KVS_Get(NULL, owner, key, v, (int)sizeof v, &len);
    if (rc != PMI2_SUCCESS || len < 0) return -1;
    v[sizeof v - 1] = '\0';
    if (strlen(v) >= max) {
        fprintf(stderr, "tern: the value of '%s' (%zu bytes) does not fit in %zu bytes\n", key,
                strlen(v), max);
        return -1;
    }
    strcpy(value, v);
    return 0;
}

static int pmi2_fence(void)
{
    int rc = PMI2_KVS_Fence();
    return rc == PMI2_SUCCESS ? 0 : pmi2_fail("PMI2_KVS_Fence", rc);
}

static int pmi2_finalize(void)
{
    int rc = PMI2_Finalize();
    return rc == PMI2_SUCCESS ? 0 : pmi2_fail("PMI2_Finalize", rc);
}

/* PMI2 carries no exit code: Slurm ends the step and reports the abort. */
static void pmi2_abort(int code, const char *msg)
{
    (void)code;
    PMI2_Abort(1, msg);
}

const struct tern_boot_backend tern_boot_pmi2 = {
    .name = "PMI2",
    .srun_option = "--mpi=pmi2",
    .present = pmi2_present,
    .env_size = pmi2_env_size,
    .init = pmi2_init,
    .put = pmi2_put,
    .get = pmi2_get,
    .fence = pmi2_fence,
    .finalize = pmi2_finalize,
    .abort = pmi2_abort,
};
