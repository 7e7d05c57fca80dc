/* The job's key-value table: a chained hash table of strings.  A put of an
 * existing key replaces its value. */
#include "mpiexec.h"

#include <stdlib.h>
#include <string.h>

struct kv_entry {
    struct kv_entry *next;
    char *key, *value;
};

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

void kvstore_init(struct kvstore *s)
{
    s->nbucket = 256;
    s->count = 0;
    s->bucket = xcalloc(s->nbucket, sizeof *s->bucket);
}

static void grow(struct kvstore *s)
{
    size_t nb = s->nbucket * 2;
    struct kv_entry **nbkt = xcalloc(nb, sizeof *nbkt);
    for (size_t i = 0; i < s->nbucket; i++)
        for (struct kv_entry *e = s->bucket[i], *next; e; e = next) {
            next = e->next;
            size_t h = hash(e->key) & (nb - 1);
            e->next = nbkt[h];
            nbkt[h] = e;
        }
    free(s->bucket);
    s->bucket = nbkt;
    s->nbucket = nb;
}

void kvstore_put(struct kvstore *s, const char *key, const char *value)
{
    size_t h = hash(key) & (s->nbucket - 1);
    for (struct kv_entry *e = s->bucket[h]; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            free(e->value);
            e->value = xstrdup(value);
            return;
        }
    struct kv_entry *e = xmalloc(sizeof *e);
    e->key = xstrdup(key);
    e->value = xstrdup(value);
    e->next = s->bucket[h];
    s->bucket[h] = e;
    if (++s->count > s->nbucket) grow(s);
}

const char *kvstore_get(const struct kvstore *s, const char *key)
{
    size_t h = hash(key) & (s->nbucket - 1);
    for (const struct kv_entry *e = s->bucket[h]; e; e = e->next)
        if (strcmp(e->key, key) == 0) return e->value;
    return NULL;
}

void kvstore_free(struct kvstore *s)
{
    for (size_t i = 0; i < s->nbucket; i++)
        for (struct kv_entry *e = s->bucket[i], *next; e; e = next) {
            next = e->next;
            free(e->key);
            free(e->value);
            free(e);
        }
    free(s->bucket);
    s->bucket = NULL;
    s->nbucket = s->count = 0;
}
