/* MPI_Status keeps the received size in bytes the way MPICH lays it out:
 * count_lo holds the low 32 bits, count_hi_and_cancelled the high bits
 * shifted left by one, with the cancelled flag in bit 0. */
#ifndef TERN_P2P_STATUS_H
#define TERN_P2P_STATUS_H

#include <mpi.h>
#include <stddef.h>

static inline void tern_status_set_bytes(MPI_Status *s, size_t bytes)
{
    s->count_lo = (int)(unsigned)(bytes & 0xffffffffu);
    s->count_hi_and_cancelled =
        (int)(((unsigned)(bytes >> 32) << 1) | ((unsigned)s->count_hi_and_cancelled & 1u));
}
static inline size_t tern_status_get_bytes(const MPI_Status *s)
{
    return (size_t)(unsigned)s->count_lo |
           ((size_t)((unsigned)s->count_hi_and_cancelled >> 1) << 32);
}
static inline void tern_status_set_cancelled(MPI_Status *s, int flag)
{
    s->count_hi_and_cancelled =
        (int)(((unsigned)s->count_hi_and_cancelled & ~1u) | (flag ? 1u : 0u));
}
static inline int tern_status_cancelled(const MPI_Status *s)
{
    return s->count_hi_and_cancelled & 1;
}

/* The status of an operation with no data (MPI_PROC_NULL, empty status),
 * as a single-completion call hands it to the user: MPI_ERROR is the
 * user's, written only by the multiple-completion calls (MPI-4.1 3.2.5). */
static inline void tern_status_empty_out(MPI_Status *s, int source)
{
    s->MPI_SOURCE = source;
    s->MPI_TAG = MPI_ANY_TAG;
    s->count_lo = 0;
    s->count_hi_and_cancelled = 0;
}

/* The same for a request's own status, whose MPI_ERROR is the operation's. */
static inline void tern_status_empty(MPI_Status *s, int source)
{
    tern_status_empty_out(s, source);
    s->MPI_ERROR = MPI_SUCCESS;
}

#endif
