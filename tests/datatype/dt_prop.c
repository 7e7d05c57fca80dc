/* The datatype properties of dt_props.h for two thousand types drawn from
 * seeded pseudo-random bytes, two ranks (the transfers go from rank 0 to
 * rank 1), then the same types to self.  Deterministic: the seed and the
 * number of cases are the arguments (default 1 and 2000); a failure names
 * its case, and "dt_prop SEED 1" with the case's seed replays it.  The
 * libFuzzer target (dt_fuzz.c) checks the same properties on its inputs. */
#include "dt_props.h"

static unsigned long long lcg;
static uint8_t next_byte(void)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (uint8_t)(lcg >> 56);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    long n = argc > 2 ? strtol(argv[2], NULL, 0) : 2000;
    uint8_t bytes[256];
    for (long i = 0; i < n; i++) {
        char what[64];
        snprintf(what, sizeof what, "case seed %lu", seed + (unsigned long)i);
        lcg = seed + (unsigned long)i;
        for (size_t k = 0; k < sizeof bytes; k++) bytes[k] = next_byte();
        p_case(bytes, sizeof bytes, P_PEER, what);
        p_case(bytes, sizeof bytes, P_SELF, what);
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
