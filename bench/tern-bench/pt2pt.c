/* Point-to-point benchmarks, after OMB 7.x (osu_latency, osu_bw, osu_bibw,
 * osu_mbw_mr, osu_multi_lat):
 *   ping-pong:  one-way latency = half the mean round trip of rank 0;
 *   window:     the sender posts a window of messages (64) and waits for
 *               them, the receiver answers with a 1-byte acknowledgement;
 *               bandwidth = bytes / time of the sender;
 *   bidirectional window: both sides post a window of receives and sends.
 * Single-pair benchmarks use ranks 0 and 1; multi-pair ones pair rank i
 * with rank i + N/2 (an odd last rank idles), start every iteration with a
 * barrier kept out of the time, and report the aggregate.  Each has a
 * blocking and a nonblocking variant; OMB has only the first of each. */
#include "tb.h"

#include <stdio.h>
#include <string.h>

enum pattern { PINGPONG, WINDOW, BIWINDOW };

struct p2p {
    enum pattern pat;
    int nb;    /* nonblocking calls */
    int multi; /* all ranks in pairs, not only 0 and 1 */
};

#define TAG_DATA 1
#define TAG_ACK 2

struct role {
    int pairs;
    int active;    /* in a pair */
    int initiator; /* first half: pings, sends the window */
    int peer;
};

static struct role role_of(const struct tb_ctx *c, const struct p2p *k)
{
    struct role r;
    r.pairs = k->multi ? c->size / 2 : 1;
    r.active = c->rank < 2 * r.pairs;
    r.initiator = c->rank < r.pairs;
    r.peer = r.initiator ? c->rank + r.pairs : c->rank - r.pairs;
    return r;
}

/* The pattern of the messages 'rank' sends into validation slot 'slot'. */
static unsigned seed_of(int rank, size_t size, size_t slot)
{
    return (unsigned)(rank + 1) * 1000003u + (unsigned)size * 7919u + (unsigned)slot * 104729u;
}

/* One iteration of the pattern for an active rank. */
static int iterate(struct tb_ctx *c, const struct p2p *k, const struct role *r, struct tb_pool *sp,
                   struct tb_pool *rp, size_t size, MPI_Request *req)
{
    /* statuses after the requests (not MPI_STATUSES_IGNORE: gcc 12
     * -Wstringop-overflow misfires on it) */
    MPI_Status *st = (MPI_Status *)(req + 2 * c->o->window);
    const int n = (int)size, w = c->o->window;
    char ack = 0;
    MPI_Comm comm = c->comm;
    switch (k->pat) {
    case PINGPONG: {
        char *s = tb_pool_next(sp), *rb = tb_pool_next(rp);
        if (r->initiator && !k->nb) {
            TB_MPI(c, MPI_Send(s, n, MPI_CHAR, r->peer, TAG_DATA, comm));
            TB_MPI(c, MPI_Recv(rb, n, MPI_CHAR, r->peer, TAG_DATA, comm, MPI_STATUS_IGNORE));
        } else if (r->initiator) {
            TB_MPI(c, MPI_Irecv(rb, n, MPI_CHAR, r->peer, TAG_DATA, comm, &req[0]));
            TB_MPI(c, MPI_Isend(s, n, MPI_CHAR, r->peer, TAG_DATA, comm, &req[1]));
            TB_MPI(c, MPI_Waitall(2, req, st));
        } else if (!k->nb) {
            TB_MPI(c, MPI_Recv(rb, n, MPI_CHAR, r->peer, TAG_DATA, comm, MPI_STATUS_IGNORE));
            TB_MPI(c, MPI_Send(s, n, MPI_CHAR, r->peer, TAG_DATA, comm));
        } else {
            TB_MPI(c, MPI_Irecv(rb, n, MPI_CHAR, r->peer, TAG_DATA, comm, &req[0]));
            TB_MPI(c, MPI_Wait(&req[0], MPI_STATUS_IGNORE));
            TB_MPI(c, MPI_Isend(s, n, MPI_CHAR, r->peer, TAG_DATA, comm, &req[0]));
            TB_MPI(c, MPI_Wait(&req[0], MPI_STATUS_IGNORE));
        }
        return 0;
    }
    case WINDOW:
        if (r->initiator) {
            for (int i = 0; i < w; i++) {
                if (k->nb)
                    TB_MPI(c, MPI_Isend(tb_pool_next(sp), n, MPI_CHAR, r->peer, TAG_DATA, comm,
                                        &req[i]));
                else
                    TB_MPI(c, MPI_Send(tb_pool_next(sp), n, MPI_CHAR, r->peer, TAG_DATA, comm));
            }
            if (k->nb) TB_MPI(c, MPI_Waitall(w, req, st));
            TB_MPI(c, MPI_Recv(&ack, 1, MPI_CHAR, r->peer, TAG_ACK, comm, MPI_STATUS_IGNORE));
        } else {
            for (int i = 0; i < w; i++) {
                if (k->nb)
                    TB_MPI(c, MPI_Irecv(tb_pool_next(rp), n, MPI_CHAR, r->peer, TAG_DATA, comm,
                                        &req[i]));
                else
                    TB_MPI(c, MPI_Recv(tb_pool_next(rp), n, MPI_CHAR, r->peer, TAG_DATA, comm,
                                       MPI_STATUS_IGNORE));
            }
            if (k->nb) TB_MPI(c, MPI_Waitall(w, req, st));
            TB_MPI(c, MPI_Send(&ack, 1, MPI_CHAR, r->peer, TAG_ACK, comm));
        }
        return 0;
    case BIWINDOW:
        if (k->nb) {
            for (int i = 0; i < w; i++)
                TB_MPI(c,
                       MPI_Irecv(tb_pool_next(rp), n, MPI_CHAR, r->peer, TAG_DATA, comm, &req[i]));
            for (int i = 0; i < w; i++)
                TB_MPI(c, MPI_Isend(tb_pool_next(sp), n, MPI_CHAR, r->peer, TAG_DATA, comm,
                                    &req[w + i]));
            TB_MPI(c, MPI_Waitall(2 * w, req, st));
        } else {
            for (int i = 0; i < w; i++)
                TB_MPI(c, MPI_Sendrecv(tb_pool_next(sp), n, MPI_CHAR, r->peer, TAG_DATA,
                                       tb_pool_next(rp), n, MPI_CHAR, r->peer, TAG_DATA, comm,
                                       MPI_STATUS_IGNORE));
        }
        return 0;
    }
    return 0;
}

struct step {
    const struct p2p *k;
    const struct role *r;
    struct tb_pool *sp, *rp;
    size_t size;
    MPI_Request *req;
};

static int step(struct tb_ctx *c, void *arg)
{
    struct step *s = arg;
    return iterate(c, s->k, s->r, s->sp, s->rp, s->size, s->req);
}

/* Does this rank send (and receive) data in the pattern? */
static int sends(const struct p2p *k, const struct role *r)
{
    return r->active && (k->pat != WINDOW || r->initiator);
}
static int receives(const struct p2p *k, const struct role *r)
{
    return r->active && (k->pat != WINDOW || !r->initiator);
}

/* Validation memory, per direction: every message of a window gets a slot
 * of its own (with its own pattern, so a message lost, repeated, out of
 * order or mixed with another is caught) while the window's data fit in
 * VALID_BYTES; beyond that the messages take the slots in turn, and those
 * that share a slot share its pattern (the receives of one window are all
 * outstanding at once, and a library may fill them in any order).  After
 * each message's bytes comes a guard, which must stay as it was. */
#define VALID_BYTES ((size_t)16 << 20)
#define GUARD 64

struct vmem {
    char *s, *r;
    size_t bytes;
};

static size_t round_line(size_t n) { return (n + 63) & ~(size_t)63; }

static int vmem_init(struct tb_ctx *c, struct vmem *v, size_t max)
{
    size_t stride = round_line(max) + GUARD, w = (size_t)c->o->window;
    size_t cap = VALID_BYTES + w * GUARD;
    v->bytes = stride * w < cap ? stride * w : cap;
    if (v->bytes < stride) v->bytes = stride;
    v->s = tb_alloc(c, v->bytes);
    v->r = tb_alloc(c, v->bytes);
    return v->s && v->r ? 0 : -1;
}

static void vpool(struct tb_pool *p, char *base, size_t bytes, size_t size, size_t msgs)
{
    memset(p, 0, sizeof *p);
    p->base = base;
    p->bytes = bytes;
    p->stride = round_line(size) + GUARD;
    size_t n = round_line(size) ? VALID_BYTES / round_line(size) : msgs;
    if (n > msgs) n = msgs;
    if (n > bytes / p->stride) n = bytes / p->stride;
    p->nslots = n ? n : 1;
    p->fresh = 1;
}

/* One untimed iteration with patterned data: what arrived is checked, and
 * so are the guards after it and the messages sent (a send must leave its
 * buffer alone). */
static int validate(struct tb_ctx *c, const struct p2p *k, const struct role *r, struct vmem *v,
                    size_t size, MPI_Request *req)
{
    size_t msgs = k->pat == PINGPONG ? 1 : (size_t)c->o->window;
    struct tb_pool sp, rp;
    vpool(&sp, v->s, v->bytes, size, msgs);
    vpool(&rp, v->r, v->bytes, size, msgs);
    unsigned guard = seed_of(c->rank, size, (size_t)-1);
    for (size_t j = 0; j < rp.nslots; j++) {
        char *b = v->r + j * rp.stride;
        memset(b, 0, size);
        tb_fill(b + size, rp.stride - size, guard);
        tb_fill(v->s + j * sp.stride, size, seed_of(c->rank, size, j));
    }
    if (r->active) TB_TRY(iterate(c, k, r, &sp, &rp, size, req));
    char what[64];
    for (size_t j = 0; j < rp.nslots; j++) {
        char *b = v->r + j * rp.stride;
        if (receives(k, r)) {
            snprintf(what, sizeof what, "message %zu of %zu received", j, msgs);
            TB_TRY(tb_check(c, b, size, seed_of(r->peer, size, j), what));
            snprintf(what, sizeof what, "bytes after message %zu received", j);
            TB_TRY(tb_check(c, b + size, rp.stride - size, guard, what));
        }
        if (sends(k, r)) {
            snprintf(what, sizeof what, "send buffer of message %zu after the send", j);
            TB_TRY(tb_check_sent(c, v->s + j * sp.stride, size, seed_of(c->rank, size, j), what));
        }
    }
    return 0;
}

static void p2p_columns(struct tb_ctx *c, const struct p2p *k, const struct role *r)
{
    static const struct tb_col lat[] = {{"size", "B", 0, 0}, {"latency", "us", 2, -1}};
    /* latency is rank 0's pair, the figure osu_multi_lat prints; then the
     * spread over all pairs */
    static const struct tb_col mlat[] = {{"size", "B", 0, 0},
                                         {"latency", "us", 2, -1},
                                         {"avg", "us", 2, -1},
                                         {"min", "us", 2, -1},
                                         {"max", "us", 2, -1}};
    static const struct tb_col bw[] = {{"size", "B", 0, 0}, {"bandwidth", "MB/s", 2, +1}};
    static const struct tb_col mbw[] = {
        {"size", "B", 0, 0}, {"bandwidth", "MB/s", 2, +1}, {"rate", "msg/s", 0, +1}};
    if (k->multi)
        snprintf(c->note, sizeof c->note, "pairs: %d (rank i with rank i+%d)", r->pairs, r->pairs);
    if (k->pat == PINGPONG)
        tb_columns(c, k->multi ? 5 : 2, k->multi ? mlat : lat);
    else
        tb_columns(c, k->multi ? 3 : 2, k->multi ? mbw : bw);
}

/* One result row from this rank's time t of 'iters' timed iterations. */
static int p2p_row(struct tb_ctx *c, const struct p2p *k, const struct role *r, size_t size,
                   int iters, double t)
{
    double row[5] = {(double)size, 0, 0, 0, 0};
    if (k->pat == PINGPONG) {
        /* rank 0 prints its own time, as OMB does; the other columns
         * summarise the ranks that start the round trips */
        row[1] = t * 1e6 / (2.0 * iters);
        TB_TRY(tb_stats(c, r->active && r->initiator, row[1], &row[3], &row[2], &row[4]));
    } else {
        /* mean time of the ranks that send, as osu_mbw_mr (one pair: rank 0's) */
        double mn, avg, mx;
        TB_TRY(tb_stats(c, r->active && r->initiator, t, &mn, &avg, &mx));
        double msgs = (double)r->pairs * c->o->window * iters * (k->pat == BIWINDOW ? 2 : 1);
        row[1] = msgs * (double)size / avg / 1e6;
        row[2] = msgs / avg;
    }
    tb_row(c, row);
    return 0;
}

static int run_p2p(struct tb_ctx *c)
{
    const struct p2p *k = c->b->arg;
    struct role r = role_of(c, k);
    size_t max = tb_max_size(c);
    struct tb_pool sp, rp;
    TB_TRY(tb_pool_init(c, &sp, max));
    TB_TRY(tb_pool_init(c, &rp, max));
    MPI_Request *req =
        tb_alloc(c, 2 * (size_t)c->o->window * (sizeof(MPI_Request) + sizeof(MPI_Status)));
    if (!req) return -1;
    struct vmem v = {NULL, NULL, 0};
    if (c->o->validate) TB_TRY(vmem_init(c, &v, max));
    p2p_columns(c, k, &r);

    /* osu_mbw_mr keeps the small-message counts at every size */
    enum tb_kind kind = k->pat == PINGPONG ? TB_LAT : k->multi ? TB_MBW : TB_BW;
    for (size_t size = (size_t)-1; tb_next_size(c, &size);) {
        if (c->o->validate) TB_TRY(tb_validated(c, size, validate(c, k, &r, &v, size, req)));
        int iters = tb_iters(c, kind, size), warm = tb_warmup(c, kind, size);
        tb_pool_set(&sp, size);
        tb_pool_set(&rp, size);
        struct step st = {k, &r, &sp, &rp, size, req};
        double t;
        TB_TRY(tb_time_omb(c, r.active, warm, iters, k->multi, step, &st, &t));
        TB_TRY(p2p_row(c, k, &r, size, iters, t));
    }
    return 0;
}

static const struct p2p pp_b = {PINGPONG, 0, 0}, pp_nb = {PINGPONG, 1, 0};
static const struct p2p bw_b = {WINDOW, 0, 0}, bw_nb = {WINDOW, 1, 0};
static const struct p2p bibw_b = {BIWINDOW, 0, 0}, bibw_nb = {BIWINDOW, 1, 0};
static const struct p2p mbw_b = {WINDOW, 0, 1}, mbw_nb = {WINDOW, 1, 1};
static const struct p2p mlat_b = {PINGPONG, 0, 1}, mlat_nb = {PINGPONG, 1, 1};

#define MiB4 ((size_t)4 << 20)

const struct tb_bench tb_pt2pt_benches[] = {
    {"latency", "pt2pt",
     "ping-pong one-way latency (half round trip), MPI_Send/MPI_Recv, ranks 0-1", 2, 0, MiB4, 1,
     run_p2p, &pp_b},
    {"latency-nb", "pt2pt", "ping-pong one-way latency, MPI_Isend/MPI_Irecv + MPI_Wait, ranks 0-1",
     2, 0, MiB4, 1, run_p2p, &pp_nb},
    {"bw", "pt2pt", "bandwidth 0->1, window of 64 MPI_Isend + MPI_Waitall, then an ack", 2, 1, MiB4,
     1, run_p2p, &bw_nb},
    {"bw-blocking", "pt2pt", "bandwidth 0->1, window of 64 MPI_Send / MPI_Recv, then an ack", 2, 1,
     MiB4, 1, run_p2p, &bw_b},
    {"bibw", "pt2pt", "bidirectional bandwidth 0<->1, windows of 64 MPI_Irecv + MPI_Isend each way",
     2, 1, MiB4, 1, run_p2p, &bibw_nb},
    {"bibw-blocking", "pt2pt", "bidirectional bandwidth 0<->1, window of 64 MPI_Sendrecv", 2, 1,
     MiB4, 1, run_p2p, &bibw_b},
    {"mbw-mr", "pt2pt",
     "multi-pair bandwidth and message rate, i -> i+N/2, windows of 64 MPI_Isend", 2, 1, MiB4, 1,
     run_p2p, &mbw_nb},
    {"mbw-mr-blocking", "pt2pt",
     "multi-pair bandwidth and message rate, i -> i+N/2, windows of 64 MPI_Send", 2, 1, MiB4, 1,
     run_p2p, &mbw_b},
    {"multi-lat", "pt2pt", "multi-pair ping-pong latency, i <-> i+N/2, MPI_Send/MPI_Recv", 2, 0,
     MiB4, 1, run_p2p, &mlat_b},
    {"multi-lat-nb", "pt2pt", "multi-pair ping-pong latency, i <-> i+N/2, MPI_Isend/MPI_Irecv", 2,
     0, MiB4, 1, run_p2p, &mlat_nb},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL},
};
