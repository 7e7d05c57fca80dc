/* A job started by srun: checks that the ranks found each other (the
 * expected size and number of hosts), that point-to-point carries the
 * right bytes around a ring, small and large (the large ones go through
 * the host's shared-memory file, or UCX between hosts), and that an
 * allreduce sums correctly.
 *
 *   slurm_job SIZE HOSTS [die]
 *
 * With "die", rank 1 kills itself with SIGKILL once everyone is past
 * MPI_Init: the test then checks the job ends and leaves nothing behind. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tern_test.h"

#define BIG (1 << 20)

/* The inode of this rank's shared-memory segment as /proc/self/maps shows
 * it (an unnamed file on /dev/shm, or a memfd), 0 when none is mapped;
 * *named is set when the file still has a name. */
static unsigned long segment_inode(int *named)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    unsigned long inode = 0;
    *named = 0;
    while (f && fgets(line, sizeof line, f)) {
        char path[256] = "";
        unsigned long ino = 0;
        if (sscanf(line, "%*s %*s %*s %*s %lu %255[^\n]", &ino, path) != 2) continue;
        /* An O_TMPFILE file shows as "/dev/shm/#<inode> (deleted)"; UCX
         * maps segments of its own, /dev/shm/ucx_*. */
        int ours = strncmp(path, "/memfd:tern-node", 16) == 0 ||
                   (strncmp(path, "/dev/shm/", 9) == 0 && strncmp(path, "/dev/shm/ucx", 12) != 0);
        if (!ours) continue;
        inode = ino;
        *named = strstr(path, "(deleted)") == NULL;
        break;
    }
    if (f) fclose(f);
    return inode;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc >= 3, "usage: slurm_job SIZE HOSTS [die]");
    int want_size = atoi(argv[1]), want_hosts = atoi(argv[2]);
    CHECK(size == want_size, "MPI_COMM_WORLD has %d ranks, srun started %d", size, want_size);

    /* Hosts, as they name themselves: the ranks of one host share memory. */
    char(*names)[MPI_MAX_PROCESSOR_NAME] = calloc((size_t)size, sizeof *names);
    CHECK(names != NULL, "out of memory");
    int len, hosts = 0, first = -1;
    MPI_Get_processor_name(names[rank], &len);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  MPI_COMM_WORLD);
    for (int r = 0; r < size; r++) {
        int seen = 0;
        for (int q = 0; q < r && !seen; q++) seen = strcmp(names[q], names[r]) == 0;
        hosts += !seen;
        if (first < 0 && strcmp(names[r], names[rank]) == 0) first = r;
    }
    CHECK(hosts == want_hosts, "the ranks run on %d hosts, expected %d", hosts, want_hosts);
    free(names);
    MPI_Comm node;
    MPI_Comm_split(MPI_COMM_WORLD, first, rank, &node);
    int lrank;
    MPI_Comm_rank(node, &lrank);

    /* Ranks that share memory map one unnamed file, each host its own (when
     * some host has two ranks, every rank maps its host's). */
    if (size > hosts) {
        int named;
        unsigned long ino = segment_inode(&named), lo, hi;
        CHECK(ino != 0, "rank %d maps no shared-memory segment", rank);
        CHECK(!named, "rank %d's shared-memory segment has a name in /dev/shm", rank);
        MPI_Allreduce(&ino, &lo, 1, MPI_UNSIGNED_LONG, MPI_MIN, node);
        MPI_Allreduce(&ino, &hi, 1, MPI_UNSIGNED_LONG, MPI_MAX, node);
        CHECK(lo == hi, "the ranks of one host map different files (inodes %lu and %lu)", lo, hi);
        unsigned long *all = calloc((size_t)size, sizeof *all);
        CHECK(all != NULL, "out of memory");
        all[rank] = lrank == 0 ? ino : 0;
        MPI_Allreduce(MPI_IN_PLACE, all, size, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
        for (int r = 0; r < size; r++)
            for (int q = 0; q < r; q++)
                CHECK(!all[r] || all[r] != all[q], "two hosts share segment inode %lu", all[r]);
        free(all);
    }
    MPI_Comm_free(&node);

    if (argc > 3 && strcmp(argv[3], "die") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) raise(SIGKILL);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(0, "rank %d passed a barrier that a killed rank never entered", rank);
    }

    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(got == left, "rank %d received %d from its left neighbour %d", rank, got, left);

    unsigned char *out = malloc(BIG), *in = malloc(BIG);
    CHECK(out && in, "out of memory");
    for (int i = 0; i < BIG; i++) out[i] = (unsigned char)(i * 7 + rank);
    memset(in, 0, BIG);
    MPI_Sendrecv(out, BIG, MPI_BYTE, right, 2, in, BIG, MPI_BYTE, left, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < BIG; i++)
        CHECK(in[i] == (unsigned char)(i * 7 + left), "byte %d from rank %d is %u, expected %u", i,
              left, in[i], (unsigned char)(i * 7 + left));
    free(out);
    free(in);

    long sum = 0, mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == (long)size * (size + 1) / 2, "allreduce gave %ld, expected %ld", sum,
          (long)size * (size + 1) / 2);

    if (rank == 0) printf("slurm_job: %d ranks on %d hosts: ok\n", size, hosts);
    MPI_Finalize();
    return 0;
}
