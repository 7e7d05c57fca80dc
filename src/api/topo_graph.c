/* Graph topologies (MPI_Graph_*) and MPI_Topo_test.  Node i of the graph
 * is rank i of the new communicator (no reordering). */
#include <stdlib.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "api/topo_check.h"
#include "comm/comm.h"
#include "core/errors.h"

/* nnodes within c, index non-decreasing from 0, edges naming nodes; *nedges
 * is index[nnodes - 1]. */
static int chk_graph(struct tern_comm *c, const char *fn, int nnodes, const int *index,
                     const int *edges, int *nedges)
{
    int rc;
    if ((rc = tern_topo_chk_nonneg(c, fn, "nnodes", nnodes))) return rc;
    if (nnodes > c->size) {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_ARG, "%s: nnodes=%d is more than the %d ranks of %s", fn,
                             nnodes, c->size, tern_comm_label(c, lb, sizeof lb));
    }
    if ((rc = tern_topo_chk_array(c, fn, "index", index, nnodes))) return rc;
    for (int i = 0; i < nnodes; i++) {
        int prev = i ? index[i - 1] : 0;
        if (index[i] < prev)
            return tern_err_comm(c, MPI_ERR_ARG,
                                 "%s: index[%d]=%d is less than %s=%d (index must not decrease)",
                                 fn, i, index[i], i ? "the entry before" : "0", prev);
    }
    *nedges = nnodes ? index[nnodes - 1] : 0;
    if ((rc = tern_topo_chk_array(c, fn, "edges", edges, *nedges))) return rc;
    for (int j = 0; j < *nedges; j++) {
        if (edges[j] < 0 || edges[j] >= nnodes)
            return tern_err_comm(c, MPI_ERR_ARG, "%s: edges[%d]=%d is not a node (valid: 0..%d)",
                                 fn, j, edges[j], nnodes - 1);
    }
    return MPI_SUCCESS;
}

/* Node 'rank''s edges, the neighbours of both kinds. */
static int graph_finish(struct tern_topo *t, int rank)
{
    int first = rank ? t->index[rank - 1] : 0, n = t->index[rank] - first, ok = 1;
    t->in = tern_topo_ints(t->edges + first, n, &ok);
    t->out = tern_topo_ints(t->edges + first, n, &ok);
    if (!ok) return tern_err_make(MPI_ERR_NO_MEM, "MPI_Graph_create: out of memory");
    t->indeg = t->outdeg = n;
    return MPI_SUCCESS;
}

int tern_api_graph_create(const char *fn, struct tern_comm *comm_old_o, int nnodes,
                          const int index[], const int edges[], int reorder, MPI_Comm *comm_graph)
{
    struct tern_comm *c = comm_old_o, *nc = NULL;
    struct tern_topo *t;
    int rc, nedges = 0, ok = 1;
    (void)reorder;
    if ((rc = chk_graph(c, fn, nnodes, index, edges, &nedges))) return rc;
    if ((t = tern_topo_new(MPI_GRAPH))) {
        t->nnodes = nnodes;
        t->index = tern_topo_ints(index, nnodes, &ok);
        t->edges = tern_topo_ints(edges, nedges, &ok);
        if (!ok) {
            tern_topo_free(t);
            t = NULL; /* reported by the construction, which every rank still joins */
        }
    }
    rc = tern_topo_comm_create(c, nnodes, t, graph_finish, &nc);
    return tern_topo_new_result(c, rc, nc, comm_graph);
}

int tern_api_graphdims_get(const char *fn, struct tern_comm *comm_o, int *nnodes, int *nedges)
{
    (void)fn;
    const struct tern_topo *t = comm_o->topo;
    *nnodes = t->nnodes;
    *nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
    return MPI_SUCCESS;
}

/* Copies of the first min(max, n) entries: the caller says how much room it has. */
static void copy_upto(int *dst, const int *src, int max, int n)
{
    for (int i = 0; i < n && i < max; i++) dst[i] = src[i];
}

int tern_api_graph_get(const char *fn, struct tern_comm *comm_o, int maxindex, int maxedges,
                       int index[], int edges[])
{
    struct tern_comm *c = comm_o;
    const struct tern_topo *t = c->topo;
    int rc;
    int nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
    TRY(tern_topo_chk_nonneg(c, fn, "maxindex", maxindex));
    TRY(tern_topo_chk_nonneg(c, fn, "maxedges", maxedges));
    TRY(tern_topo_chk_array(c, fn, "index", index, maxindex < t->nnodes ? maxindex : t->nnodes));
    TRY(tern_topo_chk_array(c, fn, "edges", edges, maxedges < nedges ? maxedges : nedges));
    copy_upto(index, t->index, maxindex, t->nnodes);
    copy_upto(edges, t->edges, maxedges, nedges);
out:
    return rc;
}

int tern_api_graph_neighbors_count(const char *fn, struct tern_comm *comm_o, int rank,
                                   int *nneighbors)
{
    (void)fn;
    const struct tern_topo *t = comm_o->topo;
    *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

int tern_api_graph_neighbors(const char *fn, struct tern_comm *comm_o, int rank, int maxneighbors,
                             int neighbors[])
{
    struct tern_comm *c = comm_o;
    const struct tern_topo *t = c->topo;
    int rc;
    TRY(tern_topo_chk_nonneg(c, fn, "maxneighbors", maxneighbors));
    int first = rank ? t->index[rank - 1] : 0, n = t->index[rank] - first;
    TRY(tern_topo_chk_array(c, fn, "neighbors", neighbors, maxneighbors < n ? maxneighbors : n));
    copy_upto(neighbors, t->edges + first, maxneighbors, n);
out:
    return rc;
}

int tern_api_graph_map(const char *fn, struct tern_comm *comm_o, int nnodes, const int index[],
                       const int edges[], int *newrank)
{
    struct tern_comm *c = comm_o;
    int rc, nedges = 0;
    if ((rc = chk_graph(c, fn, nnodes, index, edges, &nedges))) return rc;
    if ((rc = tern_check_ptr(c, newrank, fn, "newrank"))) return rc;
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int tern_api_topo_test(const char *fn, struct tern_comm *comm_o, int *status)
{
    (void)fn;
    const struct tern_topo *t = comm_o->topo;
    *status = t ? t->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
