/* Point-to-point inside the library: used by the MPI_ entry points, by the
 * collectives (with TERN_CTX_COLL) and by communicator construction.
 * Arguments are trusted here: the API layer checked them. */
#ifndef TERN_P2P_P2P_H
#define TERN_P2P_P2P_H

#include "msg/request.h"

/* Brings up the transports every peer needs (host ids must be known) and
 * registers point-to-point's polling with the progress engine. */
int tern_p2p_init(void);
/* Until every packet owed to a peer has left: before the final fence. */
void tern_p2p_quiesce(void);
void tern_p2p_finalize(void);

/* Starts a send/receive; *out is the request (complete already when the
 * message left eagerly, or for MPI_PROC_NULL). */
int tern_isend(const void *buf, size_t count, struct tern_datatype *dt, int dest, int tag,
               struct tern_comm *comm, int ctx_offset, enum tern_send_mode mode,
               struct tern_request **out);
int tern_irecv(void *buf, size_t count, struct tern_datatype *dt, int src, int tag,
               struct tern_comm *comm, int ctx_offset, struct tern_request **out);

/* Blocks until r completes; copies its status (unless status is
 * MPI_STATUS_IGNORE) and frees it.  Returns the request's MPI_ERROR. */
int tern_wait(struct tern_request *r, MPI_Status *status);

/* Blocking forms. */
int tern_send(const void *buf, size_t count, struct tern_datatype *dt, int dest, int tag,
              struct tern_comm *comm, int ctx_offset);
int tern_recv(void *buf, size_t count, struct tern_datatype *dt, int src, int tag,
              struct tern_comm *comm, int ctx_offset, MPI_Status *status);
int tern_sendrecv(const void *sbuf, size_t scount, struct tern_datatype *sdt, int dest, int stag,
                  void *rbuf, size_t rcount, struct tern_datatype *rdt, int src, int rtag,
                  struct tern_comm *comm, int ctx_offset, MPI_Status *status);

/* Waits for all of n requests (entries may be NULL); frees them. */
int tern_waitall(int n, struct tern_request **reqs);

#endif
