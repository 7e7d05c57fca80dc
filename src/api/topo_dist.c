/* Distributed graph topologies: MPI_Dist_graph_*.  The new communicator
 * has the old one's ranks (no reordering); info hints are not used. */
#include <stdlib.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/topo_check.h"
#include "comm/comm.h"
#include "core/errors.h"
#include "core/info.h"

/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY name no storage. */
static int no_weights(const int *w) { return w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY; }

/* Weights of n edges: present (MPI_WEIGHTS_EMPTY only when n == 0) and
 * not negative. */
static int chk_weights(struct tern_comm *c, const char *fn, const char *arg, const int *w, int n)
{
    if (w == MPI_UNWEIGHTED) return MPI_SUCCESS;
    if (n > 0 && (w == MPI_WEIGHTS_EMPTY || !w))
        return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is %s but there are %d edges", fn, arg,
                             w ? "MPI_WEIGHTS_EMPTY" : "NULL", n);
    for (int i = 0; i < n; i++) {
        if (w[i] < 0)
            return tern_err_comm(c, MPI_ERR_ARG, "%s: %s[%d]=%d is negative", fn, arg, i, w[i]);
    }
    return MPI_SUCCESS;
}

/* One side of an adjacent graph: degree, neighbours, weights. */
static int chk_side(struct tern_comm *c, const char *fn, const char *deg_arg, int deg,
                    const char *arg, const int *ranks, const char *w_arg, const int *w)
{
    int rc;
    if ((rc = tern_topo_chk_nonneg(c, fn, deg_arg, deg))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, arg, ranks, deg))) return rc;
    if ((rc = tern_topo_chk_ranks(c, fn, arg, ranks, deg))) return rc;
    return chk_weights(c, fn, w_arg, w, deg);
}

int tern_api_dist_graph_create_adjacent(const char *fn, struct tern_comm *comm_old_o, int indegree,
                                        const int sources[], const int sourceweights[],
                                        int outdegree, const int destinations[],
                                        const int destweights[], MPI_Info info, int reorder,
                                        MPI_Comm *comm_dist_graph)
{
    struct tern_comm *c = comm_old_o, *nc = NULL;
    struct tern_topo *t;
    struct tern_info *hints; /* checked, not used */
    int rc, ok = 1;
    (void)reorder;
    TRY(tern_info_check(info, 1, fn, "info", c, &hints));
    TRY(chk_side(c, fn, "indegree", indegree, "sources", sources, "sourceweights", sourceweights));
    TRY(chk_side(c, fn, "outdegree", outdegree, "destinations", destinations, "destweights",
                 destweights));
    if ((sourceweights == MPI_UNWEIGHTED) != (destweights == MPI_UNWEIGHTED)) {
        rc = tern_err_comm(c, MPI_ERR_ARG,
                           "%s: only one of sourceweights and destweights is MPI_UNWEIGHTED", fn);
        goto out;
    }
    if ((t = tern_topo_new(MPI_DIST_GRAPH))) {
        t->weighted = sourceweights != MPI_UNWEIGHTED;
        t->indeg = indegree;
        t->outdeg = outdegree;
        t->in = tern_topo_ints(sources, indegree, &ok);
        t->out = tern_topo_ints(destinations, outdegree, &ok);
        if (t->weighted) {
            t->inw =
                tern_topo_ints(no_weights(sourceweights) ? NULL : sourceweights, indegree, &ok);
            t->outw = tern_topo_ints(no_weights(destweights) ? NULL : destweights, outdegree, &ok);
        }
        if (!ok) {
            tern_topo_free(t);
            t = NULL; /* reported by the construction, which every rank still joins */
        }
    }
    rc = tern_topo_comm_create(c, c->size, t, NULL, &nc);
    rc = tern_topo_new_result(c, rc, nc, comm_dist_graph);
out:
    return rc;
}

/* The edges named by this process: sources, degrees, destinations. */
static int chk_edges(struct tern_comm *c, const char *fn, int n, const int *sources,
                     const int *degrees, const int *dests, long *nedges)
{
    int rc;
    long m = 0;
    if ((rc = tern_topo_chk_nonneg(c, fn, "n", n))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, "sources", sources, n))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, "degrees", degrees, n))) return rc;
    if ((rc = tern_topo_chk_ranks(c, fn, "sources", sources, n))) return rc;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return tern_err_comm(c, MPI_ERR_ARG, "%s: degrees[%d]=%d is negative", fn, i,
                                 degrees[i]);
        m += degrees[i];
        if (m > 0x7fffffff)
            return tern_err_comm(c, MPI_ERR_ARG, "%s: more than %d edges", fn, 0x7fffffff);
    }
    if ((rc = tern_topo_chk_array(c, fn, "destinations", dests, (int)m))) return rc;
    if ((rc = tern_topo_chk_ranks(c, fn, "destinations", dests, (int)m))) return rc;
    *nedges = m;
    return MPI_SUCCESS;
}

int tern_api_dist_graph_create(const char *fn, struct tern_comm *comm_old_o, int n,
                               const int sources[], const int degrees[], const int destinations[],
                               const int weights[], MPI_Info info, int reorder,
                               MPI_Comm *comm_dist_graph)
{
    struct tern_comm *c = comm_old_o, *nc = NULL;
    struct tern_topo *t;
    long nedges = 0;
    struct tern_info *hints; /* checked, not used */
    int rc;
    (void)reorder;
    TRY(tern_info_check(info, 1, fn, "info", c, &hints));
    TRY(chk_edges(c, fn, n, sources, degrees, destinations, &nedges));
    TRY(chk_weights(c, fn, "weights", weights, (int)nedges));
    if (!(t = tern_topo_new(MPI_DIST_GRAPH))) {
        rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        goto out;
    }
    t->weighted = weights != MPI_UNWEIGHTED;
    rc = tern_dist_graph_gather(c, n, sources, degrees, destinations,
                                t->weighted && !no_weights(weights) ? weights : NULL, t);
    if (rc) {
        tern_topo_free(t);
        rc = tern_err_raise(c, rc);
        goto out;
    }
    rc = tern_topo_comm_create(c, c->size, t, NULL, &nc);
    rc = tern_topo_new_result(c, rc, nc, comm_dist_graph);
out:
    return rc;
}

int tern_api_dist_graph_neighbors_count(const char *fn, struct tern_comm *comm_o, int *indegree,
                                        int *outdegree, int *weighted)
{
    (void)fn;
    const struct tern_topo *t = comm_o->topo;
    *indegree = t->indeg;
    *outdegree = t->outdeg;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}

/* Up to max neighbours (and their weights when the graph has them and the
 * caller gave room). */
static int give_side(struct tern_comm *c, const char *fn, const char *max_arg, int max,
                     const char *arg, int *ranks, int *w, const int *from, const int *from_w,
                     int deg)
{
    int rc, n = max < deg ? max : deg;
    if ((rc = tern_topo_chk_nonneg(c, fn, max_arg, max))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, arg, ranks, n))) return rc;
    /* A weighted graph's weights need room unless the caller declines them. */
    if (from_w && !w && n > 0)
        return tern_err_comm(c, MPI_ERR_ARG,
                             "%s: the weights beside %s are NULL but the graph is weighted", fn,
                             arg);
    for (int i = 0; i < n; i++) ranks[i] = from[i];
    if (from_w && w && !no_weights(w))
        for (int i = 0; i < n; i++) w[i] = from_w[i];
    return MPI_SUCCESS;
}

int tern_api_dist_graph_neighbors(const char *fn, struct tern_comm *comm_o, int maxindegree,
                                  int sources[], int sourceweights[], int maxoutdegree,
                                  int destinations[], int destweights[])
{
    struct tern_comm *c = comm_o;
    const struct tern_topo *t = c->topo;
    int rc;
    TRY(give_side(c, fn, "maxindegree", maxindegree, "sources", sources, sourceweights, t->in,
                  t->inw, t->indeg));
    TRY(give_side(c, fn, "maxoutdegree", maxoutdegree, "destinations", destinations, destweights,
                  t->out, t->outw, t->outdeg));
out:
    return rc;
}
