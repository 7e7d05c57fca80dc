/* Communicators made from another with a context id agreed by messages
 * over the parent: the agreement itself (blocking; comm_idup.c has the
 * nonblocking one), MPI_Comm_dup/create/split's common step and
 * MPI_Comm_create_group. */
#include <stdlib.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/errors.h"
#include "core/objects.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

/* One round of a blocking agreement: v[0] becomes the largest offer of
 * all participants (and the peer's side), v[1] the smallest. */
static int agree_round(struct tern_comm *parent, int n, const int *prank, int me, int tag,
                       const struct tern_ctx_peer *peer, uint32_t v[2])
{
    struct tern_datatype *bt = tern_dt_get(MPI_BYTE);
    uint32_t in[2];
    int mask, rc;
#define PR(i) (prank ? prank[(i)] : (i))
#define MERGE()                         \
    do {                                \
        if (in[0] > v[0]) v[0] = in[0]; \
        if (in[1] < v[1]) v[1] = in[1]; \
    } while (0)
    for (mask = 1; mask < n; mask <<= 1) {
        if (me & mask) {
            rc = tern_send(v, 2 * sizeof *v, bt, PR(me - mask), tag, parent, TERN_CTX_COLL);
            if (rc) return rc;
            rc = tern_recv(v, 2 * sizeof *v, bt, PR(me - mask), tag, parent, TERN_CTX_COLL,
                           MPI_STATUS_IGNORE);
            if (rc) return rc;
            break;
        }
        if (me + mask < n) {
            rc = tern_recv(in, sizeof in, bt, PR(me + mask), tag, parent, TERN_CTX_COLL,
                           MPI_STATUS_IGNORE);
            if (rc) return rc;
            MERGE();
        }
    }
    if (me == 0 && peer && peer->swap) {
        peer->swap(peer->arg, v, in);
        MERGE();
    } else if (me == 0 && peer) {
        rc = tern_sendrecv(v, 2 * sizeof *v, bt, peer->rank, peer->tag, in, sizeof in, bt,
                           peer->rank, peer->tag, peer->comm, TERN_CTX_COLL, MPI_STATUS_IGNORE);
        if (rc) return rc;
        MERGE();
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (me + mask < n) {
            rc = tern_send(v, 2 * sizeof *v, bt, PR(me + mask), tag, parent, TERN_CTX_COLL);
            if (rc) return rc;
        }
    }
#undef MERGE
#undef PR
    return MPI_SUCCESS;
}

int tern_ctx_agree(struct tern_comm *parent, int n, const int *prank, int me, int tag,
                   const struct tern_ctx_peer *peer, int nids, uint32_t *out)
{
    /* Rounds of offers until all are equal: each offer is the lowest range
     * free here at or above the largest of the last round, so a round in
     * which some offer was lower is followed by one that agrees unless
     * another agreement took that range meanwhile.  A blocking agreement
     * has the highest priority (owner 0): it never waits for another. */
    uint32_t mine, v[2];
    int rc = tern_ctx_hold(0, (uint32_t)nids, 0, &mine);
    if (rc) return rc;
    for (;;) {
        v[0] = v[1] = mine;
        if ((rc = agree_round(parent, n, prank, me, tag, peer, v))) {
            tern_ctx_drop(mine);
            return rc;
        }
        if (v[0] == v[1]) {
            tern_ctx_keep(mine);
            *out = mine;
            return MPI_SUCCESS;
        }
        tern_ctx_drop(mine);
        if ((rc = tern_ctx_hold(v[0], (uint32_t)nids, 0, &mine))) return rc;
    }
}

int tern_comm_create_from(struct tern_comm *parent, struct tern_group *group,
                          struct tern_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = tern_ctx_agree(parent, parent->size, NULL, parent->rank, TERN_TAG_CTX, NULL, 2, &ctx);
    if (rc) return rc;
    if (!group) return MPI_SUCCESS;
    /* new communicators inherit the parent's handler */
    rc = tern_comm_build(parent->errh, group, ctx, 1, out);
    if (rc == MPI_SUCCESS) tern_comm_inherit_session(*out, parent);
    return rc;
}

int tern_comm_create_group(struct tern_comm *parent, struct tern_group *group, int tag,
                           struct tern_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    if (group->rank == MPI_UNDEFINED) return MPI_SUCCESS;
    int *prank = malloc((size_t)group->size * sizeof(int));
    if (!prank) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate %d ranks", group->size);
    int rc = tern_group_ranks_in(group, parent->group, prank);
    if (rc == MPI_SUCCESS)
        rc = tern_ctx_agree(parent, group->size, prank, group->rank, tag, NULL, 2, &ctx);
    free(prank);
    if (rc) return rc;
    rc = tern_comm_build(parent->errh, group, ctx, 1, out);
    if (rc == MPI_SUCCESS) tern_comm_inherit_session(*out, parent);
    return rc;
}
