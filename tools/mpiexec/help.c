/* --help and --version. */
#include "mpiexec.h"

#include <stdio.h>

#ifndef TERN_VERSION_STRING
#define TERN_VERSION_STRING "unknown"
#endif

void help_print(void)
{
    fputs("Usage: mpiexec [options] [-n N] [NAME=VALUE...] program [args]\n"
          "               [: [-n M] [options] program2 [args] ...]\n"
          "\n"
          "Runs N copies of program as the ranks of one MPI job, on this host or,\n"
          "with -hosts/-f naming other machines, across hosts through one proxy\n"
          "(tern-proxy, installed next to mpiexec) per host.\n"
          "Blocks separated by ':' are started together (MPMD); each block's index\n"
          "is its ranks' MPI_APPNUM.\n"
          "\n"
          "Processes\n"
          "  -n N, -np N            number of ranks in this block (default 1, or the\n"
          "                         number of slots given with -hosts/-f)\n"
          "  -wdir DIR              working directory of this block's ranks\n"
          "  -nargs K               the program takes exactly K arguments, taken as\n"
          "                         they are (one may be ':'); MPI_Comm_spawn uses it\n"
          "Environment (ranks get mpiexec's environment plus these)\n"
          "  -genv NAME VALUE       set NAME in every rank\n"
          "  -env NAME VALUE        set NAME in this block's ranks\n"
          "  NAME=VALUE             before the program: same as -env (mpirun_rsh style)\n"
          "  -genvall, -envall      ranks on other hosts get mpiexec's environment\n"
          "                         (the default)\n"
          "  -genvlist A,B,...      ... only these variables of it\n"
          "  -genvnone              ... none of it (they keep the remote login's)\n"
          "Output\n"
          "  -l, -prepend-rank      prefix every output line with \"[rank] \"\n"
          "Time\n"
          "  --timeout SECONDS      end the job after SECONDS (exit code 124);\n"
          "                         also MPIEXEC_TIMEOUT in the environment\n"
          "Placement\n"
          "  -hosts LIST, -host     comma-separated host[:count]; the hosts take -ppn\n"
          "                         ranks (or count) in turn, round and round\n"
          "  -f FILE, -hostfile     the same, one host[:count] (or host slots=N) per line\n"
          "                         (inside a Slurm allocation and without either: the\n"
          "                         allocation's nodes and SLURM_TASKS_PER_NODE)\n"
          "  -ppn N                 ranks per host in each turn\n"
          "  -launcher ssh|rsh|srun|exec|fork\n"
          "                         how proxies are started on other hosts (srun: the\n"
          "                         default inside Slurm; fork: all here, to simulate hosts)\n"
          "  -launcher-exec CMD     the agent command; the host name and the proxy's\n"
          "                         command line follow it (e.g. 'ip netns exec')\n"
          "  -bind-to none|core|hwthread\n"
          "                         none sets MV2_ENABLE_AFFINITY=0 in the ranks, the\n"
          "                         others MV2_ENABLE_AFFINITY=1\n"
          "Other\n"
          "  -v, -verbose           say what is started\n"
          "  -h, --help             this text\n"
          "  --version              the version of Tern\n"
          "\n"
          "Exit status: the highest exit code of the ranks (128+N for a rank killed by\n"
          "signal N); the MPI_Abort code; 124 on timeout; 130/143 when interrupted or\n"
          "terminated; 2 for a usage error; 1 when a host is lost or cannot be reached.\n"
          "\n"
          "Parameters (environment)\n",
          stdout);
    params_help();
}

void version_print(void) { printf("mpiexec (Tern) %s\n", TERN_VERSION_STRING); }
