/* The launch tree's shape: mpiexec is node 0 and the hosts are nodes
 * 1..N; node j starts nodes j*k+1 .. j*k+k (k is the fan-out).  So mpiexec
 * starts k proxies, each of them k more, and 1,000 hosts at fan-out 32 are
 * two levels deep.  The shape is a formula, not a table, so that a relay
 * routes a frame for any node of its subtree without being told the tree. */
#include "mpiexec.h"

void tree_children(int node, int nhosts, int k, int *first, int *last)
{
    long f = (long)node * k + 1, l = (long)node * k + k;
    *first = f > nhosts ? nhosts + 1 : (int)f;
    *last = l > nhosts ? nhosts : (int)l;
}

int tree_toward(int from, int node, int k)
{
    while (node > from) {
        int up = (node - 1) / k;
        if (up == from) return node;
        node = up;
    }
    return -1;
}

int tree_holds(int root, int node, int k) { return node == root || tree_toward(root, node, k) > 0; }
