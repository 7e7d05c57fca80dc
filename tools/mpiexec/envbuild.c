/* The environment of the ranks: mpiexec's own, then -bind-to's variable,
 * then -genv, then the block's -env and NAME=VALUE words (later wins), then
 * the TERN_* variables of the bootstrap protocol (TERN_SHM_FD only in jobs
 * of more than one rank: shmfile.c).  <prefix>/lib (the directory next to
 * this executable's bin/) goes first in LD_LIBRARY_PATH so programs linked
 * against MPICH's libmpi.so.12 / libmpich.so.12 load Tern.
 *
 * The environment is built once per block; the three per-rank entries
 * (TERN_RANK, TERN_LOCAL_RANK, TERN_BOOT_FD) are fixed slots at the end that
 * envbuild_rank rewrites before each fork. */
#include "mpiexec.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static const char *const launch_vars[] = {
    "TERN_BOOT_FD", "TERN_RANK",   "TERN_SIZE",         "TERN_LOCAL_RANK", "TERN_LOCAL_SIZE",
    "TERN_APPNUM",  "TERN_JOB_ID", "TERN_LAUNCHER_PID", "TERN_SHM_FD",     "LD_LIBRARY_PATH",
};

static const char *lib_dir(void)
{
    static char dir[PATH_MAX];
    static int done;
    if (done) return dir[0] ? dir : NULL;
    done = 1;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = '\0';
    for (int up = 0; up < 2; up++) { /* strip "/mpiexec", then "/bin" */
        char *slash = strrchr(exe, '/');
        if (!slash) return NULL;
        *slash = '\0';
    }
    if ((size_t)snprintf(dir, sizeof dir, "%s/lib", exe) >= sizeof dir) {
        dir[0] = '\0';
        return NULL;
    }
    struct stat st;
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        dir[0] = '\0';
        return NULL;
    }
    return dir;
}

static size_t name_len(const char *entry)
{
    const char *eq = strchr(entry, '=');
    return eq ? (size_t)(eq - entry) : strlen(entry);
}

static int list_has(const struct envlist *l, const char *name, size_t len)
{
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->v[i].name) == len && strncmp(l->v[i].name, name, len) == 0) return 1;
    return 0;
}

static const char *list_get(const struct envlist *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0) return l->v[i].value;
    return NULL;
}

const char *envbuild_lookup(const struct options *o, const struct block *b, const char *name)
{
    const char *v = list_get(&b->env, name);
    if (!v) v = list_get(&o->genv, name);
    if (!v) v = getenv(name);
    return v;
}

static void push(struct rank_env *re, size_t *cap, char *s)
{
    if (re->n + 1 >= *cap) {
        *cap = *cap ? 2 * *cap : 64;
        re->envp = xrealloc(re->envp, *cap * sizeof(char *));
    }
    re->envp[re->n++] = s;
    re->envp[re->n] = NULL;
}

void envbuild_block(struct rank_env *re, const struct options *o, const struct block *b, int size,
                    int appnum, const char *job_id, int shm_fd)
{
    size_t cap = 0;
    memset(re, 0, sizeof *re);
    int set_bind = o->bind >= 0 && !list_has(&o->genv, "MV2_ENABLE_AFFINITY", 19) &&
                   !list_has(&b->env, "MV2_ENABLE_AFFINITY", 19);

    for (char **e = environ; e && *e; e++) {
        size_t len = name_len(*e);
        int skip = list_has(&o->genv, *e, len) || list_has(&b->env, *e, len);
        for (size_t i = 0; !skip && i < sizeof launch_vars / sizeof launch_vars[0]; i++)
            skip = strlen(launch_vars[i]) == len && strncmp(launch_vars[i], *e, len) == 0;
        if (set_bind && len == 19 && strncmp(*e, "MV2_ENABLE_AFFINITY", 19) == 0) skip = 1;
        if (!skip) push(re, &cap, xstrdup(*e));
    }
    if (set_bind) push(re, &cap, xasprintf("MV2_ENABLE_AFFINITY=%d", o->bind));
    for (size_t i = 0; i < o->genv.n; i++)
        if (strcmp(o->genv.v[i].name, "LD_LIBRARY_PATH") != 0 &&
            !list_has(&b->env, o->genv.v[i].name, strlen(o->genv.v[i].name)))
            push(re, &cap, xasprintf("%s=%s", o->genv.v[i].name, o->genv.v[i].value));
    for (size_t i = 0; i < b->env.n; i++)
        if (strcmp(b->env.v[i].name, "LD_LIBRARY_PATH") != 0)
            push(re, &cap, xasprintf("%s=%s", b->env.v[i].name, b->env.v[i].value));

    const char *ldp = envbuild_lookup(o, b, "LD_LIBRARY_PATH");
    const char *lib = lib_dir();
    if (lib) {
        size_t ll = strlen(lib);
        if (!ldp || !*ldp)
            push(re, &cap, xasprintf("LD_LIBRARY_PATH=%s", lib));
        else if (strncmp(ldp, lib, ll) == 0 && (ldp[ll] == ':' || ldp[ll] == '\0'))
            push(re, &cap, xasprintf("LD_LIBRARY_PATH=%s", ldp));
        else
            push(re, &cap, xasprintf("LD_LIBRARY_PATH=%s:%s", lib, ldp));
    } else if (ldp) {
        push(re, &cap, xasprintf("LD_LIBRARY_PATH=%s", ldp));
    }

    push(re, &cap, xasprintf("TERN_SIZE=%d", size));
    push(re, &cap, xasprintf("TERN_LOCAL_SIZE=%d", size));
    push(re, &cap, xasprintf("TERN_APPNUM=%d", appnum));
    push(re, &cap, xasprintf("TERN_JOB_ID=%s", job_id));
    push(re, &cap, xasprintf("TERN_LAUNCHER_PID=%ld", (long)getpid()));
    if (shm_fd >= 0) push(re, &cap, xasprintf("TERN_SHM_FD=%d", shm_fd));
    push(re, &cap, re->slot_rank);
    push(re, &cap, re->slot_local);
    push(re, &cap, re->slot_fd);
}

void envbuild_rank(struct rank_env *re, int rank, int boot_fd)
{
    snprintf(re->slot_rank, sizeof re->slot_rank, "TERN_RANK=%d", rank);
    snprintf(re->slot_local, sizeof re->slot_local, "TERN_LOCAL_RANK=%d", rank);
    snprintf(re->slot_fd, sizeof re->slot_fd, "TERN_BOOT_FD=%d", boot_fd);
}

void envbuild_free(struct rank_env *re)
{
    for (size_t i = 0; i + 3 < re->n; i++) free(re->envp[i]);
    free(re->envp);
    re->envp = NULL;
    re->n = 0;
}
