/* Communicators from groups alone (MPI-4): no parent communicator, so the
 * members agree their context id over MPI_COMM_WORLD, which holds every
 * process of this job.  The runtime keeps that communicator internally
 * even when only sessions use it (the user cannot name it then), so groups
 * from a session's process sets work the same way. */
#include <stdint.h>
#include <stdlib.h>

#include "comm/comm.h"
#include "core/errors.h"
#include "core/objects.h"

/* Different string tags keep concurrent constructions over overlapping
 * groups apart.  The tag lies in [-0x7fffffff, -0x40000000]: never a user's
 * tag (those are >= 0, e.g. MPI_Comm_create_group's on the same context),
 * never MPI_ANY_TAG nor a tag of the library's collectives.  Two different
 * strings may hash alike; only constructions running at the same time
 * over the same processes could then mix, which FNV-1a makes unlikely. */
static int stringtag_tag(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return -(int)(0x40000000u | (h & 0x3fffffffu));
}

int tern_comm_from_group(struct tern_group *g, const char *stringtag, struct tern_errhandler *errh,
                         struct tern_comm **out)
{
    int rc = tern_comm_create_group(&tern_comm_world, g, stringtag_tag(stringtag), out);
    if (rc || !*out) return rc;
    tern_errh_release((*out)->errh);
    tern_errh_retain(errh);
    (*out)->errh = errh;
    return MPI_SUCCESS;
}

int tern_intercomm_from_groups(struct tern_group *local, struct tern_group *remote,
                               const char *stringtag, struct tern_errhandler *errh,
                               struct tern_comm **out)
{
    uint32_t ctx;
    *out = NULL;
    /* Both sides list the union in the same order, lower group first. */
    int low = tern_groups_low(local, remote);
    struct tern_group *a = low ? local : remote, *b = low ? remote : local;
    int n = a->size + b->size;
    int *prank = malloc((size_t)n * sizeof(int));
    if (!prank) return tern_err_make(MPI_ERR_NO_MEM, "cannot allocate %d ranks", n);
    for (int i = 0; i < a->size; i++) prank[i] = a->world[i];
    for (int i = 0; i < b->size; i++) prank[a->size + i] = b->world[i];
    int me = (low ? 0 : remote->size) + local->rank;
    int rc = tern_ctx_agree(&tern_comm_world, n, prank, me, stringtag_tag(stringtag), NULL,
                            TERN_INTER_CTX_IDS, &ctx);
    free(prank);
    if (rc) return rc;
    return tern_intercomm_build(errh, local, remote, ctx, out);
}
