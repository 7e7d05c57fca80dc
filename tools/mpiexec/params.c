/* mpiexec's own parameters, declared once: read from the environment as
 * TERN_<NAME> or, where MVAPICH2's mpirun_rsh has the same knob, its name;
 * --help lists them from this table.  (The library's parameters are in
 * src/core/params.def; these belong to the launcher alone, and the library
 * knows their names only so as not to warn about them: internal_vars in
 * src/core/params.c.) */
#include "mpiexec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct param {
    const char *name, *alias, *def, *desc;
};

static const struct param params[] = {
    {"LAUNCHER", NULL, "ssh",
     "How proxies reach other hosts: ssh, rsh, srun (the default inside a Slurm allocation), exec "
     "(the command of TERN_LAUNCHER_EXEC) or fork (every proxy on this machine)"},
    {"LAUNCHER_EXEC", NULL, "",
     "The launch agent's command; the host name and the proxy's command line follow it (e.g. "
     "'ip netns exec')"},
    {"LAUNCH_FANOUT", "MV2_MT_DEGREE", "32",
     "Proxies each proxy (and mpiexec) starts: the launch tree's fan-out"},
    {"LAUNCH_TIMEOUT", NULL, "60",
     "Seconds a host's proxy may take to call back before the host counts as unreachable"},
};
#define NPARAMS (sizeof params / sizeof params[0])

const char *param_get(const char *name)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        if (strcmp(params[i].name, name) != 0) continue;
        char var[64];
        snprintf(var, sizeof var, "TERN_%s", name);
        const char *v = getenv(var);
        if ((!v || !*v) && params[i].alias) v = getenv(params[i].alias);
        return v && *v ? v : params[i].def;
    }
    return NULL;
}

void params_help(void)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        printf("  TERN_%s", params[i].name);
        if (params[i].alias) printf(" (or %s)", params[i].alias);
        printf(", default '%s':\n      %s\n", params[i].def, params[i].desc);
    }
}
