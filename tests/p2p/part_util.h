/* Helpers of the partitioned tests: typed buffers described by where their
 * data ints lie, filled and checked against one formula. */
#ifndef PART_UTIL_H
#define PART_UTIL_H

#include <string.h>

#include "tern_test.h"

#define PU_HOLE_SEND -7 /* send-buffer gaps: must never travel */
#define PU_HOLE_RECV -1 /* receive-buffer gaps and not-yet-arrived data */

/* One side of a partitioned operation: 'parts' partitions of 'count'
 * elements of 'type', whose element holds nint data ints at disp[] (in
 * ints) within an extent of 'ext' ints. */
struct pu_side {
    int parts, count;
    MPI_Datatype type;
    int nint, ext;
    const int *disp;
};

static inline size_t pu_ints(const struct pu_side *s)
{
    return (size_t)s->parts * (size_t)s->count * (size_t)s->ext;
}

/* The value of data int g of the message sent by 'src' in round 'round'. */
static inline int pu_value(int round, int src, size_t g)
{
    return round * 1000003 + src * 10007 + (int)g;
}

/* Position in the buffer of data int g. */
static inline size_t pu_pos(const struct pu_side *s, size_t g)
{
    return (g / (size_t)s->nint) * (size_t)s->ext + (size_t)s->disp[g % (size_t)s->nint];
}

static inline void pu_fill(const struct pu_side *s, int *buf, int round, int src, int hole)
{
    size_t n = pu_ints(s), data = (size_t)s->parts * (size_t)s->count * (size_t)s->nint;
    for (size_t i = 0; i < n; i++) buf[i] = hole;
    if (src >= 0)
        for (size_t g = 0; g < data; g++) buf[pu_pos(s, g)] = pu_value(round, src, g);
}

/* Checks the data ints of receive partitions [p0, p1) hold src's round. */
static inline void pu_check_parts(const struct pu_side *s, const int *buf, int p0, int p1,
                                  int round, int src, const char *what)
{
    size_t per = (size_t)s->count * (size_t)s->nint;
    for (size_t g = (size_t)p0 * per; g < (size_t)p1 * per; g++) {
        int want = pu_value(round, src, g), got = buf[pu_pos(s, g)];
        CHECK(got == want, "%s round %d: data int %zu (partition %zu) is %d, want %d", what, round,
              g, g / per, got, want);
    }
}

/* Checks the gaps of a receive buffer were not written. */
static inline void pu_check_holes(const struct pu_side *s, const int *buf, const char *what)
{
    size_t elems = (size_t)s->parts * (size_t)s->count;
    for (size_t e = 0; e < elems; e++)
        for (int i = 0; i < s->ext; i++) {
            int data = 0;
            for (int j = 0; j < s->nint; j++) data |= s->disp[j] == i;
            if (!data)
                CHECK(buf[e * (size_t)s->ext + (size_t)i] == PU_HOLE_RECV, "%s: gap %zu written",
                      what, e * (size_t)s->ext + (size_t)i);
        }
}

/* A small deterministic shuffle of 0..n-1. */
static inline void pu_shuffle(int *a, int n, unsigned seed)
{
    for (int i = 0; i < n; i++) a[i] = i;
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1));
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static inline void pu_expect_class(int rc, int cls, const char *fn, const char *what)
{
    int got = -1;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &got);
    char s[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc != MPI_SUCCESS) MPI_Error_string(rc, s, &len);
    CHECK(rc != MPI_SUCCESS && got == cls, "%s: got class %d (%s), want %d", what, got, s, cls);
    CHECK(strstr(s, fn) != NULL, "%s: message '%s' does not name %s", what, s, fn);
}

#endif
