/* The six face copies of a two-copy 3D halo exchange (tern-bench halo3d
 * on 2 ranks), done with memcpy by two plain processes and timed.  It is
 * one schedule of those copies, not a lower bound: an MPI that does the
 * same copies in another order can take less time (Tern did at 4 and
 * 16 MiB faces: see docs/performance.md).
 *
 * Two processes, pinned to cores 0 and 1, each own the grid of one halo3d
 * rank on 2 ranks (10 x 10 x (n+2) doubles, faces of 8 rows of n
 * contiguous doubles) and do, per exchange, what each rank must copy: its
 * two faces to itself once (the periodic dimension with one rank), then
 * its two faces for the other rank into a private 2 MiB ring of 64 KiB
 * chunks, all of them, then the other rank's faces out of that ring, all
 * of them.  An MPI differs: the chunks sit in memory both processes map,
 * and the other core unpacks each one soon after it is packed, while the
 * packing goes on.  No MPI, no flags, no cross-core traffic, and the two
 * processes are not in step; the grid is reused as tern-bench reuses it.
 * Prints the median time of one exchange per face size, the slower
 * process's (tern-bench prints the mean over iterations and ranks).
 *
 * Usage: bench-halo-copies [-s samples] */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/wait.h>
#include <unistd.h>

#include "pin.h"

#define RING ((size_t)2 << 20)
#define CHUNK ((size_t)64 << 10)

struct grid {
    double *cells;
    size_t n;
    char *ring;
    size_t ring_off;
};

/* Row (x, y) of the grid: n doubles from z = 1. */
static double *row(struct grid *g, int x, int y)
{
    return g->cells + ((size_t)x * 10 + (size_t)y) * (g->n + 2) + 1;
}

static void through_ring(struct grid *g, char *data, size_t len, int in)
{
    for (size_t o = 0; o < len; o += CHUNK) {
        size_t l = len - o < CHUNK ? len - o : CHUNK;
        if (in)
            memcpy(g->ring + g->ring_off, data + o, l);
        else
            memcpy(data + o, g->ring + g->ring_off, l);
        g->ring_off = (g->ring_off + CHUNK) % RING;
    }
}

static void exchange(struct grid *g)
{
    size_t len = g->n * sizeof(double);
    for (int x = 1; x <= 8;
         x++) { /* the faces to itself: y = 1 -> ghost y = 9, y = 8 -> ghost y = 0 */
        memcpy(row(g, x, 9), row(g, x, 1), len);
        memcpy(row(g, x, 0), row(g, x, 8), len);
    }
    for (int y = 1; y <= 8; y++) { /* the faces for the other rank: x = 1 and x = 8, packed */
        through_ring(g, (char *)row(g, 1, y), len, 1);
        through_ring(g, (char *)row(g, 8, y), len, 1);
    }
    for (int y = 1; y <= 8;
         y++) { /* the other rank's faces into ghosts x = 0 and x = 9, unpacked */
        through_ring(g, (char *)row(g, 0, y), len, 0);
        through_ring(g, (char *)row(g, 9, y), len, 0);
    }
}

/* Median microseconds of one exchange with faces of 'face' bytes. */
static double measure(size_t face, int samples)
{
    struct grid g = {NULL, face / (8 * sizeof(double)), NULL, 0};
    size_t bytes = 100 * (g.n + 2) * sizeof(double);
    g.cells = malloc(bytes);
    g.ring = aligned_alloc(64, RING);
    double *t = malloc((size_t)samples * sizeof *t);
    if (!g.cells || !g.ring || !t) {
        fprintf(stderr, "out of memory for a %zu-byte grid\n", bytes);
        exit(1);
    }
    memset(g.cells, 1, bytes);
    memset(g.ring, 0, RING);
    for (int i = 0; i < 3; i++) exchange(&g);
    for (int i = 0; i < samples; i++) {
        double t0 = now_ns();
        exchange(&g);
        t[i] = (now_ns() - t0) / 1e3;
    }
    double m = median(t, samples);
    free(t);
    free(g.ring);
    free(g.cells);
    return m;
}

static const size_t faces[] = {512 << 10, 1 << 20, 4 << 20, 16 << 20};
#define NFACES (sizeof faces / sizeof faces[0])

int main(int argc, char **argv)
{
    int samples = 0, c;
    while ((c = getopt(argc, argv, "s:h")) != -1) {
        if (c == 's') {
            samples = atoi(optarg);
        } else {
            fprintf(stderr, "Usage: %s [-s samples]\n", argv[0]);
            return 2;
        }
    }
    int fds[2][2];
    for (int p = 0; p < 2; p++) {
        if (pipe(fds[p])) return 1;
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid == 0) {
            if (pin_to_core(p)) _exit(1);
            double us[NFACES];
            for (size_t i = 0; i < NFACES; i++)
                us[i] = measure(faces[i], samples ? samples : (faces[i] <= (1 << 20) ? 200 : 20));
            ssize_t w = write(fds[p][1], us, sizeof us);
            _exit(w == (ssize_t)sizeof us ? 0 : 1);
        }
    }
    double us[2][NFACES];
    for (int p = 0; p < 2; p++)
        if (read(fds[p][0], us[p], sizeof us[p]) != (ssize_t)sizeof us[p]) {
            fprintf(stderr, "a measuring process failed\n");
            return 1;
        }
    while (wait(NULL) > 0)
        ;
    printf("# halo3d's six face copies in one fixed order, two processes at once: face bytes, "
           "median us per exchange "
           "(the slower process)\n");
    for (size_t i = 0; i < NFACES; i++)
        printf("%zu %.1f\n", faces[i], us[0][i] > us[1][i] ? us[0][i] : us[1][i]);
    return 0;
}
