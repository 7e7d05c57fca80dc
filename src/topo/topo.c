/* Topology objects: life cycle, the neighbour lists the collectives use,
 * Cartesian arithmetic, and building a communicator that carries one. */
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/objects.h"
#include "topo/topo.h"

struct tern_topo *tern_topo_new(int kind)
{
    struct tern_topo *t = calloc(1, sizeof *t);
    if (t) t->kind = kind;
    return t;
}

int *tern_topo_ints(const int *src, int n, int *ok)
{
    if (n <= 0 || !src) return NULL;
    int *p = malloc((size_t)n * sizeof *p);
    if (!p) {
        *ok = 0;
        return NULL;
    }
    memcpy(p, src, (size_t)n * sizeof *p);
    return p;
}

void tern_topo_free(void *topo)
{
    struct tern_topo *t = topo;
    if (!t) return;
    free(t->dims);
    free(t->periods);
    free(t->coords);
    free(t->index);
    free(t->edges);
    free(t->inw);
    free(t->outw);
    free(t->in);
    free(t->out);
    free(t);
}

int tern_topo_copy(const struct tern_comm *from, struct tern_comm *to)
{
    const struct tern_topo *s = from->topo;
    if (!s) return MPI_SUCCESS;
    struct tern_topo *t = tern_topo_new(s->kind);
    if (!t) return tern_err_make(MPI_ERR_NO_MEM, "cannot copy a process topology");
    int ok = 1, nedges = s->nnodes > 0 && s->index ? s->index[s->nnodes - 1] : 0;
    *t = *s;
    t->dims = tern_topo_ints(s->dims, s->ndims, &ok);
    t->periods = tern_topo_ints(s->periods, s->ndims, &ok);
    t->coords = tern_topo_ints(s->coords, s->ndims, &ok);
    t->index = tern_topo_ints(s->index, s->nnodes, &ok);
    t->edges = tern_topo_ints(s->edges, nedges, &ok);
    t->inw = tern_topo_ints(s->inw, s->indeg, &ok);
    t->outw = tern_topo_ints(s->outw, s->outdeg, &ok);
    t->in = tern_topo_ints(s->in, s->indeg, &ok);
    t->out = tern_topo_ints(s->out, s->outdeg, &ok);
    if (!ok) {
        tern_topo_free(t);
        return tern_err_make(MPI_ERR_NO_MEM, "cannot copy a process topology");
    }
    to->topo = t;
    return MPI_SUCCESS;
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case MPI_CART: return "Cartesian";
    case MPI_GRAPH: return "graph";
    case MPI_DIST_GRAPH: return "distributed graph";
    default: return "process";
    }
}

int tern_topo_require(struct tern_comm *c, int kind, const char *fn, struct tern_topo **out)
{
    struct tern_topo *t = c->topo;
    if (t && (kind == 0 || t->kind == kind)) {
        *out = t;
        return MPI_SUCCESS;
    }
    char lb[64];
    if (!t)
        return tern_err_comm(c, MPI_ERR_TOPOLOGY, "%s: %s has no %s topology", fn,
                             tern_comm_label(c, lb, sizeof lb), kind_name(kind));
    return tern_err_comm(c, MPI_ERR_TOPOLOGY, "%s: %s has a %s topology, not a %s one", fn,
                         tern_comm_label(c, lb, sizeof lb), kind_name(t->kind), kind_name(kind));
}

int tern_topo_neighbors(struct tern_comm *c, int *indeg, const int **in, int *outdeg,
                        const int **out)
{
    const struct tern_topo *t = c->topo;
    if (!t) return MPI_ERR_TOPOLOGY;
    *indeg = t->indeg;
    *in = t->in;
    *outdeg = t->outdeg;
    *out = t->out;
    return MPI_SUCCESS;
}

int tern_cart_rank_of(const struct tern_topo *t, const int *coords)
{
    int r = 0;
    for (int d = 0; d < t->ndims; d++) r = r * t->dims[d] + coords[d];
    return r;
}

void tern_cart_coords_of(const struct tern_topo *t, int rank, int *coords)
{
    for (int d = t->ndims - 1; d >= 0; d--) {
        coords[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

/* The rank at coords with dimension dir moved to coordinate x, or
 * MPI_PROC_NULL off the edge of a non-periodic dimension. */
static int cart_moved(const struct tern_topo *t, const int *coords, int dir, long x)
{
    long n = t->dims[dir];
    if (x < 0 || x >= n) {
        if (!t->periods[dir]) return MPI_PROC_NULL;
        x %= n;
        if (x < 0) x += n;
    }
    int r = 0;
    for (int d = 0; d < t->ndims; d++) r = r * t->dims[d] + (d == dir ? (int)x : coords[d]);
    return r;
}

void tern_cart_shift(const struct tern_topo *t, const int *coords, int dir, int disp, int *src,
                     int *dst)
{
    *src = cart_moved(t, coords, dir, (long)coords[dir] - disp);
    *dst = cart_moved(t, coords, dir, (long)coords[dir] + disp);
}

int tern_cart_finish(struct tern_topo *t, int rank)
{
    int n = t->ndims;
    if (n == 0) return MPI_SUCCESS;
    t->coords = malloc((size_t)n * sizeof(int));
    t->in = malloc((size_t)n * 2 * sizeof(int));
    t->out = malloc((size_t)n * 2 * sizeof(int));
    if (!t->coords || !t->in || !t->out)
        return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate a %d-dimensional grid", n);
    tern_cart_coords_of(t, rank, t->coords);
    for (int d = 0; d < n; d++)
        tern_cart_shift(t, t->coords, d, 1, &t->in[2 * d], &t->in[2 * d + 1]);
    memcpy(t->out, t->in, (size_t)n * 2 * sizeof(int));
    t->indeg = t->outdeg = 2 * n;
    return MPI_SUCCESS;
}
