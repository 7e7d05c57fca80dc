/* Shared option parsing and buffers for the OSU-style benchmarks.  Plain
 * MPI: builds with any MPI's mpicc. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bench_opts {
    size_t min_size, max_size;
    int iters;       /* 0: scaled by size */
    int warmup;      /* -1: scaled by size */
};

static inline size_t bench_parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024; break;
    case 'm': case 'M': v *= 1024 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    default: break;
    }
    return v < 0 ? 0 : (size_t)v;
}

static inline void bench_usage(const char *prog, const char *what, size_t defmax)
{
    fprintf(stderr,
            "Usage: %s [-m min:max] [-i iterations] [-x warmup]\n"
            "%s between ranks 0 and 1 (run with 2 ranks).\n"
            "  -m min:max   message sizes in bytes (K/M suffixes), powers of two; default 0:%zu\n"
            "  -i N         timed iterations per size (default: scaled by size)\n"
            "  -x N         warm-up iterations per size (default: scaled by size)\n",
            prog, what, defmax);
}

/* Returns 0, or 1 after printing usage (caller exits). */
static inline int bench_parse(int argc, char **argv, struct bench_opts *o, const char *what, size_t defmax)
{
    o->min_size = 0;
    o->max_size = defmax;
    o->iters = 0;
    o->warmup = -1;
    int c;
    while ((c = getopt(argc, argv, "m:i:x:h")) != -1) {
        switch (c) {
        case 'm': {
            const char *colon = strchr(optarg, ':');
            if (colon) {
                if (colon != optarg) o->min_size = bench_parse_size(optarg);
                if (colon[1]) o->max_size = bench_parse_size(colon + 1);
            } else {
                o->max_size = bench_parse_size(optarg);
            }
            break;
        }
        case 'i': o->iters = atoi(optarg); break;
        case 'x': o->warmup = atoi(optarg); break;
        default: bench_usage(argv[0], what, defmax); return 1;
        }
    }
    if (o->min_size > o->max_size || o->iters < 0) {
        bench_usage(argv[0], what, defmax);
        return 1;
    }
    return 0;
}

/* Sizes 0, 1, 2, 4, ... max, starting at min. */
static inline size_t bench_next_size(size_t s) { return s == 0 ? 1 : s * 2; }

static inline void *bench_alloc(size_t bytes)
{
    void *p = NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, bytes ? bytes : 1)) return NULL;
    memset(p, 'a', bytes ? bytes : 1);
    return p;
}

#endif
