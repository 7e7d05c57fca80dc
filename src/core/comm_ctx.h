/* The context ids this process has given out or offered (comm_ctx.c):
 * local bookkeeping, no messages.  The agreements that use it are in
 * src/comm/. */
#ifndef TERN_CORE_COMM_CTX_H
#define TERN_CORE_COMM_CTX_H

#include <stdint.h>

/* An agreement holds the range it offers (so no concurrent agreement
 * offers it too), then keeps the one all agree on or drops its offer.
 * 'owner' orders concurrent agreements: lower wins, 0 is a blocking one. */
#define TERN_CTX_LAST 0xfffffff0u      /* ids from here on are never given out */
#define TERN_CTX_PENDING TERN_CTX_LAST /* a communicator whose ids are being agreed */
void tern_ctx_reset(void);
/* Holds the lowest range of n free ids at or above 'from'. */
int tern_ctx_hold(uint32_t from, uint32_t n, uint64_t owner, uint32_t *start);
void tern_ctx_drop(uint32_t start);
void tern_ctx_keep(uint32_t start);
/* 1 when an agreement of higher priority than 'owner' holds part of
 * [start, start + n): the lower one waits for it rather than offering
 * beyond (two agreements that offered past each other could do so forever). */
int tern_ctx_yields(uint32_t start, uint32_t n, uint64_t owner);

#endif
