/* The UCX transport between hosts (its workings: ucx_internal.h): the
 * operations table point-to-point routes the peers on other hosts to. */
#ifndef TERN_TRANSPORT_UCX_UCX_H
#define TERN_TRANSPORT_UCX_UCX_H

#include "msg/transport_ops.h"

extern const struct tern_transport tern_ucx_transport;

#endif
