#include "core/pid_life.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* FNV-1a over the bytes read. */
static uint64_t hash_more(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

uint64_t tern_pid_space(void)
{
    static uint64_t key;
    if (key) return key;
    uint64_t h = 1469598103934665603ull;
    char buf[128];
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t k = read(fd, buf, sizeof buf);
        if (k > 0) h = hash_more(h, buf, (size_t)k);
        close(fd);
    }
    ssize_t k = readlink("/proc/self/ns/pid", buf, sizeof buf);
    if (k > 0) h = hash_more(h, buf, (size_t)k);
    return key = h ? h : 1;
}

/* /proc/<pid>/stat from the ')' that ends the command name (which may
 * hold spaces), or NULL when there is no such process. */
static const char *read_stat(long pid, char *buf, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    ssize_t k = read(fd, buf, len - 1);
    close(fd);
    if (k <= 0) return NULL;
    buf[k] = 0;
    return strrchr(buf, ')');
}

/* Field 22 of a stat line, counted from its field 2's ')'. */
static unsigned long long start_of(const char *p)
{
    for (int field = 2; p && field < 22; field++) p = strchr(p + 1, ' ');
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

unsigned long long tern_pid_start_time(long pid)
{
    char buf[1024];
    return start_of(read_stat(pid, buf, sizeof buf));
}

int tern_pid_gone(long pid, unsigned long long start)
{
    if (pid <= 0) return 0;
    char buf[1024];
    const char *p = read_stat(pid, buf, sizeof buf);
    /* No stat: no such process.  A zombie has ended for every purpose
     * here; its parent reaps it. */
    if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X') return 1;
    return start_of(p) != start;
}
