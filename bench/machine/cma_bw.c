/* What one core can move: bandwidth of one process_vm_readv call (Cross
 * Memory Attach, the single-copy mechanism under CMA-based MPI rendezvous)
 * and of one memcpy, at 64 KiB, 1 MiB and 4 MiB.
 *
 * Two processes: the owner (pinned to core 0) fills a buffer and waits; the
 * reader (pinned to core 1) copies it into its own buffer with one
 * process_vm_readv call per sample.  Buffers are reused (cache-warm), as in
 * OSU-style benchmarks.  memcpy is measured on the reader's core with the
 * same sizes, also cache-warm.  Each figure is the median of many samples.
 *
 * Usage: bench-cma-bw [-a ownercore] [-b readercore] [-s samples] */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pin.h"

static const size_t sizes[] = {64 << 10, 1 << 20, 4 << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAXSIZE ((size_t)4 << 20)

/* Samples per size: enough that each size takes tens of milliseconds. */
static int samples_for(size_t sz, int samples)
{
    return samples ? samples : (sz <= (64 << 10) ? 2000 : 200);
}

int main(int argc, char **argv)
{
    int owner_core = 0, reader_core = 1, samples = 0, c;
    while ((c = getopt(argc, argv, "a:b:s:h")) != -1) {
        switch (c) {
        case 'a': owner_core = atoi(optarg); break;
        case 'b': reader_core = atoi(optarg); break;
        case 's': samples = atoi(optarg); break;
        default:
            fprintf(stderr, "Usage: %s [-a ownercore] [-b readercore] [-s samples]\n", argv[0]);
            return 2;
        }
    }

    /* Allocated before fork: the owner's copy of 'src' lives at the same
     * virtual address in the child, which makes the remote address known. */
    char *src = aligned_alloc(4096, MAXSIZE);
    char *dst = aligned_alloc(4096, MAXSIZE);
    int go[2], done[2];
    if (!src || !dst || pipe(go) || pipe(done)) {
        perror("setup");
        return 1;
    }

    pid_t owner = fork();
    if (owner < 0) {
        perror("fork");
        return 1;
    }
    if (owner == 0) {
        char b = 0;
        close(go[0]);
        close(done[1]);
        pin_to_core(owner_core);
        for (size_t i = 0; i < MAXSIZE; i++) src[i] = (char)(i * 7 + 1);
        if (write(go[1], &b, 1) != 1) _exit(1);
        /* Wait until the reader is done (EOF on 'done'). */
        while (read(done[0], &b, 1) > 0) {}
        _exit(0);
    }
    close(go[1]);
    close(done[0]);
    if (pin_to_core(reader_core)) {
        kill(owner, SIGKILL);
        return 1;
    }
    char b;
    if (read(go[0], &b, 1) != 1) {
        fprintf(stderr, "owner process failed\n");
        return 1;
    }
    memset(dst, 0, MAXSIZE);

    double cma[NSIZES], cpy[NSIZES];
    int cma_ok = 1;
    for (size_t k = 0; k < NSIZES && cma_ok; k++) {
        size_t sz = sizes[k];
        int n = samples_for(sz, samples);
        double *gbs = malloc(sizeof(double) * (size_t)n);
        struct iovec local = {dst, sz}, remote = {src, sz};
        for (int i = -10; i < n; i++) { /* 10 warm-up calls */
            double t0 = now_ns();
            ssize_t got = process_vm_readv(owner, &local, 1, &remote, 1, 0);
            double dt = now_ns() - t0;
            if (got != (ssize_t)sz) {
                fprintf(stderr, "process_vm_readv: %s (got %zd of %zu bytes)%s\n",
                        got < 0 ? strerror(errno) : "short read", got, sz,
                        got < 0 && errno == EPERM ? "; ptrace rules forbid CMA here" : "");
                cma_ok = 0;
                break;
            }
            if (i >= 0) gbs[i] = (double)sz / dt;
        }
        if (cma_ok) {
            if (dst[sz - 1] != (char)((sz - 1) * 7 + 1)) {
                fprintf(stderr, "process_vm_readv copied wrong data\n");
                cma_ok = 0;
            }
            cma[k] = median(gbs, n);
        }
        free(gbs);
    }
    close(done[1]);
    waitpid(owner, NULL, 0);

    for (size_t k = 0; k < NSIZES; k++) {
        size_t sz = sizes[k];
        int n = samples_for(sz, samples);
        double *gbs = malloc(sizeof(double) * (size_t)n);
        for (int i = -10; i < n; i++) {
            double t0 = now_ns();
            memcpy(dst, src, sz);
            __asm__ __volatile__("" ::"r"(dst) : "memory");
            double dt = now_ns() - t0;
            if (i >= 0) gbs[i] = (double)sz / dt;
        }
        cpy[k] = median(gbs, n);
        free(gbs);
    }

    printf("# one-call process_vm_readv (owner core %d, reader core %d) and memcpy (core %d),\n"
           "# cache-warm buffers, median GB/s\n",
           owner_core, reader_core, reader_core);
    printf("# %-10s %10s %12s\n", "Size", "CMA GB/s", "memcpy GB/s");
    for (size_t k = 0; k < NSIZES; k++) {
        if (cma_ok)
            printf("%-12zu %10.2f %12.2f\n", sizes[k], cma[k], cpy[k]);
        else
            printf("%-12zu %10s %12.2f\n", sizes[k], "n/a", cpy[k]);
    }
    free(src);
    free(dst);
    return cma_ok ? 0 : 1;
}
