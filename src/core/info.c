/* MPI_Info objects and MPI_INFO_ENV (see info.h). */
#include "core/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bootstrap/boot.h"
#include "core/errors.h"
#include "core/handle.h"

static struct tern_objtab info_table = {.kind = TERN_KIND_INFO};

/* MPI_INFO_ENV, built on first use (it describes the launch, the same
 * before MPI_Init as after). */
static struct tern_info *env_info;

struct tern_info *tern_info_get(MPI_Info h)
{
    if (h == MPI_INFO_ENV) {
        if (!env_info && (env_info = tern_info_env_new(0, NULL)) != NULL)
            env_info->handle = MPI_INFO_ENV;
        return env_info;
    }
    return tern_objtab_lookup(&info_table, h);
}

int tern_info_check(MPI_Info h, int null_ok, const char *fn, const char *arg, struct tern_comm *c,
                    struct tern_info **out)
{
    *out = NULL;
    if (h == MPI_INFO_NULL) {
        if (null_ok) return MPI_SUCCESS;
        return tern_err_comm(c, MPI_ERR_INFO, "%s: %s is MPI_INFO_NULL", fn, arg);
    }
    *out = tern_info_get(h);
    if (!*out)
        return tern_err_comm(c, MPI_ERR_INFO,
                             "%s: %s=0x%x is not a valid info object (never "
                             "created, or freed)",
                             fn, arg, (unsigned)h);
    return MPI_SUCCESS;
}

const char *tern_info_lookup(MPI_Info info, const char *key)
{
    const struct tern_info *i = info == MPI_INFO_NULL ? NULL : tern_info_get(info);
    return i ? tern_info_find(i, key) : NULL;
}

struct tern_info *tern_info_new(void) { return calloc(1, sizeof(struct tern_info)); }

static int index_of(const struct tern_info *info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (strcmp(info->ent[i].key, key) == 0) return i;
    return -1;
}

const char *tern_info_find(const struct tern_info *info, const char *key)
{
    int i = index_of(info, key);
    return i < 0 ? NULL : info->ent[i].val;
}

int tern_info_set(struct tern_info *info, const char *key, const char *val)
{
    char *v = strdup(val);
    if (!v) return MPI_ERR_NO_MEM;
    int i = index_of(info, key);
    if (i >= 0) {
        free(info->ent[i].val);
        info->ent[i].val = v;
        return MPI_SUCCESS;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        struct tern_info_entry *e = realloc(info->ent, (size_t)cap * sizeof *e);
        if (!e) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        info->ent = e;
        info->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    info->ent[info->n++] = (struct tern_info_entry){k, v};
    return MPI_SUCCESS;
}

int tern_info_delete(struct tern_info *info, const char *key)
{
    int i = index_of(info, key);
    if (i < 0) return 0;
    free(info->ent[i].key);
    free(info->ent[i].val);
    memmove(&info->ent[i], &info->ent[i + 1], (size_t)(info->n - i - 1) * sizeof info->ent[0]);
    info->n--;
    return 1;
}

struct tern_info *tern_info_dup(const struct tern_info *in)
{
    struct tern_info *out = tern_info_new();
    if (!out) return NULL;
    for (int i = 0; i < in->n; i++) {
        if (tern_info_set(out, in->ent[i].key, in->ent[i].val) != MPI_SUCCESS) {
            tern_info_destroy(out);
            return NULL;
        }
    }
    return out;
}

int tern_info_publish(struct tern_info *info, MPI_Info *out)
{
    info->handle = tern_objtab_insert(&info_table, info);
    if (!info->handle) return MPI_ERR_NO_MEM;
    *out = info->handle;
    return MPI_SUCCESS;
}

void tern_info_destroy(struct tern_info *info)
{
    if (!info) return;
    if (info->handle && tern_objtab_lookup(&info_table, info->handle) == info)
        tern_objtab_remove(&info_table, info->handle);
    for (int i = 0; i < info->n; i++) {
        free(info->ent[i].key);
        free(info->ent[i].val);
    }
    free(info->ent);
    free(info);
}

/* ---- MPI_INFO_ENV ---- */

/* The process's own arguments from /proc (MPI_Init may have had none). */
static char **own_argv(int *argc)
{
    static char buf[4096];
    static char *args[128];
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t len = 0;
    if (f) {
        len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[len] = 0;
    int n = 0;
    for (size_t i = 0; i < len && n < 127; i += strlen(buf + i) + 1) args[n++] = buf + i;
    args[n] = NULL;
    *argc = n;
    return args;
}

/* argv[1..argc) separated by spaces, cut to what an info value holds. */
static void join_args(int argc, char *argv[], char *out, size_t cap)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 1; i < argc && argv[i]; i++) {
        int w = snprintf(out + used, cap - used, "%s%s", i > 1 ? " " : "", argv[i]);
        if (w < 0 || (size_t)w >= cap - used) break;
        used += (size_t)w;
    }
}

struct tern_info *tern_info_env_new(int argc, char *argv[])
{
    /* The keys of MPI-4.1 11.2.7 Tern can answer, all facts of the launch,
     * so MPI_Info_create_env says the same before MPI_Init, after it and
     * after MPI_Finalize.  "soft", "file" and "thread_level" (a level
     * requested before the program started) only mean something to a
     * launcher that was given them, which ours is not; the level
     * MPI_Init_thread settles is MPI_Query_thread's answer. */
    char val[MPI_MAX_INFO_VAL + 1];
    struct tern_info *e = tern_info_new();
    if (!e) return NULL;
    if (!argv || argc <= 0) argv = own_argv(&argc);
    int rc = MPI_SUCCESS;
    if (argc > 0 && argv[0]) {
        rc |= tern_info_set(e, "command", argv[0]);
        join_args(argc, argv, val, sizeof val);
        rc |= tern_info_set(e, "argv", val);
    }
    snprintf(val, sizeof val, "%d", tern_boot_job_size());
    rc |= tern_info_set(e, "maxprocs", val);
    if (gethostname(val, sizeof val - 1) == 0) {
        val[sizeof val - 1] = 0;
        rc |= tern_info_set(e, "host", val);
    }
    struct utsname u;
    if (uname(&u) == 0) rc |= tern_info_set(e, "arch", u.machine);
    if (getcwd(val, sizeof val)) rc |= tern_info_set(e, "wdir", val);
    if (rc != MPI_SUCCESS) {
        tern_info_destroy(e);
        return NULL;
    }
    return e;
}
