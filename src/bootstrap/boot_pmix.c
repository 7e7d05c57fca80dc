/* Bootstrap through PMIx (OpenPMIx 4, under `srun --mpi=pmix` or any PMIx
 * server).
 *
 * PMIx files each value under the process that put it: a get asks the
 * owner's data (boot.h), and only what the last fence collected
 * (PMIX_OPTIONAL), so an absent key is an answer, never a request to the
 * server that waits for someone to put it. */
#include <pmix.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap/boot_backend.h"

static pmix_proc_t pmix_me;

static int pmix_fail(const char *call, pmix_status_t rc)
{
    fprintf(stderr, "tern: PMIx: %s failed: %s\n", call, PMIx_Error_string(rc));
    return -1;
}

static int pmix_present(void)
{
    return getenv("PMIX_NAMESPACE") != NULL && getenv("PMIX_RANK") != NULL;
}

/* PMIx puts the size in no variable; Slurm does. */
static int pmix_env_size(void)
{
    const char *s = getenv("SLURM_STEP_NUM_TASKS");
    char *end;
    long v = s ? strtol(s, &end, 10) : -1;
    return s && *end == '\0' && v > 0 && v <= 0x7fffffff ? (int)v : -1;
}

/* An unsigned job or process attribute; 'who' is this process or the job. */
static int get_uint(const pmix_proc_t *who, const char *key, long *out)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(who, key, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || !v) return -1;
    int ok = 0;
    switch (v->type) {
    case PMIX_UINT32: *out = (long)v->data.uint32; break;
    case PMIX_UINT16: *out = (long)v->data.uint16; break;
    case PMIX_INT: *out = (long)v->data.integer; break;
    case PMIX_UINT: *out = (long)v->data.uint; break;
    default: ok = -1;
    }
    PMIX_VALUE_RELEASE(v);
    return ok;
}

static int pmix_init(struct tern_boot_info *in)
{
    pmix_status_t rc = PMIx_Init(&pmix_me, NULL, 0);
    if (rc != PMIX_SUCCESS) return pmix_fail("PMIx_Init", rc);
    pmix_proc_t job;
    PMIX_PROC_LOAD(&job, pmix_me.nspace, PMIX_RANK_WILDCARD);
    long size, lrank, lsize, appnum;
    if (get_uint(&job, PMIX_JOB_SIZE, &size) < 0 || size < 1 || size > 0x7fffffff ||
        pmix_me.rank >= (pmix_rank_t)size) {
        fprintf(stderr, "tern: PMIx gives no job size (or rank %u is outside it)\n",
                (unsigned)pmix_me.rank);
        return -1;
    }
    in->rank = (int)pmix_me.rank;
    in->size = (int)size;
    /* Local rank and size only describe the launcher's placement; the host
     * ids (host.c) decide. */
    in->local_rank = get_uint(&pmix_me, PMIX_LOCAL_RANK, &lrank) == 0 ? (int)lrank : 0;
    in->local_size = get_uint(&job, PMIX_LOCAL_SIZE, &lsize) == 0 ? (int)lsize : 1;
    in->appnum = get_uint(&pmix_me, PMIX_APPNUM, &appnum) == 0 ? (int)appnum : 0;
    if (snprintf(in->job_id, sizeof in->job_id, "pmix-%s", pmix_me.nspace) >=
        (int)sizeof in->job_id) {
        fprintf(stderr, "tern: PMIx's namespace '%s' is too long\n", pmix_me.nspace);
        return -1;
    }
    tern_boot_to_word(in->job_id);
    in->node[0] = '\0';
    pmix_value_t *v = NULL;
    if (PMIx_Get(&pmix_me, PMIX_HOSTNAME, NULL, 0, &v) == PMIX_SUCCESS && v) {
        if (v->type == PMIX_STRING && v->data.string)
            snprintf(in->node, sizeof in->node, "%s", v->data.string);
        PMIX_VALUE_RELEASE(v);
    }
    return 0;
}

static int pmix_put(const char *key, const char *value)
{
    pmix_value_t v;
    v.type = PMIX_STRING;
    v.data.string = (char *)value;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    return rc == PMIX_SUCCESS ? 0 : pmix_fail("PMIx_Put", rc);
}

static int pmix_get(int owner, const char *key, char *value, size_t max)
{
    pmix_proc_t who;
    PMIX_PROC_LOAD(&who, pmix_me.nspace, (pmix_rank_t)owner);
    pmix_info_t opt;
    bool yes = true;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&who, key, &opt, 1, &v);
    PMIX_INFO_DESTRUCT(&opt);
    if (rc != PMIX_SUCCESS || !v) return -1;
    int ok = -1;
    if (v->type == PMIX_STRING && v->data.string) {
        size_t len = strlen(v->data.string);
        if (len < max) {
            memcpy(value, v->data.string, len + 1);
            ok = 0;
        } else {
            fprintf(stderr, "tern: the value of '%s' (%zu bytes) does not fit in %zu bytes\n", key,
                    len, max);
        }
    }
    PMIX_VALUE_RELEASE(v);
    return ok;
}

static int pmix_fence(void)
{
    pmix_status_t rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) return pmix_fail("PMIx_Commit", rc);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    return rc == PMIX_SUCCESS ? 0 : pmix_fail("PMIx_Fence", rc);
}

static int pmix_finalize(void)
{
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS ? 0 : pmix_fail("PMIx_Finalize", rc);
}

static void pmix_abort(int code, const char *msg) { PMIx_Abort(code, msg, NULL, 0); }

const struct tern_boot_backend tern_boot_pmix = {
    .name = "PMIx",
    .srun_option = "--mpi=pmix",
    .present = pmix_present,
    .env_size = pmix_env_size,
    .init = pmix_init,
    .put = pmix_put,
    .get = pmix_get,
    .fence = pmix_fence,
    .finalize = pmix_finalize,
    .abort = pmix_abort,
};
