/* Which host each rank runs on.  Ranks on one host share memory; the
 * transports are chosen from this (p2p/transport.c), and so are the local
 * rank and size that binding uses. */
#ifndef TERN_BOOTSTRAP_HOST_H
#define TERN_BOOTSTRAP_HOST_H

#define TERN_HOST_ID_MAX 256

struct tern_hosts {
    int nhosts;
    int *host_of; /* world rank -> host index, numbered by first rank */
    int local_rank, local_size;
    /* Among the ranks of this kernel (its boot id), which share its cores
     * even when they are on different (simulated) hosts. */
    int kernel_rank, kernel_size;
    /* world rank -> the shared-memory file it maps, numbered by first rank:
     * one per host, except that simulated hosts under one mpiexec share its
     * one file (each host then has its own part of it, transport/shm). */
    int *file_of;
    char id[TERN_HOST_ID_MAX]; /* this rank's host id */
};

/* Finds this rank's host id and learns everyone's through the bootstrap.
 * The default id is the host's name ('node' when the launcher names it, see
 * tern_boot_info, else the hostname) plus the kernel's boot id.
 * 'override' (TERN_HOST_ID) replaces it unless it is empty or "auto"; with ranks_per_host > 0 (TERN_RANKS_PER_HOST)
 * rank r is placed on simulated host r / ranks_per_host instead.  0, or -1
 * with a message printed. */
int tern_hosts_exchange(int rank, int size, const char *node, const char *override,
                        int ranks_per_host, struct tern_hosts *out);
void tern_hosts_free(struct tern_hosts *h);

#endif
