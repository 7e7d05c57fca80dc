/* Helpers shared by the point-to-point tests: the library's thresholds,
 * read from the same environment variables with the same defaults, and
 * deterministic data patterns. */
#ifndef TERN_P2P_UTIL_H
#define TERN_P2P_UTIL_H

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tern_test.h"

/* MPI_Init for the tests that run on exactly two ranks; returns my rank. */
static inline int pu_init_pair(int *argc, char ***argv)
{
    int rank, size;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "runs on 2 ranks, got %d", size);
    return rank;
}

/* A byte count as the library parses it: 16K, 1M, 2G, 8192. */
static inline size_t pu_env_size(const char *name, size_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    char *end;
    long v = strtol(s, &end, 0);
    if (end == s || v < 0) return dflt;
    switch (toupper((unsigned char)*end)) {
    case 'K': v <<= 10; break;
    case 'M': v <<= 20; break;
    case 'G': v <<= 30; break;
    default: break;
    }
    return (size_t)v;
}

static inline int pu_env_bool(const char *name, int dflt)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    return !(s[0] == '0' || s[0] == 'n' || s[0] == 'N' || s[0] == 'f' || s[0] == 'F');
}

static inline size_t pu_floor_pow2(size_t v)
{
    size_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

/* The thresholds the shared-memory transport uses. */
struct pu_limits {
    size_t eager;      /* largest eager message (bytes) */
    size_t pipe_chunk; /* two-copy pipeline chunk */
    size_t coop_chunk; /* cooperative CMA chunk */
    int use_cma;
};

static inline struct pu_limits pu_limits(void)
{
    struct pu_limits l;
    size_t ring = pu_env_size("TERN_SMP_QUEUE_LENGTH", 256 << 10);
    ring = pu_floor_pow2(ring < 4096 ? 4096 : ring);
    l.eager = pu_env_size("TERN_SMP_EAGERSIZE", 16 << 10);
    if (l.eager > ring / 2 - 40) l.eager = ring / 2 - 40;
    l.pipe_chunk = pu_env_size("TERN_SMP_SEND_BUFF_SIZE", 64 << 10);
    if (l.pipe_chunk < 4096) l.pipe_chunk = 4096;
    l.pipe_chunk = (l.pipe_chunk + 63) & ~(size_t)63;
    l.coop_chunk = pu_env_size("TERN_SMP_COOP_CHUNK", 256 << 10);
    if (l.coop_chunk < 4096) l.coop_chunk = 4096;
    l.use_cma = pu_env_bool("TERN_SMP_USE_CMA", 1);
    return l;
}

/* Byte i of a message identified by 'seed'. */
static inline unsigned char pu_byte(size_t i, unsigned seed)
{
    uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u + 17u;
    return (unsigned char)(x ^ (x >> 13) ^ (x >> 24));
}
static inline int pu_int(size_t i, unsigned seed)
{
    return (int)((uint32_t)i * 7919u + seed * 104729u + 1u);
}

static inline void pu_fill_bytes(void *buf, size_t n, unsigned seed)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++) b[i] = pu_byte(i, seed);
}

/* Index of the first wrong byte, or (size_t)-1. */
static inline size_t pu_check_bytes(const void *buf, size_t n, unsigned seed)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != pu_byte(i, seed)) return i;
    return (size_t)-1;
}

static inline void pu_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts)) {}
}

/* The class of an error code returned under MPI_ERRORS_RETURN. */
static inline int pu_class(int code)
{
    int c = -1;
    MPI_Error_class(code, &c);
    return c;
}

#endif
