/* The description of the job a proxy gets when it calls its parent (remote.c
 * lists its lines).  mpiexec writes the common part once from its options;
 * a proxy keeps the common part as it came and passes it on, so both write a
 * child's description here, from the same tables, and a parent needs nothing
 * but those tables to describe any subtree below it. */
#include "mpiexec.h"

#include <stdlib.h>

static void put_hosts(struct buf *b, const struct spec_tree *t, int node)
{
    char *e = wire_escape(t->names[node] ? t->names[node] : "?");
    wire_put(b, "host %d %s", node, e);
    free(e);
    int first, last;
    tree_children(node, t->nhosts, t->fanout, &first, &last);
    for (int c = first; c <= last; c++) put_hosts(b, t, c);
}

void spec_put(struct buf *b, const struct buf *common, const struct spec_tree *t, int root)
{
    buf_append(b, buf_ptr(common), common->len);
    put_hosts(b, t, root);
    for (int r = 0; r < t->size; r++)
        if (t->rank_node[r] > 0 && tree_holds(root, t->rank_node[r], t->fanout))
            wire_put(b, "rank %d %d %d", r, t->rank_block[r], t->rank_node[r]);
    wire_put(b, "go");
}
