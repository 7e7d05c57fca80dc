/* Packing into the pipeline's shared chunks.
 *
 * The lines of a chunk were last read by the receiving core, so each one
 * the sender writes must first be taken back from it.  A bulk copy streams
 * that; the scattered small stores of a pack loop take one cross-core miss
 * per line, which costs hundreds of nanoseconds when the two cores share
 * no cache.  So short pieces are packed into a small private buffer and
 * copied over whole.  (Eager packets are packed straight into the ring:
 * measured, staging them gained nothing there and cost 10-25% when the
 * cores share a cache.) */
#include <string.h>

#include "transport/shm/shm_internal.h"

/* Pieces shorter than this go through the private buffer; longer ones are
 * copied whole lines at a time already. */
#define STAGE_PIECE 256

int shm_short_pieces(const struct tern_datatype *dt, const void *buf, size_t count)
{
    if (dt->contig) return 0;
    struct tern_dt_view v;
    tern_dt_view_local(&v, dt, buf, count);
    return tern_dt_view_piece(&v) < STAGE_PIECE;
}

void shm_pack_staged(const struct tern_datatype *dt, const void *buf, size_t count, size_t off,
                     char *dst, size_t len)
{
    struct tern_dt_view v;
    tern_dt_view_local(&v, dt, buf, count);
    static _Alignas(SHM_LINE) char stage[8192];
    for (size_t done = 0; done < len; done += sizeof stage) {
        size_t n = len - done < sizeof stage ? len - done : sizeof stage;
        tern_dt_view_pack(&v, off + done, stage, n);
        memcpy(dst + done, stage, n);
    }
}
