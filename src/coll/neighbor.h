/* Neighbourhood collectives over a communicator's process topology
 * (topo/topo.h gives the neighbour lists), as schedules (coll/sched.h).
 * The blocking, nonblocking and persistent forms all build these schedules:
 * the blocking form waits for its own at once.  Arguments are checked by
 * the caller; count, displacement and datatype arrays are read while
 * building only. */
#ifndef TERN_COLL_NEIGHBOR_H
#define TERN_COLL_NEIGHBOR_H

#include <mpi.h>
#include <stddef.h>

struct tern_datatype;
struct tern_sched;

/* Where the block of neighbour i lives in one side of a neighbourhood
 * collective. */
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

/* Adds one round to s: the block of each out-neighbour goes to it, the
 * block of each in-neighbour comes from it.  MPI_PROC_NULL neighbours move
 * nothing.  MPI_ERR_TOPOLOGY (no message) when s's communicator has no
 * topology; otherwise the schedule's result. */
int tern_nbr_exchange(struct tern_sched *s, const struct tern_nbr_side *snd,
                      const struct tern_nbr_side *rcv);

int tern_nbr_allgather(struct tern_sched *s, const void *sbuf, size_t scount,
                       struct tern_datatype *sdt, void *rbuf, size_t rcount,
                       struct tern_datatype *rdt);
int tern_nbr_allgatherv(struct tern_sched *s, const void *sbuf, size_t scount,
                        struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                        const int *displs, struct tern_datatype *rdt);
int tern_nbr_alltoall(struct tern_sched *s, const void *sbuf, size_t scount,
                      struct tern_datatype *sdt, void *rbuf, size_t rcount,
                      struct tern_datatype *rdt);
int tern_nbr_alltoallv(struct tern_sched *s, const void *sbuf, const int *scounts,
                       const int *sdispls, struct tern_datatype *sdt, void *rbuf,
                       const int *rcounts, const int *rdispls, struct tern_datatype *rdt);
int tern_nbr_alltoallw(struct tern_sched *s, const void *sbuf, const int *scounts,
                       const MPI_Aint *sdispls, struct tern_datatype *const *sdts, void *rbuf,
                       const int *rcounts, const MPI_Aint *rdispls,
                       struct tern_datatype *const *rdts);

#endif
