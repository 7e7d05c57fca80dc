/* The blocking collectives: entry points that run the algorithm the
 * selection layer picks (coll/select.h).  All take checked arguments. */
#ifndef TERN_COLL_COLL_H
#define TERN_COLL_COLL_H

#include <mpi.h>
#include <stddef.h>

struct tern_comm;
struct tern_datatype;
struct tern_op;

int tern_coll_barrier(struct tern_comm *c);
int tern_coll_bcast(void *buf, size_t count, struct tern_datatype *dt, int root,
                    struct tern_comm *c);
int tern_coll_allreduce(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                        struct tern_op *op, struct tern_comm *c);
int tern_coll_allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                        size_t rcount, struct tern_datatype *rdt, struct tern_comm *c);

/* Tags of the library's own messages on a communicator's collective context
 * (ctx + TERN_CTX_COLL).  They are negative so they can never equal the
 * user's tag of MPI_Comm_create_group, which also travels on that context;
 * -1 (MPI_ANY_TAG) is never used. */
enum tern_coll_tag {
    TERN_TAG_BARRIER = -1000,
    TERN_TAG_BCAST,
    TERN_TAG_GATHER,
    TERN_TAG_GATHERV,
    TERN_TAG_SCATTER,
    TERN_TAG_SCATTERV,
    TERN_TAG_ALLGATHER,
    TERN_TAG_ALLGATHERV,
    TERN_TAG_ALLTOALL,
    TERN_TAG_REDUCE,
    TERN_TAG_ALLREDUCE,
    TERN_TAG_REDUCE_SCATTER,
    TERN_TAG_SCAN,
    TERN_TAG_EXSCAN,
    TERN_TAG_CTX, /* context-id agreement of communicator construction */
};

/* sbuf may be MPI_IN_PLACE where MPI allows it (rbuf for scatter at the
 * root).  Counts and displacements are those of the MPI call. */
int tern_coll_gather(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                     size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c);
int tern_coll_gatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                      const int *rcounts, const int *displs, struct tern_datatype *rdt, int root,
                      struct tern_comm *c);
int tern_coll_scatter(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                      size_t rcount, struct tern_datatype *rdt, int root, struct tern_comm *c);
int tern_coll_scatterv(const void *sbuf, const int *scounts, const int *displs,
                       struct tern_datatype *sdt, void *rbuf, size_t rcount,
                       struct tern_datatype *rdt, int root, struct tern_comm *c);
int tern_coll_allgatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                         const int *rcounts, const int *displs, struct tern_datatype *rdt,
                         struct tern_comm *c);
int tern_coll_alltoall(const void *sbuf, size_t scount, struct tern_datatype *sdt, void *rbuf,
                       size_t rcount, struct tern_datatype *rdt, struct tern_comm *c);
int tern_coll_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                        struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                        const int *rdispls, struct tern_datatype *rdt, struct tern_comm *c);
/* Displacements in bytes, one datatype per peer. */
int tern_coll_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                        struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                        const int *rdispls, struct tern_datatype *const *rdts, struct tern_comm *c);
int tern_coll_reduce(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                     struct tern_op *op, int root, struct tern_comm *c);
int tern_coll_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                             struct tern_datatype *dt, struct tern_op *op, struct tern_comm *c);
int tern_coll_reduce_scatter_block(const void *sbuf, void *rbuf, size_t rcount,
                                   struct tern_datatype *dt, struct tern_op *op,
                                   struct tern_comm *c);
int tern_coll_scan(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                   struct tern_op *op, struct tern_comm *c);
int tern_coll_exscan(const void *sbuf, void *rbuf, size_t count, struct tern_datatype *dt,
                     struct tern_op *op, struct tern_comm *c);

#endif
