/* Landing a matched message in the receive buffer. */
#include <string.h>

#include "core/errors.h"
#include "datatype/datatype.h"
#include "msg/deliver.h"
#include "msg/status.h"

size_t tern_msg_accept(struct tern_request *r, int src, int tag, size_t bytes)
{
    size_t cap = r->count * r->dt->size;
    size_t n = bytes <= cap ? bytes : cap;
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    r->status.MPI_ERROR = MPI_SUCCESS;
    tern_status_set_bytes(&r->status, n);
    if (bytes > cap)
        r->status.MPI_ERROR = tern_err_make(
            MPI_ERR_TRUNCATE,
            "message truncated: the message from rank %d with tag %d has %zu bytes but the receive "
            "buffer "
            "holds only %zu (count=%zu of a %zu-byte datatype); the first %zu bytes were received",
            src, tag, bytes, cap, r->count, r->dt->size, n);
    r->limit = n;
    return n;
}

void tern_msg_unpack_at(struct tern_request *r, size_t off, const void *data, size_t len)
{
    if (r->dt->contig)
        memcpy((char *)r->buf + r->dt->true_lb + off, data, len);
    else
        tern_dt_unpack(r->dt, r->buf, r->count, off, data, len);
}

void tern_msg_deliver(struct tern_request *r, const void *data, size_t bytes, int src, int tag)
{
    size_t n = tern_msg_accept(r, src, tag, bytes);
    if (n) tern_msg_unpack_at(r, 0, data, n);
    tern_req_complete(r);
}
