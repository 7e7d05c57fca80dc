/* MPI_Comm_split: colour and key of every rank, then the ordered members
 * of each colour (for intercommunicators, on both sides). */
#include <stdlib.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/errors.h"
#include "core/objects.h"
#include "datatype/datatype.h"

struct split_entry {
    int key, rank;
};

static int split_cmp(const void *a, const void *b)
{
    const struct split_entry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

struct tern_group *tern_split_group(const int *pairs, int n, const int *world, int color)
{
    struct split_entry *ent = malloc((size_t)(n > 0 ? n : 1) * sizeof *ent);
    if (!ent) return NULL;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (pairs[2 * i] == color) {
            ent[m].key = pairs[2 * i + 1];
            ent[m].rank = i;
            m++;
        }
    }
    qsort(ent, (size_t)m, sizeof *ent, split_cmp);
    struct tern_group *g = tern_group_new(m);
    if (g) {
        for (int i = 0; i < m; i++) g->world[i] = world[ent[i].rank];
        tern_group_set_rank(g);
    }
    free(ent);
    return g;
}

int tern_comm_split(struct tern_comm *c, int color, int key, struct tern_comm **out)
{
    if (c->is_inter) return tern_intercomm_split(c, color, key, out);
    int n = c->size, rc;
    int mine[2] = {color, key};
    struct tern_group *g = NULL;
    *out = NULL;
    int *all = malloc((size_t)n * 2 * sizeof(int));
    if (!all) return tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory for %d ranks", n);
    struct tern_datatype *it = tern_dt_get(MPI_INT);
    rc = tern_coll_allgather(mine, 2, it, all, 2, it, c);
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED) {
        g = tern_split_group(all, n, c->group->world, color);
        if (!g) rc = tern_err_make(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory for a group");
    }
    free(all);
    /* Every rank takes part in the context agreement, even after a local
     * failure, so the others do not hang. */
    int rc2 = tern_comm_create_from(c, g, out);
    if (g) tern_group_release(g);
    return rc ? rc : rc2;
}
