/* Groups: ordered lists of world ranks.
 *
 * A group gets a handle only when the user is given one (MPI_Comm_group, the
 * group constructors): the groups behind communicators stay out of the
 * table otherwise.  References: the creator's, one per communicator built
 * on it, one per handle given to the user. */
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"
#include "core/session.h"
#include "core/state.h"

struct tern_group tern_group_empty = {
    .handle = MPI_GROUP_EMPTY, .refcount = 1, .size = 0, .rank = MPI_UNDEFINED, .world = NULL};

struct tern_objtab tern_group_table = {.kind = TERN_KIND_GROUP};

struct tern_group *tern_group_get(MPI_Group h)
{
    if (h == MPI_GROUP_EMPTY) return &tern_group_empty;
    return (struct tern_group *)tern_objtab_lookup(&tern_group_table, h);
}

struct tern_group *tern_group_new(int size)
{
    struct tern_group *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->world = malloc((size_t)(size > 0 ? size : 1) * sizeof(int));
    if (!g->world) {
        free(g);
        return NULL;
    }
    g->handle = 0;
    g->refcount = 1;
    g->size = size;
    g->rank = MPI_UNDEFINED;
    return g;
}

void tern_group_set_rank(struct tern_group *g)
{
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < g->size; i++) {
        if (g->world[i] == tern_g.world_rank) {
            g->rank = i;
            break;
        }
    }
}

void tern_group_release(struct tern_group *g)
{
    if (!g || g == &tern_group_empty) return;
    if (--g->refcount > 0) return;
    if (g->handle && tern_objtab_lookup(&tern_group_table, g->handle) == g)
        tern_objtab_remove(&tern_group_table, g->handle);
    tern_session_release(g->session);
    free(g->world);
    free(g);
}

int tern_group_publish(struct tern_group *g, MPI_Group *out)
{
    if (g->size == 0) {
        tern_group_release(g);
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    if (!g->handle || tern_objtab_lookup(&tern_group_table, g->handle) != g) {
        int h = tern_objtab_insert(&tern_group_table, g);
        if (!h) {
            tern_group_release(g);
            return MPI_ERR_NO_MEM;
        }
        g->handle = h;
    }
    *out = g->handle;
    return MPI_SUCCESS;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int tern_group_compare(const struct tern_group *a, const struct tern_group *b)
{
    if (a == b) return MPI_IDENT;
    if (a->size != b->size) return MPI_UNEQUAL;
    if (a->size == 0 || memcmp(a->world, b->world, (size_t)a->size * sizeof(int)) == 0)
        return MPI_IDENT;
    int *x = malloc((size_t)a->size * 2 * sizeof(int));
    if (!x) return MPI_UNEQUAL; /* cannot tell; callers check sizes first anyway */
    int *y = x + a->size;
    memcpy(x, a->world, (size_t)a->size * sizeof(int));
    memcpy(y, b->world, (size_t)a->size * sizeof(int));
    qsort(x, (size_t)a->size, sizeof(int), cmp_int);
    qsort(y, (size_t)a->size, sizeof(int), cmp_int);
    int res = memcmp(x, y, (size_t)a->size * sizeof(int)) == 0 ? MPI_SIMILAR : MPI_UNEQUAL;
    free(x);
    return res;
}

static void group_drop(void *obj, void *arg)
{
    struct tern_group *g = obj;
    (void)arg;
    if (g == tern_comm_world.group || g == tern_comm_self.group) return; /* still in use */
    free(g->world);
    free(g);
}

/* At finalize, after the communicators: groups the user did not free. */
void tern_group_finalize(void)
{
    tern_objtab_foreach(&tern_group_table, group_drop, NULL);
    tern_objtab_destroy(&tern_group_table);
}
