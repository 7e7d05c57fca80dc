/* MPI_Dist_graph_create: any process may name any edge, so each process
 * sends every edge to both of its ends (an alltoall of counts, then an
 * alltoallv of the edges).  A process's neighbours come out in the order of
 * the process that named the edge, then the order it named them in: the
 * same at every call with the same arguments. */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/errors.h"
#include "core/objects.h"
#include "datatype/datatype.h"
#include "topo/topo.h"

/* One edge as it travels: which end the receiver is, the other end, the
 * weight. */
enum { EDGE_IN, EDGE_OUT };
#define EDGE_INTS 3

struct exchange {
    int *scounts, *sdispls, *rcounts, *rdispls; /* in ints, one per rank */
    int *sbuf, *rbuf;
};

static void exchange_free(struct exchange *x)
{
    free(x->scounts);
    free(x->sbuf);
    free(x->rbuf);
}

/* Visits every edge named here: fn(x, end, kind, other, weight). */
typedef void (*edge_fn)(struct exchange *x, int end, int kind, int other, int weight);

static void for_each_edge(struct exchange *x, int n, const int *sources, const int *degrees,
                          const int *dests, const int *weights, edge_fn fn)
{
    for (int i = 0, e = 0; i < n; i++) {
        for (int j = 0; j < degrees[i]; j++, e++) {
            int w = weights ? weights[e] : 1;
            fn(x, dests[e], EDGE_IN, sources[i], w);
            fn(x, sources[i], EDGE_OUT, dests[e], w);
        }
    }
}

static void count_edge(struct exchange *x, int end, int kind, int other, int weight)
{
    (void)kind, (void)other, (void)weight;
    x->scounts[end] += EDGE_INTS;
}

/* Uses rdispls as the fill cursor of each destination's block. */
static void put_edge(struct exchange *x, int end, int kind, int other, int weight)
{
    int *p = x->sbuf + x->sdispls[end] + x->rdispls[end];
    p[0] = kind;
    p[1] = other;
    p[2] = weight;
    x->rdispls[end] += EDGE_INTS;
}

static int prefix(const int *counts, int *displs, int n, int *total)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        displs[i] = (int)s;
        s += counts[i];
        if (s > 0x7fffffff) return MPI_ERR_COUNT;
    }
    *total = (int)s;
    return MPI_SUCCESS;
}

/* Splits the received edges into t's lists. */
static int unpack_edges(const int *r, int nints, struct tern_topo *t)
{
    int nin = 0, nout = 0;
    for (int i = 0; i < nints; i += EDGE_INTS) *(r[i] == EDGE_IN ? &nin : &nout) += 1;
    t->indeg = nin;
    t->outdeg = nout;
    t->in = malloc((size_t)(nin ? nin : 1) * sizeof(int));
    t->out = malloc((size_t)(nout ? nout : 1) * sizeof(int));
    if (t->weighted) {
        t->inw = malloc((size_t)(nin ? nin : 1) * sizeof(int));
        t->outw = malloc((size_t)(nout ? nout : 1) * sizeof(int));
    }
    if (!t->in || !t->out || (t->weighted && (!t->inw || !t->outw)))
        return tern_err_make(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %d edges",
                             nin + nout);
    nin = nout = 0;
    for (int i = 0; i < nints; i += EDGE_INTS) {
        if (r[i] == EDGE_IN) {
            if (t->weighted) t->inw[nin] = r[i + 2];
            t->in[nin++] = r[i + 1];
        } else {
            if (t->weighted) t->outw[nout] = r[i + 2];
            t->out[nout++] = r[i + 1];
        }
    }
    return MPI_SUCCESS;
}

int tern_dist_graph_gather(struct tern_comm *c, int n, const int *sources, const int *degrees,
                           const int *dests, const int *weights, struct tern_topo *t)
{
    struct tern_datatype *it = tern_dt_get(MPI_INT);
    struct exchange x = {0};
    int p = c->size, stotal, rtotal, rc;
    x.scounts = calloc((size_t)p * 4, sizeof(int));
    if (!x.scounts) goto nomem;
    x.sdispls = x.scounts + p;
    x.rcounts = x.scounts + 2 * p;
    x.rdispls = x.scounts + 3 * p;
    for_each_edge(&x, n, sources, degrees, dests, weights, count_edge);
    if ((rc = prefix(x.scounts, x.sdispls, p, &stotal))) goto toolarge;
    x.sbuf = malloc((size_t)(stotal ? stotal : 1) * sizeof(int));
    if (!x.sbuf) goto nomem;
    for_each_edge(&x, n, sources, degrees, dests, weights, put_edge);

    rc = tern_coll_alltoall(x.scounts, 1, it, x.rcounts, 1, it, c);
    if (rc) goto out;
    if ((rc = prefix(x.rcounts, x.rdispls, p, &rtotal))) goto toolarge;
    x.rbuf = malloc((size_t)(rtotal ? rtotal : 1) * sizeof(int));
    if (!x.rbuf) goto nomem;
    rc = tern_coll_alltoallv(x.sbuf, x.scounts, x.sdispls, it, x.rbuf, x.rcounts, x.rdispls, it, c);
    if (rc) goto out;
    rc = unpack_edges(x.rbuf, rtotal, t);
    goto out;
nomem:
    rc = tern_err_make(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %d ranks", p);
    goto out;
toolarge:
    rc = tern_err_make(MPI_ERR_COUNT, "MPI_Dist_graph_create: more edges than an int can count");
out:
    exchange_free(&x);
    return rc;
}
