/* Buffers for buffered sends (MPI-4.1 3.6).  One may hang off the process,
 * each communicator and each session (a "slot" each).  A buffered send
 * copies its message into the buffer of its communicator, else into that of
 * the session the communicator derives from, else into the process's, and
 * the copy is sent from there; the user's call completes at once.
 *
 * The functions here make error codes (naming fn) but raise none: the
 * entry points raise them on the owner's handler.  Callers hold the big
 * lock. */
#ifndef TERN_P2P_BSEND_H
#define TERN_P2P_BSEND_H

#include <mpi.h>

struct tern_bbuf;
struct tern_request;

/* The process's slot (MPI_Buffer_attach). */
extern struct tern_bbuf *tern_bbuf_process;

/* Attaches (buffer, size) to *slot; MPI_BUFFER_AUTOMATIC makes the library
 * allocate each message's copy itself (size is then ignored). */
int tern_bbuf_attach(struct tern_bbuf **slot, const char *fn, void *buffer, MPI_Count size);

/* Waits until the messages buffered in *slot have left, then detaches it:
 * *addr and *size get what was attached (MPI_BUFFER_AUTOMATIC and 0 for an
 * automatic buffer; NULL and 0 when none was).  A size above max_size (what
 * the caller's size argument can hold) is an MPI_ERR_COUNT error that
 * leaves the buffer attached. */
int tern_bbuf_detach(struct tern_bbuf **slot, const char *fn, MPI_Count max_size, void **addr,
                     MPI_Count *size);

/* Blocks until every message buffered in b (NULL: none) has left. */
void tern_bbuf_flush(struct tern_bbuf *b);

/* A request (with a handle) that completes once the messages buffered in b
 * at the time of the call have left; b may be NULL (complete at once). */
int tern_bbuf_iflush(struct tern_bbuf *b, const char *fn, struct tern_request **out);

/* Flushes and detaches *slot whatever it holds: for owners that go away
 * (MPI_Comm_free, MPI_Session_finalize, MPI_Finalize). */
void tern_bbuf_drop(struct tern_bbuf **slot);

/* Waits until no buffered message of any buffer is in flight (before the
 * transports close). */
void tern_bsend_drain_all(void);

#endif
