/* tern-proxy: the state shared by proxy_main.c (start-up) and proxy.c (the
 * loop). */
#ifndef TERN_MPIEXEC_PROXY_H
#define TERN_MPIEXEC_PROXY_H

#include "mpiexec.h"

struct proxy {
    struct job job; /* this host's ranks; rank numbers are the job's */
    struct options opt;
    int node, size, nhosts, fanout;
    char job_id[64];
    char *name; /* this host, as mpiexec's host list names it */
    int up;     /* connection to our parent: mpiexec or the proxy above us */
    struct buf up_in, up_out;
    int bye, lost;
    int stdin_eof, stdin_closed; /* "ie" came; "ic" went (relay of rank 0's stdin) */
    struct agent_conf agent;
    struct links links;          /* the proxies below us that we start and relay for */
    struct buf common;           /* the job's description up to its hosts, as it came */
    char **names;                /* by node: the hosts of our subtree, NULL elsewhere */
    int *rank_node, *rank_block; /* by rank: -1 outside our subtree */
    char *addrs, *port, *token, *self;
};

int proxy_run(struct proxy *px); /* the loop; returns the exit code */
void proxy_start_children(struct proxy *px);

#endif
