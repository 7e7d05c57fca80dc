/* Graph topologies (MPI_Graph_*) and MPI_Topo_test.  Node i of the graph
 * is rank i of the new communicator (no reordering). */
#include <stdlib.h>

#include "api/check.h"
#include "api/topo_check.h"
#include "comm/comm.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"

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

TERN_WEAK_ALIAS(MPI_Graph_create)
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    static const char fn[] = "MPI_Graph_create";
    struct tern_comm *c, *nc = NULL;
    struct tern_topo *t;
    int rc, nedges, ok = 1;
    (void)reorder;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_topo_chk_new(comm_old, fn, "comm_graph", comm_graph, &c));
    TRY(chk_graph(c, fn, nnodes, index, edges, &nedges));
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
    rc = tern_topo_new_result(c, rc, nc, comm_graph);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    static const char fn[] = "MPI_Graphdims_get";
    struct tern_comm *c;
    struct tern_topo *t;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_topo_chk_comm(comm, MPI_GRAPH, fn, &c, &t));
    TRY(tern_check_ptr(c, nnodes, fn, "nnodes"));
    TRY(tern_check_ptr(c, nedges, fn, "nedges"));
    *nnodes = t->nnodes;
    *nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
out:
    tern_unlock();
    return rc;
}

/* Copies of the first min(max, n) entries: the caller says how much room it has. */
static void copy_upto(int *dst, const int *src, int max, int n)
{
    for (int i = 0; i < n && i < max; i++) dst[i] = src[i];
}

TERN_WEAK_ALIAS(MPI_Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    static const char fn[] = "MPI_Graph_get";
    struct tern_comm *c;
    struct tern_topo *t;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_topo_chk_comm(comm, MPI_GRAPH, fn, &c, &t));
    int nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
    TRY(tern_topo_chk_nonneg(c, fn, "maxindex", maxindex));
    TRY(tern_topo_chk_nonneg(c, fn, "maxedges", maxedges));
    TRY(tern_topo_chk_array(c, fn, "index", index, maxindex < t->nnodes ? maxindex : t->nnodes));
    TRY(tern_topo_chk_array(c, fn, "edges", edges, maxedges < nedges ? maxedges : nedges));
    copy_upto(index, t->index, maxindex, t->nnodes);
    copy_upto(edges, t->edges, maxedges, nedges);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    static const char fn[] = "MPI_Graph_neighbors_count";
    struct tern_comm *c;
    struct tern_topo *t;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_topo_chk_comm(comm, MPI_GRAPH, fn, &c, &t));
    TRY(tern_topo_chk_rank(c, fn, "rank", rank));
    TRY(tern_check_ptr(c, nneighbors, fn, "nneighbors"));
    *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    static const char fn[] = "MPI_Graph_neighbors";
    struct tern_comm *c;
    struct tern_topo *t;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_topo_chk_comm(comm, MPI_GRAPH, fn, &c, &t));
    TRY(tern_topo_chk_rank(c, fn, "rank", rank));
    TRY(tern_topo_chk_nonneg(c, fn, "maxneighbors", maxneighbors));
    int first = rank ? t->index[rank - 1] : 0, n = t->index[rank] - first;
    TRY(tern_topo_chk_array(c, fn, "neighbors", neighbors, maxneighbors < n ? maxneighbors : n));
    copy_upto(neighbors, t->edges + first, maxneighbors, n);
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Graph_map)
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    static const char fn[] = "MPI_Graph_map";
    struct tern_comm *c;
    int rc, nedges;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(chk_graph(c, fn, nnodes, index, edges, &nedges));
    TRY(tern_check_ptr(c, newrank, fn, "newrank"));
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Topo_test)
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    static const char fn[] = "MPI_Topo_test";
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_check_ptr(c, status, fn, "status"));
    const struct tern_topo *t = c->topo;
    *status = t ? t->kind : MPI_UNDEFINED;
out:
    tern_unlock();
    return rc;
}
