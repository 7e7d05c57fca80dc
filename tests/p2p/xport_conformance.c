/* Transport conformance: the same point-to-point cases for every path a
 * transport offers (tests/p2p/CMakeLists.txt registers this program once per
 * path, with the parameters that select it).  argv[1] names the path the
 * run must have used; the MPI_T counters of the transports prove it did,
 * so a configuration that silently took another path fails.
 *
 * Cases, each at sizes on both sides of the eager limit: blocking and
 * nonblocking in every mode, non-overtaking order of a burst, MPI_ANY_SOURCE
 * and MPI_ANY_TAG, probe/mprobe before receiving, a vector datatype on one
 * side and contiguous bytes on the other, truncation, and cancel of a send
 * that nobody receives. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

static int rank;
static size_t max_bytes;

static unsigned char pattern(size_t i, int seed)
{
    return (unsigned char)(i * 131u + (unsigned)seed * 7u + 1u);
}

static void fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++) b[i] = pattern(i, seed);
}

static void expect(const unsigned char *b, size_t n, int seed, const char *what)
{
    for (size_t i = 0; i < n; i++)
        CHECK(b[i] == pattern(i, seed), "%s: byte %zu of %zu is %u, expected %u", what, i, n, b[i],
              pattern(i, seed));
}

static const size_t sizes[] = {0, 1, 8, 24, 1000, 4096, 16384, 16385, 65536, 1 << 20, 4 << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void modes(unsigned char *sb, unsigned char *rb)
{
    for (size_t k = 0; k < NSIZES && sizes[k] <= max_bytes; k++) {
        int n = (int)sizes[k];
        for (int mode = 0; mode < 4; mode++) {
            int seed = (int)k * 4 + mode;
            if (rank == 0) {
                fill(sb, (size_t)n, seed);
                MPI_Request r;
                switch (mode) {
                case 0: CHECK_MPI(MPI_Send(sb, n, MPI_BYTE, 1, seed, MPI_COMM_WORLD)); break;
                case 1: CHECK_MPI(MPI_Ssend(sb, n, MPI_BYTE, 1, seed, MPI_COMM_WORLD)); break;
                case 2:
                    CHECK_MPI(
                        MPI_Recv(NULL, 0, MPI_BYTE, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                    CHECK_MPI(MPI_Rsend(sb, n, MPI_BYTE, 1, seed, MPI_COMM_WORLD));
                    break;
                default:
                    CHECK_MPI(MPI_Issend(sb, n, MPI_BYTE, 1, seed, MPI_COMM_WORLD, &r));
                    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
                }
            } else {
                MPI_Request r;
                MPI_Status st;
                memset(rb, 0, (size_t)n);
                CHECK_MPI(MPI_Irecv(rb, n, MPI_BYTE, 0, seed, MPI_COMM_WORLD, &r));
                if (mode == 2) CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, 999, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Wait(&r, &st));
                int got;
                MPI_Get_count(&st, MPI_BYTE, &got);
                CHECK(got == n && st.MPI_SOURCE == 0 && st.MPI_TAG == seed,
                      "mode %d size %d: count %d source %d tag %d", mode, n, got, st.MPI_SOURCE,
                      st.MPI_TAG);
                expect(rb, (size_t)n, seed, "modes");
            }
        }
    }
}

/* A burst of mixed sizes to one receiver arrives in send order. */
static void order(unsigned char *sb, unsigned char *rb)
{
    enum { BURST = 12 };
    MPI_Request req[BURST];
    size_t len[BURST], off[BURST], total = 0;
    for (int i = 0; i < BURST; i++) {
        len[i] = sizes[(size_t)i % NSIZES];
        if (len[i] > max_bytes / BURST) len[i] = max_bytes / BURST;
        off[i] = total;
        total += len[i];
    }
    if (rank == 0) {
        for (int i = 0; i < BURST; i++) {
            fill(sb + off[i], len[i], 100 + i);
            CHECK_MPI(MPI_Isend(sb + off[i], (int)len[i], MPI_BYTE, 1, 7, MPI_COMM_WORLD, &req[i]));
        }
    } else {
        for (int i = 0; i < BURST; i++)
            CHECK_MPI(MPI_Irecv(rb + off[i], (int)len[i], MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                                MPI_COMM_WORLD, &req[i]));
    }
    CHECK_MPI(MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE));
    if (rank == 1)
        for (int i = 0; i < BURST; i++) expect(rb + off[i], len[i], 100 + i, "order");
}

/* The message waits unexpected; probe and mprobe see its envelope first. */
static void probes(unsigned char *sb, unsigned char *rb)
{
    for (size_t k = 0; k < NSIZES && sizes[k] <= max_bytes; k++) {
        int n = (int)sizes[k];
        if (rank == 0) {
            fill(sb, (size_t)n, 200 + (int)k);
            CHECK_MPI(MPI_Send(sb, n, MPI_BYTE, 1, 20, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Send(sb, n, MPI_BYTE, 1, 21, MPI_COMM_WORLD));
        } else {
            MPI_Status st;
            int got;
            CHECK_MPI(MPI_Probe(0, 20, MPI_COMM_WORLD, &st));
            MPI_Get_count(&st, MPI_BYTE, &got);
            CHECK(got == n, "probe: count %d, expected %d", got, n);
            CHECK_MPI(MPI_Recv(rb, n, MPI_BYTE, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            expect(rb, (size_t)n, 200 + (int)k, "probe");
            MPI_Message m;
            CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &m, &st));
            MPI_Get_count(&st, MPI_BYTE, &got);
            CHECK(got == n && st.MPI_SOURCE == 0, "mprobe: count %d source %d", got, st.MPI_SOURCE);
            memset(rb, 0, (size_t)n);
            CHECK_MPI(MPI_Mrecv(rb, n, MPI_BYTE, &m, MPI_STATUS_IGNORE));
            expect(rb, (size_t)n, 200 + (int)k, "mrecv");
        }
    }
}

/* Every other 8-byte element: the sender's vector arrives as bytes. */
static void derived(unsigned char *sb, unsigned char *rb)
{
    size_t elems = max_bytes / 16;
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector((int)elems, 1, 2, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    if (rank == 0) {
        fill(sb, elems * 16, 300);
        CHECK_MPI(MPI_Send(sb, 1, vec, 1, 30, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(
            MPI_Recv(rb, (int)(elems * 8), MPI_BYTE, 0, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        unsigned char *want = malloc(elems * 16);
        fill(want, elems * 16, 300);
        for (size_t e = 0; e < elems; e++)
            CHECK(memcmp(rb + e * 8, want + e * 16, 8) == 0, "derived: element %zu of %zu differs",
                  e, elems);
        free(want);
    }
    MPI_Type_free(&vec);
}

static void truncation(unsigned char *sb, unsigned char *rb)
{
    int n = (int)(max_bytes < 65536 ? max_bytes : 65536);
    if (rank == 0) {
        CHECK_MPI(MPI_Send(sb, n, MPI_BYTE, 1, 40, MPI_COMM_WORLD));
    } else {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Recv(rb, n / 2, MPI_BYTE, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE,
              "truncation of %d into %d bytes: class %d, expected MPI_ERR_TRUNCATE", n, n / 2, cls);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
}

/* A synchronous send nobody receives can always be cancelled. */
static void cancel(unsigned char *sb)
{
    if (rank == 0) {
        MPI_Request r;
        MPI_Status st;
        int flag;
        CHECK_MPI(MPI_Issend(sb, (int)max_bytes, MPI_BYTE, 1, 50, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Cancel(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag, "an unreceived synchronous send of %zu bytes was not cancelled", max_bytes);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A handle counts from its allocation: allocated before the cases, read after. */
static MPI_T_pvar_session pv_session;

static MPI_T_pvar_handle pvar_open(const char *name)
{
    int idx, count;
    MPI_T_pvar_handle h;
    CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx) == MPI_SUCCESS,
          "no MPI_T counter %s", name);
    CHECK_MPI(MPI_T_pvar_handle_alloc(pv_session, idx, NULL, &h, &count));
    MPI_T_pvar_start(pv_session, h); /* continuous counters refuse, and need not */
    return h;
}

static unsigned long long pvar_read(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK_MPI(MPI_T_pvar_read(pv_session, h, &v));
    return v;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: xport_conformance eager|cma|pipeline|ucx|ucx_iov");
    const char *path = argv[1];
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    rank = pu_init_pair(&argc, &argv);
    size_t eager = pu_env_size("TERN_SMP_EAGERSIZE", 16384);
    max_bytes = strcmp(path, "eager") == 0 ? eager : (size_t)4 << 20;

    CHECK_MPI(MPI_T_pvar_session_create(&pv_session));
    MPI_T_pvar_handle h_eager = pvar_open("tern_shm_eager_messages"),
                      h_cma = pvar_open("tern_shm_cma_messages"),
                      h_pipe = pvar_open("tern_shm_pipeline_messages");
    MPI_T_pvar_handle h_ucx_eager = pvar_open("tern_ucx_eager_messages"),
                      h_ucx_rndv = pvar_open("tern_ucx_rndv_messages");
    unsigned char *sb = malloc(max_bytes * 2 + 64), *rb = malloc(max_bytes * 2 + 64);
    CHECK(sb && rb, "out of memory");
    modes(sb, rb);
    order(sb, rb);
    probes(sb, rb);
    derived(sb, rb);
    truncation(sb, rb);
    cancel(sb);

    /* Counted where the data left: rank 0 sent nearly everything. */
    unsigned long long eager_n = pvar_read(h_eager), cma_n = pvar_read(h_cma),
                       pipe_n = pvar_read(h_pipe);
    unsigned long long ucx_eager_n = pvar_read(h_ucx_eager), ucx_rndv_n = pvar_read(h_ucx_rndv);
    MPI_T_pvar_session_free(&pv_session);
    if (rank == 0) {
        printf("path %s: eager %llu, cma %llu, pipeline %llu, ucx eager %llu, ucx rendezvous %llu "
               "messages\n",
               path, eager_n, cma_n, pipe_n, ucx_eager_n, ucx_rndv_n);
    }
    /* The UCX path: the peer is on another (simulated) host or shared
     * memory is off; both UCX protocols, and nothing through shared memory. */
    if (rank == 0 && !strncmp(path, "ucx", 3)) {
        CHECK(ucx_eager_n > 0 && ucx_rndv_n > 0,
              "the UCX run did not use both UCX eager and UCX rendezvous");
        CHECK(eager_n == 0 && cma_n == 0 && pipe_n == 0, "the UCX run sent through shared memory");
    } else if (rank == 0) {
        CHECK(ucx_eager_n == 0 && ucx_rndv_n == 0, "a shared-memory run sent through UCX");
        CHECK(eager_n > 0, "no message went through the eager rings");
        if (!strcmp(path, "eager"))
            CHECK(cma_n == 0 && pipe_n == 0, "the eager-only run used a rendezvous");
        if (!strcmp(path, "pipeline"))
            CHECK(pipe_n > 0 && cma_n == 0, "the pipeline run did not use only the pipeline");
        if (!strcmp(path, "cma") && cma_n == 0 && pipe_n > 0) {
            printf("skipped: CMA is refused between these processes, the pipeline carried the "
                   "rendezvous\n");
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 77);
        }
        if (!strcmp(path, "cma"))
            CHECK(cma_n > 0 && pipe_n == 0, "the CMA run did not use only CMA");
    }
    free(sb);
    free(rb);
    MPI_Finalize();
    MPI_T_finalize();
    return 0;
}
