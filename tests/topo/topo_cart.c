/* Cartesian topologies: coordinates, ranks and shifts in 1, 2 and 3
 * dimensions (periodic and not), grids smaller than the communicator,
 * Cart_sub, Cart_map, zero dimensions, Comm_dup, and errors. */
#include <stdlib.h>

#include "topo_util.h"

static int rank, size;

/* Rank of coords on a grid (row-major), wrapping periodic dimensions;
 * MPI_PROC_NULL off a non-periodic edge. */
static int grid_rank(int nd, const int *dims, const int *per, const int *coords)
{
    int r = 0;
    for (int d = 0; d < nd; d++) {
        int x = coords[d];
        if (x < 0 || x >= dims[d]) {
            if (!per[d]) return MPI_PROC_NULL;
            x = ((x % dims[d]) + dims[d]) % dims[d];
        }
        r = r * dims[d] + x;
    }
    return r;
}

/* Everything a grid of nd dimensions must answer. */
static void check_grid(MPI_Comm cart, int nd, const int *dims, const int *per)
{
    int st, n, cr, cs;
    CHECK_MPI(MPI_Topo_test(cart, &st));
    CHECK(st == MPI_CART, "Topo_test gave %d", st);
    CHECK_MPI(MPI_Cartdim_get(cart, &n));
    CHECK(n == nd, "Cartdim_get %d want %d", n, nd);
    CHECK_MPI(MPI_Comm_rank(cart, &cr));
    CHECK_MPI(MPI_Comm_size(cart, &cs));
    CHECK(cr == rank, "no reordering expected: rank %d in the grid", cr);

    int gd[3], gp[3], gc[3], c[3], back;
    CHECK_MPI(MPI_Cart_get(cart, nd, gd, gp, gc));
    for (int d = 0; d < nd; d++)
        CHECK(gd[d] == dims[d] && gp[d] == (per[d] != 0), "Cart_get dim %d: %d %d", d, gd[d],
              gp[d]);
    CHECK(grid_rank(nd, dims, per, gc) == cr, "Cart_get coords do not name me");

    /* coords <-> rank for every process of the grid. */
    for (int r = 0; r < cs; r++) {
        CHECK_MPI(MPI_Cart_coords(cart, r, nd, c));
        for (int d = 0; d < nd; d++) CHECK(c[d] >= 0 && c[d] < dims[d], "coords out of the grid");
        CHECK(grid_rank(nd, dims, per, c) == r, "coords of %d do not map back", r);
        CHECK_MPI(MPI_Cart_rank(cart, c, &back));
        CHECK(back == r, "Cart_rank(coords(%d)) = %d", r, back);
    }
    /* Periodic wrap in Cart_rank. */
    for (int d = 0; d < nd; d++) {
        if (!per[d]) continue;
        for (int k = 0; k < nd; k++) c[k] = gc[k];
        c[d] = gc[d] - 3 * dims[d];
        CHECK_MPI(MPI_Cart_rank(cart, c, &back));
        CHECK(back == cr, "Cart_rank wrapped %d gave %d, want %d", c[d], back, cr);
        c[d] = gc[d] + 2 * dims[d];
        CHECK_MPI(MPI_Cart_rank(cart, c, &back));
        CHECK(back == cr, "Cart_rank wrapped %d gave %d, want %d", c[d], back, cr);
    }
    /* Shifts by -3..3 in each direction. */
    for (int d = 0; d < nd; d++) {
        for (int disp = -3; disp <= 3; disp++) {
            int src, dst, ws, wd;
            CHECK_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
            for (int k = 0; k < nd; k++) c[k] = gc[k];
            c[d] = gc[d] + disp;
            wd = grid_rank(nd, dims, per, c);
            c[d] = gc[d] - disp;
            ws = grid_rank(nd, dims, per, c);
            CHECK(src == ws && dst == wd, "shift dim %d disp %d: %d %d want %d %d", d, disp, src,
                  dst, ws, wd);
        }
    }
    /* The coordinates are consistent across processes: the sum of every
     * process's rank-from-coords equals the sum of ranks. */
    int mine = grid_rank(nd, dims, per, gc), sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, cart));
    CHECK(sum == cs * (cs - 1) / 2, "grid ranks sum %d", sum);
}

/* Creates a grid of nd dimensions over the first prod(dims) ranks. */
static void grid_case(int nd, const int *dims, const int *per)
{
    MPI_Comm cart;
    int prod = 1;
    for (int d = 0; d < nd; d++) prod *= dims[d];
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, per, 0, &cart));
    if (rank >= prod) {
        CHECK(cart == MPI_COMM_NULL, "rank %d outside a grid of %d got a communicator", rank, prod);
        return;
    }
    CHECK(cart != MPI_COMM_NULL, "grid member got MPI_COMM_NULL");
    int cs;
    MPI_Comm_size(cart, &cs);
    CHECK(cs == prod, "grid size %d want %d", cs, prod);
    check_grid(cart, nd, dims, per);
    CHECK_MPI(MPI_Comm_free(&cart));
}

static void sub_case(void)
{
    int dims[3] = {0, 0, 0}, per[3] = {1, 0, 1};
    CHECK_MPI(MPI_Dims_create(size, 3, dims));
    MPI_Comm cart;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, per, 1, &cart));
    int me[3];
    CHECK_MPI(MPI_Cart_coords(cart, rank, 3, me));
    for (int mask = 0; mask < 8; mask++) {
        int remain[3] = {mask & 1, (mask >> 1) & 1, (mask >> 2) & 1};
        int sd[3], sp[3], sc[3], nd = 0, want = 0, mul = 1;
        for (int d = 2; d >= 0; d--) {
            if (!remain[d]) continue;
            want += me[d] * mul; /* my rank in the slice: row-major over kept dims */
            mul *= dims[d];
        }
        for (int d = 0; d < 3; d++)
            if (remain[d]) {
                sd[nd] = dims[d];
                sp[nd] = per[d];
                sc[nd++] = me[d];
            }
        MPI_Comm sub;
        CHECK_MPI(MPI_Cart_sub(cart, remain, &sub));
        CHECK(sub != MPI_COMM_NULL, "Cart_sub gave MPI_COMM_NULL");
        int sr, ss;
        MPI_Comm_rank(sub, &sr);
        MPI_Comm_size(sub, &ss);
        CHECK(sr == want && ss == mul, "Cart_sub mask %d: rank %d size %d want %d %d", mask, sr, ss,
              want, mul);
        if (nd > 0) {
            int gd[3], gp[3], gc[3];
            CHECK_MPI(MPI_Cart_get(sub, nd, gd, gp, gc));
            for (int k = 0; k < nd; k++)
                CHECK(gd[k] == sd[k] && gp[k] == sp[k] && gc[k] == sc[k],
                      "Cart_sub mask %d dim %d: %d %d %d", mask, k, gd[k], gp[k], gc[k]);
            /* The slice holds exactly the processes sharing my dropped
             * coordinates: sum their world ranks both ways. */
            int sum = 0, want_sum = 0;
            CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, sub));
            for (int r = 0; r < size; r++) {
                int c[3], same = 1;
                MPI_Cart_coords(cart, r, 3, c);
                for (int d = 0; d < 3; d++) same &= remain[d] || c[d] == me[d];
                if (same) want_sum += r;
            }
            CHECK(sum == want_sum, "Cart_sub mask %d: slice sum %d want %d", mask, sum, want_sum);
        } else {
            int n, st;
            CHECK_MPI(MPI_Cartdim_get(sub, &n));
            CHECK_MPI(MPI_Topo_test(sub, &st));
            CHECK(n == 0 && st == MPI_CART, "Cart_sub with nothing kept: ndims %d topo %d", n, st);
        }
        CHECK_MPI(MPI_Comm_free(&sub));
    }
    /* A duplicate keeps the grid, even after the original goes. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(cart, &dup));
    CHECK_MPI(MPI_Comm_free(&cart));
    check_grid(dup, 3, dims, per);
    CHECK_MPI(MPI_Comm_free(&dup));
}

static void errors(void)
{
    MPI_Comm cart, c2;
    int x, co[3] = {0, 0, 0};
    int dims[1] = {size + 1}, per[1] = {0};
    EXPECT_ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &cart), MPI_ERR_ARG,
               "MPI_Cart_create");
    dims[0] = 0;
    EXPECT_ERR(MPI_Cart_create(MPI_COMM_SELF, 1, dims, per, 0, &cart), MPI_ERR_DIMS, "dims[0]=0");
    dims[0] = -2;
    EXPECT_ERR(MPI_Cart_create(MPI_COMM_SELF, 1, dims, per, 0, &cart), MPI_ERR_DIMS, "dims[0]=-2");
    EXPECT_ERR(MPI_Cart_create(MPI_COMM_SELF, -1, dims, per, 0, &cart), MPI_ERR_ARG, "ndims");
    EXPECT_ERR(MPI_Cart_create(MPI_COMM_NULL, 1, dims, per, 0, &cart), MPI_ERR_COMM,
               "MPI_Cart_create");
    dims[0] = size + 1;
    EXPECT_ERR(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, per, &x), MPI_ERR_DIMS, "MPI_Cart_map");

    /* Queries on a communicator without the right topology. */
    EXPECT_ERR(MPI_Cartdim_get(MPI_COMM_WORLD, &x), MPI_ERR_TOPOLOGY, "MPI_Cartdim_get");
    EXPECT_ERR(MPI_Cart_coords(MPI_COMM_WORLD, 0, 1, co), MPI_ERR_TOPOLOGY, "MPI_Cart_coords");
    EXPECT_ERR(MPI_Cart_sub(MPI_COMM_WORLD, co, &c2), MPI_ERR_TOPOLOGY, "MPI_Cart_sub");
    EXPECT_ERR(MPI_Cart_shift(MPI_COMM_SELF, 0, 1, &x, &x), MPI_ERR_TOPOLOGY, "MPI_Cart_shift");

    int d2[2] = {size, 1}, p2[2] = {0, 1};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, d2, p2, 0, &cart));
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    EXPECT_ERR(MPI_Cart_coords(cart, size, 2, co), MPI_ERR_RANK, "MPI_Cart_coords");
    EXPECT_ERR(MPI_Cart_coords(cart, -1, 2, co), MPI_ERR_RANK, "rank=-1");
    EXPECT_ERR(MPI_Cart_coords(cart, 0, 1, co), MPI_ERR_ARG, "maxdims");
    EXPECT_ERR(MPI_Cart_shift(cart, 2, 1, &x, &x), MPI_ERR_ARG, "direction=2");
    EXPECT_ERR(MPI_Cart_shift(cart, -1, 1, &x, &x), MPI_ERR_ARG, "direction=-1");
    co[0] = size;
    co[1] = 0;
    EXPECT_ERR(MPI_Cart_rank(cart, co, &x), MPI_ERR_ARG, "coords[0]");
    co[0] = -1;
    EXPECT_ERR(MPI_Cart_rank(cart, co, &x), MPI_ERR_ARG, "MPI_Cart_rank");
    co[0] = 0;
    co[1] = 5; /* periodic: fine */
    CHECK_MPI(MPI_Cart_rank(cart, co, &x));
    CHECK(x == 0, "Cart_rank wrapped gave %d", x);
    EXPECT_ERR(MPI_Graphdims_get(cart, &x, &x), MPI_ERR_TOPOLOGY, "MPI_Graphdims_get");
    EXPECT_ERR(MPI_Graph_neighbors_count(cart, 0, &x), MPI_ERR_TOPOLOGY, "graph");
    EXPECT_ERR(MPI_Dist_graph_neighbors_count(cart, &x, &x, &x), MPI_ERR_TOPOLOGY,
               "MPI_Dist_graph_neighbors_count");
    EXPECT_ERR(MPI_Cart_get(cart, 2, NULL, co, co), MPI_ERR_ARG, "dims");
    EXPECT_ERR(MPI_Topo_test(MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Topo_test");
    CHECK_MPI(MPI_Comm_free(&cart));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    int st;
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &st));
    CHECK(st == MPI_UNDEFINED, "MPI_COMM_WORLD has topology %d", st);

    /* 1-D, periodic and not, whole and smaller than the communicator. */
    for (int p = 0; p < 2; p++) {
        int per[1] = {p}, d1[1] = {size};
        grid_case(1, d1, per);
        if (size > 1) {
            d1[0] = size - 1;
            grid_case(1, d1, per);
        }
    }
    /* 2-D and 3-D from Dims_create, every periodicity. */
    for (int mask = 0; mask < 4; mask++) {
        int d2[2] = {0, 0}, p2[2] = {mask & 1, mask >> 1};
        CHECK_MPI(MPI_Dims_create(size, 2, d2));
        grid_case(2, d2, p2);
        int d3[3] = {0, 0, 0}, p3[3] = {mask & 1, mask >> 1, 1};
        CHECK_MPI(MPI_Dims_create(size, 3, d3));
        grid_case(3, d3, p3);
    }
    /* A 2 x k grid on part of the communicator. */
    if (size >= 4) {
        int d2[2] = {size / 2 - 1 > 0 ? size / 2 - 1 : 1, 2}, p2[2] = {1, 0};
        grid_case(2, d2, p2);
    }

    /* Zero dimensions: one process, grid of one. */
    MPI_Comm zero;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero));
    if (rank == 0) {
        int n, s;
        CHECK(zero != MPI_COMM_NULL, "rank 0 got no 0-d grid");
        CHECK_MPI(MPI_Cartdim_get(zero, &n));
        CHECK_MPI(MPI_Comm_size(zero, &s));
        CHECK(n == 0 && s == 1, "0-d grid: ndims %d size %d", n, s);
        int r = -1;
        CHECK_MPI(MPI_Cart_rank(zero, NULL, &r));
        CHECK(r == 0, "0-d Cart_rank %d", r);
        MPI_Comm_free(&zero);
    } else {
        CHECK(zero == MPI_COMM_NULL, "rank %d got a 0-d grid", rank);
    }

    /* Cart_map: identity placement. */
    int nr, d1[1] = {size > 1 ? size - 1 : 1}, p1[1] = {0};
    CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, d1, p1, &nr));
    CHECK(nr == (rank < d1[0] ? rank : MPI_UNDEFINED), "Cart_map gave %d", nr);

    sub_case();
    errors();
    MPI_Finalize();
    return 0;
}
