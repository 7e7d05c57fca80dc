/* MPI_Dims_create's factorisation: the free dimensions are "as close to
 * each other as possible" (MPI-4.1 8.5.2).  We take that to mean: the
 * largest minus the smallest factor is minimal; among equally balanced
 * choices the one with the largest smallest factor, then the largest
 * second smallest, and so on (the choices MPICH makes in its test suite's
 * 75396 cases).  A
 * branch-and-bound search over divisors finds it exactly; nnodes fits in an
 * int, so it has at most 1344 divisors and at most 31 factors above 1. */
#include <stdlib.h>

#include "core/errors.h"
#include "topo/topo.h"

struct search {
    int k;          /* free dimensions */
    const int *div; /* the divisors of the free product, ascending */
    int ndiv;
    int *cur, *best; /* factors, non-increasing */
    int best_diff;   /* -1 until a factorisation is found */
};

/* d^e >= m, without overflow. */
static int pow_at_least(long d, int e, long m)
{
    long p = 1;
    for (int i = 0; i < e; i++) {
        if (p >= m) return 1;
        p *= d;
    }
    return p >= m;
}

/* floor(m^(1/e)) for m >= 1, e >= 1. */
static long iroot(long m, int e)
{
    long lo = 1, hi = m;
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (pow_at_least(mid, e, m + 1))
            hi = mid - 1; /* mid^e > m */
        else
            lo = mid;
    }
    return lo;
}

/* Among factorisations with the same spread: a's smallest factor is
 * larger than b's, or equal and then a's next smallest is, and so on. */
static int more_balanced(const int *a, const int *b, int k)
{
    for (int i = k - 1; i >= 0; i--)
        if (a[i] != b[i]) return a[i] > b[i];
    return 0;
}

/* Chooses cur[depth..k) with product rem, none above maxf. */
static void search(struct search *s, int depth, long rem, long maxf)
{
    int left = s->k - depth;
    long f0 = depth ? s->cur[0] : 0;
    if (rem == 1 || left == 1) {
        if (rem > maxf) return;
        for (int i = depth; i < s->k; i++) s->cur[i] = i == depth ? (int)rem : 1;
        long top = depth ? f0 : rem, low = left == 1 ? rem : 1, diff = top - low;
        if (s->best_diff < 0 || diff < s->best_diff ||
            (diff == s->best_diff && more_balanced(s->cur, s->best, s->k))) {
            s->best_diff = (int)diff;
            for (int i = 0; i < s->k; i++) s->best[i] = s->cur[i];
        }
        return;
    }
    for (int i = 0; i < s->ndiv; i++) {
        long d = s->div[i];
        if (d > maxf) break;
        if (rem % d || !pow_at_least(d, left, rem)) continue; /* d must be the largest left */
        /* The smallest factor is at most the root of what d leaves; a larger d
         * only raises this bound, so stop once it cannot win. */
        long bound = (depth ? f0 : d) - iroot(rem / d, left - 1);
        if (s->best_diff >= 0 && bound > s->best_diff) break;
        s->cur[depth] = (int)d;
        search(s, depth + 1, rem / d, d);
    }
}

static int *divisors(int m, int *n)
{
    int cap = 2, cnt = 0, hi = 0;
    for (long i = 1; i * i <= m; i++) cap += m % i == 0 ? 2 : 0;
    int *d = malloc((size_t)cap * sizeof *d);
    if (!d) return NULL;
    for (long i = 1; i * i <= m; i++) {
        if (m % i) continue;
        d[cnt++] = (int)i;
    }
    /* The large partners, ascending: reverse walk over the small ones. */
    hi = cnt;
    for (int i = hi - 1; i >= 0; i--) {
        int q = m / d[i];
        if (q != d[i]) d[cnt++] = q;
    }
    *n = cnt;
    return d;
}

int tern_dims_fill(int nnodes, int ndims, int *dims)
{
    long fixed = 1;
    int k = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i])
            fixed *= dims[i];
        else
            k++;
        if (fixed > nnodes) return MPI_ERR_DIMS;
    }
    if (nnodes % fixed) return MPI_ERR_DIMS;
    int m = (int)(nnodes / fixed);
    if (k == 0) return m == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;

    struct search s = {.k = k, .best_diff = -1};
    s.div = divisors(m, &s.ndiv);
    s.cur = malloc((size_t)k * 2 * sizeof(int));
    if (!s.div || !s.cur) {
        free((void *)s.div);
        free(s.cur);
        return tern_err_make(MPI_ERR_NO_MEM, "MPI_Dims_create: out of memory for %d dimensions",
                             ndims);
    }
    s.best = s.cur + k;
    search(&s, 0, m, m);
    for (int i = 0, j = 0; i < ndims; i++)
        if (!dims[i]) dims[i] = s.best[j++];
    free((void *)s.div);
    free(s.cur);
    return MPI_SUCCESS;
}
