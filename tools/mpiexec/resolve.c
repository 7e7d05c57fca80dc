/* Finds each block's program before any rank starts, so that a typo costs an
 * error message and exit code 2, not a half-started job.  The search follows
 * execvp: a name with a '/' is used as it is (relative to -wdir if given),
 * other names are looked up in the PATH the ranks will have. */
#include "mpiexec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 0 if 'path' is an executable regular file, else an errno value. */
static int check_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0) return errno;
    if (S_ISDIR(st.st_mode)) return EISDIR;
    if (!S_ISREG(st.st_mode)) return EACCES;
    if (access(path, X_OK) < 0) return errno;
    return 0;
}

char *resolve_program(const char *argv0, const char *path_env, const char *wdir)
{
    if (argv0[0] == '\0') {
        fprintf(stderr, "mpiexec: cannot run '': empty program name\n");
        return NULL;
    }
    if (strchr(argv0, '/')) {
        char *probe = (wdir && argv0[0] != '/') ? xasprintf("%s/%s", wdir, argv0) : xstrdup(argv0);
        int err = check_file(probe);
        free(probe);
        if (err) {
            fprintf(stderr, "mpiexec: cannot run '%s': %s\n", argv0, strerror(err));
            return NULL;
        }
        return xstrdup(argv0);
    }
    const char *path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
    int seen_err = 0;
    const char *p = path;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        char *cand = len ? xasprintf("%.*s/%s", (int)len, p, argv0) : xasprintf("./%s", argv0);
        int err = check_file(cand);
        if (err == 0) return cand;
        free(cand);
        if (err != ENOENT && err != ENOTDIR && !seen_err) seen_err = err;
        if (!colon) break;
        p = colon + 1;
    }
    if (seen_err)
        fprintf(stderr, "mpiexec: cannot run '%s': %s\n", argv0, strerror(seen_err));
    else
        fprintf(stderr, "mpiexec: cannot run '%s': command not found in PATH\n", argv0);
    return NULL;
}
