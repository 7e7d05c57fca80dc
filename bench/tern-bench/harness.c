/* Harness: error capture, tracked resources, sizes and iteration counts,
 * timing statistics. */
#include "tb.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- errors -------------------------------------------------------------------------- */

int tb_mpi_error(struct tb_ctx *c, const char *call, int rc)
{
    int cls = rc;
    MPI_Error_class(rc, &cls);
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) snprintf(msg, sizeof msg, "error %d", rc);
    /* The call's name is the text of the TB_MPI argument up to its '('. */
    int namelen = (int)strcspn(call, "(");
    if (c->status == TB_OK) {
        c->status = cls == MPI_ERR_UNSUPPORTED_OPERATION ? TB_UNSUPPORTED : TB_FAILED;
        /* a long message is cut, which is fine */
        if (snprintf(c->err, sizeof c->err, "%.*s: %s", namelen, call, msg) >= (int)sizeof c->err)
            c->err[sizeof c->err - 2] = '.';
    }
    return -1;
}

int tb_fail(struct tb_ctx *c, const char *fmt, ...)
{
    if (c->status == TB_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, sizeof c->err, fmt, ap);
        va_end(ap);
        c->status = TB_FAILED;
    }
    return -1;
}

int tb_all_ok(struct tb_ctx *c, int local_rc)
{
    int bad = local_rc != 0 || c->status != TB_OK, any = bad;
    TB_MPI(c, MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, c->comm));
    if (!any) return 0;
    if (c->status == TB_OK) {
        c->status = TB_FAILED;
        c->secondhand = 1;
        snprintf(c->err, sizeof c->err, "stopped because another rank failed");
    }
    return -1;
}

int tb_validated(struct tb_ctx *c, size_t size, int local_rc)
{
    if (!tb_all_ok(c, local_rc)) return 0;
    c->bad_size = size;
    c->have_bad_size = 1;
    return -1;
}

/* ---- tracked resources --------------------------------------------------------------- */

static int grow(void **arr, int *cap, int n, size_t elem)
{
    if (n < *cap) return 0;
    int ncap = *cap ? 2 * *cap : 16;
    void *p = realloc(*arr, (size_t)ncap * elem);
    if (!p) return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

void *tb_alloc(struct tb_ctx *c, size_t bytes)
{
    void *p = NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (grow((void **)&c->mem, &c->capmem, c->nmem, sizeof *c->mem) ||
        posix_memalign(&p, page > 0 ? (size_t)page : 4096, bytes ? bytes : 1)) {
        tb_fail(c, "cannot allocate %zu bytes", bytes);
        return NULL;
    }
    /* Touch every page now, so first-touch page faults stay out of the timings. */
    memset(p, 0, bytes);
    c->mem[c->nmem++] = p;
    return p;
}

void *tb_alloc_mpi(struct tb_ctx *c, size_t bytes)
{
    void *p = NULL;
    if (grow((void **)&c->mpimem, &c->capmpimem, c->nmpimem, sizeof *c->mpimem) ||
        MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, &p) != MPI_SUCCESS) {
        tb_fail(c, "MPI_Alloc_mem cannot allocate %zu bytes", bytes);
        return NULL;
    }
    memset(p, 0, bytes);
    c->mpimem[c->nmpimem++] = p;
    return p;
}

int tb_type_commit(struct tb_ctx *c, MPI_Datatype *t)
{
    if (grow((void **)&c->types, &c->captypes, c->ntypes, sizeof *c->types)) {
        MPI_Type_free(t);
        return tb_fail(c, "out of memory");
    }
    c->types[c->ntypes++] = *t;
    TB_MPI(c, MPI_Type_commit(t));
    return 0;
}

void tb_track_comm(struct tb_ctx *c, MPI_Comm comm)
{
    if (grow((void **)&c->comms, &c->capcomms, c->ncomms, sizeof *c->comms)) {
        MPI_Comm_free(&comm);
        return;
    }
    c->comms[c->ncomms++] = comm;
}

void tb_cleanup(struct tb_ctx *c)
{
    for (int i = 0; i < c->nmem; i++) free(c->mem[i]);
    for (int i = 0; i < c->nmpimem; i++) MPI_Free_mem(c->mpimem[i]);
    for (int i = 0; i < c->ntypes; i++) MPI_Type_free(&c->types[i]);
    for (int i = 0; i < c->ncomms; i++) MPI_Comm_free(&c->comms[i]);
    free(c->mem);
    free(c->mpimem);
    free(c->types);
    free(c->comms);
    free(c->rows);
    c->mem = NULL;
    c->mpimem = NULL;
    c->nmpimem = 0;
    c->types = NULL;
    c->comms = NULL;
    c->rows = NULL;
    c->nmem = c->ntypes = c->ncomms = c->nrows = 0;
}

/* ---- sizes and iterations ------------------------------------------------------------ */

/* OSU's split: messages above 8 KiB get fewer iterations. */
#define TB_LARGE 8192

static int fits(const struct tb_ctx *c, size_t s) { return c->granule <= 1 || s % c->granule == 0; }

int tb_next_size(const struct tb_ctx *c, size_t *s)
{
    const struct tb_opts *o = c->o;
    if (o->nsizes) {
        /* The list order, starting after the current size. */
        int i = 0;
        if (*s != (size_t)-1) {
            while (i < o->nsizes && o->sizes[i] != *s) i++;
            i++;
        }
        for (; i < o->nsizes; i++) {
            if (fits(c, o->sizes[i])) {
                *s = o->sizes[i];
                return 1;
            }
        }
        return 0;
    }
    size_t lo = o->have_min ? o->min_size : c->b->def_min;
    size_t hi = o->have_max ? o->max_size : c->b->def_max;
    size_t n = *s == (size_t)-1 ? lo : (*s == 0 ? 1 : *s * 2);
    while (n <= hi && !fits(c, n)) n = n == 0 ? 1 : n * 2;
    if (n > hi) return 0;
    *s = n;
    return 1;
}

size_t tb_max_size(const struct tb_ctx *c)
{
    size_t s = (size_t)-1, max = 0;
    while (tb_next_size(c, &s))
        if (s > max) max = s;
    return max;
}

int tb_iters(const struct tb_ctx *c, enum tb_kind k, size_t size)
{
    if (c->o->iters) return c->o->iters;
    int large = size > TB_LARGE;
    switch (k) {
    case TB_LAT: return large ? 1000 : 10000;
    case TB_BW: return large ? 20 : 100;
    case TB_MBW: return 100;
    default: return large ? 100 : 1000;
    }
}

int tb_warmup(const struct tb_ctx *c, enum tb_kind k, size_t size)
{
    if (c->o->warmup >= 0) return c->o->warmup;
    int large = size > TB_LARGE;
    switch (k) {
    case TB_LAT: return large ? 10 : 100;
    case TB_BW: return large ? 2 : 10;
    case TB_MBW: return 10;
    default: return large ? 10 : 100;
    }
}

/* ---- timing -------------------------------------------------------------------------- */

int tb_time_loop(struct tb_ctx *c, int active, int warm, int iters,
                 int (*step)(struct tb_ctx *, void *), void *arg, double *seconds)
{
    TB_MPI(c, MPI_Barrier(c->comm));
    for (int i = 0; active && i < warm; i++) TB_TRY(step(c, arg));
    TB_MPI(c, MPI_Barrier(c->comm));
    double t0 = MPI_Wtime();
    for (int i = 0; active && i < iters; i++) TB_TRY(step(c, arg));
    *seconds = MPI_Wtime() - t0;
    return 0;
}

int tb_time_omb(struct tb_ctx *c, int active, int warm, int iters, int sync,
                int (*step)(struct tb_ctx *, void *), void *arg, double *seconds)
{
    double t0 = 0, total = 0;
    TB_MPI(c, MPI_Barrier(c->comm));
    for (int i = 0; i < warm + iters; i++) {
        if (sync) TB_MPI(c, MPI_Barrier(c->comm));
        if (sync || i == warm) t0 = MPI_Wtime();
        if (active) TB_TRY(step(c, arg));
        if (sync && i >= warm) total += MPI_Wtime() - t0;
    }
    *seconds = sync ? total : MPI_Wtime() - t0;
    return 0;
}

void tb_compute(double seconds)
{
    /* Floating-point work in short blocks between clock reads; volatile
     * keeps the compiler from dropping it. */
    volatile double x = 1.0;
    double end = MPI_Wtime() + seconds;
    do {
        for (int i = 0; i < 200; i++) x = x * 1.0000001 + 1e-9;
    } while (MPI_Wtime() < end);
}

int tb_stats(struct tb_ctx *c, int active, double v, double *min, double *avg, double *max)
{
    double lo = active ? v : HUGE_VAL, hi = active ? v : -HUGE_VAL;
    double in[2] = {active ? v : 0, active ? 1 : 0}, sum[2];
    TB_MPI(c, MPI_Allreduce(&lo, min, 1, MPI_DOUBLE, MPI_MIN, c->comm));
    TB_MPI(c, MPI_Allreduce(&hi, max, 1, MPI_DOUBLE, MPI_MAX, c->comm));
    TB_MPI(c, MPI_Allreduce(in, sum, 2, MPI_DOUBLE, MPI_SUM, c->comm));
    *avg = sum[1] > 0 ? sum[0] / sum[1] : 0;
    return 0;
}

/* ---- buffers ------------------------------------------------------------------------- */

int tb_pool_init(struct tb_ctx *c, struct tb_pool *p, size_t max_msg)
{
    memset(p, 0, sizeof *p);
    p->fresh = c->o->fresh;
    p->bytes = max_msg ? max_msg : 1;
    if (p->fresh && p->bytes < c->o->cold_bytes) p->bytes = c->o->cold_bytes;
    p->base = tb_alloc(c, p->bytes);
    if (!p->base) return -1;
    tb_pool_set(p, max_msg);
    return 0;
}

void tb_pool_set(struct tb_pool *p, size_t msg)
{
    /* Whole cache lines per slot, so neighbouring messages share none. */
    p->stride = (msg + 63) & ~(size_t)63;
    if (!p->stride) p->stride = 64;
    p->nslots = p->fresh ? p->bytes / p->stride : 1;
    if (!p->nslots) p->nslots = 1;
    p->next = 0;
}

char *tb_pool_next(struct tb_pool *p)
{
    char *b = p->base + p->next * p->stride;
    if (++p->next == p->nslots) p->next = 0;
    return b;
}

size_t tb_pool_slots(const struct tb_pool *p, size_t want)
{
    return want < p->nslots ? want : p->nslots;
}

/* A multiply-xorshift mix of (seed, word): no period that a misplaced block
 * of data could match.  Byte i of a pattern is byte i % 8 of word i / 8,
 * with 0 made 1. */
static uint64_t pat_word(unsigned seed, size_t w)
{
    uint64_t x = ((uint64_t)seed << 40) ^ (uint64_t)w;
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15u;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 32;
    return x;
}

static unsigned char pat_byte(uint64_t word, size_t i)
{
    unsigned char b = (unsigned char)(word >> (8 * (i & 7)));
    return b ? b : 1;
}

unsigned char tb_pat(unsigned seed, size_t i) { return pat_byte(pat_word(seed, i / 8), i); }

void tb_fill_at(void *buf, size_t bytes, unsigned seed, size_t first)
{
    unsigned char *b = buf;
    uint64_t w = pat_word(seed, first / 8);
    for (size_t i = 0; i < bytes; i++) {
        size_t at = first + i;
        if (at % 8 == 0) w = pat_word(seed, at / 8);
        b[i] = pat_byte(w, at);
    }
}

void tb_fill(void *buf, size_t bytes, unsigned seed) { tb_fill_at(buf, bytes, seed, 0); }

void tb_tamper(const struct tb_ctx *c, void *buf, size_t bytes)
{
    /* 0x5a leaves a double's sign bit alone: -0.0 would still equal 0.0 */
    if (c->o->corrupt && bytes) ((unsigned char *)buf)[bytes / 2] ^= 0x5a;
}

int tb_check_sent_at(struct tb_ctx *c, const void *buf, size_t bytes, unsigned seed, size_t first,
                     const char *what)
{
    const unsigned char *b = buf;
    uint64_t w = pat_word(seed, first / 8);
    for (size_t i = 0; i < bytes; i++) {
        size_t at = first + i;
        if (at % 8 == 0) w = pat_word(seed, at / 8);
        if (b[i] != pat_byte(w, at))
            return tb_fail(c, "validation: rank %d, %s: byte %zu of %zu is %u, expected %u",
                           c->rank, what, i, bytes, b[i], tb_pat(seed, at));
    }
    return 0;
}

int tb_check_sent(struct tb_ctx *c, const void *buf, size_t bytes, unsigned seed, const char *what)
{
    return tb_check_sent_at(c, buf, bytes, seed, 0, what);
}

int tb_check(struct tb_ctx *c, void *buf, size_t bytes, unsigned seed, const char *what)
{
    tb_tamper(c, buf, bytes);
    return tb_check_sent_at(c, buf, bytes, seed, 0, what);
}

int tb_check_at(struct tb_ctx *c, void *buf, size_t bytes, unsigned seed, size_t first,
                const char *what)
{
    tb_tamper(c, buf, bytes);
    return tb_check_sent_at(c, buf, bytes, seed, first, what);
}

/* ---- typed elements ------------------------------------------------------------------- */

void tb_elem_set(MPI_Datatype t, void *buf, size_t i, long v)
{
    if (t == MPI_FLOAT)
        ((float *)buf)[i] = (float)v;
    else if (t == MPI_INT)
        ((int *)buf)[i] = (int)v;
    else if (t == MPI_LONG_LONG)
        ((long long *)buf)[i] = v;
    else
        ((char *)buf)[i] = (char)v;
}

double tb_elem_get(MPI_Datatype t, const void *buf, size_t i)
{
    if (t == MPI_FLOAT) return ((const float *)buf)[i];
    if (t == MPI_INT) return ((const int *)buf)[i];
    if (t == MPI_LONG_LONG) return (double)((const long long *)buf)[i];
    return (unsigned char)((const char *)buf)[i];
}

int tb_elem_match(MPI_Datatype t, const void *buf, size_t i, long want)
{
    /* an MPI_CHAR sum wraps modulo 256 */
    if (t == MPI_CHAR) return tb_elem_get(t, buf, i) == (double)(want & 0xff);
    return tb_elem_get(t, buf, i) == (double)want;
}
