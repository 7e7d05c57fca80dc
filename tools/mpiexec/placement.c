/* Which host each rank runs on.  Hydra's order: the hosts in turn, each
 * taking as many consecutive ranks as -ppn says (or its slot count), and
 * round again while ranks remain.  So -hosts a,b -n 4 gives a:0,2 b:1,3 and
 * -hosts a:2,b:2 -n 4 gives a:0,1 b:2,3. */
#include "mpiexec.h"

void placement_compute(const struct options *o, int size, int *host_of)
{
    int r = 0;
    while (r < size)
        for (int h = 0; h < o->nhosts && r < size; h++) {
            int take = o->ppn > 0 ? o->ppn : o->hosts[h].slots;
            for (int i = 0; i < take && r < size; i++) host_of[r++] = h;
        }
}
