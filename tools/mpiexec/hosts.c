/* -hosts and -f: the hosts of the job, each entry "host", "host:count" or
 * (host files) "host slots=count".  A host named twice is one host with the
 * counts added, so it gets one proxy and one shared-memory file.  When
 * every host is this machine the job runs as without a host list (no
 * proxy); the counts add up to the default number of ranks either way. */
#include "mpiexec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void hosts_this_name(char *name, size_t len)
{
    if (gethostname(name, len) < 0) snprintf(name, len, "localhost");
    name[len - 1] = '\0';
}

int hosts_is_this_host(const char *h)
{
    static const char *const loopback[] = {"localhost", "localhost.localdomain", "127.0.0.1", "::1",
                                           "ip6-localhost"};
    for (size_t i = 0; i < sizeof loopback / sizeof loopback[0]; i++)
        if (strcasecmp(h, loopback[i]) == 0) return 1;
    char me[256];
    hosts_this_name(me, sizeof me);
    if (strcasecmp(h, me) == 0) return 1;
    /* "node1" matches "node1.example.org" and the other way round */
    size_t lh = strcspn(h, "."), lm = strcspn(me, ".");
    return lh == lm && strncasecmp(h, me, lh) == 0 && (h[lh] == '\0' || me[lm] == '\0');
}

static void add_host(struct options *o, const char *given, int count)
{
    /* A proxy elsewhere in the launch tree may start this host's proxy:
     * "localhost" would mean its own host there. */
    char me[256];
    const char *name = given;
    if (hosts_is_this_host(given)) {
        hosts_this_name(me, sizeof me);
        name = me;
    }
    for (int i = 0; i < o->nhosts; i++)
        if (strcmp(o->hosts[i].name, name) == 0) {
            o->hosts[i].slots += count;
            return;
        }
    o->hosts = xrealloc(o->hosts, (size_t)(o->nhosts + 1) * sizeof *o->hosts);
    o->hosts[o->nhosts].name = xstrdup(name);
    o->hosts[o->nhosts].slots = count;
    o->nhosts++;
    if (!hosts_is_this_host(name)) o->remote = 1;
}

/* One entry "host", "host:count" or "host slots=count". */
static int take_entry(const char *entry, const char *where, struct options *o)
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
    return hosts_add(o, host, (int)count, where);
}

int hosts_add(struct options *o, const char *name, int count, const char *where)
{
    if (o->host_slots + count > MPIEXEC_MAX_RANKS) {
        fprintf(stderr, "mpiexec: %s: too many slots\n", where);
        return -1;
    }
    o->host_slots += count;
    add_host(o, name, count);
    return 0;
}

int hosts_parse_list(const char *list, struct options *o)
{
    char *copy = xstrdup(list);
    int rc = 0, any = 0;
    char *save = NULL;
    for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        any = 1;
        if ((rc = take_entry(e, "-hosts", o)) < 0) break;
    }
    free(copy);
    if (rc == 0 && !any) {
        fprintf(stderr, "mpiexec: -hosts: empty host list\n");
        rc = -1;
    }
    return rc;
}

int hosts_parse_file(const char *path, struct options *o)
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
        rc = take_entry(s, where, o);
    }
    fclose(f);
    if (rc == 0 && !any) {
        fprintf(stderr, "mpiexec: host file '%s' names no host\n", path);
        rc = -1;
    }
    return rc;
}
