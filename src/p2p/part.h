/* Partitioned point-to-point (MPI-4.1 chapter 4) inside the library.
 *
 * A partitioned request (kind TERN_REQ_PART) is persistent.  Its two sides
 * find each other with a small "hello" message that travels at
 * initialisation on the communicator's partitioned context
 * (TERN_CTX_PART) with the user's tag: the send side sends it, the receive
 * side posts a receive for it.  Point-to-point's non-overtaking rule then
 * pairs the k-th MPI_Psend_init with the k-th MPI_Precv_init of the same
 * envelope, which is the order MPI requires; later starts reuse the pair.
 * (So every init needs its partner, as MPI says: one freed unpartnered
 * would pair with the next of its envelope on the other side.)
 *
 * The hello tells the receiver how the sender cut the buffer.  Each send
 * partition then travels as its own message, sent by MPI_Pready, with a
 * negative tag of its own on the same context (user tags are never
 * negative, so the two kinds of message cannot match each other).  The
 * receiver keeps one receive per send partition and works out which of its
 * own partitions are whole from which of those have landed.
 *
 * Arguments are trusted here: src/api/p2p_part.c checked them.  Everything
 * runs under the big lock. */
#ifndef TERN_P2P_PART_H
#define TERN_P2P_PART_H

#include <stddef.h>

#include "msg/request.h"

/* A new inactive partitioned request over 'partitions' partitions of
 * 'count' elements of dt each.  The send side sends its hello now; the
 * receive side posts the receive for it.  Returns MPI_SUCCESS or an error
 * code (not raised). */
int tern_part_send_init(const void *buf, int partitions, size_t count, struct tern_datatype *dt,
                        int dest, int tag, struct tern_comm *comm, struct tern_request **out);
int tern_part_recv_init(void *buf, int partitions, size_t count, struct tern_datatype *dt,
                        int source, int tag, struct tern_comm *comm, struct tern_request **out);

/* MPI_Start of an inactive partitioned request (r->active already set). */
int tern_part_start(struct tern_request *r);

/* Whether r is a send side; its partition count. */
int tern_part_is_send(const struct tern_request *r);
int tern_part_count(const struct tern_request *r);

/* Marks send partitions ready and sends them: the n partitions list[0..n)
 * or, when list is NULL, first..first+n-1.  Checks every one before
 * sending any: out of range or already ready this round gives MPI_ERR_ARG
 * with a message naming fn (not raised), and nothing is sent. */
int tern_part_ready(const char *fn, struct tern_request *r, const int *list, int first, int n);

/* Whether receive partition p of an active receive request has all its
 * data in the user's buffer (drives progress once when it has not). */
int tern_part_arrived(struct tern_request *r, int p);

#endif
