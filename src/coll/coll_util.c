#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>

#include "coll/coll_util.h"

struct tern_datatype *tern_coll_byte(void)
{
    static struct tern_datatype *byte;
    if (!byte) byte = tern_dt_get(MPI_BYTE);
    return byte;
}

/* A scratch allocation: its size, then the space. */
struct scratch {
    size_t bytes;
    alignas(max_align_t) char space[];
};

enum { KEPT = 2 };
#define KEEP_MAX ((size_t)64 << 20)

struct kept {
    struct scratch *s[KEPT];
};

static pthread_key_t kept_key;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void kept_free(void *p)
{
    struct kept *k = p;
    for (int i = 0; i < KEPT; i++) free(k->s[i]);
    free(k);
}

static void kept_init(void) { pthread_key_create(&kept_key, kept_free); }

static struct kept *kept_of_thread(int make)
{
    pthread_once(&kept_once, kept_init);
    struct kept *k = pthread_getspecific(kept_key);
    if (!k && make && (k = calloc(1, sizeof *k)) && pthread_setspecific(kept_key, k) != 0) {
        free(k);
        k = NULL;
    }
    return k;
}

static struct scratch *scratch_get(size_t bytes)
{
    struct kept *k = kept_of_thread(0);
    int best = -1;
    for (int i = 0; k && i < KEPT; i++)
        if (k->s[i] && k->s[i]->bytes >= bytes && (best < 0 || k->s[i]->bytes < k->s[best]->bytes))
            best = i;
    if (best >= 0) {
        struct scratch *s = k->s[best];
        k->s[best] = NULL;
        return s;
    }
    struct scratch *s = malloc(sizeof *s + bytes);
    if (s) s->bytes = bytes;
    return s;
}

void tern_coll_tmpfree(void *mem)
{
    struct scratch *s =
        mem ? (struct scratch *)((char *)mem - offsetof(struct scratch, space)) : NULL;
    struct kept *k = s && s->bytes <= KEEP_MAX ? kept_of_thread(1) : NULL;
    if (!k) {
        free(s);
        return;
    }
    int small = 0;
    for (int i = 0; i < KEPT; i++) {
        if (!k->s[i]) {
            small = i;
            break;
        }
        if (k->s[i]->bytes < k->s[small]->bytes) small = i;
    }
    if (!k->s[small] || k->s[small]->bytes < s->bytes) {
        free(k->s[small]);
        k->s[small] = s;
    } else {
        free(s);
    }
}

void tern_coll_tmp_release(void)
{
    struct kept *k = kept_of_thread(0);
    if (!k) return;
    pthread_setspecific(kept_key, NULL);
    kept_free(k);
}

void *tern_coll_tmpbuf(const struct tern_datatype *dt, size_t count, void **mem)
{
    MPI_Aint lo = dt->true_lb, hi = dt->true_ub;
    if (count > 1) {
        MPI_Aint span = (MPI_Aint)(count - 1) * dt->extent;
        if (span < 0)
            lo += span;
        else
            hi += span;
    }
    size_t bytes = count ? (size_t)(hi - lo) : 0;
    struct scratch *s = scratch_get(bytes ? bytes : 1);
    *mem = s ? s->space : NULL;
    if (!s) return NULL;
    return s->space - lo;
}

int *tern_coll_displs_of(const int *counts, int n, size_t *total)
{
    int *displs = malloc((size_t)(n > 0 ? n : 1) * sizeof *displs);
    size_t sum = 0;
    if (!displs) return NULL;
    for (int i = 0; i < n; i++) {
        displs[i] = (int)sum;
        sum += (size_t)counts[i];
    }
    *total = sum;
    return displs;
}

int tern_coll_nomem(const char *what, size_t bytes)
{
    return tern_err_make(MPI_ERR_NO_MEM, "%s: cannot allocate %zu bytes of scratch space", what,
                         bytes);
}

size_t tern_coll_blocks_bytes(int n)
{
    struct tern_coll_blocks *b = NULL;
    return (size_t)n * (sizeof *b->count + sizeof *b->off + sizeof *b->dt);
}

void tern_coll_blocks_describe(struct tern_coll_blocks *b, void *mem, int n, size_t count,
                               const int *counts, const int *displs, struct tern_datatype *dt,
                               struct tern_datatype *const *dts)
{
    /* The widest arrays first, so each starts aligned for its type. */
    b->count = mem;
    b->off = (MPI_Aint *)(b->count + n);
    b->dt = (struct tern_datatype **)(b->off + n);
    for (int i = 0; i < n; i++) {
        b->count[i] = counts ? (size_t)counts[i] : count;
        b->dt[i] = dts ? dts[i] : dt;
        if (dts)
            b->off[i] = displs[i];
        else if (displs)
            b->off[i] = (MPI_Aint)displs[i] * dt->extent;
        else
            b->off[i] = (MPI_Aint)i * (MPI_Aint)count * dt->extent;
    }
}
