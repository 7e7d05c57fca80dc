/* Process binding, policy "bunch": the i-th rank on this kernel (simulated
 * hosts on one machine share its cores) runs on the i-th core this job was
 * allowed (wrapping around when ranks outnumber cores).  Done by the
 * library at MPI_Init, so it works under any launcher. */
#include "topo/bind.h"

#include <sched.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/errors.h"
#include "core/params.h"
#include "core/state.h"

static cpu_set_t initial_set;
static int have_initial;

int tern_topo_usable_cores(void)
{
    if (!have_initial) {
        if (sched_getaffinity(0, sizeof initial_set, &initial_set) != 0) return 1;
        have_initial = 1;
    }
    int n = CPU_COUNT(&initial_set);
    return n > 0 ? n : 1;
}

void tern_topo_bind(void)
{
    int ncores = tern_topo_usable_cores();
    if (!tern_param.enable_affinity || !have_initial) {
        if (tern_param.show_cpu_binding)
            fprintf(stderr, "Tern: rank %d (pid %d): not bound (TERN_ENABLE_AFFINITY=0)\n",
                    tern_g.world_rank, (int)getpid());
        return;
    }
    int want = tern_g.kernel_rank % ncores, seen = 0, cpu = -1;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &initial_set)) continue;
        if (seen++ == want) {
            cpu = c;
            break;
        }
    }
    if (cpu < 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        tern_warn("could not bind rank %d to core %d: %s; running unbound", tern_g.world_rank, cpu,
                  strerror(errno));
        return;
    }
    if (tern_param.show_cpu_binding)
        fprintf(stderr, "Tern: rank %d (pid %d) bound to core %d (policy bunch, %d usable cores)\n",
                tern_g.world_rank, (int)getpid(), cpu, ncores);
}
