/* Point-to-point's own calls between its files, and those the layers
 * above it (requests, collectives' schedules, the API) make into it. */
#ifndef TERN_P2P_INTERNAL_H
#define TERN_P2P_INTERNAL_H

#include <stddef.h>

#include "msg/deliver.h"
#include "msg/request.h"

struct tern_unexp;
struct tern_comm;

/* Fills a request's operation and takes references on comm and dt;
 * tern_req_release drops them (and frees the request). */
void tern_req_bind(struct tern_request *r, void *buf, size_t count, struct tern_datatype *dt,
                   int peer, int tag, struct tern_comm *comm, int ctx_offset);
void tern_req_release(struct tern_request *r);

/* (Re)starts a bound send or receive: MPI_Start uses these too. */
int tern_send_start(struct tern_request *r);
int tern_recv_start(struct tern_request *r);
/* Buffered mode: copies the message into the attached buffer and sends
 * the copy; r completes at once. */
int tern_bsend_start(struct tern_request *r);

/* MPI_Cancel of a send: withdrawn now, later (the receiver is asked), or
 * not at all when it has matched; the request completes in every case. */
void tern_cancel_send(struct tern_request *r);

/* Completes r from a message Mprobe already removed from the queue. */
void tern_recv_matched(struct tern_request *r, struct tern_unexp *u);

/* Copies source, tag, count and cancelled (not MPI_ERROR) to the user's status. */
void tern_status_copy_out(const struct tern_request *r, MPI_Status *status);

/* Registers the watch over processes of other jobs (foreign_watch.c). */
void tern_p2p_foreign_watch_init(void);

#endif
