/* Blocking algorithms that build the schedule of the nonblocking form and
 * run it to completion: the intercommunicator ones (nbc_inter.c), the
 * linear rooted ones (nbc_rooted.c), allgather's linear and alltoall's
 * exchange (nbc_all.c), and gather, scatter, allgatherv,
 * reduce_scatter(_block), scan and exscan by host (coll_hier_rooted.c,
 * coll_hier_allgatherv.c, coll_hier_reduce_scatter.c, coll_hier_scan.c),
 * whose messages across hosts take far longer than a
 * schedule's steps.  The schedule takes the communicator's next collective
 * tag, as MPI_I<coll> would. */
#include "coll/coll_hier.h"
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/nbc_inter.h"
#include "coll/sched.h"

/* Runs the schedule 'build' adds to s (a fresh one on c, named fn). */
#define RUN(c, fn, build)                                           \
    do {                                                            \
        struct tern_sched *s;                                       \
        int rc_ = tern_sched_create(c, fn, &s);                     \
        return rc_ != MPI_SUCCESS ? rc_ : tern_sched_run(s, build); \
    } while (0)

int tern_coll_barrier_inter_leader(struct tern_comm *c)
{
    RUN(c, "MPI_Barrier", tern_nbc_inter_barrier(s));
}

int tern_coll_bcast_inter_leader(void *buf, size_t count, struct tern_datatype *dt, int root,
                                 struct tern_comm *c)
{
    RUN(c, "MPI_Bcast", tern_nbc_inter_bcast(s, buf, count, dt, root));
}

int tern_coll_gather_inter_leader(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                  void *rbuf, size_t rcount, struct tern_datatype *rdt, int root,
                                  struct tern_comm *c)
{
    RUN(c, "MPI_Gather", tern_nbc_inter_gather(s, sbuf, scount, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_gatherv_inter_direct(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                   void *rbuf, const int *rcounts, const int *displs,
                                   struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    RUN(c, "MPI_Gatherv",
        tern_nbc_inter_gatherv(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root));
}

int tern_coll_scatter_inter_leader(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                   void *rbuf, size_t rcount, struct tern_datatype *rdt, int root,
                                   struct tern_comm *c)
{
    RUN(c, "MPI_Scatter", tern_nbc_inter_scatter(s, sbuf, scount, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_scatterv_inter_direct(const void *sbuf, const int *scounts, const int *displs,
                                    struct tern_datatype *sdt, void *rbuf, size_t rcount,
                                    struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    RUN(c, "MPI_Scatterv",
        tern_nbc_inter_scatterv(s, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_allgather_inter_leader(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                     void *rbuf, size_t rcount, struct tern_datatype *rdt,
                                     struct tern_comm *c)
{
    RUN(c, "MPI_Allgather", tern_nbc_inter_allgather(s, sbuf, scount, sdt, rbuf, rcount, rdt));
}

int tern_coll_allgatherv_inter_leader(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                      void *rbuf, const int *rcounts, const int *displs,
                                      struct tern_datatype *rdt, struct tern_comm *c)
{
    RUN(c, "MPI_Allgatherv",
        tern_nbc_inter_allgatherv(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt));
}

int tern_coll_bcast_linear(void *buf, size_t count, struct tern_datatype *dt, int root,
                           struct tern_comm *c)
{
    RUN(c, "MPI_Bcast", tern_nbc_bcast_linear(s, buf, count, dt, root));
}

int tern_coll_gather_linear(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                            size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    RUN(c, "MPI_Gather", tern_nbc_gather_linear(s, sbuf, scount, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_gatherv_linear(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                             const int *rcounts, const int *displs, struct tern_datatype *rdt,
                             int root, struct tern_comm *c)
{
    RUN(c, "MPI_Gatherv",
        tern_nbc_gatherv_linear(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root));
}

int tern_coll_scatter_linear(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                             size_t rcount, struct tern_datatype *rdt, int root,
                             struct tern_comm *c)
{
    RUN(c, "MPI_Scatter", tern_nbc_scatter_linear(s, sbuf, scount, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_scatterv_linear(const void *sbuf, const int *scounts, const int *displs,
                              struct tern_datatype *sdt, void *rbuf, size_t rcount,
                              struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    RUN(c, "MPI_Scatterv",
        tern_nbc_scatterv_linear(s, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_allgather_linear(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                               void *rbuf, size_t rcount, struct tern_datatype *rdt,
                               struct tern_comm *c)
{
    RUN(c, "MPI_Allgather", tern_nbc_allgather_linear(s, sbuf, scount, sdt, rbuf, rcount, rdt));
}

int tern_coll_allgatherv_linear(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                void *rbuf, const int *rcounts, const int *displs,
                                struct tern_datatype *rdt, struct tern_comm *c)
{
    RUN(c, "MPI_Allgatherv",
        tern_nbc_allgatherv_linear(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt));
}

int tern_coll_alltoall_exchange(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                                void *rbuf, size_t rcount, struct tern_datatype *rdt,
                                struct tern_comm *c)
{
    RUN(c, "MPI_Alltoall", tern_nbc_alltoall_exchange(s, sbuf, scount, sdt, rbuf, rcount, rdt));
}

int tern_coll_alltoallv_exchange(const void *sbuf, const int *scounts, const int *sdispls,
                                 struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                                 const int *rdispls, struct tern_datatype *rdt, struct tern_comm *c)
{
    RUN(c, "MPI_Alltoallv",
        tern_nbc_alltoallv_exchange(s, sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt));
}

int tern_coll_alltoallw_exchange(const void *sbuf, const int *scounts, const int *sdispls,
                                 struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                                 const int *rdispls, struct tern_datatype *const *rdts,
                                 struct tern_comm *c)
{
    RUN(c, "MPI_Alltoallw",
        tern_nbc_alltoallw_exchange(s, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts));
}

int tern_coll_reduce_inter_leader(const void *sbuf, void *rbuf, size_t count,
                                  struct tern_datatype *dt, struct tern_op *op, int root,
                                  struct tern_comm *c)
{
    RUN(c, "MPI_Reduce", tern_nbc_inter_reduce(s, sbuf, rbuf, count, dt, op, root));
}

int tern_coll_allreduce_inter_leader(const void *sbuf, void *rbuf, size_t count,
                                     struct tern_datatype *dt, struct tern_op *op,
                                     struct tern_comm *c)
{
    RUN(c, "MPI_Allreduce", tern_nbc_inter_allreduce(s, sbuf, rbuf, count, dt, op));
}

int tern_coll_reduce_scatter_inter_leader(const void *sbuf, void *rbuf, const int *rcounts,
                                          struct tern_datatype *dt, struct tern_op *op,
                                          struct tern_comm *c)
{
    RUN(c, "MPI_Reduce_scatter", tern_nbc_inter_reduce_scatter(s, sbuf, rbuf, rcounts, 0, dt, op));
}

int tern_coll_reduce_scatter_block_inter_leader(const void *sbuf, void *rbuf, size_t rcount,
                                                struct tern_datatype *dt, struct tern_op *op,
                                                struct tern_comm *c)
{
    RUN(c, "MPI_Reduce_scatter_block",
        tern_nbc_inter_reduce_scatter(s, sbuf, rbuf, NULL, rcount, dt, op));
}

int tern_coll_gather_hier(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                          size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    RUN(c, "MPI_Gather", tern_nbc_gather_hier(s, sbuf, scount, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_scatter_hier(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                           size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c)
{
    RUN(c, "MPI_Scatter", tern_nbc_scatter_hier(s, sbuf, scount, sdt, rbuf, rcount, rdt, root));
}

int tern_coll_reduce_scatter_hier(const void *sbuf, void *rbuf, const int *rcounts,
                                  struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c)
{
    RUN(c, "MPI_Reduce_scatter", tern_nbc_reduce_scatter_hier(s, sbuf, rbuf, rcounts, dt, op));
}

int tern_coll_reduce_scatter_block_hier(const void *sbuf, void *rbuf, size_t rcount,
                                        struct tern_datatype *dt, struct tern_op *op,
                                        struct tern_comm *c)
{
    RUN(c, "MPI_Reduce_scatter_block",
        tern_nbc_reduce_scatter_block_hier(s, sbuf, rbuf, rcount, dt, op));
}

int tern_coll_allgatherv_hier(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                              void *rbuf, const int *rcounts, const int *displs,
                              struct tern_datatype *rdt, struct tern_comm *c)
{
    RUN(c, "MPI_Allgatherv",
        tern_nbc_allgatherv_hier(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt));
}

int tern_coll_scan_hier(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                        struct tern_op *op, struct tern_comm *c)
{
    RUN(c, "MPI_Scan", tern_nbc_scan_hier(s, sbuf, rbuf, count, dt, op));
}

int tern_coll_exscan_hier(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                          struct tern_op *op, struct tern_comm *c)
{
    RUN(c, "MPI_Exscan", tern_nbc_exscan_hier(s, sbuf, rbuf, count, dt, op));
}
