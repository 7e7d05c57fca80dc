/* One-way cache-line latency between two cores: two threads, pinned to
 * cores A and B (default 0 and 1), ping-pong with C11 atomics, each
 * direction on its own 64-byte line (as a message ping-pong uses one ring
 * per direction: a single shared word would also measure the contention of
 * two cores writing the same line).  One-way latency = round trip / 2; prints the median of many
 * runs.  This is the floor under any shared-memory MPI's small-message
 * latency on the same two cores.
 *
 * Usage: bench-cacheline [-a coreA] [-b coreB] [-r runs] [-n roundtrips] */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "pin.h"

struct line {
    _Alignas(64) _Atomic uint64_t word;
    char pad[64 - sizeof(uint64_t)];
};
static struct line ping, pong;

static int core_b = 1;
static long roundtrips = 100000;
static int runs = 51;
static _Atomic int pin_failed;

static void *responder(void *arg)
{
    (void)arg;
    if (pin_to_core(core_b)) atomic_store(&pin_failed, 1);
    for (int r = 0; r < runs + 1; r++) {
        /* The initiator writes odd values on ping; answer each on pong with the next even one. */
        for (long i = 0; i < roundtrips; i++) {
            uint64_t want = ((uint64_t)r * roundtrips + i) * 2 + 1;
            while (atomic_load_explicit(&ping.word, memory_order_acquire) != want) {}
            atomic_store_explicit(&pong.word, want + 1, memory_order_release);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int core_a = 0, c;
    while ((c = getopt(argc, argv, "a:b:r:n:h")) != -1) {
        switch (c) {
        case 'a': core_a = atoi(optarg); break;
        case 'b': core_b = atoi(optarg); break;
        case 'r': runs = atoi(optarg); break;
        case 'n': roundtrips = atol(optarg); break;
        default:
            fprintf(stderr, "Usage: %s [-a coreA] [-b coreB] [-r runs] [-n roundtrips]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1 || roundtrips < 1) return 2;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        fprintf(stderr, "warning: fewer than 2 online CPUs; the threads share a core\n");
    if (pin_to_core(core_a)) return 1;

    pthread_t t;
    if (pthread_create(&t, NULL, responder, NULL)) {
        perror("pthread_create");
        return 1;
    }
    double *ns = malloc(sizeof(double) * (size_t)runs);
    if (!ns) return 1;
    /* Run 0 is a warm-up. */
    for (int r = 0; r < runs + 1; r++) {
        double t0 = now_ns();
        for (long i = 0; i < roundtrips; i++) {
            uint64_t mine = ((uint64_t)r * roundtrips + i) * 2 + 1;
            atomic_store_explicit(&ping.word, mine, memory_order_release);
            while (atomic_load_explicit(&pong.word, memory_order_acquire) != mine + 1) {}
        }
        double dt = now_ns() - t0;
        if (r > 0) ns[r - 1] = dt / (2.0 * (double)roundtrips);
    }
    pthread_join(t, NULL);
    if (atomic_load(&pin_failed)) return 1;

    double med = median(ns, runs);
    printf("# one-way cache-line latency, cores %d and %d, median of %d runs of %ld round trips\n",
           core_a, core_b, runs, roundtrips);
    printf("cacheline_ns %.1f\n", med);
    printf("# min %.1f ns, max %.1f ns\n", ns[0], ns[runs - 1]);
    free(ns);
    return 0;
}
