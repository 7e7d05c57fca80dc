/* Copying a matched message into its receive: what the transports (and
 * point-to-point, for sends to oneself) call once tern_match_posted() or a
 * receive found the message. */
#ifndef TERN_MSG_DELIVER_H
#define TERN_MSG_DELIVER_H

#include <stddef.h>

#include "msg/request.h"

/* A receive matched a message of 'bytes' from (src, tag): fills the status,
 * records MPI_ERR_TRUNCATE when the buffer is too small, and returns how
 * many bytes to move (r->limit is set to it as well). */
size_t tern_msg_accept(struct tern_request *r, int src, int tag, size_t bytes);

/* accept + copy 'data' (the packed message) into the receive buffer + complete. */
void tern_msg_deliver(struct tern_request *r, const void *data, size_t bytes, int src, int tag);

/* Copies the packed bytes [off, off+len) of a matched receive into place. */
void tern_msg_unpack_at(struct tern_request *r, size_t off, const void *data, size_t len);

#endif
