/* Message sizes around every protocol threshold: 0, the single-line packet
 * limit (24 B), the eager limit, the pipeline chunk and twice it, the
 * cooperative CMA chunk, and large messages.  The thresholds come from the
 * same environment variables as the library's, so each registration under
 * other parameters moves the sizes with them.
 *
 * Each size goes with five type pairs (sender -> receiver): MPI_BYTE into a
 * larger buffer, MPI_INT, a stride-2 vector into MPI_INT, MPI_INT into the
 * vector, vector into vector.  Rank 0 -> 1 has the receive posted first
 * (expected path); rank 1 -> 0 arrives first (unexpected path).  Every
 * byte, the gaps of the vector and the guard after the buffer are checked,
 * with the status's source, tag and count.  Ranks beyond 1 stay idle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p_util.h"

#define GUARD 64
#define SENTINEL 0xA5

enum combo { C_BYTE, C_INT, C_VEC_INT, C_INT_VEC, C_VEC_VEC, C_N };
static const char *combo_name[] = {"byte->byte", "int->int", "vec->int", "int->vec", "vec->vec"};

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static int nsizes;
static size_t sizes[64];

static void add(size_t s) { sizes[nsizes++] = s; }

static void build_sizes(void)
{
    struct pu_limits l = pu_limits();
    add(0);
    add(1);
    add(23);
    add(24);
    add(25);
    add(l.eager - 1);
    add(l.eager);
    add(l.eager + 1);
    add(l.pipe_chunk - 1);
    add(l.pipe_chunk);
    add(l.pipe_chunk + 1);
    add(2 * l.pipe_chunk - 1);
    add(2 * l.pipe_chunk);
    add(2 * l.pipe_chunk + 1);
    add(l.coop_chunk - 1);
    add(l.coop_chunk);
    add(l.coop_chunk + 1);
    add((1 << 20) + 3);
    add(4 << 20);
    add(16 << 20);
    qsort(sizes, (size_t)nsizes, sizeof sizes[0], cmp_size);
    int k = 0;
    for (int i = 0; i < nsizes; i++)
        if (k == 0 || sizes[i] != sizes[k - 1]) sizes[k++] = sizes[i];
    nsizes = k;
}

/* What one side of a transfer uses. */
struct side {
    MPI_Datatype type; /* to pass to MPI */
    int count;
    int vec;    /* stride-2 layout of n ints */
    size_t mem; /* bytes of the buffer the type touches */
};

static struct side make_side(enum combo c, int sender, size_t bytes, size_t nints, MPI_Datatype vec)
{
    struct side s = {MPI_BYTE, 0, 0, 0};
    int v = (c == C_VEC_VEC) || (c == C_VEC_INT && sender) || (c == C_INT_VEC && !sender);
    if (c == C_BYTE) {
        s.type = MPI_BYTE;
        s.count =
            (int)(bytes + (sender ? 0 : 16)); /* the receive buffer is larger than the message */
        s.mem = (size_t)s.count;
    } else if (v) {
        s.type = vec;
        s.count = 1;
        s.vec = 1;
        s.mem = nints ? (2 * nints - 1) * sizeof(int) : 0;
    } else {
        s.type = MPI_INT;
        s.count = (int)nints;
        s.mem = nints * sizeof(int);
    }
    return s;
}

static void fill_send(char *buf, const struct side *s, enum combo c, size_t bytes, size_t nints,
                      unsigned seed)
{
    memset(buf, SENTINEL, s->mem + GUARD);
    if (c == C_BYTE) {
        pu_fill_bytes(buf, bytes, seed);
        return;
    }
    int *ip = (int *)buf;
    for (size_t i = 0; i < nints; i++) ip[s->vec ? 2 * i : i] = pu_int(i, seed);
}

static void check_recv(const char *buf, const struct side *s, enum combo c, size_t bytes,
                       size_t nints, unsigned seed, const char *what)
{
    if (c == C_BYTE) {
        size_t bad = pu_check_bytes(buf, bytes, seed);
        CHECK(bad == (size_t)-1, "%s %zu B: byte %zu is 0x%02x, expected 0x%02x", what, bytes, bad,
              (unsigned char)buf[bad], pu_byte(bad, seed));
        for (size_t i = bytes; i < s->mem + GUARD; i++)
            CHECK((unsigned char)buf[i] == SENTINEL,
                  "%s %zu B: byte %zu past the message was overwritten (0x%02x)", what, bytes, i,
                  (unsigned char)buf[i]);
        return;
    }
    const int *ip = (const int *)buf;
    for (size_t i = 0; i < nints; i++) {
        int got = ip[s->vec ? 2 * i : i];
        CHECK(got == pu_int(i, seed), "%s %zu B: int %zu is %d, expected %d", what, bytes, i, got,
              pu_int(i, seed));
    }
    if (s->vec) {
        for (size_t i = 0; i + 1 < nints; i++) {
            const unsigned char *gap = (const unsigned char *)&ip[2 * i + 1];
            for (size_t b = 0; b < sizeof(int); b++)
                CHECK(gap[b] == SENTINEL, "%s %zu B: the gap after vector element %zu was written",
                      what, bytes, i);
        }
    }
    for (size_t i = s->mem; i < s->mem + GUARD; i++)
        CHECK((unsigned char)buf[i] == SENTINEL,
              "%s %zu B: guard byte %zu after the buffer was overwritten", what, bytes, i - s->mem);
}

static void check_status(const MPI_Status *st, int src, int tag, const struct side *r, enum combo c,
                         size_t bytes, size_t nints, const char *what)
{
    CHECK(st->MPI_SOURCE == src, "%s %zu B: status.MPI_SOURCE=%d, expected %d", what, bytes,
          st->MPI_SOURCE, src);
    CHECK(st->MPI_TAG == tag, "%s %zu B: status.MPI_TAG=%d, expected %d", what, bytes, st->MPI_TAG,
          tag);
    int count = -1;
    CHECK_MPI(MPI_Get_count(st, r->type, &count));
    int want = c == C_BYTE ? (int)bytes : r->vec ? 1 : (int)nints;
    CHECK(count == want, "%s %zu B: MPI_Get_count=%d, expected %d", what, bytes, count, want);
    if (c != C_BYTE) {
        CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
        CHECK(count == (int)nints, "%s %zu B: MPI_Get_count(MPI_INT)=%d, expected %zu", what, bytes,
              count, nints);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
    build_sizes();

    size_t maxmem = 2 * sizes[nsizes - 1] + 16 + GUARD + 64;
    char *sbuf = malloc(maxmem), *rbuf = malloc(maxmem);
    CHECK(sbuf && rbuf, "out of memory for %zu-byte buffers", maxmem);

    int tag = 0;
    if (rank < 2) {
        int peer = 1 - rank;
        for (int si = 0; si < nsizes; si++) {
            size_t bytes = sizes[si];
            size_t nints = (bytes + sizeof(int) - 1) / sizeof(int);
            MPI_Datatype vec;
            CHECK_MPI(MPI_Type_vector((int)nints, 1, 2, MPI_INT, &vec));
            CHECK_MPI(MPI_Type_commit(&vec));
            for (int c = 0; c < C_N; c++) {
                if (c != C_BYTE && nints == 0) continue; /* a zero-size vector says nothing more */
                size_t msg = c == C_BYTE ? bytes : nints * sizeof(int);
                for (int dir = 0; dir < 2; dir++) {
                    tag++;
                    unsigned seed = (unsigned)(tag * 31 + dir);
                    int sender =
                        dir; /* dir 0: rank 0 sends, receive posted first; dir 1: rank 1 sends first */
                    char what[96];
                    snprintf(what, sizeof what, "%s %s, %d->%d", combo_name[c],
                             dir ? "unexpected" : "expected", sender, 1 - sender);
                    if (rank == sender) {
                        struct side s = make_side((enum combo)c, 1, bytes, nints, vec);
                        fill_send(sbuf, &s, (enum combo)c, bytes, nints, seed);
                        if (dir == 0) {
                            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
                                               MPI_STATUS_IGNORE));
                            CHECK_MPI(MPI_Send(sbuf, s.count, s.type, peer, tag, MPI_COMM_WORLD));
                        } else {
                            MPI_Request rq;
                            CHECK_MPI(
                                MPI_Isend(sbuf, s.count, s.type, peer, tag, MPI_COMM_WORLD, &rq));
                            /* The marker follows the message: once it is received, the message is there. */
                            CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD));
                            CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                            CHECK(rq == MPI_REQUEST_NULL,
                                  "%s: the request is not MPI_REQUEST_NULL after MPI_Wait", what);
                        }
                        /* The send buffer must not have been written. */
                        if (c == C_BYTE)
                            CHECK(pu_check_bytes(sbuf, bytes, seed) == (size_t)-1,
                                  "%s %zu B: send buffer changed", what, bytes);
                    } else {
                        struct side r = make_side((enum combo)c, 0, bytes, nints, vec);
                        memset(rbuf, SENTINEL, r.mem + GUARD);
                        MPI_Status st;
                        if (dir == 0) {
                            MPI_Request rq;
                            CHECK_MPI(
                                MPI_Irecv(rbuf, r.count, r.type, peer, tag, MPI_COMM_WORLD, &rq));
                            CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD));
                            CHECK_MPI(MPI_Wait(&rq, &st));
                        } else {
                            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
                                               MPI_STATUS_IGNORE));
                            int flag = 0;
                            MPI_Status pst;
                            CHECK_MPI(MPI_Iprobe(peer, tag, MPI_COMM_WORLD, &flag, &pst));
                            CHECK(flag,
                                  "%s %zu B: the message is not there after the marker that "
                                  "followed it",
                                  what, bytes);
                            CHECK(pst.MPI_SOURCE == peer && pst.MPI_TAG == tag,
                                  "%s %zu B: probe said source %d tag %d", what, bytes,
                                  pst.MPI_SOURCE, pst.MPI_TAG);
                            int pc = -1;
                            CHECK_MPI(MPI_Get_count(&pst, MPI_BYTE, &pc));
                            CHECK(pc == (int)msg, "%s %zu B: probe count %d bytes, expected %zu",
                                  what, bytes, pc, msg);
                            CHECK_MPI(
                                MPI_Recv(rbuf, r.count, r.type, peer, tag, MPI_COMM_WORLD, &st));
                        }
                        check_status(&st, peer, tag, &r, (enum combo)c, bytes, nints, what);
                        check_recv(rbuf, &r, (enum combo)c, bytes, nints, seed, what);
                    }
                }
            }
            CHECK_MPI(MPI_Type_free(&vec));
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    if (rank == 0)
        printf("sizes: %d sizes up to %zu bytes, %d ranks: ok\n", nsizes, sizes[nsizes - 1], size);
    return 0;
}
