/* The simulated host of a world rank, as tests/CMakeLists.txt's host
 * settings place ranks (TERN_RANKS_PER_HOST: rank r on host r / n); one
 * host without it. */
#ifndef TERN_TEST_HOSTS_H
#define TERN_TEST_HOSTS_H

#include <stdlib.h>

static inline int tt_host_of(int world_rank)
{
    const char *s = getenv("TERN_RANKS_PER_HOST");
    int n = s ? atoi(s) : 0;
    return n > 0 ? world_rank / n : 0;
}

#endif
