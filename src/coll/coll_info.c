/* tern-info --coll (coll_info.h): the automatic choice, bucket by bucket. */
#include "coll/coll_info.h"

#include <string.h>

#include "coll/select.h"
#include "coll/tuning.h"
#include "core/params.h"
#include "core/state.h"
#include "topo/hw.h"

static const char *const coll_names[TERN_COLL_COUNT] = {
#define TERN_COLL_NAME(ID, field, mpi) [TERN_COLL_##ID] = #field,
    TERN_COLL_LIST(TERN_COLL_NAME)
#undef TERN_COLL_NAME
};
static const char *const param_names[TERN_COLL_COUNT] = {
#define TERN_COLL_PARAM(ID, field, mpi) [TERN_COLL_##ID] = "TERN_" #ID "_ALGORITHM",
    TERN_COLL_LIST(TERN_COLL_PARAM)
#undef TERN_COLL_PARAM
};

static const struct tern_param_desc *param_of(enum tern_coll_id id)
{
    for (int i = 0; i < tern_param_count; i++)
        if (!strcmp(tern_param_table[i].name, param_names[id] + 5)) return &tern_param_table[i];
    return NULL;
}

/* The largest size of bucket k (select.h): 0, 1, 2, 4, ... */
static size_t bucket_top(unsigned k) { return k ? (size_t)1 << (k - 1) : 0; }

static void size_text(size_t b, char *buf, size_t len)
{
    static const char unit[] = "KMG";
    int u = -1;
    while (b >= 1024 && b % 1024 == 0 && u < 2) b /= 1024, u++;
    if (u < 0)
        snprintf(buf, len, "%zu", b);
    else
        snprintf(buf, len, "%zu%c", b, unit[u]);
}

/* Buckets lo..hi in the table's own notation. */
static void range_text(unsigned lo, unsigned hi, char *buf, size_t len)
{
    char a[24], b[24];
    if (lo == 0 && hi == TERN_COLL_BUCKETS - 1) {
        snprintf(buf, len, "*");
        return;
    }
    size_text(bucket_top(lo), a, sizeof a);
    size_text(bucket_top(hi), b, sizeof b);
    if (hi == TERN_COLL_BUCKETS - 1)
        snprintf(buf, len, "%s-", a);
    else if (lo == hi)
        snprintf(buf, len, "%s", a);
    else
        snprintf(buf, len, "%s-%s", a, b);
}

struct pick {
    const char *algo;
    char why[64];
};

static void pick_of(enum tern_coll_id id, int np, int hosts, int ppn, int shm, unsigned k,
                    int commutative, struct pick *p)
{
    int line;
    p->algo = tern_coll_predict(id, np, hosts, ppn, shm, bucket_top(k), commutative, &line);
    if (!p->algo) p->algo = "(none)";
    const struct tern_param_desc *d = param_of(id);
    const char *forced = d ? *(const char *const *)d->value : "auto";
    if (line)
        snprintf(p->why, sizeof p->why, "table line %d", line);
    else if (!strcmp(forced, p->algo))
        snprintf(p->why, sizeof p->why, "%s", param_names[id]);
    else
        snprintf(p->why, sizeof p->why, "conditions");
}

static int same(const struct pick *a, const struct pick *b)
{
    return !strcmp(a->algo, b->algo) && !strcmp(a->why, b->why);
}

/* The rows of one collective for one kind of operation; with 'only_if'
 * (the other kind's picks), nothing when they are all alike. */
static void print_coll(FILE *out, const char *label, const struct pick *picks,
                       const struct pick *only_if)
{
    if (only_if) {
        int differs = 0;
        for (unsigned k = 0; k < TERN_COLL_BUCKETS; k++) differs |= !same(&picks[k], &only_if[k]);
        if (!differs) return;
    }
    for (unsigned k = 0; k < TERN_COLL_BUCKETS;) {
        unsigned e = k;
        while (e + 1 < TERN_COLL_BUCKETS && same(&picks[e + 1], &picks[k])) e++;
        char range[64];
        range_text(k, e, range, sizeof range);
        fprintf(out, "%-38s %-12s %-20s %s\n", label, range, picks[k].algo, picks[k].why);
        k = e + 1;
    }
}

/* How the shared-memory barrier, bcast, reduce and allreduce group the
 * ranks (shm_coll_levels.c), and where this process lies. */
static void print_levels(FILE *out)
{
    fprintf(out, "\nshared-memory barrier, bcast, reduce, allreduce: ");
    if (tern_param.shmcoll_group > 0)
        fprintf(out, "groups of %d ranks %s, each through its highest rank (TERN_SHMCOLL_GROUP)\n",
                (int)tern_param.shmcoll_group,
                tern_param.shmcoll_group_deal ? "dealt round-robin" : "in a row");
    else if (!strcmp(tern_param.shmcoll_level, "none"))
        fprintf(out, "flat (TERN_SHMCOLL_LEVEL=none)\n");
    else
        fprintf(out,
                "through a leader per instance of %s (TERN_SHMCOLL_LEVEL=%s) where those split "
                "a communicator's ranks%s, each bound within one; this process lies in L3 %d, "
                "NUMA node %d, package %d (-1: in none alone)\n",
                !strcmp(tern_param.shmcoll_level, "auto")
                    ? "the L3 cache, the NUMA node or the package, the first that does"
                    : tern_param.shmcoll_level,
                tern_param.shmcoll_level,
                !strcmp(tern_param.shmcoll_level, "auto") ? ", 16 or more" : "",
                tern_hw_instance_id(TERN_HW_L3), tern_hw_instance_id(TERN_HW_NUMA),
                tern_hw_instance_id(TERN_HW_PACKAGE));
}

int tern_coll_info_print(FILE *out, FILE *err, int np, int ppn)
{
    if (tern_g.init_state == TERN_STATE_NONE) {
        tern_params_load(0);
        char msg[4200];
        if (tern_coll_tuning_load(msg, sizeof msg) != 0) {
            fprintf(err, "TERN_COLL_TUNING_FILE: %s\n", msg);
            return 1;
        }
    }
    if (np < 1) np = 1;
    if (ppn < 1 || ppn > np) ppn = np;
    int hosts = (np + ppn - 1) / ppn;
    /* Shared memory as MPI_Init sets it up: a communicator on one host, with
     * collective areas to spare. */
    int shm = hosts == 1 && np > 1 && tern_param.use_shared_mem && tern_param.shmcoll_comms > 0;
    fprintf(out,
            "Collective algorithms for an intracommunicator of %d ranks, %d per host (%d host%s)\n"
            "tuning table: %s, %d rows\n"
            "bytes: the size each collective selects on, rounded up to a power of two\n\n",
            np, ppn, hosts, hosts == 1 ? "" : "s", tern_coll_tuning_source(),
            tern_coll_tuning_count());
    fprintf(out, "%-38s %-12s %-20s %s\n", "COLLECTIVE", "BYTES", "ALGORITHM", "DECIDED BY");
    for (int id = 0; id < TERN_COLL_COUNT; id++) {
        struct pick comm[TERN_COLL_BUCKETS], noncomm[TERN_COLL_BUCKETS];
        for (unsigned k = 0; k < TERN_COLL_BUCKETS; k++) {
            pick_of((enum tern_coll_id)id, np, hosts, ppn, shm, k, 1, &comm[k]);
            pick_of((enum tern_coll_id)id, np, hosts, ppn, shm, k, 0, &noncomm[k]);
        }
        char label[64];
        print_coll(out, coll_names[id], comm, NULL);
        snprintf(label, sizeof label, "%s (non-commutative)", coll_names[id]);
        print_coll(out, label, noncomm, comm);
    }
    if (shm) print_levels(out);
    return ferror(out) ? 1 : 0;
}

void tern_coll_info_algorithms(FILE *out)
{
    if (tern_g.init_state == TERN_STATE_NONE) tern_params_load(0);
    for (int id = 0; id < TERN_COLL_COUNT; id++) {
        const struct tern_param_desc *d = param_of((enum tern_coll_id)id);
        fprintf(out, "%s", coll_names[id]);
        for (int k = 1; d && d->choices && d->choices[k]; k++)
            if (tern_coll_algo_serves_intra((enum tern_coll_id)id, d->choices[k]))
                fprintf(out, " %s", d->choices[k]);
        fputc('\n', out);
    }
}
