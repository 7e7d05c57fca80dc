/* One job across hosts: every rank says where it runs and checks, with the
 * MPI_T traffic counters, that a message to each rank of its own host goes
 * through shared memory and one to each other rank through UCX (so the host
 * ids the proxies gave match the hosts); then point-to-point around a ring
 * (small and 1 MiB, so eager and rendezvous both cross hosts) and an
 * allreduce.  Prints "rank R of N on HOST: node K ranks: ok" (K: the ranks
 * of its host) or fails with a reason.  With the argument "shmsize" it
 * first prints "shm R FILE MAPPED": the size of the shared-memory file it
 * mapped and of its mapping, found in /proc/self/maps (an unnamed file in
 * /dev/shm, or a memfd). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME 64
#define BIG (1 << 20)

static int rank, size;

static unsigned long long counter(MPI_T_pvar_session ses, MPI_T_pvar_handle h)
{
    unsigned long long v[2] = {0, 0}; /* room for any integer type */
    MPI_T_pvar_read(ses, h, v);
    return v[0];
}

static MPI_T_pvar_handle handle(MPI_T_pvar_session ses, const char *name)
{
    int idx, count;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx) != MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(ses, idx, NULL, &h, &count) != MPI_SUCCESS) {
        fprintf(stderr, "no MPI_T counter %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_T_pvar_start(ses, h);
    return h;
}

static void fail(const char *what)
{
    fprintf(stderr, "rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static void print_shm_size(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (!strstr(line, "/dev/shm/") && !strstr(line, "memfd:tern-node")) continue;
        if (sscanf(line, "%lx-%lx", &lo, &hi) != 2) continue;
        char path[96];
        struct stat st;
        snprintf(path, sizeof path, "/proc/self/map_files/%lx-%lx", lo, hi);
        if (stat(path, &st) != 0) fail("cannot stat the shared-memory mapping");
        printf("shm %d %lld %lu\n", rank, (long long)st.st_size, hi - lo);
        fclose(f);
        return;
    }
    if (f) fclose(f);
    printf("shm %d none\n", rank);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "shmsize") == 0) print_shm_size();
    char host[NAME] = "";
    gethostname(host, sizeof host - 1);
    const char *id = getenv("TERN_HOST_ID");
    char me[NAME];
    snprintf(me, sizeof me, "%s", id ? id : host);

    char *all = calloc((size_t)size, NAME);
    MPI_Allgather(me, NAME, MPI_CHAR, all, NAME, MPI_CHAR, MPI_COMM_WORLD);
    int same = 0;
    for (int r = 0; r < size; r++) same += strcmp(all + (size_t)r * NAME, me) == 0;
    int node_size = same;

    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session ses;
    MPI_T_pvar_session_create(&ses);
    MPI_T_pvar_handle hs = handle(ses, "tern_shm_eager_messages");
    MPI_T_pvar_handle hu = handle(ses, "tern_ucx_eager_messages");
    unsigned long long shm0 = counter(ses, hs), ucx0 = counter(ses, hu);
    MPI_Request *req = malloc(2 * (size_t)size * sizeof *req);
    int *got = calloc((size_t)size, sizeof *got);
    int n = 0;
    for (int r = 0; r < size; r++) {
        if (r == rank) continue;
        MPI_Irecv(&got[r], 1, MPI_INT, r, 7, MPI_COMM_WORLD, &req[n++]);
        MPI_Isend(&rank, 1, MPI_INT, r, 7, MPI_COMM_WORLD, &req[n++]);
    }
    MPI_Status *st = malloc(2 * (size_t)size * sizeof *st);
    MPI_Waitall(n, req, st);
    free(st);
    unsigned long long shm = counter(ses, hs) - shm0, ucx = counter(ses, hu) - ucx0;
    if (shm != (unsigned long long)(same - 1) || ucx != (unsigned long long)(size - same)) {
        fprintf(stderr, "rank %d (%s): %llu messages through shm, %llu through UCX; want %d, %d\n",
                rank, me, shm, ucx, same - 1, size - same);
        fail("ranks of this host are not reached through shared memory, or others not by UCX");
    }
    MPI_T_pvar_handle_free(ses, &hs);
    MPI_T_pvar_handle_free(ses, &hu);
    MPI_T_pvar_session_free(&ses);
    MPI_T_finalize();
    free(req);
    free(got);

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int token = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, next, 1, &token, 1, MPI_INT, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (token != prev) fail("small ring message wrong");
    int *out = malloc(BIG), *in = malloc(BIG);
    for (int i = 0; i < BIG / (int)sizeof(int); i++) out[i] = rank * 1000003 + i;
    MPI_Sendrecv(out, BIG / (int)sizeof(int), MPI_INT, next, 2, in, BIG / (int)sizeof(int), MPI_INT,
                 prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < BIG / (int)sizeof(int); i++)
        if (in[i] != prev * 1000003 + i) fail("1 MiB ring message wrong");
    long sum = 0, want = (long)size * (size - 1) / 2;
    long mine = rank;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (sum != want) fail("allreduce sum wrong");
    printf("rank %d of %d on %s: node %d ranks: ok\n", rank, size, host, node_size);
    free(in);
    free(out);
    free(all);
    MPI_Finalize();
    return 0;
}
