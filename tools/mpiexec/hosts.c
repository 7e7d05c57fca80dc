/* -hosts and -f: Tern's launcher runs every rank on this machine, so a host
 * list may only name this machine (each entry possibly with :count).  The
 * counts add up to the default number of ranks. */
#include "mpiexec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static void this_host(char *name, size_t len)
{
    if (gethostname(name, len) < 0) snprintf(name, len, "localhost");
    name[len - 1] = '\0';
}

static int is_this_host(const char *h)
{
    static const char *const loopback[] = {"localhost", "localhost.localdomain", "127.0.0.1", "::1",
                                           "ip6-localhost"};
    for (size_t i = 0; i < sizeof loopback / sizeof loopback[0]; i++)
        if (strcasecmp(h, loopback[i]) == 0) return 1;
    char me[256];
    this_host(me, sizeof me);
    if (strcasecmp(h, me) == 0) return 1;
    /* "node1" matches "node1.example.org" and the other way round */
    size_t lh = strcspn(h, "."), lm = strcspn(me, ".");
    return lh == lm && strncasecmp(h, me, lh) == 0 && (h[lh] == '\0' || me[lm] == '\0');
}

/* One entry "host", "host:count" or "host slots=count"; adds to *slots. */
static int take_entry(const char *entry, const char *where, int *slots)
{
    char host[256];
    long count = 1;
    size_t n = strlen(entry);
    const char *colon = strcmp(entry, "::1") == 0 ? NULL : strrchr(entry, ':');
    const char *sp = strpbrk(entry, " \t");
    const char *cnt = NULL;
    if (sp) {
        n = (size_t)(sp - entry);
        while (*sp == ' ' || *sp == '\t') sp++;
        if (strncmp(sp, "slots=", 6) == 0)
            cnt = sp + 6;
        else if (*sp) {
            fprintf(stderr, "mpiexec: %s: cannot read host entry '%s'\n", where, entry);
            return -1;
        }
    } else if (colon) {
        n = (size_t)(colon - entry);
        cnt = colon + 1;
    }
    if (n == 0 || n >= sizeof host) {
        fprintf(stderr, "mpiexec: %s: empty or too long host name in '%s'\n", where, entry);
        return -1;
    }
    memcpy(host, entry, n);
    host[n] = '\0';
    if (cnt) {
        char *end;
        errno = 0;
        count = strtol(cnt, &end, 10);
        while (*end == ' ' || *end == '\t') end++;
        if (errno || end == cnt || *end != '\0' || count < 1 || count > MPIEXEC_MAX_RANKS) {
            fprintf(stderr, "mpiexec: %s: bad process count in '%s'\n", where, entry);
            return -1;
        }
    }
    if (!is_this_host(host)) {
        char me[256];
        this_host(me, sizeof me);
        fprintf(
            stderr,
            "mpiexec: host '%s' is not this machine; this mpiexec starts ranks on this host only "
            "(use localhost, 127.0.0.1 or %s)\n",
            host, me);
        return -1;
    }
    if (*slots + count > MPIEXEC_MAX_RANKS) {
        fprintf(stderr, "mpiexec: %s: too many slots\n", where);
        return -1;
    }
    *slots += (int)count;
    return 0;
}

int hosts_parse_list(const char *list, int *slots)
{
    char *copy = xstrdup(list);
    int rc = 0, any = 0;
    char *save = NULL;
    for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        any = 1;
        if ((rc = take_entry(e, "-hosts", slots)) < 0) break;
    }
    free(copy);
    if (rc == 0 && !any) {
        fprintf(stderr, "mpiexec: -hosts: empty host list\n");
        rc = -1;
    }
    return rc;
}

int hosts_parse_file(const char *path, int *slots)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mpiexec: cannot open host file '%s': %s\n", path, strerror(errno));
        return -1;
    }
    char line[512], where[600];
    int rc = 0, lineno = 0, any = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = line;
        while (isspace((unsigned char)*s)) s++;
        size_t n = strlen(s);
        while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
        if (n == 0) continue;
        any = 1;
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        rc = take_entry(s, where, slots);
    }
    fclose(f);
    if (rc == 0 && !any) {
        fprintf(stderr, "mpiexec: host file '%s' names no host\n", path);
        rc = -1;
    }
    return rc;
}
