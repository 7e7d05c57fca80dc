/* Neighbourhood collectives as one-round schedules: every receive is posted,
 * then every send.  A process only talks to its neighbours, so nothing
 * smarter pays off at the degrees topologies have.
 *
 * Matching.  All messages of one call share the schedule's tag, so the
 * blocks two processes exchange pair up by order alone: MPI does not let
 * messages from one sender on one communicator and tag overtake each other,
 * and matches them with the receives in the order those were posted.  A
 * process sends its blocks in out-list order; each receiver must therefore
 * post its receives from one sender in the order that sender sends them.
 *
 *  - Graphs and distributed graphs: the k-th edge from s to r in s's out
 *    list is, by the definition of the lists, the k-th edge from s in r's in
 *    list, so posting receives in in-list order pairs them (repeated edges
 *    included).
 *
 *  - Cartesian grids: in and out lists are (-1 neighbour, +1 neighbour) per
 *    dimension.  A process may be both neighbours of another in a periodic
 *    dimension of size 1 or 2, and MPI wants in-slot 2d to get what the -1
 *    neighbour sent in its +1 direction (its block 2d + 1) and in-slot
 *    2d + 1 what the +1 neighbour sent in its -1 direction (block 2d).  So
 *    the sender's block j lands in the receiver's slot j ^ 1, for every
 *    pair of processes: r is s's neighbour in dimension d exactly when s is
 *    r's, the other way round.  Posting the receive of slot j ^ 1 as the j-th
 *    receive puts every receiver's receives in its senders' send order.
 *    (The blocking code used to carry the direction in the tag instead; a
 *    schedule has a single tag.)
 *
 * A persistent request's successive starts keep this order too: a start's
 * receives are posted only after the previous start's have completed. */
#include "coll/neighbor.h"

#include "coll/coll_util.h"
#include "coll/sched.h"
#include "topo/topo.h"

static void block(const struct tern_nbr_side *s, int i, char **ptr, size_t *count,
                  struct tern_datatype **dt)
{
    if (s->same) {
        *ptr = (char *)s->buf;
        *count = s->count;
        *dt = s->dt;
    } else if (s->dts) {
        *ptr = (char *)s->buf + s->bdispls[i];
        *count = (size_t)s->counts[i];
        *dt = s->dts[i];
    } else if (s->counts) {
        *ptr = tern_coll_elem(s->buf, s->dt, s->displs[i]);
        *count = (size_t)s->counts[i];
        *dt = s->dt;
    } else {
        *ptr = tern_coll_elem(s->buf, s->dt, (MPI_Aint)i * (MPI_Aint)s->count);
        *count = s->count;
        *dt = s->dt;
    }
}

/* The in-slot whose receive is posted k-th (see the top of the file). */
static int recv_slot(const struct tern_comm *c, int k)
{
    const struct tern_topo *t = c->topo;
    return t->kind == MPI_CART ? k ^ 1 : k;
}

int tern_nbr_exchange(struct tern_sched *s, const struct tern_nbr_side *snd,
                      const struct tern_nbr_side *rcv)
{
    struct tern_comm *c = tern_sched_comm(s);
    int indeg, outdeg, rc;
    const int *in, *out;
    if ((rc = tern_topo_neighbors(c, &indeg, &in, &outdeg, &out))) return rc;
    char *p;
    size_t cnt;
    struct tern_datatype *dt;
    for (int k = 0; k < indeg && !rc; k++) {
        int i = recv_slot(c, k);
        if (in[i] == MPI_PROC_NULL) continue;
        block(rcv, i, &p, &cnt, &dt);
        rc = tern_sched_recv(s, p, cnt, dt, in[i]);
    }
    for (int i = 0; i < outdeg && !rc; i++) {
        if (out[i] == MPI_PROC_NULL) continue;
        block(snd, i, &p, &cnt, &dt);
        rc = tern_sched_send(s, p, cnt, dt, out[i]);
    }
    return rc ? rc : tern_sched_round(s);
}

int tern_nbr_allgather(struct tern_sched *s, const void *sbuf, size_t scount,
                       struct tern_datatype *sdt, void *rbuf, size_t rcount,
                       struct tern_datatype *rdt)
{
    struct tern_nbr_side snd = {.buf = sbuf, .same = 1, .count = scount, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .count = rcount, .dt = rdt};
    return tern_nbr_exchange(s, &snd, &rcv);
}

int tern_nbr_allgatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                        struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                        const int *displs, struct tern_datatype *rdt)
{
    struct tern_nbr_side snd = {.buf = sbuf, .same = 1, .count = scount, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .counts = rcounts, .displs = displs, .dt = rdt};
    return tern_nbr_exchange(s, &snd, &rcv);
}

int tern_nbr_alltoall(struct tern_sched *s, const void *sbuf, size_t scount,
                      struct tern_datatype *sdt, void *rbuf, size_t rcount,
                      struct tern_datatype *rdt)
{
    struct tern_nbr_side snd = {.buf = sbuf, .count = scount, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .count = rcount, .dt = rdt};
    return tern_nbr_exchange(s, &snd, &rcv);
}

int tern_nbr_alltoallv(struct tern_sched *s, const void *sbuf, const int *scounts,
                       const int *sdispls, struct tern_datatype *sdt, void *rbuf,
                       const int *rcounts, const int *rdispls, struct tern_datatype *rdt)
{
    struct tern_nbr_side snd = {.buf = sbuf, .counts = scounts, .displs = sdispls, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .counts = rcounts, .displs = rdispls, .dt = rdt};
    return tern_nbr_exchange(s, &snd, &rcv);
}

int tern_nbr_alltoallw(struct tern_sched *s, const void *sbuf, const int *scounts,
                       const MPI_Aint *sdispls, struct tern_datatype *const *sdts, void *rbuf,
                       const int *rcounts, const MPI_Aint *rdispls,
                       struct tern_datatype *const *rdts)
{
    struct tern_nbr_side snd = {.buf = sbuf, .counts = scounts, .bdispls = sdispls, .dts = sdts};
    struct tern_nbr_side rcv = {.buf = rbuf, .counts = rcounts, .bdispls = rdispls, .dts = rdts};
    return tern_nbr_exchange(s, &snd, &rcv);
}
