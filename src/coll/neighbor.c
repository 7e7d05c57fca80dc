/* Neighbourhood collectives: every receive is posted, then every send, then
 * all are waited for; a process only talks to its neighbours, so nothing
 * smarter pays off at the degrees topologies have. */
#include <stdlib.h>

#include "coll/coll_util.h"
#include "coll/neighbor.h"
#include "topo/topo.h"

void tern_nbr_block(const struct tern_nbr_side *s, int i, char **ptr, size_t *count,
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

int tern_neighbor_exchange(struct tern_comm *c, const struct tern_nbr_side *snd,
                           const struct tern_nbr_side *rcv)
{
    int indeg, outdeg, rc;
    const int *in, *out;
    if ((rc = tern_topo_neighbors(c, &indeg, &in, &outdeg, &out)))
        return tern_err_make(rc, "neighbourhood collective on a communicator without topology");
    int n = indeg + outdeg;
    if (n == 0) return MPI_SUCCESS;
    struct tern_request **reqs = calloc((size_t)n, sizeof *reqs);
    if (!reqs) return tern_coll_nomem("neighbourhood collective", (size_t)n * sizeof *reqs);
    char *p;
    size_t cnt;
    struct tern_datatype *dt;
    for (int i = 0; i < indeg && !rc; i++) {
        tern_nbr_block(rcv, i, &p, &cnt, &dt);
        rc = tern_irecv(p, cnt, dt, in[i], tern_topo_in_tag(c, i, TERN_TAG_NEIGHBOR), c,
                        TERN_COLL_CTX, &reqs[i]);
    }
    for (int i = 0; i < outdeg && !rc; i++) {
        tern_nbr_block(snd, i, &p, &cnt, &dt);
        rc = tern_isend(p, cnt, dt, out[i], tern_topo_out_tag(c, i, TERN_TAG_NEIGHBOR), c,
                        TERN_COLL_CTX, TERN_MODE_STANDARD, &reqs[indeg + i]);
    }
    /* Whatever was started completes before the buffers go back to the user. */
    int rc2 = tern_waitall(n, reqs);
    free(reqs);
    return rc ? rc : rc2;
}

int tern_neighbor_allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                            void *rbuf, size_t rcount, struct tern_datatype *rdt,
                            struct tern_comm *c)
{
    struct tern_nbr_side snd = {.buf = sbuf, .same = 1, .count = scount, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .count = rcount, .dt = rdt};
    return tern_neighbor_exchange(c, &snd, &rcv);
}

int tern_neighbor_allgatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                             void *rbuf, const int *rcounts, const int *displs,
                             struct tern_datatype *rdt, struct tern_comm *c)
{
    struct tern_nbr_side snd = {.buf = sbuf, .same = 1, .count = scount, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .counts = rcounts, .displs = displs, .dt = rdt};
    return tern_neighbor_exchange(c, &snd, &rcv);
}

int tern_neighbor_alltoall(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                           void *rbuf, size_t rcount, struct tern_datatype *rdt,
                           struct tern_comm *c)
{
    struct tern_nbr_side snd = {.buf = sbuf, .count = scount, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .count = rcount, .dt = rdt};
    return tern_neighbor_exchange(c, &snd, &rcv);
}

int tern_neighbor_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                            struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                            const int *rdispls, struct tern_datatype *rdt, struct tern_comm *c)
{
    struct tern_nbr_side snd = {.buf = sbuf, .counts = scounts, .displs = sdispls, .dt = sdt};
    struct tern_nbr_side rcv = {.buf = rbuf, .counts = rcounts, .displs = rdispls, .dt = rdt};
    return tern_neighbor_exchange(c, &snd, &rcv);
}

int tern_neighbor_alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                            struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                            const MPI_Aint *rdispls, struct tern_datatype *const *rdts,
                            struct tern_comm *c)
{
    struct tern_nbr_side snd = {.buf = sbuf, .counts = scounts, .bdispls = sdispls, .dts = sdts};
    struct tern_nbr_side rcv = {.buf = rbuf, .counts = rcounts, .bdispls = rdispls, .dts = rdts};
    return tern_neighbor_exchange(c, &snd, &rcv);
}
