/* Neighbourhood collectives over a communicator's process topology
 * (topo/topo.h gives the neighbour lists).  Arguments are checked by the
 * caller. */
#ifndef TERN_COLL_NEIGHBOR_H
#define TERN_COLL_NEIGHBOR_H

#include <mpi.h>
#include <stddef.h>

struct tern_comm;
struct tern_datatype;

/* Where the block of neighbour i lives in one side of a neighbourhood
 * collective; the nonblocking forms can describe their buffers the same way. */
struct tern_nbr_side {
    const char *buf;
    int same;                         /* every block is buf itself (allgather's send) */
    size_t count;                     /* blocks of equal size: allgather, alltoall */
    const int *counts;                /* per neighbour: the v and w forms */
    const int *displs;                /* v: in elements of dt */
    const MPI_Aint *bdispls;          /* w: in bytes */
    struct tern_datatype *dt;         /* all but w */
    struct tern_datatype *const *dts; /* w */
};

void tern_nbr_block(const struct tern_nbr_side *s, int i, char **ptr, size_t *count,
                    struct tern_datatype **dt);

/* The block of each out-neighbour goes to it; the block of each
 * in-neighbour comes from it.  MPI_PROC_NULL neighbours move nothing. */
int tern_neighbor_exchange(struct tern_comm *c, const struct tern_nbr_side *snd,
                           const struct tern_nbr_side *rcv);

int tern_neighbor_allgather(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                            void *rbuf, size_t rcount, struct tern_datatype *rdt,
                            struct tern_comm *c);
int tern_neighbor_allgatherv(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                             void *rbuf, const int *rcounts, const int *displs,
                             struct tern_datatype *rdt, struct tern_comm *c);
int tern_neighbor_alltoall(const void *sbuf, size_t scount, struct tern_datatype *sdt,
                           void *rbuf, size_t rcount, struct tern_datatype *rdt,
                           struct tern_comm *c);
int tern_neighbor_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                            struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                            const int *rdispls, struct tern_datatype *rdt, struct tern_comm *c);
int tern_neighbor_alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                            struct tern_datatype *const *sdts, void *rbuf, const int *rcounts,
                            const MPI_Aint *rdispls, struct tern_datatype *const *rdts,
                            struct tern_comm *c);

#endif
